// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The NUMA scanner's walk over VMAs (tools/tlbsim/scan_walk.c), against
 * what Linux 6.12's task_numa_work() and vma_is_accessed() do
 * (kernel/sched/fair.c): every case below is a sequence of calls whose
 * outcome follows from that code, not from the model's.
 */
#include <stdlib.h>
#include <check.h>
#include "paths.h"
#include "scan_walk.h"
#include "sim.h"
#include "suite_runner.h"

#define NR_PAGES 1024
#define NR_TASKS 4
#define DELAY_NS 1000000000ULL /* scan_delay_ms 1000, jiffies_rate 1 */
#define WALK_CAP 16

static struct sim *sim;
static struct mm *mm;
static struct vma_walk *walk;
/* The ranges of the last whole_call(), in the order it marked them */
static struct scan_range range[2 * WALK_CAP];
static unsigned int nr_ranges;

static void setup(void)
{
	sim = calloc(1, sizeof(*sim));
	mm = calloc(1, sizeof(*mm));
	walk = scan_walk_new(WALK_CAP);
	ck_assert(sim && mm && walk);
	params_defaults(&sim->p);
	sim->p.v[P_SCAN_DELAY_MS] = 1000;
	rng_seed(&sim->rng, 1);
	mm->nr_pages = NR_PAGES;
	mm->nr_threads = NR_TASKS;
	mm->rate.period_ns = 1000000000ULL;
	mm->walk = walk;
}

static void teardown(void)
{
	free(walk);
	free(mm);
	free(sim);
}

/*
 * A call by @task with a budget of @budget pages, run to its end with no
 * other under way, every range it marks changing a PTE (as a marking
 * after faults does). Returns the modelled pages it marked.
 */
static uint64_t whole_call(unsigned int task, uint64_t budget)
{
	struct walk_call c;
	struct scan_range r;

	nr_ranges = 0;
	scan_walk_begin(sim, mm, &c, task, budget);
	while (scan_walk_next(sim, mm, &c, &r)) {
		ck_assert_uint_lt(nr_ranges, 2 * WALK_CAP);
		range[nr_ranges++] = r;
		if (scan_walk_marked(mm, &c, true))
			break;
	}
	return c.marked;
}

/* A call by @task at @now with a budget that covers the region. */
static uint64_t call(unsigned int task, uint64_t now)
{
	sim->now = now;
	return whole_call(task, NR_PAGES * 4);
}

/* Two sequences at their start mark everything (@pages) for everyone. */
static void first_two_sequences_of(uint64_t pages)
{
	ck_assert_uint_eq(call(0, 0), pages);
	ck_assert_uint_eq(mm->scan_seq, 1);
	ck_assert_uint_eq(call(1, DELAY_NS + 1), pages);
	ck_assert_uint_eq(mm->scan_seq, 2);
}

static void first_two_sequences(void)
{
	first_two_sequences_of(NR_PAGES);
}

START_TEST(test_walk_first_two_sequences_mark_every_vma)
{
	unsigned int i;

	scan_walk_add(walk, VMA_FAULTERS_NONE, 0);
	scan_walk_add(walk, VMA_FAULTERS_OWN, 2);
	scan_walk_add_pages(walk, 0, NR_PAGES);
	scan_walk_add(walk, VMA_FAULTERS_NONE, 0);
	/* The first call marks all and reaches the end: the sequence
	 * completes in one call though nobody faulted anywhere. */
	ck_assert_uint_eq(call(0, 0), NR_PAGES);
	ck_assert_uint_eq(mm->scan_seq, 1);
	ck_assert_uint_eq(walk->off, 0);
	for (i = 0; i < walk->nr; i++)
		ck_assert_uint_eq(walk->vma[i].prev_seq, 0);
	/* Before the VMAs' scan delay (numab_state->next_scan) a call in
	 * sequence 1 marks nothing, skips nothing for want of a bit, and so
	 * completes the sequence: the delay used up the second of the two
	 * sequences every task may mark a VMA in. */
	ck_assert_uint_eq(call(1, DELAY_NS / 2), 0);
	ck_assert_uint_eq(mm->scan_seq, 2);
	/* In sequence 2 task 1 has no bit anywhere: it forces the first
	 * VMA and leaves the sequence open. */
	ck_assert_uint_eq(call(1, DELAY_NS + 1), 0);
	ck_assert_uint_eq(mm->scan_seq, 2);
	ck_assert_uint_eq(walk->vma[0].prev_seq, 2);
	ck_assert_uint_eq(walk->off, 1);
	ck_assert_uint_eq(walk->pid_skips, 4);
	/* Only the owner faults on its stack. */
	ck_assert_uint_eq(walk->vma[1].pids[1], 1ULL << 2);
}
END_TEST

