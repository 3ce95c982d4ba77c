/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The tasks' NUMA fault statistics and their numa_groups, as Linux 6.12
 * keeps them (kernel/sched/fair.c: task_numa_fault(), task_numa_group(),
 * task_numa_placement()), and the part of should_numa_migrate_memory()
 * that reads them: the filter every hint fault's migration passes under
 * the testbed's kernel (params.h's FILTER_LAST_NODE).
 *
 * A task has no group until its first shared fault (one on a page whose
 * last fault was another task's), and should_numa_migrate_memory() runs
 * before task_numa_fault() in do_numa_page(): so each task's first
 * shared fault may migrate the page toward it (no group yet), and its
 * later ones only where its group's CPU faults outweigh its memory
 * faults on the destination by 4 to 3.
 */
#ifndef TLBSIM_NUMA_GROUP_H
#define TLBSIM_NUMA_GROUP_H

#include <stdbool.h>
#include <stdint.h>

struct sim;
struct thread;

/* What a hint fault found in the folio's last_cpupid. */
struct numa_last {
	int task;          /* index in s->thread; -1: unset (no fault yet) */
	unsigned int node; /* its node; meaningful only when task >= 0 */
	unsigned int cpu;  /* its CPU, for task_numa_group()'s running test */
};

/*
 * Allocates the statistics of @s's threads, none grouped. 0 or -1 (out of
 * memory). Without them (s->numa NULL), no task ever has a group.
 */
int sim_numa_groups_init(struct sim *s);
void sim_numa_groups_free(struct sim *s);

/*
 * should_numa_migrate_memory() for @t's fault on a folio on @src from a
 * CPU on @dst, not memory tiering: whether the two-stage filter and the
 * group's weights let it migrate.
 */
bool sim_numa_should_migrate(const struct sim *s, const struct thread *t,
			     const struct numa_last *last, unsigned int src, unsigned int dst);

/*
 * task_numa_fault() after @t's fault (@last: the last_cpupid read before
 * it): a shared fault gives the task a group, or moves it to the last
 * task's; the task's statistics decay at its first fault of a new scan
 * sequence; and @pages count on @mem_node and on its CPU's node.
 */
void sim_numa_task_fault(struct sim *s, struct thread *t, const struct numa_last *last,
			 unsigned int mem_node, unsigned int pages);

/* The group @t belongs to (its creator's thread index), or -1. */
int sim_numa_group_of(const struct sim *s, const struct thread *t);

#endif
