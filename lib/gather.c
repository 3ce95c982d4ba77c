// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Range tracking and the single flush of a page-table change (mmu_gather).
 */
#include <tlbpolicy/gather.h>
#include "flush_req.h"

int tlbp_gather_begin(struct tlbp_gather *g, struct tlbp_mm *mm,
		      unsigned int ceiling, unsigned int page_shift)
{
	if (!g || !mm || !page_shift_ok(page_shift))
		return -TLBP_EINVAL;
	g->mm = mm;
	g->start = TLBP_FLUSH_ALL;
	g->end = 0;
	g->ceiling = ceiling;
	g->page_shift = page_shift;
	g->active = true;
	/* Before any PTE changes: the PTL release publishes it. */
	tlbp_mm_inc_flush_pending(mm);
	return 0;
}

int tlbp_gather_add(struct tlbp_gather *g, uint64_t start, uint64_t end)
{
	if (!g || !g->active || !page_range_ok(start, end, g->page_shift))
		return -TLBP_EINVAL;
	if (start < g->start)
		g->start = start;
	if (end > g->end)
		g->end = end;
	return 0;
}

static enum tlbp_flush_reason gather_kind(const struct tlbp_gather *g)
{
	bool cleared = g->end > g->start;

	/*
	 * Nested first: another gather may have cleared PTEs this one found
	 * already clear and skipped, so even "cleared nothing" must flush.
	 */
	if (tlbp_mm_flush_nested(g->mm))
		return TLBP_FLUSH_FULL_NESTED;
	if (!cleared)
		return TLBP_FLUSH_NOT_REQUIRED;
	if ((g->end - g->start) >> g->page_shift > g->ceiling)
		return TLBP_FLUSH_FULL_CEILING;
	return TLBP_FLUSH_RANGED;
}

int tlbp_gather_finish(struct tlbp_gather *g, const struct tlbp_cpuset *cpus,
		       enum tlbp_flush_reason *reason)
{
	struct tlbp_flush_req req;
	enum tlbp_flush_reason kind;
	int err;

	if (!g || !cpus || !g->active)
		return -TLBP_EINVAL;
	kind = gather_kind(g);
	if (kind != TLBP_FLUSH_NOT_REQUIRED) {
		flush_req_fill(&req, cpus, g->mm, kind != TLBP_FLUSH_RANGED,
			       g->start, g->end, g->page_shift);
		err = g->mm->ops->flush(g->mm->ctx, &req);
		if (err)
			return err;
	}
	if (reason)
		*reason = kind;
	/* Only now may a PROT_NONE PTE of this change count as uncached. */
	tlbp_mm_dec_flush_pending(g->mm);
	g->active = false;
	return 0;
}
