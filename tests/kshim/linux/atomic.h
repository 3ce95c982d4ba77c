/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* Test shim: atomic_t with the kernel's names, over compiler builtins. */
#ifndef TLBP_KSHIM_ATOMIC_H
#define TLBP_KSHIM_ATOMIC_H
typedef struct { int counter; } atomic_t;
#define atomic_read(v) __atomic_load_n(&(v)->counter, __ATOMIC_RELAXED)
#define atomic_set(v, i) __atomic_store_n(&(v)->counter, (i), __ATOMIC_RELAXED)
#define atomic_inc(v) ((void)__atomic_fetch_add(&(v)->counter, 1, __ATOMIC_RELAXED))
#define atomic_dec(v) ((void)__atomic_fetch_sub(&(v)->counter, 1, __ATOMIC_RELAXED))
static inline int atomic_cmpxchg(atomic_t *v, int old, int new_val)
{
	__atomic_compare_exchange_n(&v->counter, &old, new_val, 0,
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	return old;
}
#endif
