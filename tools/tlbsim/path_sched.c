// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * What happens to threads besides their memory paths: a moving thread of
 * the testbed workload re-pins itself to the other node
 * (sched_setaffinity), and the workload's measured window opens.
 */
#include <limits.h>
#include <string.h>
#include "engine.h"
#include "paths.h"
#include "sim.h"

/*
 * @t runs on @cpu from now on. What its old CPU lost since @t last paid
 * for it stays its debt (a partner moves between two of its accesses);
 * what the new CPU lost before is not its own.
 */
static void move_to(struct sim *s, struct thread *t, unsigned int cpu)
{
	struct cpu *old = &s->cpu[t->cpu], *new = &s->cpu[cpu];
	uint64_t debt;

	sim_cpu_sync(s, old);
	debt = sim_cpu_lost_ns(old) - t->lost_seen_ns;
	t->cpu = cpu;
	sim_cpu_sync(s, new);
	t->lost_seen_ns = sim_cpu_lost_ns(new) - debt;
	sim_mm_add_cpu(s, t->mm, cpu);
	t->switch_wanted = false;
	t->switch_due_ns = s->now + (uint64_t)(s->p.v[P_SWITCH_MS] * 1e6);
	s->st.node_switches++;
}

/* A CPU of @node no thread runs on, or UINT_MAX. */
static unsigned int idle_cpu_on(const struct sim *s, unsigned int node)
{
	unsigned int cpu, i;

	for (cpu = 0; cpu < s->nr_cpus; cpu++) {
		if (s->cpu[cpu].node != node)
			continue;
		for (i = 0; i < s->nr_threads && s->thread[i].cpu != cpu; i++)
			;
		if (i == s->nr_threads)
			return cpu;
	}
	return UINT_MAX;
}

/*
 * numa_regions' moving thread checks the clock once per sweep of its
 * slice, and re-pins itself to the other node (sched_setaffinity) when
 * switch_ms have gone by since its last switch. So a sweep that hint
 * faults keep long, as a storm of flushes does, keeps the thread where it
 * is: the switch waits for the sweep, and the next one counts from the
 * switch. tlbsim keeps one thread per CPU: the thread takes an idle CPU
 * of the next node, or swaps with a moving thread there that wants to
 * switch too; until one does, it sweeps on where it is (the guest would
 * run both on one vCPU for that time). With 2 nodes and the moving
 * threads started on alternate nodes, as the workload starts them, the
 * due threads pair up within a sweep of each other; with one node
 * nothing switches. A swap between two processes would take each CPU
 * out of its old mm's mm_cpumask (6.12's switch_mm_irqs_off()); tlbsim
 * leaves it in, which flushes more than needed, never less. The
 * testbed's cells run every moving thread in one process.
 */
void sim_sweep_done(struct sim *s, unsigned int ti)
{
	struct thread *t = &s->thread[ti];
	unsigned int node = s->cpu[t->cpu].node, other, cpu, i;

	if (!t->moving || s->nr_nodes < 2 || s->now < t->switch_due_ns)
		return;
	other = (node + 1) % s->nr_nodes;
	t->switch_wanted = true;
	for (i = 0; i < s->nr_threads; i++) {
		struct thread *u = &s->thread[i];

		if (u->switch_wanted && s->cpu[u->cpu].node == other) {
			cpu = u->cpu;
			move_to(s, u, t->cpu);
			move_to(s, t, cpu);
			return;
		}
	}
	cpu = idle_cpu_on(s, other);
	if (cpu != UINT_MAX)
		move_to(s, t, cpu);
}

/*
 * The workload snapshots its counters after the warm-up and reports
 * deltas: restart every count here, except what must hold for the whole
 * run (the oracle's findings) and the engine's own event count.
 */
void sim_window_start(struct sim *s)
{
	uint64_t events = s->st.sim_events, violations = s->st.violations;
	unsigned int i;

	sim_cpus_sync(s); /* every CPU's accounts complete before they restart */
	memset(&s->st, 0, sizeof(s->st));
	s->st.sim_events = events;
	s->st.violations = violations;
	for (i = 0; i < s->nr_cpus; i++)
		memset(&s->cpu[i].acct, 0, sizeof(s->cpu[i].acct));
	for (i = 0; i < s->nr_threads; i++) {
		struct thread *t = &s->thread[i];

		t->useful_ns = t->local = t->remote = t->lost_seen_ns = 0;
		t->ops_done = 0;
	}
	s->window_ns = s->now;
}
