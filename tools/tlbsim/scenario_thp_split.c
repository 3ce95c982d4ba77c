// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * thp-split: thpscale-like threads that fault in PMD-sized THPs and split
 * them while PTE-mapped, flushing per PTE or once per folio.
 */
#include <stdio.h>
#include "engine.h"
#include "paths.h"
#include "scenario_setup.h"

static const struct policy_def thp_split_policies[] = {
	{ "per-pte", { .split = TLBP_SPLIT_FLUSH_PER_PTE }, UNSAFE_NONE, false, "flush each PTE (before v6.7)" },
	{ "batched", { .split = TLBP_SPLIT_FLUSH_BATCHED }, UNSAFE_NONE, false, "one flush per folio (v6.7+)" },
};

/* The folios are always PMD-sized and each thread's own: no folio_order,
 * working set or sharing to choose. */
static const enum param_id thp_split_params[] = {
	P_CPUS, P_SOCKETS, P_THREADS, P_SCALE, P_THP_OPS_PER_THREAD, P_SPLIT_BENCH,
	P_WARMUP_S, P_DURATION_S,
	P_PTE_UPDATE_NS, P_FAULT_NS, P_THP_ALLOC_US, P_THP_CLEAR_US,
	P_ROUND_FAULT_NS, P_ROUND_MPROTECT_NS, P_ROUND_REWRITE_NS, P_ROUND_SPLIT_NS,
	P_ROUND_MUNMAP_NS, P_WAKE_NS, SCENARIO_FLUSH_COST_PARAMS,
	SCENARIO_BATCH_PARAMS, NR_PARAMS,
};

static const enum metric_id thp_split_metrics[] = {
	M_OP_LATENCY_US_MEAN, M_SPLITS, M_TLB_IPIS_SENT, M_TLB_IRQS_RECEIVED,
	M_INVLPGB_FLUSHES,
	M_FULL_FLUSHES, M_RANGED_FLUSHES, SCENARIO_RUN_METRICS,
};

static void resolve_thp_split(struct params *p)
{
	double scale = p->v[P_SCALE];
	unsigned int threads = scenario_scaled(p->v[P_THREADS], scale, 1);
	/* A machine as big as the threads unless told otherwise: thpscale
	 * runs one thread per CPU. */
	unsigned int cpus = p->set[P_CPUS] ? scenario_scaled(p->v[P_CPUS], scale, 2) :
			    (threads < 2 ? 2 : threads);

	if (p->v[P_SPLIT_BENCH] == SPLIT_BENCH_DEBUGFS) {
		p->v[P_WARMUP_S] *= scale;
		p->v[P_DURATION_S] *= scale;
	}
	p->v[P_CPUS] = cpus;
	p->v[P_THREADS] = threads < cpus ? threads : cpus;
	scenario_clamp_sockets(p);
}

static void describe_thp_split(const struct params *eff, char *buf, size_t len)
{
	int n = scenario_describe_cpus(eff, buf, len);

	if (n < 0 || (size_t)n >= len)
		return;
	if (eff->v[P_SPLIT_BENCH] == SPLIT_BENCH_DEBUGFS)
		snprintf(buf + n, len - (size_t)n,
			 "; %g threads of one process, rounds of %g THPs split through "
			 "split_huge_pages; %g s, then %g s measured",
			 eff->v[P_THREADS], eff->v[P_THP_OPS_PER_THREAD],
			 eff->v[P_WARMUP_S], eff->v[P_DURATION_S]);
	else
		snprintf(buf + n, len - (size_t)n, "; %g threads splitting %g THPs each",
			 eff->v[P_THREADS], eff->v[P_THP_OPS_PER_THREAD]);
}

static int setup_thp_split(struct sim *s, const struct policy_def *pol)
{
	const struct params *p = &s->p;
	unsigned int threads = (unsigned int)p->v[P_THREADS], i;
	uint64_t ops = (uint64_t)p->v[P_THP_OPS_PER_THREAD];

	s->policy.split = pol->lib.split;
	if (sim_machine_init(s, (unsigned int)p->v[P_CPUS], (unsigned int)p->v[P_SOCKETS]) ||
	    scenario_setup_common(s, threads, 1, false, threads * ops << PMD_ORDER))
		return -1;
	if (p->v[P_SPLIT_BENCH] == SPLIT_BENCH_DEBUGFS) {
		uint64_t warmup = (uint64_t)(p->v[P_WARMUP_S] * 1e9);

		/* thp_split's window: counters are its deltas. */
		s->end_ns = warmup + (uint64_t)(p->v[P_DURATION_S] * 1e9);
		if (sim_split_round_start(s))
			return -1;
		return warmup ? sim_schedule(s, warmup, EV_WINDOW, 0) : 0;
	}
	s->end_ns = UINT64_MAX / 2;
	for (i = 0; i < s->nr_threads; i++)
		sim_schedule(s, i, EV_THP_OP, i);
	return 0;
}

#define SPLIT_PATCH "'mm: huge_memory: batch tlb flush when splitting a pte-mapped THP' (v6.7)"
static const struct param_source sources[] = {
	{ P_THREADS, "assumption: the middle of the 1..32 thpscale threads of " SPLIT_PATCH },
	{ P_CPUS, "the thread count unless set: one thread per CPU, as thpscale runs" },
	{ P_SOCKETS, "assumption: one socket, the split is local to its CPU" },
	{ P_BACKEND, "arm64-tlbi: the back-end " SPLIT_PATCH " measured" },
	{ P_WARMUP_S, "split_bench=debugfs: tools/testbed/thp_split.c's default warmup" },
	{ P_DURATION_S, "split_bench=debugfs: tools/testbed/thp_split.c's default window" },
	{ NR_PARAMS, NULL },
};

static void defaults_thp_split(struct params *p)
{
	params_default(p, P_THREADS, 8);
	params_default(p, P_CPUS, 8);
	params_default(p, P_SOCKETS, 1);
	params_default(p, P_BACKEND, BACKEND_ARM64_TLBI);
	params_default(p, P_WARMUP_S, 3);
	params_default(p, P_DURATION_S, 30);
	/* Not a choice (not in thp_split_params): setup_common reads it. */
	p->v[P_FOLIO_ORDER] = PMD_ORDER;
}

const struct scenario scenario_thp_split = {
	.name = "thp-split",
	.help = "thpscale-like splits of PTE-mapped THPs: per-PTE or batched flush",
	.policies = thp_split_policies,
	.nr_policies = ARRAY_SIZE(thp_split_policies),
	.default_policy = "batched",
	.params = thp_split_params,
	.metrics = thp_split_metrics,
	.activity = M_SPLITS,
	.defaults = defaults_thp_split,
	.sources = sources,
	.resolve = resolve_thp_split,
	.describe = describe_thp_split,
	.setup = setup_thp_split,
};
