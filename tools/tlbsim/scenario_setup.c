// SPDX-License-Identifier: GPL-2.0-only OR MIT
/* The set-up the scenarios share; see scenario_setup.h. */
#include <math.h>
#include <stdlib.h>
#include "scenario_setup.h"

unsigned int scenario_scaled(double v, double scale, unsigned int floor_)
{
	double x = round(v * scale);

	return x < floor_ ? floor_ : (unsigned int)x;
}
/* Machine, threads spread over the CPUs, and the backing objects. */
int scenario_setup_common(struct sim *s, unsigned int nr_threads,
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

int scenario_setup_numa(struct sim *s, const struct policy_def *pol)
{
	const struct params *p = &s->p;
	double scale = p->v[P_SCALE];
	unsigned int cpus = scenario_scaled(p->v[P_CPUS], scale, 2);
	unsigned int nodes = (unsigned int)p->v[P_SOCKETS];
	/* One thread per CPU unless told otherwise, so a CPU-count sweep
	 * keeps the machine busy. */
	unsigned int threads = p->set[P_THREADS] ? scenario_scaled(p->v[P_THREADS], scale, 1) : cpus;
	unsigned int mappers = (unsigned int)p->v[P_SHARED_MAPPERS];
	unsigned int procs = mappers > 1 ? mappers : (unsigned int)p->v[P_PROCESSES];
	uint64_t pages = (uint64_t)(p->v[P_WORKING_SET_GIB] * scale * (1 << 18));
	unsigned int i;

	if (nodes > cpus)
		nodes = cpus;
	if (sim_machine_init(s, cpus, nodes) ||
	    scenario_setup_common(s, threads, procs, mappers > 1, pages ? pages : 1))
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

