/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/**
 * DOC: The flush mechanism the library drives: a const ops table + ctx
 *
 * The library decides *whether*, *when* and *how much* to flush; the ops
 * carry it out. One table describes one back-end and is shared by the batch
 * (tlbp_batch) and the mm flush state (tlbp_mm). Three back-end shapes fit:
 *
 * - **IPI to a CPU set** (x86, riscv): ``add_pending`` is NULL or only bumps a
 *   TLB generation; ``flush`` interrupts the CPUs in tlbp_flush_req::cpus.
 * - **Issue at add, complete at flush** (arm64 TLBI without DSB):
 *   ``add_pending`` issues the broadcast invalidation, ``flush`` waits for
 *   completion. If ``add_pending`` fails, the batch asks ``flush`` for a full
 *   flush instead (tlbp_flush_req::full), because completing invalidations
 *   that were never issued covers nothing.
 * - **Broadcast with an "unmapped" flag** (AMD INVLPGB with global ASIDs):
 *   the CPU set does not say who caches the mm, so ``flush`` broadcasts when
 *   tlbp_flush_req::unmapped is set, whatever the set holds.
 *
 * ``flush_mm`` is how a task that did not queue the entries drains them
 * (flush_tlb_batched_pending): it must invalidate the whole mm on every CPU,
 * because an issuer-local completion (a DSB) does not cover invalidations
 * another agent issued.
 */
#ifndef TLBPOLICY_FLUSH_OPS_H
#define TLBPOLICY_FLUSH_OPS_H

#include <tlbpolicy/platform.h>
#include <tlbpolicy/cpuset.h>

TLBP_BEGIN_DECLS

struct tlbp_mm;

/**
 * define TLBP_FLUSH_ALL - A flush request's end for the whole address space.
 *
 * The tlbp_flush_req::end value meaning "the whole address space".
 */
#define TLBP_FLUSH_ALL (~(uint64_t)0)

/**
 * struct tlbp_flush_req - One flush the library asks the mechanism to perform.
 * @cpus: CPUs that may hold a stale entry (never NULL; may be empty).
 * @mm: The only mm flushed, or NULL when entries of several mms are owed.
 * @start: First byte to flush; 0 when @full.
 * @end: End of the range (exclusive); %TLBP_FLUSH_ALL when @full.
 * @nr_pages: Pages of the range; 0 when @full.
 * @full: Flush every entry of the CPUs (or of @mm when it is set).
 * @unmapped: At least one accessible entry was cleared since the last flush.
 * @writable: At least one of the cleared entries was dirty.
 */
struct tlbp_flush_req {
	const struct tlbp_cpuset *cpus;
	struct tlbp_mm *mm;
	uint64_t start;
	uint64_t end;
	uint64_t nr_pages;
	bool full;
	bool unmapped;
	bool writable;
};

/**
 * struct tlbp_flush_ops - Mechanism of one back-end. New members are only ever
 *	appended.
 * @flush: Required. Perform @req and return only once no CPU can use an
 *	entry it covers. The caller holds whatever lock protects the batch
 *	(a task-private batch needs none). Returns 0 or a negative errno;
 *	on error the library keeps the flush owed.
 * @flush_mm: Required. Invalidate every entry of @mm on every CPU that may
 *	cache it, and return once that is complete. Called with the mm's
 *	page-table lock held by tlbp_mm_flush_batched_pending(). Returns 0
 *	or a negative errno; on error the mm stays "flush outstanding".
 * @add_pending: Optional (NULL: nothing to do at add time). Called once for
 *	each entry the batch queued, after the batch recorded it, with the
 *	range [@start, @end) of @mm. An issue-at-add back-end starts the
 *	invalidation here; an IPI back-end may bump its TLB generation or
 *	notify secondary TLBs. Same context as ``flush``. Returns 0 or a
 *	negative errno; on error the batch escalates its flush to full.
 *
 * Every callback takes the ``ctx`` given at init first. Callbacks run in the
 * caller's context: they may sleep only if every caller of the library
 * function that invokes them may sleep (the kernel's rmap callers hold the
 * PTL, so kernel implementations must not sleep). Errors are returned as
 * negative errno values and are passed back to the caller unchanged.
 */
struct tlbp_flush_ops {
	int (*flush)(void *ctx, const struct tlbp_flush_req *req);
	int (*flush_mm)(void *ctx, struct tlbp_mm *mm);
	int (*add_pending)(void *ctx, struct tlbp_mm *mm, uint64_t start,
			   uint64_t end);
};

TLBP_END_DECLS

#endif /* TLBPOLICY_FLUSH_OPS_H */
