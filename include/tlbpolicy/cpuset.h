/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/**
 * @file cpuset.h
 * @brief A set of CPUs over caller-owned storage, sized at run time.
 *
 * The words have the kernel's cpumask layout (CPU @c n is bit
 * <tt>n % BITS_PER_LONG</tt> of word <tt>n / BITS_PER_LONG</tt>), so a kernel
 * caller can wrap <tt>cpumask_bits(mm_cpumask(mm))</tt> without copying.
 * Bits at or above @c nr_cpus are kept clear by every operation.
 */
#ifndef TLBPOLICY_CPUSET_H
#define TLBPOLICY_CPUSET_H

#include <tlbpolicy/platform.h>

TLBP_BEGIN_DECLS

/** Largest CPU count a set accepts (x86 CONFIG_MAXSMP's NR_CPUS). */
#define TLBP_CPUSET_MAX_CPUS 8192U

/** Words of storage needed for @p nr CPUs. */
#define TLBP_CPUSET_WORDS(nr) \
	(((nr) + TLBP_BITS_PER_LONG - 1) / TLBP_BITS_PER_LONG)

/**
 * @brief A CPU set; storage belongs to the caller.
 */
struct tlbp_cpuset {
	unsigned long *bits;  /**< @private word storage */
	unsigned int nr_cpus; /**< @private CPUs 0 .. nr_cpus-1 are valid */
};

/**
 * @brief Bytes of storage a set of @p nr_cpus CPUs needs.
 * @param nr_cpus number of CPUs, 1 .. #TLBP_CPUSET_MAX_CPUS.
 * @return the size in bytes, or 0 when @p nr_cpus is 0 or too large.
 */
TLBP_API size_t tlbp_cpuset_size(unsigned int nr_cpus);

/**
 * @brief Attach storage to a set and clear it.
 * @param set the set to initialise.
 * @param buf word storage, at least tlbp_cpuset_size(@p nr_cpus) bytes.
 * @param len size of @p buf in bytes.
 * @param nr_cpus number of CPUs the set covers.
 * @return 0 on success; -EINVAL if @p set or @p buf is NULL or @p nr_cpus is
 *         0; -E2BIG if @p nr_cpus exceeds #TLBP_CPUSET_MAX_CPUS; -ENOSPC if
 *         @p len is too small. On error @p set and @p buf are not touched.
 * @note Context: any; does not sleep.
 */
TLBP_API int tlbp_cpuset_init(struct tlbp_cpuset *set, unsigned long *buf,
			      size_t len, unsigned int nr_cpus);

/**
 * @brief Attach existing words to a set without clearing them.
 *
 * For wrapping a mask someone else maintains (the kernel's mm_cpumask).
 * Bits at or above @p nr_cpus in the last word must be clear.
 * @return as tlbp_cpuset_init(), plus -EINVAL if a bit at or above
 *         @p nr_cpus is set.
 * @note Context: any; does not sleep.
 */
TLBP_API int tlbp_cpuset_wrap(struct tlbp_cpuset *set, unsigned long *buf,
			      size_t len, unsigned int nr_cpus);

/**
 * @brief Number of CPUs the set covers (0 for NULL).
 */
TLBP_API unsigned int tlbp_cpuset_nr_cpus(const struct tlbp_cpuset *set);

/**
 * @brief Add @p cpu to the set.
 * @return 0, or -EINVAL if @p set is NULL or @p cpu is out of range
 *         (the set is then unchanged).
 */
TLBP_API int tlbp_cpuset_set(struct tlbp_cpuset *set, unsigned int cpu);

/**
 * @brief Remove @p cpu from the set.
 * @return 0, or -EINVAL if @p set is NULL or @p cpu is out of range.
 */
TLBP_API int tlbp_cpuset_clear(struct tlbp_cpuset *set, unsigned int cpu);

/**
 * @brief Whether @p cpu is in the set; false for NULL or an out-of-range CPU.
 */
TLBP_API bool tlbp_cpuset_test(const struct tlbp_cpuset *set, unsigned int cpu);

/**
 * @brief Remove every CPU from the set. A NULL @p set is ignored.
 */
TLBP_API void tlbp_cpuset_zero(struct tlbp_cpuset *set);

/**
 * @brief Whether the set holds no CPU; true for NULL.
 */
TLBP_API bool tlbp_cpuset_empty(const struct tlbp_cpuset *set);

/**
 * @brief Number of CPUs in the set; 0 for NULL.
 */
TLBP_API unsigned int tlbp_cpuset_weight(const struct tlbp_cpuset *set);

/**
 * @brief Add every CPU of @p src to @p dst (word-wise OR).
 * @return 0; -EINVAL if either is NULL or @p src covers more CPUs than
 *         @p dst (@p dst is then unchanged).
 */
TLBP_API int tlbp_cpuset_or(struct tlbp_cpuset *dst,
			    const struct tlbp_cpuset *src);

/**
 * @brief Make @p dst hold exactly the CPUs of @p src.
 * @return 0; -EINVAL if either is NULL or @p src covers more CPUs than
 *         @p dst (@p dst is then unchanged).
 */
TLBP_API int tlbp_cpuset_copy(struct tlbp_cpuset *dst,
			      const struct tlbp_cpuset *src);

/**
 * @brief First CPU in the set at or after @p cpu.
 * @return that CPU, or tlbp_cpuset_nr_cpus(@p set) when there is none
 *         (also for NULL or an out-of-range @p cpu).
 */
TLBP_API unsigned int tlbp_cpuset_next(const struct tlbp_cpuset *set,
				       unsigned int cpu);

/**
 * @brief Any CPU in the set other than @p cpu (the kernel's cpumask_any_but).
 * @return such a CPU, or tlbp_cpuset_nr_cpus(@p set) when there is none.
 *         @p cpu may be out of range; then any CPU of the set qualifies.
 */
TLBP_API unsigned int tlbp_cpuset_any_but(const struct tlbp_cpuset *set,
					  unsigned int cpu);

TLBP_END_DECLS

#endif /* TLBPOLICY_CPUSET_H */
