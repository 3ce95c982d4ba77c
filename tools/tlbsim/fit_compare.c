// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * compare --fit FIT.json: every policy under every parameter set of a
 * fit's ensemble, each prediction shown as median [min, max] over the
 * ensemble. A prediction whose interval is wide was not decided by the
 * fitted figures, whatever its value at the best fit.
 */
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "diag.h"
#include "fit.h"
#include "options.h"
#include "runner.h"

struct interval {
	double median, min, max; /* NaN when every member's value was undefined */
};

/* The fit's --set values, then the user's (which may not touch a free
 * parameter: its values are the ensemble's). */
static int base_params(const struct options *o, const struct fit_file *f, struct params *p)
{
	unsigned int k;
	int i;

	for (k = 0; k < f->nfree; k++)
		if (o->params.set[f->free[k]])
			return fail("--set %s: a free parameter of the fit, its values come "
				    "from the ensemble", param_defs[f->free[k]].name);
	*p = f->set;
	for (i = 0; i < NR_PARAMS; i++) {
		if (o->params.set[i]) {
			p->v[i] = o->params.v[i];
			p->set[i] = true;
		}
	}
	return 0;
}

/* Member by member, pair by pair, policy by policy: the records' order. */
static int plan_members(const struct options *o, const struct fit_file *f,
			const struct params *base, struct plan *pl)
{
	unsigned int pair, k, j;
	size_t m;

	for (m = 0; m < f->n; m++) {
		for (pair = 0; pair < o->pairs; pair++) {
			for (k = 0; k < o->nr_policies; k++) {
				struct run_task t = { .policy = o->policies[k],
						      .seed = o->seed + pair, .pair = pair,
						      .params = *base };

				for (j = 0; j < f->nfree; j++) {
					t.params.v[f->free[j]] = f->x[m][j];
					t.params.set[f->free[j]] = true;
				}
				snprintf(t.label, sizeof(t.label), "set %zu, %s, seed %" PRIu64,
					 m + 1, t.policy, t.seed);
				if (plan_add(pl, &t))
					return fail("out of memory");
			}
		}
	}
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Policy @k's @metric over the members (each the mean of its pairs). */
static struct interval over_members(const struct options *o, const struct fit_file *f,
				    const struct records *rs, unsigned int k,
				    enum metric_id metric, double *scratch)
{
	struct interval iv = { NAN, NAN, NAN };
	size_t m, n = 0, per = (size_t)o->pairs * o->nr_policies;
	unsigned int pair;

	for (m = 0; m < f->n; m++) {
		double sum = 0;

		for (pair = 0; pair < o->pairs; pair++)
			sum += rs->r[m * per + (size_t)pair * o->nr_policies + k].metrics.v[metric];
		if (!isnan(sum))
			scratch[n++] = sum / o->pairs;
	}
	if (!n)
		return iv;
	qsort(scratch, n, sizeof(*scratch), cmp_double);
	iv.min = scratch[0];
	iv.max = scratch[n - 1];
	iv.median = n % 2 ? scratch[n / 2] : (scratch[n / 2 - 1] + scratch[n / 2]) / 2;
	return iv;
}

static void fmt(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (v == floor(v) && fabs(v) < 1e7)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.4g", v);
}

static void print_row(const char *metric, const char *unit, const char *policy,
		      const struct interval *iv)
{
	char a[24], b[24], c[24];

	fmt(a, sizeof(a), iv->median);
	fmt(b, sizeof(b), iv->min);
	fmt(c, sizeof(c), iv->max);
	if (isnan(iv->median))
		printf("%-40s  %-10s  %-20s  %10s\n", metric, unit, policy, a);
	else
		printf("%-40s  %-10s  %-20s  %10s  [%s, %s]\n", metric, unit, policy, a, b, c);
}

static json_t *interval_json(const struct interval *iv)
{
	if (isnan(iv->median))
		return json_null();
	return json_pack("{s:f, s:f, s:f}", "median", iv->median, "min", iv->min, "max",
			 iv->max);
}

static json_t *members_json(const struct fit_file *f)
{
	json_t *arr = json_array();
	unsigned int k;
	size_t m;

	for (m = 0; m < f->n; m++) {
		json_t *p = json_object();

		for (k = 0; k < f->nfree; k++)
			json_object_set_new(p, param_defs[f->free[k]].name, json_real(f->x[m][k]));
		json_array_append_new(arr, p);
	}
	return arr;
}

/* The table on stdout and, with --json, the intervals in a file. */
static int report(const struct options *o, const struct fit_file *f, const struct records *rs)
{
	json_t *root = json_object(), *ivs = json_object();
	double *scratch = calloc(f->n, sizeof(*scratch));
	const enum metric_id *m;
	unsigned int k;
	int ret = 0;

	if (!scratch) {
		json_decref(root);
		json_decref(ivs);
		return fail("out of memory");
	}
	printf("%s: %zu parameter sets of %s, %u pair%s each, seed %" PRIu64 "%s\n",
	       o->sc->name, f->n, o->fit, o->pairs, o->pairs > 1 ? "s" : "", o->seed,
	       o->pairs > 1 ? "+" : "");
	report_machine(stdout, o->sc, &rs->r[0].params);
	printf("%-40s  %-10s  %-20s  %10s  %s\n", "metric", "unit", "policy", "median",
	       "[min, max] over the ensemble");
	for (k = 0; k < o->nr_policies; k++)
		json_object_set_new(ivs, o->policies[k], json_object());
	for (m = o->sc->metrics; *m != NR_METRICS; m++) {
		for (k = 0; k < o->nr_policies; k++) {
			struct interval iv = over_members(o, f, rs, k, *m, scratch);

			print_row(k ? "" : metric_defs[*m].name, k ? "" : metric_defs[*m].unit,
				  o->policies[k], &iv);
			json_object_set_new(json_object_get(ivs, o->policies[k]),
					    metric_defs[*m].name, interval_json(&iv));
		}
	}
	free(scratch);
	json_object_set_new(root, "scenario", json_string(o->sc->name));
	json_object_set_new(root, "fit", json_string(o->fit));
	json_object_set_new(root, "seed", json_integer((json_int_t)o->seed));
	json_object_set_new(root, "pairs", json_integer(o->pairs));
	json_object_set_new(root, "members", members_json(f));
	json_object_set_new(root, "intervals", ivs);
	if (o->json && json_dump_file(root, o->json, JSON_INDENT(2) | JSON_REAL_PRECISION(10)))
		ret = fail("cannot write %s", o->json);
	json_decref(root);
	return ret;
}

int fit_compare_main(struct options *o)
{
	struct fit_file f;
	struct params base;
	struct records rs = { 0 };
	struct plan pl = { 0 };
	int ret;

	if (o->csv)
		return fail("--csv does not apply to compare --fit (its --json carries the "
			    "intervals)");
	if (fit_json_read(o->fit, o->sc, &f))
		return 2;
	ret = base_params(o, &f, &base);
	if (!ret)
		ret = plan_members(o, &f, &base, &pl);
	if (!ret)
		ret = runner_execute(o, &pl, &rs);
	if (!ret)
		ret = report(o, &f, &rs);
	plan_free(&pl);
	records_free(&rs);
	fit_file_free(&f);
	return ret;
}
