// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "report.h"
#include "scenario.h"

int records_add(struct records *rs, const struct run_record *r)
{
	if (rs->len == rs->cap) {
		size_t cap = rs->cap ? 2 * rs->cap : 16;
		struct run_record *grown = realloc(rs->r, cap * sizeof(*grown));

		if (!grown)
			return -1;
		rs->r = grown;
		rs->cap = cap;
	}
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
		fprintf(out, " (scale %g)\n", eff->v[P_SCALE]);
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
 * The patches' layout: one column per policy, the mean over the A/B pairs
 * with its range when there are several, and each later policy's change
 * against the first column.
 */
void report_compare(FILE *out, const struct records *rs, const char *const *policies,
		    unsigned int nr_policies)
{
	unsigned int p;
	int m;

	fprintf(out, "%-40s", "metric");
	for (p = 0; p < nr_policies; p++)
		fprintf(out, " %32s", policies[p]);
	fprintf(out, "\n");
	for (m = 0; m < NR_METRICS; m++) {
		double base = 0, lo, hi;

		if (!scenario_reports(rs->r[0].sc, (enum metric_id)m))
			continue;
		fprintf(out, "%-40s", metric_defs[m].name);
		for (p = 0; p < nr_policies; p++) {
			char mean_s[32], a[32], b[32], cell[160];
			double mean;
			unsigned int n = over_pairs(rs, policies[p], m, &mean, &lo, &hi);
			int len;

			if (!n) {
				fprintf(out, " %32s", "-");
				continue;
			}
			fmt_value(mean_s, sizeof(mean_s), mean);
			len = snprintf(cell, sizeof(cell), "%s", mean_s);
			if (n > 1 && lo != hi) {
				fmt_value(a, sizeof(a), lo);
				fmt_value(b, sizeof(b), hi);
				len += snprintf(cell + len, sizeof(cell) - (size_t)len,
						" [%s..%s]", a, b);
			}
			if (!p)
				base = mean;
			else if (base != 0 && m != M_WALL_SECONDS && m != M_SIM_EVENTS)
				snprintf(cell + len, sizeof(cell) - (size_t)len, " (%+.1f%%)",
					 100.0 * (mean - base) / fabs(base));
			fprintf(out, " %32s", cell);
		}
		fprintf(out, "\n");
	}
}

static json_t *record_json(const struct run_record *r)
{
	json_t *obj = json_object(), *params = json_object(), *metrics = json_object();
	const enum metric_id *m;
	char buf[64];
	int i;

	json_object_set_new(obj, "scenario", json_string(r->sc->name));
	json_object_set_new(obj, "policy", json_string(r->policy));
	json_object_set_new(obj, "seed", json_integer((json_int_t)r->seed));
	json_object_set_new(obj, "pair", json_integer(r->pair));
	for (i = 0; i < NR_PARAMS; i++) {
		if (!scenario_reads(r->sc, (enum param_id)i))
			continue;
		if (param_defs[i].choices) {
			param_format((enum param_id)i, r->params.v[i], buf, sizeof(buf));
			json_object_set_new(params, param_defs[i].name, json_string(buf));
		} else {
			json_object_set_new(params, param_defs[i].name, json_real(r->params.v[i]));
		}
	}
	for (m = r->sc->metrics; *m != NR_METRICS; m++)
		json_object_set_new(metrics, metric_defs[*m].name,
				    isnan(r->metrics.v[*m]) ? json_null() :
				    json_real(r->metrics.v[*m]));
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