START_TEST(test_walk_skips_unfaulted_vmas_and_forces_one)
{
	/* [heap: nobody][stack of task 0][stack of task 1][region][vDSO] */
	scan_walk_add(walk, VMA_FAULTERS_NONE, 0);
	scan_walk_add(walk, VMA_FAULTERS_OWN, 0);
	scan_walk_add(walk, VMA_FAULTERS_OWN, 1);
	scan_walk_add_pages(walk, 0, NR_PAGES);
	scan_walk_add(walk, VMA_FAULTERS_NONE, 0);
	first_two_sequences();
	scan_walk_hint_fault(walk, 0, 0); /* only task 0 faulted on the region */

	/* Task 1: its stack only; then, having skipped some, it forces
	 * the first unmarked VMA from the offset (the heap) and returns
	 * with the sequence open and the offset just past the heap. */
	ck_assert_uint_eq(call(1, 2 * DELAY_NS), 0);
	ck_assert_uint_eq(mm->scan_seq, 2);
	ck_assert_uint_eq(walk->vma[2].prev_seq, 2);
	ck_assert_uint_eq(walk->vma[0].prev_seq, 2);
	ck_assert_uint_eq(walk->vma[1].prev_seq, 1);
	ck_assert_uint_eq(walk->off, 1);
	ck_assert_uint_eq(walk->forced, 1);

	/* Task 0: its stack and the region; task 1's stack, marked this
	 * sequence, moves the offset past it; the vDSO is then forced. */
	ck_assert_uint_eq(call(0, 3 * DELAY_NS), NR_PAGES);
	ck_assert_uint_eq(mm->scan_seq, 2);
	ck_assert_uint_eq(walk->vma[4].prev_seq, 2);
	ck_assert_uint_eq(walk->off, 5);

	/* The next call finds no VMA at the offset: a new sequence, which
	 * task 2 (no bits anywhere) walks by forcing the heap. */
	ck_assert_uint_eq(call(2, 4 * DELAY_NS), 0);
	ck_assert_uint_eq(mm->scan_seq, 3);
	ck_assert_uint_eq(walk->vma[0].prev_seq, 3);
	ck_assert_uint_eq(walk->off, 1);
}
END_TEST

START_TEST(test_walk_leaves_a_skipped_vma_behind_a_marked_one)
{
	/* [heap][data][region]: as the guest's walk showed, a VMA skipped
	 * before one already marked this sequence is passed over for the
	 * whole sequence. */
	scan_walk_add(walk, VMA_FAULTERS_NONE, 0);
	scan_walk_add(walk, VMA_FAULTERS_NONE, 0);
	scan_walk_add_pages(walk, 0, NR_PAGES);
	first_two_sequences();
	scan_walk_hint_fault(walk, 0, 0);

	/* Task 0 marks the region, then forces the heap. */
	ck_assert_uint_eq(call(0, 2 * DELAY_NS), NR_PAGES);
	ck_assert_uint_eq(walk->off, 1);
	/* Task 1 skips the data, finds the region marked (offset past
	 * it), reaches the end having skipped: the retry finds no VMA at
	 * the offset, so sequence 3 begins and its first VMA is forced. */
	ck_assert_uint_eq(call(1, 3 * DELAY_NS), 0);
	ck_assert_uint_eq(mm->scan_seq, 3);
	ck_assert_uint_eq(walk->vma[1].prev_seq, 1); /* not marked in 2 */
	ck_assert_uint_eq(walk->vma[0].prev_seq, 3);
}
END_TEST

