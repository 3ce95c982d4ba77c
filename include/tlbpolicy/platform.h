/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/**
 * @file platform.h
 * @brief The one place where tlbpolicy differs between kernel and userspace.
 *
 * Types, errno values, atomics, bit helpers and the export macro. Every other
 * file of the library includes this header and never tests @c __KERNEL__
 * itself.
 *
 * Userspace builds use only the freestanding headers (stddef, stdint,
 * stdbool) and GCC/Clang @c __atomic builtins; kernel builds use the kernel's
 * own types, errno values and @c atomic_t.
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

/** An atomic int shared between agents (the kernel's own atomic_t). */
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

/** Under TLBP_DEBUG, a hot-path form that finds its input invalid or its
 *  answer different from the checked function's stops the program. */
#define TLBP_WARN_ON(cond) do { if (cond) __builtin_trap(); } while (0)

/** Marks a public function: exported from the shared library, which is
 *  otherwise built with hidden visibility. */
#if defined(TLBP_BUILDING_LIBRARY) && defined(__GNUC__)
#define TLBP_API __attribute__((visibility("default")))
#else
#define TLBP_API
#endif

/**
 * @name Error numbers
 * Linux errno values. The library returns them negated, exactly like the
 * kernel, so a userspace caller on Linux compares with -EINVAL from
 * <errno.h> while the library itself includes no libc header.
 * @{
 */
#define TLBP_EINVAL     22 /**< invalid argument */
#define TLBP_ENOSPC     28 /**< caller buffer too small */
#define TLBP_E2BIG      7 /**< too many CPUs */
#define TLBP_EBUSY      16 /**< resource busy */
#define TLBP_EAGAIN     11 /**< try again */
#define TLBP_ENOENT     2 /**< no such entry */
#define TLBP_EOPNOTSUPP 95 /**< operation not supported */
#define TLBP_ENOMEM     12 /**< out of memory (from ops) */
/** @} */

/** An atomic int shared between agents; access it only through the helpers. */
typedef struct {
	int counter; /**< @private */
} tlbp_atomic_t;

/*
 * Sequentially consistent, like the kernel's value-returning atomics. The
 * plain read and increment are relaxed in the kernel; seq_cst here costs a
 * little on weakly ordered CPUs and never weakens a guarantee.
 */
static inline int tlbp_atomic_read(const tlbp_atomic_t *v)
{
	return __atomic_load_n(&v->counter, __ATOMIC_SEQ_CST);
}

static inline void tlbp_atomic_set(tlbp_atomic_t *v, int i)
{
	__atomic_store_n(&v->counter, i, __ATOMIC_SEQ_CST);
}

static inline void tlbp_atomic_inc(tlbp_atomic_t *v)
{
	__atomic_fetch_add(&v->counter, 1, __ATOMIC_SEQ_CST);
}

static inline void tlbp_atomic_dec(tlbp_atomic_t *v)
{
	__atomic_fetch_sub(&v->counter, 1, __ATOMIC_SEQ_CST);
}

/* Returns the value found, as the kernel's atomic_cmpxchg() does. */
static inline int tlbp_atomic_cmpxchg(tlbp_atomic_t *v, int old, int new_val)
{
	__atomic_compare_exchange_n(&v->counter, &old, new_val, false,
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	return old;
}

/*
 * Open-coded rather than __builtin_popcountl(), which becomes a libgcc call
 * (__popcountdi2) on CPUs without POPCNT: a freestanding object must not
 * need any runtime library.
 */
static inline unsigned int tlbp_popcount_long(unsigned long w)
{
	unsigned int n = 0;

	for (; w; w &= w - 1)
		n++;
	return n;
}

/** Index of the lowest set bit of @p w, which must be non-zero; compiles
 *  to one BSF/TZCNT instruction, never to a library call. */
#define tlbp_ffs_long(w) ((unsigned int)__builtin_ctzl(w))

#endif /* __KERNEL__ */

/**
 * @def TLBP_BEGIN_DECLS
 * Opens a public header's declarations: C linkage for a C++ includer.
 * @def TLBP_END_DECLS
 * Closes what #TLBP_BEGIN_DECLS opened.
 */
#ifdef __cplusplus
#define TLBP_BEGIN_DECLS extern "C" {
#define TLBP_END_DECLS }
#else
#define TLBP_BEGIN_DECLS
#define TLBP_END_DECLS
#endif

/** Bits in one word of a CPU set. */
#define TLBP_BITS_PER_LONG (sizeof(unsigned long) * 8)

#endif /* TLBPOLICY_PLATFORM_H */
