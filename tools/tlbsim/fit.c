// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * tlbsim fit: search, profiles, ensemble, then the summary on stdout and
 * FIT.json. The steps live in fit_*.c; this file runs them in order and
 * prints what they found.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "diag.h"
#include "fit.h"
#include "options.h"
#include "report.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void print_target(char *buf, size_t len, const struct fit_target *t)
{
	if (t->lo == t->hi)
		snprintf(buf, len, "%.4g", t->lo);
	else
		snprintf(buf, len, "%.4g..%.4g", t->lo, t->hi);
}

static void print_residuals(const struct fit_ctx *c, const struct fit_point *p)
{
	char tg[48];
	unsigned int k;

	printf("%-40s  %16s  %12s  %9s\n", "metric", "target", "model", "residual");
	for (k = 0; k < c->tg.n; k++) {
		print_target(tg, sizeof(tg), &c->tg.t[k]);
		printf("%-40s  %16s  %12.4g  %+9.4f\n", metric_defs[c->tg.t[k].id].name, tg,
		       p->value[k], p->resid[k]);
	}
}

static void print_profiles(const struct fit_ctx *c, const struct fit_result *r)
{
	unsigned int k, j;
	double limit = c->h.p[c->best].obj + r->margin;

	for (k = 0; k < c->nfree; k++) {
		printf("profile of %s (the others at the best; * within the tolerance):\n",
		       param_defs[c->free[k].id].name);
		for (j = 0; j < r->prof[k].n; j++)
			printf("  %c %14.6g  %12.4g\n", r->prof[k].obj[j] <= limit ? '*' : ' ',
			       r->prof[k].x[j], r->prof[k].obj[j]);
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Each free parameter's median [min, max] over the ensemble. */
static int print_ensemble(const struct fit_ctx *c, const struct fit_result *r, double tol)
{
	double *v = calloc(r->nr_ensemble, sizeof(*v));
	unsigned int k;
	size_t i, n = r->nr_ensemble;

	if (!v)
		return fail("out of memory");
	printf("ensemble: %zu of %zu sets evaluated fit within the tolerance %g "
	       "(objective <= %.4g)\n", n, c->h.len, tol, c->h.p[c->best].obj + r->margin);
	for (k = 0; k < c->nfree; k++) {
		for (i = 0; i < n; i++)
			v[i] = c->h.p[r->ensemble[i]].x[k];
		qsort(v, n, sizeof(*v), cmp_double);
		printf("  %-38s  %12.6g [%.6g, %.6g]  (range %g..%g)\n",
		       param_defs[c->free[k].id].name,
		       n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2, v[0], v[n - 1],
		       c->free[k].lo, c->free[k].hi);
	}
	free(v);
	return 0;
}

static int print_summary(const struct fit_ctx *c, const struct fit_result *r, double tol,
			 double elapsed)
{
	const struct fit_point *best = &c->h.p[c->best];
	struct params p = c->o->params, eff;
	unsigned int k;

	for (k = 0; k < c->nfree; k++)
		p.v[c->free[k].id] = best->x[k];
	scenario_params(c->o->sc, &p, &eff);
	printf("fit %s, policy %s: %u free parameter%s, %u targets, seeds %" PRIu64 "..%" PRIu64
	       ", %zu sets evaluated in %.0f s\n", c->o->sc->name, c->policy, c->nfree,
	       c->nfree > 1 ? "s" : "", c->tg.n, c->o->seed, c->o->seed + c->seeds - 1,
	       c->h.len, elapsed);
	report_machine(stdout, c->o->sc, &eff);
	printf("best: objective %.4g at", best->obj);
	for (k = 0; k < c->nfree; k++)
		printf("%s %s=%.6g", k ? "," : "", param_defs[c->free[k].id].name, best->x[k]);
	printf("\n");
	print_residuals(c, best);
	print_profiles(c, r);
	return print_ensemble(c, r, tol);
}

int fit_main(struct options *o)
{
	struct fit_ctx c = { .o = o, .seeds = o->fit_seeds };
	struct fit_result r = { 0 };
	char *spec = strdup(o->fit_free);
	int ret;

	c.policy = o->policy ? o->policy : o->sc->default_policy;
	if (!spec)
		return fail("out of memory");
	/* The targets first: a file that does not parse is the likelier error. */
	ret = fit_targets_load(o->fit_targets, o->sc, &c.tg) || fit_free_parse(&c, spec);
	free(spec);
	if (ret)
		return 2;
	/* The fit reports its own progress, one line per batch of runs. */
	o->quiet = true;
	c.t0 = c.shown = now_s();
	ret = fit_search(&c, o->fit_max_evals);
	if (!ret)
		ret = fit_ensemble(&c, o->fit_profile_points, o->fit_samples, o->fit_tolerance, &r);
	if (!ret) {
		if (isatty(STDERR_FILENO))
			fprintf(stderr, "\r\033[K"); /* the progress line */
		ret = print_summary(&c, &r, o->fit_tolerance, now_s() - c.t0);
		if (!ret && o->fit_out)
			ret = fit_json_write(o->fit_out, &c, &r, o->fit_tolerance);
	}
	fit_result_free(&r);
	fit_history_free(&c.h);
	return ret;
}
