// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The search for the best parameter set, by NLopt: a global pass that
 * cannot be trapped by the first valley it finds (DIRECT-L, which divides
 * the box and needs no starting point), then a local refinement from its
 * best point (Subplex: derivative-free, and robust to an objective that is
 * deterministic under common random numbers yet jagged at small scales,
 * where a quadratic model such as BOBYQA's is misled). Both work in the
 * unit cube, so that every parameter's range weighs the same.
 */
#include <math.h>
#include <nlopt.h>
#include "diag.h"
#include "fit.h"

/* The global pass's share of the evaluations; the rest refine. */
#define FIT_GLOBAL_SHARE 0.6
/* The local pass's first step and resolution, in units of each range. */
#define FIT_LOCAL_STEP 0.05
#define FIT_LOCAL_XTOL 1e-3

struct search {
	struct fit_ctx *c;
	nlopt_opt opt;
	int err;
};

static void to_params(const struct fit_ctx *c, const double *u, double *x)
{
	unsigned int k;

	for (k = 0; k < FIT_MAX_FREE; k++) {
		double v = k < c->nfree ? u[k] : 0;

		v = v < 0 ? 0 : v > 1 ? 1 : v;
		x[k] = k < c->nfree ? c->free[k].lo + v * (c->free[k].hi - c->free[k].lo) : 0;
	}
}

static double objective(unsigned int n, const double *u, double *grad, void *data)
{
	struct search *s = data;
	double x[1][FIT_MAX_FREE];
	size_t idx;

	(void)n;
	(void)grad; /* derivative-free methods pass NULL */
	to_params(s->c, u, x[0]);
	if (fit_eval(s->c, x, 1, &idx)) {
		s->err = 1;
		nlopt_force_stop(s->opt);
		return HUGE_VAL;
	}
	return s->c->h.p[idx].obj;
}

/* One NLopt pass of @algo from @u (updated to its best); 0, 1 after a
 * failed run, 2 after NLopt refused the problem. */
static int pass(struct fit_ctx *c, nlopt_algorithm algo, unsigned int evals, double *u)
{
	struct search s = { .c = c };
	double lb[FIT_MAX_FREE] = { 0 }, ub[FIT_MAX_FREE] = { 1, 1, 1 }, f;
	nlopt_result res;

	s.opt = nlopt_create(algo, c->nfree);
	if (!s.opt)
		return fail("NLopt: cannot create %s", nlopt_algorithm_name(algo));
	nlopt_set_lower_bounds(s.opt, lb);
	nlopt_set_upper_bounds(s.opt, ub);
	nlopt_set_min_objective(s.opt, objective, &s);
	nlopt_set_maxeval(s.opt, (int)evals);
	/* All targets inside their ranges: nothing to improve. */
	nlopt_set_stopval(s.opt, 0);
	if (algo != NLOPT_GN_DIRECT_L) {
		nlopt_set_initial_step1(s.opt, FIT_LOCAL_STEP);
		nlopt_set_xtol_abs1(s.opt, FIT_LOCAL_XTOL);
	}
	res = nlopt_optimize(s.opt, u, &f);
	nlopt_destroy(s.opt);
	if (s.err)
		return 1;
	if (res < 0 && res != NLOPT_ROUNDOFF_LIMITED)
		return fail("NLopt %s failed: %s", nlopt_algorithm_name(algo),
			    nlopt_result_to_string(res));
	return 0;
}

int fit_search(struct fit_ctx *c, unsigned int max_evals)
{
	unsigned int global = (unsigned int)ceil(max_evals * FIT_GLOBAL_SHARE), k;
	double u[FIT_MAX_FREE] = { 0.5, 0.5, 0.5 };
	int ret;

	c->phase = "global search";
	ret = pass(c, NLOPT_GN_DIRECT_L, global, u);
	if (ret || c->h.len >= max_evals)
		return ret;
	/* From the best set so far, wherever it came from. */
	for (k = 0; k < c->nfree; k++)
		u[k] = (c->h.p[c->best].x[k] - c->free[k].lo) / (c->free[k].hi - c->free[k].lo);
	c->phase = "local search";
	return pass(c, NLOPT_LN_SBPLX, max_evals - (unsigned int)c->h.len, u);
}
