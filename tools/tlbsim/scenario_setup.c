// SPDX-License-Identifier: GPL-2.0-only OR MIT
/* The set-up the scenarios share; see scenario_setup.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "engine.h"
#include "paths.h"
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
		mm->rate.period_ns = (uint64_t)(p->v[P_SCAN_PERIOD_MIN_MS] * 1e6);
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
		t->scan_rate.period_ns = mm->rate.period_ns;
		t->slice_pages = mm->nr_pages / in_mm / folio * folio;
		t->slice_start = (uint64_t)(i - first) * t->slice_pages;
		if (i == first)
			mm->first_thread = i;
		mm->slice_pages = t->slice_pages;
		mm->nr_threads = in_mm;
		sim_mm_add_cpu(s, mm, t->cpu);
	}
	return sim_machine_tlbs_unbounded(s);
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

bool scenario_half_mapped(const struct params *p)
{
	return p->v[P_SPLIT_PARTIAL_THP] && p->v[P_FOLIO_ORDER];
}

enum tlbp_split_policy scenario_kernel_split_policy(const struct params *p)
{
	/* unmap_folio() flushes once per split since v6.7: a kernel with
	 * batched migration flushes (v6.4+) is 6.12 here, one without is
	 * older than both. */
	return p->v[P_MIGRATE_BATCHING] ? TLBP_SPLIT_FLUSH_BATCHED : TLBP_SPLIT_FLUSH_PER_PTE;
}

/* Partially mapped large folios: the second half of each is not mapped. */
void scenario_unmap_partial(struct sim *s)
{
	unsigned int i;
	uint64_t v;

	if (!scenario_half_mapped(&s->p))
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
	unsigned int mappers = (unsigned int)p->v[P_SHARED_MAPPERS], i;

	if (sim_machine_init(s, (unsigned int)p->v[P_CPUS], (unsigned int)p->v[P_SOCKETS]) ||
	    scenario_setup_common(s, (unsigned int)p->v[P_THREADS],
				  (unsigned int)p->v[P_PROCESSES], mappers > 1,
				  (uint64_t)(p->v[P_WORKING_SET_GIB] * (1 << 18))))
		return -1;
	place_pages(s);
	s->policy.split = scenario_kernel_split_policy(p);
	scenario_unmap_partial(s);
	s->end_ns = (uint64_t)(p->v[P_DURATION_S] * 1e9);
	s->balancing = pol->balancing;
	for (i = 0; i < s->nr_threads; i++)
		sim_access_start(s, i);
	for (i = 0; s->balancing && i < s->nr_mms; i++)
		sim_schedule(s, sim_jiffies_ns(s, p->v[P_SCAN_DELAY_MS] * 1e6) + i, EV_SCAN_START, i);
	return 0;
}

const enum param_id scenario_numa_params[] = {
	P_CPUS, P_SOCKETS, P_THREADS, P_WORKING_SET_GIB, P_DURATION_S, P_FOLIO_ORDER,
	P_SHARED_MAPPERS, P_SPLIT_PARTIAL_THP, P_PROCESSES, P_SCALE, P_MIGRATE_BATCHING,
	P_ACCESS_RATE_HZ, P_PRIVATE_FRACTION, P_WRITE_FRACTION, P_PATTERN,
	P_HOT_FRACTION, P_HOT_WEIGHT, P_PARETO_ALPHA, P_MISPLACED_FRACTION,
	P_MIGRATE_PROB, P_REMOTE_PENALTY, P_SCAN_DELAY_MS, P_SCAN_PERIOD_MIN_MS,
	P_SCAN_PERIOD_MAX_MS, P_SCAN_SIZE_MB, P_FAULT_PROMPT_FRACTION,
	P_FAULT_PROMPT_MS, P_MMAP_WRITER_HZ, P_MMAP_WRITE_HOLD_MS, P_CONVOY_SPIN_US,
	P_PTE_UPDATE_NS, P_FAULT_NS, P_MIGRATE_COPY_NS, P_CPU_GHZ,
	SCENARIO_FLUSH_COST_PARAMS, SCENARIO_BATCH_PARAMS, NR_PARAMS,
};

