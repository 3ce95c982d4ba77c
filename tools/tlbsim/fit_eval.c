// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Evaluating parameter sets for a fit. Every set runs on the same seeds
 * (common random numbers): the objective is then a deterministic function
 * of the parameters, and two sets differ only by what the parameters do,
 * not by the luck of their draws. A batch of sets runs as one plan, so
 * the workers take its runs in parallel.
 */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "diag.h"
#include "fit.h"
#include "grow.h"
#include "options.h"
#include "runner.h"

void fit_history_free(struct fit_history *h)
{
	free(h->p);
	memset(h, 0, sizeof(*h));
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A fit runs for minutes: a line on stderr every second on a terminal (in
 * place), every ten seconds in a log; never on stdout. */
static void progress(struct fit_ctx *c)
{
	bool tty = isatty(STDERR_FILENO);
	double now = now_s();

	if (now - c->shown < (tty ? 1 : 10))
		return;
	c->shown = now;
	fprintf(stderr, "%sfit: %zu sets evaluated (%s), best objective %.4g, %.0f s elapsed%s",
		tty ? "\r\033[K" : "tlbsim: ", c->h.len, c->phase, c->h.p[c->best].obj,
		now - c->t0, tty ? "" : "\n");
}

/*
 * FIT.json records values to 10 significant digits: a set is run at
 * exactly the value its record will read back as, so that compare --fit
 * reruns the very sets the fit evaluated.
 */
static void round_point(const struct fit_ctx *c, const double *in, double *out)
{
	char buf[32];
	unsigned int k;

	memset(out, 0, FIT_MAX_FREE * sizeof(*out));
	for (k = 0; k < c->nfree; k++) {
		snprintf(buf, sizeof(buf), "%.10g", in[k]);
		out[k] = strtod(buf, NULL);
	}
}

static bool same_point(const struct fit_ctx *c, const double *a, const double *b)
{
	unsigned int k;

	for (k = 0; k < c->nfree; k++)
		if (a[k] != b[k])
			return false;
	return true;
}

static ssize_t find(const struct fit_ctx *c, const double *x)
{
	size_t k;

	for (k = 0; k < c->h.len; k++)
		if (same_point(c, c->h.p[k].x, x))
			return (ssize_t)k;
	return -1;
}

static int plan_point(const struct fit_ctx *c, const double *x, struct plan *pl)
{
	unsigned int s, k;

	for (s = 0; s < c->seeds; s++) {
		struct run_task t = { .policy = c->policy, .seed = c->o->seed + s,
				      .params = c->o->params };

		for (k = 0; k < c->nfree; k++) {
			t.params.v[c->free[k].id] = x[k];
			t.params.set[c->free[k].id] = true;
		}
		snprintf(t.label, sizeof(t.label), "%s, seed %" PRIu64, t.policy, t.seed);
		if (plan_add(pl, &t))
			return fail("out of memory");
	}
	return 0;
}

/* The point's targets, the mean of its seeds' runs at @rs[first..]. */
static void score(struct fit_ctx *c, const struct records *rs, size_t first,
		  struct fit_point *p)
{
	unsigned int k, s;

	for (k = 0; k < c->tg.n; k++) {
		double sum = 0;

		for (s = 0; s < c->seeds; s++)
			sum += rs->r[first + s].metrics.v[c->tg.t[k].id];
		p->value[k] = sum / c->seeds;
	}
	p->obj = fit_objective(&c->tg, p->value, p->resid);
}

int fit_eval(struct fit_ctx *c, const double (*x)[FIT_MAX_FREE], size_t n, size_t *idx)
{
	struct plan pl = { 0 };
	struct records rs = { 0 };
	size_t k, fresh = 0, start = c->h.len;
	int ret = 0;

	/* New sets, once each, are appended in order; known ones are looked up. */
	for (k = 0; k < n && !ret; k++) {
		double xr[FIT_MAX_FREE];
		ssize_t at;
		void *arr = c->h.p;

		round_point(c, x[k], xr);
		at = find(c, xr);

		if (at >= 0) {
			idx[k] = (size_t)at;
			continue;
		}
		if (grow_for_one(&arr, &c->h.cap, c->h.len, sizeof(*c->h.p), 64)) {
			ret = fail("out of memory");
			break;
		}
		c->h.p = arr;
		memset(&c->h.p[c->h.len], 0, sizeof(c->h.p[0]));
		memcpy(c->h.p[c->h.len].x, xr, sizeof(xr));
		idx[k] = c->h.len++;
		ret = plan_point(c, xr, &pl);
	}
	if (!ret && pl.len)
		ret = runner_execute(c->o, &pl, &rs);
	for (k = 0; !ret && k < c->h.len - start; k++) {
		score(c, &rs, k * c->seeds, &c->h.p[start + k]);
		if (!start && !k)
			c->best = start;
		else if (c->h.p[start + k].obj < c->h.p[c->best].obj)
			c->best = start + k;
		fresh++;
	}
	if (ret)
		c->h.len = start; /* no half-scored sets */
	else if (fresh)
		progress(c);
	plan_free(&pl);
	records_free(&rs);
	return ret ? 1 : 0;
}
