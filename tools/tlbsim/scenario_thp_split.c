// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * thp-split: thpscale-like threads that fault in PMD-sized THPs and split
 * them while PTE-mapped, flushing per PTE or once per folio.
 */
#include "scenario_setup.h"

static const struct policy_def thp_split_policies[] = {
	{ "per-pte", TLBP_SPLIT_FLUSH_PER_PTE, UNSAFE_NONE, false, "flush each PTE (before v6.7)" },
	{ "batched", TLBP_SPLIT_FLUSH_BATCHED, UNSAFE_NONE, false, "one flush per folio (v6.7+)" },
};

static int setup_thp_split(struct sim *s, const struct policy_def *pol)
{
	const struct params *p = &s->p;
	unsigned int threads = scenario_scaled(p->v[P_THREADS], p->v[P_SCALE], 1), i;
	uint64_t ops = (uint64_t)p->v[P_THP_OPS_PER_THREAD];

	s->split_policy = pol->value;
	if (sim_machine_init(s, threads < 2 ? 2 : threads, (unsigned int)p->v[P_SOCKETS]) ||
	    scenario_setup_common(s, threads, 1, false, threads * ops << PMD_ORDER))
		return -1;
	s->end_ns = UINT64_MAX / 2;
	for (i = 0; i < s->nr_threads; i++)
		sim_schedule(s, i, EV_THP_OP, i);
	return 0;
}

static void defaults_thp_split(struct params *p)
{
	params_default(p, P_THREADS, 8);
	params_default(p, P_CPUS, 8);
	params_default(p, P_SOCKETS, 1);
	params_default(p, P_BACKEND, BACKEND_ARM64_TLBI);
	params_default(p, P_FOLIO_ORDER, PMD_ORDER);
}

const struct scenario scenario_thp_split = {
	.name = "thp-split",
	.help = "thpscale-like splits of PTE-mapped THPs: per-PTE or batched flush",
	.policies = thp_split_policies,
	.nr_policies = ARRAY_SIZE(thp_split_policies),
	.default_policy = "batched",
	.defaults = defaults_thp_split,
	.setup = setup_thp_split,
};
