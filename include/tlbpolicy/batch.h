/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/**
 * DOC: The unmap/flush batch
 *
 * Flushes deferred by one task while it clears PTEs (the kernel's
 * tlbflush_unmap_batch).
 *
 * Protocol, per PTE the caller clears:
 *
 * 1. tlbp_batch_should_defer() says whether to batch at all. If not, the
 *    caller clears and flushes the PTE at once.
 * 2. Otherwise the caller clears the PTE and calls tlbp_batch_add_pending()
 *    with the old PTE's state.
 * 3. Before a dirty page's contents are written back: tlbp_batch_flush_dirty().
 *    Before any queued page is freed, reused or copied: tlbp_batch_flush().
 *
 * Invariant: once an accessible entry is queued, the batch reports a flush
 * owed until a flush op covering it has returned success. No error path,
 * neither bad input nor a failing op, clears that state.
 */
#ifndef TLBPOLICY_BATCH_H
#define TLBPOLICY_BATCH_H

#include <tlbpolicy/platform.h>
#include <tlbpolicy/cpuset.h>
#include <tlbpolicy/flush_ops.h>
#include <tlbpolicy/mm.h>

TLBP_BEGIN_DECLS

/**
 * define TLBP_FLUSH_CEILING_NONE - A ceiling no span reaches.
 *
 * The flush is never widened to full by its size (arm64, whose batch only
 * completes TLBIs already issued).
 */
#define TLBP_FLUSH_CEILING_NONE 0xffffffffU
/**
 * define TLBP_BATCH_DEFAULT_PAGE_SHIFT - 4 KiB base pages.
 */
#define TLBP_BATCH_DEFAULT_PAGE_SHIFT 12U

/*
 * Old-PTE state passed to tlbp_batch_add_pending(): TLBP_PTE_* bits.
 */
/**
 * define TLBP_PTE_PRESENT - present in hardware; any CPU may cache it.
 */
#define TLBP_PTE_PRESENT  (1U << 0)
/**
 * define TLBP_PTE_PROTNONE - PROT_NONE / NUMA hinting, not present.
 */
#define TLBP_PTE_PROTNONE (1U << 1)
/**
 * define TLBP_PTE_DIRTY - dirty; a CPU may still write through it.
 */
#define TLBP_PTE_DIRTY    (1U << 2)

/**
 * enum tlbp_defer_policy - When a batch is worth it (arch_tlbbatch_should_defer).
 * @TLBP_DEFER_IF_REMOTE: x86: only when the mm may be live on another CPU; a
 *	local flush is cheap and there is nothing to batch otherwise.
 * @TLBP_DEFER_ALWAYS: arm64, riscv: always; the back-end does not track CPUs
 *	precisely enough to know the mm is local.
 */
enum tlbp_defer_policy {
	TLBP_DEFER_IF_REMOTE = 0,
	TLBP_DEFER_ALWAYS,
};

/**
 * enum tlbp_defer_reason - Why tlbp_batch_should_defer() decided as it did.
 * @TLBP_DEFER_NOT_REQUESTED: caller did not ask to batch.
 * @TLBP_DEFER_MM_LOCAL: mm live only on this CPU: flush now.
 * @TLBP_DEFER_MM_REMOTE: mm may be live elsewhere: batch.
 * @TLBP_DEFER_POLICY_ALWAYS: policy batches unconditionally.
 */
enum tlbp_defer_reason {
	TLBP_DEFER_NOT_REQUESTED = 0,
	TLBP_DEFER_MM_LOCAL,
	TLBP_DEFER_MM_REMOTE,
	TLBP_DEFER_POLICY_ALWAYS,
};

/**
 * enum tlbp_add_reason - What tlbp_batch_add_pending() did with the entry.
 * @TLBP_ADD_QUEUED: queued: CPUs added, flush now owed.
 * @TLBP_ADD_SKIP_INACCESSIBLE: not queued: no CPU can cache a non-accessible
 *	PTE.
 */
enum tlbp_add_reason {
	TLBP_ADD_QUEUED = 0,
	TLBP_ADD_SKIP_INACCESSIBLE,
};

