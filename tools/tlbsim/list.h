/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* tlbsim list [SCENARIO | metrics]. */
#ifndef TLBSIM_LIST_H
#define TLBSIM_LIST_H

int cmd_list(int argc, char **argv);

#endif
