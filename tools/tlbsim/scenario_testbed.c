// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * testbed: the kernel testbed's two-region workload
 * (tools/testbed/numa_regions.c) on the testbed's machine (profile.h), so
 * that each testbed cell has a prediction made by the same model code and
 * nothing fitted to the testbed's outcomes.
 *
 * One region, laid out as [moving slices][stable parts]; each thread
 * writes one byte per page of its own part in a loop. Moving threads
 * start on alternate nodes and switch node at the end of the first sweep
 * after switch_ms (path_sched.c); stable threads stay. The guest's NUMA
 * balancing knobs are the testbed's (/init), and the measured window
 * opens after the warm-up, as the workload's counter snapshots do. The four workload variants are parameters: folio_order=4
 * (mthp64), shared_mappers=2 with 16/32 MiB parts (shared: the second
 * process runs the second half of the threads and maps everything),
 * folio_order=9 split_partial_thp=1 (thp-split).
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "engine.h"
#include "numa_group.h"
#include "scan_walk.h"
#include "paths.h"
#include "profile.h"
#include "rng.h"
#include "scenario_setup.h"
#include "testbed_frame.h"

static const struct policy_def testbed_policies[] = {
	{ "always", { .migrate = TLBP_MIGRATE_BATCH_ALWAYS, .hint = TLBP_HINT_DEFERRED_MAP }, UNSAFE_NONE, true, "6.12's defaults: batch whenever async, deferred map" },
	{ "skip-numa", { .migrate = TLBP_MIGRATE_BATCH_SKIP_NUMA, .hint = TLBP_HINT_DEFERRED_MAP }, UNSAFE_NONE, true, "never batch NUMA-hint migrations" },
	{ "skip-single", { .migrate = TLBP_MIGRATE_BATCH_SKIP_SINGLE, .hint = TLBP_HINT_DEFERRED_MAP }, UNSAFE_NONE, true, "not for one small unshared folio" },
	{ "skip-single-mapcount", { .migrate = TLBP_MIGRATE_BATCH_SKIP_SINGLE_MAPCOUNT, .hint = TLBP_HINT_DEFERRED_MAP }, UNSAFE_NONE, true, "one folio mapped once" },
	{ "eager-map", { .migrate = TLBP_MIGRATE_BATCH_ALWAYS, .hint = TLBP_HINT_EAGER_MAP }, UNSAFE_NONE, true, "the hint fault maps before it decides (before v5.13)" },
	NUMA_UNSAFE_POLICIES,
};

static const enum param_id testbed_params[] = {
	P_CPUS, P_SOCKETS, P_MOVING_THREADS, P_STABLE_THREADS, P_SLICE_MIB, P_STABLE_MIB,
	P_SWITCH_MS, P_WARMUP_S, P_DURATION_S, P_FOLIO_ORDER, P_SHARED_MAPPERS,
	P_SPLIT_PARTIAL_THP, P_SCALE, P_SWEEP_NS_PER_PAGE, P_SWEEP_HIT_NS_PER_PAGE,
	P_SWEEP_HIT_192_NS_PER_PAGE, P_SWEEP_SAMPLE_PAGES,
	P_MIGRATE_FILTER, P_MIGRATE_PROB, P_SCAN_OVERHEAD_RATIO, P_REMOTE_PENALTY,
	P_SCAN_DELAY_MS, P_SCAN_PERIOD_MIN_MS, P_SCAN_PERIOD_MAX_MS, P_SCAN_SIZE_MB,
	P_PTE_UPDATE_NS, P_FAULT_NS, P_MIGRATE_COPY_NS, P_CPU_GHZ, P_JIFFIES_RATE,
	SCENARIO_FLUSH_COST_PARAMS, SCENARIO_BATCH_PARAMS, NR_PARAMS,
};

