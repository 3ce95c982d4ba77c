/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Userspace transcriptions of Linux 6.12's open-coded TLB-flush decisions,
 * the reference the library's cost is measured against (bench.c). Each
 * function keeps the kernel's names, structure and out-of-line calls:
 *
 * - should_defer_flush() (mm/rmap.c) with x86's arch_tlbbatch_should_defer()
 *   and cpumask_any_but() over find_next_bit();
 * - set_tlb_ubc_flush_pending() (mm/rmap.c) with x86's pte_accessible(),
 *   arch_tlbbatch_add_pending() (inc_mm_tlb_gen(), cpumask_or()) and the
 *   mmu-notifier check;
 * - flush_tlb_batched_pending() (mm/rmap.c, out of line as in the kernel);
 * - inc_tlb_flush_pending(), mm_tlb_flush_pending(), dec_tlb_flush_pending()
 *   (include/linux/mm_types.h);
 * - the TTU_BATCH_FLUSH condition of seed 000 v2 in migrate_folio_unmap(),
 *   with folio_likely_mapped_shared() and folio_mapcount().
 *
 * What is static or inline in the kernel is static inline here, so the
 * bench loop inlines it as rmap.c does. Debian's x86 config has
 * CPUMASK_OFFSTACK and NR_CPUS 8192, so cpumask sizes are nr_cpu_ids, a
 * variable: find_next_bit() and bitmap_or() go out of line
 * (_find_next_bit(), __bitmap_or()), as in kernel_ref.c.
 */
#ifndef TLBPOLICY_BENCH_KERNEL_REF_H
#define TLBPOLICY_BENCH_KERNEL_REF_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#define KREF_TTU_BATCH_FLUSH 0x20
#define KREF_MAX_CPUS 8192
#define BITS_PER_LONG (8 * (unsigned int)sizeof(long))
#define BITMAP_FIRST_WORD_MASK(start) (~0UL << ((start) & (BITS_PER_LONG - 1)))
#define TLB_FLUSH_BATCH_FLUSHED_SHIFT 16
#define TLB_FLUSH_BATCH_PENDING_MASK ((1 << (TLB_FLUSH_BATCH_FLUSHED_SHIFT - 1)) - 1)
#define TLB_FLUSH_BATCH_PENDING_LARGE (TLB_FLUSH_BATCH_PENDING_MASK / 2)
#define _PAGE_PRESENT 0x001UL
#define _PAGE_PROTNONE 0x100UL
#define _PAGE_DIRTY 0x040UL
#define PG_head 6

/* The parts of struct mm_struct these functions read. */
struct kref_mm {
	unsigned long cpumask[KREF_MAX_CPUS / (8 * sizeof(long))];
	atomic_int tlb_flush_batched;
	atomic_int tlb_flush_pending;
	atomic_llong tlb_gen;
	void *notifier_subscriptions;
};

/* struct tlbflush_unmap_batch with x86's arch part. */
struct kref_tlbflush_unmap_batch {
	unsigned long cpumask[KREF_MAX_CPUS / (8 * sizeof(long))];
	bool flush_required;
	bool writable;
};

/* The parts of struct folio the migration condition reads. */
struct kref_folio {
	unsigned long flags;
	unsigned int order;
	atomic_int _mapcount;       /* first page's */
	atomic_int _large_mapcount;
	int _entire_mapcount;
};

extern unsigned int nr_cpu_ids;
/* smp_processor_id(): a per-CPU read the compiler cannot fold. */
extern volatile unsigned int kref_this_cpu;

unsigned long _find_next_bit(const unsigned long *addr, unsigned long nbits,
			     unsigned long start);
void __bitmap_or(unsigned long *dst, const unsigned long *bitmap1,
		 const unsigned long *bitmap2, unsigned int bits);
void flush_tlb_batched_pending(struct kref_mm *mm);
/* Stand-ins for what the fast paths never reach in these cases. */
void kref_flush_tlb_mm(struct kref_mm *mm);
void kref_notifier_hook(struct kref_mm *mm);

/* include/linux/cpumask.h: for_each_cpu() + the "but" test */
static inline unsigned int cpumask_any_but(const unsigned long *mask,
					   unsigned int cpu)
{
	unsigned int i;

	for (i = (unsigned int)_find_next_bit(mask, nr_cpu_ids, 0); i < nr_cpu_ids;
	     i = (unsigned int)_find_next_bit(mask, nr_cpu_ids, i + 1))
		if (i != cpu)
			break;
	return i;
}

/* arch/x86/include/asm/tlbflush.h */
static inline bool arch_tlbbatch_should_defer(struct kref_mm *mm)
{
	bool should_defer = false;

	/* If remote CPUs need to be flushed then defer batch the flush */
	if (cpumask_any_but(mm->cpumask, kref_this_cpu) < nr_cpu_ids)
		should_defer = true;
	return should_defer;
}

