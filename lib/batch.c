// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The unmap/flush batch.
 *
 * Invariant: flush_required stays true from the first queued accessible
 * entry until ops->flush has returned success for a request covering it.
 * Every early return below either happens before any state changes (bad
 * input) or leaves flush_required set (op failure).
 */
#include <tlbpolicy/batch.h>
#include <tlbpolicy/arch.h>
#include <tlbpolicy/fastpath.h>
#include "flush_req.h"

int tlbp_batch_config_default(struct tlbp_batch_config *cfg,
			      unsigned int nr_cpus)
{
	return tlbp_batch_config_arch(cfg, TLBP_ARCH_X86, nr_cpus);
}

size_t tlbp_batch_cpus_size(unsigned int nr_cpus)
{
	return tlbp_cpuset_size(nr_cpus);
}

static void batch_reset(struct tlbp_batch *b)
{
	tlbp_cpuset_zero(&b->cpus);
	b->mm = NULL;
	b->start = TLBP_FLUSH_ALL;
	b->end = 0;
	b->flush_required = false;
	b->writable = false;
	b->multi_mm = false;
	b->add_failed = false;
}

static int check_config(const struct tlbp_batch_config *cfg)
{
	if (!cfg || cfg->nr_cpus == 0)
		return -TLBP_EINVAL;
	if (!page_shift_ok(cfg->page_shift))
		return -TLBP_EINVAL;
	if (cfg->defer != TLBP_DEFER_IF_REMOTE && cfg->defer != TLBP_DEFER_ALWAYS)
		return -TLBP_EINVAL;
	if (cfg->nr_cpus > TLBP_CPUSET_MAX_CPUS)
		return -TLBP_E2BIG;
	return 0;
}

int tlbp_batch_init(struct tlbp_batch *b, const struct tlbp_batch_config *cfg,
		    const struct tlbp_flush_ops *ops, void *ctx,
		    unsigned long *cpus_buf, size_t cpus_len)
{
	struct tlbp_cpuset cpus;
	int err;

	if (!b || !ops || !ops->flush || !ops->flush_mm)
		return -TLBP_EINVAL;
	err = check_config(cfg);
	if (err)
		return err;
	err = tlbp_cpuset_init(&cpus, cpus_buf, cpus_len, cfg->nr_cpus);
	if (err)
		return err;

	b->ops = ops;
	b->ctx = ctx;
	b->cpus = cpus;
	b->flush_ceiling = cfg->flush_ceiling;
	b->range_ceiling = cfg->range_ceiling;
	b->page_shift = cfg->page_shift;
	b->defer = cfg->defer;
	batch_reset(b);
	return 0;
}

int tlbp_batch_should_defer(const struct tlbp_batch *b,
			    const struct tlbp_cpuset *mm_cpus,
			    unsigned int this_cpu, bool requested,
			    struct tlbp_defer_decision *out)
{
	enum tlbp_defer_reason reason;

	if (!b || !mm_cpus || !out || this_cpu >= b->cpus.nr_cpus ||
	    mm_cpus->nr_cpus > b->cpus.nr_cpus)
		return -TLBP_EINVAL;

	if (!requested)
		reason = TLBP_DEFER_NOT_REQUESTED;
	else if (b->defer == TLBP_DEFER_ALWAYS)
		reason = TLBP_DEFER_POLICY_ALWAYS;
	else if (tlbp_cpuset_any_but_fast(mm_cpus, this_cpu))
		reason = TLBP_DEFER_MM_REMOTE;
	else
		reason = TLBP_DEFER_MM_LOCAL;

	out->reason = reason;
	out->defer = reason == TLBP_DEFER_MM_REMOTE ||
		     reason == TLBP_DEFER_POLICY_ALWAYS;
	return 0;
}

bool tlbp_pte_accessible(const struct tlbp_mm *mm, unsigned int pte_flags)
{
	/*
	 * A PROT_NONE PTE is not hardware-present, but while a page-table
	 * change on this mm still owes its flush, a CPU may hold the previous
	 * present translation.
	 */
	if (!mm)
		return pte_flags & TLBP_PTE_PRESENT;
	return tlbp_pte_accessible_fast(mm, pte_flags);
}

int tlbp_batch_add_pending(struct tlbp_batch *b, struct tlbp_mm *mm,
			   const struct tlbp_cpuset *mm_cpus,
			   unsigned int pte_flags, uint64_t start,
			   uint64_t end, enum tlbp_add_reason *reason)
{
	bool queued;

	if (!b || !mm || !mm_cpus || (pte_flags & ~PTE_KNOWN_FLAGS) ||
	    mm_cpus->nr_cpus > b->cpus.nr_cpus ||
	    !page_range_ok(start, end, b->page_shift))
		return -TLBP_EINVAL;

	queued = tlbp_pte_accessible_fast(mm, pte_flags);
	if (reason)
		*reason = queued ? TLBP_ADD_QUEUED : TLBP_ADD_SKIP_INACCESSIBLE;
	return tlbp_batch_add_pending_fast(b, mm, mm_cpus, pte_flags, start, end);
}

