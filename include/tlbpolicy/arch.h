/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/**
 * DOC: Named per-architecture batch profiles
 *
 * When to defer and how much to flush, as each architecture's Linux 6.12
 * code does it::
 *
 *     | profile | defer (arch_tlbbatch_should_defer) | batch flush (arch_tlbbatch_flush) | immediate ranged flush |
 *     |---|---|---|---|
 *     | x86   | only if the mm may be live on another CPU | always full (flush_tlb_multi() with TLB_FLUSH_ALL) | up to 33 pages (tlb_single_page_flush_ceiling) |
 *     | arm64 | always | completes the TLBIs issued at add time (DSB); never widened by span | up to 511 pages (MAX_DVM_OPS without FEAT_TLBIRANGE) |
 *     | riscv | always | always full (__flush_tlb_range() to FLUSH_TLB_MAX_SIZE) | up to 64 pages (tlb_flush_all_threshold) |
 */
#ifndef TLBPOLICY_ARCH_H
#define TLBPOLICY_ARCH_H

#include <tlbpolicy/platform.h>
#include <tlbpolicy/batch.h>

TLBP_BEGIN_DECLS

/**
 * enum tlbp_arch - An architecture whose flush shape a profile mirrors.
 * @TLBP_ARCH_X86: x86-64 IPIs (arch/x86/mm/tlb.c).
 * @TLBP_ARCH_ARM64: arm64 broadcast TLBI (arch/arm64/include/asm/tlbflush.h).
 * @TLBP_ARCH_RISCV: riscv IPIs or SBI (arch/riscv/mm/tlbflush.c).
 * @TLBP_ARCH_NR: number of profiles.
 */
enum tlbp_arch {
	TLBP_ARCH_X86 = 0,
	TLBP_ARCH_ARM64,
	TLBP_ARCH_RISCV,
	TLBP_ARCH_NR,
};

/**
 * tlbp_batch_config_arch() - Fill @cfg with the profile of @arch for
 *	@nr_cpus CPUs.
 * @cfg: the configuration to fill.
 * @arch: the profile.
 * @nr_cpus: CPUs the batch covers.
 *
 * Sets the defer policy, the batch's flush ceiling, the immediate flush's
 * ceiling and 4 KiB pages. @nr_cpus is stored as given; tlbp_batch_init()
 * checks it.
 *
 * Context: any.
 * Return: 0; -EINVAL if @cfg is NULL or @arch is unknown (@cfg
 * untouched).
 */
TLBP_API int tlbp_batch_config_arch(struct tlbp_batch_config *cfg,
				    enum tlbp_arch arch, unsigned int nr_cpus);

/**
 * tlbp_arch_name() - The profile's name.
 * @arch: the profile.
 *
 * Return: "x86", "arm64" or "riscv"; NULL for a value out of range.
 */
TLBP_API const char *tlbp_arch_name(enum tlbp_arch arch);

/**
 * tlbp_arch_from_name() - Look a profile up by its name (as tlbp_arch_name()
 *	spells it).
 * @name: the name, NUL-terminated.
 * @out: the profile.
 *
 * Return: 0; -EINVAL if a pointer is NULL; -ENOENT if no profile has that
 * name (@out untouched).
 */
TLBP_API int tlbp_arch_from_name(const char *name, enum tlbp_arch *out);

TLBP_END_DECLS

#endif /* TLBPOLICY_ARCH_H */