START_TEST(test_walk_pid_bits_last_two_reset_periods)
{
	scan_walk_add(walk, VMA_FAULTERS_NONE, 0);
	scan_walk_add_pages(walk, 0, NR_PAGES);
	first_two_sequences();
	/* The region's numab_state started at t=0: the first reset comes
	 * at next_scan (1 delay) + 4 delays. Task 0 faults before it. */
	scan_walk_hint_fault(walk, 0, 0);
	ck_assert_uint_eq(call(0, 2 * DELAY_NS), NR_PAGES);
	/* Let the sequence close (the forced heap), then: after one reset
	 * the bit has moved to pids_active[0] and still counts. */
	call(0, 2 * DELAY_NS + 1);
	ck_assert_uint_eq(call(0, 6 * DELAY_NS), NR_PAGES);
	ck_assert_uint_eq(walk->vma[1].pids[0], 1);
	ck_assert_uint_eq(walk->vma[1].pids[1], 0);
	call(0, 6 * DELAY_NS + 1);
	/* After a second reset with no fault in between it is gone, and
	 * task 0 no longer marks the region unforced. */
	ck_assert_uint_eq(call(0, 10 * DELAY_NS + 1), 0);
	ck_assert_uint_eq(walk->vma[1].pids[0] | walk->vma[1].pids[1], 0);
	ck_assert_uint_eq(walk->vma[0].prev_seq, mm->scan_seq); /* the heap was forced */
}
END_TEST

START_TEST(test_walk_forces_a_vma_left_more_sequences_than_threads)
{
	scan_walk_add(walk, VMA_FAULTERS_NONE, 0);
	scan_walk_add_pages(walk, 0, NR_PAGES);
	first_two_sequences();
	/* Unmarked for more sequences than the process has threads (the
	 * workers and the main thread): open to any task again. */
	mm->scan_seq = 2 + NR_TASKS + 1;
	walk->vma[0].prev_seq = 1;
	walk->vma[1].prev_seq = mm->scan_seq - 1;
	/* Task 3 has no bit on either: the heap is open to it anyway; the
	 * region, unmarked for one sequence only, is skipped, then forced. */
	ck_assert_uint_eq(call(3, 2 * DELAY_NS), NR_PAGES);
	ck_assert_uint_eq(walk->vma[0].prev_seq, mm->scan_seq);
	ck_assert_uint_eq(walk->pid_skips, 1);
	ck_assert_uint_eq(walk->forced, 1);
	ck_assert_uint_eq(walk->vma[1].prev_seq, mm->scan_seq);
}
END_TEST

START_TEST(test_walk_budget_ends_inside_the_region)
{
	scan_walk_add(walk, VMA_FAULTERS_NONE, 0);
	scan_walk_add_pages(walk, 0, NR_PAGES);
	scan_walk_add(walk, VMA_FAULTERS_NONE, 0);
	first_two_sequences();
	scan_walk_hint_fault(walk, 0, 0);
	sim->now = 2 * DELAY_NS;
	/* scan_size worth of pages rounded up to a PMD (512 pages: end =
	 * ALIGN(start + pages, HPAGE_SIZE)), then the call is over at an
	 * offset inside the region, the sequence open. */
	ck_assert_uint_eq(whole_call(0, NR_PAGES / 4), NR_PAGES / 2);
	ck_assert(walk->mid_region);
	ck_assert_uint_eq(walk->off, 1);
	ck_assert_uint_eq(walk->off_vpn, NR_PAGES / 2);
	/* Task 1 has no bit on the region, but a VMA started before the
	 * offset is finished whoever calls (numa_scan_offset > vm_start). */
	ck_assert_uint_eq(whole_call(1, NR_PAGES), NR_PAGES / 2);
	ck_assert(!walk->mid_region);
	ck_assert_uint_eq(mm->scan_seq, 2);
}
END_TEST

START_TEST(test_walk_delays_run_in_jiffies)
{
	scan_walk_add_pages(walk, 0, NR_PAGES);
	/* A guest whose jiffies run at half speed: the scan delay of a new
	 * VMA lasts twice as long in the machine's time. */
	sim->p.v[P_JIFFIES_RATE] = 0.5;
	ck_assert_uint_eq(sim_jiffies_ns(sim, 1e9), 2000000000ULL);
	ck_assert_uint_eq(call(0, 0), NR_PAGES);
	ck_assert_uint_eq(walk->vma[0].next_scan_ns, 2 * DELAY_NS);
	ck_assert_uint_eq(walk->vma[0].reset_ns, 10 * DELAY_NS);
	ck_assert_uint_eq(call(1, DELAY_NS + 1), 0); /* still inside the delay */
	ck_assert_uint_eq(call(1, 2 * DELAY_NS + 1), NR_PAGES);
}
END_TEST

