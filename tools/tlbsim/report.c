// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>
#include "grow.h"
#include "report.h"
#include "scenario.h"

int records_add(struct records *rs, const struct run_record *r)
{
	void *arr = rs->r;

	if (grow_for_one(&arr, &rs->cap, rs->len, sizeof(*rs->r), 16))
		return -1;
	rs->r = arr;
	rs->r[rs->len++] = *r;
	return 0;
}

void records_free(struct records *rs)
{
	free(rs->r);
	memset(rs, 0, sizeof(*rs));
}

/* Integers print as integers; everything else with 4 significant digits;
 * an undefined ratio as "-". */
static void fmt_value(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.4g", v);
}

void report_machine(FILE *out, const struct scenario *sc, const struct params *eff)
{
	char line[256];

	sc->describe(eff, line, sizeof(line));
	fprintf(out, "machine: %s%s", line, eff->v[P_SCALE] < 1 ? "" : "\n");
	if (eff->v[P_SCALE] < 1)
		fprintf(out, "; scale %g\n", eff->v[P_SCALE]);
}

void report_run(FILE *out, const struct run_record *r)
{
	const enum metric_id *m;
	char buf[64];

	fprintf(out, "scenario %s, policy %s, seed %llu\n", r->sc->name, r->policy,
		(unsigned long long)r->seed);
	report_machine(out, r->sc, &r->params);
	for (m = r->sc->metrics; *m != NR_METRICS; m++) {
		fmt_value(buf, sizeof(buf), r->metrics.v[*m]);
		fprintf(out, "  %-40s %16s %s\n", metric_defs[*m].name, buf, metric_defs[*m].unit);
	}
}

/* Mean, min and max of @metric over the runs of @policy; 0 if none. */
static unsigned int over_pairs(const struct records *rs, const char *policy, int metric,
			       double *mean, double *lo, double *hi)
{
	unsigned int n = 0;
	double sum = 0;
	size_t k;

	*lo = INFINITY;
	*hi = -INFINITY;
	for (k = 0; k < rs->len; k++) {
		double v = rs->r[k].metrics.v[metric];

		if (strcmp(rs->r[k].policy, policy) != 0)
			continue;
		sum += v;
		*lo = v < *lo ? v : *lo;
		*hi = v > *hi ? v : *hi;
		n++;
	}
	*mean = n ? sum / n : 0;
	return n;
}

/*
 * 4 significant digits: 7428, 12.69, 0.006842, 1.549e+05; an undefined
 * ratio as "-".
 */
static void fmt_sig(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (v == floor(v) && fabs(v) < 1e4)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.4g", v);
}

/*
 * A policy's change against the reference: relative for counts and values,
 * in points for fractions and percentages (a fraction's point is 1%).
 * Empty when a relative change means nothing: a zero or undefined
 * reference, and the host figures (events, wall time).
 */
static void fmt_change(char *buf, size_t len, enum metric_id m, double v, double ref)
{
	const struct metric_def *d = &metric_defs[m];

	buf[0] = '\0';
	if (isnan(v) || isnan(ref) || m == M_WALL_SECONDS || m == M_SIM_EVENTS)
		return;
	if (d->kind == METRIC_FRACTION)
		snprintf(buf, len, "%+.1f pt", 100.0 * (v - ref));
	else if (d->kind == METRIC_PERCENT)
		snprintf(buf, len, "%+.1f pt", v - ref);
	else if (ref != 0)
		snprintf(buf, len, "%+.1f%%", 100.0 * (v - ref) / fabs(ref));
}

#define CELL 64

/* The value cell of (@metric, @policy): mean, and [min..max] over pairs. */
static void fmt_cell(char *cell, const struct records *rs, const char *policy,
		     enum metric_id metric, double *mean)
{
	char a[24], b[24];
	double lo, hi;
	unsigned int n = over_pairs(rs, policy, metric, mean, &lo, &hi);

	if (!n) {
		*mean = NAN;
		snprintf(cell, CELL, "-");
		return;
	}
	fmt_sig(cell, CELL, *mean);
	if (n > 1 && lo != hi && !isnan(lo)) {
		fmt_sig(a, sizeof(a), lo);
		fmt_sig(b, sizeof(b), hi);
		snprintf(cell + strlen(cell), CELL - strlen(cell), " [%s..%s]", a, b);
	}
}

static int max_i(int a, int b)
{
	return a > b ? a : b;
}

