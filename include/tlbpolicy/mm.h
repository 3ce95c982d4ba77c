/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/**
 * DOC: An address space's flush state
 *
 * The batched pending/flushed generation pair and the ``tlb_flush_pending``
 * counter.
 *
 * The generation word mirrors the kernel's ``mm->tlb_flush_batched``: the
 * pending generation (bits 0-14) counts flushes deferred into *some* task's
 * batch; the flushed generation (bits 16-30) is the pending value the last
 * completed drain observed. A flush is outstanding while the two differ.
 *
 * A plain "pending" flag loses flushes: a drainer that clears the flag after
 * its flush erases a deferral another task made during that flush. The drain
 * here marks flushed only the generation it observed, with one
 * compare-and-swap, so a newer deferral stays outstanding.
 *
 * The guarantee has the kernel's bound: if more than
 * %TLBP_MM_GEN_PENDING_LARGE deferrals land while one drain is between
 * reading the word and its compare-and-swap, the word can return to the
 * value the drain read and the swap marks flushed what it never saw. Drain
 * with preemption off (the kernel holds the page-table lock), so that
 * window stays one flush long.
 */
#ifndef TLBPOLICY_MM_H
#define TLBPOLICY_MM_H

#include <tlbpolicy/platform.h>
#include <tlbpolicy/flush_ops.h>

TLBP_BEGIN_DECLS

/**
 * define TLBP_MM_GEN_FLUSHED_SHIFT - Shift of the flushed generation in the
 *	generation word.
 */
#define TLBP_MM_GEN_FLUSHED_SHIFT 16
/**
 * define TLBP_MM_GEN_PENDING_MASK - Mask of the pending generation (15 bits;
 *	bit 15 is a guard).
 */
#define TLBP_MM_GEN_PENDING_MASK ((1 << (TLBP_MM_GEN_FLUSHED_SHIFT - 1)) - 1)
/**
 * define TLBP_MM_GEN_PENDING_LARGE - Above this pending value the producer
 *	resets the word to pending=1.
 */
#define TLBP_MM_GEN_PENDING_LARGE (TLBP_MM_GEN_PENDING_MASK / 2)

/**
 * struct tlbp_mm - Flush state of one address space; storage belongs to the
 *	caller (embed it in the mm).
 *
 * Every member is private: use the tlbp_mm_*() functions.
 */
struct tlbp_mm {
	/* private: */
	tlbp_atomic_t batched_gen;          /* generation word */
	tlbp_atomic_t flush_pending;        /* gathers in flight */
	const struct tlbp_flush_ops *ops;   /* from tlbp_mm_init() */
	void *ctx;                          /* passed first to every op */
};

/**
 * tlbp_mm_init() - Initialise an mm's flush state: nothing outstanding, no
 *	gather.
 * @mm: the state to initialise.
 * @ops: the back-end; ``flush`` and ``flush_mm`` are required.
 * @ctx: passed first to every op.
 *
 * Context: any; does not sleep.
 * Return: 0; -EINVAL if @mm or @ops is NULL or a required op is missing
 * (@mm is then untouched).
 */
TLBP_API int tlbp_mm_init(struct tlbp_mm *mm, const struct tlbp_flush_ops *ops,
			  void *ctx);

/**
 * tlbp_mm_mark_batched_pending() - Producer: record that a flush for @mm was
 *	deferred into a batch.
 * @mm: the address space.
 *
 * Bumps the pending generation. When it grows past
 * %TLBP_MM_GEN_PENDING_LARGE the word is reset to pending=1, flushed=0,
 * which keeps the flush outstanding and can never make pending equal
 * flushed by wrapping. The batch calls this itself; call it directly only
 * when deferring flushes without a tlbp_batch.
 *
 * Context: any; lock-free; call it after the entry is recorded in the
 * batch, so a drainer that sees the new generation finds the batch marked.
 * Return: 0, or -EINVAL if @mm is NULL.
 */
TLBP_API int tlbp_mm_mark_batched_pending(struct tlbp_mm *mm);

/**
 * tlbp_mm_batched_pending() - Whether a deferred flush is outstanding on @mm
 *	(pending != flushed).
 * @mm: the address space.
 *
 * Return: whether a deferred flush is outstanding; false for NULL.
 */
TLBP_API bool tlbp_mm_batched_pending(const struct tlbp_mm *mm);

/**
 * tlbp_mm_flush_batched_pending() - Consumer (flush_tlb_batched_pending):
 *	drain flushes other tasks deferred for @mm.
 * @mm: the address space.
 * @flushed: optional; set to whether a ``flush_mm`` completed (false
 *	when it failed: its error is returned).
 *
 * If a flush is outstanding, calls ``ops->flush_mm``, then marks flushed the
 * pending generation it observed before the flush, and only if the word is
 * still the one it observed. A deferral made during the flush is not marked
 * and the next drain flushes again.
 *
 * Context: call with the page-table lock held, before changing or relying
 * on any PTE under it. May sleep only if ``flush_mm`` may.
 * Return: 0; -EINVAL if @mm is NULL; or the error of ``flush_mm``, in which
 * case the generation word is unchanged (still outstanding).
 */
TLBP_API int tlbp_mm_flush_batched_pending(struct tlbp_mm *mm, bool *flushed);

/**
 * tlbp_mm_batched_gen() - Raw generation word, for tests and tracing.
 * @mm: the address space.
 *
 * Return: the word, or 0 for NULL.
 */
TLBP_API int tlbp_mm_batched_gen(const struct tlbp_mm *mm);

/**
 * tlbp_mm_inc_flush_pending() - Start of a page-table change whose flush
 *	comes later (inc_tlb_flush_pending, done by tlb_gather_mmu).
 * @mm: the address space.
 *
 * Context: call before the PTE changes; the PTL release publishes it.
 * Return: 0, or -EINVAL if @mm is NULL.
 */
TLBP_API int tlbp_mm_inc_flush_pending(struct tlbp_mm *mm);

/**
 * tlbp_mm_dec_flush_pending() - End of such a change (dec_tlb_flush_pending).
 * @mm: the address space.
 *
 * Context: call only after the flush has completed on every CPU; a memory
 * barrier alone does not order against TLB invalidation.
 * Return: 0; -EINVAL if @mm is NULL or the counter is already 0 (it is
 * then left at 0).
 */
TLBP_API int tlbp_mm_dec_flush_pending(struct tlbp_mm *mm);

/**
 * tlbp_mm_flush_pending() - Whether a page-table change with a later flush is
 *	in flight (mm_tlb_flush_pending).
 * @mm: the address space.
 *
 * Context: meaningful only with the PTL of the inspected PTE held.
 * Return: whether such a change is in flight; false for NULL.
 */
TLBP_API bool tlbp_mm_flush_pending(const struct tlbp_mm *mm);

/**
 * tlbp_mm_flush_nested() - Whether more than one such change is in flight
 *	(mm_tlb_flush_nested).
 * @mm: the address space.
 *
 * A gather's own range may then miss entries another gather cleared, so it
 * must flush the whole mm.
 *
 * Return: whether more than one such change is in flight.
 */
TLBP_API bool tlbp_mm_flush_nested(const struct tlbp_mm *mm);

TLBP_END_DECLS

#endif /* TLBPOLICY_MM_H */
