// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Hint faults on the pages of a stack (tools/tlbsim/path_private_fault.c)
 * against Linux 6.12: the scanner marks a thread's stack like any VMA
 * (task_numa_work()), the thread's next touch takes a hint fault
 * (do_numa_page()), should_numa_migrate_memory() lets it migrate only on
 * a second fault in a row from the same node once the mm is past its
 * fourth scan sequence (a page another task faulted last: as the task's
 * numa_group says, tests/tlbsim/check_sim_numa_group.c), a fault on a
 * page already local records nothing in its last_cpupid (mpol_misplaced()
 * returns first), and try_to_migrate_one() unmaps the page, which
 * only this process maps (folio_mapcount() 1), with the batch or with
 * ptep_clear_flush() as the migrate policy says. A PROT_NONE PTE is
 * accessible only while the mm's tlb_flush_pending is up: only then does
 * its unmap need a flush, and only then does the batch take it
 * (set_tlb_ubc_flush_pending()).
 *
 * The tiny machine: CPUs 0-1 on node 0, 2-3 on node 1, a thread on each.
 */
#include <stdlib.h>
#include <check.h>
#include "numa_group.h"
#include "paths.h"
#include "scan_walk.h"
#include "sim.h"
#include "suite_runner.h"
#include "tiny_machine.h"

#define STACK_VPN TINY_PAGES /* above the region, as scenario_testbed.c numbers them */
#define DELAY_NS 1000000000ULL

static struct sim *s;
static struct mm *mm;

/* Every VMA met long ago, with every task's bit: each call marks them
 * all (the tests of the walk itself are check_sim_scan_walk.c's). */
static void open_vmas(void)
{
	unsigned int i;

	for (i = 0; i < mm->walk->nr; i++) {
		struct walk_vma *v = &mm->walk->vma[i];

		v->started = true;
		v->next_scan_ns = 0;
		v->reset_ns = UINT64_MAX;
		v->pids[1] = (1ULL << TINY_CPUS) - 1;
	}
}

/* Thread 0's stack, private, on node 0; then the region; then a page
 * every thread reads, not private (the control page). */
static void setup(void)
{
	s = tiny_machine(BACKEND_X86_IPI, UNSAFE_NONE, TLBP_HINT_DEFERRED_MAP, 0);
	mm = &s->mm[0];
	s->p.v[P_SCAN_DELAY_MS] = 1000;
	s->p.v[P_MIGRATE_FILTER] = FILTER_LAST_NODE;
	ck_assert_int_eq(sim_numa_groups_init(s), 0);
	mm->walk = scan_walk_new(3);
	ck_assert_ptr_nonnull(mm->walk);
	ck_assert_int_eq(scan_walk_add(mm->walk, VMA_FAULTERS_OWN, 0), 0);
	ck_assert_int_eq(scan_walk_private(mm->walk, STACK_VPN, 0), 1);
	ck_assert_int_eq(scan_walk_add_pages(mm->walk, 0, TINY_PAGES), 0);
	ck_assert_int_eq(scan_walk_add_read(mm->walk, &(uint64_t){ 0xf }, 1), 0);
	/* Past the early faults: the last-node test applies. */
	mm->scan_seq = 5;
	open_vmas();
}

static void teardown(void)
{
	free(mm->walk);
	mm->walk = NULL;
	tiny_destroy(s);
}

static struct walk_page *stack(void)
{
	return &mm->walk->vma[0].page[0];
}

/* A call of thread 1 at @now that marks every VMA, a sequence; then
 * every thread's next access takes the faults queued for it. */
static void mark(uint64_t now)
{
	struct walk_call c;
	struct scan_range r;

	s->now = now;
	scan_walk_begin(s, mm, &c, 1, 4 * TINY_PAGES);
	while (scan_walk_next(s, mm, &c, &r))
		if (scan_walk_marked(mm, &c, true))
			break;
}

static void mark_and_touch(uint64_t now)
{
	unsigned int t;

	mark(now);
	for (t = 0; t < TINY_CPUS; t++)
		sim_private_faults(s, &s->thread[t]);
}