/* mm/rmap.c */
static inline bool should_defer_flush(struct kref_mm *mm, unsigned int flags)
{
	if (!(flags & KREF_TTU_BATCH_FLUSH))
		return false;
	return arch_tlbbatch_should_defer(mm);
}

/* arch/x86/include/asm/pgtable.h */
static inline bool pte_accessible(struct kref_mm *mm, unsigned long pte)
{
	if (pte & _PAGE_PRESENT)
		return true;
	if ((pte & _PAGE_PROTNONE) &&
	    atomic_load_explicit(&mm->tlb_flush_pending, memory_order_relaxed))
		return true;
	return false;
}

/* arch/x86/include/asm/tlbflush.h */
static inline void arch_tlbbatch_add_pending(struct kref_tlbflush_unmap_batch *batch,
					     struct kref_mm *mm, unsigned long uaddr)
{
	(void)uaddr;
	atomic_fetch_add(&mm->tlb_gen, 1); /* inc_mm_tlb_gen() */
	__bitmap_or(batch->cpumask, batch->cpumask, mm->cpumask, nr_cpu_ids);
	/* mmu_notifier_arch_invalidate_secondary_tlbs(): mm_has_notifiers() */
	if (__builtin_expect(mm->notifier_subscriptions != NULL, 0))
		kref_notifier_hook(mm);
}

/* mm/rmap.c */
static inline void set_tlb_ubc_flush_pending(struct kref_tlbflush_unmap_batch *tlb_ubc,
			       struct kref_mm *mm, unsigned long pteval,
			       unsigned long uaddr)
{
	int batch;
	bool writable = pteval & _PAGE_DIRTY;

	if (!pte_accessible(mm, pteval))
		return;

	arch_tlbbatch_add_pending(tlb_ubc, mm, uaddr);
	tlb_ubc->flush_required = true;

	__asm__ __volatile__("" ::: "memory"); /* barrier() */
	batch = atomic_load_explicit(&mm->tlb_flush_batched, memory_order_relaxed);
retry:
	if ((batch & TLB_FLUSH_BATCH_PENDING_MASK) > TLB_FLUSH_BATCH_PENDING_LARGE) {
		if (!atomic_compare_exchange_strong(&mm->tlb_flush_batched, &batch, 1))
			goto retry;
	} else {
		atomic_fetch_add(&mm->tlb_flush_batched, 1);
	}
	if (writable)
		tlb_ubc->writable = true;
}

/* include/linux/mm_types.h */
static inline void inc_tlb_flush_pending(struct kref_mm *mm)
{
	atomic_fetch_add_explicit(&mm->tlb_flush_pending, 1, memory_order_relaxed);
}

static inline bool mm_tlb_flush_pending(struct kref_mm *mm)
{
	return atomic_load_explicit(&mm->tlb_flush_pending, memory_order_relaxed) > 0;
}

static inline void dec_tlb_flush_pending(struct kref_mm *mm)
{
	atomic_fetch_sub_explicit(&mm->tlb_flush_pending, 1, memory_order_relaxed);
}

/* include/linux/page-flags.h and mm.h, for small and large folios */
static inline bool folio_test_large(const struct kref_folio *folio)
{
	return folio->flags & (1UL << PG_head);
}

static inline int folio_mapcount(const struct kref_folio *folio)
{
	if (!folio_test_large(folio))
		return atomic_load_explicit(&folio->_mapcount, memory_order_relaxed) + 1;
	return atomic_load_explicit(&folio->_large_mapcount, memory_order_relaxed) + 1;
}

static inline bool folio_likely_mapped_shared(const struct kref_folio *folio)
{
	int mapcount = folio_mapcount(folio);

	if (!folio_test_large(folio))
		return mapcount > 1;
	if (mapcount <= 1)
		return false;
	if (folio->_entire_mapcount + 1 || mapcount > (1 << folio->order))
		return true;
	return atomic_load_explicit(&folio->_mapcount, memory_order_relaxed) > 0;
}

/* Seed 000 v2: migrate_folio_unmap()'s TTU_BATCH_FLUSH, inputs ready. */
static inline bool kref_migrate_batch(bool async, bool single, bool large, bool shared)
{
	return async && !(single && !large && !shared);
}

/* The same, reading the folio as migrate_folio_unmap() does. */
static inline bool kref_migrate_batch_folio(bool async, bool single,
			      const struct kref_folio *folio)
{
	return async && !(single && !folio_test_large(folio) &&
			  !folio_likely_mapped_shared(folio));
}

/* folio_order(), the library's other input from the same folio. */
static inline unsigned int kref_folio_order(const struct kref_folio *folio)
{
	return folio_test_large(folio) ? folio->order : 0;
}

#endif
