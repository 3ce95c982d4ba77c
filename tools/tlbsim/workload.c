// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Threads and their sampled accesses.
 *
 * The emulator does not run every memory access (about 1e13 per run).
 * Each thread draws a Poisson stream of *sampled* accesses at
 * access_rate_hz; each one is an access whose translation matters: a TLB
 * hit is checked by the oracle, a miss walks the page table and may take a
 * hint fault. Between samples the thread is assumed to run at the speed of
 * its last access (local, or remote with remote_penalty), which is how
 * useful work, and so throughput, is counted. Kernel time that lands on the
 * thread's CPU (faults, shootdown interrupts, refills, waiting for acks)
 * pushes its next sample back by the same amount.
 *
 * A thread's next page is drawn when its next sample is scheduled, and its
 * page state and TLB slot are prefetched then: with hundreds of threads in
 * flight the lines are usually in cache by the time the sample runs, which
 * is what keeps large working sets fast.
 */
#include <math.h>
#include "engine.h"
#include "paths.h"
#include "sim.h"

static uint64_t pick_in(struct sim *s, uint64_t n)
{
	const struct params *p = &s->p;
	uint64_t hot;

	switch ((int)p->v[P_PATTERN]) {
	case PATTERN_HOTCOLD:
		hot = (uint64_t)ceil(p->v[P_HOT_FRACTION] * n);
		if (hot >= n || rng_unit(&s->rng) < p->v[P_HOT_WEIGHT])
			return rng_below(&s->rng, hot ? hot : 1);
		return hot + rng_below(&s->rng, n - hot);
	case PATTERN_PARETO: {
		/* Power-law rank: low indices are hot. */
		uint64_t i = (uint64_t)(n * pow(rng_unit(&s->rng), p->v[P_PARETO_ALPHA]));

		return i < n ? i : n - 1;
	}
	default:
		return rng_below(&s->rng, n);
	}
}

static uint64_t pick_page(struct sim *s, struct thread *t)
{
	if (rng_unit(&s->rng) < s->p.v[P_PRIVATE_FRACTION])
		return t->slice_start + pick_in(s, t->slice_pages);
	return rng_below(&s->rng, t->mm->nr_pages);
}

static uint64_t cpu_lost_ns(const struct cpu *c)
{
	const struct acct *a = &c->acct;

	return a->irq_ns + a->refill_ns + a->fault_ns + a->wait_ns + a->kernel_ns +
	       a->spin_ns + a->sleep_ns;
}

static void pick_next(struct sim *s, struct thread *t)
{
	t->next_vpn = pick_page(s, t);
	t->next_page = &t->mm->obj->page[t->next_vpn];
	t->next_set = tlb_set_of(&s->cpu[t->cpu].tlb, tlb_key(t->mm->id, t->next_vpn));
	__builtin_prefetch(t->next_page);
	tlb_prefetch_set(t->next_set);
}

/*
 * Once more just before the access runs: the lines loaded when it was
 * scheduled were loaded one access of every other thread ago, and with
 * thousands of threads they no longer fit in the cache by then.
 */
void sim_access_prefetch(const struct sim *s, unsigned int ti)
{
	const struct thread *t = &s->thread[ti];

	__builtin_prefetch(t->next_page);
	tlb_prefetch_set(t->next_set);
}

/* A prompt access was scheduled milliseconds ago: nothing of it is cached. */
void sim_prompt_prefetch(const struct sim *s, unsigned int ti, uint64_t vpn)
{
	const struct thread *t = &s->thread[ti];

	__builtin_prefetch(&t->mm->obj->page[vpn]);
	tlb_prefetch(&s->cpu[t->cpu].tlb, tlb_key(t->mm->id, vpn));
}

void sim_access_start(struct sim *s, unsigned int ti)
{
	pick_next(s, &s->thread[ti]);
	sim_schedule(s, (uint64_t)rng_exp(&s->rng, 1e9 / s->p.v[P_ACCESS_RATE_HZ]),
		     EV_ACCESS, ti);
}

/*
 * One access of @t to @vpn through its CPU's TLB: a hit is checked by the
 * oracle, a miss walks the page table and may take a hint fault. Returns
 * whether the access went through a cached translation.
 */
static bool touch(struct sim *s, struct thread *t, uint64_t vpn)
{
	struct mm *mm = t->mm;
	struct cpu *c = &s->cpu[t->cpu];
	uint64_t key = tlb_key(mm->id, vpn);
	bool write = rng_unit(&s->rng) < s->p.v[P_WRITE_FRACTION], hit;
	uint32_t gen;

	s->st.accesses++;
	sim_cpu_sync(s, c);
	hit = tlb_lookup(&c->tlb, key, &gen);
	if (hit) {
		s->st.tlb_hits++;
		oracle_check_hit(s, t->cpu, mm, vpn, gen);
	} else {
		s->st.tlb_misses++;
		if (*pte_of(mm, vpn) & PTE_PROTNONE)
			sim_hint_fault(s, t, vpn);
		if (*pte_of(mm, vpn) & PTE_PRESENT)
			tlb_insert(&c->tlb, key, mm->obj->page[vpn].frame_gen);
	}
	if (write && (*pte_of(mm, vpn) & PTE_PRESENT))
		*pte_of(mm, vpn) |= PTE_DIRTY;
	return hit;
}

/*
 * An active-set page's first touch after the scanner marked it. Already
 * faulted in by the sampled stream: nothing to do. Still cached by the
 * thread's CPU (the pass's flush has not come yet): the access is allowed
 * and the fault comes with a later touch, drawn again.
 */
void sim_prompt_access(struct sim *s, unsigned int ti, uint64_t vpn)
{
	struct thread *t = &s->thread[ti];

	if (!(*pte_of(t->mm, vpn) & PTE_PROTNONE))
		return;
	if (touch(s, t, vpn))
		sim_schedule_page(s, s->now + 1 +
				  (uint64_t)rng_exp(&s->rng, s->p.v[P_FAULT_PROMPT_MS] * 1e6),
				  EV_PROMPT_ACCESS, ti, vpn);
	else
		s->st.prompt_faults++;
}

void sim_access(struct sim *s, unsigned int ti)
{
	struct thread *t = &s->thread[ti];
	struct mm *mm = t->mm;
	struct cpu *c = &s->cpu[t->cpu];
	uint64_t vpn = t->next_vpn;
	uint64_t gap, lost;
	double speed;

	touch(s, t, vpn);

	if (mm->obj->page[vpn].node == c->node) {
		t->local++;
		speed = 1.0;
	} else {
		t->remote++;
		speed = 1.0 / (1.0 + s->p.v[P_REMOTE_PENALTY]);
	}
	gap = (uint64_t)rng_exp(&s->rng, 1e9 / s->p.v[P_ACCESS_RATE_HZ]) + 1;
	t->useful_ns += (uint64_t)(gap * speed);
	/* Time the CPU lost since this thread last ran, and during this access. */
	sim_cpu_sync(s, c);
	lost = cpu_lost_ns(c) - t->lost_seen_ns;
	t->lost_seen_ns = cpu_lost_ns(c);
	pick_next(s, t);
	sim_schedule(s, s->now + gap + lost, EV_ACCESS, ti);
}
