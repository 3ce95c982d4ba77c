/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/**
 * DOC: A page-table change with one flush at its end
 *
 * The kernel's mmu_gather range tracking, as used by mprotect and the NUMA
 * scanner.
 *
 * tlbp_gather_begin() raises the mm's ``tlb_flush_pending`` before any PTE
 * changes, so that a PROT_NONE PTE counts as accessible until the flush;
 * tlbp_gather_add() widens the range for every PTE whose change needs a
 * flush; tlbp_gather_finish() flushes once and lowers the counter only
 * after the flush completed.
 *
 * How much to flush: nothing if nothing needing a flush was changed; the
 * whole mm if another gather is in flight on it (nested: that gather may
 * have cleared entries this one skipped, so this one's range is not the
 * whole story); otherwise ranged up to the ceiling, full above.
 */
#ifndef TLBPOLICY_GATHER_H
#define TLBPOLICY_GATHER_H

#include <tlbpolicy/platform.h>
#include <tlbpolicy/mm.h>
#include <tlbpolicy/batch.h>

TLBP_BEGIN_DECLS

/**
 * struct tlbp_gather - One page-table change in progress; caller-owned, on the
 *	stack.
 *
 * Every member is private: use the tlbp_gather_*() functions.
 */
struct tlbp_gather {
	/* private: */
	struct tlbp_mm *mm;         /* the address space changed */
	uint64_t start;             /* range start */
	uint64_t end;               /* range end */
	unsigned int ceiling;       /* ranged flush up to this many pages */
	unsigned int page_shift;    /* log2 of the page size */
	bool active;                /* between begin and finish */
};

/**
 * tlbp_gather_begin() - Start a change on @mm: raises its
 *	``tlb_flush_pending``.
 * @g: the gather; its previous contents do not matter.
 * @mm: the address space (initialised; its ops do the flush).
 * @ceiling: ranged flush up to this many pages (0: always full).
 * @page_shift: log2 of the page size, 12 .. 21.
 *
 * Context: before taking the first PTL of the change.
 * Return: 0; -EINVAL for a NULL pointer or a bad page shift (nothing
 * changed).
 */
TLBP_API int tlbp_gather_begin(struct tlbp_gather *g, struct tlbp_mm *mm,
			       unsigned int ceiling, unsigned int page_shift);

/**
 * tlbp_gather_add() - Record that the PTEs of [@start, @end) changed in a way
 *	that needs a flush (pte_needs_flush: an accessible PTE lost rights).
 * @g: the gather.
 * @start: first byte of the range, page aligned.
 * @end: end of the range (exclusive), page aligned, above @start.
 *
 * Return: 0; -EINVAL for a NULL or inactive gather or an empty or unaligned
 * range (nothing changed).
 */
TLBP_API int tlbp_gather_add(struct tlbp_gather *g, uint64_t start,
			     uint64_t end);

/**
 * tlbp_gather_finish() - End the change: flush once, then lower
 *	``tlb_flush_pending``.
 * @g: the gather.
 * @cpus: CPUs the mm may be live on (the flush goes to them).
 * @reason: optional; %TLBP_FLUSH_NOT_REQUIRED, %TLBP_FLUSH_RANGED,
 *	%TLBP_FLUSH_FULL_CEILING or %TLBP_FLUSH_FULL_NESTED.
 *
 * Context: as the mm's flush op.
 * Return: 0; -EINVAL for a NULL pointer or an inactive gather; or the error
 * of the mm's ``flush`` op, in which case the gather stays active with its
 * range and the counter stays raised: call finish again.
 */
TLBP_API int tlbp_gather_finish(struct tlbp_gather *g,
				const struct tlbp_cpuset *cpus,
				enum tlbp_flush_reason *reason);

TLBP_END_DECLS

#endif /* TLBPOLICY_GATHER_H */
