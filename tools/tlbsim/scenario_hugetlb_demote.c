// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * hugetlb-demote: 1 GiB HugeTLB pages demoted to 2 MiB with the vmemmap
 * optimisation (HVO) on, a grace period and a flush per item or per batch.
 */
#include <stdio.h>
#include "engine.h"
#include "scenario_setup.h"

static const struct policy_def hugetlb_demote_policies[] = {
	{ "per-item", { .gp = TLBP_GP_PER_ITEM }, UNSAFE_NONE, false, "a grace period and a flush per folio" },
	{ "batched", { .gp = TLBP_GP_BATCHED }, UNSAFE_NONE, false, "one grace period per batch (v6.12+)" },
};

static const enum param_id hugetlb_demote_params[] = {
	P_CPUS, P_SOCKETS, P_SCALE, P_DEMOTE_PAGES, P_FAIL_AT_ITEM, P_HVO,
	P_HVO_REMAP_NS, P_SYNC_RCU_US, SCENARIO_FLUSH_COST_PARAMS, NR_PARAMS,
};

static const enum metric_id hugetlb_demote_metrics[] = {
	M_REAL_MS, M_SYS_MS, M_SYNC_CALLS, M_TLB_FLUSH_ALL_CALLS, M_TLB_IPIS_SENT,
	M_TLB_IRQS_RECEIVED, M_INVLPGB_FLUSHES, SCENARIO_RUN_METRICS,
};

static void resolve_hugetlb_demote(struct params *p)
{
	p->v[P_CPUS] = scenario_scaled(p->v[P_CPUS], p->v[P_SCALE], 2);
	p->v[P_DEMOTE_PAGES] = scenario_scaled(p->v[P_DEMOTE_PAGES], p->v[P_SCALE], 1);
	scenario_clamp_sockets(p);
}

static void describe_hugetlb_demote(const struct params *eff, char *buf, size_t len)
{
	int n = scenario_describe_cpus(eff, buf, len);

	if (n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "; %g 1 GiB page%s to demote, HVO %s",
			 eff->v[P_DEMOTE_PAGES], eff->v[P_DEMOTE_PAGES] > 1 ? "s" : "",
			 eff->v[P_HVO] ? "on" : "off");
}

/* Restore items are the 1 GiB pages, 0 to demote_pages - 1, and there is
 * nothing to restore without HVO. */
static bool check_hugetlb_demote(const struct params *eff, char *buf, size_t len)
{
	double k = eff->v[P_FAIL_AT_ITEM];

	if (k < 0)
		return false;
	if (!eff->v[P_HVO]) {
		snprintf(buf, len, "fail_at_item=%g never fires: with hvo=0 there is "
			 "nothing to restore", k);
		return true;
	}
	if (k >= eff->v[P_DEMOTE_PAGES]) {
		snprintf(buf, len, "fail_at_item=%g never fires: items are 0..%g "
			 "(demote_pages=%g)", k, eff->v[P_DEMOTE_PAGES] - 1,
			 eff->v[P_DEMOTE_PAGES]);
		return true;
	}
	return false;
}

static int setup_hugetlb_demote(struct sim *s, const struct policy_def *pol)
{
	const struct params *p = &s->p;

	s->policy.gp = pol->lib.gp;
	if (sim_machine_init(s, (unsigned int)p->v[P_CPUS], (unsigned int)p->v[P_SOCKETS]))
		return -1;
	s->end_ns = UINT64_MAX / 2;
	return sim_schedule(s, 0, EV_DEMOTE, 0);
}

static const struct param_source sources[] = {
	{ P_CPUS, "assumption: a mid-size host; a demote's flushes reach every CPU" },
	{ NR_PARAMS, NULL },
};

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
	.params = hugetlb_demote_params,
	.metrics = hugetlb_demote_metrics,
	.activity = M_SYNC_CALLS,
	.defaults = defaults_hugetlb_demote,
	.sources = sources,
	.resolve = resolve_hugetlb_demote,
	.describe = describe_hugetlb_demote,
	.check = check_hugetlb_demote,
	.setup = setup_hugetlb_demote,
};
