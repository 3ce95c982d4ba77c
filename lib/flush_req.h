/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Internal: the checks and the request every flushing primitive shares, so
 * the batch, the unbatched clear-flush and the gather agree on what a valid
 * range is and on what a full flush looks like.
 */
#ifndef TLBPOLICY_LIB_FLUSH_REQ_H
#define TLBPOLICY_LIB_FLUSH_REQ_H

#include <tlbpolicy/batch.h>

/* Base pages from 4 KiB to 2 MiB. */
static inline bool page_shift_ok(unsigned int page_shift)
{
	return page_shift >= 12 && page_shift <= 21;
}

/* A non-empty range on page boundaries. */
static inline bool page_range_ok(uint64_t start, uint64_t end,
				 unsigned int page_shift)
{
	uint64_t mask = ((uint64_t)1 << page_shift) - 1;

	return start < end && !(start & mask) && !(end & mask);
}

/* Fills @req; a full flush always reads 0 .. TLBP_FLUSH_ALL, no page count. */
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

/* The old-PTE bits the library understands. */
#define PTE_KNOWN_FLAGS (TLBP_PTE_PRESENT | TLBP_PTE_PROTNONE | TLBP_PTE_DIRTY)

/*
 * Clear-and-flush of one entry spanning [start, end) with its arguments
 * already checked: flushes only an accessible entry, ranged when the range
 * holds at most @ceiling entries of 2^stride_shift bytes. Never touches the
 * mm's batched generation. Shared by tlbp_clear_flush() and the split's
 * unbatched paths.
 */
int tlbp_internal_clear_flush(struct tlbp_mm *mm,
			      const struct tlbp_cpuset *cpus,
			      unsigned int page_shift, unsigned int ceiling,
			      unsigned int stride_shift, unsigned int pte_flags,
			      uint64_t start, uint64_t end,
			      enum tlbp_flush_reason *reason);

#endif