/*
 * Metrics as rows and policies as columns when that fits @width; policies
 * as rows under each metric when it does not. Every later policy shows its
 * change against the first; a baseline (balancing-off) policy shows none,
 * since it changes the workload, not the flush policy.
 */
void report_compare(FILE *out, const struct records *rs, const char *const *policies,
		    unsigned int nr_policies, int width)
{
	const struct scenario *sc = rs->r[0].sc;
	const enum metric_id *m;
	int name_w = 6, unit_w = 4, pol_w = 6, val_w = 5, chg_w = 6, cols_w = 0;
	int col_w[MAX_COMPARE_POLICIES] = { 0 };
	char (*val)[MAX_COMPARE_POLICIES][CELL];
	char (*chg)[MAX_COMPARE_POLICIES][CELL];
	unsigned int nm = 0, i, p;
	bool wide;

	for (m = sc->metrics; *m != NR_METRICS; m++)
		nm++;
	/* Every scenario reports at least one metric; + 1 keeps calloc() from
	 * being asked for nothing if one ever did not. */
	val = calloc(nm + 1, sizeof(*val));
	chg = calloc(nm + 1, sizeof(*chg));
	if (!val || !chg || nr_policies > MAX_COMPARE_POLICIES) {
		fprintf(out, "(out of memory)\n");
		goto out;
	}
	for (p = 0; p < nr_policies; p++) {
		pol_w = max_i(pol_w, (int)strlen(policies[p]));
		col_w[p] = (int)strlen(policies[p]);
	}
	for (i = 0; i < nm; i++) {
		enum metric_id id = sc->metrics[i];
		double ref = NAN, mean;

		name_w = max_i(name_w, (int)strlen(metric_defs[id].name));
		unit_w = max_i(unit_w, (int)strlen(metric_defs[id].unit));
		for (p = 0; p < nr_policies; p++) {
			const struct policy_def *pol = scenario_policy(sc, policies[p]);

			fmt_cell(val[i][p], rs, policies[p], id, &mean);
			if (!p)
				ref = mean;
			else if (!sc->has_baseline || pol->balancing)
				fmt_change(chg[i][p], CELL, id, mean, ref);
			val_w = max_i(val_w, (int)strlen(val[i][p]));
			chg_w = max_i(chg_w, (int)strlen(chg[i][p]));
			col_w[p] = max_i(col_w[p], (int)strlen(val[i][p]) +
					 (chg[i][p][0] ? 1 + (int)strlen(chg[i][p]) : 0));
		}
	}
	for (p = 0; p < nr_policies; p++)
		cols_w += 2 + col_w[p];
	wide = name_w + 2 + unit_w + cols_w > width;
	if (!wide) {
		fprintf(out, "%-*s  %-*s", name_w, "metric", unit_w, "unit");
		for (p = 0; p < nr_policies; p++)
			fprintf(out, "  %*s", col_w[p], policies[p]);
		fprintf(out, "\n");
		for (i = 0; i < nm; i++) {
			fprintf(out, "%-*s  %-*s", name_w, metric_defs[sc->metrics[i]].name,
				unit_w, metric_defs[sc->metrics[i]].unit);
			for (p = 0; p < nr_policies; p++) {
				char cell[2 * CELL + 2];

				snprintf(cell, sizeof(cell), "%s%s%s", val[i][p],
					 chg[i][p][0] ? " " : "", chg[i][p]);
				fprintf(out, "  %*s", col_w[p], cell);
			}
			fprintf(out, "\n");
		}
		goto out;
	}
	fprintf(out, "%-*s  %-*s  %-*s  %*s  %*s\n", name_w, "metric", unit_w, "unit",
		pol_w, "policy", val_w, "value", chg_w, "change");
	for (i = 0; i < nm; i++) {
		for (p = 0; p < nr_policies; p++) {
			fprintf(out, "%-*s  %-*s  %-*s  %*s", name_w,
				p ? "" : metric_defs[sc->metrics[i]].name, unit_w,
				p ? "" : metric_defs[sc->metrics[i]].unit, pol_w, policies[p],
				val_w, val[i][p]);
			if (chg[i][p][0])
				fprintf(out, "  %*s", chg_w, chg[i][p]);
			fprintf(out, "\n");
		}
	}
out:
	free(val);
	free(chg);
}

