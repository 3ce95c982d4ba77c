/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/**
 * DOC: Should a folio's unmap during migration use the batched flush?
 *
 * Migration unmaps a batch of folios, flushes once, then copies
 * (migrate_pages_batch). Batching pays when the flush is shared by many
 * PTEs; for a batch of one small folio mapped once there is nothing to
 * share, and the batch only adds a full flush where a single-page one would
 * do. The policies are the historical rule and the variants proposed to
 * skip that case ("mm/migrate: don't batch the TLB flush when there is
 * nothing to batch").
 */
#ifndef TLBPOLICY_MIGRATE_H
#define TLBPOLICY_MIGRATE_H

#include <tlbpolicy/platform.h>

TLBP_BEGIN_DECLS

/**
 * enum tlbp_migrate_mode - Migration mode (enum migrate_mode).
 * @TLBP_MIGRATE_ASYNC: never blocks; the only mode that batches.
 * @TLBP_MIGRATE_SYNC_LIGHT: may block, not on writeback.
 * @TLBP_MIGRATE_SYNC: may block on everything.
 */
enum tlbp_migrate_mode {
	TLBP_MIGRATE_ASYNC = 0,
	TLBP_MIGRATE_SYNC_LIGHT,
	TLBP_MIGRATE_SYNC,
};

/**
 * enum tlbp_migrate_reason - Why pages are migrated (enum migrate_reason).
 * @TLBP_MR_COMPACTION: memory compaction.
 * @TLBP_MR_MEMORY_FAILURE: hardware poison.
 * @TLBP_MR_MEMORY_HOTPLUG: memory offline.
 * @TLBP_MR_SYSCALL: migrate_pages(2), move_pages(2).
 * @TLBP_MR_MEMPOLICY_MBIND: mbind(2) with MPOL_MF_MOVE.
 * @TLBP_MR_NUMA_MISPLACED: NUMA balancing hint fault.
 * @TLBP_MR_CONTIG_RANGE: alloc_contig_range.
 * @TLBP_MR_LONGTERM_PIN: FOLL_LONGTERM pinning.
 * @TLBP_MR_DEMOTION: memory tiering demotion.
 * @TLBP_MR_DAMON: DAMON-driven migration.
 * @TLBP_MR_NR: number of reasons.
 */
enum tlbp_migrate_reason {
	TLBP_MR_COMPACTION = 0,
	TLBP_MR_MEMORY_FAILURE,
	TLBP_MR_MEMORY_HOTPLUG,
	TLBP_MR_SYSCALL,
	TLBP_MR_MEMPOLICY_MBIND,
	TLBP_MR_NUMA_MISPLACED,
	TLBP_MR_CONTIG_RANGE,
	TLBP_MR_LONGTERM_PIN,
	TLBP_MR_DEMOTION,
	TLBP_MR_DAMON,
	TLBP_MR_NR,
};

/**
 * enum tlbp_migrate_batch_policy - Which rule decides.
 * @TLBP_MIGRATE_BATCH_ALWAYS: v6.4 .. v7.3: batch whenever the mode is async.
 * @TLBP_MIGRATE_BATCH_SKIP_NUMA: patch v1: async, and the reason is not
 *	NUMA-misplaced.
 * @TLBP_MIGRATE_BATCH_SKIP_SINGLE: patch v2: async, unless the batch is
 *	exactly one folio that is neither large nor maybe mapped by more than
 *	one process.
 * @TLBP_MIGRATE_BATCH_SKIP_SINGLE_MAPCOUNT: reviewer's form: async, and (more
 *	than one folio in the batch, or the folio's mapcount is above 1).
 * @TLBP_MIGRATE_BATCH_POLICY_NR: number of policies.
 */
enum tlbp_migrate_batch_policy {
	TLBP_MIGRATE_BATCH_ALWAYS = 0,
	TLBP_MIGRATE_BATCH_SKIP_NUMA,
	TLBP_MIGRATE_BATCH_SKIP_SINGLE,
	TLBP_MIGRATE_BATCH_SKIP_SINGLE_MAPCOUNT,
	TLBP_MIGRATE_BATCH_POLICY_NR,
};

