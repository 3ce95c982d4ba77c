// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * What the targets constrain, around the best fit: a profile of the
 * objective along each free parameter (the others held at the best), and
 * an ensemble of parameter sets that fit within the tolerance. A fit is
 * only as good as its worst equally good neighbour: predictions are then
 * made over the whole ensemble, not from the best point alone.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "diag.h"
#include "fit.h"
#include "options.h"
#include "rng.h"

/* Separates the sampling stream from the model's seeds. */
#define FIT_SAMPLE_STREAM 0x66697400u

void fit_result_free(struct fit_result *r)
{
	unsigned int k;

	for (k = 0; k < FIT_MAX_FREE; k++) {
		free(r->prof[k].x);
		free(r->prof[k].obj);
	}
	free(r->ensemble);
	memset(r, 0, sizeof(*r));
}

/* @points values of each parameter over its range, the others at @best;
 * evaluated in one batch. */
static int profiles(struct fit_ctx *c, const double *best, double best_obj,
		    unsigned int points, struct fit_result *r)
{
	size_t n = (size_t)c->nfree * points, i, *idx = calloc(n, sizeof(*idx));
	double (*x)[FIT_MAX_FREE] = calloc(n, sizeof(*x));
	unsigned int k, j, m;
	bool placed;
	int ret = 0;

	if (!idx || !x) {
		ret = fail("out of memory");
		goto out;
	}
	for (k = 0, i = 0; k < c->nfree; k++) {
		for (j = 0; j < points; j++, i++) {
			memcpy(x[i], best, sizeof(x[i]));
			x[i][k] = c->free[k].lo + (c->free[k].hi - c->free[k].lo) * j / (points - 1);
		}
	}
	c->phase = "profiles";
	ret = fit_eval(c, x, n, idx);
	for (k = 0, i = 0; !ret && k < c->nfree; k++) {
		struct fit_profile *p = &r->prof[k];

		/* The grid, with the best point in its place. */
		p->x = calloc(points + 1, sizeof(double));
		p->obj = calloc(points + 1, sizeof(double));
		if (!p->x || !p->obj) {
			ret = fail("out of memory");
			break;
		}
		for (j = 0, m = 0, placed = false; j < points; j++, i++) {
			double g = c->h.p[idx[i]].x[k]; /* as evaluated: rounded */

			if (!placed && best[k] <= g) {
				placed = true;
				if (best[k] < g) {
					p->x[m] = best[k];
					p->obj[m++] = best_obj;
				}
			}
			p->x[m] = g;
			p->obj[m++] = c->h.p[idx[i]].obj;
		}
		if (!placed) {
			p->x[m] = best[k];
			p->obj[m++] = best_obj;
		}
		p->n = m;
	}
out:
	free(idx);
	free(x);
	return ret ? 1 : 0;
}

/*
 * Where the objective crosses @limit between the grid point @in (inside)
 * and @out (outside), on a parabola through the best point (@best, @f0)
 * and @out: the objective is a sum of squares, so near its minimum it is
 * quadratic in each parameter. A straight line would put the crossing too
 * close to the best (a convex profile lies below its chord).
 */
static double crossing(double best, double f0, double out, double fout, double limit,
		       double in)
{
	double d = out - best, x;

	if (fout <= f0)
		return out;
	x = best + d * sqrt((limit - f0) / (fout - f0));
	/* Never closer to the best than a grid point known to be inside. */
	return fabs(x - best) < fabs(in - best) ? in : x;
}

/* Where parameter @k's profile stays within @limit: from the best point,
 * each way, to where the objective crosses the limit before the first
 * grid point outside (or to the end of the range). */
static void profile_box(const struct fit_profile *p, double best, double f0, double limit,
			double *lo, double *hi)
{
	unsigned int b, j;

	for (b = 0; b < p->n && p->x[b] != best; b++)
		;
	if (b == p->n) { /* cannot happen: profiles() placed it */
		*lo = *hi = best;
		return;
	}
	for (j = b; j > 0 && p->obj[j - 1] <= limit; j--)
		;
	*lo = j > 0 ? crossing(best, f0, p->x[j - 1], p->obj[j - 1], limit, p->x[j]) : p->x[0];
	for (j = b; j + 1 < p->n && p->obj[j + 1] <= limit; j++)
		;
	*hi = j + 1 < p->n ? crossing(best, f0, p->x[j + 1], p->obj[j + 1], limit, p->x[j]) :
		p->x[p->n - 1];
}

static int samples_around(struct fit_ctx *c, const struct fit_result *r, const double *best,
			  double best_obj, double limit, unsigned int samples)
{
	double lo[FIT_MAX_FREE] = { 0 }, hi[FIT_MAX_FREE] = { 0 };
	double (*x)[FIT_MAX_FREE] = calloc(samples, sizeof(*x));
	size_t *idx = calloc(samples, sizeof(*idx));
	struct rng rng;
	unsigned int k, j;
	int ret;

	if (!x || !idx) {
		free(x);
		free(idx);
		return fail("out of memory");
	}
	for (k = 0; k < c->nfree; k++)
		profile_box(&r->prof[k], best[k], best_obj, limit, &lo[k], &hi[k]);
	rng_seed(&rng, c->o->seed ^ FIT_SAMPLE_STREAM);
	for (j = 0; j < samples; j++)
		for (k = 0; k < c->nfree; k++)
			x[j][k] = lo[k] + (hi[k] - lo[k]) * rng_unit(&rng);
	c->phase = "ensemble samples";
	ret = fit_eval(c, x, samples, idx);
	free(x);
	free(idx);
	return ret;
}

/* The ensemble's indices, best first: an insertion sort, as qsort() has
 * no context pointer and the ensemble is a few hundred sets at most. */
static void sort_by_objective(const struct fit_history *h, size_t *idx, size_t n)
{
	size_t i, j, v;

	for (i = 1; i < n; i++) {
		v = idx[i];
		for (j = i; j > 0 && h->p[idx[j - 1]].obj > h->p[v].obj; j--)
			idx[j] = idx[j - 1];
		idx[j] = v;
	}
}

int fit_ensemble(struct fit_ctx *c, unsigned int points, unsigned int samples,
		 double tolerance, struct fit_result *r)
{
	double best[FIT_MAX_FREE], best_obj = c->h.p[c->best].obj;
	size_t k;
	int ret;

	memset(r, 0, sizeof(*r));
	r->margin = fit_margin(tolerance);
	memcpy(best, c->h.p[c->best].x, sizeof(best));
	ret = profiles(c, best, best_obj, points, r);
	if (!ret && samples)
		ret = samples_around(c, r, best, best_obj, best_obj + r->margin, samples);
	if (ret)
		return ret;
	r->ensemble = calloc(c->h.len, sizeof(*r->ensemble));
	if (!r->ensemble)
		return fail("out of memory");
	/* Against the best of everything evaluated, which a profile or a
	 * sample may have improved on. */
	for (k = 0; k < c->h.len; k++)
		if (c->h.p[k].obj <= c->h.p[c->best].obj + r->margin)
			r->ensemble[r->nr_ensemble++] = k;
	sort_by_objective(&c->h, r->ensemble, r->nr_ensemble);
	return 0;
}
