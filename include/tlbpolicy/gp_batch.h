/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/**
 * DOC: Batched grace-period work
 *
 * Work over N items where each item needs an expensive global sync
 * (synchronize_rcu) before it and a TLB flush after it: paid per item, or
 * once per batch.
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
 *
 * - %TLBP_GP_STOP (restore): stop at the first failing item and hand it
 *   and every later item back to the caller.
 * - %TLBP_GP_CONTINUE (optimize): keep going. An item that fails with
 *   -ENOMEM while freed pages wait for a flush gets one retry: flush, free
 *   the pages, process the item again.
 *
 * Invariant: ``free_pending`` runs only right after a completed ``flush``,
 * so no page is freed while a stale TLB entry may still point at it.
 */
#ifndef TLBPOLICY_GP_BATCH_H
#define TLBPOLICY_GP_BATCH_H

#include <tlbpolicy/platform.h>

TLBP_BEGIN_DECLS

/**
 * enum tlbp_gp_policy - How often to pay for the sync and the flush.
 * @TLBP_GP_PER_ITEM: sync and flush around every item.
 * @TLBP_GP_BATCHED: one sync before the first item that needs it, one flush
 *	after the last.
 * @TLBP_GP_POLICY_NR: number of policies.
 */
enum tlbp_gp_policy {
	TLBP_GP_PER_ITEM = 0,
	TLBP_GP_BATCHED,
	TLBP_GP_POLICY_NR,
};

/**
 * enum tlbp_gp_on_error - What to do when an item fails.
 * @TLBP_GP_STOP: stop, hand back the failed item and the rest.
 * @TLBP_GP_CONTINUE: go on; retry an -ENOMEM item once after freeing.
 * @TLBP_GP_ON_ERROR_NR: number of modes.
 */
enum tlbp_gp_on_error {
	TLBP_GP_STOP = 0,
	TLBP_GP_CONTINUE,
	TLBP_GP_ON_ERROR_NR,
};

/**
 * struct tlbp_gp_ops - Mechanism of the batched work. New members are only
 *	appended.
 * @needs_work: Required. Does item @idx need the sync and the flush?
 * @process: Required. Do item @idx's work; 0 or a negative errno.
 * @sync: Required. Wait for a grace period (synchronize_rcu); 0 or -errno.
 * @flush: Required. Flush every TLB (flush_tlb_all); 0 or -errno.
 * @nr_pending_free: Optional (NULL: no pages are ever pending). Pages
 *	waiting to be freed once a flush has covered them.
 * @free_pending: Required if ``nr_pending_free`` is set. Free those pages;
 *	called only right after a successful ``flush``.
 *
 * All ops run in process context and may sleep (the caller holds no
 * spinlock: hugetlb drops hugetlb_lock around this work).
 */
struct tlbp_gp_ops {
	bool (*needs_work)(void *ctx, unsigned int idx);
	int (*process)(void *ctx, unsigned int idx);
	int (*sync)(void *ctx);
	int (*flush)(void *ctx);
	unsigned long (*nr_pending_free)(void *ctx);
	void (*free_pending)(void *ctx);
};

/**
 * struct tlbp_gp_result - What a run did.
 * @syncs: grace periods completed (a failed sync is not counted: its error
 *	is returned).
 * @flushes: flushes completed (likewise).
 * @done: items processed successfully.
 * @not_needed: items that needed no work.
 * @failed: items that failed and were kept (CONTINUE).
 * @handed_back: items handed back unprocessed or failed (STOP).
 * @retries: -ENOMEM retries.
 * @first_error: first item error, 0 if none.
 * @first_error_item: its index (valid if @first_error).
 */
struct tlbp_gp_result {
	unsigned int syncs;
	unsigned int flushes;
	unsigned int done;
	unsigned int not_needed;
	unsigned int failed;
	unsigned int handed_back;
	unsigned int retries;
	int first_error;
	unsigned int first_error_item;
};

/**
 * struct tlbp_gp_batch - A batched grace-period runner; caller-owned.
 *
 * Every member is private: use tlbp_gp_batch_init() and tlbp_gp_batch_run().
 */
struct tlbp_gp_batch {
	/* private: */
	const struct tlbp_gp_ops *ops;  /* from tlbp_gp_batch_init() */
	void *ctx;                      /* passed first to every op */
	enum tlbp_gp_policy policy;     /* per item or batched */
	enum tlbp_gp_on_error on_error; /* stop or continue */
};

/**
 * tlbp_gp_batch_init() - Initialise a runner.
 * @g: the runner.
 * @policy: how often to pay for the sync and the flush.
 * @on_error: what to do when an item fails.
 * @ops: the mechanism.
 * @ctx: passed first to every op.
 *
 * Context: any.
 * Return: 0; -EINVAL for a NULL pointer, a missing required op (including
 * ``free_pending`` when ``nr_pending_free`` is set) or an unknown policy or
 * mode (@g untouched).
 */
TLBP_API int tlbp_gp_batch_init(struct tlbp_gp_batch *g,
				enum tlbp_gp_policy policy,
				enum tlbp_gp_on_error on_error,
				const struct tlbp_gp_ops *ops, void *ctx);

/**
 * tlbp_gp_batch_run() - Run the work over items 0 .. @nr_items - 1.
 * @g: the runner.
 * @nr_items: number of items.
 * @res: what happened (filled on every return but -EINVAL).
 *
 * Context: process context; may sleep.
 * Return: 0 when every item needing work was processed; the first item
 * error otherwise (also in @res->first_error); -EINVAL if a pointer is
 * NULL (no op called); or the error of ``sync`` or ``flush``: a failed
 * sync stops before the item it guards (that item and the rest are handed
 * back); a failed flush stops the run without freeing, leaving the pending
 * pages for the caller to flush and free.
 */
TLBP_API int tlbp_gp_batch_run(const struct tlbp_gp_batch *g,
			       unsigned int nr_items,
			       struct tlbp_gp_result *res);

TLBP_END_DECLS

#endif /* TLBPOLICY_GP_BATCH_H */