/* The testbed report's columns first. */
static const enum metric_id testbed_metrics[] = {
	M_TLB_IRQS_PER_MIGRATED_PAGE, M_MIGRATED_PAGES, M_TLB_IRQS_RECEIVED,
	M_BATCHED_PENDING_DRAINS, M_PROTNONE_BATCHED_UNMAPS, M_PROTNONE_UNBATCHED_UNMAPS,
	M_HINT_FAULTS, M_HINT_PTES_UPDATED, M_SCANNER_FLUSH_MM_CALLS, M_SCAN_PASSES,
	M_SCAN_CALLS, M_SCAN_SEQUENCES,
	M_SCAN_PASS_MS_MEAN, M_SCAN_WALL_FRACTION, M_SCAN_PERIOD_MS,
	M_MIGRATIONS_WITH_FLUSH_PENDING_FRACTION, M_FAULTS_DURING_PASS_FRACTION,
	M_TLB_IPIS_SENT, M_INVLPGB_FLUSHES, M_FULL_FLUSHES, M_RANGED_FLUSHES, M_SPLITS,
	M_NODE_SWITCHES, M_MOVING_SWEEPS, M_STABLE_SWEEPS, M_TLB_IRQS_ABSORBED,
	M_USEFUL_WORK_FRACTION, M_REMOTE_ACCESS_FRACTION, SCENARIO_RUN_METRICS,
};

#define INIT "tools/testbed/init.sh, the testbed's NUMA balancing sysctls: "
static const struct param_source sources[] = {
	{ P_DURATION_S, "the testbed's measured window (scripts/testbed.sh --window 35)" },
	{ P_SCAN_DELAY_MS, INIT "numa_balancing_scan_delay_ms 1000" },
	{ P_SCAN_PERIOD_MIN_MS, INIT "scan_period_min_ms 200 and scan_size_mb 1024 give task_scan_min() = max(1000 / (2560 / 1024), 200 / 1) = 500 ms (kernel/sched/fair.c)" },
	{ P_SCAN_PERIOD_MAX_MS, INIT "scan_period_max_ms 1000 over one scan window (task_scan_max())" },
	{ P_SCAN_SIZE_MB, INIT "numa_balancing_scan_size_mb 1024" },
	{ P_MIGRATE_FILTER, "last-node: the kernel's own filter, not a probability" },
	{ P_SCAN_OVERHEAD_RATIO, "kernel/sched/fair.c 6.12, task_numa_work(): node_stamp += 32 * the scan's runtime" },
	{ NR_PARAMS, NULL },
};

static void defaults_testbed(struct params *p)
{
	params_default(p, P_PROFILE, 1); /* qemu-testbed */
	params_default(p, P_DURATION_S, 35);
	params_default(p, P_SCAN_DELAY_MS, 1000);
	params_default(p, P_SCAN_PERIOD_MIN_MS, 500);
	params_default(p, P_SCAN_PERIOD_MAX_MS, 1000);
	params_default(p, P_SCAN_SIZE_MB, 1024);
	params_default(p, P_MIGRATE_FILTER, FILTER_LAST_NODE);
	params_default(p, P_SCAN_OVERHEAD_RATIO, 32);
	/* Not choices (not in testbed_params): what numa_regions does. */
	p->v[P_PATTERN] = PATTERN_SWEEP;
	p->v[P_WRITE_FRACTION] = 1;
	p->v[P_PRIVATE_FRACTION] = 1;
	p->v[P_MISPLACED_FRACTION] = 0;
	p->v[P_FAULT_PROMPT_FRACTION] = 0; /* the sweep itself comes back */
	p->v[P_MMAP_WRITER_HZ] = 0;        /* no mmap/munmap in the window */
}

static void resolve_testbed(struct params *p)
{
	double scale = p->v[P_SCALE];
	unsigned int threads = (unsigned int)(p->v[P_MOVING_THREADS] + p->v[P_STABLE_THREADS]);

	p->v[P_SLICE_MIB] = scenario_scaled(p->v[P_SLICE_MIB], scale, 1);
	p->v[P_STABLE_MIB] = scenario_scaled(p->v[P_STABLE_MIB], scale, 1);
	p->v[P_DURATION_S] *= scale;
	p->v[P_WARMUP_S] *= scale;
	p->v[P_THREADS] = threads;
	p->v[P_PROCESSES] = p->v[P_SHARED_MAPPERS] > 1 ? 2 : 1;
	p->v[P_SHARED_MAPPERS] = p->v[P_PROCESSES];
	p->v[P_WORKING_SET_GIB] = (p->v[P_MOVING_THREADS] * p->v[P_SLICE_MIB] +
				   p->v[P_STABLE_THREADS] * p->v[P_STABLE_MIB]) / 1024;
	/* The first sample's delay: one stretch of the sweep. */
	p->v[P_ACCESS_RATE_HZ] = 1e9 / (p->v[P_SWEEP_SAMPLE_PAGES] * p->v[P_SWEEP_NS_PER_PAGE]);
	scenario_clamp_sockets(p);
}

