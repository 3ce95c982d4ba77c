/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* Test shim: the warning macro, evaluated for its value as the kernel's is. */
#ifndef TLBP_KSHIM_BUG_H
#define TLBP_KSHIM_BUG_H
#define WARN_ON_ONCE(cond) ((cond) ? (__builtin_trap(), 1) : 0)
#endif
