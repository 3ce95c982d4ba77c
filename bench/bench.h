/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* What the microbenchmark cases share: the rig they run on and their table. */
#ifndef TLBPOLICY_BENCH_BENCH_H
#define TLBPOLICY_BENCH_BENCH_H

#include <stdbool.h>
#include <tlbpolicy/tlbpolicy.h>
#include "kernel_ref.h"

#define PAGE 4096ULL
#define NR_FOLIOS 64

struct rig {
	struct tlbp_batch batch;
	struct tlbp_mm mm;
	struct tlbp_cpuset mm_cpus;
	unsigned long batch_bits[TLBP_CPUSET_WORDS(TLBP_CPUSET_MAX_CPUS)];
	unsigned long mm_bits[TLBP_CPUSET_WORDS(TLBP_CPUSET_MAX_CPUS)];
	/* A batch whose add_pending op does x86's inc_mm_tlb_gen(). */
	struct tlbp_batch x86_batch;
	unsigned long x86_bits[TLBP_CPUSET_WORDS(TLBP_CPUSET_MAX_CPUS)];
	/* The kernel transcriptions' state, the mm on the same CPUs. */
	struct kref_mm kmm;
	struct kref_tlbflush_unmap_batch kubc;
	struct kref_folio folios[NR_FOLIOS];
};

struct bench_case {
	const char *name;
	void (*op)(struct rig *r, unsigned long i);
	bool per_cpu_count; /* cost depends on the CPU count */
};

/* Flush ops that do nothing: only the library's own cost is measured. */
int null_flush(void *ctx, const struct tlbp_flush_req *req);
int null_flush_mm(void *ctx, struct tlbp_mm *mm);

extern const struct bench_case vs_kernel_cases[];
extern const unsigned int vs_kernel_nr_cases;
void vs_kernel_rig_init(struct rig *r, unsigned int nr_cpus);

#endif
