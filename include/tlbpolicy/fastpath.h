/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/**
 * DOC: Hot-path forms
 *
 * The per-PTE and per-decision calls, as static inline functions that cost
 * what the kernel's open-coded conditions cost: should_defer_flush(),
 * set_tlb_ubc_flush_pending(), flush_tlb_batched_pending() when nothing is
 * owed, inc/dec_tlb_flush_pending() and the single-folio migration rule.
 *
 * They skip the validation the out-of-line functions do: the caller
 * guarantees what each one's comment lists, exactly as a kernel caller
 * does. The out-of-line functions check their input and then run these
 * same bodies, so both forms always decide alike. With TLBP_DEBUG defined
 * (the kernel defines it under CONFIG_DEBUG_VM) each form also runs the
 * checked function and warns (kernel) or traps (userspace) when the input
 * was invalid or the answers differ.
 */
#ifndef TLBPOLICY_FASTPATH_H
#define TLBPOLICY_FASTPATH_H

#include <tlbpolicy/platform.h>
#include <tlbpolicy/cpuset.h>
#include <tlbpolicy/mm.h>
#include <tlbpolicy/batch.h>
#include <tlbpolicy/migrate.h>

TLBP_BEGIN_DECLS

/**
 * tlbp_cpuset_any_but_fast() - Whether @set holds a CPU other than @cpu.
 * @set: an initialised CPU set.
 * @cpu: the CPU to ignore; may be any value.
 *
 * Stops at the first word with such a CPU, like cpumask_any_but() stops at
 * its first find_next_bit() hit.
 *
 * Return: true if some CPU of @set other than @cpu is set.
 */
static inline bool tlbp_cpuset_any_but_fast(const struct tlbp_cpuset *set,
					    unsigned int cpu)
{
	unsigned int i, words = (set->nr_cpus + TLBP_BITS_PER_LONG - 1) /
				TLBP_BITS_PER_LONG;

	for (i = 0; i < words; i++) {
		unsigned long w = set->bits[i];

		if (i == cpu / TLBP_BITS_PER_LONG)
			w &= ~(1UL << (cpu % TLBP_BITS_PER_LONG));
		if (w)
			return true;
	}
	return false;
}

/**
 * tlbp_batch_should_defer_fast() - Should clearing a PTE defer its flush?
 *                                  (should_defer_flush)
 * @b: an initialised batch.
 * @mm_cpus: CPUs the mm may be live on, no larger than the batch's set.
 * @this_cpu: the current CPU, below the batch's CPU count.
 * @requested: whether the caller asked to batch (TTU_BATCH_FLUSH).
 *
 * Context: any; does not sleep.
 * Return: what tlbp_batch_should_defer() puts in &tlbp_defer_decision.defer.
 */
static inline bool tlbp_batch_should_defer_fast(const struct tlbp_batch *b,
						const struct tlbp_cpuset *mm_cpus,
						unsigned int this_cpu,
						bool requested)
{
	bool defer;

	if (!requested)
		defer = false;
	else if (b->defer == TLBP_DEFER_ALWAYS)
		defer = true;
	else
		defer = tlbp_cpuset_any_but_fast(mm_cpus, this_cpu);
#ifdef TLBP_DEBUG
	{
		struct tlbp_defer_decision d;

		TLBP_WARN_ON(tlbp_batch_should_defer(b, mm_cpus, this_cpu,
						     requested, &d) ||
			     d.defer != defer);
	}
#endif
	return defer;
}

/**
 * tlbp_pte_accessible_fast() - tlbp_pte_accessible() for an initialised mm.
 * @mm: the PTE's address space.
 * @pte_flags: old PTE state, TLBP_PTE_* bits.
 *
 * Context: hold the PTE's PTL.
 * Return: whether some TLB may cache the PTE.
 */
static inline bool tlbp_pte_accessible_fast(const struct tlbp_mm *mm,
					    unsigned int pte_flags)
{
	if (pte_flags & TLBP_PTE_PRESENT)
		return true;
	return (pte_flags & TLBP_PTE_PROTNONE) &&
	       tlbp_atomic_read(&mm->flush_pending) > 0;
}

/**
 * tlbp_mm_mark_batched_pending_fast() - Bump @mm's pending generation.
 * @mm: an initialised mm.
 *
 * The common case inline; the overflow reset, once every 16383 deferrals,
 * out of line.
 *
 * Context: any; lock-free.
 */
