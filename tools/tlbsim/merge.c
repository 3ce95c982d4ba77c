// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "diag.h"
#include "merge.h"
#include "options.h"
#include "outpath.h"
#include "report.h"
#include "sweep.h"

static int params_from_json(const struct scenario *sc, json_t *obj, struct params *p,
			    char *err, size_t errlen)
{
	const char *key;
	json_t *val;

	params_defaults(p);
	if (!json_is_object(obj)) {
		snprintf(err, errlen, "no parameters");
		return -1;
	}
	json_object_foreach(obj, key, val) {
		if (params_set_json(p, key, val, err, errlen) ||
		    scenario_check_reads(sc, key, err, errlen))
			return -1;
	}
	return 0;
}

/* One JSON record into @r; -1 with the reason in @err. */
static int record_from_json(json_t *j, struct run_record *r, char *err, size_t errlen)
{
	json_t *metrics = json_object_get(j, "metrics"), *seed = json_object_get(j, "seed");
	const char *sc = json_string_value(json_object_get(j, "scenario"));
	const char *pol = json_string_value(json_object_get(j, "policy"));
	const struct policy_def *pd;
	const enum metric_id *m;

	memset(r, 0, sizeof(*r));
	r->sc = sc ? scenario_find(sc) : NULL;
	pd = r->sc && pol ? scenario_policy(r->sc, pol) : NULL;
	if (!pd || !json_is_integer(seed) || json_integer_value(seed) < 0 ||
	    !json_is_object(metrics)) {
		snprintf(err, errlen, "not a tlbsim record (scenario, policy, seed, metrics)");
		return -1;
	}
	r->policy = pd->name;
	r->seed = (uint64_t)json_integer_value(seed);
	if (params_from_json(r->sc, json_object_get(j, "params"), &r->params, err, errlen) ||
	    params_from_json(r->sc, json_object_get(j, "set"), &r->asked, err, errlen))
		return -1;
	for (m = r->sc->metrics; *m != NR_METRICS; m++) {
		json_t *v = json_object_get(metrics, metric_defs[*m].name);

		if (!json_is_number(v) && !json_is_null(v)) {
			snprintf(err, errlen, "no metric %s", metric_defs[*m].name);
			return -1;
		}
		r->metrics.v[*m] = json_is_null(v) ? NAN : json_number_value(v);
	}
	return 0;
}

static int read_file(struct options *o, const char *path, struct records *rs)
{
	json_error_t jerr;
	json_t *arr = json_load_file(path, 0, &jerr), *j;
	struct run_record r;
	char err[1024];
	size_t k;
	int ret = 0;

	if (!arr)
		return fail("merge: %s: %s", path, jerr.text);
	if (!json_is_array(arr) || !json_array_size(arr))
		ret = fail("merge: %s: not a list of tlbsim records", path);
	json_array_foreach(arr, k, j) {
		if (ret)
			break;
		if (record_from_json(j, &r, err, sizeof(err)))
			ret = fail("merge: %s, record %zu: %s", path, k + 1, err);
		else if (o->sc && r.sc != o->sc)
			ret = fail("merge: %s is a %s run, %s a %s one", path, r.sc->name,
				   o->inputs[0], o->sc->name);
		else if (records_add(rs, &r))
			ret = fail("out of memory");
		o->sc = r.sc;
	}
	json_decref(arr);
	return ret;
}

/* The one requested parameter whose value differs between records. */
static int swept_param(const struct options *o, const struct records *rs)
{
	int id, found = -1;
	size_t k;

	if (o->vary) {
		id = param_lookup(o->vary);
		if (id < 0)
			fail("merge: unknown parameter '%s'", o->vary);
		return id;
	}
	for (id = 0; id < NR_PARAMS; id++) {
		for (k = 1; k < rs->len; k++) {
			if (rs->r[k].asked.set[id] != rs->r[0].asked.set[id] ||
			    rs->r[k].asked.v[id] != rs->r[0].asked.v[id])
				break;
		}
		if (k == rs->len)
			continue;
		if (found >= 0) {
			fail("merge: %s and %s both vary; name the swept one with --vary",
			     param_defs[found].name, param_defs[id].name);
			return -1;
		}
		found = id;
	}
	if (found < 0)
		fail("merge: no parameter varies between the files; name the swept one "
		     "with --vary");
	return found;
}

/* Adds @policy to o->policies unless it is there; false when full. */
static bool add_unique_policy(struct options *o, const char *policy)
{
	unsigned int k;

	for (k = 0; k < o->nr_policies; k++)
		if (o->policies[k] == policy)
			return true;
	if (o->nr_policies == MAX_POLICIES)
		return false;
	o->policies[o->nr_policies++] = policy;
	return true;
}

/* Rebuilds the sweep: values and policies in the order they first appear
 * (the jobs file's order), seeds from the lowest. */
static int rebuild(struct options *o, const struct records *rs, struct sweep_spec *sw)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	unsigned int v;
	size_t k;

	memset(sw, 0, sizeof(*sw));
	sw->param = swept_param(o, rs);
	if (sw->param < 0)
		return 2;
	for (k = 0; k < rs->len; k++) {
		const struct run_record *r = &rs->r[k];
		double x = r->params.v[sw->param];

		lo = r->seed < lo ? r->seed : lo;
		hi = r->seed > hi ? r->seed : hi;
		if (!add_unique_policy(o, r->policy))
			return fail("merge: more than %d policies", MAX_POLICIES);
		for (v = 0; v < sw->nr_values && sw->effective[v] != x; v++)
			;
		if (v < sw->nr_values)
			continue;
		if (v == SWEEP_MAX_VALUES)
			return fail("merge: more than %d values of %s", SWEEP_MAX_VALUES,
				    param_defs[sw->param].name);
		sw->values[v] = r->asked.v[sw->param];
		sw->effective[v] = x;
		param_format((enum param_id)sw->param, x, sw->text[v], sizeof(sw->text[v]));
		sw->nr_values++;
	}
	o->seed = lo;
	o->pairs = (unsigned int)(hi - lo + 1);
	if (hi - lo >= 100 || rs->len != (size_t)sw->nr_values * o->nr_policies * o->pairs)
		return fail("merge: %zu records, not one per value (%u), policy (%u) and seed "
			    "(%" PRIu64 "..%" PRIu64 "): a run is missing or given twice",
			    rs->len, sw->nr_values, o->nr_policies, lo, hi);
	return 0;
}

int merge_main(struct options *o)
{
	struct records rs = { 0 };
	struct sweep_spec sw;
	unsigned int f;
	size_t k;
	int ret = 0;

	for (f = 0; f < o->nr_inputs && !ret; f++)
		ret = read_file(o, o->inputs[f], &rs);
	if (!ret)
		ret = rebuild(o, &rs, &sw);
	if (!ret)
		ret = options_resolve_metrics(o);
	/* A run's pair is its seed's place in the sweep's seeds. */
	for (k = 0; k < rs.len && !ret; k++)
		rs.r[k].pair = (unsigned int)(rs.r[k].seed - o->seed);
	if (!ret)
		ret = sweep_report(o, &sw, &rs);
	records_free(&rs);
	return ret;
}
