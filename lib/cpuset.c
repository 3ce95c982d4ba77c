// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * CPU sets over caller-owned words, in the kernel's cpumask layout.
 *
 * Invariant kept by every writer: bits at or above nr_cpus are clear, so
 * weight, empty and OR can work word by word without masking the tail.
 */
#include <tlbpolicy/cpuset.h>

static unsigned int cpuset_words(const struct tlbp_cpuset *set)
{
	return TLBP_CPUSET_WORDS(set->nr_cpus);
}

static unsigned long tail_mask(unsigned int nr_cpus)
{
	unsigned int used = nr_cpus % TLBP_BITS_PER_LONG;

	return used ? (1UL << used) - 1 : ~0UL;
}

size_t tlbp_cpuset_size(unsigned int nr_cpus)
{
	if (nr_cpus == 0 || nr_cpus > TLBP_CPUSET_MAX_CPUS)
		return 0;
	return TLBP_CPUSET_WORDS(nr_cpus) * sizeof(unsigned long);
}

static int check_storage(const struct tlbp_cpuset *set,
			 const unsigned long *buf, size_t len,
			 unsigned int nr_cpus)
{
	if (!set || !buf || nr_cpus == 0)
		return -TLBP_EINVAL;
	if (nr_cpus > TLBP_CPUSET_MAX_CPUS)
		return -TLBP_E2BIG;
	if (len < tlbp_cpuset_size(nr_cpus))
		return -TLBP_ENOSPC;
	return 0;
}

int tlbp_cpuset_init(struct tlbp_cpuset *set, unsigned long *buf, size_t len,
		     unsigned int nr_cpus)
{
	int err = check_storage(set, buf, len, nr_cpus);

	if (err)
		return err;
	set->bits = buf;
	set->nr_cpus = nr_cpus;
	tlbp_cpuset_zero(set);
	return 0;
}

int tlbp_cpuset_wrap(struct tlbp_cpuset *set, unsigned long *buf, size_t len,
		     unsigned int nr_cpus)
{
	int err = check_storage(set, buf, len, nr_cpus);
	unsigned int last = TLBP_CPUSET_WORDS(nr_cpus) - 1;

	if (err)
		return err;
	if (buf[last] & ~tail_mask(nr_cpus))
		return -TLBP_EINVAL;
	set->bits = buf;
	set->nr_cpus = nr_cpus;
	return 0;
}

unsigned int tlbp_cpuset_nr_cpus(const struct tlbp_cpuset *set)
{
	return set ? set->nr_cpus : 0;
}

int tlbp_cpuset_set(struct tlbp_cpuset *set, unsigned int cpu)
{
	if (!set || cpu >= set->nr_cpus)
		return -TLBP_EINVAL;
	set->bits[cpu / TLBP_BITS_PER_LONG] |= 1UL << (cpu % TLBP_BITS_PER_LONG);
	return 0;
}

int tlbp_cpuset_clear(struct tlbp_cpuset *set, unsigned int cpu)
{
	if (!set || cpu >= set->nr_cpus)
		return -TLBP_EINVAL;
	set->bits[cpu / TLBP_BITS_PER_LONG] &= ~(1UL << (cpu % TLBP_BITS_PER_LONG));
	return 0;
}

bool tlbp_cpuset_test(const struct tlbp_cpuset *set, unsigned int cpu)
{
	if (!set || cpu >= set->nr_cpus)
		return false;
	return (set->bits[cpu / TLBP_BITS_PER_LONG] >> (cpu % TLBP_BITS_PER_LONG)) & 1UL;
}

void tlbp_cpuset_zero(struct tlbp_cpuset *set)
{
	unsigned int i;

	if (!set)
		return;
	for (i = 0; i < cpuset_words(set); i++)
		set->bits[i] = 0;
}

bool tlbp_cpuset_empty(const struct tlbp_cpuset *set)
{
	unsigned int i;

	if (!set)
		return true;
	for (i = 0; i < cpuset_words(set); i++)
		if (set->bits[i])
			return false;
	return true;
}

unsigned int tlbp_cpuset_weight(const struct tlbp_cpuset *set)
{
	unsigned int i, weight = 0;

	if (!set)
		return 0;
	for (i = 0; i < cpuset_words(set); i++)
		weight += tlbp_popcount_long(set->bits[i]);
	return weight;
}

static int check_pair(const struct tlbp_cpuset *dst,
		      const struct tlbp_cpuset *src)
{
	/* A smaller source is fine; a larger one would silently drop CPUs. */
	if (!dst || !src || src->nr_cpus > dst->nr_cpus)
		return -TLBP_EINVAL;
	return 0;
}

int tlbp_cpuset_or(struct tlbp_cpuset *dst, const struct tlbp_cpuset *src)
{
	unsigned int i;
	int err = check_pair(dst, src);

	if (err)
		return err;
	for (i = 0; i < cpuset_words(src); i++)
		dst->bits[i] |= src->bits[i];
	return 0;
}

int tlbp_cpuset_copy(struct tlbp_cpuset *dst, const struct tlbp_cpuset *src)
{
	unsigned int i;
	int err = check_pair(dst, src);

	if (err)
		return err;
	for (i = 0; i < cpuset_words(dst); i++)
		dst->bits[i] = i < cpuset_words(src) ? src->bits[i] : 0;
	return 0;
}

unsigned int tlbp_cpuset_next(const struct tlbp_cpuset *set, unsigned int cpu)
{
	unsigned int word, nr_words;
	unsigned long bits;

	if (!set)
		return 0;
	if (cpu >= set->nr_cpus)
		return set->nr_cpus;
	nr_words = cpuset_words(set);
	word = cpu / TLBP_BITS_PER_LONG;
	bits = set->bits[word] & (~0UL << (cpu % TLBP_BITS_PER_LONG));
	for (;;) {
		if (bits)
			return word * TLBP_BITS_PER_LONG + tlbp_ffs_long(bits);
		if (++word >= nr_words)
			return set->nr_cpus;
		bits = set->bits[word];
	}
}

unsigned int tlbp_cpuset_any_but(const struct tlbp_cpuset *set,
				 unsigned int cpu)
{
	unsigned int first = tlbp_cpuset_next(set, 0);

	if (first != cpu)
		return first;
	return tlbp_cpuset_next(set, cpu + 1);
}