const enum metric_id scenario_numa_metrics[] = {
	M_TLB_IRQS_PER_MIGRATED_PAGE, M_THROUGHPUT_LOSS_PCT, M_MIGRATED_PAGES,
	M_TLB_IPIS_SENT, M_TLB_IRQS_RECEIVED, M_INVLPGB_FLUSHES, M_HINT_FAULTS,
	M_HINT_PTES_UPDATED,
	M_KERNEL_CYCLES_PER_HINT_PTE, M_FULL_FLUSHES, M_RANGED_FLUSHES,
	M_SCANNER_FLUSH_MM_CALLS, M_BATCHED_PENDING_DRAINS, M_SCAN_PASSES,
	M_SCAN_PASS_MS_MEAN, M_SCAN_PERIOD_MS, M_SCAN_WALL_FRACTION,
	M_MIGRATIONS_WITH_FLUSH_PENDING_FRACTION, M_FAULTS_DURING_PASS_FRACTION,
	M_MIGRATIONS_DURING_PASS_FRACTION, M_DURING_PASS_THIS_CHUNK_FRACTION,
	M_DURING_PASS_RECENT_FRACTION, M_PROMPT_FAULTS, M_USEFUL_WORK_FRACTION,
	M_REMOTE_ACCESS_FRACTION, M_CONVOY_LOST_FRACTION, M_SPLITS, SCENARIO_RUN_METRICS,
};

static unsigned int min_u(unsigned int a, unsigned int b)
{
	return a < b ? a : b;
}

void scenario_clamp_sockets(struct params *p)
{
	if (p->v[P_SOCKETS] > p->v[P_CPUS])
		p->v[P_SOCKETS] = p->v[P_CPUS];
}

void scenario_numa_resolve(struct params *p)
{
	double scale = p->v[P_SCALE];
	unsigned int cpus = scenario_scaled(p->v[P_CPUS], scale, 2);
	/* One thread per CPU unless told otherwise, so a CPU-count sweep
	 * keeps the machine busy. */
	unsigned int threads = p->set[P_THREADS] ?
			       min_u(scenario_scaled(p->v[P_THREADS], scale, 1), cpus) : cpus;
	unsigned int mappers = (unsigned int)p->v[P_SHARED_MAPPERS];
	/* MAP_SHARED by n processes, or private processes sharing the
	 * threads; never more processes than threads. */
	unsigned int procs = min_u(mappers > 1 ? mappers : (unsigned int)p->v[P_PROCESSES],
				   threads);
	uint64_t pages = (uint64_t)(p->v[P_WORKING_SET_GIB] * scale * (1 << 18));

	p->v[P_CPUS] = cpus;
	p->v[P_THREADS] = threads;
	p->v[P_PROCESSES] = procs;
	if (mappers > 1)
		p->v[P_SHARED_MAPPERS] = procs > 1 ? procs : 1;
	p->v[P_WORKING_SET_GIB] = (double)(pages ? pages : 1) / (1 << 18);
	p->v[P_DURATION_S] *= scale;
	scenario_clamp_sockets(p);
}

int scenario_describe_cpus(const struct params *eff, char *buf, size_t len)
{
	char backend[16];

	param_format(P_BACKEND, eff->v[P_BACKEND], backend, sizeof(backend));
	return snprintf(buf, len, "%g CPUs, %g node%s, %s", eff->v[P_CPUS],
			eff->v[P_SOCKETS], eff->v[P_SOCKETS] > 1 ? "s" : "", backend);
}

void scenario_numa_describe(const struct params *eff, char *buf, size_t len)
{
	int n = scenario_describe_cpus(eff, buf, len);
	bool shared = eff->v[P_SHARED_MAPPERS] > 1;

	if (n < 0 || (size_t)n >= len)
		return;
	snprintf(buf + n, len - (size_t)n,
		 "; %g threads, %g %sprocess%s; %.4g GiB, %g KiB folios; %g s",
		 eff->v[P_THREADS], eff->v[P_PROCESSES], shared ? "MAP_SHARED " : "",
		 eff->v[P_PROCESSES] > 1 ? "es" : "", eff->v[P_WORKING_SET_GIB],
		 4.0 * (1 << (int)eff->v[P_FOLIO_ORDER]), eff->v[P_DURATION_S]);
}

bool scenario_numa_check(const struct params *eff, char *buf, size_t len)
{
	if (eff->v[P_DURATION_S] * 1e3 > eff->v[P_SCAN_DELAY_MS])
		return false;
	snprintf(buf, len, "the run (duration_s=%g) ends before the first scan "
		 "(scan_delay_ms=%g): no page can migrate", eff->v[P_DURATION_S],
		 eff->v[P_SCAN_DELAY_MS]);
	return true;
}
