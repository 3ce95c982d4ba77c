// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * tlbsim sweep: runs every policy at every value of one parameter, prints
 * a table of the chosen metric, and optionally plots it with gnuplot.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "progress.h"
#include "sweep.h"

/* Fills the effective values, and fails when two values run one model
 * (a scale that rounds them together, a clamp to the CPU count). */
static int sweep_effective(const struct scenario *sc, const struct params *base,
			   struct sweep_spec *sw, const char *const *asked,
			   char *err, size_t errlen)
{
	struct params *eff = calloc(sw->nr_values, sizeof(*eff));
	unsigned int v, w;

	if (!eff) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (v = 0; v < sw->nr_values; v++) {
		struct params p = *base;

		p.v[sw->param] = sw->values[v];
		p.set[sw->param] = true;
		scenario_params(sc, &p, &eff[v]);
		sw->effective[v] = eff[v].v[sw->param];
		param_format((enum param_id)sw->param, sw->effective[v], sw->text[v],
			     sizeof(sw->text[v]));
		for (w = 0; w < v; w++) {
			if (memcmp(eff[w].v, eff[v].v, sizeof(eff[v].v)) != 0)
				continue;
			snprintf(err, errlen, "--vary %s: %s and %s run the same model "
				 "(%s=%s once scaled and clamped); pick values further apart",
				 param_defs[sw->param].name, asked[w], asked[v],
				 param_defs[sw->param].name, sw->text[v]);
			free(eff);
			return -1;
		}
	}
	free(eff);
	return 0;
}

int sweep_parse(const struct scenario *sc, const char *vary, const struct params *base,
		struct sweep_spec *sw, char *err, size_t errlen)
{
	char asked[SWEEP_MAX_VALUES][32];
	const char *asked_p[SWEEP_MAX_VALUES];
	const char *eq = strchr(vary, '=');
	char name[64], kv[128], *list, *tok, *save = NULL;
	struct params probe = *base;

	if (!eq || eq == vary || (size_t)(eq - vary) >= sizeof(name)) {
		snprintf(err, errlen, "--vary expects key=v1,v2,..., got '%s'", vary);
		return -1;
	}
	memcpy(name, vary, (size_t)(eq - vary));
	name[eq - vary] = '\0';
	sw->param = param_lookup(name);
	if (sw->param < 0) {
		snprintf(err, errlen, "unknown parameter '%s' (see 'tlbsim list')", name);
		return -1;
	}
	if (scenario_check_reads(sc, name, err, errlen))
		return -1;
	list = strdup(eq + 1);
	if (!list) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	sw->nr_values = 0;
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (sw->nr_values == SWEEP_MAX_VALUES) {
			snprintf(err, errlen, "--vary takes at most %d values", SWEEP_MAX_VALUES);
			free(list);
			return -1;
		}
		snprintf(kv, sizeof(kv), "%s=%s", name, tok);
		if (params_set(&probe, kv, err, errlen)) {
			free(list);
			return -1;
		}
		sw->values[sw->nr_values] = probe.v[sw->param];
		snprintf(asked[sw->nr_values], sizeof(asked[0]), "%s", tok);
		asked_p[sw->nr_values] = asked[sw->nr_values];
		sw->nr_values++;
	}
	free(list);
	if (!sw->nr_values) {
		snprintf(err, errlen, "--vary %s= has no values", name);
		return -1;
	}
	return sweep_effective(sc, base, sw, asked_p, err, errlen);
}

/*
 * The next item of a comma-separated list: copies it into @buf and moves
 * *@p past it. Returns 1 for an item, 0 at the end of the list, -1 for an
 * empty item (a trailing comma too) or one longer than @size allows.
 */
static int list_next(const char **p, char *buf, size_t size)
{
	const char *item = *p;
	size_t len;

	if (!item)
		return 0;
	len = strcspn(item, ",");
	*p = item[len] == ',' ? item + len + 1 : NULL;
	if (!len || len >= size)
		return -1;
	memcpy(buf, item, len);
	buf[len] = '\0';
	return 1;
}

unsigned int sweep_metric_ids(const struct scenario *sc, const char *list, int *ids)
{
	const char *p = list;
	unsigned int n = 0;
	char name[64];
	int more, id;

	while ((more = list_next(&p, name, sizeof(name))) > 0) {
		id = metric_lookup(name);
		if (id < 0) {
			fail("unknown metric '%s' (see 'tlbsim list metrics')", name);
			return 0;
		}
		if (!scenario_reports(sc, (enum metric_id)id)) {
			fail("%s does not report %s (see 'tlbsim list %s')", sc->name, name,
			     sc->name);
			return 0;
		}
		if (n == SWEEP_MAX_METRICS) {
			fail("--metric takes at most %d metrics", SWEEP_MAX_METRICS);
			return 0;
		}
		if (ids)
			ids[n] = id;
		n++;
	}
	if (more < 0) {
		fail("bad --metric list '%s'", list);
		return 0;
	}
	return n;
}

/* FILE.ext, or FILE-METRIC.ext when one sweep plots several metrics. */
static void plot_name(char *buf, size_t len, const char *file, const char *metric)
{
	const char *dot = strrchr(file, '.');

	if (!metric)
		snprintf(buf, len, "%s", file);
	else if (!dot)
		snprintf(buf, len, "%s-%s", file, metric);
	else
		snprintf(buf, len, "%.*s-%s%s", (int)(dot - file), file, metric, dot);
}