static inline void tlbp_mm_mark_batched_pending_fast(struct tlbp_mm *mm)
{
	int word = tlbp_atomic_read(&mm->batched_gen);

	if ((word & TLBP_MM_GEN_PENDING_MASK) <= TLBP_MM_GEN_PENDING_LARGE)
		tlbp_atomic_inc(&mm->batched_gen);
	else
		tlbp_mm_mark_batched_pending(mm);
}

/**
 * tlbp_batch_add_pending_fast() - Queue the flush of a PTE the caller just
 *                                 cleared (set_tlb_ubc_flush_pending).
 * @b: an initialised batch.
 * @mm: the PTE's initialised address space.
 * @mm_cpus: CPUs the mm may be live on, no larger than the batch's set.
 * @pte_flags: old PTE state, only TLBP_PTE_* bits.
 * @start: first byte of the cleared range, page aligned.
 * @end: end of the range, page aligned, above @start.
 *
 * Does what tlbp_batch_add_pending() does for valid input, in the same
 * order: record the entry, then publish the generation, then the
 * add_pending op.
 *
 * Context: as the ops; the caller holds the PTE's PTL.
 * Return: 0, or the error of the add_pending op (the entry is queued and
 * the next flush is full).
 */
static inline int tlbp_batch_add_pending_fast(struct tlbp_batch *b,
					      struct tlbp_mm *mm,
					      const struct tlbp_cpuset *mm_cpus,
					      unsigned int pte_flags,
					      uint64_t start, uint64_t end)
{
	unsigned int i, words;
	int err;

#ifdef TLBP_DEBUG
	TLBP_WARN_ON(!b || !mm || !mm_cpus ||
		     mm_cpus->nr_cpus > b->cpus.nr_cpus || start >= end ||
		     (pte_flags & ~(TLBP_PTE_PRESENT | TLBP_PTE_PROTNONE |
				    TLBP_PTE_DIRTY)) ||
		     ((start | end) & (((uint64_t)1 << b->page_shift) - 1)));
#endif
	if (!tlbp_pte_accessible_fast(mm, pte_flags))
		return 0;
	words = (mm_cpus->nr_cpus + TLBP_BITS_PER_LONG - 1) / TLBP_BITS_PER_LONG;
	for (i = 0; i < words; i++)
		b->cpus.bits[i] |= mm_cpus->bits[i];
	if (b->mm != mm) {
		b->multi_mm |= b->mm != NULL;
		b->mm = mm;
	}
	if (start < b->start)
		b->start = start;
	if (end > b->end)
		b->end = end;
	b->flush_required = true;
	if (pte_flags & TLBP_PTE_DIRTY)
		b->writable = true;
	/* Record first, publish second: a drainer that sees the new
	 * generation must find this batch already owing the flush. */
	tlbp_mm_mark_batched_pending_fast(mm);
	if (!b->ops->add_pending)
		return 0;
	err = b->ops->add_pending(b->ctx, mm, start, end);
	if (err)
		b->add_failed = true;
	return err;
}

/**
 * tlbp_mm_flush_batched_pending_fast() - Drain what other tasks deferred
 *                                        for @mm (flush_tlb_batched_pending).
 * @mm: an initialised mm.
 * @flushed: optional; set to whether a flush_mm completed.
 *
 * Nothing owed is decided inline; an owed flush goes to
 * tlbp_mm_flush_batched_pending().
 *
 * Context: as tlbp_mm_flush_batched_pending().
 * Return: as tlbp_mm_flush_batched_pending().
 */
static inline int tlbp_mm_flush_batched_pending_fast(struct tlbp_mm *mm,
						     bool *flushed)
{
	int word = tlbp_atomic_read(&mm->batched_gen);

	if ((word & TLBP_MM_GEN_PENDING_MASK) ==
	    ((word >> TLBP_MM_GEN_FLUSHED_SHIFT) & TLBP_MM_GEN_PENDING_MASK)) {
		if (flushed)
			*flushed = false;
		return 0;
	}
	return tlbp_mm_flush_batched_pending(mm, flushed);
}

/**
 * tlbp_mm_inc_flush_pending_fast() - inc_tlb_flush_pending() for an
 *                                    initialised mm.
 * @mm: the address space.
 *
 * Context: before the PTEs change.
 */
static inline void tlbp_mm_inc_flush_pending_fast(struct tlbp_mm *mm)
{
	tlbp_atomic_inc(&mm->flush_pending);
}

