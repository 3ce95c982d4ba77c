// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The scenario registry, and running one (scenario, policy, seed) with its
 * balancing-off twin. Each scenario_*.c builds a machine and a workload
 * from the parameters and picks the library policy under test; the kernel
 * paths and the library do the rest.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "engine.h"
#include "paths.h"
#include "profile.h"
#include "scenario.h"

/* Every scenario, in the order 'tlbsim list' shows them; a new scenario
 * is a new file and one line here. */
const struct scenario *const scenarios[] = {
	&scenario_numa_balancing,
	&scenario_numa_hint_fault,
	&scenario_thp_split,
	&scenario_hugetlb_demote,
	&scenario_testbed,
};
const unsigned int nr_scenarios = sizeof(scenarios) / sizeof(scenarios[0]);

const struct scenario *scenario_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < nr_scenarios; i++)
		if (!strcmp(scenarios[i]->name, name))
			return scenarios[i];
	return NULL;
}

const struct policy_def *scenario_policy(const struct scenario *sc, const char *name)
{
	unsigned int i;

	for (i = 0; i < sc->nr_policies; i++)
		if (!strcmp(sc->policies[i].name, name))
			return &sc->policies[i];
	return NULL;
}

void scenario_params(const struct scenario *sc, const struct params *user,
		     struct params *out)
{
	*out = *user;
	if (sc->defaults)
		sc->defaults(out);
	profile_apply(profile_at((unsigned int)out->v[P_PROFILE]), out);
	sc->resolve(out);
}

void scenario_defaults(const struct scenario *sc, struct params *out)
{
	params_defaults(out);
	if (sc->defaults)
		sc->defaults(out);
	profile_apply(profile_at((unsigned int)out->v[P_PROFILE]), out);
}

bool scenario_reads(const struct scenario *sc, enum param_id id)
{
	unsigned int i;

	for (i = 0; sc->params[i] != NR_PARAMS; i++)
		if (sc->params[i] == id)
			return true;
	return false;
}

const char *scenario_param_source(const struct scenario *sc, enum param_id id)
{
	const struct param_source *ps;
	const char *measured;

	for (ps = sc->sources; ps && ps->id != NR_PARAMS; ps++)
		if (ps->id == id)
			return ps->source;
	measured = sc->profile ? profile_source(sc->profile, id) : NULL;
	return measured ? measured : param_defs[id].source;
}

int scenario_check_reads(const struct scenario *sc, const char *kv, char *err,
			 size_t errlen)
{
	size_t len = strcspn(kv, "="), n;
	char name[64];
	int id, i;

	snprintf(name, sizeof(name), "%.*s", (int)len, kv);
	id = param_lookup(name);
	if (id < 0 || scenario_reads(sc, (enum param_id)id))
		return 0;
	n = (size_t)snprintf(err, errlen, "%s does not read %s; it reads:", sc->name, name);
	for (i = 0; sc->params[i] != NR_PARAMS && n < errlen; i++)
		n += (size_t)snprintf(err + n, errlen - n, "%s %s", i ? "," : "",
				      param_defs[sc->params[i]].name);
	return -1;
}