/**
 * enum tlbp_flush_reason - What tlbp_batch_flush() / tlbp_batch_flush_dirty()
 *	did.
 * @TLBP_FLUSH_NOT_REQUIRED: nothing queued since the last flush.
 * @TLBP_FLUSH_NOT_DIRTY: flush_dirty: nothing dirty was queued.
 * @TLBP_FLUSH_RANGED: one mm, range within the ceiling.
 * @TLBP_FLUSH_FULL_CEILING: range above the ceiling.
 * @TLBP_FLUSH_FULL_MULTI_MM: entries of more than one mm.
 * @TLBP_FLUSH_FULL_ADD_FAILED: an add_pending op failed earlier.
 * @TLBP_FLUSH_FULL_NESTED: gather: another gather is in flight.
 */
enum tlbp_flush_reason {
	TLBP_FLUSH_NOT_REQUIRED = 0,
	TLBP_FLUSH_NOT_DIRTY,
	TLBP_FLUSH_RANGED,
	TLBP_FLUSH_FULL_CEILING,
	TLBP_FLUSH_FULL_MULTI_MM,
	TLBP_FLUSH_FULL_ADD_FAILED,
	TLBP_FLUSH_FULL_NESTED,
};

/**
 * struct tlbp_batch_config - Tunables of a batch; fill with
 *	tlbp_batch_config_arch() (arch.h) or tlbp_batch_config_default().
 * @nr_cpus: CPUs the pending set covers (1 .. %TLBP_CPUSET_MAX_CPUS).
 * @flush_ceiling: The batch's flush (arch_tlbbatch_flush) is ranged when its
 *	range spans at most this many pages, full above; 0 always flushes in
 *	full (x86, riscv), %TLBP_FLUSH_CEILING_NONE never widens (arm64).
 * @page_shift: log2 of the base page size, 12 .. 21.
 * @defer: When to batch.
 * @range_ceiling: An immediate flush (tlbp_clear_flush(), a per-PTE split)
 *	is ranged when it spans at most this many entries, full above
 *	(flush_tlb_mm_range()'s tlb_single_page_flush_ceiling on x86).
 */
struct tlbp_batch_config {
	unsigned int nr_cpus;
	unsigned int flush_ceiling;
	unsigned int page_shift;
	enum tlbp_defer_policy defer;
	unsigned int range_ceiling;
};

/**
 * struct tlbp_defer_decision - Result of tlbp_batch_should_defer().
 * @defer: batch the flush.
 * @reason: why.
 */
struct tlbp_defer_decision {
	bool defer;
	enum tlbp_defer_reason reason;
};

/**
 * struct tlbp_batch - A task's batch; storage belongs to the caller.
 *
 * Every member is private: use the tlbp_batch_*() functions.
 */
struct tlbp_batch {
	/* private: */
	const struct tlbp_flush_ops *ops; /* from tlbp_batch_init() */
	void *ctx;                        /* passed first to every op */
	struct tlbp_cpuset cpus;          /* pending CPUs; may hold stale entries */
	struct tlbp_mm *mm;               /* only mm queued, or NULL */
	uint64_t start;                   /* range start */
	uint64_t end;                     /* range end */
	unsigned int flush_ceiling;       /* from the config */
	unsigned int range_ceiling;       /* from the config */
	unsigned int page_shift;          /* from the config */
	enum tlbp_defer_policy defer;     /* from the config */
	bool flush_required;              /* a flush is owed */
	bool writable;                    /* a dirty entry is queued */
	bool multi_mm;                    /* entries of more than one mm */
	bool add_failed;                  /* an add_pending op failed */
};

/**
 * tlbp_batch_config_default() - Fill @cfg with the x86 profile for @nr_cpus
 *	CPUs (tlbp_batch_config_arch() with %TLBP_ARCH_X86): defer only for a
 *	remote mm, batch flushes in full, immediate flushes ranged up to
 *	33 pages.
 * @cfg: the configuration to fill.
 * @nr_cpus: CPUs the batch covers.
 *
 * Context: any.
 * Return: 0, or -EINVAL if @cfg is NULL.
 */
TLBP_API int tlbp_batch_config_default(struct tlbp_batch_config *cfg,
				       unsigned int nr_cpus);