/**
 * tlbp_mm_flush_pending_fast() - mm_tlb_flush_pending() for an initialised
 *                                mm.
 * @mm: the address space.
 *
 * Context: meaningful only with the inspected PTE's PTL held.
 * Return: whether a change with a later flush is in flight.
 */
static inline bool tlbp_mm_flush_pending_fast(const struct tlbp_mm *mm)
{
	return tlbp_atomic_read(&mm->flush_pending) > 0;
}

/**
 * tlbp_mm_dec_flush_pending_fast() - dec_tlb_flush_pending() for an mm
 *                                    whose counter is above 0.
 * @mm: the address space.
 *
 * Context: only after the flush completed on every CPU.
 */
static inline void tlbp_mm_dec_flush_pending_fast(struct tlbp_mm *mm)
{
#ifdef TLBP_DEBUG
	TLBP_WARN_ON(tlbp_atomic_read(&mm->flush_pending) <= 0);
#endif
	tlbp_atomic_dec(&mm->flush_pending);
}

/**
 * tlbp_migrate_batch_why() - The rule that decides a migration unmap.
 * @policy: a valid policy.
 * @mode: a valid migration mode.
 * @reason: a valid migration reason.
 * @nr_folios: folios in the batch, at least 1 (1 if @mode is not async).
 * @order: the folio's order.
 * @mapcount: folio_mapcount(), at least 0.
 *
 * The shared hint is not an input: the only rule that reads it
 * (skip-single) reads it for a small folio, where 6.12's
 * folio_likely_mapped_shared() is @mapcount > 1.
 *
 * Return: %TLBP_MB_ASYNC to batch, or the rule that says not to.
 */
static inline enum tlbp_migrate_batch_why
tlbp_migrate_batch_why(enum tlbp_migrate_batch_policy policy,
		       enum tlbp_migrate_mode mode,
		       enum tlbp_migrate_reason reason, unsigned int nr_folios,
		       unsigned int order, int mapcount)
{
	if (mode != TLBP_MIGRATE_ASYNC)
		return TLBP_MB_SYNC_MODE;
	switch (policy) {
	case TLBP_MIGRATE_BATCH_SKIP_NUMA:
		if (reason == TLBP_MR_NUMA_MISPLACED)
			return TLBP_MB_NUMA_MISPLACED;
		break;
	case TLBP_MIGRATE_BATCH_SKIP_SINGLE:
		/* A large or shared folio has several PTEs to share a flush. */
		if (nr_folios == 1 && order == 0 && mapcount <= 1)
			return TLBP_MB_SINGLE_SMALL;
		break;
	case TLBP_MIGRATE_BATCH_SKIP_SINGLE_MAPCOUNT:
		if (nr_folios == 1 && mapcount <= 1)
			return TLBP_MB_SINGLE_MAPPED_ONCE;
		break;
	default:
		break;
	}
	return TLBP_MB_ASYNC;
}

/**
 * tlbp_migrate_should_batch_fast() - Should a migration unmap batch its
 *                                    flush (TTU_BATCH_FLUSH)?
 * @policy: a valid policy.
 * @mode: a valid migration mode.
 * @reason: a valid migration reason.
 * @nr_folios: folios in the batch, at least 1 (1 if @mode is not async).
 * @order: folio_order().
 * @mapcount: folio_mapcount(), at least 0.
 *
 * Context: any; pure.
 * Return: what tlbp_migrate_should_batch() puts in
 * &tlbp_migrate_decision.batch for the same folio.
 */
static inline bool
tlbp_migrate_should_batch_fast(enum tlbp_migrate_batch_policy policy,
			       enum tlbp_migrate_mode mode,
			       enum tlbp_migrate_reason reason,
			       unsigned int nr_folios, unsigned int order,
			       int mapcount)
{
	bool batch = tlbp_migrate_batch_why(policy, mode, reason, nr_folios,
					    order, mapcount) == TLBP_MB_ASYNC;
#ifdef TLBP_DEBUG
	{
		/* The hint as 6.12 would have it, where it is determined. */
		struct tlbp_migrate_folio f = {
			mode, reason, nr_folios, order, mapcount,
			mapcount > 1 &&
			(order == 0 || order >= 31 ||
			 (unsigned int)mapcount > 1U << order),
		};
		struct tlbp_migrate_decision d;

		TLBP_WARN_ON(tlbp_migrate_should_batch(policy, &f, &d) ||
			     d.batch != batch);
	}
#endif
	return batch;
}

TLBP_END_DECLS

#endif /* TLBPOLICY_FASTPATH_H */
