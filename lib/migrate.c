// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The single-folio fast path for migration unmaps: which folios join the
 * batched TLB flush.
 */
#include <tlbpolicy/migrate.h>
#include <tlbpolicy/fastpath.h>

/*
 * folio_likely_mapped_shared() in 6.12 is false for any folio mapped at
 * most once and true for a folio with more mappings than pages, which for
 * a small folio is every mapcount above 1. Any other combination describes
 * no folio the kernel can hold; in between, for a large folio, the kernel
 * guesses and either value is possible.
 */
static bool shared_hint_consistent(const struct tlbp_migrate_folio *f)
{
	if (f->mapcount <= 1)
		return !f->maybe_mapped_shared;
	if (f->order < 31 && (unsigned int)f->mapcount > 1U << f->order)
		return f->maybe_mapped_shared;
	return true;
}

static bool folio_input_ok(const struct tlbp_migrate_folio *f)
{
	/* The kernel never unmaps from an empty batch. */
	return (unsigned int)f->mode <= TLBP_MIGRATE_SYNC &&
	       (unsigned int)f->reason < TLBP_MR_NR && f->mapcount >= 0 &&
	       f->nr_folios > 0 && shared_hint_consistent(f);
}

int tlbp_migrate_should_batch(enum tlbp_migrate_batch_policy policy,
			      const struct tlbp_migrate_folio *folio,
			      struct tlbp_migrate_decision *out)
{
	if (!folio || !out || (unsigned int)policy >= TLBP_MIGRATE_BATCH_POLICY_NR ||
	    !folio_input_ok(folio))
		return -TLBP_EINVAL;

	if (folio->mode != TLBP_MIGRATE_ASYNC) {
		out->batch = false;
		/*
		 * Sync modes migrate one folio at a time (migrate_pages_sync
		 * retries failures singly), so a bigger batch means the caller
		 * lost track of its mode.
		 */
		if (folio->nr_folios > 1) {
			out->why = TLBP_MB_SYNC_MULTI_FOLIO;
			return -TLBP_EINVAL;
		}
		out->why = TLBP_MB_SYNC_MODE;
		return 0;
	}
	/* The input is consistent, so the hint is the mapcount's to give. */
	out->why = tlbp_migrate_batch_why(policy, folio->mode, folio->reason,
					  folio->nr_folios, folio->order,
					  folio->mapcount);
	out->batch = out->why == TLBP_MB_ASYNC;
	return 0;
}

const char *tlbp_migrate_batch_policy_name(enum tlbp_migrate_batch_policy policy)
{
	switch (policy) {
	case TLBP_MIGRATE_BATCH_ALWAYS:
		return "always";
	case TLBP_MIGRATE_BATCH_SKIP_NUMA:
		return "skip-numa";
	case TLBP_MIGRATE_BATCH_SKIP_SINGLE:
		return "skip-single";
	case TLBP_MIGRATE_BATCH_SKIP_SINGLE_MAPCOUNT:
		return "skip-single-mapcount";
	default:
		return NULL;
	}
}
