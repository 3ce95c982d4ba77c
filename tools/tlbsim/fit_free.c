// SPDX-License-Identifier: GPL-2.0-only OR MIT
/* fit --free NAME=LO:HI,...: which parameters a fit may move, and where. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "diag.h"
#include "fit.h"
#include "options.h"
#include "suggest.h"

static int parse_num(const char *s, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	return errno || end == s || *end || !isfinite(*out) ? -1 : 0;
}

static int unknown_param(const char *name)
{
	const char *names[NR_PARAMS];
	char hint[96];
	int i;

	for (i = 0; i < NR_PARAMS; i++)
		names[i] = param_defs[i].name;
	return fail("--free: unknown parameter '%s'%s (see 'tlbsim list')", name,
		    suggest_hint(name, names, NR_PARAMS, hint, sizeof(hint)));
}

/* One "NAME=LO:HI" item into @f; 0 or 2. */
static int parse_item(const struct fit_ctx *c, char *item, struct fit_free *f)
{
	const struct params *set = &c->o->params;
	const struct param_def *d;
	char *eq = strchr(item, '='), *colon, err[512];
	int id;

	if (!eq || eq == item || !(colon = strchr(eq + 1, ':')))
		return fail("--free: expected NAME=LO:HI, got '%s'", item);
	*eq = '\0';
	*colon = '\0';
	id = param_lookup(item);
	if (id < 0)
		return unknown_param(item);
	if (scenario_check_reads(c->o->sc, item, err, sizeof(err)))
		return fail("--free: %s", err);
	d = &param_defs[id];
	if (d->integer || d->choices)
		return fail("--free: %s takes %s, not a continuous value: it cannot be fitted",
			    item, d->choices ? "named choices" : "integers");
	if (set->set[id])
		return fail("--free: %s is also fixed with --set", item);
	if (parse_num(eq + 1, &f->lo) || parse_num(colon + 1, &f->hi))
		return fail("--free: %s: bad range '%s:%s' (two numbers LO:HI)", item, eq + 1,
			    colon + 1);
	if (f->lo >= f->hi)
		return fail("--free: %s: LO %g is not below HI %g", item, f->lo, f->hi);
	if (f->lo < d->min || f->hi > d->max)
		return fail("--free: %s=%g:%g is outside its valid range %g..%g", item, f->lo,
			    f->hi, d->min, d->max);
	f->id = (enum param_id)id;
	return 0;
}

int fit_free_parse(struct fit_ctx *c, char *spec)
{
	char *item = spec, *comma;
	unsigned int k;

	c->nfree = 0;
	for (;;) {
		comma = strchr(item, ',');
		if (comma)
			*comma = '\0';
		if (!*item)
			return fail("--free: empty item in the list (two commas, or one at an end)");
		if (c->nfree == FIT_MAX_FREE)
			return fail("--free: at most %d parameters (docs/tlbsim.md: a fit that "
				    "needs more explains too little)", FIT_MAX_FREE);
		if (parse_item(c, item, &c->free[c->nfree]))
			return 2;
		for (k = 0; k < c->nfree; k++)
			if (c->free[k].id == c->free[c->nfree].id)
				return fail("--free: %s is given twice",
					    param_defs[c->free[k].id].name);
		c->nfree++;
		if (!comma)
			return 0;
		item = comma + 1;
	}
}
