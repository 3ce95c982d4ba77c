/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Internal: filling a flush request the one way every primitive does, so a
 * full flush always reads 0 .. TLBP_FLUSH_ALL with no page count.
 */
#ifndef TLBPOLICY_LIB_FLUSH_REQ_H
#define TLBPOLICY_LIB_FLUSH_REQ_H

#include <tlbpolicy/flush_ops.h>

static inline void flush_req_fill(struct tlbp_flush_req *req,
				  const struct tlbp_cpuset *cpus,
				  struct tlbp_mm *mm, bool full, uint64_t start,
				  uint64_t end, unsigned int page_shift)
{
	req->cpus = cpus;
	req->mm = mm;
	req->full = full;
	req->start = full ? 0 : start;
	req->end = full ? TLBP_FLUSH_ALL : end;
	req->nr_pages = full ? 0 : (end - start) >> page_shift;
	req->unmapped = false;
	req->writable = false;
}

#endif