/**
 * tlbp_batch_cpus_size() - Bytes of CPU-set storage a batch over @nr_cpus
 *	CPUs needs.
 * @nr_cpus: CPUs the batch covers.
 *
 * Return: the size in bytes; 0 if @nr_cpus is 0 or above
 * %TLBP_CPUSET_MAX_CPUS.
 */
TLBP_API size_t tlbp_batch_cpus_size(unsigned int nr_cpus);

/**
 * tlbp_batch_init() - Initialise an empty batch.
 * @b: the batch.
 * @cfg: its tunables.
 * @ops: the back-end; ``flush`` and ``flush_mm`` are required.
 * @ctx: passed first to every op.
 * @cpus_buf: storage for the pending CPU set.
 * @cpus_len: bytes in @cpus_buf, at least
 *	tlbp_batch_cpus_size(@cfg->nr_cpus).
 *
 * Context: any; does not sleep.
 * Return: 0; -EINVAL for a NULL pointer, a missing required op, 0 CPUs, an
 * unknown defer policy or a page shift outside 12..21; -E2BIG for too many
 * CPUs; -ENOSPC if @cpus_len is too small. On error neither @b nor
 * @cpus_buf is touched.
 */
TLBP_API int tlbp_batch_init(struct tlbp_batch *b,
			     const struct tlbp_batch_config *cfg,
			     const struct tlbp_flush_ops *ops, void *ctx,
			     unsigned long *cpus_buf, size_t cpus_len);

/**
 * tlbp_batch_should_defer() - Should clearing a PTE of an mm defer its flush
 *	into the batch? (should_defer_flush)
 * @b: the batch (for its policy and CPU count).
 * @mm_cpus: CPUs the mm may be live on (mm_cpumask).
 * @this_cpu: the CPU the caller runs on.
 * @requested: whether the caller asked to batch (TTU_BATCH_FLUSH).
 * @out: the decision and its reason.
 *
 * Context: any; does not sleep. The answer is a snapshot: the mm may become
 * live elsewhere afterwards, which is why add_pending takes the CPU set
 * again.
 * Return: 0; -EINVAL if a pointer is NULL, @this_cpu is out of range or
 * @mm_cpus covers more CPUs than the batch (@out untouched).
 */
TLBP_API int tlbp_batch_should_defer(const struct tlbp_batch *b,
				     const struct tlbp_cpuset *mm_cpus,
				     unsigned int this_cpu, bool requested,
				     struct tlbp_defer_decision *out);

/**
 * tlbp_pte_accessible() - Whether a PTE in state @pte_flags may be cached by
 *	some TLB (pte_accessible).
 * @mm: the PTE's address space, or NULL.
 * @pte_flags: old PTE state: TLBP_PTE_* bits.
 *
 * Context: hold the PTL of that PTE, as for tlbp_mm_flush_pending().
 * Return: true if present, or PROT_NONE while @mm has a page-table change
 * with a pending flush. False for a NULL @mm unless present.
 */
TLBP_API bool tlbp_pte_accessible(const struct tlbp_mm *mm,
				  unsigned int pte_flags);

/**
 * tlbp_batch_add_pending() - Queue the flush of a PTE the caller just cleared
 *	(set_tlb_ubc_flush_pending).
 * @b: the batch.
 * @mm: the PTE's address space (initialised with tlbp_mm_init()).
 * @mm_cpus: CPUs the mm may be live on.
 * @pte_flags: old PTE state: TLBP_PTE_* bits.
 * @start: first byte of the cleared range, page aligned.
 * @end: end of the range (exclusive), page aligned, above @start.
 * @reason: optional; what was done.
 *
 * A non-accessible old PTE is not queued. Otherwise: the mm's CPUs join the
 * pending set, a flush becomes owed, the range grows to cover
 * [@start, @end), a dirty PTE marks the batch writable, the mm's pending
 * generation is bumped, and finally ``ops->add_pending`` runs if present.
 *
 * Context: as the ops; the caller holds the PTE's PTL.
 * Return: 0; -EINVAL for a NULL pointer, unknown @pte_flags bits, an empty
 * or unaligned range or @mm_cpus larger than the batch (nothing changed);
 * or the error of ``ops->add_pending``, in which case the entry *is* queued
 * and the next flush is full.
 */
