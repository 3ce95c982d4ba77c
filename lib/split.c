// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The split-flush helper: unmap a PTE-mapped large folio, flush per entry
 * or once, and only then let the split go on.
 */
#include <tlbpolicy/split.h>

#define SPLIT_MAX_ORDER 20U

int tlbp_split_init(struct tlbp_split *s, enum tlbp_split_policy policy,
		    const struct tlbp_split_ops *ops, void *ctx,
		    struct tlbp_batch *batch)
{
	if (!s || !ops || !batch || !ops->clear_pte || !ops->proceed ||
	    (unsigned int)policy >= TLBP_SPLIT_POLICY_NR)
		return -TLBP_EINVAL;
	s->ops = ops;
	s->ctx = ctx;
	s->batch = batch;
	s->policy = policy;
	return 0;
}

static bool folio_ok(const struct tlbp_split *s,
		     const struct tlbp_split_folio *f)
{
	uint64_t size;

	if (!f->mm || !f->mm_cpus || f->pmd_order == 0 || f->order == 0 ||
	    f->order > SPLIT_MAX_ORDER)
		return false;
	size = (uint64_t)1 << (f->order + s->batch->page_shift);
	return !(f->addr & (size - 1));
}

/* One flush of whatever the batch owes; counts only real flushes. */
static int flush_owed(struct tlbp_split *s, struct tlbp_split_result *res)
{
	enum tlbp_flush_reason why;
	int err = tlbp_batch_flush(s->batch, &why);

	if (!err && why != TLBP_FLUSH_NOT_REQUIRED)
		res->nr_flushes++;
	return err;
}

int tlbp_split_unmap(struct tlbp_split *s, const struct tlbp_split_folio *folio,
		     struct tlbp_split_result *res)
{
	unsigned int idx, nr_entries, entry_shift, old_pte;
	bool flush_each;
	uint64_t start;
	int err = 0;

	if (!s || !folio || !res || !folio_ok(s, folio))
		return -TLBP_EINVAL;

	res->nr_cleared = 0;
	res->nr_skipped = 0;
	res->nr_flushes = 0;
	res->proceeded = false;
	res->split_huge_pmd = !folio->hugetlb && folio->order >= folio->pmd_order;
	if (folio->hugetlb)
		res->why = TLBP_SPLIT_WHY_HUGETLB;
	else if (s->policy == TLBP_SPLIT_FLUSH_PER_PTE)
		res->why = TLBP_SPLIT_WHY_PER_PTE;
	else
		res->why = TLBP_SPLIT_WHY_BATCHED;
	flush_each = res->why != TLBP_SPLIT_WHY_BATCHED;

	/* hugetlb maps the whole folio with one entry (huge_ptep_clear_flush). */
	entry_shift = s->batch->page_shift + (folio->hugetlb ? folio->order : 0);
	nr_entries = folio->hugetlb ? 1 : 1U << folio->order;

	for (idx = 0; idx < nr_entries; idx++) {
		err = s->ops->clear_pte(s->ctx, idx, &old_pte);
		if (err == -TLBP_ENOENT) {
			/* Not mapped here (partially mapped folio): skip. */
			res->nr_skipped++;
			err = 0;
			continue;
		}
		if (err)
			break;
		res->nr_cleared++;
		start = folio->addr + ((uint64_t)idx << entry_shift);
		err = tlbp_batch_add_pending(s->batch, folio->mm, folio->mm_cpus,
					     old_pte & (TLBP_PTE_PRESENT |
							TLBP_PTE_PROTNONE |
							TLBP_PTE_DIRTY),
					     start,
					     start + ((uint64_t)1 << entry_shift),
					     NULL);
		/*
		 * A failed add_pending still queued the entry: flush anyway. If
		 * that flush fails too, its error wins, as below: the caller
		 * must know a flush is still owed before anything else.
		 */
		if (flush_each || err) {
			int ferr = flush_owed(s, res);

			if (ferr)
				return ferr;
			if (err)
				return err;
		}
	}
	if (err) {
		/* Cleared entries must be flushed even though we stop here. */
		int ferr = flush_owed(s, res);

		return ferr ? ferr : err;
	}
	err = flush_owed(s, res);
	if (err)
		return err;
	res->proceeded = true;
	return s->ops->proceed(s->ctx);
}
