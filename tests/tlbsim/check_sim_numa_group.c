// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The tasks' numa_groups and the filter that reads them
 * (tools/tlbsim/numa_group.c) against Linux 6.12's kernel/sched/fair.c:
 *
 * - should_numa_migrate_memory(): early in a task's life (numa_scan_seq
 *   <= 4) a first or private fault migrates; after that a fault whose
 *   last_cpupid came from another node never does, a private one does,
 *   a shared one does if the task has no numa_group, and otherwise if its
 *   group's CPU faults on the destination are more than three times the
 *   source's, or if cpu(dst) * mem(src) * 3 > cpu(src) * mem(dst) * 4.
 * - task_numa_fault() runs after that decision: a shared fault gives the
 *   task a group of its own (task_numa_group()), and moves it into the
 *   last faulter's group if that task still runs on the CPU in
 *   last_cpupid, has a group, and the group is not smaller (equal sizes:
 *   decided by the groups' order).
 * - task_numa_placement(), at a task's first fault of a new scan
 *   sequence: each count halves and takes what the task faulted since,
 *   the CPU faults weighted to 65536 * (share of the task's faults).
 *
 * The tiny machine: CPUs 0-1 on node 0, 2-3 on node 1, thread i on CPU i.
 */
#include <check.h>
#include "numa_group.h"
#include "sim.h"
#include "suite_runner.h"
#include "tiny_machine.h"

static struct sim *s;

static void setup(void)
{
	s = tiny_machine(BACKEND_X86_IPI, UNSAFE_NONE, TLBP_HINT_DEFERRED_MAP, 0);
	ck_assert_int_eq(sim_numa_groups_init(s), 0);
	s->mm[0].scan_seq = 5; /* past the early window */
}

static void teardown(void)
{
	tiny_destroy(s);
}

/* last_cpupid of thread @task as it ran on its CPU now. */
static struct numa_last by(unsigned int task)
{
	unsigned int cpu = s->thread[task].cpu;

	return (struct numa_last){ (int)task, s->cpu[cpu].node, cpu };
}

static const struct numa_last unset = { -1, 0, 0 };

/* @n faults of @task on memory on @mem_node that were private. */
static void faults(unsigned int task, unsigned int mem_node, unsigned int n)
{
	struct numa_last self = by(task);

	while (n--)
		sim_numa_task_fault(s, &s->thread[task], &self, mem_node, 1);
}

/* The mm's next scan sequence: each task's next fault places it. */
static void next_sequence(void)
{
	s->mm[0].scan_seq++;
}

static bool migrates(unsigned int task, struct numa_last last, unsigned int src)
{
	const struct thread *t = &s->thread[task];

	return sim_numa_should_migrate(s, t, &last, src, s->cpu[t->cpu].node);
}

START_TEST(test_early_first_and_private_faults_migrate_from_any_node)
{
	struct numa_last other_node = by(0);

	s->mm[0].scan_seq = 4;
	other_node.node = 1;
	ck_assert(migrates(0, other_node, 1)); /* private, last from node 1 */
	ck_assert(migrates(0, unset, 1));
	/* A shared one is not an early exception: task 2 ran on node 1. */
	ck_assert(!migrates(0, by(2), 1));
}
END_TEST

START_TEST(test_later_the_last_fault_must_come_from_this_node)
{
	struct numa_last self_on_1 = by(0);

	self_on_1.node = 1;
	ck_assert(!migrates(0, self_on_1, 1));
	ck_assert(migrates(0, by(0), 1));  /* private, from node 0 again */
	ck_assert(!migrates(0, by(2), 1)); /* shared, from node 1 */
	ck_assert(migrates(0, by(1), 1));  /* shared, node 0, no group yet */
	ck_assert(migrates(0, unset, 1));  /* first fault, no group yet */
}
END_TEST

START_TEST(test_a_shared_fault_gives_the_task_a_group)
{
	struct numa_last last = by(1);

	ck_assert_int_eq(sim_numa_group_of(s, &s->thread[0]), -1);
	faults(0, 0, 3); /* private faults group nothing */
	sim_numa_task_fault(s, &s->thread[0], &unset, 0, 1);
	ck_assert_int_eq(sim_numa_group_of(s, &s->thread[0]), -1);
	/* Task 1 has no group: task 0 starts its own. */
	ck_assert(migrates(0, last, 1));
	sim_numa_task_fault(s, &s->thread[0], &last, 1, 1);
	ck_assert_int_eq(sim_numa_group_of(s, &s->thread[0]), 0);
	ck_assert_int_eq(sim_numa_group_of(s, &s->thread[1]), -1);
	/* Its group has counted nothing yet (the faults are in buffers):
	 * neither rule holds, the next shared fault stays. */
	ck_assert(!migrates(0, last, 1));
	ck_assert(!migrates(0, unset, 1));
}
END_TEST

START_TEST(test_a_task_alone_pulls_shared_pages_to_its_node)
{
	struct numa_last last = by(1);

	sim_numa_task_fault(s, &s->thread[0], &last, 0, 1);
	faults(0, 1, 9);
	next_sequence();
	faults(0, 1, 1); /* placement: its CPU faults all on node 0 */
	/* cpu(0) = 65536 * 10 / 11 > 3 * cpu(1) = 0 */
	ck_assert(migrates(0, last, 1));
	/* From node 1, toward the node it never ran on: 0 > 0 fails, and
	 * cpu(1) * mem(0) * 3 = 0 fails too. */
	s->thread[0].cpu = 2;
	ck_assert(!migrates(0, by(3), 0));
}
END_TEST

/* @task's shared fault on its node's memory, after @after's. */
static void shared_fault(unsigned int task, unsigned int after)
{
	struct numa_last last = by(after);
	struct thread *t = &s->thread[task];

	sim_numa_task_fault(s, t, &last, s->cpu[t->cpu].node, 1);
}

static int group(unsigned int task)
{
	return sim_numa_group_of(s, &s->thread[task]);
}

START_TEST(test_join_the_last_faulters_group)
{
	shared_fault(3, 2); /* task 2 has no group: 3 starts its own */
	ck_assert_int_eq(group(3), 3);
	ck_assert_int_eq(group(2), -1);
	/* Equal sizes, and task 1's new group comes first: it joins 3's. */
	shared_fault(1, 3);
	ck_assert_int_eq(group(1), 3);
	/* Task 0 after task 1: joins the group of two. */
	shared_fault(0, 1);
	ck_assert_int_eq(group(0), 3);
}
END_TEST

START_TEST(test_join_needs_the_last_faulter_still_on_its_cpu)
{
	shared_fault(1, 3);
	/* Task 1 faulted from CPU 0 and runs on CPU 1 now: CPU 0 runs
	 * another task, so task 0 keeps the group it started. */
	sim_numa_task_fault(s, &s->thread[0], &(struct numa_last){ 1, 0, 0 }, 0, 1);
	ck_assert_int_eq(group(0), 0);
	/* After task 1's fault from where it runs: it joins. */
	shared_fault(0, 1);
	ck_assert_int_eq(group(0), 1);
}
END_TEST

START_TEST(test_the_bigger_group_stays)
{
	shared_fault(3, 2);
	shared_fault(1, 3);
	ck_assert_int_eq(group(1), 3); /* group 3 = {3, 1} */
	shared_fault(0, 2);
	ck_assert_int_eq(group(0), 0); /* group 0 = {0} */
	/* Task 3 after task 0: its group is the bigger, it stays. */
	shared_fault(3, 0);
	ck_assert_int_eq(group(3), 3);
	/* Task 2 after task 0: equal sizes, 0's group comes first: 2 keeps
	 * its own. */
	shared_fault(2, 0);
	ck_assert_int_eq(group(2), 2);
	/* Task 0 after task 1: the smaller group's task moves. */
	shared_fault(0, 1);
	ck_assert_int_eq(group(0), 3);
}
END_TEST

/*
 * Tasks 0 (node 0) and 2 (node 1) in one group, equal CPU use, task 0's
 * faults on 300 pages of node 1, task 2's on 200 of node 0.
 */
static void group_of_two(void)
{
	shared_fault(2, 3);
	shared_fault(0, 2);
	ck_assert_int_eq(group(0), 2);
	faults(0, 1, 299);
	faults(2, 0, 199);
	next_sequence();
	faults(0, 1, 1);
	faults(2, 0, 1);
}

START_TEST(test_group_weighs_cpu_use_against_memory_use)
{
	group_of_two();
	/* Toward node 0, from node 1: cpu nearly equal, mem(src=1) 300 and
	 * mem(dst=0) 200: 3 * 300 > 4 * 200. */
	ck_assert(migrates(0, by(1), 1));
	/* Toward node 1, from node 0: 3 * 200 < 4 * 300. */
	ck_assert(!migrates(2, by(3), 0));
	/* The early window does not cover shared faults. */
	s->mm[0].scan_seq = 3;
	ck_assert(!migrates(2, by(3), 0));
}
END_TEST

START_TEST(test_counts_halve_each_sequence)
{
	/* Task 0 alone in its group, 100 faults from node 0 placed. */
	shared_fault(0, 1);
	faults(0, 0, 99);
	next_sequence();
	faults(0, 0, 1);
	/* It moves to node 1 and faults there for a sequence: cpu(1) =
	 * 65536 * 99 / 101, cpu(0) halved to about 33,000, mem(1) 99 and
	 * mem(0) about 51. Toward node 1 neither rule holds yet. */
	s->thread[0].cpu = 2;
	faults(0, 1, 99);
	next_sequence();
	faults(0, 1, 1);
	ck_assert(!migrates(0, by(3), 0));
	/* One more: cpu(0) halves again, cpu(1) about 97,000 > 3 * 16,500. */
	faults(0, 1, 99);
	next_sequence();
	faults(0, 1, 1);
	ck_assert(migrates(0, by(3), 0));
}
END_TEST

START_TEST(test_without_statistics_nobody_is_grouped)
{
	struct numa_last last = by(2);

	sim_numa_groups_free(s);
	sim_numa_task_fault(s, &s->thread[0], &last, 0, 1);
	ck_assert_int_eq(sim_numa_group_of(s, &s->thread[0]), -1);
	ck_assert(migrates(0, by(1), 1));
}
END_TEST

static Suite *numa_group_suite(void)
{
	Suite *su = suite_create("sim_numa_group");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_early_first_and_private_faults_migrate_from_any_node);
	tcase_add_test(tc, test_later_the_last_fault_must_come_from_this_node);
	tcase_add_test(tc, test_a_shared_fault_gives_the_task_a_group);
	tcase_add_test(tc, test_a_task_alone_pulls_shared_pages_to_its_node);
	tcase_add_test(tc, test_join_the_last_faulters_group);
	tcase_add_test(tc, test_join_needs_the_last_faulter_still_on_its_cpu);
	tcase_add_test(tc, test_the_bigger_group_stays);
	tcase_add_test(tc, test_group_weighs_cpu_use_against_memory_use);
	tcase_add_test(tc, test_counts_halve_each_sequence);
	tcase_add_test(tc, test_without_statistics_nobody_is_grouped);
	suite_add_tcase(su, tc);
	return su;
}

int main(void)
{
	return run_suite(numa_group_suite());
}
