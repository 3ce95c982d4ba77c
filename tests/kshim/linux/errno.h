/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* Test shim: the errno values the library uses (asm-generic numbering). */
#ifndef TLBP_KSHIM_ERRNO_H
#define TLBP_KSHIM_ERRNO_H
#define ENOENT 2
#define E2BIG 7
#define EAGAIN 11
#define ENOMEM 12
#define EBUSY 16
#define EINVAL 22
#define ENOSPC 28
#define EOPNOTSUPP 95
#endif
