/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/**
 * DOC: Unmapping every PTE of a PTE-mapped large folio before a split
 *
 * The kernel's unmap_folio, with per-PTE or batched TLB flushes.
 *
 * Before v6.7 each cleared PTE was flushed on its own (ptep_clear_flush):
 * up to 512 flushes, each a shootdown, for one 2 MiB folio. Since v6.7 the
 * PTEs are cleared into the task's batch and flushed once. Either way the
 * flush completes before the split proceeds: the split rewrites the
 * mapping, and a CPU must not keep using a translation of the old one.
 *
 * Only entries that really go into the batch touch the mm's batched
 * generation (tlb_flush_batched). The per-PTE policy, hugetlb entries and
 * entries the batch declines to defer (x86: the mm is live only on the
 * current CPU) are flushed at once, as ptep_clear_flush() and
 * huge_ptep_clear_flush() do, and leave the generation alone; a later
 * tlbp_mm_flush_batched_pending() then owes nothing for them.
 */
#ifndef TLBPOLICY_SPLIT_H
#define TLBPOLICY_SPLIT_H

#include <tlbpolicy/platform.h>
#include <tlbpolicy/batch.h>

TLBP_BEGIN_DECLS

/**
 * enum tlbp_split_policy - How to flush the cleared PTEs.
 * @TLBP_SPLIT_FLUSH_PER_PTE: clear and flush each PTE (before v6.7).
 * @TLBP_SPLIT_FLUSH_BATCHED: clear all, flush once (v6.7+).
 * @TLBP_SPLIT_POLICY_NR: number of policies.
 */
enum tlbp_split_policy {
	TLBP_SPLIT_FLUSH_PER_PTE = 0,
	TLBP_SPLIT_FLUSH_BATCHED,
	TLBP_SPLIT_POLICY_NR,
};

/**
 * enum tlbp_split_why - Why the flushes were done the way they were.
 * @TLBP_SPLIT_WHY_BATCHED: batched policy.
 * @TLBP_SPLIT_WHY_PER_PTE: per-PTE policy.
 * @TLBP_SPLIT_WHY_HUGETLB: hugetlb mapping: never batched.
 * @TLBP_SPLIT_WHY_NOT_DEFERRED: batched policy, but the batch declined to
 *	defer (x86: the mm was live only on this CPU), so entries were flushed
 *	at once.
 */
enum tlbp_split_why {
	TLBP_SPLIT_WHY_BATCHED = 0,
	TLBP_SPLIT_WHY_PER_PTE,
	TLBP_SPLIT_WHY_HUGETLB,
	TLBP_SPLIT_WHY_NOT_DEFERRED,
};

/**
 * struct tlbp_split_ops - Mechanism of the split. New members are only ever
 *	appended.
 * @clear_pte: Required, PTL held, must not sleep. Clear the @idx-th entry
 *	of the folio's mapping and return its old state (TLBP_PTE_* bits) in
 *	@old_pte. Returns 0, -ENOENT if the entry did not map the folio (a
 *	partially mapped folio; skipped), or another negative errno (the
 *	split stops after flushing what it cleared).
 * @proceed: Required. Called once every cleared entry's flush has
 *	completed: the split may proceed. Returns 0 or a negative errno,
 *	passed back.
 */
struct tlbp_split_ops {
	int (*clear_pte)(void *ctx, unsigned int idx, unsigned int *old_pte);
	int (*proceed)(void *ctx);
};

/**
 * struct tlbp_split_folio - The folio to unmap.
 * @mm: its address space.
 * @mm_cpus: CPUs the mm may be live on.
 * @addr: address of its first page.
 * @order: folio order, 1 .. 20.
 * @pmd_order: order of a PMD mapping (9 on x86-64).
 * @hugetlb: a hugetlb mapping: one huge entry.
 * @this_cpu: The CPU the caller runs on: the batch defers an entry only if
 *	the mm may be live elsewhere (should_defer_flush).
 */
