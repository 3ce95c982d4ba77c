/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/**
 * DOC: A set of CPUs over caller-owned storage, sized at run time
 *
 * The words have the kernel's cpumask layout (CPU ``n`` is bit
 * ``n % BITS_PER_LONG`` of word ``n / BITS_PER_LONG``), so a kernel
 * caller can wrap ``cpumask_bits(mm_cpumask(mm))`` without copying.
 * Bits at or above ``nr_cpus`` are kept clear by every operation.
 */
#ifndef TLBPOLICY_CPUSET_H
#define TLBPOLICY_CPUSET_H

#include <tlbpolicy/platform.h>

TLBP_BEGIN_DECLS

/**
 * define TLBP_CPUSET_MAX_CPUS - Largest CPU count a set accepts (x86
 *	CONFIG_MAXSMP's NR_CPUS).
 */
#define TLBP_CPUSET_MAX_CPUS 8192U

/**
 * TLBP_CPUSET_WORDS() - Words of storage needed for @nr CPUs.
 * @nr: number of CPUs.
 */
#define TLBP_CPUSET_WORDS(nr) \
	(((nr) + TLBP_BITS_PER_LONG - 1) / TLBP_BITS_PER_LONG)

/**
 * struct tlbp_cpuset - A CPU set; storage belongs to the caller.
 *
 * Every member is private: use the tlbp_cpuset_*() functions.
 */
struct tlbp_cpuset {
	/* private: */
	unsigned long *bits;  /* word storage */
	unsigned int nr_cpus; /* CPUs 0 .. nr_cpus-1 are valid */
};

/**
 * tlbp_cpuset_size() - Bytes of storage a set of @nr_cpus CPUs needs.
 * @nr_cpus: number of CPUs, 1 .. %TLBP_CPUSET_MAX_CPUS.
 *
 * Return: the size in bytes, or 0 when @nr_cpus is 0 or too large.
 */
TLBP_API size_t tlbp_cpuset_size(unsigned int nr_cpus);

/**
 * tlbp_cpuset_init() - Attach storage to a set and clear it.
 * @set: the set to initialise.
 * @buf: word storage, at least tlbp_cpuset_size(@nr_cpus) bytes.
 * @len: size of @buf in bytes.
 * @nr_cpus: number of CPUs the set covers.
 *
 * Context: any; does not sleep.
 * Return: 0 on success; -EINVAL if @set or @buf is NULL or @nr_cpus is
 * 0; -E2BIG if @nr_cpus exceeds %TLBP_CPUSET_MAX_CPUS; -ENOSPC if
 * @len is too small. On error @set and @buf are not touched.
 */
TLBP_API int tlbp_cpuset_init(struct tlbp_cpuset *set, unsigned long *buf,
			      size_t len, unsigned int nr_cpus);

/**
 * tlbp_cpuset_wrap() - Attach existing words to a set without clearing them.
 * @set: the set to initialise.
 * @buf: the words, at least tlbp_cpuset_size(@nr_cpus) bytes.
 * @len: size of @buf in bytes.
 * @nr_cpus: number of CPUs the set covers.
 *
 * For wrapping a mask someone else maintains (the kernel's mm_cpumask).
 * Bits at or above @nr_cpus in the last word must be clear.
 *
 * Context: any; does not sleep.
 * Return: as tlbp_cpuset_init(), plus -EINVAL if a bit at or above
 * @nr_cpus is set.
 */
TLBP_API int tlbp_cpuset_wrap(struct tlbp_cpuset *set, unsigned long *buf,
			      size_t len, unsigned int nr_cpus);

/**
 * tlbp_cpuset_nr_cpus() - Number of CPUs the set covers.
 * @set: the set.
 *
 * Return: the number of CPUs the set covers; 0 for NULL.
 */
TLBP_API unsigned int tlbp_cpuset_nr_cpus(const struct tlbp_cpuset *set);

/**
 * tlbp_cpuset_set() - Add @cpu to the set.
 * @set: the set.
 * @cpu: the CPU.
 *
 * Return: 0, or -EINVAL if @set is NULL or @cpu is out of range
 * (the set is then unchanged).
 */
TLBP_API int tlbp_cpuset_set(struct tlbp_cpuset *set, unsigned int cpu);

/**
 * tlbp_cpuset_clear() - Remove @cpu from the set.
 * @set: the set.
 * @cpu: the CPU.
 *
 * Return: 0, or -EINVAL if @set is NULL or @cpu is out of range.
 */
TLBP_API int tlbp_cpuset_clear(struct tlbp_cpuset *set, unsigned int cpu);

/**
 * tlbp_cpuset_test() - Whether @cpu is in the set.
 * @set: the set.
 * @cpu: the CPU.
 *
 * Return: whether @cpu is in the set; false for NULL or an out-of-range
 * CPU.
 */
TLBP_API bool tlbp_cpuset_test(const struct tlbp_cpuset *set, unsigned int cpu);

/**
 * tlbp_cpuset_zero() - Remove every CPU from the set.
 * @set: the set; a NULL @set is ignored.
 */
TLBP_API void tlbp_cpuset_zero(struct tlbp_cpuset *set);

/**
 * tlbp_cpuset_empty() - Whether the set holds no CPU.
 * @set: the set.
 *
 * Return: whether the set holds no CPU; true for NULL.
 */
TLBP_API bool tlbp_cpuset_empty(const struct tlbp_cpuset *set);

/**
 * tlbp_cpuset_weight() - Number of CPUs in the set.
 * @set: the set.
 *
 * Return: the number of CPUs in the set; 0 for NULL.
 */
TLBP_API unsigned int tlbp_cpuset_weight(const struct tlbp_cpuset *set);

/**
 * tlbp_cpuset_or() - Add every CPU of @src to @dst (word-wise OR).
 * @dst: the set that grows.
 * @src: the CPUs to add.
 *
 * Return: 0; -EINVAL if either is NULL or @src covers more CPUs than
 * @dst (@dst is then unchanged).
 */
TLBP_API int tlbp_cpuset_or(struct tlbp_cpuset *dst,
			    const struct tlbp_cpuset *src);

/**
 * tlbp_cpuset_copy() - Make @dst hold exactly the CPUs of @src.
 * @dst: the set to overwrite.
 * @src: the CPUs to copy.
 *
 * Return: 0; -EINVAL if either is NULL or @src covers more CPUs than
 * @dst (@dst is then unchanged).
 */
TLBP_API int tlbp_cpuset_copy(struct tlbp_cpuset *dst,
			      const struct tlbp_cpuset *src);

/**
 * tlbp_cpuset_next() - First CPU in the set at or after @cpu.
 * @set: the set.
 * @cpu: where to start looking.
 *
 * Return: that CPU, or tlbp_cpuset_nr_cpus(@set) when there is none
 * (also for NULL or an out-of-range @cpu).
 */
TLBP_API unsigned int tlbp_cpuset_next(const struct tlbp_cpuset *set,
				       unsigned int cpu);

/**
 * tlbp_cpuset_any_but() - Any CPU in the set other than @cpu (the kernel's
 *	cpumask_any_but).
 * @set: the set.
 * @cpu: the CPU to avoid.
 *
 * Return: such a CPU, or tlbp_cpuset_nr_cpus(@set) when there is none.
 * @cpu may be out of range; then any CPU of the set qualifies.
 */
TLBP_API unsigned int tlbp_cpuset_any_but(const struct tlbp_cpuset *set,
					  unsigned int cpu);

TLBP_END_DECLS

#endif /* TLBPOLICY_CPUSET_H */