static int plot(const struct options *o, const char *file, const struct sweep_spec *sw,
		const struct records *rs, int metric)
{
	const char *ext = strrchr(file, '.');
	/* noenhanced: metric names have underscores, not subscripts. */
	const char *term = ext && !strcmp(ext, ".svg") ? "svg size 800,500 noenhanced" :
			   "pngcairo size 800,500 noenhanced";
	double lo = sw->effective[0], hi = sw->effective[0];
	char data[] = "/tmp/tlbsim-sweep-XXXXXX";
	unsigned int k, v;
	FILE *f, *gp;
	int fd, status;

	if (!ext || (strcmp(ext, ".png") != 0 && strcmp(ext, ".svg") != 0))
		return fail("--plot needs a .png or .svg file name");
	fd = mkstemp(data);
	if (fd < 0 || !(f = fdopen(fd, "w")))
		return fail("cannot create a temporary file for gnuplot");
	for (k = 0; k < o->nr_policies; k++) {
		fprintf(f, "# %s\n", o->policies[k]);
		for (v = 0; v < sw->nr_values; v++)
			fprintf(f, "%.10g %.10g\n", sw->effective[v],
				rs->r[v * o->nr_policies + k].metrics.v[metric]);
		fprintf(f, "\n\n");
	}
	fclose(f);
	gp = popen("gnuplot 2>/dev/null", "w");
	if (!gp) {
		remove(data);
		return fail("cannot run gnuplot (install gnuplot-nox)");
	}
	fprintf(gp, "set terminal %s\nset output '%s'\n", term, file);
	fprintf(gp, "set title '%s: %s'\nset xlabel '%s'\nset ylabel '%s'\n",
		o->sc->name, metric_defs[metric].name, param_defs[sw->param].name,
		metric_defs[metric].name);
	for (v = 1; v < sw->nr_values; v++) {
		lo = sw->effective[v] < lo ? sw->effective[v] : lo;
		hi = sw->effective[v] > hi ? sw->effective[v] : hi;
	}
	/* Values spanning more than a decade (CPU counts, threads) read
	 * better on a base-2 axis. */
	if (lo > 0 && hi >= 16 * lo)
		fprintf(gp, "set logscale x 2\n");
	fprintf(gp, "set key outside\nset grid\nplot ");
	for (k = 0; k < o->nr_policies; k++)
		fprintf(gp, "%s'%s' index %u with linespoints title '%s'",
			k ? ", " : "", data, k, o->policies[k]);
	fprintf(gp, "\n");
	status = pclose(gp);
	remove(data);
	if (status != 0)
		return fail("gnuplot failed (is gnuplot-nox installed?)");
	return 0;
}

static void print_table(const struct options *o, const struct sweep_spec *sw,
			const struct records *rs, int metric)
{
	unsigned int v, k;

	printf("%s: %s by %s\n%-14s", o->sc->name, metric_defs[metric].name,
	       param_defs[sw->param].name, param_defs[sw->param].name);
	for (k = 0; k < o->nr_policies; k++)
		printf(" %22s", o->policies[k]);
	printf("\n");
	for (v = 0; v < sw->nr_values; v++) {
		printf("%-14s", sw->text[v]);
		for (k = 0; k < o->nr_policies; k++)
			printf(" %22.6g", rs->r[v * o->nr_policies + k].metrics.v[metric]);
		printf("\n");
	}
}

/* Every plot file (comma-separated) for every metric. */
static int plot_all(const struct options *o, const struct sweep_spec *sw,
		    const struct records *rs, const int *metrics, unsigned int nr_metrics)
{
	const char *p = o->plot;
	char file[4096], out[4096 + 64];
	unsigned int m;
	int ret = 0;

	/* sweep_run() checked the list before the runs. */
	while (!ret && list_next(&p, file, sizeof(file)) > 0) {
		for (m = 0; m < nr_metrics && !ret; m++) {
			plot_name(out, sizeof(out), file,
				  nr_metrics > 1 ? metric_defs[metrics[m]].name : NULL);
			ret = plot(o, out, sw, rs, metrics[m]);
		}
	}
	return ret;
}

int sweep_run(const struct options *o, const struct sweep_spec *sw)
{
	int metrics[SWEEP_MAX_METRICS] = { o->sc->metrics[0] };
	unsigned int nr_metrics = o->metric ? sweep_metric_ids(o->sc, o->metric, metrics) : 1;
	unsigned int v, k, m;
	struct records rs = { 0 };
	struct progress pg;
	char label[96];
	int ret = 0;

	if (!nr_metrics)
		return 2;
	if (o->plot) { /* a bad file list fails now, not after the runs */
		const char *p = o->plot;
		char file[4096];
		int more;

		while ((more = list_next(&p, file, sizeof(file))) > 0)
			;
		if (more < 0)
			return fail("bad --plot list '%s'", o->plot);
	}
	progress_start(&pg, sw->nr_values * o->nr_policies);
	for (v = 0; v < sw->nr_values && !ret; v++) {
		struct params p = o->params;

		p.v[sw->param] = sw->values[v];
		p.set[sw->param] = true;
		for (k = 0; k < o->nr_policies && !ret; k++) {
			ret = cli_run_one(o, o->policies[k], o->seed, 0, &p, &rs);
			snprintf(label, sizeof(label), "%s=%s, %s", param_defs[sw->param].name,
				 sw->text[v], o->policies[k]);
			progress_step(&pg, label);
		}
	}
	progress_end(&pg);
	if (ret)
		goto out;
	report_machine(stdout, o->sc, &rs.r[0].params);
	for (m = 0; m < nr_metrics; m++) {
		if (m)
			printf("\n");
		print_table(o, sw, &rs, metrics[m]);
	}
	ret = write_outputs(o, &rs);
	if (!ret && o->plot)
		ret = plot_all(o, sw, &rs, metrics, nr_metrics);
out:
	records_free(&rs);
	return ret;
}
