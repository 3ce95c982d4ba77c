// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The out-of-line half of the kernel transcriptions (kernel_ref.h): the
 * bitmap helpers Debian's CPUMASK_OFFSTACK kernel calls, and
 * flush_tlb_batched_pending(), a global function in mm/rmap.c.
 */
#include "kernel_ref.h"

unsigned int nr_cpu_ids;
volatile unsigned int kref_this_cpu;

/* lib/find_bit.c: FIND_NEXT_BIT(addr[idx], , nbits, start) */
__attribute__((noinline))
unsigned long _find_next_bit(const unsigned long *addr, unsigned long nbits,
			     unsigned long start)
{
	unsigned long tmp, idx, sz = nbits;

	if (__builtin_expect(start >= sz, 0))
		return sz;
	idx = start / BITS_PER_LONG;
	for (tmp = addr[idx] & BITMAP_FIRST_WORD_MASK(start); !tmp; tmp = addr[idx]) {
		if ((idx + 1) * BITS_PER_LONG >= sz)
			return sz;
		idx++;
	}
	tmp = idx * BITS_PER_LONG + (unsigned long)__builtin_ctzl(tmp);
	return tmp < sz ? tmp : sz;
}

/* lib/bitmap.c */
__attribute__((noinline))
void __bitmap_or(unsigned long *dst, const unsigned long *bitmap1,
		 const unsigned long *bitmap2, unsigned int bits)
{
	unsigned int k, nr = (bits + BITS_PER_LONG - 1) / BITS_PER_LONG;

	for (k = 0; k < nr; k++)
		dst[k] = bitmap1[k] | bitmap2[k];
}

/* mm/rmap.c */
__attribute__((noinline))
void flush_tlb_batched_pending(struct kref_mm *mm)
{
	int batch = atomic_load_explicit(&mm->tlb_flush_batched, memory_order_relaxed);
	int pending = batch & TLB_FLUSH_BATCH_PENDING_MASK;
	int flushed = batch >> TLB_FLUSH_BATCH_FLUSHED_SHIFT;

	if (pending != flushed) {
		kref_flush_tlb_mm(mm); /* arch_flush_tlb_batched_pending() */
		atomic_compare_exchange_strong(&mm->tlb_flush_batched, &batch,
					       pending | (pending << TLB_FLUSH_BATCH_FLUSHED_SHIFT));
	}
}
