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

/* @t runs on @cpu from now on: the time that CPU lost before is not its own. */
static void move_to(struct sim *s, struct thread *t, unsigned int cpu)
{
	t->cpu = cpu;
	sim_cpu_sync(s, &s->cpu[cpu]);
	t->lost_seen_ns = sim_cpu_lost_ns(&s->cpu[cpu]);
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
 * of the other node, or swaps with a moving thread there that wants to
 * switch too; until one does, it sweeps on where it is (the guest would
 * run both on one vCPU for that time). With 2 nodes and the moving
 * threads started on alternate nodes, as the workload starts them, the
 * due threads pair up within a sweep of each other.
 */
void sim_sweep_done(struct sim *s, unsigned int ti)
{
	struct thread *t = &s->thread[ti];
	unsigned int node = s->cpu[t->cpu].node, cpu, i;

	if (!t->moving || s->now < t->switch_due_ns)
		return;
	t->switch_wanted = true;
	for (i = 0; i < s->nr_threads; i++) {
		struct thread *u = &s->thread[i];

		if (u->switch_wanted && s->cpu[u->cpu].node != node) {
			cpu = u->cpu;
			move_to(s, u, t->cpu);
			move_to(s, t, cpu);
			return;
		}
	}
	cpu = idle_cpu_on(s, (node + 1) % s->nr_nodes);
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
