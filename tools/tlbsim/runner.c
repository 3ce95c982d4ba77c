// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "diag.h"
#include "grow.h"
#include "options.h"
#include "progress.h"
#include "runner.h"
#include "workers.h"

int plan_add(struct plan *pl, const struct run_task *t)
{
	void *arr = pl->t;

	if (grow_for_one(&arr, &pl->cap, pl->len, sizeof(*pl->t), 16))
		return -1;
	pl->t = arr;
	pl->t[pl->len++] = *t;
	return 0;
}

void plan_free(struct plan *pl)
{
	free(pl->t);
	memset(pl, 0, sizeof(*pl));
}

unsigned int runner_jobs(const struct options *o, size_t nr_tasks)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t jobs = o->jobs ? o->jobs : cpus > 0 ? (size_t)cpus : 1;

	if (jobs > nr_tasks)
		jobs = nr_tasks;
	return jobs ? (unsigned int)jobs : 1;
}

/* The model itself, with no output: what a worker process does. */
static void compute(const struct options *o, const struct run_task *t,
		    struct baseline *cache, struct run_result *res)
{
	const struct policy_def *pol = scenario_policy(o->sc, t->policy);

	res->failed = scenario_run_ticked(o->sc, &t->params, pol, t->seed, &res->metrics,
					  cache, o->tick, res->err, sizeof(res->err)) != 0;
}

/* What a finished run prints and records, in plan order; 0 or 1. */
static int account(const struct options *o, const struct run_task *t,
		   const struct run_result *res, struct records *rs)
{
	const struct policy_def *pol = scenario_policy(o->sc, t->policy);
	struct run_record r = { .sc = o->sc, .policy = pol->name, .seed = t->seed,
				.pair = t->pair, .asked = t->params, .metrics = res->metrics };
	char err[160];

	scenario_params(o->sc, &t->params, &r.params);
	if (o->sc->check && o->sc->check(&r.params, err, sizeof(err)))
		warn_once(o, WARN_CHECK, "%s: %s", o->sc->name, err);
	if (res->failed) {
		fprintf(stderr, "tlbsim: %s\n", res->err);
		return 1;
	}
	if ((pol->balancing || !o->sc->has_baseline) && r.metrics.v[o->sc->activity] == 0)
		warn_once(o, WARN_IDLE, "%s, policy %s: nothing happened (%s is 0); the model "
			  "is too small or too short to tell policies apart", o->sc->name,
			  pol->name, metric_defs[o->sc->activity].name);
	if (r.metrics.v[M_STALE_TRANSLATION_VIOLATIONS] > 0)
		fprintf(stderr, "tlbsim: %s, policy %s, seed %" PRIu64 ": %.0f stale-translation "
			"violations; the first: %s\n", o->sc->name, pol->name, t->seed,
			r.metrics.v[M_STALE_TRANSLATION_VIOLATIONS], r.metrics.first_violation);
	if (o->no_timing)
		r.metrics.v[M_WALL_SECONDS] = 0;
	return records_add(rs, &r) ? (fprintf(stderr, "tlbsim: out of memory\n"), 1) : 0;
}

static int execute_here(const struct options *o, const struct plan *pl, struct records *rs)
{
	struct progress pg;
	struct run_result res;
	size_t k;
	int ret = 0;

	progress_start(&pg, (unsigned int)pl->len);
	for (k = 0; k < pl->len && !ret; k++) {
		memset(&res, 0, sizeof(res));
		compute(o, &pl->t[k], o->base, &res);
		/* A single run is watched from inside (run_watch.h). */
		if (pl->len > 1 && !o->quiet)
			progress_step(&pg, pl->t[k].label);
		if (res.failed)
			progress_end(&pg);
		ret = account(o, &pl->t[k], &res, rs);
	}
	progress_end(&pg);
	return ret;
}

struct worker_ctx {
	const struct options *o;
	const struct plan *pl;
	struct baseline cache; /* each worker's own balancing-off twins */
	/* twin[k]: the task that is task k's balancing-off twin, or SIZE_MAX */
	const size_t *twin;
};

static void worker_compute(void *arg, size_t k, struct run_result *res)
{
	struct worker_ctx *w = arg;
	struct baseline elsewhere = { .twin_elsewhere = true, .blind = w->cache.blind };

	compute(w->o, &w->pl->t[k], w->twin[k] != SIZE_MAX ? &elsewhere : &w->cache, res);
}

static bool same_task_params(const struct run_task *a, const struct run_task *b)
{
	unsigned int i;

	if (a->seed != b->seed)
		return false;
	for (i = 0; i < NR_PARAMS; i++)
		if (a->params.v[i] != b->params.v[i])
			return false;
	return true;
}

/*
 * For each task of a balancing policy, the task of the plan that is its
 * balancing-off twin (the same parameters and seed), or SIZE_MAX. Workers
 * each keep their own twins, so two workers would both run the twin a
 * plan already holds: found here, it runs once, as its own task, and the
 * parent sets the others' throughput loss from it (scenario_set_loss).
 * NULL when out of memory.
 */
static size_t *find_twins(const struct options *o, const struct plan *pl)
{
	size_t *twin = malloc((pl->len ? pl->len : 1) * sizeof(*twin)), k, j;

	if (!twin)
		return NULL;
	for (k = 0; k < pl->len; k++) {
		twin[k] = SIZE_MAX;
		if (!o->sc->has_baseline || !scenario_policy(o->sc, pl->t[k].policy)->balancing)
			continue;
		for (j = 0; j < pl->len && twin[k] == SIZE_MAX; j++)
			if (!scenario_policy(o->sc, pl->t[j].policy)->balancing &&
			    same_task_params(&pl->t[k], &pl->t[j]))
				twin[k] = j;
	}
	return twin;
}

/* The throughput loss of the tasks whose twin ran as a task of its own. */
static void set_losses(const size_t *twin, size_t n, struct run_result *res)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (twin[k] != SIZE_MAX && !res[k].failed && !res[twin[k]].failed)
			scenario_set_loss(&res[k].metrics, &res[twin[k]].metrics);
}

static void worker_done(void *arg, size_t k, struct progress *pg)
{
	struct worker_ctx *w = arg;

	if (!w->o->quiet)
		progress_step(pg, w->pl->t[k].label);
}

int runner_execute(const struct options *o, const struct plan *pl, struct records *rs)
{
	unsigned int jobs = runner_jobs(o, pl->len);
	struct worker_ctx w = { .o = o, .pl = pl };
	struct run_result *res;
	size_t k;
	int ret = 0;

	if (jobs <= 1)
		return execute_here(o, pl, rs);
	if (o->base) /* the command's settings, in each worker's cache */
		w.cache.blind = o->base->blind;
	w.twin = find_twins(o, pl);
	if (!w.twin)
		return fail("out of memory");
	res = workers_run(jobs, pl->len, worker_compute, worker_done, &w);
	if (res)
		set_losses(w.twin, pl->len, res);
	free((void *)w.twin);
	if (!res)
		return 1;
	for (k = 0; k < pl->len && !ret; k++)
		ret = account(o, &pl->t[k], &res[k], rs);
	workers_free(res, pl->len);
	return ret;
}
