// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * FIT.json: everything a fit found (its setting, best point, residuals,
 * profiles and ensemble), written so that a reader can judge the fit
 * without rerunning it, and read back by compare --fit.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "diag.h"
#include "fit.h"
#include "options.h"
#include "report.h"

#define FIT_FORMAT 1

static json_t *params_json(const struct fit_ctx *c, const double *x)
{
	json_t *o = json_object();
	unsigned int k;

	for (k = 0; k < c->nfree; k++)
		json_object_set_new(o, param_defs[c->free[k].id].name, json_real(x[k]));
	return o;
}

static json_t *set_json(const struct options *o)
{
	json_t *set = json_object();
	char buf[64];
	int i;

	for (i = 0; i < NR_PARAMS; i++) {
		if (!o->params.set[i])
			continue;
		param_format((enum param_id)i, o->params.v[i], buf, sizeof(buf));
		json_object_set_new(set, param_defs[i].name,
				    param_defs[i].choices ? json_string(buf) :
				    json_real(o->params.v[i]));
	}
	return set;
}

/* A model value may be an undefined ratio (nothing to divide by): null. */
static json_t *num_json(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *target_json(const struct fit_target *t)
{
	return t->lo == t->hi ? json_real(t->lo) : json_pack("[f, f]", t->lo, t->hi);
}

static json_t *residuals_json(const struct fit_ctx *c, const struct fit_point *p)
{
	json_t *o = json_object();
	unsigned int k;

	for (k = 0; k < c->tg.n; k++)
		json_object_set_new(o, metric_defs[c->tg.t[k].id].name,
				    json_pack("{s:o, s:o, s:f}", "target", target_json(&c->tg.t[k]),
					      "value", num_json(p->value[k]), "residual", p->resid[k]));
	return o;
}

static json_t *profiles_json(const struct fit_ctx *c, const struct fit_result *r)
{
	json_t *o = json_object();
	unsigned int k, j;

	for (k = 0; k < c->nfree; k++) {
		json_t *pts = json_array();

		for (j = 0; j < r->prof[k].n; j++)
			json_array_append_new(pts, json_pack("[f, f]", r->prof[k].x[j],
							     r->prof[k].obj[j]));
		json_object_set_new(o, param_defs[c->free[k].id].name, pts);
	}
	return o;
}

int fit_json_write(const char *path, const struct fit_ctx *c, const struct fit_result *r,
		   double tolerance)
{
	const struct fit_point *best = &c->h.p[c->best];
	json_t *root = json_object(), *free_ = json_array(), *tg = json_object();
	json_t *ens = json_array();
	unsigned int k;
	size_t i;
	int ret;

	for (k = 0; k < c->nfree; k++)
		json_array_append_new(free_, json_pack("{s:s, s:f, s:f}", "name",
						       param_defs[c->free[k].id].name,
						       "lo", c->free[k].lo, "hi", c->free[k].hi));
	for (k = 0; k < c->tg.n; k++)
		json_object_set_new(tg, metric_defs[c->tg.t[k].id].name, target_json(&c->tg.t[k]));
	for (i = 0; i < r->nr_ensemble; i++) {
		const struct fit_point *p = &c->h.p[r->ensemble[i]];

		json_array_append_new(ens, json_pack("{s:o, s:f}", "params", params_json(c, p->x),
						     "objective", p->obj));
	}
	json_object_set_new(root, "tlbsim_fit", json_integer(FIT_FORMAT));
	json_object_set_new(root, "scenario", json_string(c->o->sc->name));
	json_object_set_new(root, "policy", json_string(c->policy));
	json_object_set_new(root, "seed", json_integer((json_int_t)c->o->seed));
	json_object_set_new(root, "seeds", json_integer(c->seeds));
	json_object_set_new(root, "set", set_json(c->o));
	json_object_set_new(root, "free", free_);
	json_object_set_new(root, "targets", tg);
	json_object_set_new(root, "objective_definition", json_string(
		"sum over targets of the squared log-ratio of the model's value (mean over "
		"seeds) to the target, 0 inside a range"));
	json_object_set_new(root, "evaluations", json_integer((json_int_t)c->h.len));
	json_object_set_new(root, "best", json_pack("{s:o, s:f, s:o}", "params",
						    params_json(c, best->x), "objective",
						    best->obj, "residuals", residuals_json(c, best)));
	json_object_set_new(root, "profiles", profiles_json(c, r));
	json_object_set_new(root, "tolerance", json_real(tolerance));
	json_object_set_new(root, "ensemble_max_objective", json_real(best->obj + r->margin));
	json_object_set_new(root, "ensemble", ens);
	ret = json_dump_file(root, path, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	json_decref(root);
	return ret ? fail("cannot write %s", path) : 0;
}

void fit_file_free(struct fit_file *f)
{
	free(f->x);
	memset(f, 0, sizeof(*f));
}

static int read_free(json_t *arr, const struct scenario *sc, struct fit_file *f,
		     const char **why)
{
	json_t *e;
	size_t k;
	int id;

	if (!json_is_array(arr) || !json_array_size(arr) || json_array_size(arr) > FIT_MAX_FREE) {
		*why = "\"free\" is not a list of 1 to 3 parameters";
		return -1;
	}
	json_array_foreach(arr, k, e) {
		id = param_lookup(json_string_value(json_object_get(e, "name")) ?
				  json_string_value(json_object_get(e, "name")) : "");
		if (id < 0 || !scenario_reads(sc, (enum param_id)id)) {
			*why = "a free parameter is not one of the scenario's";
			return -1;
		}
		f->free[f->nfree++] = (enum param_id)id;
	}
	return 0;
}

static int read_member(json_t *m, struct fit_file *f, double *x, char *err, size_t errlen)
{
	json_t *params = json_object_get(m, "params");
	struct params p;
	unsigned int k;

	params_defaults(&p);
	for (k = 0; k < f->nfree; k++) {
		const char *name = param_defs[f->free[k]].name;
		json_t *v = json_object_get(params, name);

		if (!json_is_number(v)) {
			snprintf(err, errlen, "an ensemble member has no value of %s", name);
			return -1;
		}
		if (params_set_json(&p, name, v, err, errlen))
			return -1;
		x[k] = p.v[f->free[k]];
	}
	return 0;
}

static int read_fit(const char *path, json_t *root, const struct scenario *sc,
		    struct fit_file *f)
{
	const char *name = json_string_value(json_object_get(root, "scenario")), *key;
	json_t *set = json_object_get(root, "set"), *ens = json_object_get(root, "ensemble");
	json_t *v;
	const char *why = NULL;
	char err[512];
	size_t k;

	if (!json_is_object(root) || !name || !json_is_object(set) || !json_is_array(ens) ||
	    !json_is_integer(json_object_get(root, "tlbsim_fit")))
		return fail("%s: not a tlbsim fit (from tlbsim fit --out)", path);
	if (json_integer_value(json_object_get(root, "tlbsim_fit")) != FIT_FORMAT)
		return fail("%s: fit format %lld, this tlbsim reads %d", path,
			    (long long)json_integer_value(json_object_get(root, "tlbsim_fit")),
			    FIT_FORMAT);
	if (strcmp(name, sc->name) != 0)
		return fail("%s is a fit of %s, not of %s", path, name, sc->name);
	params_defaults(&f->set);
	json_object_foreach(set, key, v) {
		if (params_set_json(&f->set, key, v, err, sizeof(err)) ||
		    scenario_check_reads(sc, key, err, sizeof(err)))
			return fail("%s: set: %s", path, err);
	}
	if (read_free(json_object_get(root, "free"), sc, f, &why))
		return fail("%s: %s", path, why);
	if (!json_array_size(ens))
		return fail("%s: the ensemble is empty", path);
	f->x = calloc(json_array_size(ens), sizeof(*f->x));
	if (!f->x)
		return fail("out of memory");
	json_array_foreach(ens, k, v) {
		if (read_member(v, f, f->x[k], err, sizeof(err)))
			return fail("%s: ensemble member %zu: %s", path, k + 1, err);
		f->n++;
	}
	return 0;
}

int fit_json_read(const char *path, const struct scenario *sc, struct fit_file *f)
{
	json_error_t jerr;
	json_t *root = json_load_file(path, 0, &jerr);
	int ret;

	memset(f, 0, sizeof(*f));
	if (!root)
		return fail("--fit %s: %s", path, jerr.text);
	ret = read_fit(path, root, sc, f);
	json_decref(root);
	if (ret)
		fit_file_free(f);
	return ret;
}
