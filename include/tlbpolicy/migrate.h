/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/**
 * @file migrate.h
 * @brief Should a folio's unmap during migration use the batched flush?
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

/** Migration mode (enum migrate_mode). */
enum tlbp_migrate_mode {
	TLBP_MIGRATE_ASYNC = 0,  /**< never blocks; the only mode that batches */
	TLBP_MIGRATE_SYNC_LIGHT, /**< may block, not on writeback */
	TLBP_MIGRATE_SYNC,       /**< may block on everything */
};

/** Why pages are migrated (enum migrate_reason). */
enum tlbp_migrate_reason {
	TLBP_MR_COMPACTION = 0,  /**< memory compaction */
	TLBP_MR_MEMORY_FAILURE,  /**< hardware poison */
	TLBP_MR_MEMORY_HOTPLUG,  /**< memory offline */
	TLBP_MR_SYSCALL,         /**< migrate_pages(2), move_pages(2) */
	TLBP_MR_MEMPOLICY_MBIND, /**< mbind(2) with MPOL_MF_MOVE */
	TLBP_MR_NUMA_MISPLACED,  /**< NUMA balancing hint fault */
	TLBP_MR_CONTIG_RANGE,    /**< alloc_contig_range */
	TLBP_MR_LONGTERM_PIN,    /**< FOLL_LONGTERM pinning */
	TLBP_MR_DEMOTION,        /**< memory tiering demotion */
	TLBP_MR_DAMON,           /**< DAMON-driven migration */
	TLBP_MR_NR,              /**< number of reasons */
};

/** Which rule decides. */
enum tlbp_migrate_batch_policy {
	/** v6.4 .. v7.3: batch whenever the mode is async. */
	TLBP_MIGRATE_BATCH_ALWAYS = 0,
	/** patch v1: async, and the reason is not NUMA-misplaced. */
	TLBP_MIGRATE_BATCH_SKIP_NUMA,
	/** patch v2: async, unless the batch is exactly one folio that is
	 *  neither large nor maybe mapped by more than one process. */
	TLBP_MIGRATE_BATCH_SKIP_SINGLE,
	/** reviewer's form: async, and (more than one folio in the batch,
	 *  or the folio's mapcount is above 1). */
	TLBP_MIGRATE_BATCH_SKIP_SINGLE_MAPCOUNT,
	TLBP_MIGRATE_BATCH_POLICY_NR, /**< number of policies */
};

/** What the decision rests on. */
enum tlbp_migrate_batch_why {
	TLBP_MB_ASYNC = 0,          /**< batch: async and no rule against it */
	TLBP_MB_SYNC_MODE,          /**< no batch: sync modes may deadlock */
	TLBP_MB_SYNC_MULTI_FOLIO,   /**< no batch, and a caller bug: a sync
					 mode with more than one folio */
	TLBP_MB_NUMA_MISPLACED,     /**< no batch: skip-numa, NUMA reason */
	TLBP_MB_SINGLE_SMALL,       /**< no batch: one small unshared folio */
	TLBP_MB_SINGLE_MAPPED_ONCE, /**< no batch: one folio, mapcount <= 1 */
};

/** One folio about to be unmapped, and its batch. */
struct tlbp_migrate_folio {
	enum tlbp_migrate_mode mode;     /**< migration mode */
	enum tlbp_migrate_reason reason; /**< migration reason */
	unsigned int nr_folios;          /**< folios in the current batch, >= 1 */
	unsigned int order;              /**< folio order; > 0 is large */
	int mapcount;                    /**< folio_mapcount() */
	/** folio_likely_mapped_shared() (6.12's name). It must agree with
	 *  @c mapcount as the kernel computes it: false when @c mapcount is
	 *  at most 1, equal to @c mapcount > 1 for a small folio, true for a
	 *  large folio mapped more times than it has pages; free only for a
	 *  large folio in between (the kernel guesses from its first page). */
	bool maybe_mapped_shared;
};

/** Result of tlbp_migrate_should_batch(). */
struct tlbp_migrate_decision {
	bool batch;                      /**< unmap with TTU_BATCH_FLUSH */
	enum tlbp_migrate_batch_why why; /**< the rule that decided */
};

/**
 * @brief Decide whether @p folio's unmap joins the batched flush.
 * @param policy the rule.
 * @param folio the folio and its batch.
 * @param out the decision.
 * @return 0; -EINVAL if a pointer is NULL, an enum is out of range,
 *         @p folio->mapcount is negative, @p folio->nr_folios is 0 (the
 *         kernel never unmaps from an empty batch) or
 *         @p folio->maybe_mapped_shared contradicts @p folio->mapcount (see
 *         struct tlbp_migrate_folio), with @p out untouched; -EINVAL also
 *         when a non-async mode comes with more than one folio, a caller
 *         bug the kernel warns about: @p out is then filled with the safe
 *         answer (no batch, #TLBP_MB_SYNC_MULTI_FOLIO).
 * @note Context: any; pure function, no side effects.
 */
TLBP_API int tlbp_migrate_should_batch(enum tlbp_migrate_batch_policy policy,
				       const struct tlbp_migrate_folio *folio,
				       struct tlbp_migrate_decision *out);

/**
 * @brief A short name for a policy ("always", "skip-numa", "skip-single",
 *        "skip-single-mapcount"); NULL for a value out of range.
 */
TLBP_API const char *
tlbp_migrate_batch_policy_name(enum tlbp_migrate_batch_policy policy);

TLBP_END_DECLS

#endif /* TLBPOLICY_MIGRATE_H */
