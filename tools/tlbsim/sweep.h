/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* tlbsim sweep: one parameter over a list of values, every policy at each. */
#ifndef TLBSIM_SWEEP_H
#define TLBSIM_SWEEP_H

#include <stddef.h>
#include "params.h"

#define SWEEP_MAX_VALUES 64

struct sweep_spec {
	int param;
	unsigned int nr_values;
	double values[SWEEP_MAX_VALUES];    /* as requested */
	double effective[SWEEP_MAX_VALUES]; /* as run: scaled and clamped */
	char text[SWEEP_MAX_VALUES][32];    /* the effective value, printed */
};

struct options;
struct records;
struct scenario;

/* Parses "key=v1,v2,...", checks every value against the parameter and
 * the scenario, and refuses two values that run the same model; 0, or 2
 * after a one-line error. */
int sweep_parse(const struct scenario *sc, const char *vary, const struct params *base,
		struct sweep_spec *sw);
/* Runs the sweep, then sweep_report(). */
int sweep_run(const struct options *o, const struct sweep_spec *sw);
/* The machine line, a table per metric, --json/--csv and the plots of
 * @rs, the records of @sw's points (from sweep_run() or merge). */
int sweep_report(const struct options *o, const struct sweep_spec *sw,
		 const struct records *rs);
/* --emit-jobs: one 'tlbsim run' command per point instead of the runs. */
int sweep_emit_jobs(const struct options *o, const struct sweep_spec *sw);

#endif