static json_t *param_json(const struct params *p, int i)
{
	char buf[64];

	if (!param_defs[i].choices)
		return json_real(p->v[i]);
	param_format((enum param_id)i, p->v[i], buf, sizeof(buf));
	return json_string(buf);
}

static json_t *record_json(const struct run_record *r)
{
	json_t *obj = json_object(), *params = json_object(), *metrics = json_object();
	json_t *asked = json_object();
	const enum metric_id *m;
	int i;

	json_object_set_new(obj, "scenario", json_string(r->sc->name));
	json_object_set_new(obj, "policy", json_string(r->policy));
	json_object_set_new(obj, "seed", json_integer((json_int_t)r->seed));
	json_object_set_new(obj, "pair", json_integer(r->pair));
	/* What was asked (--set, --vary), then what ran: merge needs the
	 * first to tell the swept parameter from the ones it drags along. */
	for (i = 0; i < NR_PARAMS; i++)
		if (r->asked.set[i] && scenario_reads(r->sc, (enum param_id)i))
			json_object_set_new(asked, param_defs[i].name, param_json(&r->asked, i));
	for (i = 0; i < NR_PARAMS; i++)
		if (scenario_reads(r->sc, (enum param_id)i))
			json_object_set_new(params, param_defs[i].name, param_json(&r->params, i));
	for (m = r->sc->metrics; *m != NR_METRICS; m++)
		json_object_set_new(metrics, metric_defs[*m].name,
				    isnan(r->metrics.v[*m]) ? json_null() :
				    json_real(r->metrics.v[*m]));
	json_object_set_new(obj, "set", asked);
	json_object_set_new(obj, "params", params);
	json_object_set_new(obj, "metrics", metrics);
	return obj;
}

int report_json(const char *path, const struct records *rs, char *err, size_t errlen)
{
	json_t *arr = json_array();
	size_t k;
	int ret;

	for (k = 0; k < rs->len; k++)
		json_array_append_new(arr, record_json(&rs->r[k]));
	ret = json_dump_file(arr, path, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	json_decref(arr);
	if (ret) {
		snprintf(err, errlen, "cannot write %s", path);
		return -1;
	}
	return 0;
}

int report_csv(const char *path, const struct records *rs, char *err, size_t errlen)
{
	FILE *f = fopen(path, "w");
	const enum metric_id *m;
	char buf[64];
	size_t k;
	int i;

	if (!f) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	fprintf(f, "scenario,policy,seed,pair");
	/* One scenario per file: its parameters and metrics are the columns. */
	for (i = 0; rs->len && i < NR_PARAMS; i++)
		if (scenario_reads(rs->r[0].sc, (enum param_id)i))
			fprintf(f, ",%s", param_defs[i].name);
	for (m = rs->len ? rs->r[0].sc->metrics : NULL; m && *m != NR_METRICS; m++)
		fprintf(f, ",%s", metric_defs[*m].name);
	fprintf(f, "\n");
	for (k = 0; k < rs->len; k++) {
		const struct run_record *r = &rs->r[k];

		/* Names are fixed identifiers without commas or quotes. */
		fprintf(f, "%s,%s,%llu,%u", r->sc->name, r->policy,
			(unsigned long long)r->seed, r->pair);
		for (i = 0; i < NR_PARAMS; i++) {
			if (!scenario_reads(r->sc, (enum param_id)i))
				continue;
			param_format((enum param_id)i, r->params.v[i], buf, sizeof(buf));
			fprintf(f, ",%s", buf);
		}
		/* An undefined ratio is an empty field. */
		for (m = r->sc->metrics; *m != NR_METRICS; m++)
			if (isnan(r->metrics.v[*m]))
				fprintf(f, ",");
			else
				fprintf(f, ",%.10g", r->metrics.v[*m]);
		fprintf(f, "\n");
	}
	if (fclose(f)) {
		snprintf(err, errlen, "cannot write %s", path);
		return -1;
	}
	return 0;
}

int params_set_json(struct params *p, const char *key, json_t *v, char *err,
		    size_t errlen)
{
	char kv[160];

	if (json_is_string(v))
		snprintf(kv, sizeof(kv), "%s=%s", key, json_string_value(v));
	else if (json_is_number(v))
		snprintf(kv, sizeof(kv), "%s=%.17g", key, json_number_value(v));
	else
		snprintf(kv, sizeof(kv), "%s=?", key);
	return params_set(p, kv, err, errlen);
}
