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
 * page state and TLB slot are prefetched soon after: with hundreds of threads in
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

/* sweep: the page sweep_sample_pages on from the last sample, in the part. */
static uint64_t sweep_next(const struct sim *s, const struct thread *t)
{
	uint64_t off = t->next_vpn - t->slice_start + (uint64_t)s->p.v[P_SWEEP_SAMPLE_PAGES];

	return t->slice_start + off % t->slice_pages;
}

/*
 * The early prefetches of drawn accesses go out eight at a time. Each
 * line is a random one in hundreds of MiB, so each prefetch waits for a
 * page walk before it retires; issued one per event, with an event's
 * hundreds of instructions between them, those walks ran one after
 * another (perf put half of a run on that one instruction). Eight in a
 * row overlap. The accesses run hundreds of events later, so the lines
 * are still in time.
 */
static void prefetch_soon(struct sim *s, const void *page, const void *set)
{
	unsigned int i;

	s->prefetch_ring[s->prefetch_queued].page = page;
	s->prefetch_ring[s->prefetch_queued].set = set;
	if (++s->prefetch_queued < SIM_PREFETCH_BURST)
		return;
	for (i = 0; i < SIM_PREFETCH_BURST; i++) {
		__builtin_prefetch(s->prefetch_ring[i].page);
		if (s->prefetch_ring[i].set) /* NULL: blind TLBs */
			tlb_prefetch_set(s->prefetch_ring[i].set);
	}
	s->prefetch_queued = 0;
}

static void pick_next(struct sim *s, struct thread *t)
{
	t->next_vpn = (int)s->p.v[P_PATTERN] == PATTERN_SWEEP ? sweep_next(s, t) :
		      pick_page(s, t);
	t->next_page = &t->mm->obj->page[t->next_vpn];
	t->next_set = s->tlb_blind ? NULL :
		      tlb_set_of(&s->cpu[t->cpu].tlb, tlb_key(t->mm->id, t->next_vpn));
	prefetch_soon(s, t->next_page, t->next_set);
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
	if (t->next_set)
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
	struct thread *t = &s->thread[ti];

	/* A sweep starts anywhere in its part: by the time anything is
	 * measured, the threads' phases have long drifted apart. */
	if ((int)s->p.v[P_PATTERN] == PATTERN_SWEEP)
		t->next_vpn = t->slice_start + rng_below(&s->rng, t->slice_pages);
	pick_next(s, t);
	sim_schedule(s, (uint64_t)rng_exp(&s->rng, 1e9 / s->p.v[P_ACCESS_RATE_HZ]),
		     EV_ACCESS, ti);
}

void sim_access_resume(struct sim *s, unsigned int ti)
{
	struct thread *t = &s->thread[ti];
	struct cpu *c = &s->cpu[t->cpu];

	/* The CPU's time lost to the call (its work, its flushes' waits)
	 * went by while the task waited: not charged again. */
	sim_cpu_sync(s, c);
	t->lost_seen_ns = sim_cpu_lost_ns(c);
	sim_schedule(s, s->now, EV_ACCESS, ti);
}

/*
 * An access of a run whose TLBs are blind (scenario.c): a page that is
 * mapped and unmarked needs nothing of them, as no frame moves in such a
 * run. A marked one faults or not depending on whether the CPU still
 * caches it, which a blind TLB cannot say: counted as a use, so the run
 * is done again with its TLBs.
 */