START_TEST(test_stack_page_follows_its_thread_on_the_second_fault)
{
	stack()->last_node = 1; /* its thread ran on node 0 */
	stack()->last_task = 1;
	s->thread[0].cpu = 2;   /* and moved to node 1 */
	mark_and_touch(0);
	ck_assert_uint_eq(s->st.hint_faults, 1);
	ck_assert_uint_eq(s->st.migrated_pages, 0); /* last fault from node 0 */
	ck_assert_uint_eq(stack()->node, 0);
	ck_assert(!stack()->protnone);              /* mapped again */
	mark_and_touch(DELAY_NS + 1);
	ck_assert_uint_eq(s->st.hint_faults, 2);
	ck_assert_uint_eq(s->st.migrated_pages, 1);
	ck_assert_uint_eq(stack()->node, 1);
	/* Now local: the next fault only maps it. */
	mark_and_touch(2 * DELAY_NS + 2);
	ck_assert_uint_eq(s->st.hint_faults, 3);
	ck_assert_uint_eq(s->st.migrated_pages, 1);
	ck_assert_uint_eq(s->st.violations, 0);
}
END_TEST

START_TEST(test_stack_page_migrates_on_the_first_fault_early)
{
	/* numa_scan_seq <= 4: the first fault of the task migrates. */
	mm->scan_seq = 2;
	stack()->last_node = 1;
	stack()->last_task = 1;
	s->thread[0].cpu = 3;
	mark_and_touch(0);
	ck_assert_uint_eq(s->st.migrated_pages, 1);
	ck_assert_uint_eq(stack()->node, 1);
}
END_TEST

/* Thread 0 on node 1 faults on its stack on node 0, whose last fault came
 * from node 1 too: the page migrates under @policy, with the mm's
 * tlb_flush_pending up (@pending) or not. */
static void migrate_stack(enum tlbp_migrate_batch_policy policy, bool pending)
{
	s->policy.migrate = policy;
	stack()->last_node = 2;
	stack()->last_task = 1;
	s->thread[0].cpu = 2;
	if (pending)
		tlbp_mm_inc_flush_pending(&mm->flush);
	mark_and_touch(0);
	ck_assert_uint_eq(s->st.migrated_pages, 1);
	ck_assert_uint_eq(s->st.violations, 0);
}

START_TEST(test_stack_page_is_a_single_folio_mapped_once)
{
	/* skip-single: ptep_clear_flush() of a PROT_NONE PTE, counted
	 * unbatched; nothing pending, so nothing to flush. */
	migrate_stack(TLBP_MIGRATE_BATCH_SKIP_SINGLE, false);
	ck_assert_uint_eq(s->st.protnone_unbatched_unmaps, 1);
	ck_assert_uint_eq(s->st.protnone_batched_unmaps, 0);
	ck_assert_uint_eq(s->st.tlb_ipis_sent, 0);
}
END_TEST

START_TEST(test_stack_page_unbatched_flushes_while_pending)
{
	/* skip-single-mapcount, the scanner's gather pending: accessible,
	 * so ptep_clear_flush() flushes every other CPU of the mm. */
	migrate_stack(TLBP_MIGRATE_BATCH_SKIP_SINGLE_MAPCOUNT, true);
	ck_assert_uint_eq(s->st.protnone_unbatched_unmaps, 1);
	ck_assert_uint_eq(s->st.protnone_batched_unmaps, 0);
	ck_assert_uint_eq(s->st.tlb_ipis_sent, TINY_CPUS - 1);
}
END_TEST

START_TEST(test_stack_page_batched_only_counts_while_pending)
{
	/* always, nothing pending: set_tlb_ubc_flush_pending() returns
	 * before the counter for an inaccessible PTE, and there is no flush. */
	migrate_stack(TLBP_MIGRATE_BATCH_ALWAYS, false);
	ck_assert_uint_eq(s->st.protnone_batched_unmaps, 0);
	ck_assert_uint_eq(s->st.protnone_unbatched_unmaps, 0);
	ck_assert_uint_eq(s->st.tlb_ipis_sent, 0);
}
END_TEST