TLBP_API int tlbp_batch_add_pending(struct tlbp_batch *b, struct tlbp_mm *mm,
				    const struct tlbp_cpuset *mm_cpus,
				    unsigned int pte_flags, uint64_t start,
				    uint64_t end, enum tlbp_add_reason *reason);

/**
 * tlbp_batch_flush_required() - Whether a flush is owed.
 * @b: the batch.
 *
 * Return: true if a flush is owed; false for NULL.
 */
TLBP_API bool tlbp_batch_flush_required(const struct tlbp_batch *b);

/**
 * tlbp_batch_writable() - Whether a dirty entry is queued and not yet flushed.
 * @b: the batch.
 *
 * Return: true if a dirty entry is queued and not yet flushed; false for
 * NULL.
 */
TLBP_API bool tlbp_batch_writable(const struct tlbp_batch *b);

/**
 * tlbp_batch_cpus() - The pending CPU set.
 * @b: the batch.
 *
 * Return: the pending CPU set (read only); NULL for NULL.
 */
TLBP_API const struct tlbp_cpuset *tlbp_batch_cpus(const struct tlbp_batch *b);

/**
 * tlbp_batch_flush() - Flush everything queued (try_to_unmap_flush).
 * @b: the batch.
 * @reason: optional; what was done.
 *
 * Does nothing when no flush is owed. Otherwise calls ``ops->flush`` once:
 * ranged when one mm was queued, its range spans at most the ceiling and no
 * add_pending op failed; full otherwise. On success the batch is empty.
 *
 * Context: as the ops.
 * Return: 0; -EINVAL if @b is NULL; or the error of ``ops->flush``, in which
 * case the batch is unchanged and the flush still owed.
 */
TLBP_API int tlbp_batch_flush(struct tlbp_batch *b,
			      enum tlbp_flush_reason *reason);

/**
 * tlbp_batch_flush_dirty() - Flush only if a dirty entry was queued
 *	(try_to_unmap_flush_dirty); call before writing back a page that was
 *	unmapped dirty.
 * @b: the batch.
 * @reason: optional; what was done: %TLBP_FLUSH_NOT_DIRTY when nothing dirty
 *	is queued.
 *
 * Context: as tlbp_batch_flush().
 * Return: as tlbp_batch_flush().
 */
TLBP_API int tlbp_batch_flush_dirty(struct tlbp_batch *b,
				    enum tlbp_flush_reason *reason);

/**
 * tlbp_clear_flush() - Clear-and-flush one PTE's range at once, without
 *	batching (ptep_clear_flush / flush_tlb_range after a PTE was cleared).
 * @mm: the address space (its ops do the flush).
 * @cpus: CPUs the mm may be live on.
 * @cfg: page shift and range ceiling (other fields are ignored).
 * @pte_flags: old PTE state (TLBP_PTE_* bits).
 * @start: first byte, page aligned.
 * @end: end (exclusive), page aligned, above @start.
 * @reason: optional; %TLBP_FLUSH_NOT_REQUIRED, %TLBP_FLUSH_RANGED or
 *	%TLBP_FLUSH_FULL_CEILING.
 *
 * Flushes only if the old PTE was accessible (tlbp_pte_accessible()):
 * ranged when the range spans at most @cfg->range_ceiling pages, full
 * above. Does not touch the mm's batched generation: nothing is deferred.
 *
 * Context: as the mm's flush op; the caller holds the PTL.
 * Return: 0; -EINVAL for a NULL pointer, unknown flags, a page shift
 * outside 12..21 or an empty or unaligned range; or the error of the flush
 * op.
 */
TLBP_API int tlbp_clear_flush(struct tlbp_mm *mm,
			      const struct tlbp_cpuset *cpus,
			      const struct tlbp_batch_config *cfg,
			      unsigned int pte_flags, uint64_t start,
			      uint64_t end, enum tlbp_flush_reason *reason);

/**
 * tlbp_flush_reason_name() - A short name for a flush reason.
 * @reason: the reason.
 *
 * Return: "ranged", "full-ceiling", ...; "unknown" for a value out of
 * range.
 */
TLBP_API const char *tlbp_flush_reason_name(enum tlbp_flush_reason reason);

TLBP_END_DECLS

#endif /* TLBPOLICY_BATCH_H */