static void touch_blind(struct sim *s, struct thread *t, uint64_t vpn)
{
	if (*pte_of(t->mm, vpn) & PTE_PROTNONE) {
		sim_blind_note(s);
		sim_hint_fault(s, t, vpn);
	}
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
	if (s->tlb_blind) {
		hit = false;
		touch_blind(s, t, vpn);
	} else if ((hit = tlb_lookup(&c->tlb, key, &gen))) {
		s->st.tlb_hits++;
		oracle_check_hit(s, t->cpu, mm, vpn, gen);
	} else {
		s->st.tlb_misses++;
		if (*pte_of(mm, vpn) & PTE_PROTNONE)
			sim_hint_fault(s, t, vpn);
		if (*pte_of(mm, vpn) & PTE_PRESENT)
			tlb_insert(&c->tlb, key, mm->obj->page[vpn].frame_gen);
	}
	if (write && (*pte_of(mm, vpn) & PTE_PRESENT)) {
		sim_store_check_wp(mm, vpn);
		*pte_of(mm, vpn) |= PTE_DIRTY;
	}
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

/*
 * sweep: the thread writes every page after its last sample up to @vpn,
 * the sampled page last. The pages marked PROT_NONE since go through the
 * access model (a hint fault, or a stale translation the oracle checks),
 * as does the sampled page. The others are present and only cost time,
 * which the sample's gap counts; an unbounded TLB also keeps their
 * translations, so that a later marking finds them cached, as qemu's
 * software TLB does. *@missed counts the pages written whose translation
 * the thread's TLB did not hold (all of them when the TLB is not modelled
 * page by page): each of those costs a walk.
 *
 * A hint fault stops the stretch at its page: the thread is in the
 * kernel for the fault (and the migration and its flush, if any), and
 * reaches the stretch's other pages only after it. Returns how many pages
 * it wrote, the faulting one last (*@stop), or sweep_sample_pages when
 * nothing faulted (*@stop = @vpn).
 */
static uint64_t sweep_stretch(struct sim *s, struct thread *t, uint64_t vpn, uint64_t *stop,
			      uint64_t *missed)
{
	uint64_t n = (uint64_t)s->p.v[P_SWEEP_SAMPLE_PAGES], off, i;
	const uint64_t end = t->slice_start + t->slice_pages;
	struct tlb *tlb = &s->cpu[t->cpu].tlb;
	uint64_t p;

	sim_cpu_sync(s, &s->cpu[t->cpu]); /* flushes it has not seen come first */
	off = (vpn - t->slice_start + t->slice_pages - n % t->slice_pages) % t->slice_pages;
	/* p walks the part from the page after off, wrapping at its end (one
	 * division for the stretch: this loop is the simulator's hottest). */
	p = t->slice_start + off;
	for (i = 1; i < n; i++) {
		uint8_t *pte;

		if (++p == end)
			p = t->slice_start;
		pte = pte_of(t->mm, p);

		if (*pte & PTE_PROTNONE) {
			/* Not cached: the walk meets the mark, a hint fault. */
			if (!touch(s, t, p)) {
				++*missed;
				*stop = p;
				return i;
			}
		} else {
			/* The store: to a folio a migration left read-only, a
			 * write-protect fault first. */
			sim_store_check_wp(t->mm, p);
			if (tlb->dense && !s->tlb_blind && (*pte & PTE_PRESENT)) {
				/* A TLB that holds the whole part keeps what
				 * the sweep wrote through, until a flush. */
				*pte |= PTE_DIRTY;
				*missed += !tlb_insert(tlb, tlb_key(t->mm->id, p),
						       t->mm->obj->page[p].frame_gen);
			} else {
				++*missed;
			}
		}
	}
	*missed += !touch(s, t, vpn);
	*stop = vpn;
	return n;
}

bool sim_workload_pays_walks(const struct sim *s)
{
	return (int)s->p.v[P_PATTERN] == PATTERN_SWEEP;
}

/*
 * A cached page's time grows with the part the thread sweeps: in the
 * testbed's guest a sweeper over a warm 192 MiB part pays two and a half
 * to three times what one over 32 MiB does (docs/data/testbed-sweep-mix.md),
 * most likely the host's caches missing qemu's TLB entries and the guest's
 * pages. Two measured sizes, linear between, flat outside them.
 */
double sim_sweep_hit_ns(const struct sim *s, uint64_t part_pages)
{
	const double lo_mib = 32, hi_mib = 192;
	double lo = s->p.v[P_SWEEP_HIT_NS_PER_PAGE], hi = s->p.v[P_SWEEP_HIT_192_NS_PER_PAGE];
	double mib = (double)part_pages / (double)(1u << (20 - PAGE_SHIFT));

	if (hi == 0 || mib <= lo_mib)
		return lo;
	if (mib >= hi_mib)
		return hi;
	return lo + (hi - lo) * (mib - lo_mib) / (hi_mib - lo_mib);
}

/* The time @pages of @t's sweep take when @missed of them were not cached. */
static uint64_t sweep_ns(const struct sim *s, const struct thread *t, uint64_t pages,
			 uint64_t missed)
{
	return (uint64_t)((double)missed * s->p.v[P_SWEEP_NS_PER_PAGE] +
			  (double)(pages - missed) * sim_sweep_hit_ns(s, t->slice_pages)) + 1;
}

void sim_access(struct sim *s, unsigned int ti)
{
	struct thread *t = &s->thread[ti];
	struct mm *mm = t->mm;
	struct cpu *c = &s->cpu[t->cpu];
	uint64_t vpn = t->next_vpn;
	const uint64_t stretch = (uint64_t)s->p.v[P_SWEEP_SAMPLE_PAGES];
	uint64_t gap, lost, missed = 0, pages = stretch;
	bool sweep = (int)s->p.v[P_PATTERN] == PATTERN_SWEEP;
	double speed;

	if (sim_scan_in_own_call(s, ti)) {
		t->parked = true;
		return;
	}
	sim_private_faults(s, t);
	if (!sweep)
		touch(s, t, vpn);
	else if ((pages = sweep_stretch(s, t, vpn, &vpn, &missed)) < stretch)
		t->next_vpn = vpn; /* cut short by a fault: go on after it */

	if (mm->obj->page[vpn].node == c->node) {
		t->local++;
		speed = 1.0;
	} else {
		t->remote++;
		speed = 1.0 / (1.0 + s->p.v[P_REMOTE_PENALTY]);
	}
	/* A sweep's pace is fixed by its per-page times, a walk for each page
	 * its TLB missed; other patterns are a Poisson stream. */
	gap = sweep ? sweep_ns(s, t, pages, missed) :
		      (uint64_t)rng_exp(&s->rng, 1e9 / s->p.v[P_ACCESS_RATE_HZ]) + 1;
	t->useful_ns += (uint64_t)(gap * speed);
	/* Time the CPU lost since this thread last ran, and during this access. */
	sim_cpu_sync(s, c);
	lost = sim_cpu_lost_ns(c) - t->lost_seen_ns;
	t->lost_seen_ns = sim_cpu_lost_ns(c);
	/* A whole part written: the sweep is over (it may move the thread). */
	if (sweep && (t->swept += pages) >= t->slice_pages) {
		t->swept %= t->slice_pages;
		if (t->moving)
			s->st.moving_sweeps++;
		else
			s->st.stable_sweeps++;
		sim_sweep_done(s, ti);
	}
	pick_next(s, t);
	sim_schedule(s, s->now + gap + lost, EV_ACCESS, ti);
}
