// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * split-demo: unmap PTE-mapped large folios of several orders before a
 * split, per-PTE against batched, over an IPI back-end that counts what it
 * is asked to do.
 */
#include <stdio.h>
#include <tlbpolicy/split.h>

#define NR_CPUS 32

struct machine {
	unsigned int flushes, full, ipis;
};

static int op_flush(void *ctx, const struct tlbp_flush_req *req)
{
	struct machine *m = ctx;

	m->flushes++;
	m->full += req->full;
	m->ipis += tlbp_cpuset_weight(req->cpus);
	return 0;
}

static int op_flush_mm(void *ctx, struct tlbp_mm *mm)
{
	(void)mm;
	((struct machine *)ctx)->flushes++;
	return 0;
}

static int op_clear_pte(void *ctx, unsigned int idx, unsigned int *old_pte)
{
	(void)ctx;
	(void)idx;
	*old_pte = TLBP_PTE_PRESENT;
	return 0;
}

static int op_proceed(void *ctx)
{
	(void)ctx;
	return 0;
}

static const struct tlbp_flush_ops flush_ops = {
	.flush = op_flush, .flush_mm = op_flush_mm,
};
static const struct tlbp_split_ops split_ops = {
	.clear_pte = op_clear_pte, .proceed = op_proceed,
};

int main(void)
{
	unsigned long batch_bits[TLBP_CPUSET_WORDS(NR_CPUS)];
	unsigned long mm_bits[TLBP_CPUSET_WORDS(NR_CPUS)];
	struct tlbp_batch_config cfg;
	struct tlbp_cpuset mm_cpus;
	unsigned int order, p, cpu;
	struct tlbp_mm mm;

	tlbp_batch_config_default(&cfg, NR_CPUS);
	if (tlbp_cpuset_init(&mm_cpus, mm_bits, sizeof(mm_bits), NR_CPUS))
		return 1;
	for (cpu = 0; cpu < 8; cpu++) /* the process runs on 8 CPUs */
		tlbp_cpuset_set(&mm_cpus, cpu);

	printf("%-6s %-9s %8s %8s %6s %6s\n", "order", "policy", "flushes",
	       "IPIs", "full", "pmd");
	for (order = 2; order <= 9; order++) {
		for (p = 0; p < TLBP_SPLIT_POLICY_NR; p++) {
			struct machine m = { 0 };
			struct tlbp_split_folio folio = {
				.mm = &mm, .mm_cpus = &mm_cpus,
				.addr = 0x200000ULL * 16, .order = order,
				.pmd_order = 9,
			};
			struct tlbp_split_result res;
			struct tlbp_batch batch;
			struct tlbp_split s;

			if (tlbp_batch_init(&batch, &cfg, &flush_ops, &m, batch_bits,
					    sizeof(batch_bits)) ||
			    tlbp_mm_init(&mm, &flush_ops, &m) ||
			    tlbp_split_init(&s, p, &split_ops, NULL, &batch) ||
			    tlbp_split_unmap(&s, &folio, &res)) {
				fprintf(stderr, "split-demo: failed\n");
				return 1;
			}
			printf("%-6u %-9s %8u %8u %6u %6s\n", order,
			       p == TLBP_SPLIT_FLUSH_PER_PTE ? "per-pte" : "batched",
			       res.nr_flushes, m.ipis, m.full,
			       res.split_huge_pmd ? "yes" : "no");
		}
	}
	return 0;
}
