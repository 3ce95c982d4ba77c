/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/**
 * @file hint_fault.h
 * @brief The NUMA hint-fault handler (do_numa_page) as a state machine
 *        over ops, with the eager-map and deferred-map policies.
 *
 * A hint fault hits a PTE the NUMA scanner made PROT_NONE. The handler
 * decides whether to migrate the folio and must make the PTE accessible
 * again on every path that does not migrate it.
 *
 * - **Eager map** (before v5.13) restores the PTE first. Any CPU may then
 *   cache it, so if the folio is migrated, the migration's unmap has to
 *   flush it from every TLB.
 * - **Deferred map** (v5.13+) keeps the PTE PROT_NONE until the decision
 *   and maps it only on the paths that do not migrate. A migrated PROT_NONE
 *   PTE was never cached (unless the mm's @c tlb_flush_pending is raised,
 *   which tlbp_pte_accessible() accounts for), so the unmap needs no flush.
 *
 * After a failed migration the deferred handler relocks and re-checks the
 * PTE; if someone changed it meanwhile it neither maps nor accounts.
 */
#ifndef TLBPOLICY_HINT_FAULT_H
#define TLBPOLICY_HINT_FAULT_H

#include <tlbpolicy/platform.h>

TLBP_BEGIN_DECLS

/** "No node", as NUMA_NO_NODE. */
#define TLBP_NUMA_NO_NODE (-1)

/** @name Fault flags passed to the account op (TNF_*) */
/** @{ */
#define TLBP_TNF_MIGRATED     (1U << 0) /**< the folio was migrated */
#define TLBP_TNF_NO_GROUP     (1U << 1) /**< do not group tasks (not writable) */
#define TLBP_TNF_SHARED       (1U << 2) /**< folio likely shared */
#define TLBP_TNF_MIGRATE_FAIL (1U << 3) /**< migration was attempted and failed */
/** @} */

/** Which order of map and migrate. */
enum tlbp_hint_policy {
	TLBP_HINT_EAGER_MAP = 0, /**< map first, then decide (before v5.13) */
	TLBP_HINT_DEFERRED_MAP,  /**< decide first, map only if not migrating */
	TLBP_HINT_POLICY_NR,     /**< number of policies */
};

/** The path a fault took. */
enum tlbp_hint_path {
	TLBP_HINT_PTE_CHANGED = 0,   /**< PTE changed before we locked: nothing done */
	TLBP_HINT_NO_FOLIO,          /**< no normal folio: mapped, not accounted */
	TLBP_HINT_NO_TARGET,         /**< folio well placed: mapped, accounted */
	TLBP_HINT_PREPARE_FAILED,    /**< isolation failed: mapped, accounted */
	TLBP_HINT_MIGRATED,          /**< migrated: accounted on the target */
	TLBP_HINT_MIGRATE_FAILED,    /**< migration failed: mapped, accounted */
	TLBP_HINT_MIGRATE_FAILED_PTE_CHANGED, /**< failed, and the PTE changed
						   meanwhile: nothing touched */
};

/** The folio found at the faulting PTE. */
struct tlbp_hint_folio {
	int nid;               /**< node the folio is on */
	unsigned int nr_pages; /**< pages in the folio */
};

/**
 * @brief Mechanism of a hint fault. New members are only ever appended.
 *
 * The handler calls @c lock on entry and always leaves the PTL released.
 * Ops marked "PTL held" run between @c lock and @c unlock. None may sleep
 * except @c migrate, which runs with the PTL released.
 */
struct tlbp_hint_fault_ops {
	/** Required. Take the PTE lock (PTL). */
	void (*lock)(void *ctx);
	/** Required. Release the PTL. */
	void (*unlock)(void *ctx);
	/** Required, PTL held. Is the PTE still the one that faulted? */
	bool (*pte_unchanged)(void *ctx);
	/** Required, PTL held. Find the folio; false if there is no normal
	 *  folio (zero page, zone-device, special mapping). */
	bool (*find_folio)(void *ctx, struct tlbp_hint_folio *folio);
	/** Required, PTL held. The node to migrate to or #TLBP_NUMA_NO_NODE;
	 *  may set TLBP_TNF_NO_GROUP / TLBP_TNF_SHARED in @p flags. */
	int (*target_node)(void *ctx, const struct tlbp_hint_folio *folio,
			   unsigned int *flags);
	/** Required, PTL held. Isolate the folio for migration; 0 or a
	 *  negative errno. */
	int (*prepare)(void *ctx, const struct tlbp_hint_folio *folio, int target);
	/** Required, PTL released, may sleep. Migrate; 0 or a negative errno
	 *  (the folio stays where it was). */
	int (*migrate)(void *ctx, const struct tlbp_hint_folio *folio, int target);
	/** Required, PTL held. Make the PTE accessible again. Only widens
	 *  permissions, so it needs no TLB flush. */
	void (*map)(void *ctx);
	/** Required, any context. Account the fault (task_numa_fault). */
	void (*account)(void *ctx, int nid, unsigned int nr_pages,
			unsigned int flags);
};

/** What one fault did. */
struct tlbp_hint_result {
	enum tlbp_hint_path path; /**< the path taken */
	unsigned int flags;       /**< TLBP_TNF_* flags accounted (or that would be) */
	int nid;                  /**< node accounted, or #TLBP_NUMA_NO_NODE */
	bool mapped;              /**< the PTE was made accessible */
	bool accounted;           /**< the account op ran */
	/** The PTE was accessible while the migration unmapped it, so the
	 *  unmap needed a real flush (eager map on the migrate paths). */
	bool mapped_before_migrate;
};

/**
 * @brief A hint-fault handler: policy plus mechanism; caller-owned.
 */
struct tlbp_hint_fault {
	const struct tlbp_hint_fault_ops *ops; /**< @private */
	void *ctx;                             /**< @private */
	enum tlbp_hint_policy policy;          /**< @private */
};

/**
 * @brief Initialise a handler.
 * @return 0; -EINVAL if a pointer is NULL, a required op is missing or
 *         @p policy is unknown (@p hf untouched).
 * @note Context: any.
 */
TLBP_API int tlbp_hint_fault_init(struct tlbp_hint_fault *hf,
				  enum tlbp_hint_policy policy,
				  const struct tlbp_hint_fault_ops *ops,
				  void *ctx);

/**
 * @brief Handle one hint fault: lock, decide, map and/or migrate, account.
 * @param hf the handler.
 * @param res what happened.
 * @return 0 (every path, including failed migrations, is a handled fault);
 *         -EINVAL if a pointer is NULL (no op is called).
 * @note Context: process context, PTL not held on entry or return; may
 *       sleep in @c migrate.
 */
TLBP_API int tlbp_hint_fault_handle(struct tlbp_hint_fault *hf,
				    struct tlbp_hint_result *res);

/**
 * @brief A short name for a path ("migrated", "no-target", ...); NULL out
 *        of range.
 */
TLBP_API const char *tlbp_hint_path_name(enum tlbp_hint_path path);

TLBP_END_DECLS

#endif /* TLBPOLICY_HINT_FAULT_H */
