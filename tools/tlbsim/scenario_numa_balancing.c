// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * numa-balancing: NUMA balancing under load, and which single-folio
 * migrations batch their flush (the migrate_pages_batch() fast path).
 */
#include "scenario_setup.h"

static const struct policy_def numa_balancing_policies[] = {
	{ "always", { .migrate = TLBP_MIGRATE_BATCH_ALWAYS }, UNSAFE_NONE, true, "batch whenever async (v6.4..v7.3)" },
	{ "skip-numa", { .migrate = TLBP_MIGRATE_BATCH_SKIP_NUMA }, UNSAFE_NONE, true, "patch v1: never batch NUMA-hint migrations" },
	{ "skip-single", { .migrate = TLBP_MIGRATE_BATCH_SKIP_SINGLE }, UNSAFE_NONE, true, "patch v2: not for one small unshared folio" },
	{ "skip-single-mapcount", { .migrate = TLBP_MIGRATE_BATCH_SKIP_SINGLE_MAPCOUNT }, UNSAFE_NONE, true, "review: one folio mapped once" },
	{ "off", { .migrate = TLBP_MIGRATE_BATCH_ALWAYS }, UNSAFE_NONE, false, "NUMA balancing disabled (baseline)" },
	NUMA_UNSAFE_POLICIES,
};

static int setup_numa_balancing(struct sim *s, const struct policy_def *pol)
{
	s->policy.migrate = pol->lib.migrate;
	s->policy.hint = TLBP_HINT_DEFERRED_MAP;
	return scenario_setup_numa(s, pol);
}

const struct scenario scenario_numa_balancing = {
	.name = "numa-balancing",
	.help = "NUMA balancing under load: the single-folio migration fast path",
	.policies = numa_balancing_policies,
	.nr_policies = ARRAY_SIZE(numa_balancing_policies),
	.default_policy = "always",
	.has_baseline = true,
	.params = scenario_numa_params,
	.metrics = scenario_numa_metrics,
	.activity = M_MIGRATED_PAGES,
	.resolve = scenario_numa_resolve,
	.describe = scenario_numa_describe,
	.check = scenario_numa_check,
	.setup = setup_numa_balancing,
};