struct tlbp_split_folio {
	struct tlbp_mm *mm;
	const struct tlbp_cpuset *mm_cpus;
	uint64_t addr;
	unsigned int order;
	unsigned int pmd_order;
	bool hugetlb;
	unsigned int this_cpu;
};

/**
 * struct tlbp_split_result - What tlbp_split_unmap() did.
 * @nr_cleared: entries cleared.
 * @nr_skipped: entries that did not map the folio.
 * @nr_flushes: flushes completed (a failed flush is not counted: its error
 *	is returned).
 * @nr_deferred: entries queued in the batch (each bumped the mm's batched
 *	generation).
 * @split_huge_pmd: TTU_SPLIT_HUGE_PMD: folio is PMD-mappable.
 * @proceeded: the proceed op ran.
 * @why: how the flushes were done.
 */
struct tlbp_split_result {
	unsigned int nr_cleared;
	unsigned int nr_skipped;
	unsigned int nr_flushes;
	unsigned int nr_deferred;
	bool split_huge_pmd;
	bool proceeded;
	enum tlbp_split_why why;
};

/**
 * struct tlbp_split - A split helper; caller-owned.
 *
 * Every member is private: use tlbp_split_init() and tlbp_split_unmap().
 */
struct tlbp_split {
	/* private: */
	const struct tlbp_split_ops *ops; /* from tlbp_split_init() */
	void *ctx;                        /* passed first to every op */
	struct tlbp_batch *batch;         /* flushes go through it */
	enum tlbp_split_policy policy;    /* per-PTE or batched */
};

/**
 * tlbp_split_init() - Initialise a split helper that flushes through @batch.
 * @s: the helper.
 * @policy: per-PTE or batched flushes.
 * @ops: the mechanism; both ops are required.
 * @ctx: passed first to every op.
 * @batch: the batch the flushes go through.
 *
 * Context: any.
 * Return: 0; -EINVAL for a NULL pointer, a missing op or an unknown policy
 * (@s untouched).
 */
TLBP_API int tlbp_split_init(struct tlbp_split *s, enum tlbp_split_policy policy,
			     const struct tlbp_split_ops *ops, void *ctx,
			     struct tlbp_batch *batch);

/**
 * tlbp_split_unmap() - Unmap every entry of @folio, flush, then let the split
 *	proceed.
 * @s: the helper.
 * @folio: the folio.
 * @res: what was done (filled on every return but -EINVAL).
 *
 * Clears 2^order PTEs (one entry for hugetlb). The per-PTE policy, and
 * every hugetlb mapping, flushes each entry at once through the mm's ops
 * (ranged up to the batch's range ceiling, counted in entries); the batched
 * policy asks the batch whether to defer (tlbp_batch_should_defer() with
 * @folio->this_cpu), queues the entries it may defer and flushes once
 * after the last, flushing the others at once. Inaccessible entries cost no
 * flush under either. ``proceed`` runs only after every cleared entry's
 * flush has completed.
 *
 * Context: as the ops; the caller holds the rmap lock.
 * Return: 0; -EINVAL for a NULL pointer, an order outside 1..20, a
 * pmd_order of 0, an address not aligned to the folio, a ``this_cpu`` the
 * batch does not cover or an ``mm_cpus`` larger than the batch (no op
 * called, @res untouched); the error of ``clear_pte`` (entries cleared so
 * far are flushed first, ``proceed`` is not called); the error of the
 * batch's add_pending op (the entry is flushed at once, in full, and the
 * split stops); the error of a flush (``proceed`` is not called, and the
 * flush stays owed: a failed batch flush stays in the batch, a failed
 * immediate flush is queued into it); or the error of ``proceed``.
 */
TLBP_API int tlbp_split_unmap(struct tlbp_split *s,
			      const struct tlbp_split_folio *folio,
			      struct tlbp_split_result *res);

TLBP_END_DECLS

#endif /* TLBPOLICY_SPLIT_H */