bool tlbp_batch_flush_required(const struct tlbp_batch *b)
{
	return b && b->flush_required;
}

bool tlbp_batch_writable(const struct tlbp_batch *b)
{
	return b && b->writable;
}

const struct tlbp_cpuset *tlbp_batch_cpus(const struct tlbp_batch *b)
{
	return b ? &b->cpus : NULL;
}

static enum tlbp_flush_reason flush_kind(const struct tlbp_batch *b)
{
	if (b->add_failed)
		return TLBP_FLUSH_FULL_ADD_FAILED;
	if (b->multi_mm)
		return TLBP_FLUSH_FULL_MULTI_MM;
	if (b->flush_ceiling != TLBP_FLUSH_CEILING_NONE &&
	    (b->end - b->start) >> b->page_shift > b->flush_ceiling)
		return TLBP_FLUSH_FULL_CEILING;
	return TLBP_FLUSH_RANGED;
}

static void build_request(const struct tlbp_batch *b,
			  enum tlbp_flush_reason kind,
			  struct tlbp_flush_req *req)
{
	flush_req_fill(req, &b->cpus, b->multi_mm ? NULL : b->mm,
		       kind != TLBP_FLUSH_RANGED, b->start, b->end, b->page_shift);
	/* Only called when something was queued, i.e. unmapped. */
	req->unmapped = true;
	req->writable = b->writable;
}

int tlbp_batch_flush(struct tlbp_batch *b, enum tlbp_flush_reason *reason)
{
	struct tlbp_flush_req req;
	enum tlbp_flush_reason kind;
	int err;

	if (!b)
		return -TLBP_EINVAL;
	if (!b->flush_required) {
		if (reason)
			*reason = TLBP_FLUSH_NOT_REQUIRED;
		return 0;
	}
	kind = flush_kind(b);
	build_request(b, kind, &req);
	err = b->ops->flush(b->ctx, &req);
	if (err)
		return err;
	if (reason)
		*reason = kind;
	batch_reset(b);
	return 0;
}

int tlbp_batch_flush_dirty(struct tlbp_batch *b,
			   enum tlbp_flush_reason *reason)
{
	if (!b)
		return -TLBP_EINVAL;
	if (!b->writable) {
		if (reason)
			*reason = TLBP_FLUSH_NOT_DIRTY;
		return 0;
	}
	return tlbp_batch_flush(b, reason);
}

int tlbp_internal_clear_flush(struct tlbp_mm *mm,
			      const struct tlbp_cpuset *cpus,
			      unsigned int page_shift, unsigned int ceiling,
			      unsigned int stride_shift, unsigned int pte_flags,
			      uint64_t start, uint64_t end,
			      enum tlbp_flush_reason *reason)
{
	struct tlbp_flush_req req;
	int err;

	if (!tlbp_pte_accessible(mm, pte_flags)) {
		if (reason)
			*reason = TLBP_FLUSH_NOT_REQUIRED;
		return 0;
	}
	/* flush_tlb_mm_range() counts entries of the stride, not base pages. */
	flush_req_fill(&req, cpus, mm, (end - start) >> stride_shift > ceiling,
		       start, end, page_shift);
	req.unmapped = true;
	req.writable = (pte_flags & TLBP_PTE_DIRTY) != 0;
	err = mm->ops->flush(mm->ctx, &req);
	if (err)
		return err;
	if (reason)
		*reason = req.full ? TLBP_FLUSH_FULL_CEILING : TLBP_FLUSH_RANGED;
	return 0;
}

int tlbp_clear_flush(struct tlbp_mm *mm, const struct tlbp_cpuset *cpus,
		     const struct tlbp_batch_config *cfg, unsigned int pte_flags,
		     uint64_t start, uint64_t end, enum tlbp_flush_reason *reason)
{
	if (!mm || !cpus || !cfg || (pte_flags & ~PTE_KNOWN_FLAGS) ||
	    !page_shift_ok(cfg->page_shift) ||
	    !page_range_ok(start, end, cfg->page_shift))
		return -TLBP_EINVAL;
	return tlbp_internal_clear_flush(mm, cpus, cfg->page_shift,
					 cfg->range_ceiling, cfg->page_shift,
					 pte_flags, start, end, reason);
}

const char *tlbp_flush_reason_name(enum tlbp_flush_reason reason)
{
	switch (reason) {
	case TLBP_FLUSH_NOT_REQUIRED:
		return "not-required";
	case TLBP_FLUSH_NOT_DIRTY:
		return "not-dirty";
	case TLBP_FLUSH_RANGED:
		return "ranged";
	case TLBP_FLUSH_FULL_CEILING:
		return "full-ceiling";
	case TLBP_FLUSH_FULL_MULTI_MM:
		return "full-multi-mm";
	case TLBP_FLUSH_FULL_ADD_FAILED:
		return "full-add-failed";
	case TLBP_FLUSH_FULL_NESTED:
		return "full-nested";
	}
	return "unknown";
}