/*
 * numa_regions' thp-split mode unmaps the second half of every 2 MiB: the
 * region becomes one VMA per first half, each with its own numab_state.
 * Here four such VMAs of PIECE pages, PIECE apart.
 */
#define PIECE (NR_PAGES / 8)

static void add_pieces(void)
{
	unsigned int i;

	for (i = 0; i < 4; i++)
		ck_assert_int_eq(scan_walk_add_pages(walk, 2 * i * PIECE, (2 * i + 1) * PIECE), 0);
}

static void assert_range(unsigned int i, uint64_t start, uint64_t end)
{
	ck_assert_uint_gt(nr_ranges, i);
	ck_assert_uint_eq(range[i].start, start);
	ck_assert_uint_eq(range[i].end, end);
}

START_TEST(test_walk_pieces_are_marked_by_the_task_that_faulted_on_them)
{
	add_pieces();
	first_two_sequences_of(4 * PIECE);
	ck_assert_uint_eq(nr_ranges, 4); /* every piece, each its own */
	/* vma_set_access_pid_bit() sets the bit of the VMA the faulting
	 * page is in: task 0 faulted on pieces 0 and 2, task 1 on piece 1. */
	scan_walk_hint_fault(walk, 0, 3);
	scan_walk_hint_fault(walk, 0, 4 * PIECE + 5);
	scan_walk_hint_fault(walk, 1, 2 * PIECE);
	sim->now = 2 * DELAY_NS;
	/* Task 0 marks its two, skips the others, then forces the first VMA
	 * left from the offset (piece 1) and stops: 3 change_prot_numa()
	 * calls, the forced one last, the sequence open after piece 1. */
	ck_assert_uint_eq(whole_call(0, NR_PAGES * 4), 3 * PIECE);
	ck_assert_uint_eq(nr_ranges, 3);
	assert_range(0, 0, PIECE);
	assert_range(1, 4 * PIECE, 5 * PIECE);
	assert_range(2, 2 * PIECE, 3 * PIECE);
	ck_assert_uint_eq(walk->pid_skips, 2);
	ck_assert_uint_eq(walk->forced, 1);
	ck_assert_uint_eq(walk->off, 2);
	ck_assert_uint_eq(mm->scan_seq, 2);
	/* Task 1 starts at the offset and finds piece 2 done, piece 3 not
	 * its own: it reaches the end having skipped one, and the forced
	 * retry from the offset marks piece 3. */
	ck_assert_uint_eq(whole_call(1, NR_PAGES * 4), PIECE);
	assert_range(0, 6 * PIECE, 7 * PIECE);
	ck_assert_uint_eq(walk->forced, 2);
}
END_TEST

START_TEST(test_walk_fault_bit_goes_to_the_vma_of_its_page)
{
	const uint64_t everyone = (1ULL << NR_TASKS) - 1;
	unsigned int i;

	ck_assert_int_eq(scan_walk_add(walk, VMA_FAULTERS_NONE, 0), 0);
	add_pieces();
	ck_assert_int_eq(scan_walk_add_read(walk, &everyone, 1), 0);
	/* No numab_state before the scanner first meets a VMA. */
	scan_walk_hint_fault(walk, 3, 0);
	ck_assert_uint_eq(walk->vma[1].pids[1], 0);
	call(0, 0);
	scan_walk_hint_fault(walk, 3, 3 * PIECE - 1); /* last page of piece 1 */
	scan_walk_hint_fault(walk, 2, PIECE);         /* a hole: no VMA */
	scan_walk_hint_fault(walk, 2, 7 * PIECE);     /* past the last piece */
	for (i = 1; i <= 4; i++)
		ck_assert_uint_eq(walk->vma[i].pids[1], i == 2 ? 1ULL << 3 : 0);
	ck_assert_uint_eq(walk->vma[0].pids[1], 0);
}
END_TEST