static void describe_testbed(const struct params *eff, char *buf, size_t len)
{
	int n = scenario_describe_cpus(eff, buf, len);

	if (n < 0 || (size_t)n >= len)
		return;
	snprintf(buf + n, len - (size_t)n,
		 "; %g moving x %g MiB (switch after %g ms) + %g stable x %g MiB, %g KiB folios%s%s; %g s warm-up + %g s window",
		 eff->v[P_MOVING_THREADS], eff->v[P_SLICE_MIB], eff->v[P_SWITCH_MS],
		 eff->v[P_STABLE_THREADS], eff->v[P_STABLE_MIB],
		 4.0 * (1 << (int)eff->v[P_FOLIO_ORDER]),
		 eff->v[P_SPLIT_PARTIAL_THP] > 0 ? " half-mapped" : "",
		 eff->v[P_SHARED_MAPPERS] > 1 ? ", MAP_SHARED by 2 processes" : ", private",
		 eff->v[P_WARMUP_S], eff->v[P_DURATION_S]);
}

/* Every task of a process can be in a scan call of its own. */
_Static_assert(TESTBED_FRAME_WORKERS_MAX <= SCAN_CALLS_MAX, "a scan call slot for every task");

static bool check_testbed(const struct params *eff, char *buf, size_t len)
{
	unsigned int threads = (unsigned int)eff->v[P_THREADS];

	if (threads > eff->v[P_CPUS]) {
		snprintf(buf, len, "%u threads on %g CPUs: the workload runs one thread per CPU",
			 threads, eff->v[P_CPUS]);
		return true;
	}
	if (threads > TESTBED_FRAME_WORKERS_MAX) {
		snprintf(buf, len, "%u threads: numa_regions runs at most %u (MAX_THREADS)",
			 threads, (unsigned int)TESTBED_FRAME_WORKERS_MAX);
		return true;
	}
	if (((unsigned int)eff->v[P_MOVING_THREADS]) % 2) {
		snprintf(buf, len, "moving_threads=%g: moving threads start on alternate nodes in pairs",
			 eff->v[P_MOVING_THREADS]);
		return true;
	}
	if ((eff->v[P_WARMUP_S] + eff->v[P_DURATION_S]) * 1e3 <= eff->v[P_SCAN_DELAY_MS]) {
		snprintf(buf, len, "the run ends before the first scan (scan_delay_ms=%g): no page can migrate",
			 eff->v[P_SCAN_DELAY_MS]);
		return true;
	}
	return false;
}

/* Thread @i's first CPU: threads alternate between the nodes, as
 * numa_regions pins them (node i % 2), one CPU each. */
static unsigned int first_cpu(const struct sim *s, unsigned int i)
{
	unsigned int per_node = s->nr_cpus / s->nr_nodes, node = i % s->nr_nodes;

	return node * per_node + i / s->nr_nodes;
}

/* The tick phases' own stream: the run's other draws are what they were. */
#define TICK_PHASE_STREAM 0x7469636b70686173ULL

/*
 * Where in its scan period a worker's task_tick_numa() fires, as a
 * node_stamp in [0, @period_ns). init_numa_balancing() gives every new
 * thread the same stamp (the min() of task_scan_max()'s milliseconds
 * and a product in nanoseconds, plus two ticks: about 8 ms), so what
 * sets the phase is the runtime a worker brings to the window: its
 * first touch of its part (192 or 32 MiB) and the munmap()s of
 * numa-thp-split, run before numa_regions' barrier on vCPUs that the
 * host shares out by slices of milliseconds, while runtime counts the
 * guest's wall time. That runtime is of the order of the period (1 s)
 * and cannot be known to within one, so its phase is drawn uniform:
 * which worker's tick comes first after numa_next_scan, and so which
 * tasks scan, is a draw as in the guest (whose first calls came from
 * six different workers over the eleven runs logged in
 * docs/data/testbed-vma-walk.md), not the lowest index a tie falls to.
 */