bool scenario_reports(const struct scenario *sc, enum metric_id id)
{
	unsigned int i;

	for (i = 0; sc->metrics[i] != NR_METRICS; i++)
		if (sc->metrics[i] == id)
			return true;
	return false;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Whether a run may leave its TLBs blind. A balancing-off run of a
 * scenario with twins marks no page and moves no frame, so whether an
 * access hits its TLB changes nothing it reports: skipping the TLBs
 * spares each access a TLB set's two cache lines and its fill. Its
 * figures are the same either way (tests/tlbsim/check_sim_blind.c). A
 * run whose tick records what it sees (a timeline) is not made blind: it
 * could not be done over.
 */
static bool run_blind(enum blind_mode mode, const struct scenario *sc,
		      const struct policy_def *pol, const struct sim_tick *tick)
{
	switch (mode) {
	case BLIND_NEVER:
		return false;
	case BLIND_ALWAYS:
		return true;
	default:
		return sc->has_baseline && !pol->balancing && (!tick || !tick->records);
	}
}

static void make_blind(struct sim *s)
{
	unsigned int c;

	s->tlb_blind = true;
	for (c = 0; c < s->nr_cpus; c++)
		tlb_make_blind(&s->cpu[c].tlb, &s->tlb_blind_uses);
}

/* One run; 1 if it was blind and must be done again with its TLBs. */
static int run_model(const struct scenario *sc, const struct params *p,
		     const struct policy_def *pol, uint64_t seed, bool blind,
		     struct metrics *out, const struct sim_tick *tick, char *err, size_t errlen)
{
	struct sim *s = calloc(1, sizeof(*s));
	int ret = -1;

	if (!s) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	s->p = *p;
	s->tick = tick;
	s->unsafe = pol->unsafe;
	s->flush_ops = backend_ops((enum backend_kind)p->v[P_BACKEND]);
	rng_seed(&s->rng, seed);
	/* Its own stream: the other decisions draw what they drew before. */
	rng_seed(&s->host_rng, ~seed);
	s->seed = seed;
	sim_paths_register(s);
	if (sc->setup(s, pol)) {
		snprintf(err, errlen, "%s: cannot build the model (out of memory?)", sc->name);
		goto out;
	}
	if (blind)
		make_blind(s);
	sim_run(s);
	/* It used a TLB, needed one for an access, marked a page or moved a
	 * frame (sim_blind_note()): what it reports may depend on them. */
	if (blind && s->tlb_blind_uses) {
		ret = 1;
		goto out;
	}
	metrics_from_sim(s, out);
	ret = 0;
out:
	sim_free(s);
	free(s);
	return ret;
}

/* Runs made blind, and those done again with their TLBs. */
struct blind_count {
	unsigned long runs, redone;
};

/* One run, blind if @mode allows; its wall time counts a blind attempt
 * thrown away. */
static int run_one(const struct scenario *sc, const struct params *p,
		   const struct policy_def *pol, uint64_t seed, enum blind_mode mode,
		   struct blind_count *count, struct metrics *out,
		   const struct sim_tick *tick, char *err, size_t errlen)
{
	bool blind = run_blind(mode, sc, pol, tick);
	double t0 = now_s();
	int ret;

	ret = run_model(sc, p, pol, seed, blind, out, tick, err, errlen);
	count->runs += blind;
	if (ret == 1) {
		count->redone++;
		ret = run_model(sc, p, pol, seed, false, out, tick, err, errlen);
	}
	if (!ret)
		out->v[M_WALL_SECONDS] = now_s() - t0;
	return ret;
}

static bool same_run(const struct baseline *b, const struct params *p, uint64_t seed)
{
	unsigned int i;

	if (!b || !b->valid || b->seed != seed)
		return false;
	for (i = 0; i < NR_PARAMS; i++)
		if (b->p.v[i] != p->v[i])
			return false;
	return true;
}

/* Keeps a balancing-off run as the twin of (@p, @seed); the caller's
 * settings and counts stay. */
static void remember_twin(struct baseline *b, const struct params *p, uint64_t seed,
			  const struct metrics *m)
{
	b->valid = true;
	b->seed = seed;
	b->p = *p;
	b->m = *m;
	b->m.v[M_THROUGHPUT_LOSS_PCT] = 0;
}

/* The balancing-off twin of a run, on a thread of its own. */
struct twin {
	pthread_t thread;
	const struct scenario *sc;
	const struct params *p;
	uint64_t seed;
	enum blind_mode mode;
	struct blind_count count; /* its own: it may run alongside */
	struct metrics m;
	int ret;
	char err[160];
};

static void *twin_main(void *arg)
{
	struct twin *tw = arg;

	tw->ret = run_one(tw->sc, tw->p, scenario_policy(tw->sc, "off"), tw->seed, tw->mode,
			  &tw->count, &tw->m, NULL, tw->err, sizeof(tw->err));
	return NULL;
}

/* The tasks runnable right now (Linux /proc), or -1. */
static long runnable_now(void)
{
	FILE *f = fopen("/proc/loadavg", "r");
	long running = -1;

	if (f) {
		if (fscanf(f, "%*f %*f %*f %ld/", &running) != 1)
			running = -1;
		fclose(f);
	}
	return running;
}

/*
 * Whether the twin may run alongside its policy run: the two share nothing
 * (each has its model, its random stream and its results), so only the
 * host decides, and the output is the same either way.
 * - A second thread only helps on an idle core: on a 2-core host already
 *   running 10 jobs, the pair took 2.5x longer alongside than one after
 *   the other (measured). A core counts as idle when the tasks runnable
 *   right now, this one included, are fewer than the cores at any of a
 *   few looks 2 ms apart: one look alone often caught a kernel worker
 *   passing through (the previous run's freed memory being handed back
 *   to the hypervisor), and the pair then ran one after the other on an
 *   idle host. The one-minute load average, used before, still counted
 *   the command that had just finished.
 * - Two models at once double the peak memory; past a quarter of the
 *   host's memory for both page arrays (8 bytes per simulated page) the
 *   twin runs after, as a big machine's run must fit first of all.
 */
static bool core_idle_now(long cpus)
{
	static const struct timespec gap = { .tv_nsec = 2000000 };
	double load;
	long running = runnable_now();
	int look;

	if (running <= 0) {
		/* No Linux /proc: the load average, as a whole core's worth. */
		return getloadavg(&load, 1) == 1 && load <= (double)cpus - 1;
	}
	for (look = 1; running >= cpus && look < 4; look++) {
		nanosleep(&gap, NULL);
		running = runnable_now();
	}
	return running > 0 && running < cpus;
}

static bool twin_alongside(const struct params *p)
{
	long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGESIZE);
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	double model = p->v[P_WORKING_SET_GIB] * (1 << 18) * sizeof(struct folio_page);

	if (cpus < 2 || !core_idle_now(cpus))
		return false;
	return pages > 0 && page_size > 0 && 2 * model <= (double)pages * page_size / 4;
}

