// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * numa-hint-fault: a pmbench-like load where the hint fault maps the page
 * before or after deciding to migrate it (do_numa_page()).
 */
#include "scenario_setup.h"

static const struct policy_def numa_hint_fault_policies[] = {
	{ "eager-map", { .hint = TLBP_HINT_EAGER_MAP }, UNSAFE_NONE, true, "map, then decide (before v5.13)" },
	{ "deferred-map", { .hint = TLBP_HINT_DEFERRED_MAP }, UNSAFE_NONE, true, "decide, map only if not migrating (v5.13+)" },
	{ "off", { .hint = TLBP_HINT_DEFERRED_MAP }, UNSAFE_NONE, false, "NUMA balancing disabled (baseline)" },
	NUMA_UNSAFE_POLICIES,
};

static int setup_numa_hint_fault(struct sim *s, const struct policy_def *pol)
{
	s->policy.migrate = TLBP_MIGRATE_BATCH_ALWAYS;
	s->policy.hint = pol->lib.hint;
	return scenario_setup_numa(s, pol);
}

#define PMBENCH "pmbench-like, as measured for 'NUMA balancing: reduce TLB flush via delaying mapping on hint page fault' (v5.13)"
static const struct param_source sources[] = {
	{ P_CPUS, "assumption: 2 sockets of 48, " PMBENCH },
	{ P_THREADS, "one per CPU" },
	{ P_PROCESSES, "assumption: 4 pmbench processes" },
	{ P_WORKING_SET_GIB, "assumption: enough for balancing to migrate millions of pages" },
	{ P_DURATION_S, "assumption: one 60 s benchmark run" },
	{ P_PATTERN, "pareto: " PMBENCH },
	{ P_MISPLACED_FRACTION, "assumption: half the pages first placed on the wrong node" },
	{ P_MMAP_WRITER_HZ, "0: pmbench maps its buffer once" },
	{ P_MIGRATE_BATCHING, "0: the patch was measured on v5.13, before migrations batched their flush (v6.4)" },
	{ NR_PARAMS, NULL },
};

static void defaults_numa_hint_fault(struct params *p)
{
	/* pmbench-like: several processes, pareto accesses. */
	params_default(p, P_CPUS, 96);
	params_default(p, P_THREADS, 96);
	params_default(p, P_PROCESSES, 4);
	params_default(p, P_WORKING_SET_GIB, 32);
	params_default(p, P_DURATION_S, 60);
	params_default(p, P_PATTERN, PATTERN_PARETO);
	/* Placed so that balancing moves millions of pages (the patch's
	 * pmbench + migratepages runs); pmbench maps its buffer once. */
	params_default(p, P_MISPLACED_FRACTION, 0.5);
	params_default(p, P_MMAP_WRITER_HZ, 0);
	/* The kernel the patch was measured on: v5.13, whose migrations
	 * flushed each unmap at once. */
	params_default(p, P_MIGRATE_BATCHING, 0);
}

const struct scenario scenario_numa_hint_fault = {
	.name = "numa-hint-fault",
	.help = "pmbench-like hint faults: map before or after the migration decision",
	.policies = numa_hint_fault_policies,
	.nr_policies = ARRAY_SIZE(numa_hint_fault_policies),
	.default_policy = "deferred-map",
	.has_baseline = true,
	.defaults = defaults_numa_hint_fault,
	.sources = sources,
	.params = scenario_numa_params,
	.metrics = scenario_numa_metrics,
	.activity = M_MIGRATED_PAGES,
	.resolve = scenario_numa_resolve,
	.describe = scenario_numa_describe,
	.check = scenario_numa_check,
	.setup = setup_numa_hint_fault,
};
