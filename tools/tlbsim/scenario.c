// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The four scenarios of emulator.md. Each builds a machine and a workload
 * from the parameters and picks the library policy under test; the kernel
 * paths and the library do the rest.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "scenario.h"

double scenario_last_bytes_per_page;

#define NUMA_UNSAFE_POLICIES \
	{ "unsafe-never-flush", TLBP_MIGRATE_BATCH_ALWAYS, UNSAFE_NEVER_FLUSH, true, \
	  "test only: migration never flushes its batch" }, \
	{ "unsafe-ignore-pending", TLBP_MIGRATE_BATCH_ALWAYS, UNSAFE_IGNORE_PENDING, true, \
	  "test only: PROT_NONE counts as uncached while a flush is pending" }, \
	{ "unsafe-free-before-flush", TLBP_MIGRATE_BATCH_ALWAYS, UNSAFE_FREE_BEFORE_FLUSH, true, \
	  "test only: copy the page before the batch is flushed" }

static const struct policy_def numa_policies[] = {
	{ "always", TLBP_MIGRATE_BATCH_ALWAYS, UNSAFE_NONE, true, "batch whenever async (v6.4..v7.3)" },
	{ "skip-numa", TLBP_MIGRATE_BATCH_SKIP_NUMA, UNSAFE_NONE, true, "patch v1: never batch NUMA-hint migrations" },
	{ "skip-single", TLBP_MIGRATE_BATCH_SKIP_SINGLE, UNSAFE_NONE, true, "patch v2: not for one small unshared folio" },
	{ "skip-single-mapcount", TLBP_MIGRATE_BATCH_SKIP_SINGLE_MAPCOUNT, UNSAFE_NONE, true, "review: one folio mapped once" },
	{ "off", TLBP_MIGRATE_BATCH_ALWAYS, UNSAFE_NONE, false, "NUMA balancing disabled (baseline)" },
	NUMA_UNSAFE_POLICIES,
};

static const struct policy_def hint_policies[] = {
	{ "eager-map", TLBP_HINT_EAGER_MAP, UNSAFE_NONE, true, "map, then decide (before v5.13)" },
	{ "deferred-map", TLBP_HINT_DEFERRED_MAP, UNSAFE_NONE, true, "decide, map only if not migrating (v5.13+)" },
	{ "off", TLBP_HINT_DEFERRED_MAP, UNSAFE_NONE, false, "NUMA balancing disabled (baseline)" },
	NUMA_UNSAFE_POLICIES,
};

static const struct policy_def split_policies[] = {
	{ "per-pte", TLBP_SPLIT_FLUSH_PER_PTE, UNSAFE_NONE, false, "flush each PTE (before v6.7)" },
	{ "batched", TLBP_SPLIT_FLUSH_BATCHED, UNSAFE_NONE, false, "one flush per folio (v6.7+)" },
};

