/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * A machine profile: the costs of one real machine, measured on it, each
 * with where it was measured. A scenario that models that machine applies
 * them as its defaults (the user's --set still wins).
 */
#ifndef TLBSIM_PROFILE_H
#define TLBSIM_PROFILE_H

#include "params.h"

struct profile_value {
	enum param_id id; /* NR_PARAMS ends the list */
	double value;
	const char *source;
};

struct profile {
	const char *name;
	const char *help;
	const struct profile_value *values;
};

extern const struct profile profile_testbed;

/* The profile the "profile" parameter's value @index names; NULL for 0
 * ("none") or an index past the list. */
const struct profile *profile_at(unsigned int index);
/* Sets every value of @pr in @p unless the user set it (@pr may be NULL):
 * a profile is the machine, so it overrides a scenario's defaults. */
void profile_apply(const struct profile *pr, struct params *p);
/* Where @pr's value of @id was measured, or NULL if @pr has none. */
const char *profile_source(const struct profile *pr, enum param_id id);

#endif
