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
	double values[SWEEP_MAX_VALUES];
	char text[SWEEP_MAX_VALUES][32];
};

struct options;

/* Parses "key=v1,v2,..." and checks every value against the parameter. */
int sweep_parse(const char *vary, const struct params *base, struct sweep_spec *sw,
		char *err, size_t errlen);
int sweep_run(const struct options *o, const struct sweep_spec *sw);

#endif