static uint64_t tick_phase_ns(struct rng *phases, uint64_t period_ns)
{
	return period_ns ? rng_below(phases, period_ns) : 0;
}

/* The region, its mappings, the threads' parts and where they start. */
static int build(struct sim *s, unsigned int moving, unsigned int stable)
{
	const struct params *p = &s->p;
	unsigned int nr = moving + stable, procs = (unsigned int)p->v[P_PROCESSES], i;
	uint64_t slice = (uint64_t)p->v[P_SLICE_MIB] << (20 - PAGE_SHIFT);
	uint64_t part = (uint64_t)p->v[P_STABLE_MIB] << (20 - PAGE_SHIFT);
	uint64_t pages = moving * slice + stable * part, v;
	struct object *o;
	struct rng phases;

	rng_seed(&phases, s->seed ^ TICK_PHASE_STREAM);

	s->nr_threads = nr;
	s->thread = calloc(nr, sizeof(*s->thread));
	s->mm = calloc(procs, sizeof(*s->mm));
	s->obj = calloc(1, sizeof(*s->obj));
	if (!s->thread || !s->mm || !s->obj ||
	    !(o = sim_object_new(s, pages, (unsigned int)p->v[P_FOLIO_ORDER])))
		return -1;
	for (i = 0; i < procs; i++) {
		struct mm *mm = sim_mm_new(s, o);

		if (!mm)
			return -1;
		mm->rate.period_ns = (uint64_t)(p->v[P_SCAN_PERIOD_MIN_MS] * 1e6);
	}
	for (i = 0; i < nr; i++) {
		struct thread *t = &s->thread[i];
		/* shared: the second process runs the second half. */
		unsigned int proc = procs > 1 && i >= nr / 2 ? 1 : 0;
		struct mm *mm = &s->mm[proc];

		t->moving = i < moving;
		t->switch_due_ns = (uint64_t)(p->v[P_SWITCH_MS] * 1e6);
		t->cpu = first_cpu(s, i);
		t->mm = mm;
		/* init_numa_balancing(): a task starts with the scan delay as
		 * its period, and a thread with a non-zero node_stamp (the
		 * stagger), so task_tick_numa() never gives it
		 * task_scan_start(): it keeps the delay until its first
		 * update_task_scan_period(). */
		t->scan_rate.period_ns = (uint64_t)(p->v[P_SCAN_DELAY_MS] * 1e6);
		t->scan_stamp_ns = tick_phase_ns(&phases, t->scan_rate.period_ns);
		t->slice_pages = t->moving ? slice : part;
		t->slice_start = t->moving ? i * slice : moving * slice + (i - moving) * part;
		if (!mm->nr_threads++) {
			mm->first_thread = i;
			mm->scan_thread = i;
		}
		sim_mm_add_cpu(s, mm, t->cpu);
		/* First touch: on the node it starts on. */
		for (v = t->slice_start; v < t->slice_start + t->slice_pages; v++)
			o->page[v].node = (uint8_t)s->cpu[t->cpu].node;
	}
	if (sim_numa_groups_init(s))
		return -1;
	/* A moving thread also runs on its partner's CPU, where it goes
	 * when both are due first; move_to() adds any other it takes. */
	for (i = 0; i + 1 < moving; i += 2) {
		sim_mm_add_cpu(s, s->thread[i].mm, s->thread[i + 1].cpu);
		sim_mm_add_cpu(s, s->thread[i + 1].mm, s->thread[i].cpu);
	}
	return 0;
}

/*
 * The region's VMAs: one mapping, or in numa-thp-split's mode one VMA per
 * THP, since the munmap() of each THP's second half leaves its first half
 * a VMA of its own (tools/testbed/numa_regions.c); the scanner then marks
 * each, with its own gather and flush, only for the tasks that faulted on
 * it.
 */
