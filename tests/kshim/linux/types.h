/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* Test shim: the kernel's fixed-width types, from compiler builtins only. */
#ifndef TLBP_KSHIM_TYPES_H
#define TLBP_KSHIM_TYPES_H
typedef __SIZE_TYPE__ size_t;
typedef _Bool bool;
typedef __UINT8_TYPE__ uint8_t;
typedef __UINT16_TYPE__ uint16_t;
typedef __UINT32_TYPE__ uint32_t;
typedef __UINT64_TYPE__ uint64_t;
typedef __INT64_TYPE__ int64_t;
typedef __UINTPTR_TYPE__ uintptr_t;
#endif
