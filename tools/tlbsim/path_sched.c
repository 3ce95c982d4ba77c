// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * What happens to threads from outside the memory paths: a moving thread
 * of the testbed workload re-pins itself to the other node
 * (sched_setaffinity), and the workload's measured window opens.
 */
#include <string.h>
#include "engine.h"
#include "paths.h"
#include "sim.h"

/*
 * Moving threads alternate between the nodes in pairs (thread 2k on one
 * node, 2k+1 on the other, as numa_regions starts them), so a switch swaps
 * the CPUs of each pair: every node keeps one busy CPU per thread, as the
 * guest does. The mm_cpumask already holds every CPU the mm runs on.
 */
void sim_node_switch(struct sim *s)
{
	unsigned int i;

	for (i = 0; i + 1 < s->nr_threads; i += 2) {
		struct thread *a = &s->thread[i], *b = &s->thread[i + 1];
		unsigned int cpu = a->cpu;

		if (!a->moving || !b->moving)
			break;
		a->cpu = b->cpu;
		b->cpu = cpu;
		sim_cpu_sync(s, &s->cpu[a->cpu]);
		sim_cpu_sync(s, &s->cpu[b->cpu]);
		/* Time lost on the new CPU before the thread came is not its own. */
		a->lost_seen_ns = sim_cpu_lost_ns(&s->cpu[a->cpu]);
		b->lost_seen_ns = sim_cpu_lost_ns(&s->cpu[b->cpu]);
		sim_mm_add_cpu(s, a->mm, a->cpu);
		sim_mm_add_cpu(s, b->mm, b->cpu);
		s->st.node_switches += 2;
	}
	sim_schedule(s, s->now + (uint64_t)(s->p.v[P_SWITCH_MS] * 1e6), EV_NODE_SWITCH, 0);
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
