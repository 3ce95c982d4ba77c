/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/**
 * @file batch.h
 * @brief The unmap/flush batch: flushes deferred by one task while it
 *        clears PTEs (the kernel's tlbflush_unmap_batch).
 *
 * Protocol, per PTE the caller clears:
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

/** A ceiling no span reaches: the flush is never widened to full by its
 *  size (arm64, whose batch only completes TLBIs already issued). */
#define TLBP_FLUSH_CEILING_NONE 0xffffffffU
/** 4 KiB base pages. */
#define TLBP_BATCH_DEFAULT_PAGE_SHIFT 12U

/** @name Old-PTE state passed to tlbp_batch_add_pending()
 * @{ */
#define TLBP_PTE_PRESENT  (1U << 0) /**< hardware-present: any CPU may cache it */
#define TLBP_PTE_PROTNONE (1U << 1) /**< PROT_NONE / NUMA hinting, not present */
#define TLBP_PTE_DIRTY    (1U << 2) /**< dirty: a CPU may still write through it */
/** @} */

/**
 * @brief When a batch is worth it (arch_tlbbatch_should_defer).
 */
enum tlbp_defer_policy {
	/** x86: only when the mm may be live on another CPU; a local
	 *  flush is cheap and there is nothing to batch otherwise. */
	TLBP_DEFER_IF_REMOTE = 0,
	/** arm64, riscv: always; the back-end does not track CPUs
	 *  precisely enough to know the mm is local. */
	TLBP_DEFER_ALWAYS,
};

/**
 * @brief Why tlbp_batch_should_defer() decided as it did.
 */
enum tlbp_defer_reason {
	TLBP_DEFER_NOT_REQUESTED = 0, /**< caller did not ask to batch */
	TLBP_DEFER_MM_LOCAL,          /**< mm live only on this CPU: flush now */
	TLBP_DEFER_MM_REMOTE,         /**< mm may be live elsewhere: batch */
	TLBP_DEFER_POLICY_ALWAYS,     /**< policy batches unconditionally */
};

/**
 * @brief What tlbp_batch_add_pending() did with the entry.
 */
enum tlbp_add_reason {
	/** queued: CPUs added, flush now owed */
	TLBP_ADD_QUEUED = 0,
	/** not queued: no CPU can cache a non-accessible PTE */
	TLBP_ADD_SKIP_INACCESSIBLE,
};

/**
 * @brief What tlbp_batch_flush() / tlbp_batch_flush_dirty() did.
 */
enum tlbp_flush_reason {
	TLBP_FLUSH_NOT_REQUIRED = 0, /**< nothing queued since the last flush */
	TLBP_FLUSH_NOT_DIRTY,        /**< flush_dirty: nothing dirty was queued */
	TLBP_FLUSH_RANGED,           /**< one mm, range within the ceiling */
	TLBP_FLUSH_FULL_CEILING,     /**< range above the ceiling */
	TLBP_FLUSH_FULL_MULTI_MM,    /**< entries of more than one mm */
	TLBP_FLUSH_FULL_ADD_FAILED,  /**< an add_pending op failed earlier */
	TLBP_FLUSH_FULL_NESTED,      /**< gather: another gather is in flight */
};

/**
 * @brief Tunables of a batch; fill with tlbp_batch_config_arch() (arch.h)
 *        or tlbp_batch_config_default().
 */
struct tlbp_batch_config {
	/** CPUs the pending set covers (1 .. #TLBP_CPUSET_MAX_CPUS). */
	unsigned int nr_cpus;
	/** The batch's flush (arch_tlbbatch_flush) is ranged when its range
	 *  spans at most this many pages, full above; 0 always flushes in
	 *  full (x86, riscv), #TLBP_FLUSH_CEILING_NONE never widens (arm64). */
	unsigned int flush_ceiling;
	/** log2 of the base page size, 12 .. 21. */
	unsigned int page_shift;
	/** When to batch. */
	enum tlbp_defer_policy defer;
	/** An immediate flush (tlbp_clear_flush(), a per-PTE split) is ranged
	 *  when it spans at most this many entries, full above
	 *  (flush_tlb_mm_range()'s tlb_single_page_flush_ceiling on x86). */
	unsigned int range_ceiling;
};

/**
 * @brief Result of tlbp_batch_should_defer().
 */
struct tlbp_defer_decision {
	bool defer;                    /**< batch the flush */
	enum tlbp_defer_reason reason; /**< why */
};