START_TEST(test_stack_page_batched_while_pending)
{
	migrate_stack(TLBP_MIGRATE_BATCH_ALWAYS, true);
	ck_assert_uint_eq(s->st.protnone_batched_unmaps, 1);
	ck_assert_uint_eq(s->st.protnone_unbatched_unmaps, 0);
	ck_assert_uint_eq(s->st.tlb_ipis_sent, TINY_CPUS - 1);
}
END_TEST

START_TEST(test_stack_page_eager_map_unmaps_a_present_pte)
{
	/* The eager policy maps the PTE before it migrates: the unmap of a
	 * present PTE always flushes, pending or not, and is not PROT_NONE. */
	s->policy.hint = TLBP_HINT_EAGER_MAP;
	migrate_stack(TLBP_MIGRATE_BATCH_SKIP_SINGLE, false);
	ck_assert_uint_eq(s->st.protnone_unbatched_unmaps, 0);
	ck_assert_uint_eq(s->st.tlb_ipis_sent, TINY_CPUS - 1);
}
END_TEST

/* main()'s frame: a page two tasks read, one on each node. */
static struct walk_page *frame_read_by(struct vma_walk *w, uint64_t readers)
{
	ck_assert_int_eq(scan_walk_add_read(w, &readers, 1), 0);
	ck_assert_int_eq(scan_walk_private(w, STACK_VPN + 1, 0), 1);
	open_vmas();
	return &w->vma[w->nr - 1].page[0];
}

/* Only main()'s frame, on node 1, task @last's fault the page's last. */
static struct walk_page *frame_faulted_by(unsigned int last)
{
	struct vma_walk *w = scan_walk_new(1);
	struct walk_page *pg;

	ck_assert_ptr_nonnull(w);
	free(mm->walk);
	mm->walk = w;
	pg = frame_read_by(w, 1u << 0);
	pg->node = 1;
	pg->last_task = (uint8_t)(last + 1);
	pg->last_node = (uint8_t)(s->cpu[s->thread[last].cpu].node + 1);
	pg->last_cpu = (uint16_t)s->thread[last].cpu;
	return pg;
}

START_TEST(test_frame_page_local_faults_record_nothing)
{
	struct walk_page *pg = frame_faulted_by(2);
	struct vma_walk *w = mm->walk;

	/* Task 0 (node 0) after task 2 (node 1): shared, from another node:
	 * stays, and the page's last_cpupid is task 0's now. */
	mark_and_touch(DELAY_NS);
	ck_assert_uint_eq(s->st.migrated_pages, 0);
	ck_assert_uint_eq(pg->last_task, 1);
	ck_assert_int_eq(sim_numa_group_of(s, &s->thread[0]), 0);
	/* Task 2, where the page is: a local fault, which records nothing. */
	w->vma[0].readers[0] = 1u << 2;
	mark_and_touch(2 * DELAY_NS);
	ck_assert_uint_eq(s->st.hint_faults, 2);
	ck_assert_uint_eq(pg->last_task, 1);
	ck_assert_uint_eq(pg->last_node, 1);
	/* So task 0's next fault is private, from node 0 again: migrates. */
	w->vma[0].readers[0] = 1u << 0;
	mark_and_touch(3 * DELAY_NS);
	ck_assert_uint_eq(s->st.migrated_pages, 1);
	ck_assert_uint_eq(pg->node, 0);
}
END_TEST

START_TEST(test_frame_page_first_shared_fault_migrates)
{
	/* Task 1 on node 0 faulted last; task 0, with no group yet, takes
	 * the page to node 0 and has a group after. */
	struct walk_page *pg = frame_faulted_by(1);

	mark_and_touch(DELAY_NS);
	ck_assert_uint_eq(s->st.migrated_pages, 1);
	ck_assert_uint_eq(pg->node, 0);
	ck_assert_int_eq(sim_numa_group_of(s, &s->thread[0]), 0);
	ck_assert_uint_eq(s->st.violations, 0);
}
END_TEST

START_TEST(test_frame_page_grouped_task_asks_its_group)
{
	struct numa_last after3 = { 3, 1, 3 }, after2 = { 2, 1, 2 };
	struct walk_page *pg = frame_faulted_by(1);

	/* Tasks 0 and 2 in one group that has counted nothing yet. */
	sim_numa_task_fault(s, &s->thread[2], &after3, 1, 1);
	sim_numa_task_fault(s, &s->thread[0], &after2, 0, 1);
	ck_assert_int_eq(sim_numa_group_of(s, &s->thread[0]), 2);
	mark_and_touch(DELAY_NS);
	ck_assert_uint_eq(s->st.hint_faults, 1);
	ck_assert_uint_eq(s->st.migrated_pages, 0);
	ck_assert_uint_eq(pg->node, 1);
}
END_TEST