START_TEST(test_walk_budget_stops_after_a_whole_piece)
{
	add_pieces();
	first_two_sequences_of(4 * PIECE);
	scan_walk_hint_fault(walk, 0, 0);
	scan_walk_hint_fault(walk, 0, 2 * PIECE);
	sim->now = 2 * DELAY_NS;
	/* A budget of one and a half pieces: piece 0 whole, then piece 1
	 * whole too, its chunk rounded up to a PMD and cut at its end; the
	 * budget is spent there, so the call is over past piece 1 (goto
	 * out) with its prev_scan_seq not set. */
	ck_assert_uint_eq(whole_call(0, PIECE + PIECE / 2), 2 * PIECE);
	ck_assert_uint_eq(nr_ranges, 2);
	assert_range(0, 0, PIECE);
	assert_range(1, 2 * PIECE, 3 * PIECE);
	ck_assert(!walk->mid_region);
	ck_assert_uint_eq(walk->off, 2);
	ck_assert_uint_eq(walk->vma[0].prev_seq, 2);
	ck_assert_uint_eq(walk->vma[1].prev_seq, 1);
	ck_assert_uint_eq(mm->scan_seq, 2);
	/* The next call starts past piece 1: task 1 has no bit on pieces
	 * 2 and 3, so it forces piece 2 and piece 1 is not marked again. */
	ck_assert_uint_eq(whole_call(1, NR_PAGES * 4), PIECE);
	ck_assert_uint_eq(nr_ranges, 1);
	assert_range(0, 4 * PIECE, 5 * PIECE);
	ck_assert_uint_eq(walk->off, 3);
}
END_TEST

/*
 * change_pte_range() changes only present PTEs, and a present PTE made
 * PROT_NONE must be flushed (x86's pte_needs_flush()): a VMA the model
 * keeps no pages of gets its gather's flush (an empty range) when a page
 * of it was mapped again since its last marking: at the process's start,
 * or by the faults of whoever touches it.
 */
START_TEST(test_walk_flushes_a_vma_only_when_remapped)
{
	ck_assert_int_eq(scan_walk_add(walk, VMA_FAULTERS_OWN, 0), 0);  /* a stack */
	ck_assert_int_eq(scan_walk_add_pages(walk, 0, NR_PAGES), 0);
	ck_assert_int_eq(scan_walk_add(walk, VMA_FAULTERS_NONE, 0), 0); /* idle heap */
	ck_assert_uint_eq(call(0, 0), NR_PAGES);
	ck_assert_uint_eq(nr_ranges, 3);
	assert_range(0, 0, 0);
	assert_range(1, 0, NR_PAGES);
	assert_range(2, 0, 0);
	/* The stack's owner faulted on it again, nobody on the heap. */
	ck_assert_uint_eq(call(1, DELAY_NS + 1), NR_PAGES);
	ck_assert_uint_eq(nr_ranges, 2);
	assert_range(0, 0, 0);
	assert_range(1, 0, NR_PAGES);
}
END_TEST

/*
 * task_numa_work() charges scan_size only for a range whose
 * change_prot_numa() changed a PTE: a call over VMAs another call has
 * just marked goes on to the next. A budget spent ends the call with the
 * offset past the range (goto out) and the VMA not done this sequence.
 */
START_TEST(test_walk_charges_only_ranges_that_changed)
{
	struct walk_call c;
	struct scan_range r;

	add_pieces();
	scan_walk_begin(sim, mm, &c, 0, PIECE);
	ck_assert(scan_walk_next(sim, mm, &c, &r));
	ck_assert_uint_eq(r.start, 0);
	ck_assert_uint_eq(r.end, PIECE);
	ck_assert(!scan_walk_marked(mm, &c, false)); /* not charged */
	ck_assert_uint_eq(walk->vma[0].prev_seq, 0);
	ck_assert(scan_walk_next(sim, mm, &c, &r));
	ck_assert_uint_eq(r.start, 2 * PIECE);
	ck_assert(scan_walk_marked(mm, &c, true)); /* the budget is spent */
	ck_assert_uint_eq(c.marked, 2 * PIECE);
	ck_assert_uint_eq(walk->off, 2);
	ck_assert(!walk->mid_region);
	ck_assert_uint_eq(walk->vma[1].prev_seq, (uint64_t)-1);
	ck_assert_uint_eq(mm->scan_seq, 0);
}
END_TEST

/*
 * task_numa_work() tests a VMA once, then marks it range by range (its
 * do-while): a range that changed nothing is not charged, and the next
 * range of the same VMA follows untested, even if the task's bit went
 * meanwhile.
 */
