/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/**
 * DOC: The one place where tlbpolicy differs between kernel and userspace
 *
 * Types, errno values, atomics, bit helpers and the export macro. Every other
 * file of the library includes this header and never tests ``__KERNEL__``
 * itself.
 *
 * Userspace builds use only the freestanding headers (stddef, stdint,
 * stdbool) and GCC/Clang ``__atomic`` builtins; kernel builds use the kernel's
 * own types, errno values and ``atomic_t``.
 *
 * Error numbers: the TLBP_E* macros are Linux errno values. The library
 * returns them negated, exactly like the kernel, so a userspace caller on
 * Linux compares with -EINVAL from <errno.h> while the library itself
 * includes no libc header.
 */
#ifndef TLBPOLICY_PLATFORM_H
#define TLBPOLICY_PLATFORM_H

#ifdef __KERNEL__

#include <linux/stddef.h>
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/bug.h>

/* The hot-path forms check their input where mm's own checks run. */
#ifdef CONFIG_DEBUG_VM
#define TLBP_DEBUG 1
#endif
#define TLBP_WARN_ON(cond) WARN_ON_ONCE(cond)

/* Kernel exports are listed in the module glue, never in portable code. */
#define TLBP_API

#define TLBP_EINVAL     EINVAL
#define TLBP_ENOSPC     ENOSPC
#define TLBP_E2BIG      E2BIG
#define TLBP_EBUSY      EBUSY
#define TLBP_EAGAIN     EAGAIN
#define TLBP_ENOENT     ENOENT
#define TLBP_EOPNOTSUPP EOPNOTSUPP
#define TLBP_ENOMEM     ENOMEM

/* An atomic int shared between agents (the kernel's own atomic_t). */
typedef atomic_t tlbp_atomic_t;

#define tlbp_atomic_read(v)            atomic_read(v)
#define tlbp_atomic_set(v, i)          atomic_set((v), (i))
#define tlbp_atomic_inc(v)             atomic_inc(v)
#define tlbp_atomic_dec(v)             atomic_dec(v)
#define tlbp_atomic_cmpxchg(v, old, n) atomic_cmpxchg((v), (old), (n))

#define tlbp_popcount_long(w) ((unsigned int)hweight_long(w))
#define tlbp_ffs_long(w)      ((unsigned int)__ffs(w))

#else /* !__KERNEL__ */

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

/**
 * define TLBP_WARN_ON - Stops the program on a broken precondition.
 * @cond: the condition that must not hold.
 *
 * Under TLBP_DEBUG, a hot-path form (fastpath.h) that finds its input
 * invalid or its answer different from the checked function's traps here.
 */
#define TLBP_WARN_ON(cond) do { if (cond) __builtin_trap(); } while (0)

/**
 * define TLBP_API - Marks a public function.
 *
 * Exported from the shared library, which is otherwise built with hidden
 * visibility.
 */
#if defined(TLBP_BUILDING_LIBRARY) && defined(__GNUC__)
#define TLBP_API __attribute__((visibility("default")))
#else
#define TLBP_API
#endif

/*
 * Error numbers: Linux errno values, returned negated (see the DOC section
 * above).
 */
/**
 * define TLBP_EINVAL - invalid argument
 */
#define TLBP_EINVAL     22
/**
 * define TLBP_ENOSPC - caller buffer too small
 */
#define TLBP_ENOSPC     28
/**
 * define TLBP_E2BIG - too many CPUs
 */
#define TLBP_E2BIG      7
/**
 * define TLBP_EBUSY - resource busy
 */
#define TLBP_EBUSY      16
/**
 * define TLBP_EAGAIN - try again
 */
#define TLBP_EAGAIN     11
/**
 * define TLBP_ENOENT - no such entry
 */
#define TLBP_ENOENT     2
/**
 * define TLBP_EOPNOTSUPP - operation not supported
 */
#define TLBP_EOPNOTSUPP 95
/**
 * define TLBP_ENOMEM - out of memory (from ops)
 */
