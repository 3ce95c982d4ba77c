/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/**
 * @file gp_batch.h
 * @brief Work over N items where each item needs an expensive global sync
 *        (synchronize_rcu) before it and a TLB flush after it: paid per
 *        item, or once per batch.
 *
 * The shape is HugeTLB vmemmap optimisation (HVO): restoring or optimising
 * a folio's vmemmap needs a grace period first (speculative PFN walkers may
 * hold RCU) and a flush_tlb_all() afterwards, and freed vmemmap pages may be
 * reused only after that flush. Per item, demoting one 1 GiB page into
 * 512 x 2 MiB pages costs 513 grace periods; batched, 2.
 *
 * Items that do not need the work (not optimised) are passed over without
 * a sync or a flush; a run where no item needs it costs nothing.
 *
 * A flush is owed by a completed item or by pages waiting to be freed, not
 * by a failed item (its op changed no mapping, or flushed on its own
 * failure path). Batched, that is 6.12's mm/hugetlb_vmemmap.c:
 * hugetlb_vmemmap_restore_folios() syncs before the first optimised folio
 * and flushes once if any folio was restored;
 * hugetlb_vmemmap_optimize_folios() syncs once and flushes once at the end,
 * plus once per -ENOMEM retry (its PMD-split pass and that pass's flush
 * come before, and are not this runner's). The one difference: when no
 * item needs work and no page is pending, optimize still flushes and this
 * runner does not, since such a flush covers nothing.
 *
 * Failure semantics are explicit:
 * - #TLBP_GP_STOP (restore): stop at the first failing item and hand it
 *   and every later item back to the caller.
 * - #TLBP_GP_CONTINUE (optimize): keep going. An item that fails with
 *   -ENOMEM while freed pages wait for a flush gets one retry: flush, free
 *   the pages, process the item again.
 *
 * Invariant: @c free_pending runs only right after a completed @c flush,
 * so no page is freed while a stale TLB entry may still point at it.
 */
#ifndef TLBPOLICY_GP_BATCH_H
#define TLBPOLICY_GP_BATCH_H

#include <tlbpolicy/platform.h>

TLBP_BEGIN_DECLS

/** How often to pay for the sync and the flush. */
enum tlbp_gp_policy {
	TLBP_GP_PER_ITEM = 0, /**< sync and flush around every item */
	TLBP_GP_BATCHED,      /**< one sync before the first item that needs
				   it, one flush after the last */
	TLBP_GP_POLICY_NR,    /**< number of policies */
};

/** What to do when an item fails. */
enum tlbp_gp_on_error {
	TLBP_GP_STOP = 0,  /**< stop, hand back the failed item and the rest */
	TLBP_GP_CONTINUE,  /**< go on; retry an -ENOMEM item once after freeing */
	TLBP_GP_ON_ERROR_NR, /**< number of modes */
};

/**
 * @brief Mechanism of the batched work. New members are only appended.
 *
 * All ops run in process context and may sleep (the caller holds no
 * spinlock: hugetlb drops hugetlb_lock around this work).
 */
struct tlbp_gp_ops {
	/** Required. Does item @p idx need the sync and the flush? */
	bool (*needs_work)(void *ctx, unsigned int idx);
	/** Required. Do item @p idx's work; 0 or a negative errno. */
	int (*process)(void *ctx, unsigned int idx);
	/** Required. Wait for a grace period (synchronize_rcu); 0 or -errno. */
	int (*sync)(void *ctx);
	/** Required. Flush every TLB (flush_tlb_all); 0 or -errno. */
	int (*flush)(void *ctx);
	/** Optional (NULL: no pages are ever pending). Pages waiting to be
	 *  freed once a flush has covered them. */
	unsigned long (*nr_pending_free)(void *ctx);
	/** Required if @c nr_pending_free is set. Free those pages; called
	 *  only right after a successful @c flush. */
	void (*free_pending)(void *ctx);
};

/** What a run did. */
struct tlbp_gp_result {
	unsigned int syncs;        /**< grace periods completed (a failed sync
				        is not counted: its error is returned) */
	unsigned int flushes;      /**< flushes completed (likewise) */
	unsigned int done;         /**< items processed successfully */
	unsigned int not_needed;   /**< items that needed no work */
	unsigned int failed;       /**< items that failed and were kept (CONTINUE) */
	unsigned int handed_back;  /**< items handed back unprocessed or failed (STOP) */
	unsigned int retries;      /**< -ENOMEM retries */
	int first_error;           /**< first item error, 0 if none */
	unsigned int first_error_item; /**< its index (valid if first_error) */
};

/** A batched grace-period runner; caller-owned. */
struct tlbp_gp_batch {
	const struct tlbp_gp_ops *ops;  /**< @private */
	void *ctx;                      /**< @private */
	enum tlbp_gp_policy policy;     /**< @private */
	enum tlbp_gp_on_error on_error; /**< @private */
};

/**
 * @brief Initialise a runner.
 * @return 0; -EINVAL for a NULL pointer, a missing required op (including
 *         @c free_pending when @c nr_pending_free is set) or an unknown
 *         policy or mode (@p g untouched).
 * @note Context: any.
 */
TLBP_API int tlbp_gp_batch_init(struct tlbp_gp_batch *g,
				enum tlbp_gp_policy policy,
				enum tlbp_gp_on_error on_error,
				const struct tlbp_gp_ops *ops, void *ctx);

/**
 * @brief Run the work over items 0 .. @p nr_items - 1.
 * @param g the runner.
 * @param nr_items number of items.
 * @param res what happened (filled on every return but -EINVAL).
 * @return 0 when every item needing work was processed; the first item
 *         error otherwise (also in @p res->first_error); -EINVAL if a
 *         pointer is NULL (no op called); or the error of @c sync or
 *         @c flush: a failed sync stops before the item it guards (that
 *         item and the rest are handed back); a failed flush stops the run
 *         without freeing, leaving the pending pages for the caller to
 *         flush and free.
 * @note Context: process context; may sleep.
 */
TLBP_API int tlbp_gp_batch_run(const struct tlbp_gp_batch *g,
			       unsigned int nr_items,
			       struct tlbp_gp_result *res);

TLBP_END_DECLS

#endif /* TLBPOLICY_GP_BATCH_H */
