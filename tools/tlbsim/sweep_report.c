// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * What a sweep shows once its records exist, whether it ran them itself or
 * merge read them from files: the machine line, a table per metric, the
 * JSON and CSV records, and a plot per metric and file.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "diag.h"
#include "options.h"
#include "outpath.h"
#include "plot.h"
#include "sweep.h"

/* Mean, min and max of @metric over the seeds of (value @v, @policy). */
static void point_stats(const struct records *rs, const struct sweep_spec *sw, unsigned int v,
			const char *policy, int metric, double *mean, double *lo, double *hi)
{
	unsigned int n = 0;
	double sum = 0;
	size_t k;

	*lo = INFINITY;
	*hi = -INFINITY;
	for (k = 0; k < rs->len; k++) {
		const struct run_record *r = &rs->r[k];
		double x = r->metrics.v[metric];

		if (r->params.v[sw->param] != sw->effective[v] || strcmp(r->policy, policy) != 0)
			continue;
		sum += x;
		*lo = x < *lo ? x : *lo;
		*hi = x > *hi ? x : *hi;
		n++;
	}
	*mean = n ? sum / n : NAN;
	if (!n)
		*lo = *hi = NAN;
}

static void print_table(const struct options *o, const struct sweep_spec *sw,
			const struct records *rs, int metric)
{
	double mean, lo, hi;
	unsigned int v, k;

	printf("%s: %s by %s", o->sc->name, metric_defs[metric].name,
	       param_defs[sw->param].name);
	if (o->pairs > 1)
		printf(", mean of seeds %" PRIu64 "..%" PRIu64, o->seed, o->seed + o->pairs - 1);
	printf("\n%-14s", param_defs[sw->param].name);
	for (k = 0; k < o->nr_policies; k++)
		printf(" %22s", o->policies[k]);
	printf("\n");
	for (v = 0; v < sw->nr_values; v++) {
		printf("%-14s", sw->text[v]);
		for (k = 0; k < o->nr_policies; k++) {
			point_stats(rs, sw, v, o->policies[k], metric, &mean, &lo, &hi);
			printf(" %22.6g", mean);
		}
		printf("\n");
	}
}

/* FILE.ext, or FILE-METRIC.ext when one sweep plots several metrics. */
static void plot_name(char *buf, size_t len, const char *file, const char *metric)
{
	const char *dot = strrchr(file, '.');

	if (!metric)
		snprintf(buf, len, "%s", file);
	else
		snprintf(buf, len, "%.*s-%s%s", (int)(dot - file), file, metric, dot);
}

static int plot_metric(const struct options *o, const struct sweep_spec *sw,
		       const struct records *rs, int metric, double *y)
{
	unsigned int n = sw->nr_values, np = o->nr_policies, v, k, f;
	struct plot_series series[MAX_POLICIES];
	char title[160], out[4096 + 64];
	struct plot_spec spec = {
		.title = title, .xlabel = param_defs[sw->param].name,
		.ylabel = metric_defs[metric].name, .nr_x = n, .x = sw->effective,
		.nr_series = np, .series = series, .spread = o->pairs > 1,
	};
	int ret = 0;

	snprintf(title, sizeof(title), "%s: %s%s", o->sc->name, metric_defs[metric].name,
		 o->pairs > 1 ? " (mean, bars: min-max over seeds)" : "");
	for (k = 0; k < np; k++) {
		/* Three rows of n points per policy: mean, min, max. */
		double *mean = y + (size_t)3 * k * n, *lo = mean + n, *hi = lo + n;

		series[k] = (struct plot_series){ o->policies[k], mean, lo, hi };
		for (v = 0; v < n; v++)
			point_stats(rs, sw, v, o->policies[k], metric, mean + v, lo + v, hi + v);
	}
	for (f = 0; f < o->nr_plots && !ret; f++) {
		plot_name(out, sizeof(out), o->plots[f],
			  o->nr_metrics > 1 ? metric_defs[metric].name : NULL);
		ret = plot_write(&spec, out);
	}
	return ret;
}

int sweep_report(const struct options *o, const struct sweep_spec *sw,
		 const struct records *rs)
{
	unsigned int nr_metrics = o->nr_metrics ? o->nr_metrics : 1, m;
	double *y = calloc(3 * (size_t)o->nr_policies * sw->nr_values, sizeof(*y));
	int ret;

	if (!y)
		return fail("out of memory");
	report_machine(stdout, o->sc, &rs->r[0].params);
	for (m = 0; m < nr_metrics; m++) {
		if (m)
			printf("\n");
		print_table(o, sw, rs, o->metrics[m]);
	}
	ret = write_outputs(o, rs);
	for (m = 0; m < nr_metrics && !ret; m++)
		ret = plot_metric(o, sw, rs, o->metrics[m], y);
	free(y);
	return ret;
}
