// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Microbenchmarks of the batch and the mm flush state at 64, 384 and 8192
 * CPUs, with a back-end whose ops do nothing, so only the library's own cost
 * is measured, and of the single-folio migration decision next to the same
 * condition open-coded. Prints ns per operation (wall clock, noisy on a
 * shared machine); bench/callgrind.sh turns the same loops into instruction
 * counts.
 *
 * Usage: bench_tlbpolicy [--ops N] [--case NAME] [--cpus N] [--list]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <tlbpolicy/tlbpolicy.h>
#include "bench.h"

#define FLUSH_EVERY 512 /* NR_MAX_BATCHED_MIGRATION-sized batches */

int null_flush(void *ctx, const struct tlbp_flush_req *req)
{
	(void)ctx;
	(void)req;
	return 0;
}

int null_flush_mm(void *ctx, struct tlbp_mm *mm)
{
	(void)ctx;
	(void)mm;
	return 0;
}

static const struct tlbp_flush_ops null_ops = {
	.flush = null_flush,
	.flush_mm = null_flush_mm,
};

static void rig_init(struct rig *r, unsigned int nr_cpus)
{
	struct tlbp_batch_config cfg;
	unsigned int cpu;

	tlbp_batch_config_default(&cfg, nr_cpus);
	if (tlbp_batch_init(&r->batch, &cfg, &null_ops, NULL, r->batch_bits,
			    sizeof(r->batch_bits)) ||
	    tlbp_mm_init(&r->mm, &null_ops, NULL) ||
	    tlbp_cpuset_init(&r->mm_cpus, r->mm_bits, sizeof(r->mm_bits), nr_cpus)) {
		fprintf(stderr, "bench: init failed\n");
		exit(1);
	}
	/* The mm is live on every CPU: the worst case for the CPU-set OR. */
	for (cpu = 0; cpu < nr_cpus; cpu++)
		tlbp_cpuset_set(&r->mm_cpus, cpu);
	vs_kernel_rig_init(r, nr_cpus);
}

/* One add_pending of a present PTE; a flush every FLUSH_EVERY adds. */
static void op_add(struct rig *r, unsigned long i)
{
	uint64_t page = i % FLUSH_EVERY;

	tlbp_batch_add_pending(&r->batch, &r->mm, &r->mm_cpus, TLBP_PTE_PRESENT,
			       page * PAGE, (page + 1) * PAGE, NULL);
	if (page == FLUSH_EVERY - 1)
		tlbp_batch_flush(&r->batch, NULL);
}

/* One add then its flush: the cost of not batching at all. */
static void op_add_flush(struct rig *r, unsigned long i)
{
	tlbp_batch_add_pending(&r->batch, &r->mm, &r->mm_cpus, TLBP_PTE_PRESENT,
			       i * PAGE, (i + 1) * PAGE, NULL);
	tlbp_batch_flush(&r->batch, NULL);
}

static void op_should_defer(struct rig *r, unsigned long i)
{
	struct tlbp_defer_decision d;

	(void)i;
	tlbp_batch_should_defer(&r->batch, &r->mm_cpus, 0, true, &d);
}

static void op_mm_mark(struct rig *r, unsigned long i)
{
	(void)i;
	tlbp_mm_mark_batched_pending(&r->mm);
}

/* A deferral and the drain that finds it outstanding. */
static void op_mm_drain(struct rig *r, unsigned long i)
{
	(void)i;
	tlbp_mm_mark_batched_pending(&r->mm);
	tlbp_mm_flush_batched_pending(&r->mm, NULL);
}

static void op_mm_drain_clean(struct rig *r, unsigned long i)
{
	(void)i;
	tlbp_mm_flush_batched_pending(&r->mm, NULL);
}

/*
 * The migration decision. Inputs vary with i and go through a volatile
 * sink so neither form can be folded away; both see the same inputs.
 */
static volatile unsigned int decision_sink;

static struct tlbp_migrate_folio folio_for(unsigned long i)
{
	unsigned int order = (unsigned int)((i >> 2) & 1) * 9;
	int mapcount = 1 + (int)((i >> 3) & 1);

