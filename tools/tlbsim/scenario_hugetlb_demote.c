// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * hugetlb-demote: 1 GiB HugeTLB pages demoted to 2 MiB with the vmemmap
 * optimisation (HVO) on, a grace period and a flush per item or per batch.
 */
#include "scenario_setup.h"

static const struct policy_def hugetlb_demote_policies[] = {
	{ "per-item", TLBP_GP_PER_ITEM, UNSAFE_NONE, false, "a grace period and a flush per folio" },
	{ "batched", TLBP_GP_BATCHED, UNSAFE_NONE, false, "one grace period per batch (v6.12+)" },
};

static int setup_hugetlb_demote(struct sim *s, const struct policy_def *pol)
{
	const struct params *p = &s->p;

	s->gp_policy = pol->value;
	if (sim_machine_init(s, scenario_scaled(p->v[P_CPUS], p->v[P_SCALE], 2),
			     (unsigned int)p->v[P_SOCKETS]))
		return -1;
	s->end_ns = UINT64_MAX / 2;
	return sim_schedule(s, 0, EV_DEMOTE, 0);
}

static void defaults_hugetlb_demote(struct params *p)
{
	params_default(p, P_CPUS, 64);
}

const struct scenario scenario_hugetlb_demote = {
	.name = "hugetlb-demote",
	.help = "demote 1 GiB HugeTLB pages to 2 MiB with HVO: grace periods per item or batched",
	.policies = hugetlb_demote_policies,
	.nr_policies = ARRAY_SIZE(hugetlb_demote_policies),
	.default_policy = "batched",
	.defaults = defaults_hugetlb_demote,
	.setup = setup_hugetlb_demote,
};
