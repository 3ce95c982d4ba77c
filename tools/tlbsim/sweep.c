// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * tlbsim sweep: plans every policy at every value of one parameter (and
 * every seed of --pairs), runs the plan, and hands the records to
 * sweep_report(), which merge calls too.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "diag.h"
#include "itemlist.h"
#include "options.h"
#include "runner.h"
#include "sweep.h"

/* Parameter by parameter, by value (memcmp() of doubles would tell 0.0 from
 * -0.0 apart). */
static bool same_values(const struct params *a, const struct params *b)
{
	for (unsigned int i = 0; i < NR_PARAMS; i++)
		if (a->v[i] < b->v[i] || a->v[i] > b->v[i])
			return false;
	return true;
}

/* Fills the effective values, and fails when two values run one model
 * (a scale that rounds them together, a clamp to the CPU count). */
static int sweep_effective(const struct scenario *sc, const struct params *base,
			   struct sweep_spec *sw, const char *const *asked)
{
	struct params *eff = calloc(sw->nr_values, sizeof(*eff));
	unsigned int v, w;

	if (!eff)
		return fail("out of memory");
	for (v = 0; v < sw->nr_values; v++) {
		struct params p = *base;

		p.v[sw->param] = sw->values[v];
		p.set[sw->param] = true;
		scenario_params(sc, &p, &eff[v]);
		sw->effective[v] = eff[v].v[sw->param];
		param_format((enum param_id)sw->param, sw->effective[v], sw->text[v],
			     sizeof(sw->text[v]));
		for (w = 0; w < v; w++) {
			if (!same_values(&eff[w], &eff[v]))
				continue;
			free(eff);
			return fail("--vary %s: %s and %s run the same model "
				    "(%s=%s once scaled and clamped); pick values further apart",
				    param_defs[sw->param].name, asked[w], asked[v],
				    param_defs[sw->param].name, sw->text[v]);
		}
	}
	free(eff);
	return 0;
}

int sweep_parse(const struct scenario *sc, const char *vary, const struct params *base,
		struct sweep_spec *sw)
{
	const char *asked[SWEEP_MAX_VALUES];
	const char *eq = strchr(vary, '=');
	char name[64], kv[128], err[1024], *list;
	struct params probe = *base;
	unsigned int v;
	int ret = 0;

	if (!eq || eq == vary || (size_t)(eq - vary) >= sizeof(name))
		return fail("--vary expects key=v1,v2,..., got '%s'", vary);
	memcpy(name, vary, (size_t)(eq - vary));
	name[eq - vary] = '\0';
	sw->param = param_lookup(name);
	if (sw->param < 0) {
		/* params_set() words the error, with its did-you-mean. */
		snprintf(kv, sizeof(kv), "%s=0", name);
		params_set(&probe, kv, err, sizeof(err));
		return fail("%s", err);
	}
	if (scenario_check_reads(sc, name, err, sizeof(err)))
		return fail("%s", err);
	if (!eq[1])
		return fail("--vary %s= has no values", name);
	list = strdup(eq + 1);
	if (!list)
		return fail("out of memory");
	sw->nr_values = itemlist_split("--vary", list, asked, SWEEP_MAX_VALUES);
	for (v = 0; v < sw->nr_values && !ret; v++) {
		snprintf(kv, sizeof(kv), "%s=%s", name, asked[v]);
		if (params_set(&probe, kv, err, sizeof(err)))
			ret = fail("%s", err);
		sw->values[v] = probe.v[sw->param];
	}
	if (!ret && sw->nr_values)
		ret = sweep_effective(sc, base, sw, asked);
	free(list);
	return sw->nr_values ? ret : 2;
}

/* Value by value, seed by seed, policy by policy: the records' order. */
static int plan_sweep(const struct options *o, const struct sweep_spec *sw, struct plan *pl)
{
	unsigned int v, pair, k;

	for (v = 0; v < sw->nr_values; v++) {
		for (pair = 0; pair < o->pairs; pair++) {
			for (k = 0; k < o->nr_policies; k++) {
				struct run_task t = { .policy = o->policies[k],
						      .seed = o->seed + pair, .pair = pair,
						      .params = o->params };

				t.params.v[sw->param] = sw->values[v];
				t.params.set[sw->param] = true;
				snprintf(t.label, sizeof(t.label), "%s=%s, %s, seed %" PRIu64,
					 param_defs[sw->param].name, sw->text[v], t.policy, t.seed);
				if (plan_add(pl, &t))
					return fail("out of memory");
			}
		}
	}
	return 0;
}

int sweep_run(const struct options *o, const struct sweep_spec *sw)
{
	struct records rs = { 0 };
	struct plan pl = { 0 };
	int ret = plan_sweep(o, sw, &pl);

	if (!ret)
		ret = runner_execute(o, &pl, &rs);
	if (!ret)
		ret = sweep_report(o, sw, &rs);
	plan_free(&pl);
	records_free(&rs);
	return ret;
}