START_TEST(test_walk_goes_on_inside_a_vma_untested)
{
	struct walk_call c;
	struct scan_range r;

	ck_assert_int_eq(scan_walk_add_pages(walk, 0, NR_PAGES), 0);
	first_two_sequences();
	scan_walk_hint_fault(walk, 0, 0);
	sim->now = 2 * DELAY_NS;
	scan_walk_begin(sim, mm, &c, 0, NR_PAGES / 4);
	ck_assert(scan_walk_next(sim, mm, &c, &r));
	ck_assert_uint_eq(r.start, 0);
	ck_assert_uint_eq(r.end, NR_PAGES / 2);
	ck_assert(!scan_walk_marked(mm, &c, false));
	walk->vma[0].pids[0] = walk->vma[0].pids[1] = 0;
	ck_assert(scan_walk_next(sim, mm, &c, &r));
	ck_assert_uint_eq(r.start, NR_PAGES / 2);
	ck_assert_uint_eq(r.end, NR_PAGES);
	ck_assert_uint_eq(walk->pid_skips, 0);
}
END_TEST

/* virtpages, eight times the budget, ends a call that changes nothing. */
START_TEST(test_walk_virtual_budget_ends_a_call)
{
	struct walk_call c;
	struct scan_range r;

	add_pieces();
	scan_walk_begin(sim, mm, &c, 0, PIECE / 8);
	ck_assert(scan_walk_next(sim, mm, &c, &r));
	ck_assert_uint_eq(r.end, PIECE); /* rounded up to a PMD, cut at the VMA */
	ck_assert(scan_walk_marked(mm, &c, false));
	ck_assert_uint_eq(walk->off, 1);
}
END_TEST

/*
 * vma_is_accessed() reads the offset that every call moves: a VMA below
 * it (numa_scan_offset > vm_start), as another call's end leaves it, is
 * open to a task without its bit.
 */
START_TEST(test_walk_offset_past_a_vma_opens_it)
{
	struct walk_call c;
	struct scan_range r;

	add_pieces();
	first_two_sequences_of(4 * PIECE);
	sim->now = 2 * DELAY_NS;
	scan_walk_begin(sim, mm, &c, 1, NR_PAGES * 4);
	walk->off = 2; /* another call ended past piece 1 */
	ck_assert(scan_walk_next(sim, mm, &c, &r));
	ck_assert_uint_eq(r.start, 0);
	ck_assert(!scan_walk_marked(mm, &c, true));
	ck_assert(scan_walk_next(sim, mm, &c, &r));
	ck_assert_uint_eq(r.start, 2 * PIECE);
	ck_assert(!scan_walk_marked(mm, &c, true));
	/* Pieces 2 and 3: no bit, not passed: skipped; piece 2 is then
	 * forced from the offset. */
	ck_assert(scan_walk_next(sim, mm, &c, &r));
	ck_assert_uint_eq(r.start, 4 * PIECE);
	ck_assert_uint_eq(walk->forced, 1);
	ck_assert(scan_walk_marked(mm, &c, true)); /* a forced VMA ends it */
	ck_assert_uint_eq(walk->off, 3);
}
END_TEST

START_TEST(test_walk_read_pages_take_one_fault_each)
{
	/* Two pages, read by tasks 0-1 and by tasks 2-3: a marking gives
	 * each page's first reader to touch it the one fault, so one bit of
	 * each pair, and over many runs any reader can be that one. */
	const uint64_t readers[2] = { 0x3, 0xc };
	uint64_t seen = 0;
	unsigned int run;

	for (run = 0; run < 64; run++) {
		uint64_t bits;

		free(walk);
		walk = scan_walk_new(WALK_CAP);
		ck_assert_ptr_nonnull(walk);
		mm->walk = walk;
		mm->scan_seq = 0;
		ck_assert_int_eq(scan_walk_add_read(walk, readers, 2), 0);
		scan_walk_add_pages(walk, 0, NR_PAGES);
		ck_assert_uint_eq(call(run % NR_TASKS, 0), NR_PAGES);
		bits = walk->vma[0].pids[1];
		ck_assert_int_eq(__builtin_popcountll(bits & 0x3), 1);
		ck_assert_int_eq(__builtin_popcountll(bits & 0xc), 1);
		ck_assert_uint_eq(bits & ~0xfULL, 0);
		seen |= bits;
	}
	ck_assert_uint_eq(seen, 0xf);
}
END_TEST