START_TEST(test_shared_page_faults_but_never_migrates)
{
	/* The control page is not private: its faults are the walk's bits
	 * only. */
	unsigned int t;

	for (t = 0; t < TINY_CPUS; t++)
		s->thread[t].cpu = TINY_CPUS - 1 - t;
	mark_and_touch(0);
	mark_and_touch(DELAY_NS + 1);
	ck_assert_uint_eq(s->st.hint_faults, 2); /* the stack's, twice */
	ck_assert_uint_ne(mm->walk->vma[2].pids[1], 0);
}
END_TEST

START_TEST(test_stack_fault_queued_once)
{
	/* Two markings before the thread runs: one fault. */
	s->thread[0].cpu = 2;
	stack()->last_node = 2;
	stack()->last_task = 1;
	mark(0);
	ck_assert_uint_eq(mm->scan_seq, 6);
	mark(DELAY_NS + 1);
	ck_assert_uint_eq(s->thread[0].nr_private_faults, 1);
	sim_private_faults(s, &s->thread[0]);
	ck_assert_uint_eq(s->st.hint_faults, 1);
	ck_assert_uint_eq(s->st.migrated_pages, 1);
	ck_assert_uint_eq(s->thread[0].nr_private_faults, 0);
}
END_TEST

START_TEST(test_private_refuses_other_vmas)
{
	struct vma_walk *w = scan_walk_new(4);

	ck_assert_ptr_nonnull(w);
	ck_assert_int_eq(scan_walk_private(w, STACK_VPN, 0), -1); /* empty */
	ck_assert_int_eq(scan_walk_add(w, VMA_FAULTERS_NONE, 0), 0);
	ck_assert_int_eq(scan_walk_private(w, STACK_VPN, 0), -1);
	ck_assert_int_eq(scan_walk_add_pages(w, 0, 8), 0);
	ck_assert_int_eq(scan_walk_private(w, STACK_VPN, 0), -1);
	ck_assert_int_eq(scan_walk_add_read(w, (uint64_t[]){ 1, 2 }, 2), 0);
	ck_assert_int_eq(scan_walk_private(w, STACK_VPN, 256), -1); /* no such node */
	ck_assert_int_eq(scan_walk_private(w, STACK_VPN, 1), 2);
	ck_assert_uint_eq(w->vma[2].page[1].vpn, STACK_VPN + 1);
	ck_assert_uint_eq(w->vma[2].page[1].node, 1);
	ck_assert_int_eq(scan_walk_private(w, STACK_VPN, 1), -1); /* already */
	free(w);
}
END_TEST

static Suite *private_fault_suite(void)
{
	Suite *su = suite_create("sim_private_fault");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_stack_page_follows_its_thread_on_the_second_fault);
	tcase_add_test(tc, test_stack_page_migrates_on_the_first_fault_early);
	tcase_add_test(tc, test_stack_page_is_a_single_folio_mapped_once);
	tcase_add_test(tc, test_stack_page_unbatched_flushes_while_pending);
	tcase_add_test(tc, test_stack_page_batched_only_counts_while_pending);
	tcase_add_test(tc, test_stack_page_batched_while_pending);
	tcase_add_test(tc, test_stack_page_eager_map_unmaps_a_present_pte);
	tcase_add_test(tc, test_frame_page_local_faults_record_nothing);
	tcase_add_test(tc, test_frame_page_first_shared_fault_migrates);
	tcase_add_test(tc, test_frame_page_grouped_task_asks_its_group);
	tcase_add_test(tc, test_shared_page_faults_but_never_migrates);
	tcase_add_test(tc, test_stack_fault_queued_once);
	tcase_add_test(tc, test_private_refuses_other_vmas);
	suite_add_tcase(su, tc);
	return su;
}

int main(void)
{
	return run_suite(private_fault_suite());
}
