// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * End to end, at reduced scale: the same seed giving the same figures, and
 * the direction of each policy change that the mechanism implies (the
 * oracle's end-to-end checks are check_sim_oracle.c).
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <check.h>
#include "profile.h"
#include "scenario.h"
#include "scan_walk.h"
#include "scenario_cases.h"
#include "scenario_setup.h"
#include "sim.h"
#include "suite_runner.h"

/* The testbed's whole window, with moves far enough apart that a slice is
 * marked twice between two: the kernel's two-fault filter migrates it on
 * the second. */
static const char *const testbed_whole[] = { "slice_mib=3", "stable_mib=7", "switch_ms=1500",
					     "warmup_s=0", "duration_s=6", NULL };

/*
 * The testbed workload: moving threads switch node at the end of the
 * first sweep after switch_ms since their last switch, and their slices
 * follow; the counters are window deltas, so a later window sees fewer
 * switches; skip-single leaves the scanner nothing
 * to drain, and always unmaps no PROT_NONE page unbatched.
 */
START_TEST(test_scenarios_testbed_mechanisms)
{
	static const char *const late[] = { "slice_mib=3", "stable_mib=7", "switch_ms=1500",
					    "warmup_s=2", "duration_s=4", NULL };
	struct metrics a = run_case("testbed", "always", testbed_whole, 1);
	struct metrics b = run_case("testbed", "always", late, 1);

	/* 4 threads x 3 switches, at 1.5 s, 3.0 s and 4.5 s, each a sweep
	 * late; the fourth is due a sweep or more after 6.0 s, the end. */
	ck_assert_double_eq(a.v[M_NODE_SWITCHES], 12);
	ck_assert(b.v[M_NODE_SWITCHES] < a.v[M_NODE_SWITCHES]);
	ck_assert(a.v[M_MIGRATED_PAGES] > 0);
	ck_assert_double_eq(a.v[M_PROTNONE_UNBATCHED_UNMAPS], 0);
}
END_TEST

/* The same run under skip-single (its own test: each testbed run takes
 * seconds, and a test's timeout is for one hang, not for a slow machine). */
START_TEST(test_scenarios_testbed_skip_single_mechanisms)
{
	struct metrics single = run_case("testbed", "skip-single", testbed_whole, 1);

	ck_assert(single.v[M_MIGRATED_PAGES] > 0);
	ck_assert_double_eq(single.v[M_BATCHED_PENDING_DRAINS], 0);
	ck_assert_double_eq(single.v[M_PROTNONE_BATCHED_UNMAPS], 0);
	ck_assert(single.v[M_PROTNONE_UNBATCHED_UNMAPS] > 0);
}
END_TEST

/*
 * numa_regions' thp-split mode unmaps the second half of every THP, which
 * leaves each first half a VMA of its own: task_numa_work() marks each
 * with its own change_prot_numa(), so its own mmu_gather and final flush.
 * 4 x 4 MiB + 4 x 8 MiB of THPs are 24 such VMAs where the whole region
 * is one. The threads' first period is the scan delay
 * (init_numa_balancing()), 1.8 s of the guest's jiffies: the first call,
 * at 1.8 s, is the only one in a 3 s run, and marks every VMA: 23 more
 * flushes, whatever the other VMAs flush.
 */
START_TEST(test_scenarios_testbed_half_mapped_thps_flush_vma_by_vma)
{
#define ONE_CALL "slice_mib=4", "stable_mib=8", "warmup_s=0", "duration_s=3", \
		 "scan_period_min_ms=5000", "scan_period_max_ms=5000"
	static const char *const half[] = { "folio_order=9", "split_partial_thp=1", ONE_CALL, NULL };
	static const char *const whole[] = { "folio_order=9", ONE_CALL, NULL };
#undef ONE_CALL
	struct metrics h = run_case("testbed", "skip-single", half, 1);
	struct metrics w = run_case("testbed", "skip-single", whole, 1);

	ck_assert_double_eq(h.v[M_SCAN_CALLS], 1);
	ck_assert_double_eq(w.v[M_SCAN_CALLS], 1);
	ck_assert_double_eq(h.v[M_SCANNER_FLUSH_MM_CALLS] - w.v[M_SCANNER_FLUSH_MM_CALLS], 23);
}
END_TEST

/* Where the workers' stack pages were: at the run's start, and since. */
struct stack_pages {
	bool seen_start;
	unsigned int main_node[2]; /* each process's main()'s frame page, at the start */
	unsigned int stacks;      /* worker stacks with a faulter, at the start */
	unsigned int owners_moving; /* of them, a moving worker's */
	unsigned int unfaulted;   /* VMAs nobody faults on in the window */
	unsigned int private_;    /* of them, with a page that can migrate */
	unsigned int on_main;     /* of them, on their main thread's node */
	unsigned int moved;       /* stack pages seen on another node since */
};

/* The node of main()'s frame: the last VMA of pages its readers can
 * migrate (the control page, also read, does not migrate). */
static unsigned int frame_node(const struct vma_walk *w)
{
	unsigned int i = w->nr;

	while (i-- > 0)
		if (w->vma[i].faulters == VMA_FAULTERS_READ && w->vma[i].private)
			return w->vma[i].page[0].node;
	ck_abort_msg("no private page of main()'s frame");
	return 0;
}

static void watch_stack_pages(void *ctx, const struct sim *s, uint64_t at)
{
	struct stack_pages *sp = ctx;
	unsigned int m, i, moved = 0;

	(void)at;
	ck_assert_uint_le(s->nr_mms, ARRAY_SIZE(sp->main_node));
	for (m = 0; m < s->nr_mms; m++) {
		const struct vma_walk *w = s->mm[m].walk;

		if (!sp->seen_start)
			sp->main_node[m] = frame_node(w);
		for (i = 0; i < w->nr; i++) {
			const struct walk_vma *v = &w->vma[i];

			if (!sp->seen_start && v->faulters == VMA_FAULTERS_NONE)
				sp->unfaulted++;
			if (v->faulters != VMA_FAULTERS_OWN)
				continue;
			if (!sp->seen_start) {
				sp->stacks++;
				sp->owners_moving +=
					s->thread[s->mm[m].first_thread + v->owner].moving;
				sp->private_ += v->private;
				sp->on_main += v->private && v->page[0].node == sp->main_node[m];
			}
			moved += v->private && v->page[0].node != sp->main_node[m];
		}
	}
	sp->seen_start = true;
	if (moved > sp->moved)
		sp->moved = moved;
}

/* A small testbed run of @policy with @a and then @b (NULL: none) on
 * top, @tick called through it; its parameters in *@p. */
static void run_testbed_ticked(const char *policy, const char *const *a, const char *const *b,
			       uint64_t seed, struct sim_tick *tick, struct params *p)
{
	const struct scenario *sc = scenario_find("testbed");
	struct metrics m;
	char err[160];

	params_defaults(p);
	set_case_params(p, small_testbed);
	set_case_params(p, a);
	if (b)
		set_case_params(p, b);
	ck_assert_msg(scenario_run_ticked(sc, p, scenario_policy(sc, policy), seed, &m, NULL,
					  tick, err, sizeof(err)) == 0, "%s", err);
}

/* ... under `always`, watching its stack pages into *@sp. */
static void run_watching_stacks(const char *const *a, const char *const *b, uint64_t seed,
				struct stack_pages *sp, struct params *p)
{
	struct sim_tick tick = { .every_ns = 10000000, .fn = watch_stack_pages,
				 .ctx = sp, .records = true };

	run_testbed_ticked("always", a, b, seed, &tick, p);
	ck_assert(sp->seen_start);
}

/*
 * A worker's stack: glibc maps it MAP_STACK, which 6.12 turns into
 * VM_NOHUGEPAGE (calc_vm_flag_bits()), so it holds order-0 folios whatever
 * the THP sizes; its top page holds the thread descriptor that
 * pthread_create() writes in the main thread, so it starts on the main
 * thread's node (where main()'s frame is), and the first call's marking
 * sends a moving worker on the other node there to migrate it. A stable
 * worker never touches its stack in the window (its sweep loop keeps to
 * registers), so nobody faults on its stack: counted with the binary's
 * data, bss and heap and the vDSO, which nobody faults on either. The
 * same in the 4 KiB, the 64 KiB mTHP and the 2 MiB THP cells.
 */
START_TEST(test_scenarios_testbed_stacks_start_on_main_node)
{
	static const char *const orders[] = { "folio_order=0", "folio_order=4", "folio_order=9" };
	static const char *const first_call[] = { "warmup_s=0", "duration_s=3", NULL };
	unsigned int k;

	for (k = 0; k < ARRAY_SIZE(orders); k++) {
		const char *const order[] = { orders[k], NULL };
		struct stack_pages sp = { 0 };
		struct params p;

		run_watching_stacks(first_call, order, 1, &sp, &p);
		ck_assert_uint_eq(sp.stacks, (unsigned int)p.v[P_MOVING_THREADS]);
		ck_assert_uint_eq(sp.owners_moving, sp.stacks);
		ck_assert_uint_eq(sp.unfaulted, 4 + (unsigned int)p.v[P_STABLE_THREADS]);
		ck_assert_msg(sp.private_ == sp.stacks && sp.on_main == sp.stacks, "%s: %u of %u",
			      orders[k], sp.on_main, sp.stacks);
		ck_assert_msg(sp.moved > 0, "%s: no stack page left node %u", orders[k],
			      sp.main_node[0]);
	}
}
END_TEST

/*
 * The node the main thread runs on when it creates the workers is the
 * scheduler's choice: the guest's stack pages all started on node 0 in
 * one run and on node 1 in another. Over seeds, each process's main
 * thread is found on both nodes (numa-shared's child draws its own), and
 * its workers' stacks start there with its frame.
 */
START_TEST(test_scenarios_testbed_main_node_is_a_draw)
{
	static const char *const setup_only[] = { "shared_mappers=2", "warmup_s=0",
						  "duration_s=0.02", NULL };
	unsigned int seen[2][2] = { { 0 } }, differ = 0;
	uint64_t seed;

	for (seed = 1; seed <= 24; seed++) {
		struct stack_pages sp = { 0 };
		struct params p;

		run_watching_stacks(setup_only, NULL, seed, &sp, &p);
		ck_assert_uint_eq(sp.on_main, sp.stacks);
		seen[0][sp.main_node[0]]++;
		seen[1][sp.main_node[1]]++;
		differ += sp.main_node[0] != sp.main_node[1];
	}
	/* 24 fair draws miss a node with odds of 2^-23 each */
	ck_assert(seen[0][0] && seen[0][1] && seen[1][0] && seen[1][1]);
	ck_assert(differ > 0);
}
END_TEST

/* What a run's first scan call and its tasks' tick phases were. */
struct first_call {
	int task;           /* the first call's task, or -1 before one */
	bool moving;        /* that task is a moving worker */
	bool phases_in_period; /* every stamp in [0, the scan delay) at the start */
	bool phases_differ; /* two tasks' stamps differ at the start */
	bool seen_start;
};

static void watch_first_call(void *ctx, const struct sim *s, uint64_t at)
{
	struct first_call *f = ctx;
	const struct mm *mm = &s->mm[0];
	unsigned int i;

	(void)at;
	if (!f->seen_start) {
		f->seen_start = true;
		f->phases_in_period = true;
		for (i = 0; i < s->nr_threads; i++) {
			f->phases_in_period &= s->thread[i].scan_stamp_ns <
					       (uint64_t)(s->p.v[P_SCAN_DELAY_MS] * 1e6);
			f->phases_differ |= s->thread[i].scan_stamp_ns != s->thread[0].scan_stamp_ns;
		}
	}
	for (i = 0; f->task < 0 && i < SCAN_CALLS_MAX; i++)
		if (mm->call[i].active) {
			f->task = (int)mm->call[i].task;
			f->moving = s->thread[mm->call[i].task].moving;
		}
}

static struct first_call first_call_of(uint64_t seed)
{
	struct first_call f = { .task = -1 };
	struct sim_tick tick = { .every_ns = 1000000, .fn = watch_first_call, .ctx = &f,
				 .records = true };
	struct params p;

	/* Only the first call is watched: the run ends 3 s in, past the scan
	 * delay (1.8 s at the guest's jiffies) and the last phase after it. */
	static const char *const until_first_call[] = { "duration_s=2.5", NULL };

	run_testbed_ticked("skip-single", until_first_call, NULL, seed, &tick, &p);
	ck_assert(f.seen_start);
	ck_assert_int_ge(f.task, 0);
	return f;
}

/*
 * task_tick_numa() fires a period of a worker's runtime after its
 * node_stamp, and the first tick after numa_next_scan makes the call.
 * init_numa_balancing() gives every worker the same stamp, so the phase
 * is the runtime each brings from before the window, drawn uniform in a
 * period: which worker calls first is a draw of the seed (in the guest,
 * moving and stable workers alike), not the lowest index a tie falls to,
 * and the same seed draws the same.
 */
START_TEST(test_scenarios_testbed_first_scanner_is_drawn)
{
	unsigned int seed, by_moving = 0, by_stable = 0;

	/* Eight seeds, two of them run twice: whole runs, and the test must
	 * fit its timeout under the sanitizers. */
	for (seed = 1; seed <= 8; seed++) {
		struct first_call f = first_call_of(seed);

		ck_assert(f.phases_in_period);
		ck_assert(f.phases_differ);
		if (f.moving)
			by_moving++;
		else
			by_stable++;
		if (seed <= 2)
			ck_assert_int_eq(first_call_of(seed).task, f.task);
	}
	ck_assert_uint_gt(by_moving, 0);
	ck_assert_uint_gt(by_stable, 0);
}
END_TEST

/* Equal, or both undefined (a ratio with nothing to divide by). */
static bool same(double a, double b)
{
	return a == b || (isnan(a) && isnan(b));
}

START_TEST(test_scenarios_same_seed_same_figures)
{
	struct metrics a = run_case("numa-balancing", "always", small_numa, 9);
	struct metrics b = run_case("numa-balancing", "always", small_numa, 9);
	struct metrics c = run_case("numa-balancing", "always", small_numa, 10);
	int i, differ = 0;

	for (i = 0; i < NR_METRICS; i++) {
		if (i == M_WALL_SECONDS)
			continue;
		ck_assert_msg(same(a.v[i], b.v[i]), "%s differs: %g vs %g",
			      metric_defs[i].name, a.v[i], b.v[i]);
		differ += !same(a.v[i], c.v[i]);
	}
	ck_assert_int_gt(differ, 0);
}
END_TEST

START_TEST(test_scenarios_demote_sync_counts)
{
	static const char *const one[] = { "demote_pages=1", NULL };
	static const char *const fail[] = { "demote_pages=4", "fail_at_item=2", NULL };
	struct metrics per = run_case("hugetlb-demote", "per-item", one, 1);
	struct metrics bat = run_case("hugetlb-demote", "batched", one, 1);

	ck_assert_double_eq(per.v[M_SYNC_CALLS], 513);
	ck_assert_double_eq(bat.v[M_SYNC_CALLS], 2);
	ck_assert_double_eq(per.v[M_TLB_FLUSH_ALL_CALLS], 513);
	ck_assert_double_eq(bat.v[M_TLB_FLUSH_ALL_CALLS], 2);
	ck_assert(per.v[M_REAL_MS] > 100 * bat.v[M_REAL_MS]);
	/* A restore failure at item 2 stops there: 2 pages demoted, 1 + 2 syncs. */
	bat = run_case("hugetlb-demote", "batched", fail, 1);
	ck_assert_double_eq(bat.v[M_SYNC_CALLS], 3);
}
END_TEST

START_TEST(test_scenarios_split_batched_is_cheaper)
{
	static const char *const x86[] = { "thp_ops_per_thread=4", "backend=x86-ipi", NULL };
	struct metrics per = run_case("thp-split", "per-pte", small_split, 1);
	struct metrics bat = run_case("thp-split", "batched", small_split, 1);

	ck_assert(per.v[M_SPLITS] == bat.v[M_SPLITS]);
	ck_assert(per.v[M_RANGED_FLUSHES] + per.v[M_FULL_FLUSHES] >
		  100 * (bat.v[M_RANGED_FLUSHES] + bat.v[M_FULL_FLUSHES]));
	ck_assert(per.v[M_OP_LATENCY_US_MEAN] > bat.v[M_OP_LATENCY_US_MEAN]);
	per = run_case("thp-split", "per-pte", x86, 1);
	bat = run_case("thp-split", "batched", x86, 1);
	ck_assert(per.v[M_TLB_IPIS_SENT] > 100 * bat.v[M_TLB_IPIS_SENT]);
}
END_TEST

/*
 * The testbed's thp_split (split_bench=debugfs). Alone, a thread's round
 * is the microbench's lone round: every flush local, no interrupt, and
 * its split write the measured one (round_split_ns) under either policy,
 * since 6.12's per-PTE flushes reach no other CPU of a one-CPU mm. With
 * eight threads, the split writes queue on split_huge_pages' mutex and
 * mmap_lock, and the munmap() flush, which frees page tables, reaches
 * the other CPUs of the mm, lazy or not; per-PTE flushing sends one
 * flush a PTE, batching a few a round.
 */
START_TEST(test_scenarios_split_debugfs_round)
{
	static const char *const alone[] = {
		"split_bench=debugfs", "profile=qemu-testbed", "thp_ops_per_thread=4",
		"warmup_s=0", "duration_s=2", "threads=1", "cpus=8", NULL,
	};
	static const char *const pols[] = { "per-pte", "batched" };
	struct params p;
	unsigned int i;

	params_defaults(&p);
	for (i = 0; i < 2; i++) {
		struct metrics m = run_case("thp-split", pols[i], alone, 1);
		double lone_us = p.v[P_ROUND_SPLIT_NS] / 1e3;

		ck_assert_double_gt(m.v[M_SPLITS], 0);
		ck_assert_double_eq(m.v[M_TLB_IRQS_RECEIVED], 0);
		ck_assert_double_gt(m.v[M_OP_LATENCY_US_MEAN], 0.95 * lone_us);
		ck_assert_double_lt(m.v[M_OP_LATENCY_US_MEAN], 1.05 * lone_us);
	}
	for (i = 0; i < 2; i++) {
		struct metrics m = run_case("thp-split", pols[i], small_split_debugfs, 1);

		ck_assert_double_gt(m.v[M_SPLITS], 0);
		ck_assert_double_eq(m.v[M_STALE_TRANSLATION_VIOLATIONS], 0);
		/* munmap()'s flush frees page tables: it reaches the other
		 * CPUs still in the mm, lazy or not, so at least one a round. */
		ck_assert_double_ge(m.v[M_TLB_IRQS_RECEIVED], m.v[M_SPLITS] / 4);
		ck_assert_double_gt(m.v[M_OP_LATENCY_US_MEAN], 2 * p.v[P_ROUND_SPLIT_NS] / 1e3);
		if (i == 0)
			ck_assert_double_ge(m.v[M_RANGED_FLUSHES], 512 * m.v[M_SPLITS]);
		else
			ck_assert_double_lt(m.v[M_RANGED_FLUSHES], 8 * m.v[M_SPLITS]);
	}
}
END_TEST

/*
 * Two threads of the testbed's thp_split: their regions are one VMA, so
 * one thread's mprotect() holds up the other's THP faults (they fall
 * back to mmap_lock) and the two rounds run in step: the second reaches
 * split_huge_pages' mutex while the first splits, and spins on its owner
 * (mutex_spin_on_owner()), awake, so per-PTE flushing interrupts it for a
 * large share of the split's 512 flushes a THP (the guest: 155 to 200 a
 * THP, docs/data/testbed-ipi-where.md), where batching sends a few; and
 * the split writes wait for the mutex, longer than a lone split. Without
 * the shared VMA the two run out of step, one faulting while the other
 * splits, and no split write ever waits (2.03 ms a THP batched, the lone
 * split's 2.02).
 */
START_TEST(test_scenarios_split_debugfs_two_threads_in_step)
{
	static const char *const two[] = {
		"split_bench=debugfs", "profile=qemu-testbed", "thp_ops_per_thread=4",
		"warmup_s=0", "duration_s=1", "threads=2", "cpus=8", NULL,
	};
	struct metrics per = run_case("thp-split", "per-pte", two, 1);
	struct metrics bat = run_case("thp-split", "batched", two, 1);
	struct params p;

	params_defaults(&p);
	ck_assert_double_gt(per.v[M_SPLITS], 0);
	ck_assert_double_gt(bat.v[M_SPLITS], 0);
	ck_assert_double_gt(per.v[M_TLB_IRQS_RECEIVED], 64 * per.v[M_SPLITS]);
	ck_assert_double_lt(bat.v[M_TLB_IRQS_RECEIVED], 16 * bat.v[M_SPLITS]);
	ck_assert_double_gt(bat.v[M_OP_LATENCY_US_MEAN], 1.2 * p.v[P_ROUND_SPLIT_NS] / 1e3);
	ck_assert_double_eq(per.v[M_STALE_TRANSLATION_VIOLATIONS], 0);
}
END_TEST

START_TEST(test_scenarios_deferred_map_saves_ipis)
{
	static const char *const slow[] = { "scale=0.03", "processes=1",
					    "fault_prompt_fraction=0", NULL };
	struct metrics eager = run_case("numa-hint-fault", "eager-map", small_hint, 1);
	struct metrics deferred = run_case("numa-hint-fault", "deferred-map", small_hint, 1);

	/* Mapping first makes every migrated page cached somewhere. */
	ck_assert(eager.v[M_MIGRATED_PAGES] > 0);
	ck_assert(eager.v[M_TLB_IPIS_SENT] > deferred.v[M_TLB_IPIS_SENT]);
	/* Deferred map flushes only while a scan's flush is pending; with the
	 * faults away from the passes it hardly flushes at all. */
	eager = run_case("numa-hint-fault", "eager-map", slow, 1);
	deferred = run_case("numa-hint-fault", "deferred-map", slow, 1);
	ck_assert(eager.v[M_MIGRATED_PAGES] > 0);
	ck_assert(eager.v[M_TLB_IPIS_SENT] > 10 * deferred.v[M_TLB_IPIS_SENT]);
}
END_TEST

/* On x86-invlpgb the mm, active on every CPU, is flushed by IPIs once
 * (its first flush, before it has a global ASID) and by broadcasts after;
 * the batch broadcasts from the start. */
START_TEST(test_scenarios_invlpgb_broadcasts_instead_of_ipis)
{
	struct metrics ipi = run_case("numa-balancing", "always", race_prone, 1);
	struct metrics bc = run_case("numa-balancing", "always", race_prone_invlpgb, 1);

	ck_assert(ipi.v[M_TLB_IPIS_SENT] > 10 * 3);
	ck_assert_double_eq(ipi.v[M_INVLPGB_FLUSHES], 0);
	ck_assert(bc.v[M_MIGRATED_PAGES] > 0);
	ck_assert(bc.v[M_TLB_IPIS_SENT] <= 3);
	ck_assert(bc.v[M_INVLPGB_FLUSHES] >= bc.v[M_FULL_FLUSHES] - 1);
	ck_assert(bc.v[M_INVLPGB_FLUSHES] > 10);
}
END_TEST

/*
 * Where the page of a migration during a pass was marked. Passes of four
 * tables (4 MiB of a 51 MiB working set, so each pass marks new pages)
 * about every 150 ms. When every marked page is touched within
 * microseconds of its marking, a migration during a pass can only be of
 * the chunk that pass covers; when the touch comes about a scan period
 * later, it is mostly of a page the pass before marked.
 */
#define PASS_ORIGIN_LOAD "cpus=4", "threads=4", "working_set_gib=0.05", "duration_s=3", \
	"scan_size_mb=4", "scan_period_min_ms=100", "scan_delay_ms=100", \
	"misplaced_fraction=0.5", "pte_update_ns=20000", "fault_prompt_fraction=1"

START_TEST(test_scenarios_pass_origin_of_migrations)
{
	static const char *const at_once[] = { PASS_ORIGIN_LOAD, "fault_prompt_ms=0.05", NULL };
	static const char *const a_period_later[] = { PASS_ORIGIN_LOAD, "fault_prompt_ms=150",
						      NULL };
	struct metrics now = run_case("numa-balancing", "always", at_once, 1);
	struct metrics later = run_case("numa-balancing", "always", a_period_later, 1);

	ck_assert(now.v[M_MIGRATIONS_DURING_PASS_FRACTION] > 0);
	ck_assert_double_eq(now.v[M_DURING_PASS_THIS_CHUNK_FRACTION], 1);
	ck_assert_double_eq(now.v[M_DURING_PASS_RECENT_FRACTION], 0);
	ck_assert(later.v[M_MIGRATIONS_DURING_PASS_FRACTION] > 0);
	ck_assert(later.v[M_DURING_PASS_RECENT_FRACTION] > 0.5);
	ck_assert(later.v[M_DURING_PASS_THIS_CHUNK_FRACTION] < 0.1);
	ck_assert(later.v[M_DURING_PASS_THIS_CHUNK_FRACTION] +
		  later.v[M_DURING_PASS_RECENT_FRACTION] <= 1);
}
END_TEST

/*
 * numa-hint-fault models v5.13, before migrations batched their flush:
 * every unmap of a cached page is a one-page flush (ptep_clear_flush()),
 * nothing ever marks the mm batched, so the scanner has nothing to drain.
 * The same load on a v6.4+ kernel batches: full flushes and drains.
 */
START_TEST(test_scenarios_hint_fault_models_pre_v6_4_migration)
{
	static const char *const batching[] = { "scale=0.03", "processes=1",
						"migrate_batching=1", NULL };
	struct metrics old = run_case("numa-hint-fault", "eager-map", small_hint, 1);
	struct metrics now = run_case("numa-hint-fault", "eager-map", batching, 1);

	ck_assert(old.v[M_MIGRATED_PAGES] > 0);
	ck_assert_double_eq(old.v[M_BATCHED_PENDING_DRAINS], 0);
	ck_assert(old.v[M_RANGED_FLUSHES] > 0);
	ck_assert(now.v[M_BATCHED_PENDING_DRAINS] > 0);
	ck_assert(now.v[M_FULL_FLUSHES] > old.v[M_FULL_FLUSHES]);
}
END_TEST

START_TEST(test_scenarios_skip_policies_flush_less)
{
	struct metrics always = run_case("numa-balancing", "always", race_prone, 1);
	struct metrics skip = run_case("numa-balancing", "skip-single", race_prone, 1);

	/* Batched single-folio migrations flush everything; skipping the
	 * batch flushes one page: fewer full flushes for the same work. */
	ck_assert(always.v[M_MIGRATED_PAGES] > 0);
	ck_assert(always.v[M_FULL_FLUSHES] > skip.v[M_FULL_FLUSHES]);
}
END_TEST

/*
 * The calibrated mechanism at reduced scale (64 CPUs, 10 s): batching a
 * single folio leaves a pending generation that the scanner drains under
 * each table's lock, so the unpatched passes are long, the convoy behind
 * them is long, and more interrupts land per migrated page. Every
 * single-folio policy avoids the batch for order-0 private pages, so they
 * agree with each other.
 */
START_TEST(test_scenarios_numa_balancing_directions)
{
	static const char *const mid[] = { "cpus=64", "working_set_gib=8",
					   "duration_s=10", NULL };
	struct metrics always = run_case("numa-balancing", "always", mid, 1);
	struct metrics numa = run_case("numa-balancing", "skip-numa", mid, 1);
	struct metrics single = run_case("numa-balancing", "skip-single", mid, 1);
	struct metrics mapcount = run_case("numa-balancing", "skip-single-mapcount", mid, 1);

	ck_assert(always.v[M_BATCHED_PENDING_DRAINS] > 0);
	ck_assert_double_eq(single.v[M_BATCHED_PENDING_DRAINS], 0);
	ck_assert(always.v[M_SCAN_PASS_MS_MEAN] > 5 * single.v[M_SCAN_PASS_MS_MEAN]);
	ck_assert(always.v[M_TLB_IRQS_PER_MIGRATED_PAGE] >
		  single.v[M_TLB_IRQS_PER_MIGRATED_PAGE]);
	ck_assert(always.v[M_THROUGHPUT_LOSS_PCT] > single.v[M_THROUGHPUT_LOSS_PCT]);
	ck_assert(always.v[M_MIGRATIONS_WITH_FLUSH_PENDING_FRACTION] >
		  single.v[M_MIGRATIONS_WITH_FLUSH_PENDING_FRACTION]);
	ck_assert_double_eq(numa.v[M_TLB_IRQS_RECEIVED], single.v[M_TLB_IRQS_RECEIVED]);
	ck_assert_double_eq(mapcount.v[M_TLB_IRQS_RECEIVED], single.v[M_TLB_IRQS_RECEIVED]);
}
END_TEST

/*
 * Where the variants part: a MAP_SHARED region mapped by two processes has
 * mapcount 2, which skip-single-mapcount batches and skip-numa does not;
 * 2 MiB folios are large, which skip-single batches.
 */
START_TEST(test_scenarios_variants_disagree)
{
	static const char *const shared[] = { "cpus=32", "working_set_gib=2",
					      "duration_s=6", "shared_mappers=2", NULL };
	static const char *const thp[] = { "cpus=32", "working_set_gib=2",
					   "duration_s=6", "folio_order=9", NULL };
	struct metrics numa = run_case("numa-balancing", "skip-numa", shared, 1);
	struct metrics mapcount = run_case("numa-balancing", "skip-single-mapcount", shared, 1);

	ck_assert(mapcount.v[M_MIGRATED_PAGES] > 0);
	ck_assert_double_eq(numa.v[M_BATCHED_PENDING_DRAINS], 0);
	ck_assert(mapcount.v[M_BATCHED_PENDING_DRAINS] > 0);
	ck_assert_double_eq(mapcount.v[M_STALE_TRANSLATION_VIOLATIONS], 0);
	numa = run_case("numa-balancing", "skip-numa", thp, 1);
	mapcount = run_case("numa-balancing", "skip-single", thp, 1);
	ck_assert(mapcount.v[M_MIGRATED_PAGES] > 0);
	ck_assert_double_eq(numa.v[M_BATCHED_PENDING_DRAINS], 0);
	ck_assert(mapcount.v[M_BATCHED_PENDING_DRAINS] > 0);
	ck_assert_double_eq(mapcount.v[M_STALE_TRANSLATION_VIOLATIONS], 0);
	/*
	 * 6.12's folio_mapcount() of a 2 MiB folio that one process maps
	 * with PTEs is 512, so skip-single-mapcount batches it too: the
	 * kernel under that policy (the testbed's numa-mthp64 cell) makes
	 * as many batched-pending flushes as under always.
	 */
	mapcount = run_case("numa-balancing", "skip-single-mapcount", thp, 1);
	ck_assert(mapcount.v[M_MIGRATED_PAGES] > 0);
	ck_assert(mapcount.v[M_BATCHED_PENDING_DRAINS] > 0);
	ck_assert_double_eq(mapcount.v[M_STALE_TRANSLATION_VIOLATIONS], 0);
}
END_TEST

static struct params effective(const char *scenario, const char *const *kv)
{
	struct params user, eff;

	params_defaults(&user);
	set_case_params(&user, kv);
	scenario_params(scenario_find(scenario), &user, &eff);
	return eff;
}

START_TEST(test_scenario_params_scaled_and_clamped)
{
	static const char *const numa[] = { "scale=0.05", NULL };
	static const char *const numa_threads[] = { "cpus=4", "threads=64", "sockets=8", NULL };
	static const char *const split[] = { "threads=3", NULL };
	static const char *const split_cpus[] = { "cpus=16", "threads=32", NULL };
	static const char *const demote[] = { "scale=0.5", "demote_pages=8", NULL };
	struct params p = effective("numa-balancing", numa);

	ck_assert_double_eq(p.v[P_CPUS], 19);    /* round(384 * 0.05) */
	ck_assert_double_eq(p.v[P_THREADS], 19); /* one per CPU */
	ck_assert_double_eq(p.v[P_DURATION_S], 9);
	ck_assert_double_eq(p.v[P_WORKING_SET_GIB], 6);
	p = effective("numa-balancing", numa_threads);
	ck_assert_double_eq(p.v[P_THREADS], 4);
	ck_assert_double_eq(p.v[P_SOCKETS], 4);
	/* thp-split's machine follows its threads, unless cpus is given. */
	p = effective("thp-split", split);
	ck_assert_double_eq(p.v[P_CPUS], 3);
	p = effective("thp-split", split_cpus);
	ck_assert_double_eq(p.v[P_CPUS], 16);
	ck_assert_double_eq(p.v[P_THREADS], 16);
	p = effective("hugetlb-demote", demote);
	ck_assert_double_eq(p.v[P_DEMOTE_PAGES], 4);
	ck_assert_double_eq(p.v[P_CPUS], 32);
}
END_TEST

/* scale shrinks demote_pages for real: per-item sync calls follow it. */
START_TEST(test_scenarios_demote_scale_shrinks_pages)
{
	static const char *const full[] = { "demote_pages=8", NULL };
	static const char *const half[] = { "demote_pages=8", "scale=0.5", NULL };
	struct metrics a = run_case("hugetlb-demote", "per-item", full, 1);
	struct metrics b = run_case("hugetlb-demote", "per-item", half, 1);

	ck_assert_double_lt(b.v[M_SYNC_CALLS], a.v[M_SYNC_CALLS]);
}
END_TEST

/* Every scenario reads only real parameters, reports the oracle's count,
 * and a ratio with a zero denominator is undefined, not 0. */
START_TEST(test_scenarios_declare_params_and_metrics)
{
	static const char *const tiny[] = { "scale=0.01", NULL };
	struct metrics off = run_case("numa-balancing", "off", tiny, 1);
	unsigned int i;

	for (i = 0; i < nr_scenarios; i++) {
		ck_assert(scenario_reports(scenarios[i], M_STALE_TRANSLATION_VIOLATIONS));
		ck_assert(scenario_reads(scenarios[i], P_BACKEND));
	}
	ck_assert(!scenario_reads(&scenario_thp_split, P_WORKING_SET_GIB));
	ck_assert(!scenario_reads(&scenario_hugetlb_demote, P_THREADS));
	ck_assert(!scenario_reports(&scenario_thp_split, M_MIGRATED_PAGES));
	ck_assert(isnan(off.v[M_TLB_IRQS_PER_MIGRATED_PAGE]));
}
END_TEST

/* The profile parameter's names follow the registry, and a profile is the
 * machine: it overrides a scenario's defaults, the user overrides it. */
START_TEST(test_profiles_named_and_applied)
{
	static const char *const on_split[] = { "profile=qemu-testbed", "ipi_first_ns=123", NULL };
	const struct param_def *d = &param_defs[P_PROFILE];
	struct params eff;
	unsigned int i;

	ck_assert_str_eq(d->choices[0], "none");
	ck_assert_ptr_null(profile_at(0));
	for (i = 1; d->choices[i]; i++)
		ck_assert_str_eq(profile_at(i)->name, d->choices[i]);
	ck_assert_ptr_null(profile_at(i));
	eff = effective("thp-split", on_split);
	ck_assert_double_eq(eff.v[P_BACKEND], BACKEND_X86_IPI); /* not the arm64 default */
	ck_assert_double_eq(eff.v[P_SOCKETS], 2);
	ck_assert_double_eq(eff.v[P_IPI_FIRST_NS], 123);
	/* The guest's host: milliseconds a slice, on 2 cores. */
	ck_assert(eff.v[P_HOST_SLICE_NS] > 1e6);
	ck_assert_double_eq(eff.v[P_HOST_CPUS], 2);
	eff = effective("testbed", small_testbed);
	ck_assert_double_eq(eff.v[P_PROFILE], 1);
	ck_assert_double_eq(eff.v[P_TLB_ENTRIES], 0);
	ck_assert_double_eq(eff.v[P_TLB_RESIZE], 1);
	ck_assert_str_eq(scenario_param_source(scenario_find("testbed"), P_FAULT_NS),
			 profile_source(&profile_testbed, P_FAULT_NS));
}
END_TEST

static Suite *scenarios_suite(void)
{
	Suite *s = suite_create("sim_scenarios");
	TCase *tc = tcase_create("core");
	TCase *testbed = tcase_create("testbed");

	/*
	 * The testbed's whole-window runs, tagged "long": each takes seconds
	 * (10 to 20 s a test here, and a loaded 2-core CI machine has taken
	 * several times that; the timeout is for a hang). CI leaves the tag
	 * out (CK_EXCLUDE_TAGS=long) of every build but the README's run: the
	 * testbed's code runs there in the oracle's shorter cases.
	 */
	tcase_set_timeout(testbed, 300);
	tcase_set_tags(testbed, "long");
	tcase_add_test(testbed, test_scenarios_testbed_mechanisms);
	tcase_add_test(testbed, test_scenarios_testbed_skip_single_mechanisms);
	tcase_add_test(testbed, test_scenarios_testbed_half_mapped_thps_flush_vma_by_vma);
	tcase_add_test(testbed, test_scenarios_testbed_first_scanner_is_drawn);
	tcase_add_test(testbed, test_scenarios_testbed_stacks_start_on_main_node);
	tcase_add_test(testbed, test_scenarios_testbed_main_node_is_a_draw);
	suite_add_tcase(s, testbed);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_profiles_named_and_applied);
	tcase_add_test(tc, test_scenarios_same_seed_same_figures);
	tcase_add_test(tc, test_scenarios_demote_sync_counts);
	tcase_add_test(tc, test_scenarios_split_batched_is_cheaper);
	tcase_add_test(tc, test_scenarios_split_debugfs_round);
	tcase_add_test(tc, test_scenarios_split_debugfs_two_threads_in_step);
	tcase_add_test(tc, test_scenarios_deferred_map_saves_ipis);
	tcase_add_test(tc, test_scenarios_skip_policies_flush_less);
	tcase_add_test(tc, test_scenarios_invlpgb_broadcasts_instead_of_ipis);
	tcase_add_test(tc, test_scenarios_hint_fault_models_pre_v6_4_migration);
	tcase_add_test(tc, test_scenarios_pass_origin_of_migrations);
	tcase_add_test(tc, test_scenarios_numa_balancing_directions);
	tcase_add_test(tc, test_scenarios_variants_disagree);
	tcase_add_test(tc, test_scenario_params_scaled_and_clamped);
	tcase_add_test(tc, test_scenarios_demote_scale_shrinks_pages);
	tcase_add_test(tc, test_scenarios_declare_params_and_metrics);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(scenarios_suite());
}
