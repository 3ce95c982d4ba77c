/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/**
 * @file mm.h
 * @brief An address space's flush state: the batched pending/flushed
 *        generation pair and the @c tlb_flush_pending counter.
 *
 * The generation word mirrors the kernel's @c mm->tlb_flush_batched: the
 * pending generation (bits 0-14) counts flushes deferred into *some* task's
 * batch; the flushed generation (bits 16-30) is the pending value the last
 * completed drain observed. A flush is outstanding while the two differ.
 *
 * A plain "pending" flag loses flushes: a drainer that clears the flag after
 * its flush erases a deferral another task made during that flush. The drain
 * here marks flushed only the generation it observed, with one
 * compare-and-swap, so a newer deferral stays outstanding.
 */
#ifndef TLBPOLICY_MM_H
#define TLBPOLICY_MM_H

#include <tlbpolicy/platform.h>
#include <tlbpolicy/flush_ops.h>

TLBP_BEGIN_DECLS

/** Shift of the flushed generation in the generation word. */
#define TLBP_MM_GEN_FLUSHED_SHIFT 16
/** Mask of the pending generation (15 bits; bit 15 is a guard). */
#define TLBP_MM_GEN_PENDING_MASK ((1 << (TLBP_MM_GEN_FLUSHED_SHIFT - 1)) - 1)
/** Above this pending value the producer resets the word to pending=1. */
#define TLBP_MM_GEN_PENDING_LARGE (TLBP_MM_GEN_PENDING_MASK / 2)

/**
 * @brief Flush state of one address space; storage belongs to the caller
 *        (embed it in the mm).
 */
struct tlbp_mm {
	tlbp_atomic_t batched_gen;          /**< @private generation word */
	tlbp_atomic_t flush_pending;        /**< @private gathers in flight */
	const struct tlbp_flush_ops *ops;   /**< @private */
	void *ctx;                          /**< @private */
};

/**
 * @brief Initialise an mm's flush state: nothing outstanding, no gather.
 * @param mm the state to initialise.
 * @param ops the back-end; @c flush and @c flush_mm are required.
 * @param ctx passed first to every op.
 * @return 0; -EINVAL if @p mm or @p ops is NULL or a required op is missing
 *         (@p mm is then untouched).
 * @note Context: any; does not sleep.
 */
TLBP_API int tlbp_mm_init(struct tlbp_mm *mm, const struct tlbp_flush_ops *ops,
			  void *ctx);

/**
 * @brief Producer: record that a flush for @p mm was deferred into a batch.
 *
 * Bumps the pending generation. When it grows past
 * #TLBP_MM_GEN_PENDING_LARGE the word is reset to pending=1, flushed=0,
 * which keeps the flush outstanding and can never make pending equal
 * flushed by wrapping. The batch calls this itself; call it directly only
 * when deferring flushes without a tlbp_batch.
 * @return 0, or -EINVAL if @p mm is NULL.
 * @note Context: any; lock-free; call it after the entry is recorded in the
 *       batch, so a drainer that sees the new generation finds the batch
 *       marked.
 */
TLBP_API int tlbp_mm_mark_batched_pending(struct tlbp_mm *mm);

/**
 * @brief Whether a deferred flush is outstanding on @p mm (pending !=
 *        flushed); false for NULL.
 */
TLBP_API bool tlbp_mm_batched_pending(const struct tlbp_mm *mm);

/**
 * @brief Consumer (flush_tlb_batched_pending): drain flushes other tasks
 *        deferred for @p mm.
 *
 * If a flush is outstanding, calls @c ops->flush_mm, then marks flushed the
 * pending generation it observed before the flush, and only if the word is
 * still the one it observed. A deferral made during the flush is not marked
 * and the next drain flushes again.
 * @param mm the address space.
 * @param flushed optional; set to whether a @c flush_mm completed (false
 *        when it failed: its error is returned).
 * @return 0; -EINVAL if @p mm is NULL; or the error of @c flush_mm, in which
 *         case the generation word is unchanged (still outstanding).
 * @note Context: call with the page-table lock held, before changing or
 *       relying on any PTE under it. May sleep only if @c flush_mm may.
 */
TLBP_API int tlbp_mm_flush_batched_pending(struct tlbp_mm *mm, bool *flushed);

/**
 * @brief Raw generation word, for tests and tracing.
 * @return the word, or 0 for NULL.
 */
TLBP_API int tlbp_mm_batched_gen(const struct tlbp_mm *mm);

/**
 * @brief Start of a page-table change whose flush comes later
 *        (inc_tlb_flush_pending, done by tlb_gather_mmu).
 * @return 0, or -EINVAL if @p mm is NULL.
 * @note Context: call before the PTE changes; the PTL release publishes it.
 */
TLBP_API int tlbp_mm_inc_flush_pending(struct tlbp_mm *mm);

/**
 * @brief End of such a change (dec_tlb_flush_pending).
 * @return 0; -EINVAL if @p mm is NULL or the counter is already 0 (it is
 *         then left at 0).
 * @note Context: call only after the flush has completed on every CPU; a
 *       memory barrier alone does not order against TLB invalidation.
 */
TLBP_API int tlbp_mm_dec_flush_pending(struct tlbp_mm *mm);

/**
 * @brief Whether a page-table change with a later flush is in flight
 *        (mm_tlb_flush_pending); false for NULL.
 * @note Context: meaningful only with the PTL of the inspected PTE held.
 */
TLBP_API bool tlbp_mm_flush_pending(const struct tlbp_mm *mm);

/**
 * @brief Whether more than one such change is in flight
 *        (mm_tlb_flush_nested): a gather's own range may then miss entries
 *        another gather cleared, so it must flush the whole mm.
 */
TLBP_API bool tlbp_mm_flush_nested(const struct tlbp_mm *mm);

TLBP_END_DECLS

#endif /* TLBPOLICY_MM_H */