	return (struct tlbp_migrate_folio){
		.mode = TLBP_MIGRATE_ASYNC,
		.reason = (enum tlbp_migrate_reason)(i % TLBP_MR_NR),
		.nr_folios = 1 + (unsigned int)(i & 1),
		.order = order,
		.mapcount = mapcount,
		/* As 6.12 computes it for these mapcounts. */
		.maybe_mapped_shared = order == 0 && mapcount > 1,
	};
}

static void op_migrate_decide(struct rig *r, unsigned long i)
{
	struct tlbp_migrate_folio f = folio_for(i);
	struct tlbp_migrate_decision d;

	(void)r;
	tlbp_migrate_should_batch(TLBP_MIGRATE_BATCH_SKIP_SINGLE, &f, &d);
	decision_sink = d.batch;
}

/* What migrate_folio_unmap() would open-code for the same policy. */
static void op_migrate_open_coded(struct rig *r, unsigned long i)
{
	struct tlbp_migrate_folio f = folio_for(i);

	(void)r;
	decision_sink = f.mode == TLBP_MIGRATE_ASYNC &&
			!(f.nr_folios == 1 && f.order == 0 &&
			  !f.maybe_mapped_shared);
}

/* The loop and the input generation alone, to subtract from both. */
static void op_migrate_baseline(struct rig *r, unsigned long i)
{
	struct tlbp_migrate_folio f = folio_for(i);

	(void)r;
	decision_sink = f.nr_folios;
}

static const struct bench_case cases[] = {
	{ "batch_add", op_add, true },
	{ "batch_add_flush", op_add_flush, true },
	{ "should_defer", op_should_defer, true },
	{ "mm_mark", op_mm_mark, false },
	{ "mm_drain", op_mm_drain, false },
	{ "mm_drain_clean", op_mm_drain_clean, false },
	{ "migrate_decide", op_migrate_decide, false },
	{ "migrate_open_coded", op_migrate_open_coded, false },
	{ "migrate_baseline", op_migrate_baseline, false },
};

/* Both tables, the library's own cases first. */
static const struct bench_case *case_at(size_t c)
{
	size_t own = sizeof(cases) / sizeof(cases[0]);

	if (c < own)
		return &cases[c];
	return c - own < vs_kernel_nr_cases ? &vs_kernel_cases[c - own] : NULL;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void run(const struct bench_case *c, unsigned int nr_cpus,
		unsigned long ops, bool timed)
{
	static struct rig rig;
	unsigned long i;
	double t0;

	rig_init(&rig, nr_cpus);
	t0 = now_ns();
	for (i = 0; i < ops; i++)
		c->op(&rig, i);
	if (timed)
		printf("%-20s %5u %12.1f\n", c->name, nr_cpus,
		       (now_ns() - t0) / (double)ops);
}

int main(int argc, char **argv)
{
	static const unsigned int cpu_counts[] = { 64, 384, 8192 };
	const char *only = NULL;
	unsigned long ops = 2000000;
	unsigned int only_cpus = 0;
	size_t c, k;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--ops") && i + 1 < argc)
			ops = strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--case") && i + 1 < argc)
			only = argv[++i];
		else if (!strcmp(argv[i], "--cpus") && i + 1 < argc)
			only_cpus = (unsigned int)strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--list")) {
			for (c = 0; case_at(c); c++)
				printf("%s %s\n", case_at(c)->name,
				       case_at(c)->per_cpu_count ? "64,384,8192" : "64");
			return 0;
		} else {
			fprintf(stderr, "usage: %s [--ops N] [--case NAME] [--cpus N] [--list]\n",
				argv[0]);
			return 2;
		}
	}
	if (only_cpus > TLBP_CPUSET_MAX_CPUS) {
		fprintf(stderr, "bench: --cpus must be 1..%u\n", TLBP_CPUSET_MAX_CPUS);
		return 2;
	}
	if (ops == 0) {
		fprintf(stderr, "bench: --ops must be positive\n");
		return 2;
	}
	if (!only)
		printf("%-20s %5s %12s\n", "case", "cpus", "ns/op");
	for (c = 0; case_at(c); c++) {
		if (only && strcmp(only, case_at(c)->name))
			continue;
		for (k = 0; k < sizeof(cpu_counts) / sizeof(cpu_counts[0]); k++) {
			unsigned int n = only_cpus ? only_cpus : cpu_counts[k];

			run(case_at(c), n, ops, !only);
			if (only_cpus || !case_at(c)->per_cpu_count)
				break;
		}
	}
	return 0;
}