START_TEST(test_walk_refuses_bad_read_pages)
{
	uint64_t readers[WALK_READ_PAGES_MAX + 1];
	const uint64_t none_on_one[2] = { 0x1, 0 };
	unsigned int i;

	for (i = 0; i <= WALK_READ_PAGES_MAX; i++)
		readers[i] = 1;

	ck_assert_int_eq(scan_walk_add(walk, VMA_FAULTERS_READ, 0), -1);
	ck_assert_int_eq(scan_walk_add_read(walk, readers, 0), -1);
	ck_assert_int_eq(scan_walk_add_read(walk, readers, WALK_READ_PAGES_MAX + 1), -1);
	ck_assert_int_eq(scan_walk_add_read(walk, none_on_one, 2), -1);
	ck_assert_uint_eq(walk->nr, 0);
	ck_assert_int_eq(scan_walk_add_read(walk, readers, WALK_READ_PAGES_MAX), 0);
	ck_assert_uint_eq(walk->nr, 1);
	ck_assert_uint_eq(walk->vma[0].nr_read, WALK_READ_PAGES_MAX);
}
END_TEST

START_TEST(test_walk_refuses_bad_page_ranges)
{
	ck_assert_int_eq(scan_walk_add(walk, VMA_FAULTERS_PAGES, 0), -1);
	ck_assert_int_eq(scan_walk_add_pages(walk, 5, 5), -1);
	ck_assert_int_eq(scan_walk_add_pages(walk, 10, 20), 0);
	ck_assert_int_eq(scan_walk_add_pages(walk, 15, 30), -1); /* overlaps */
	ck_assert_int_eq(scan_walk_add_pages(walk, 0, 5), -1);   /* below */
	ck_assert_int_eq(scan_walk_add_pages(walk, 20, 30), 0);
	ck_assert_uint_eq(walk->nr, 2);
	ck_assert_uint_eq(walk->nr_paged, 2);
}
END_TEST

START_TEST(test_walk_refuses_a_vma_past_its_capacity)
{
	unsigned int i;

	for (i = 0; i + 1 < WALK_CAP; i++)
		ck_assert_int_eq(scan_walk_add(walk, VMA_FAULTERS_NONE, 0), 0);
	ck_assert_int_eq(scan_walk_add_pages(walk, 0, NR_PAGES), 0);
	ck_assert_int_eq(scan_walk_add(walk, VMA_FAULTERS_NONE, 0), -1);
	ck_assert_int_eq(scan_walk_add_pages(walk, NR_PAGES, 2 * NR_PAGES), -1);
	ck_assert_uint_eq(walk->nr, WALK_CAP);
	ck_assert_ptr_null(scan_walk_new(0));
}
END_TEST

static Suite *scan_walk_suite(void)
{
	Suite *s = suite_create("sim_scan_walk");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_walk_first_two_sequences_mark_every_vma);
	tcase_add_test(tc, test_walk_skips_unfaulted_vmas_and_forces_one);
	tcase_add_test(tc, test_walk_leaves_a_skipped_vma_behind_a_marked_one);
	tcase_add_test(tc, test_walk_pid_bits_last_two_reset_periods);
	tcase_add_test(tc, test_walk_forces_a_vma_left_more_sequences_than_threads);
	tcase_add_test(tc, test_walk_budget_ends_inside_the_region);
	tcase_add_test(tc, test_walk_delays_run_in_jiffies);
	tcase_add_test(tc, test_walk_pieces_are_marked_by_the_task_that_faulted_on_them);
	tcase_add_test(tc, test_walk_fault_bit_goes_to_the_vma_of_its_page);
	tcase_add_test(tc, test_walk_budget_stops_after_a_whole_piece);
	tcase_add_test(tc, test_walk_flushes_a_vma_only_when_remapped);
	tcase_add_test(tc, test_walk_charges_only_ranges_that_changed);
	tcase_add_test(tc, test_walk_virtual_budget_ends_a_call);
	tcase_add_test(tc, test_walk_goes_on_inside_a_vma_untested);
	tcase_add_test(tc, test_walk_offset_past_a_vma_opens_it);
	tcase_add_test(tc, test_walk_read_pages_take_one_fault_each);
	tcase_add_test(tc, test_walk_refuses_bad_read_pages);
	tcase_add_test(tc, test_walk_refuses_bad_page_ranges);
	tcase_add_test(tc, test_walk_refuses_a_vma_past_its_capacity);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(scan_walk_suite());
}
