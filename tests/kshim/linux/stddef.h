/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* Test shim: just enough of the kernel's <linux/stddef.h>. */
#ifndef TLBP_KSHIM_STDDEF_H
#define TLBP_KSHIM_STDDEF_H
#define NULL ((void *)0)
enum { false = 0, true = 1 };
#endif