int scenario_run(const struct scenario *sc, const struct params *user,
		 const struct policy_def *pol, uint64_t seed, struct metrics *out,
		 struct baseline *cache, char *err, size_t errlen)
{
	return scenario_run_ticked(sc, user, pol, seed, out, cache, NULL, err, errlen);
}

int scenario_run_ticked(const struct scenario *sc, const struct params *user,
			const struct policy_def *pol, uint64_t seed, struct metrics *out,
			struct baseline *cache, const struct sim_tick *tick, char *err,
			size_t errlen)
{
	struct baseline local = { 0 }, *base = cache ? cache : &local;
	struct twin tw = { .sc = sc, .p = NULL, .seed = seed, .mode = base->blind, .ret = -1 };
	struct blind_count count = { 0 };
	bool need_twin, threaded = false;
	double t0 = now_s();
	struct params p;
	int ret;

	scenario_params(sc, user, &p);
	if (!pol->balancing && same_run(base, &p, seed)) {
		*out = base->m; /* this very run is the cached twin */
		return 0;
	}
	/* The same seed with balancing off: what the workload would do alone. */
	need_twin = sc->has_baseline && pol->balancing && !base->twin_elsewhere &&
		    !same_run(base, &p, seed);
	tw.p = &p;
	if (need_twin && twin_alongside(&p))
		threaded = !pthread_create(&tw.thread, NULL, twin_main, &tw);
	ret = run_one(sc, &p, pol, seed, base->blind, &count, out, tick, err, errlen);
	if (threaded)
		pthread_join(tw.thread, NULL);
	else if (need_twin && !ret)
		twin_main(&tw);
	base->blind_runs += count.runs + tw.count.runs;
	base->blind_redone += count.redone + tw.count.redone;
	if (ret)
		return -1;
	if (!sc->has_baseline)
		return 0;
	if (!pol->balancing) {
		out->v[M_THROUGHPUT_LOSS_PCT] = 0;
		remember_twin(base, &p, seed, out);
		return 0;
	}
	if (need_twin) {
		if (tw.ret) {
			snprintf(err, errlen, "%s", tw.err);
			return -1;
		}
		remember_twin(base, &p, seed, &tw.m);
		/* The pair's host time, whether or not they overlapped. */
		out->v[M_WALL_SECONDS] = now_s() - t0;
	}
	if (!base->twin_elsewhere)
		scenario_set_loss(out, &base->m);
	return 0;
}

void scenario_set_loss(struct metrics *out, const struct metrics *off)
{
	if (off->useful_ns > 0)
		out->v[M_THROUGHPUT_LOSS_PCT] = 100.0 * (1.0 - out->useful_ns / off->useful_ns);
}