#define TLBP_ENOMEM     12

/**
 * typedef tlbp_atomic_t - An atomic int shared between agents; access it only
 *	through the helpers.
 */
typedef struct {
	/* private: */
	int counter; /* the value */
} tlbp_atomic_t;

/*
 * Sequentially consistent, like the kernel's value-returning atomics. The
 * plain read and increment are relaxed in the kernel; seq_cst here costs a
 * little on weakly ordered CPUs and never weakens a guarantee.
 */
/**
 * tlbp_atomic_read() - Read an atomic value.
 * @v: the atomic; must not be NULL.
 *
 * Return: the value; never fails.
 */
static inline int tlbp_atomic_read(const tlbp_atomic_t *v)
{
	return __atomic_load_n(&v->counter, __ATOMIC_SEQ_CST);
}

/**
 * tlbp_atomic_set() - Store into an atomic value.
 * @v: the atomic; must not be NULL.
 * @i: the new value.
 */
static inline void tlbp_atomic_set(tlbp_atomic_t *v, int i)
{
	__atomic_store_n(&v->counter, i, __ATOMIC_SEQ_CST);
}

/**
 * tlbp_atomic_inc() - Add one to an atomic value.
 * @v: the atomic; must not be NULL. Wraps as the kernel's atomic_inc() does.
 */
static inline void tlbp_atomic_inc(tlbp_atomic_t *v)
{
	__atomic_fetch_add(&v->counter, 1, __ATOMIC_SEQ_CST);
}

/**
 * tlbp_atomic_dec() - Subtract one from an atomic value.
 * @v: the atomic; must not be NULL.
 */
static inline void tlbp_atomic_dec(tlbp_atomic_t *v)
{
	__atomic_fetch_sub(&v->counter, 1, __ATOMIC_SEQ_CST);
}

/**
 * tlbp_atomic_cmpxchg() - Compare and exchange an atomic value.
 * @v: the atomic; must not be NULL.
 * @old: the value @v must hold for the store to happen.
 * @new_val: the value stored when @v holds @old.
 *
 * Return: the value found in @v, as the kernel's atomic_cmpxchg() returns;
 * the exchange happened iff it equals @old.
 */
static inline int tlbp_atomic_cmpxchg(tlbp_atomic_t *v, int old, int new_val)
{
	__atomic_compare_exchange_n(&v->counter, &old, new_val, false,
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	return old;
}

/**
 * tlbp_popcount_long() - Count the set bits of a word.
 * @w: the word.
 *
 * Open-coded rather than __builtin_popcountl(), which becomes a libgcc call
 * (__popcountdi2) on CPUs without POPCNT: a freestanding object must not
 * need any runtime library.
 *
 * Return: the number of set bits in @w; never fails.
 */
static inline unsigned int tlbp_popcount_long(unsigned long w)
{
	unsigned int n = 0;

	for (; w; w &= w - 1)
		n++;
	return n;
}

/**
 * tlbp_ffs_long() - Index of the lowest set bit of @w.
 * @w: the word, which must be non-zero.
 *
 * Compiles to one BSF/TZCNT instruction, never to a library call.
 */
#define tlbp_ffs_long(w) ((unsigned int)__builtin_ctzl(w))

#endif /* __KERNEL__ */

/**
 * define TLBP_BEGIN_DECLS - Opens a public header's declarations.
 *
 * C linkage for a C++ includer.
 */
#ifdef __cplusplus
#define TLBP_BEGIN_DECLS extern "C" {
#define TLBP_END_DECLS }
#else
#define TLBP_BEGIN_DECLS
/**
 * define TLBP_END_DECLS - Closes what %TLBP_BEGIN_DECLS opened.
 */
#define TLBP_END_DECLS
#endif

/**
 * define TLBP_BITS_PER_LONG - Bits in one word of a CPU set.
 */
#define TLBP_BITS_PER_LONG (sizeof(unsigned long) * 8)

#endif /* TLBPOLICY_PLATFORM_H */
