// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * A fit's targets file, and the objective that measures a model against
 * it. Residuals are log-ratios: a figure 10% high counts as much whether
 * it is a count of millions or a fraction, and as much as one 10% low.
 */
#include <jansson.h>
#include <math.h>
#include <string.h>
#include "diag.h"
#include "fit.h"
#include "scenario.h"

/* A model value this far below a target, or zero, or undefined, counts as
 * this far off: the objective stays finite, and steep enough to climb out
 * of a region where the model does nothing. */
#define FIT_FLOOR 1e-3

double fit_residual(const struct fit_target *t, double v)
{
	if (isnan(v) || v < t->lo * FIT_FLOOR)
		v = t->lo * FIT_FLOOR;
	if (v < t->lo)
		return log(v / t->lo);
	if (v > t->hi)
		return log(v / t->hi);
	return 0;
}

double fit_objective(const struct fit_targets *tg, const double *values, double *resid)
{
	double sum = 0;
	unsigned int k;

	for (k = 0; k < tg->n; k++) {
		resid[k] = fit_residual(&tg->t[k], values[k]);
		sum += resid[k] * resid[k];
	}
	return sum;
}

double fit_margin(double tolerance)
{
	double l = log1p(tolerance);

	return l * l;
}

/* One target's JSON value into [lo, hi]; 0, or -1 with the reason. */
static int target_from_json(json_t *v, struct fit_target *t, const char **why)
{
	json_t *val, *tol;

	if (json_is_number(v)) {
		t->lo = t->hi = json_number_value(v);
	} else if (json_is_array(v)) {
		if (json_array_size(v) != 2 || !json_is_number(json_array_get(v, 0)) ||
		    !json_is_number(json_array_get(v, 1))) {
			*why = "a range is [lo, hi], two numbers";
			return -1;
		}
		t->lo = json_number_value(json_array_get(v, 0));
		t->hi = json_number_value(json_array_get(v, 1));
		if (t->lo > t->hi) {
			*why = "a range's lo is above its hi";
			return -1;
		}
	} else if (json_is_object(v)) {
		val = json_object_get(v, "value");
		tol = json_object_get(v, "tolerance");
		if (json_object_size(v) != 2 || !json_is_number(val) || !json_is_number(tol) ||
		    json_number_value(tol) < 0 || json_number_value(tol) >= 1) {
			*why = "expected {\"value\": v, \"tolerance\": t} with 0 <= t < 1";
			return -1;
		}
		t->lo = json_number_value(val) * (1 - json_number_value(tol));
		t->hi = json_number_value(val) * (1 + json_number_value(tol));
	} else {
		*why = "expected a number, [lo, hi] or {\"value\": v, \"tolerance\": t}";
		return -1;
	}
	if (!(t->lo > 0) || !isfinite(t->hi)) {
		*why = "targets must be positive (residuals are log-ratios)";
		return -1;
	}
	return 0;
}

static int load_object(const char *path, json_t *obj, const struct scenario *sc,
		       struct fit_targets *tg)
{
	const char *key, *why = NULL;
	json_t *v;
	int id;

	json_object_foreach(obj, key, v) {
		if (key[0] == '_') {
			if (!json_is_string(v))
				return fail("%s: comment key '%s' must have a string value", path,
					    key);
			continue;
		}
		id = metric_lookup(key);
		if (id < 0)
			return fail("%s: unknown metric '%s' (see 'tlbsim list metrics')", path,
				    key);
		if (!scenario_reports(sc, (enum metric_id)id))
			return fail("%s: %s does not report %s (see 'tlbsim list %s')", path,
				    sc->name, key, sc->name);
		if (tg->n == FIT_MAX_TARGETS)
			return fail("%s: at most %d targets", path, FIT_MAX_TARGETS);
		tg->t[tg->n].id = (enum metric_id)id;
		if (target_from_json(v, &tg->t[tg->n], &why))
			return fail("%s: %s: %s", path, key, why);
		tg->n++;
	}
	if (!tg->n)
		return fail("%s: no targets (a JSON object of metric -> value)", path);
	return 0;
}

int fit_targets_load(const char *path, const struct scenario *sc, struct fit_targets *tg)
{
	json_error_t jerr;
	json_t *obj = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	int ret;

	memset(tg, 0, sizeof(*tg));
	if (!obj)
		return fail("--targets %s: %s", path, jerr.text);
	if (!json_is_object(obj))
		ret = fail("%s: not a targets file (a JSON object of metric -> value)", path);
	else
		ret = load_object(path, obj, sc, tg);
	json_decref(obj);
	return ret;
}