/**
 * @brief A task's batch; storage belongs to the caller.
 */
struct tlbp_batch {
	const struct tlbp_flush_ops *ops; /**< @private */
	void *ctx;                        /**< @private */
	struct tlbp_cpuset cpus;          /**< @private may hold stale entries */
	struct tlbp_mm *mm;               /**< @private only mm queued, or NULL */
	uint64_t start;                   /**< @private range start */
	uint64_t end;                     /**< @private range end */
	unsigned int flush_ceiling;       /**< @private */
	unsigned int range_ceiling;       /**< @private */
	unsigned int page_shift;          /**< @private */
	enum tlbp_defer_policy defer;     /**< @private */
	bool flush_required;              /**< @private */
	bool writable;                    /**< @private */
	bool multi_mm;                    /**< @private */
	bool add_failed;                  /**< @private */
};

/**
 * @brief Fill @p cfg with the x86 profile for @p nr_cpus CPUs
 *        (tlbp_batch_config_arch() with #TLBP_ARCH_X86): defer only for a
 *        remote mm, batch flushes in full, immediate flushes ranged up to
 *        33 pages.
 * @return 0, or -EINVAL if @p cfg is NULL.
 * @note Context: any.
 */
TLBP_API int tlbp_batch_config_default(struct tlbp_batch_config *cfg,
				       unsigned int nr_cpus);

/**
 * @brief Bytes of CPU-set storage a batch over @p nr_cpus CPUs needs
 *        (0 if @p nr_cpus is 0 or above #TLBP_CPUSET_MAX_CPUS).
 */
TLBP_API size_t tlbp_batch_cpus_size(unsigned int nr_cpus);

/**
 * @brief Initialise an empty batch.
 * @param b the batch.
 * @param cfg its tunables.
 * @param ops the back-end; @c flush and @c flush_mm are required.
 * @param ctx passed first to every op.
 * @param cpus_buf storage for the pending CPU set.
 * @param cpus_len bytes in @p cpus_buf, at least
 *        tlbp_batch_cpus_size(@p cfg->nr_cpus).
 * @return 0; -EINVAL for a NULL pointer, a missing required op, 0 CPUs, an
 *         unknown defer policy or a page shift outside 12..21; -E2BIG for
 *         too many CPUs; -ENOSPC if @p cpus_len is too small. On error
 *         neither @p b nor @p cpus_buf is touched.
 * @note Context: any; does not sleep.
 */
TLBP_API int tlbp_batch_init(struct tlbp_batch *b,
			     const struct tlbp_batch_config *cfg,
			     const struct tlbp_flush_ops *ops, void *ctx,
			     unsigned long *cpus_buf, size_t cpus_len);

/**
 * @brief Should clearing a PTE of an mm defer its flush into the batch?
 *        (should_defer_flush)
 * @param b the batch (for its policy and CPU count).
 * @param mm_cpus CPUs the mm may be live on (mm_cpumask).
 * @param this_cpu the CPU the caller runs on.
 * @param requested whether the caller asked to batch (TTU_BATCH_FLUSH).
 * @param out the decision and its reason.
 * @return 0; -EINVAL if a pointer is NULL, @p this_cpu is out of range or
 *         @p mm_cpus covers more CPUs than the batch (@p out untouched).
 * @note Context: any; does not sleep. The answer is a snapshot: the mm may
 *       become live elsewhere afterwards, which is why add_pending takes
 *       the CPU set again.
 */
TLBP_API int tlbp_batch_should_defer(const struct tlbp_batch *b,
				     const struct tlbp_cpuset *mm_cpus,
				     unsigned int this_cpu, bool requested,
				     struct tlbp_defer_decision *out);

/**
 * @brief Whether a PTE in state @p pte_flags may be cached by some TLB
 *        (pte_accessible): present, or PROT_NONE while @p mm has a
 *        page-table change with a pending flush. False for a NULL @p mm
 *        unless present.
 * @note Context: hold the PTL of that PTE, as for tlbp_mm_flush_pending().
 */
TLBP_API bool tlbp_pte_accessible(const struct tlbp_mm *mm,
				  unsigned int pte_flags);