/**
 * enum tlbp_migrate_batch_why - What the decision rests on.
 * @TLBP_MB_ASYNC: batch: async and no rule against it.
 * @TLBP_MB_SYNC_MODE: no batch: sync modes may deadlock.
 * @TLBP_MB_SYNC_MULTI_FOLIO: no batch, and a caller bug: a sync mode with
 *	more than one folio.
 * @TLBP_MB_NUMA_MISPLACED: no batch: skip-numa, NUMA reason.
 * @TLBP_MB_SINGLE_SMALL: no batch: one small unshared folio.
 * @TLBP_MB_SINGLE_MAPPED_ONCE: no batch: one folio, mapcount <= 1.
 */
enum tlbp_migrate_batch_why {
	TLBP_MB_ASYNC = 0,
	TLBP_MB_SYNC_MODE,
	TLBP_MB_SYNC_MULTI_FOLIO,
	TLBP_MB_NUMA_MISPLACED,
	TLBP_MB_SINGLE_SMALL,
	TLBP_MB_SINGLE_MAPPED_ONCE,
};

/**
 * struct tlbp_migrate_folio - One folio about to be unmapped, and its batch.
 * @mode: migration mode.
 * @reason: migration reason.
 * @nr_folios: folios in the current batch, >= 1.
 * @order: folio order; > 0 is large.
 * @mapcount: folio_mapcount().
 * @maybe_mapped_shared: folio_likely_mapped_shared() (6.12's name). It must
 *	agree with @mapcount as the kernel computes it: false when @mapcount
 *	is at most 1, equal to @mapcount > 1 for a small folio, true for a
 *	large folio mapped more times than it has pages; free only for a
 *	large folio in between (the kernel guesses from its first page).
 */
struct tlbp_migrate_folio {
	enum tlbp_migrate_mode mode;
	enum tlbp_migrate_reason reason;
	unsigned int nr_folios;
	unsigned int order;
	int mapcount;
	bool maybe_mapped_shared;
};

/**
 * struct tlbp_migrate_decision - Result of tlbp_migrate_should_batch().
 * @batch: unmap with TTU_BATCH_FLUSH.
 * @why: the rule that decided.
 */
struct tlbp_migrate_decision {
	bool batch;
	enum tlbp_migrate_batch_why why;
};

/**
 * tlbp_migrate_should_batch() - Decide whether @folio's unmap joins the
 *	batched flush.
 * @policy: the rule.
 * @folio: the folio and its batch.
 * @out: the decision.
 *
 * Context: any; pure function, no side effects.
 * Return: 0; -EINVAL if a pointer is NULL, an enum is out of range,
 * @folio->mapcount is negative, @folio->nr_folios is 0 (the kernel never
 * unmaps from an empty batch) or @folio->maybe_mapped_shared contradicts
 * @folio->mapcount (see &struct tlbp_migrate_folio), with @out untouched;
 * -EINVAL also when a non-async mode comes with more than one folio, a
 * caller bug the kernel warns about: @out is then filled with the safe
 * answer (no batch, %TLBP_MB_SYNC_MULTI_FOLIO).
 */
TLBP_API int tlbp_migrate_should_batch(enum tlbp_migrate_batch_policy policy,
				       const struct tlbp_migrate_folio *folio,
				       struct tlbp_migrate_decision *out);

/**
 * tlbp_migrate_batch_policy_name() - A short name for a policy.
 * @policy: the policy.
 *
 * Return: "always", "skip-numa", "skip-single" or "skip-single-mapcount";
 * NULL for a value out of range.
 */
TLBP_API const char *
tlbp_migrate_batch_policy_name(enum tlbp_migrate_batch_policy policy);

TLBP_END_DECLS

#endif /* TLBPOLICY_MIGRATE_H */