static const struct policy_def demote_policies[] = {
	{ "per-item", TLBP_GP_PER_ITEM, UNSAFE_NONE, false, "a grace period and a flush per folio" },
	{ "batched", TLBP_GP_BATCHED, UNSAFE_NONE, false, "one grace period per batch (v6.12+)" },
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static unsigned int scaled(double v, double scale, unsigned int floor_)
{
	double x = round(v * scale);

	return x < floor_ ? floor_ : (unsigned int)x;
}

/* Machine, threads spread over the CPUs, and the backing objects. */
static int setup_common(struct sim *s, unsigned int nr_threads,
			unsigned int nr_procs, bool shared, uint64_t pages)
{
	const struct params *p = &s->p;
	unsigned int order = (unsigned int)p->v[P_FOLIO_ORDER], i;
	uint64_t folio = 1ULL << order, per_proc;

	if (nr_threads > s->nr_cpus)
		nr_threads = s->nr_cpus;
	if (nr_procs > nr_threads)
		nr_procs = nr_threads;
	if (!nr_procs || !nr_threads)
		return -1;
	/* Whole folios, and whole slices for each thread. */
	per_proc = nr_threads / nr_procs;
	pages = (pages / (folio * per_proc) + 1) * folio * per_proc;
	s->nr_threads = nr_threads;
	s->thread = calloc(nr_threads, sizeof(*s->thread));
	s->mm = calloc(nr_procs, sizeof(*s->mm));
	s->obj = calloc(nr_procs, sizeof(*s->obj));
	if (!s->thread || !s->mm || !s->obj)
		return -1;
	for (i = 0; i < nr_procs; i++) {
		struct object *o = (shared && i) ? &s->obj[0] :
				   sim_object_new(s, pages, order);
		struct mm *mm = o ? sim_mm_new(s, o) : NULL;

		if (!mm)
			return -1;
		mm->scan_period_ns = (uint64_t)(p->v[P_SCAN_PERIOD_MIN_MS] * 1e6);
	}
	for (i = 0; i < nr_threads; i++) {
		struct thread *t = &s->thread[i];
		unsigned int proc = (unsigned int)((uint64_t)i * nr_procs / nr_threads);
		struct mm *mm = &s->mm[proc];
		unsigned int first = (unsigned int)(((uint64_t)proc * nr_threads + nr_procs - 1) / nr_procs);
		unsigned int in_mm = (unsigned int)(((uint64_t)(proc + 1) * nr_threads + nr_procs - 1) / nr_procs) - first;

		/* Spread over nodes: CPUs are numbered node by node. */
		t->cpu = (unsigned int)((uint64_t)i * s->nr_cpus / nr_threads);
		t->mm = mm;
		t->slice_pages = mm->nr_pages / in_mm / folio * folio;
		t->slice_start = (uint64_t)(i - first) * t->slice_pages;
		if (i == first)
			mm->first_thread = i;
		mm->slice_pages = t->slice_pages;
		mm->nr_threads = in_mm;
		sim_mm_add_cpu(s, mm, t->cpu);
	}
	return 0;
}

/* First-touch placement: a slice lives on its thread's node, except a
 * misplaced share that starts on another node. */
static void place_pages(struct sim *s)
{
	double misplaced = s->p.v[P_MISPLACED_FRACTION];
	unsigned int i;
	uint64_t v, f;

	for (i = 0; i < s->nr_threads; i++) {
		struct thread *t = &s->thread[i];
		struct folio_page *fp = t->mm->obj->page;
		unsigned int home = s->cpu[t->cpu].node;
		uint64_t folio = 1ULL << fp[t->slice_start].order;

		for (v = t->slice_start; v < t->slice_start + t->slice_pages; v += folio) {
			unsigned int node = home;

			if (s->nr_nodes > 1 && rng_unit(&s->rng) < misplaced)
				node = (home + 1 + (unsigned int)rng_below(&s->rng, s->nr_nodes - 1)) %
				       s->nr_nodes;
			for (f = v; f < v + folio; f++)
				fp[f].node = (uint8_t)node;
		}
	}
}

/* Partially mapped large folios: the second half of each is not mapped. */
static void unmap_partial(struct sim *s)
{
	unsigned int i;
	uint64_t v;

	if (!s->p.v[P_SPLIT_PARTIAL_THP] || !s->p.v[P_FOLIO_ORDER])
		return;
	for (i = 0; i < s->nr_mms; i++) {
		struct mm *mm = &s->mm[i];

		for (v = 0; v < mm->nr_pages; v++) {
			uint64_t nr = folio_pages(mm, v);

			if ((v & (nr - 1)) >= nr / 2)
				*pte_of(mm, v) = 0;
		}
	}
}

static int setup_numa(struct sim *s, const struct policy_def *pol)
{
	const struct params *p = &s->p;
	double scale = p->v[P_SCALE];
	unsigned int cpus = scaled(p->v[P_CPUS], scale, 2);
	unsigned int nodes = (unsigned int)p->v[P_SOCKETS];
	/* One thread per CPU unless told otherwise, so a CPU-count sweep
	 * keeps the machine busy. */
	unsigned int threads = p->set[P_THREADS] ? scaled(p->v[P_THREADS], scale, 1) : cpus;
	unsigned int mappers = (unsigned int)p->v[P_SHARED_MAPPERS];
	unsigned int procs = mappers > 1 ? mappers : (unsigned int)p->v[P_PROCESSES];
	uint64_t pages = (uint64_t)(p->v[P_WORKING_SET_GIB] * scale * (1 << 18));
	unsigned int i;

	if (nodes > cpus)
		nodes = cpus;
	if (sim_machine_init(s, cpus, nodes) ||
	    setup_common(s, threads, procs, mappers > 1, pages ? pages : 1))
		return -1;
	place_pages(s);
	unmap_partial(s);
	s->end_ns = (uint64_t)(p->v[P_DURATION_S] * scale * 1e9);
	s->balancing = pol->balancing;
	for (i = 0; i < s->nr_threads; i++)
		sim_access_start(s, i);
	for (i = 0; s->balancing && i < s->nr_mms; i++)
		sim_schedule(s, (uint64_t)(p->v[P_SCAN_DELAY_MS] * 1e6) + i, EV_SCAN_START, i);
	return 0;
}

static int setup_numa_balancing(struct sim *s, const struct policy_def *pol)
{
	s->migrate_policy = pol->value;
	s->hint_policy = TLBP_HINT_DEFERRED_MAP;
	return setup_numa(s, pol);
}

static int setup_numa_hint_fault(struct sim *s, const struct policy_def *pol)
{
	s->migrate_policy = TLBP_MIGRATE_BATCH_ALWAYS;
	s->hint_policy = pol->unsafe ? TLBP_HINT_DEFERRED_MAP : pol->value;
	return setup_numa(s, pol);
}

static void defaults_numa_hint_fault(struct params *p)
{
	/* pmbench-like: several processes, pareto accesses. */
	params_default(p, P_CPUS, 96);
	params_default(p, P_THREADS, 96);
	params_default(p, P_PROCESSES, 4);
	params_default(p, P_WORKING_SET_GIB, 32);
	params_default(p, P_DURATION_S, 60);
	params_default(p, P_PATTERN, PATTERN_PARETO);
	/* Placed so that balancing moves millions of pages (the patch's
	 * pmbench + migratepages runs); pmbench maps its buffer once. */
	params_default(p, P_MISPLACED_FRACTION, 0.5);
	params_default(p, P_MMAP_WRITER_HZ, 0);
}

static int setup_thp_split(struct sim *s, const struct policy_def *pol)
{
	const struct params *p = &s->p;
	unsigned int threads = scaled(p->v[P_THREADS], p->v[P_SCALE], 1), i;
	uint64_t ops = (uint64_t)p->v[P_THP_OPS_PER_THREAD];

	s->split_policy = pol->value;
	if (sim_machine_init(s, threads < 2 ? 2 : threads, (unsigned int)p->v[P_SOCKETS]) ||
	    setup_common(s, threads, 1, false, threads * ops << PMD_ORDER))
		return -1;
	s->end_ns = UINT64_MAX / 2;
	for (i = 0; i < s->nr_threads; i++)
		sim_schedule(s, i, EV_THP_OP, i);
	return 0;
}

static void defaults_thp_split(struct params *p)
{
	params_default(p, P_THREADS, 8);
	params_default(p, P_CPUS, 8);
	params_default(p, P_SOCKETS, 1);
	params_default(p, P_BACKEND, BACKEND_ARM64_TLBI);
	params_default(p, P_FOLIO_ORDER, PMD_ORDER);
}

static int setup_hugetlb_demote(struct sim *s, const struct policy_def *pol)
{
	const struct params *p = &s->p;

	s->gp_policy = pol->value;
	if (sim_machine_init(s, scaled(p->v[P_CPUS], p->v[P_SCALE], 2),
			     (unsigned int)p->v[P_SOCKETS]))
		return -1;
	s->end_ns = UINT64_MAX / 2;
	return sim_schedule(s, 0, EV_DEMOTE, 0);
}

static void defaults_hugetlb_demote(struct params *p)
{
	params_default(p, P_CPUS, 64);
}

const struct scenario scenarios[] = {
	{ .name = "numa-balancing", .help = "NUMA balancing under load: the single-folio migration fast path",
	  .policies = numa_policies, .nr_policies = N(numa_policies), .default_policy = "always",
	  .defaults = NULL, .setup = setup_numa_balancing, .has_baseline = true },
	{ .name = "numa-hint-fault", .help = "pmbench-like hint faults: map before or after the migration decision",
	  .policies = hint_policies, .nr_policies = N(hint_policies), .default_policy = "deferred-map",
	  .defaults = defaults_numa_hint_fault, .setup = setup_numa_hint_fault, .has_baseline = true },
	{ .name = "thp-split", .help = "thpscale-like splits of PTE-mapped THPs: per-PTE or batched flush",
	  .policies = split_policies, .nr_policies = N(split_policies), .default_policy = "batched",
	  .defaults = defaults_thp_split, .setup = setup_thp_split, .has_baseline = false },
	{ .name = "hugetlb-demote", .help = "demote 1 GiB HugeTLB pages to 2 MiB with HVO: grace periods per item or batched",
	  .policies = demote_policies, .nr_policies = N(demote_policies), .default_policy = "batched",
	  .defaults = defaults_hugetlb_demote, .setup = setup_hugetlb_demote, .has_baseline = false },
};
const unsigned int nr_scenarios = N(scenarios);

const struct scenario *scenario_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < nr_scenarios; i++)
		if (!strcmp(scenarios[i].name, name))
			return &scenarios[i];
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
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int run_one(const struct scenario *sc, const struct params *p,
		   const struct policy_def *pol, uint64_t seed, struct metrics *out,
		   char *err, size_t errlen)
{
	struct sim *s = calloc(1, sizeof(*s));
	double t0 = now_s();
	uint64_t pages = 0;
	unsigned int i;
	int ret = -1;

	if (!s) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	s->p = *p;
	s->unsafe = pol->unsafe;
	s->flush_ops = backend_ops((enum backend_kind)p->v[P_BACKEND]);
	rng_seed(&s->rng, seed);
	if (sc->setup(s, pol)) {
		snprintf(err, errlen, "%s: cannot build the model (out of memory?)", sc->name);
		goto out;
	}
	sim_run(s);
	metrics_from_sim(s, out);
	out->v[M_WALL_SECONDS] = now_s() - t0;
	for (i = 0; i < s->nr_objs; i++)
		pages += s->obj[i].nr_pages;
	scenario_last_bytes_per_page = pages ? (double)aspace_bytes(s) / (double)pages : 0;
	ret = 0;
out:
	sim_free(s);
	free(s);
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

/* Keeps a balancing-off run as the twin of (@p, @seed). */
static void remember_twin(struct baseline *b, const struct params *p, uint64_t seed,
			  const struct metrics *m)
{
	*b = (struct baseline){ true, seed, *p, *m };
	b->m.v[M_THROUGHPUT_LOSS_PCT] = 0;
}

int scenario_run(const struct scenario *sc, const struct params *user,
		 const struct policy_def *pol, uint64_t seed, struct metrics *out,
		 struct baseline *cache, char *err, size_t errlen)
{
	struct baseline local = { 0 }, *base = cache ? cache : &local;
	struct params p;

	scenario_params(sc, user, &p);
	if (!pol->balancing && same_run(base, &p, seed)) {
		*out = base->m; /* this very run is the cached twin */
		return 0;
	}
	if (run_one(sc, &p, pol, seed, out, err, errlen))
		return -1;
	if (!sc->has_baseline)
		return 0;
	if (!pol->balancing) {
		out->v[M_THROUGHPUT_LOSS_PCT] = 0;
		remember_twin(base, &p, seed, out);
		return 0;
	}
	/* The same seed with balancing off: what the workload would do alone. */
	if (!same_run(base, &p, seed)) {
		struct metrics off;

		if (run_one(sc, &p, scenario_policy(sc, "off"), seed, &off, err, errlen))
			return -1;
		remember_twin(base, &p, seed, &off);
		out->v[M_WALL_SECONDS] += off.v[M_WALL_SECONDS];
	}
	if (base->m.useful_ns > 0)
		out->v[M_THROUGHPUT_LOSS_PCT] = 100.0 * (1.0 - out->useful_ns / base->m.useful_ns);
	return 0;
}
