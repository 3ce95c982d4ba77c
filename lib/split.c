// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The split-flush helper: unmap a PTE-mapped large folio, flush per entry
 * or once, and only then let the split go on.
 *
 * Only the batched path may touch the mm's batched generation: per-PTE and
 * hugetlb entries, and entries the batch declines to defer, are flushed at
 * once as ptep_clear_flush() does, so that no later drain owes a flush of
 * the whole mm for them.
 */
#include <tlbpolicy/split.h>
#include "flush_req.h"

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
	    f->order > SPLIT_MAX_ORDER ||
	    f->this_cpu >= s->batch->cpus.nr_cpus ||
	    f->mm_cpus->nr_cpus > s->batch->cpus.nr_cpus)
		return false;
	size = (uint64_t)1 << (f->order + s->batch->page_shift);
	return !(f->addr & (size - 1));
}

/* One entry being unmapped. */
struct split_entry {
	uint64_t start, end;
	unsigned int stride_shift;
	unsigned int pte;   /* old state, TLBP_PTE_* bits the library knows */
};

/* One flush of whatever the batch owes; counts only completed flushes. */
static int flush_owed(struct tlbp_split *s, struct tlbp_split_result *res)
{
	enum tlbp_flush_reason why;
	int err = tlbp_batch_flush(s->batch, &why);

	if (!err && why != TLBP_FLUSH_NOT_REQUIRED)
		res->nr_flushes++;
	return err;
}

/*
 * ptep_clear_flush(): flush this entry now. If that flush fails, the entry
 * goes into the batch so the flush stays owed rather than forgotten.
 */
static int flush_now(struct tlbp_split *s, const struct tlbp_split_folio *f,
		     const struct split_entry *e, struct tlbp_split_result *res)
{
	enum tlbp_add_reason added = TLBP_ADD_SKIP_INACCESSIBLE;
	struct tlbp_batch *b = s->batch;
	enum tlbp_flush_reason why;
	int err;

	err = tlbp_internal_clear_flush(f->mm, f->mm_cpus, b->page_shift,
					b->range_ceiling, e->stride_shift,
					e->pte, e->start, e->end, &why);
	if (!err) {
		if (why != TLBP_FLUSH_NOT_REQUIRED)
			res->nr_flushes++;
		return 0;
	}
	/* An add_pending op error only escalates that flush: ours wins. */
	tlbp_batch_add_pending(b, f->mm, f->mm_cpus, e->pte, e->start, e->end,
			       &added);
	if (added == TLBP_ADD_QUEUED)
		res->nr_deferred++;
	return err;
}

/* set_tlb_ubc_flush_pending(): queue it; a failed add flushes at once. */
static int defer(struct tlbp_split *s, const struct tlbp_split_folio *f,
		 const struct split_entry *e, struct tlbp_split_result *res)
{
	enum tlbp_add_reason added = TLBP_ADD_SKIP_INACCESSIBLE;
	int err, ferr;

	err = tlbp_batch_add_pending(s->batch, f->mm, f->mm_cpus, e->pte,
				     e->start, e->end, &added);
	if (added == TLBP_ADD_QUEUED)
		res->nr_deferred++;
	if (!err)
		return 0;
	/*
	 * A failed add_pending still queued the entry: flush now. If that
	 * flush fails too, its error wins: the caller must know a flush is
	 * still owed before anything else.
	 */
	ferr = flush_owed(s, res);
	return ferr ? ferr : err;
}

static enum tlbp_split_why initial_why(const struct tlbp_split *s,
				       const struct tlbp_split_folio *f)
{
	if (f->hugetlb)
		return TLBP_SPLIT_WHY_HUGETLB;
	if (s->policy == TLBP_SPLIT_FLUSH_PER_PTE)
		return TLBP_SPLIT_WHY_PER_PTE;
	return TLBP_SPLIT_WHY_BATCHED;
}

/* Unmap one cleared entry's translation: at once, or through the batch. */
static int unmap_entry(struct tlbp_split *s, const struct tlbp_split_folio *f,
		       const struct split_entry *e,
		       struct tlbp_split_result *res)
{
	struct tlbp_defer_decision d;

	if (res->why == TLBP_SPLIT_WHY_HUGETLB ||
	    res->why == TLBP_SPLIT_WHY_PER_PTE)
		return flush_now(s, f, e, res);
	/* Checked by folio_ok(): this_cpu and mm_cpus fit the batch. */
	tlbp_batch_should_defer(s->batch, f->mm_cpus, f->this_cpu, true, &d);
	if (d.defer)
		return defer(s, f, e, res);
	res->why = TLBP_SPLIT_WHY_NOT_DEFERRED;
	return flush_now(s, f, e, res);
}

int tlbp_split_unmap(struct tlbp_split *s, const struct tlbp_split_folio *folio,
		     struct tlbp_split_result *res)
{
	unsigned int idx, nr_entries, old_pte;
	struct split_entry e;
	int err = 0, ferr;

	if (!s || !folio || !res || !folio_ok(s, folio))
		return -TLBP_EINVAL;

	*res = (struct tlbp_split_result){ 0 };
	res->split_huge_pmd = !folio->hugetlb && folio->order >= folio->pmd_order;
	res->why = initial_why(s, folio);

	/* hugetlb maps the whole folio with one entry (huge_ptep_clear_flush). */
	e.stride_shift = s->batch->page_shift + (folio->hugetlb ? folio->order : 0);
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
		e.start = folio->addr + ((uint64_t)idx << e.stride_shift);
		e.end = e.start + ((uint64_t)1 << e.stride_shift);
		e.pte = old_pte & PTE_KNOWN_FLAGS;
		err = unmap_entry(s, folio, &e, res);
		if (err)
			return err;
	}
	/* Cleared entries are flushed even when a clear stops the split. */
	ferr = flush_owed(s, res);
	if (err || ferr)
		return ferr ? ferr : err;
	res->proceeded = true;
	return s->ops->proceed(s->ctx);
}