static int add_region(struct vma_walk *w, const struct sim *s, const struct mm *mm)
{
	uint64_t nr = folio_pages(mm, 0), v;
	int err = 0;

	if (!scenario_half_mapped(&s->p))
		return scan_walk_add_pages(w, 0, mm->nr_pages);
	for (v = 0; v < mm->nr_pages && !err; v += nr)
		err = scan_walk_add_pages(w, v, v + nr / 2);
	return err;
}

/*
 * The main thread's stack: the pages of main()'s frame that @mm's
 * workers read (testbed_frame.c), the frame @base bytes into its page.
 * The child of numa-shared runs the second half of the workers on its
 * own copy of the frame, at the same place.
 */
static int add_main_stack(struct vma_walk *w, const struct mm *mm, uint64_t base)
{
	uint64_t readers[WALK_READ_PAGES_MAX];
	int nr = testbed_frame_readers(base, mm->first_thread, mm->nr_threads, readers,
				       WALK_READ_PAGES_MAX);

	return nr < 0 ? -1 : scan_walk_add_read(w, readers, (unsigned int)nr);
}

/*
 * The node of the pages the main thread faults in before it starts the
 * workers: main()'s frame, and each worker's stack top page, which
 * pthread_create() writes (glibc's thread descriptor and static TLS;
 * the worker's first frames follow them in the same page). It is the
 * node the main thread runs on then, which the scheduler chose: the
 * measurement kernel found every stack page on node 0 in one run and on
 * node 1 in another (docs/data/testbed-sweep-log.md), so it is a draw
 * of the run, each node as likely, from a stream of its own so that the
 * run's other draws are what they were. numa-shared's child, placed
 * anew by fork, draws its own for its copy of the frame and its own
 * workers' stacks (not measured).
 */
#define MAIN_NODE_STREAM 0x6d61696e6e6f6465ULL

/*
 * The stacks' pages can migrate (path_private_fault.c), numbered above the
 * region's: one page a stack, on @node at first.
 */
static int make_private(struct vma_walk *w, uint64_t *next_vpn, unsigned int node)
{
	int nr = scan_walk_private(w, *next_vpn, node);

	*next_vpn += nr > 0 ? (uint64_t)nr : 0;
	return nr > 0 ? 0 : -1;
}

/*
 * numa_regions' VMAs in address order, as /proc/PID/maps listed them in
 * the guest (docs/kernel-port.md, "The scanner's walk over the VMAs"),
 * with the tasks that fault on each soon after the scanner marks it: the
 * binary's data and bss and the heap (the main thread's, which wakes
 * every 200 ms and touches them now and then: not modelled, see
 * docs/tlbsim.md), one stack per worker (top-down, so the first worker's
 * is the highest; only its worker faults on it, and only a moving worker
 * in the window), the region, the control page (one page every worker
 * reads each sweep: the first to touch it after a marking takes its one
 * fault), the vDSO (nobody) and the main thread's stack
 * (add_main_stack()). The read-only file mappings, the guard pages and
 * [vvar] are never scanned and are left out. @frame_base: where main()'s
 * frame starts in its page, in bytes; @main_node: where the process's
 * main thread ran when it started its workers.
 */
