// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Tasks' NUMA fault statistics and numa_groups (numa_group.h), from
 * kernel/sched/fair.c of Linux 6.12.
 *
 * A group's statistics are the sum of its members': the kernel keeps the
 * sum itself (a task's numbers go into its new group when it joins, come
 * out of its old one, and each placement adds the same difference to the
 * task and its group), so the model sums the members when it asks. The
 * kernel keeps private and shared faults apart, but every reader here
 * adds the two, so the model keeps their sum.
 */
#include <stdlib.h>

#include "numa_group.h"
#include "sim.h"

/* p->numa_faults' four kinds, per node (NUMA_MEM, NUMA_CPU and buffers). */
enum { STAT_MEM, STAT_MEMBUF, STAT_CPU, STAT_CPUBUF, NR_STATS };

/* task_numa_placement()'s CPU-fault weight: runtime << 16 over the
 * period. The testbed's workers run all the time, so the fraction is 1. */
#define CPU_WEIGHT_ONE 65536ULL

/* kernel/sched/fair.c: a node whose CPU faults are three times another's
 * is "much more heavily used". */
#define ACTIVE_NODE_FRACTION 3

/* should_numa_migrate_memory()'s early window: numa_scan_seq <= 4. */
#define EARLY_SCAN_SEQS 4

struct numa_task {
	int group;          /* its group's creator's thread index, -1: none */
	uint64_t seq_seen;  /* p->numa_scan_seq: its mm's at its last placement */
};

struct numa_groups {
	struct numa_task *task;   /* per thread */
	unsigned int *nr_tasks;   /* per group (creator's thread index) */
	uint64_t *faults;         /* per thread, per node, NR_STATS */
};

int sim_numa_groups_init(struct sim *s)
{
	struct numa_groups *g = calloc(1, sizeof(*g));
	unsigned int i;

	if (!g)
		return -1;
	g->task = calloc(s->nr_threads, sizeof(*g->task));
	g->nr_tasks = calloc(s->nr_threads, sizeof(*g->nr_tasks));
	g->faults = calloc((size_t)s->nr_threads * s->nr_nodes * NR_STATS, sizeof(*g->faults));
	s->numa = g;
	if (!g->task || !g->nr_tasks || !g->faults)
		return -1;
	for (i = 0; i < s->nr_threads; i++)
		g->task[i].group = -1;
	return 0;
}

void sim_numa_groups_free(struct sim *s)
{
	if (!s->numa)
		return;
	free(s->numa->task);
	free(s->numa->nr_tasks);
	free(s->numa->faults);
	free(s->numa);
	s->numa = NULL;
}

static unsigned int task_index(const struct sim *s, const struct thread *t)
{
	return (unsigned int)(t - s->thread);
}

static uint64_t *stats(const struct sim *s, unsigned int task, unsigned int node)
{
	return &s->numa->faults[((size_t)task * s->nr_nodes + node) * NR_STATS];
}

int sim_numa_group_of(const struct sim *s, const struct thread *t)
{
	return s->numa ? s->numa->task[task_index(s, t)].group : -1;
}

/* group_faults_cpu() and group_faults() of a group on a migration's two
 * nodes, summed over its tasks in one pass. */
struct group_faults {
	uint64_t cpu_src, cpu_dst, mem_src, mem_dst;
};

static struct group_faults group_faults(const struct sim *s, int group,
					unsigned int src, unsigned int dst)
{
	struct group_faults sum = { 0 };
	unsigned int i;

	for (i = 0; i < s->nr_threads; i++) {
		const uint64_t *from, *to;

		if (s->numa->task[i].group != group)
			continue;
		from = stats(s, i, src);
		to = stats(s, i, dst);
		sum.cpu_src += from[STAT_CPU];
		sum.mem_src += from[STAT_MEM];
		sum.cpu_dst += to[STAT_CPU];
		sum.mem_dst += to[STAT_MEM];
	}
	return sum;
}