/**
 * @brief Queue the flush of a PTE the caller just cleared
 *        (set_tlb_ubc_flush_pending).
 *
 * A non-accessible old PTE is not queued. Otherwise: the mm's CPUs join the
 * pending set, a flush becomes owed, the range grows to cover
 * [@p start, @p end), a dirty PTE marks the batch writable, the mm's pending
 * generation is bumped, and finally @c ops->add_pending runs if present.
 * @param b the batch.
 * @param mm the PTE's address space (initialised with tlbp_mm_init()).
 * @param mm_cpus CPUs the mm may be live on.
 * @param pte_flags old PTE state: TLBP_PTE_* bits.
 * @param start first byte of the cleared range, page aligned.
 * @param end end of the range (exclusive), page aligned, above @p start.
 * @param reason optional; what was done.
 * @return 0; -EINVAL for a NULL pointer, unknown @p pte_flags bits, an empty
 *         or unaligned range or @p mm_cpus larger than the batch (nothing
 *         changed); or the error of @c ops->add_pending, in which case the
 *         entry *is* queued and the next flush is full.
 * @note Context: as the ops; the caller holds the PTE's PTL.
 */
TLBP_API int tlbp_batch_add_pending(struct tlbp_batch *b, struct tlbp_mm *mm,
				    const struct tlbp_cpuset *mm_cpus,
				    unsigned int pte_flags, uint64_t start,
				    uint64_t end, enum tlbp_add_reason *reason);

/**
 * @brief Whether a flush is owed (false for NULL).
 */
TLBP_API bool tlbp_batch_flush_required(const struct tlbp_batch *b);

/**
 * @brief Whether a dirty entry is queued and not yet flushed (false for NULL).
 */
TLBP_API bool tlbp_batch_writable(const struct tlbp_batch *b);

/**
 * @brief The pending CPU set (read only; NULL for NULL).
 */
TLBP_API const struct tlbp_cpuset *tlbp_batch_cpus(const struct tlbp_batch *b);

/**
 * @brief Flush everything queued (try_to_unmap_flush).
 *
 * Does nothing when no flush is owed. Otherwise calls @c ops->flush once:
 * ranged when one mm was queued, its range spans at most the ceiling and no
 * add_pending op failed; full otherwise. On success the batch is empty.
 * @param b the batch.
 * @param reason optional; what was done.
 * @return 0; -EINVAL if @p b is NULL; or the error of @c ops->flush, in which
 *         case the batch is unchanged and the flush still owed.
 * @note Context: as the ops.
 */
TLBP_API int tlbp_batch_flush(struct tlbp_batch *b,
			      enum tlbp_flush_reason *reason);

/**
 * @brief Flush only if a dirty entry was queued (try_to_unmap_flush_dirty);
 *        call before writing back a page that was unmapped dirty.
 * @return as tlbp_batch_flush(); @p reason is #TLBP_FLUSH_NOT_DIRTY when
 *         nothing dirty is queued.
 */
TLBP_API int tlbp_batch_flush_dirty(struct tlbp_batch *b,
				    enum tlbp_flush_reason *reason);

/**
 * @brief Clear-and-flush one PTE's range at once, without batching
 *        (ptep_clear_flush / flush_tlb_range after a PTE was cleared).
 *
 * Flushes only if the old PTE was accessible (tlbp_pte_accessible()):
 * ranged when the range spans at most @p cfg->range_ceiling pages, full
 * above. Does not touch the mm's batched generation: nothing is deferred.
 * @param mm the address space (its ops do the flush).
 * @param cpus CPUs the mm may be live on.
 * @param cfg page shift and range ceiling (other fields are ignored).
 * @param pte_flags old PTE state (TLBP_PTE_* bits).
 * @param start first byte, page aligned.
 * @param end end (exclusive), page aligned, above @p start.
 * @param reason optional; #TLBP_FLUSH_NOT_REQUIRED, #TLBP_FLUSH_RANGED or
 *        #TLBP_FLUSH_FULL_CEILING.
 * @return 0; -EINVAL for a NULL pointer, unknown flags, a page shift
 *         outside 12..21 or an empty or unaligned range; or the error of
 *         the flush op.
 * @note Context: as the mm's flush op; the caller holds the PTL.
 */
TLBP_API int tlbp_clear_flush(struct tlbp_mm *mm,
			      const struct tlbp_cpuset *cpus,
			      const struct tlbp_batch_config *cfg,
			      unsigned int pte_flags, uint64_t start,
			      uint64_t end, enum tlbp_flush_reason *reason);

/**
 * @brief A short name for a flush reason ("ranged", "full-ceiling", ...);
 *        "unknown" for a value out of range.
 */
TLBP_API const char *tlbp_flush_reason_name(enum tlbp_flush_reason reason);

TLBP_END_DECLS

#endif /* TLBPOLICY_BATCH_H */
