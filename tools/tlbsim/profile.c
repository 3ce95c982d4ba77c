// SPDX-License-Identifier: GPL-2.0-only OR MIT
/* Applying a machine profile (profile.h). */
#include "profile.h"

/* Indexed by the "profile" parameter, whose names (params.c) follow it. */
static const struct profile *const profiles[] = { NULL, &profile_testbed };

const struct profile *profile_at(unsigned int index)
{
	return index < sizeof(profiles) / sizeof(profiles[0]) ? profiles[index] : NULL;
}

void profile_apply(const struct profile *pr, struct params *p)
{
	const struct profile_value *v;

	for (v = pr ? pr->values : NULL; v && v->id != NR_PARAMS; v++)
		params_default(p, v->id, v->value);
}

const char *profile_source(const struct profile *pr, enum param_id id)
{
	const struct profile_value *v;

	for (v = pr->values; v->id != NR_PARAMS; v++)
		if (v->id == id)
			return v->source;
	return NULL;
}
