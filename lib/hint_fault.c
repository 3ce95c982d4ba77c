// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The NUMA hint-fault handler: when to make a PROT_NONE PTE accessible
 * relative to the migration decision.
 *
 * Every path leaves the PTL released. Every path that does not migrate the
 * folio leaves the PTE mapped, except the two where the PTE is no longer
 * ours to touch (changed before we locked, or changed while we migrated).
 */
#include <tlbpolicy/hint_fault.h>

int tlbp_hint_fault_init(struct tlbp_hint_fault *hf,
			 enum tlbp_hint_policy policy,
			 const struct tlbp_hint_fault_ops *ops, void *ctx)
{
	if (!hf || !ops || (unsigned int)policy >= TLBP_HINT_POLICY_NR)
		return -TLBP_EINVAL;
	if (!ops->lock || !ops->unlock || !ops->pte_unchanged ||
	    !ops->find_folio || !ops->target_node || !ops->prepare ||
	    !ops->migrate || !ops->map || !ops->account)
		return -TLBP_EINVAL;
	hf->ops = ops;
	hf->ctx = ctx;
	hf->policy = policy;
	return 0;
}

static void map_pte(struct tlbp_hint_fault *hf, struct tlbp_hint_result *res)
{
	hf->ops->map(hf->ctx);
	res->mapped = true;
}

/* Leave through the common exit: map if still owed, unlock, account. */
static int finish(struct tlbp_hint_fault *hf, struct tlbp_hint_result *res,
		  enum tlbp_hint_path path, unsigned int nr_pages)
{
	if (!res->mapped)
		map_pte(hf, res);
	hf->ops->unlock(hf->ctx);
	res->path = path;
	if (res->nid != TLBP_NUMA_NO_NODE) {
		hf->ops->account(hf->ctx, res->nid, nr_pages, res->flags);
		res->accounted = true;
	}
	return 0;
}

int tlbp_hint_fault_handle(struct tlbp_hint_fault *hf,
			   struct tlbp_hint_result *res)
{
	const struct tlbp_hint_fault_ops *ops;
	struct tlbp_hint_folio folio;
	int target;

	if (!hf || !res)
		return -TLBP_EINVAL;
	ops = hf->ops;
	res->flags = 0;
	res->nid = TLBP_NUMA_NO_NODE;
	res->mapped = false;
	res->accounted = false;
	res->mapped_before_migrate = false;

	ops->lock(hf->ctx);
	if (!ops->pte_unchanged(hf->ctx)) {
		/* Another thread already handled this fault. */
		ops->unlock(hf->ctx);
		res->path = TLBP_HINT_PTE_CHANGED;
		return 0;
	}
	if (hf->policy == TLBP_HINT_EAGER_MAP)
		map_pte(hf, res);

	if (!ops->find_folio(hf->ctx, &folio))
		return finish(hf, res, TLBP_HINT_NO_FOLIO, 0);
	res->nid = folio.nid;

	target = ops->target_node(hf->ctx, &folio, &res->flags);
	if (target == TLBP_NUMA_NO_NODE)
		return finish(hf, res, TLBP_HINT_NO_TARGET, folio.nr_pages);

	if (ops->prepare(hf->ctx, &folio, target)) {
		res->flags |= TLBP_TNF_MIGRATE_FAIL;
		return finish(hf, res, TLBP_HINT_PREPARE_FAILED, folio.nr_pages);
	}
	ops->unlock(hf->ctx);

	res->mapped_before_migrate = res->mapped;
	if (!ops->migrate(hf->ctx, &folio, target)) {
		res->flags |= TLBP_TNF_MIGRATED;
		res->nid = target;
		res->path = TLBP_HINT_MIGRATED;
		ops->account(hf->ctx, target, folio.nr_pages, res->flags);
		res->accounted = true;
		return 0;
	}
	res->flags |= TLBP_TNF_MIGRATE_FAIL;

	if (res->mapped) {
		/* Eager map: the PTE has been accessible all along. */
		res->path = TLBP_HINT_MIGRATE_FAILED;
		ops->account(hf->ctx, res->nid, folio.nr_pages, res->flags);
		res->accounted = true;
		return 0;
	}
	ops->lock(hf->ctx);
	if (!ops->pte_unchanged(hf->ctx)) {
		/*
		 * Changed while unlocked (e.g. munmap, or another fault):
		 * restoring our stale value would overwrite it, and the fault
		 * is not ours to account.
		 */
		ops->unlock(hf->ctx);
		res->nid = TLBP_NUMA_NO_NODE;
		res->path = TLBP_HINT_MIGRATE_FAILED_PTE_CHANGED;
		return 0;
	}
	return finish(hf, res, TLBP_HINT_MIGRATE_FAILED, folio.nr_pages);
}

const char *tlbp_hint_path_name(enum tlbp_hint_path path)
{
	static const char *const names[] = {
		[TLBP_HINT_PTE_CHANGED] = "pte-changed",
		[TLBP_HINT_NO_FOLIO] = "no-folio",
		[TLBP_HINT_NO_TARGET] = "no-target",
		[TLBP_HINT_PREPARE_FAILED] = "prepare-failed",
		[TLBP_HINT_MIGRATED] = "migrated",
		[TLBP_HINT_MIGRATE_FAILED] = "migrate-failed",
		[TLBP_HINT_MIGRATE_FAILED_PTE_CHANGED] = "migrate-failed-pte-changed",
	};

	if ((unsigned int)path >= sizeof(names) / sizeof(names[0]))
		return NULL;
	return names[path];
}
