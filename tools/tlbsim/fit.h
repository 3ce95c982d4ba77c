/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * tlbsim fit: the free parameters of a calibration, the targets it fits
 * them to, and the parameter sets it has evaluated. The files fit_*.c each
 * do one step: parse (fit_free.c, fit_targets.c), evaluate (fit_eval.c),
 * search (fit_search.c), map the fit's neighbourhood (fit_ensemble.c),
 * write and read FIT.json (fit_json.c), and use it (fit_compare.c).
 */
#ifndef TLBSIM_FIT_H
#define TLBSIM_FIT_H

#include <stdbool.h>
#include <stddef.h>
#include "metrics.h"
#include "params.h"

struct options;
struct scenario;

/* The calibration rule allows at most three fitted parameters. */
#define FIT_MAX_FREE 3
#define FIT_MAX_TARGETS 16

struct fit_free {
	enum param_id id;
	double lo, hi;
};

/* A target is the range [lo, hi]; a single value has lo == hi. */
struct fit_target {
	enum metric_id id;
	double lo, hi;
};

struct fit_targets {
	unsigned int n;
	struct fit_target t[FIT_MAX_TARGETS];
};

/* One evaluated parameter set: each target's metric is the mean over the
 * fit's seeds. */
struct fit_point {
	double x[FIT_MAX_FREE];
	double obj;
	double value[FIT_MAX_TARGETS];
	double resid[FIT_MAX_TARGETS];
};

struct fit_history {
	struct fit_point *p;
	size_t len, cap;
};

struct fit_ctx {
	const struct options *o; /* scenario, --set, --seed, --jobs */
	const char *policy;
	unsigned int nfree;
	struct fit_free free[FIT_MAX_FREE];
	struct fit_targets tg;
	unsigned int seeds;
	struct fit_history h;
	size_t best;             /* index in h of the lowest objective */
	double t0, shown;        /* for progress: start, last line */
	const char *phase;       /* for progress: "global", "local", ... */
};

/*
 * Parses "NAME=LO:HI[,NAME=LO:HI...]" (@spec is modified) into @c->free.
 * Refused: unknown names, a name given twice, a parameter the scenario
 * does not read, that is an integer or a choice, or that --set also sets,
 * LO >= HI, and a range outside the parameter's valid one.
 * 0, or 2 after a one-line error.
 */
int fit_free_parse(struct fit_ctx *c, char *spec);

/*
 * Loads a targets file: a JSON object of metric name -> number, [lo, hi]
 * or {"value": v, "tolerance": t} (the range v(1-t)..v(1+t)); keys that
 * start with '_' are comments (string values). Every metric must be one
 * that @sc reports, every target value positive (residuals are
 * log-ratios). 0, or 2 after a one-line error naming @path.
 */
int fit_targets_load(const char *path, const struct scenario *sc, struct fit_targets *tg);

/* A target's residual for a model value @v: 0 inside its range, else the
 * log-ratio to the nearer end (negative below). */
double fit_residual(const struct fit_target *t, double v);
/* Sum of squared residuals of @values, writing each to @resid. */
double fit_objective(const struct fit_targets *tg, const double *values, double *resid);
/* --tolerance T as an objective margin: ln(1 + T) squared. */
double fit_margin(double tolerance);

/*
 * Evaluates @n parameter sets (values of the free parameters, in
 * @c->free's order) in one batch over the workers, appending new ones to
 * @c->h (a set evaluated before is not run again) and writing their
 * indices to @idx. 0, or 1 after a failed run's message.
 */
int fit_eval(struct fit_ctx *c, const double (*x)[FIT_MAX_FREE], size_t n, size_t *idx);
void fit_history_free(struct fit_history *h);

/* Global search then local refinement (NLopt) within the free ranges,
 * at most @max_evals evaluations; 0, or 1 after a failed run. */
int fit_search(struct fit_ctx *c, unsigned int max_evals);

struct fit_profile {
	unsigned int n;
	double *x, *obj; /* n points, the parameter's value and the objective */
};

struct fit_result {
	struct fit_profile prof[FIT_MAX_FREE];
	size_t *ensemble; /* indices in the history, best first */
	size_t nr_ensemble;
	double margin;    /* ensemble: objective <= best + margin */
};

/*
 * Profiles every free parameter over its range (@points values, the
 * others at the best point), samples @samples sets in the box where the
 * profiles stay within @tolerance of the best, and collects the ensemble:
 * every evaluated set within that margin. 0, or 1 after a failed run.
 */
int fit_ensemble(struct fit_ctx *c, unsigned int points, unsigned int samples,
		 double tolerance, struct fit_result *r);
void fit_result_free(struct fit_result *r);

/* FIT.json; 0, or 2 after a one-line error. */
int fit_json_write(const char *path, const struct fit_ctx *c, const struct fit_result *r,
		   double tolerance);

/* What compare --fit needs from a FIT.json. */
struct fit_file {
	unsigned int nfree;
	enum param_id free[FIT_MAX_FREE];
	struct params set;  /* the fit's --set values */
	size_t n;           /* ensemble members */
	double (*x)[FIT_MAX_FREE];
};

/* Reads @path, refusing a fit of another scenario than @sc's; 0, or 2
 * after a one-line error. */
int fit_json_read(const char *path, const struct scenario *sc, struct fit_file *f);
void fit_file_free(struct fit_file *f);

/* tlbsim fit, and compare --fit: exit status. */
int fit_main(struct options *o);
int fit_compare_main(struct options *o);

#endif
