/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/**
 * DOC: The NUMA hint-fault handler
 *
 * The hint-fault handler (do_numa_page) as a state machine over ops, with
 * the eager-map and deferred-map policies.
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
 *   PTE was never cached (unless the mm's ``tlb_flush_pending`` is raised,
 *   which tlbp_pte_accessible() accounts for), so the unmap needs no flush.
 *
 * After a failed migration the deferred handler relocks and re-checks the
 * PTE; if someone changed it meanwhile it neither maps nor accounts.
 */
#ifndef TLBPOLICY_HINT_FAULT_H
#define TLBPOLICY_HINT_FAULT_H

#include <tlbpolicy/platform.h>

TLBP_BEGIN_DECLS

/**
 * define TLBP_NUMA_NO_NODE - "No node", as NUMA_NO_NODE.
 */
#define TLBP_NUMA_NO_NODE (-1)

/* Fault flags passed to the account op (TNF_*). */
/**
 * define TLBP_TNF_MIGRATED - the folio was migrated
 */
#define TLBP_TNF_MIGRATED     (1U << 0)
/**
 * define TLBP_TNF_NO_GROUP - do not group tasks (not writable)
 */
#define TLBP_TNF_NO_GROUP     (1U << 1)
/**
 * define TLBP_TNF_SHARED - folio likely shared
 */
#define TLBP_TNF_SHARED       (1U << 2)
/**
 * define TLBP_TNF_MIGRATE_FAIL - migration was attempted and failed
 */
#define TLBP_TNF_MIGRATE_FAIL (1U << 3)

/**
 * enum tlbp_hint_policy - Which order of map and migrate.
 * @TLBP_HINT_EAGER_MAP: map first, then decide (before v5.13).
 * @TLBP_HINT_DEFERRED_MAP: decide first, map only if not migrating.
 * @TLBP_HINT_POLICY_NR: number of policies.
 */
enum tlbp_hint_policy {
	TLBP_HINT_EAGER_MAP = 0,
	TLBP_HINT_DEFERRED_MAP,
	TLBP_HINT_POLICY_NR,
};

/**
 * enum tlbp_hint_path - The path a fault took.
 * @TLBP_HINT_PTE_CHANGED: PTE changed before we locked: nothing done.
 * @TLBP_HINT_NO_FOLIO: no normal folio: mapped, not accounted.
 * @TLBP_HINT_NO_TARGET: folio well placed: mapped, accounted.
 * @TLBP_HINT_PREPARE_FAILED: isolation failed: mapped, accounted.
 * @TLBP_HINT_MIGRATED: migrated: accounted on the target.
 * @TLBP_HINT_MIGRATE_FAILED: migration failed: mapped, accounted.
 * @TLBP_HINT_MIGRATE_FAILED_PTE_CHANGED: failed, and the PTE changed
 *	meanwhile: nothing touched.
 */
enum tlbp_hint_path {
	TLBP_HINT_PTE_CHANGED = 0,
	TLBP_HINT_NO_FOLIO,
	TLBP_HINT_NO_TARGET,
	TLBP_HINT_PREPARE_FAILED,
	TLBP_HINT_MIGRATED,
	TLBP_HINT_MIGRATE_FAILED,
	TLBP_HINT_MIGRATE_FAILED_PTE_CHANGED,
};

/**
 * struct tlbp_hint_folio - The folio found at the faulting PTE.
 * @nid: node the folio is on.
 * @nr_pages: pages in the folio.
 */
struct tlbp_hint_folio {
	int nid;
	unsigned int nr_pages;
};