bool sim_numa_should_migrate(const struct sim *s, const struct thread *t,
			     const struct numa_last *last, unsigned int src, unsigned int dst)
{
	bool unset = last->task < 0;
	bool private = !unset && (unsigned int)last->task == task_index(s, t);
	int group = sim_numa_group_of(s, t);
	struct group_faults g;

	/* First faults and private ones migrate at once early in the task's
	 * life (numa_preferred_nid is set after its first placement with
	 * faults, which comes within these sequences). */
	if (t->mm->scan_seq <= EARLY_SCAN_SEQS && (unset || private))
		return true;
	/* The two-stage filter: the last fault came from this node too. */
	if (!unset && last->node != dst)
		return false;
	if (private)
		return true;
	/* A shared or first fault, and the task has no group yet. */
	if (group < 0)
		return true;
	g = group_faults(s, group, src, dst);
	if (g.cpu_dst > g.cpu_src * ACTIVE_NODE_FRACTION)
		return true;
	/* CPU use over memory use, with 3/4 hysteresis. */
	return g.cpu_dst * g.mem_src * 3 > g.cpu_src * g.mem_dst * 4;
}

/*
 * task_numa_group(): @me's shared fault on a page @last's task faulted
 * last. @me gets a group of its own if it has none, and joins the last
 * task's if that task still runs on the CPU it faulted from, has a group,
 * and the group is bigger (equal: the kernel compares the groups'
 * addresses; the model, their creators' indices). Threads of one process
 * always join, so the page's sharing never vetoes it.
 */
static void group_join(struct sim *s, unsigned int me, const struct numa_last *last)
{
	struct numa_groups *g = s->numa;
	int mine, theirs;

	if (g->task[me].group < 0) {
		g->task[me].group = (int)me;
		g->nr_tasks[me] = 1;
	}
	mine = g->task[me].group;
	if (s->thread[last->task].cpu != last->cpu)
		return;
	theirs = g->task[last->task].group;
	if (theirs < 0 || theirs == mine)
		return;
	if (g->nr_tasks[mine] > g->nr_tasks[theirs] ||
	    (mine > theirs && g->nr_tasks[mine] == g->nr_tasks[theirs]))
		return;
	g->nr_tasks[mine]--;
	g->nr_tasks[theirs]++;
	g->task[me].group = theirs;
}

/*
 * task_numa_placement()'s statistics, at @me's first fault of a new scan
 * sequence: each count halves and takes its buffer; the CPU faults come
 * in weighted by their share of the task's faults since, so that every
 * task of a group weighs by its CPU use, not by how many faults it took.
 */
static void placement(struct sim *s, unsigned int me)
{
	const struct mm *mm = s->thread[me].mm;
	uint64_t total = 0, *f;
	unsigned int n;

	if (s->numa->task[me].seq_seen == mm->scan_seq)
		return;
	s->numa->task[me].seq_seen = mm->scan_seq;
	for (n = 0; n < s->nr_nodes; n++)
		total += stats(s, me, n)[STAT_CPUBUF];
	for (n = 0; n < s->nr_nodes; n++) {
		f = stats(s, me, n);
		f[STAT_MEM] = f[STAT_MEM] - f[STAT_MEM] / 2 + f[STAT_MEMBUF];
		f[STAT_CPU] = f[STAT_CPU] - f[STAT_CPU] / 2 +
			      CPU_WEIGHT_ONE * f[STAT_CPUBUF] / (total + 1);
		f[STAT_MEMBUF] = 0;
		f[STAT_CPUBUF] = 0;
	}
}

void sim_numa_task_fault(struct sim *s, struct thread *t, const struct numa_last *last,
			 unsigned int mem_node, unsigned int pages)
{
	unsigned int me = task_index(s, t);

	if (!s->numa)
		return;
	if (last->task >= 0 && (unsigned int)last->task != me)
		group_join(s, me, last);
	placement(s, me);
	stats(s, me, mem_node)[STAT_MEMBUF] += pages;
	stats(s, me, s->cpu[t->cpu].node)[STAT_CPUBUF] += pages;
}
