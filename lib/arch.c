// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Per-architecture batch profiles. Each row is what 6.12's code for that
 * architecture does; the header's table names the function behind each.
 */
#include <tlbpolicy/arch.h>

struct arch_profile {
	const char *name;
	enum tlbp_defer_policy defer;
	unsigned int flush_ceiling;
	unsigned int range_ceiling;
};

static const struct arch_profile profiles[TLBP_ARCH_NR] = {
	/* arch_tlbbatch_flush() flushes everything on the batch's CPUs. */
	[TLBP_ARCH_X86] = { "x86", TLBP_DEFER_IF_REMOTE, 0, 33 },
	/* The TLBIs went out at add time; the flush only waits for them. */
	[TLBP_ARCH_ARM64] = { "arm64", TLBP_DEFER_ALWAYS,
			      TLBP_FLUSH_CEILING_NONE, 511 },
	/* arch_tlbbatch_flush() asks for FLUSH_TLB_MAX_SIZE: all of it. */
	[TLBP_ARCH_RISCV] = { "riscv", TLBP_DEFER_ALWAYS, 0, 64 },
};

int tlbp_batch_config_arch(struct tlbp_batch_config *cfg, enum tlbp_arch arch,
			   unsigned int nr_cpus)
{
	const struct arch_profile *p;

	if (!cfg || (unsigned int)arch >= TLBP_ARCH_NR)
		return -TLBP_EINVAL;
	p = &profiles[arch];
	cfg->nr_cpus = nr_cpus;
	cfg->flush_ceiling = p->flush_ceiling;
	cfg->range_ceiling = p->range_ceiling;
	cfg->page_shift = TLBP_BATCH_DEFAULT_PAGE_SHIFT;
	cfg->defer = p->defer;
	return 0;
}

const char *tlbp_arch_name(enum tlbp_arch arch)
{
	return (unsigned int)arch < TLBP_ARCH_NR ? profiles[arch].name : NULL;
}

static bool name_eq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

int tlbp_arch_from_name(const char *name, enum tlbp_arch *out)
{
	unsigned int i;

	if (!name || !out)
		return -TLBP_EINVAL;
	for (i = 0; i < TLBP_ARCH_NR; i++) {
		if (name_eq(name, profiles[i].name)) {
			*out = (enum tlbp_arch)i;
			return 0;
		}
	}
	return -TLBP_ENOENT;
}
