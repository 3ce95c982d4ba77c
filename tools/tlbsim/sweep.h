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
struct scenario;

/* Parses "key=v1,v2,...", checks every value against the parameter and
 * the scenario, and refuses two values that run the same model. */
int sweep_parse(const struct scenario *sc, const char *vary, const struct params *base,
		struct sweep_spec *sw, char *err, size_t errlen);
int sweep_run(const struct options *o, const struct sweep_spec *sw);

#define SWEEP_MAX_METRICS 8
/* Parses "m1,m2,..." into metric ids (@ids may be NULL to only check);
 * returns the number of metrics, or 0 after a one-line error (unknown,
 * or not reported by @sc). */
unsigned int sweep_metric_ids(const struct scenario *sc, const char *list, int *ids);

#endif