static int layout_vmas(const struct sim *s, struct mm *mm, uint64_t frame_base,
		       unsigned int main_node)
{
	uint64_t nr = folio_pages(mm, 0);
	uint64_t region = scenario_half_mapped(&s->p) ? (mm->nr_pages + nr - 1) / nr : 1;
	/* the binary's data, bss and heap, the control page, the vDSO and
	 * the main thread's stack; a stack per worker; the region's */
	uint64_t vmas = 6 + (uint64_t)mm->nr_threads + region;
	struct vma_walk *w = vmas <= UINT_MAX ? scan_walk_new((unsigned int)vmas) : NULL;
	uint64_t everyone = mm->nr_threads >= 64 ? ~0ULL : (1ULL << mm->nr_threads) - 1;
	uint64_t next_vpn = mm->nr_pages;
	unsigned int i;
	int err = 0;

	if (!w)
		return -1;
	mm->walk = w;
	for (i = 0; i < 3; i++)
		err |= scan_walk_add(w, VMA_FAULTERS_NONE, 0);
	/* A worker's stack is order 0 in every THP mode: glibc maps it
	 * MAP_STACK, which 6.12 makes VM_NOHUGEPAGE (calc_vm_flag_bits()),
	 * so neither a THP nor an mTHP is allocated in it. Its top page
	 * starts on the main thread's node. A moving worker faults on it
	 * after each marking: it calls tb_now() every sweep, whose return
	 * address lands there. A stable worker's sweep loop keeps to
	 * registers and never touches its stack until the run ends (the
	 * measurement kernel's FAULTBIT lines, docs/data/testbed-sweep-log.md),
	 * so its stack is marked like the sleeping main thread's heap: one
	 * PTE changed the first time, no fault, no pids_active bit. */
	for (i = mm->nr_threads; i-- > 0 && !err;) {
		if (!s->thread[mm->first_thread + i].moving) {
			err |= scan_walk_add(w, VMA_FAULTERS_NONE, 0);
			continue;
		}
		err |= scan_walk_add(w, VMA_FAULTERS_OWN, i);
		err |= make_private(w, &next_vpn, main_node);
	}
	err |= add_region(w, s, mm);
	/* The control page is MAP_SHARED: numa-shared's two processes map
	 * it. Its migrations are not modelled. */
	err |= scan_walk_add_read(w, &everyone, 1);
	err |= scan_walk_add(w, VMA_FAULTERS_NONE, 0);
	err |= add_main_stack(w, mm, frame_base);
	err |= make_private(w, &next_vpn, main_node);
	return err;
}

static int setup_testbed(struct sim *s, const struct policy_def *pol)
{
	const struct params *p = &s->p;
	unsigned int moving = (unsigned int)p->v[P_MOVING_THREADS], i;
	unsigned int stable = (unsigned int)p->v[P_STABLE_THREADS];
	uint64_t warmup = (uint64_t)(p->v[P_WARMUP_S] * 1e9), frame_base;
	struct rng mains;

	s->policy.migrate = pol->lib.migrate;
	s->policy.hint = pol->lib.hint;
	s->policy.split = scenario_kernel_split_policy(p);
	if (moving + stable == 0 || moving % 2 ||
	    sim_machine_init(s, (unsigned int)p->v[P_CPUS], (unsigned int)p->v[P_SOCKETS]) ||
	    moving + stable > s->nr_cpus || build(s, moving, stable) ||
	    sim_machine_tlbs_unbounded(s))
		return -1;
	scenario_unmap_partial(s);
	/* The run's stack offset: the child of numa-shared inherits it. */
	frame_base = rng_below(&s->rng, (1u << PAGE_SHIFT) / TESTBED_FRAME_ALIGN) *
		     TESTBED_FRAME_ALIGN;
	rng_seed(&mains, s->seed ^ MAIN_NODE_STREAM);
	for (i = 0; i < s->nr_mms; i++)
		if (layout_vmas(s, &s->mm[i], frame_base,
				(unsigned int)rng_below(&mains, s->nr_nodes)))
			return -1;
	s->end_ns = warmup + (uint64_t)(p->v[P_DURATION_S] * 1e9);
	s->balancing = pol->balancing;
	for (i = 0; i < s->nr_threads; i++)
		sim_access_start(s, i);
	if (warmup)
		sim_schedule(s, warmup, EV_WINDOW, 0);
	for (i = 0; s->balancing && i < s->nr_mms; i++)
		sim_scan_schedule_first(s, &s->mm[i],
					sim_jiffies_ns(s, p->v[P_SCAN_DELAY_MS] * 1e6) + i);
	return 0;
}

const struct scenario scenario_testbed = {
	.name = "testbed",
	.help = "the kernel testbed's two-region workload on its qemu guest (make testbed)",
	.policies = testbed_policies,
	.nr_policies = ARRAY_SIZE(testbed_policies),
	.default_policy = "always",
	.params = testbed_params,
	.metrics = testbed_metrics,
	.activity = M_MIGRATED_PAGES,
	.defaults = defaults_testbed,
	.sources = sources,
	.profile = &profile_testbed,
	.resolve = resolve_testbed,
	.describe = describe_testbed,
	.check = check_testbed,
	.setup = setup_testbed,
};
