// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Flushes a vCPU takes on its turn.
 *
 * On a host with fewer cores than running vCPUs (qemu TCG: one thread a
 * vCPU), a flush IPI to a vCPU whose thread is off a core waits until the
 * host runs it (host_sched.c), and the IPIs sent meanwhile queue behind
 * it. The vCPU then handles them in one interrupt: the first full flush
 * catches the CPU up to the mm's newest TLB generation, and
 * flush_tlb_func() returns early for the rest (their generation already
 * reached, or the mm's). In the guest's storms half the flushes received
 * end so (docs/data/testbed-flush-ends.md, measured with
 * kernel/patches/measure/0003-*.patch).
 *
 * The model keeps, per CPU, the time of its turn: drawn when a flush finds
 * its thread off a core, as host_sched.c draws the sender's wait. A flush
 * sent to it before then is absorbed: the CPU pays the interrupt, not the
 * flush, and its TLB is not emptied again.
 *
 * tlbsim's threads run at their averaged pace, not in the host's turns: a
 * thread whose CPU waits for its turn has meanwhile cached pages that in
 * the guest it caches only after the turn, from the page tables of then.
 * So an absorbed flush drops exactly the translations that no longer
 * match the page tables (no accessible PTE, or another frame) and keeps
 * the rest: the guest's thread refills them after its turn all the same.
 * It looks only at the pages whose PTEs changed since the CPU last caught
 * up, from a log of those changes; a CPU the log has run past
 * (FLUSH_TURN_LOG_SIZE changes without catching up) has its whole TLB
 * checked instead.
 */
#include <stdlib.h>
#include "flush_turn.h"
#include "sim.h"

int flush_turn_init(struct sim *s)
{
	struct flush_turns *t = &s->turns;

	t->on = (enum backend_kind)s->p.v[P_BACKEND] == BACKEND_X86_IPI &&
		s->p.v[P_HOST_CPUS] > 0;
	if (!t->on)
		return 0;
	t->log = malloc(FLUSH_TURN_LOG_SIZE * sizeof(*t->log));
	t->to_draw = calloc(s->nr_cpus, sizeof(*t->to_draw));
	return t->log && t->to_draw ? 0 : -1;
}

void flush_turn_free(struct sim *s)
{
	free(s->turns.log);
	free(s->turns.to_draw);
	s->turns.log = NULL;
	s->turns.to_draw = NULL;
}

bool flush_turn_pending(const struct sim *s, unsigned int cpu)
{
	return s->turns.on && s->now < s->cpu[cpu].turn_ns;
}

/* Stale: the page has no accessible PTE now, or another frame. */
static bool entry_stale(void *ctx, uint64_t key, uint32_t frame_gen)
{
	const struct sim *s = ctx;
	const struct mm *mm = &s->mm[tlb_key_mm(key) - 1];
	uint64_t vpn = tlb_key_vpn(key);

	return !(*pte_of(mm, vpn) & PTE_PRESENT) || mm->obj->page[vpn].frame_gen != frame_gen;
}

void flush_turn_absorb(struct sim *s, unsigned int cpu)
{
	struct flush_turns *t = &s->turns;
	struct cpu *c = &s->cpu[cpu];
	uint32_t gen;
	uint64_t i;

	sim_cpu_sync(s, c);
	s->st.tlb_irqs_absorbed++;
	if (!c->turn_flushed_all) {
		/* Two flushes queued: the first finds the CPU more than one
		 * generation behind and flushes everything, ranged or not. */
		tlb_flush_all(&c->tlb);
		c->changes_seen = t->seq;
		c->turn_flushed_all = true;
		return;
	}
	if (t->seq - c->changes_seen > FLUSH_TURN_LOG_SIZE) {
		tlb_drop_stale(&c->tlb, entry_stale, s);
	} else {
		for (i = c->changes_seen; i < t->seq; i++) {
			uint64_t key = t->log[i & (FLUSH_TURN_LOG_SIZE - 1)];

			if (tlb_lookup(&c->tlb, key, &gen) && entry_stale(s, key, gen))
				tlb_remove(&c->tlb, key);
		}
	}
	c->changes_seen = t->seq;
}

void flush_turn_flushed(struct sim *s, unsigned int cpu)
{
	s->cpu[cpu].changes_seen = s->turns.seq;
}

void flush_turn_running(struct sim *s, unsigned int cpu)
{
	s->cpu[cpu].turn_ns = 0;
}

double flush_turn_draw(struct sim *s, unsigned int cpu, double p_off, double rotation,
		       bool full)
{
	double wait;

	if (rng_unit(&s->host_rng) >= p_off)
		return 0;
	wait = rotation * rng_unit(&s->host_rng);
	s->cpu[cpu].turn_ns = s->now + (uint64_t)wait;
	s->cpu[cpu].turn_flushed_all = full;
	return wait;
}

double flush_turn_left_ns(const struct sim *s, unsigned int cpu)
{
	const struct cpu *c = &s->cpu[cpu];

	return s->now < c->turn_ns ? (double)(c->turn_ns - s->now) : 0;
}