/**
 * struct tlbp_hint_fault_ops - Mechanism of a hint fault. New members are
 *	only ever appended.
 * @lock: Required. Take the PTE lock (PTL).
 * @unlock: Required. Release the PTL.
 * @pte_unchanged: Required, PTL held. Is the PTE still the one that faulted?
 * @find_folio: Required, PTL held. Find the folio; false if there is no
 *	normal folio (zero page, zone-device, special mapping).
 * @target_node: Required, PTL held. The node to migrate to or
 *	%TLBP_NUMA_NO_NODE; may set TLBP_TNF_NO_GROUP / TLBP_TNF_SHARED in
 *	@flags.
 * @prepare: Required, PTL held. Isolate the folio for migration; 0 or a
 *	negative errno.
 * @migrate: Required, PTL released, may sleep. Migrate; 0 or a negative
 *	errno (the folio stays where it was).
 * @map: Required, PTL held. Make the PTE accessible again. Only widens
 *	permissions, so it needs no TLB flush.
 * @account: Required, any context. Account the fault (task_numa_fault).
 *
 * The handler calls ``lock`` on entry and always leaves the PTL released.
 * Ops marked "PTL held" run between ``lock`` and ``unlock``. None may sleep
 * except ``migrate``, which runs with the PTL released.
 */
struct tlbp_hint_fault_ops {
	void (*lock)(void *ctx);
	void (*unlock)(void *ctx);
	bool (*pte_unchanged)(void *ctx);
	bool (*find_folio)(void *ctx, struct tlbp_hint_folio *folio);
	int (*target_node)(void *ctx, const struct tlbp_hint_folio *folio,
			   unsigned int *flags);
	int (*prepare)(void *ctx, const struct tlbp_hint_folio *folio, int target);
	int (*migrate)(void *ctx, const struct tlbp_hint_folio *folio, int target);
	void (*map)(void *ctx);
	void (*account)(void *ctx, int nid, unsigned int nr_pages,
			unsigned int flags);
};

/**
 * struct tlbp_hint_result - What one fault did.
 * @path: the path taken.
 * @flags: TLBP_TNF_* flags accounted (or that would be).
 * @nid: node accounted, or %TLBP_NUMA_NO_NODE.
 * @mapped: the PTE was made accessible.
 * @accounted: the account op ran.
 * @mapped_before_migrate: The PTE was accessible while the migration
 *	unmapped it, so the unmap needed a real flush (eager map on the
 *	migrate paths).
 */
struct tlbp_hint_result {
	enum tlbp_hint_path path;
	unsigned int flags;
	int nid;
	bool mapped;
	bool accounted;
	bool mapped_before_migrate;
};

/**
 * struct tlbp_hint_fault - A hint-fault handler: policy plus mechanism;
 *	caller-owned.
 *
 * Every member is private: use the tlbp_hint_fault_*() functions.
 */
struct tlbp_hint_fault {
	/* private: */
	const struct tlbp_hint_fault_ops *ops; /* from tlbp_hint_fault_init() */
	void *ctx;                             /* passed first to every op */
	enum tlbp_hint_policy policy;          /* map order */
};

/**
 * tlbp_hint_fault_init() - Initialise a handler.
 * @hf: the handler.
 * @policy: the order of map and migrate.
 * @ops: the mechanism; every op is required.
 * @ctx: passed first to every op.
 *
 * Context: any.
 * Return: 0; -EINVAL if a pointer is NULL, a required op is missing or
 * @policy is unknown (@hf untouched).
 */
TLBP_API int tlbp_hint_fault_init(struct tlbp_hint_fault *hf,
				  enum tlbp_hint_policy policy,
				  const struct tlbp_hint_fault_ops *ops,
				  void *ctx);

/**
 * tlbp_hint_fault_handle() - Handle one hint fault: lock, decide, map and/or
 *	migrate, account.
 * @hf: the handler.
 * @res: what happened.
 *
 * Context: process context, PTL not held on entry or return; may sleep in
 * ``migrate``.
 * Return: 0 (every path, including failed migrations, is a handled fault);
 * -EINVAL if a pointer is NULL (no op is called).
 */
TLBP_API int tlbp_hint_fault_handle(struct tlbp_hint_fault *hf,
				    struct tlbp_hint_result *res);

/**
 * tlbp_hint_path_name() - A short name for a path.
 * @path: the path.
 *
 * Return: "migrated", "no-target", ...; NULL out of range.
 */
TLBP_API const char *tlbp_hint_path_name(enum tlbp_hint_path path);

TLBP_END_DECLS

#endif /* TLBPOLICY_HINT_FAULT_H */
