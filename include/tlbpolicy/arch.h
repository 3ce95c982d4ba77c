/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/**
 * @file arch.h
 * @brief Named per-architecture batch profiles: when to defer and how much
 *        to flush, as each architecture's Linux 6.12 code does it.
 *
 * | profile | defer (arch_tlbbatch_should_defer) | batch flush (arch_tlbbatch_flush) | immediate ranged flush |
 * |---|---|---|---|
 * | x86   | only if the mm may be live on another CPU | always full (flush_tlb_multi() with TLB_FLUSH_ALL) | up to 33 pages (tlb_single_page_flush_ceiling) |
 * | arm64 | always | completes the TLBIs issued at add time (DSB); never widened by span | up to 511 pages (MAX_DVM_OPS without FEAT_TLBIRANGE) |
 * | riscv | always | always full (__flush_tlb_range() to FLUSH_TLB_MAX_SIZE) | up to 64 pages (tlb_flush_all_threshold) |
 */
#ifndef TLBPOLICY_ARCH_H
#define TLBPOLICY_ARCH_H

#include <tlbpolicy/platform.h>
#include <tlbpolicy/batch.h>

TLBP_BEGIN_DECLS

/** An architecture whose flush shape a profile mirrors. */
enum tlbp_arch {
	TLBP_ARCH_X86 = 0, /**< x86-64 IPIs (arch/x86/mm/tlb.c) */
	TLBP_ARCH_ARM64,   /**< arm64 broadcast TLBI (arch/arm64/include/asm/tlbflush.h) */
	TLBP_ARCH_RISCV,   /**< riscv IPIs or SBI (arch/riscv/mm/tlbflush.c) */
	TLBP_ARCH_NR,      /**< number of profiles */
};

/**
 * @brief Fill @p cfg with the profile of @p arch for @p nr_cpus CPUs.
 *
 * Sets the defer policy, the batch's flush ceiling, the immediate flush's
 * ceiling and 4 KiB pages. @p nr_cpus is stored as given; tlbp_batch_init()
 * checks it.
 * @param cfg the configuration to fill.
 * @param arch the profile.
 * @param nr_cpus CPUs the batch covers.
 * @return 0; -EINVAL if @p cfg is NULL or @p arch is unknown (@p cfg
 *         untouched).
 * @note Context: any.
 */
TLBP_API int tlbp_batch_config_arch(struct tlbp_batch_config *cfg,
				    enum tlbp_arch arch, unsigned int nr_cpus);

/**
 * @brief The profile's name: "x86", "arm64" or "riscv"; NULL for a value
 *        out of range.
 */
TLBP_API const char *tlbp_arch_name(enum tlbp_arch arch);

/**
 * @brief Look a profile up by its name (as tlbp_arch_name() spells it).
 * @param name the name, NUL-terminated.
 * @param out the profile.
 * @return 0; -EINVAL if a pointer is NULL; -ENOENT if no profile has that
 *         name (@p out untouched).
 */
TLBP_API int tlbp_arch_from_name(const char *name, enum tlbp_arch *out);

TLBP_END_DECLS

#endif /* TLBPOLICY_ARCH_H */
