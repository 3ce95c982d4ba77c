// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The kernel testbed's thp_split (tools/testbed/thp_split.c), thread by
 * thread: every thread of one process, pinned to its CPU, loops over
 *
 *   mmap()                      mmap_lock for writing
 *   write its THPs              a new VMA has no anon_vma: the first
 *                               THP fault's vmf_anon_prepare() takes
 *                               mmap_lock to read with a trylock, or, if
 *                               that fails, retries the whole fault under
 *                               mmap_lock; the others take the VMA lock
 *   mprotect() a page of each   write-locked, twice per THP: the first
 *   THP and back                splits the PMD (a flush of the 2 MiB
 *                               range) and downgrades the PTE (a flush of
 *                               the page); the upgrade needs no flush
 *   write its THPs again
 *   split them                  split_huge_pages_write(): its static
 *                               mutex, then mmap_lock to read, for the
 *                               whole write; each THP through the
 *                               library's split (the split policy)
 *   munmap()                    write-locked; the flush frees page
 *                               tables, so it reaches lazy CPUs too
 *
 * A thread that cannot take a lock sleeps (sleeplock.c) and its CPU goes
 * lazy (cpu_idle.c), so a flush that frees no page table skips it. Each
 * stage's own work is the guest's cost of it with the process alone
 * (round_*_ns, make testbed-microbench), plus what the model's flushes
 * add to it: the round trips to the CPUs that are awake.
 *
 * Stages: a step first takes its locks (ROUND_ACQUIRE; a thread woken
 * with a lock handed over comes back here for the rest), then works for
 * the step's time (ROUND_WORK), then releases them and moves on
 * (ROUND_RELEASE).
 */
#include <stdlib.h>
#include "engine.h"
#include "flush_turn.h"
#include "host_sched.h"
#include "paths.h"
#include "sim.h"
#include "split_vmas.h"

enum round_step {
	ROUND_MMAP, ROUND_FIRST_FAULT, ROUND_FAULTS, ROUND_MPROTECT, ROUND_REWRITE,
	ROUND_SPLIT, ROUND_MUNMAP, NR_ROUND_STEPS
};

enum round_stage { ROUND_ACQUIRE, ROUND_WORK, ROUND_RELEASE };

/* The locks a step takes, in this order (t->round_locks). */
#define HOLD_MUTEX 0x1 /* split_huge_pages_write()'s split_debug_mutex */
#define HOLD_READ  0x2 /* mmap_lock, to read */
#define HOLD_WRITE 0x4 /* mmap_lock, to write */

/* rwsem_mark_wake()'s MAX_READERS_WAKEUP: readers one unlock wakes. */
#define READERS_WAKEUP_MAX 256

static unsigned int step_locks(enum round_step step)
{
	switch (step) {
	case ROUND_MMAP:
	case ROUND_MPROTECT:
	case ROUND_MUNMAP:
		return HOLD_WRITE;
	case ROUND_FIRST_FAULT:
		return HOLD_READ;
	case ROUND_SPLIT:
		return HOLD_MUTEX | HOLD_READ;
	default:
		return 0;
	}
}

/*
 * The locks @t's step takes: step_locks(), except that a THP fault takes
 * mmap_lock to read when a writer has write-locked its VMA: the VMA lock
 * fails (lock_vma_under_rcu()) and the fault is retried under mmap_lock
 * (lock_mm_and_find_vma()), else it runs under the VMA lock alone.
 */
static unsigned int step_wants(const struct thread *t)
{
	if (t->round_step == ROUND_FAULTS)
		return t->vma_wlocked ? HOLD_READ : 0;
	return step_locks((enum round_step)t->round_step);
}

static unsigned int round_thps(const struct sim *s)
{
	return (unsigned int)s->p.v[P_THP_OPS_PER_THREAD];
}

static uint64_t thp_head(const struct thread *t, unsigned int i)
{
	return t->slice_start + ((uint64_t)i << PMD_ORDER);
}

/*
 * How much longer work takes than alone while it runs: with the CPUs
 * threads of a host of host_cpus CPUs, running CPUs / host_cpus once
 * more run than the host has (spinning ones included). Taken when the
 * work starts.
 */
static double host_share(const struct sim *s)
{
	unsigned int running = sim_running_vcpus(s);

	return host_overcommitted(s, running) ? running / s->p.v[P_HOST_CPUS] : 1;
}

/* The guest's own time for @step, alone: what the model's flushes do not
 * already charge. */
static uint64_t step_own_ns(const struct sim *s, const struct thread *t,
			    enum round_step step)
{
	const double *v = s->p.v;
	unsigned int thps = round_thps(s);
	double own = 0;

	switch (step) {
	case ROUND_FIRST_FAULT:
		/* anon_vma_prepare() alone, unless the fault was retried
		 * under the lock (not measured apart: next to nothing) */
		own = t->fault_locked ? v[P_ROUND_FAULT_NS] : 0;
		break;
	case ROUND_FAULTS:
		own = v[P_ROUND_FAULT_NS]; /* one THP a part */
		break;
	case ROUND_MPROTECT:
		own = v[P_ROUND_MPROTECT_NS] / 2;
		break;
	case ROUND_REWRITE:
		own = thps * v[P_ROUND_REWRITE_NS];
		break;
	case ROUND_SPLIT:
		/* The measured split less the PTE updates the model charges. */
		own = thps * (v[P_ROUND_SPLIT_NS] - PTES_PER_TABLE * v[P_PTE_UPDATE_NS]);
		break;
	case ROUND_MUNMAP:
		own = v[P_ROUND_MUNMAP_NS];
		break;
	default:
		break;
	}
	return own > 0 ? (uint64_t)own : 0;
}

/*
 * How long from now @t, about to do its step, stays awake at least: its
 * step's own work (sim_split_round_awake_until() walks on from there).
 */
static uint64_t awake_ns(const struct sim *s, const struct thread *t)
{
	return (uint64_t)(step_own_ns(s, t, (enum round_step)t->round_step) * host_share(s));
}

/* Takes the locks of @t's step it does not hold yet; false: it waits
 * for the one in t->round_waits. */
static bool round_acquire(struct sim *s, unsigned int ti)
{
	struct thread *t = &s->thread[ti];
	unsigned int want = step_wants(t);

	t->round_waits = 0;
	if ((want & HOLD_MUTEX) && !(t->round_locks & HOLD_MUTEX)) {
		if (!model_mutex_lock(&s->split_mutex, s->waiters, ti))
			t->round_waits = HOLD_MUTEX;
		else
			t->round_locks |= HOLD_MUTEX;
	}
	if (!t->round_waits && (want & HOLD_READ) && !(t->round_locks & HOLD_READ)) {
		if (!model_rwsem_down(&s->mmap_lock, s->waiters, ti, false))
			t->round_waits = HOLD_READ;
		else
			t->round_locks |= HOLD_READ;
	}
	if (!t->round_waits && (want & HOLD_WRITE) && !(t->round_locks & HOLD_WRITE)) {
		if (!model_rwsem_down(&s->mmap_lock, s->waiters, ti, true)) {
			t->round_waits = HOLD_WRITE;
		} else {
			t->round_locks |= HOLD_WRITE;
		}
	}
	return !t->round_waits;
}

/*
 * Whether a task waiting for @lock spins on its owner instead of sleeping
 * (optimistic spinning): a writer while a writer holds mmap_lock, unless
 * that writer sleeps in vma_start_write() (rwsem_optimistic_spin(),
 * rwsem_spin_on_owner(); a lock the model hands to a waking writer is, in
 * 6.12, free for the spinners to take, so they spin on; on a reader-owned
 * rwsem a writer spins (20 + readers) / 2 us, rwsem_rspin_threshold(),
 * next to nothing here); a mutex waiter while the mutex's owner runs
 * (mutex_spin_on_owner()). Readers do not spin (v5.11+).
 */
static bool spins_on(const struct sim *s, unsigned int lock)
{
	uint32_t owner = s->split_mutex.owner;

	if (lock == HOLD_WRITE)
		return s->mmap_lock.writer && !s->mmap_writer_sleeps;
	if (lock == HOLD_MUTEX)
		return owner != LOCK_NO_TASK && !s->cpu[s->thread[owner].cpu].lazy;
	return false;
}

/*
 * A spinner whose owner stops being spinnable (mmap_lock passed to
 * readers, the mutex owner asleep) sleeps, and stays asleep until an
 * unlock hands it the lock.
 */
static void round_settle_spinners(struct sim *s)
{
	unsigned int i;

	for (i = 0; i < s->nr_threads; i++) {
		struct thread *t = &s->thread[i];

		if (t->spinning && !spins_on(s, t->round_waits)) {
			t->spinning = false;
			sim_cpu_enter_lazy(s, t->cpu);
		}
	}
}

/* How many parts @t's step has: its mprotect() calls, two a THP, or its
 * THP faults past the first one taken under mmap_lock. */
static unsigned int step_parts(const struct sim *s, const struct thread *t)
{
	if (t->round_step == ROUND_MPROTECT)
		return 2 * round_thps(s);
	if (t->round_step == ROUND_FAULTS)
		return round_thps(s) - t->fault_locked;
	return 1;
}

/*
 * @t (thread @ti, or a copy of it) moves to the next part of its step, or
 * the next step: the first fault's step only when its VMA has no anon_vma
 * yet, the faults' only when some THP is left to fault.
 */
static void round_advance(const struct sim *s, unsigned int ti, struct thread *t)
{
	if (++t->round_part < step_parts(s, t))
		return;
	t->round_part = 0;
	if (t->round_step == ROUND_FAULTS)
		t->fault_locked = false;
	t->round_step = (uint8_t)((t->round_step + 1) % NR_ROUND_STEPS);
	if (t->round_step == ROUND_FIRST_FAULT && split_vmas_has_anon_vma(s, ti))
		t->round_step = ROUND_FAULTS;
	if (t->round_step == ROUND_FAULTS && t->fault_locked >= round_thps(s)) {
		t->fault_locked = false;
		t->round_step = ROUND_MPROTECT;
	}
}

enum lock_verdict { LOCK_RUNS, LOCK_SPINS, LOCK_SLEEPS };

/*
 * What a thread that holds no lock does when it wants @want as the locks
 * stand: runs on if the first it lacks is free (or it wants none), spins
 * if that lock's owner is spinnable, sleeps otherwise. A mutex it finds
 * free it takes, and then wants mmap_lock.
 */
static enum lock_verdict lock_verdict(const struct sim *s, unsigned int want)
{
	const struct model_rwsem *r = &s->mmap_lock;
	bool queue = r->q.head != LOCK_NO_TASK;

	if ((want & HOLD_MUTEX) && s->split_mutex.held)
		return spins_on(s, HOLD_MUTEX) ? LOCK_SPINS : LOCK_SLEEPS;
	if (want & HOLD_READ)
		return !r->writer && !queue ? LOCK_RUNS : LOCK_SLEEPS;
	if (want & HOLD_WRITE) {
		if (!r->writer && !r->readers && !queue)
			return LOCK_RUNS;
		return spins_on(s, HOLD_WRITE) ? LOCK_SPINS : LOCK_SLEEPS;
	}
	return LOCK_RUNS;
}

uint64_t sim_split_round_awake_until(const struct sim *s, unsigned int cpu)
{
	const uint64_t until = s->cpu[cpu].awake_until;
	struct thread next;
	uint64_t at = until;
	unsigned int i, n, parts;

	if (!s->waiters || !until)
		return until;
	for (i = 0; i < s->nr_threads; i++)
		if (s->thread[i].cpu == cpu)
			break;
	if (i == s->nr_threads)
		return until;
	next = s->thread[i];
	/*
	 * Through the steps it can take without waiting, at most a round; a
	 * step's parts all want the same locks, so they go together. A
	 * thread that has not begun its step yet starts the walk there.
	 */
	for (n = 0; n <= NR_ROUND_STEPS; n++) {
		if (n || next.round_stage != ROUND_ACQUIRE) {
			round_advance(s, i, &next);
			next.round_locks = 0; /* released at the step's end */
		}
		switch (lock_verdict(s, step_wants(&next) & ~next.round_locks)) {
		case LOCK_SLEEPS:
			return at;
		case LOCK_SPINS:
			return UINT64_MAX;
		case LOCK_RUNS:
		default:
			parts = step_parts(s, &next) - next.round_part;
			at += (uint64_t)(parts * step_own_ns(s, &next, (enum round_step)next.round_step) *
					 host_share(s));
			next.round_part = (unsigned int)(step_parts(s, &next) - 1);
			break;
		}
	}
	return UINT64_MAX;
}

/* @t could not take a lock: it spins, or sleeps and its CPU goes lazy. */
static void round_wait(struct sim *s, struct thread *t)
{
	if (t->round_step == ROUND_FIRST_FAULT)
		t->fault_locked = true; /* the trylock failed */
	t->spinning = spins_on(s, t->round_waits);
	if (t->spinning) {
		s->cpu[t->cpu].awake_until = 0; /* awake until handed the lock */
		return;
	}
	sim_cpu_enter_lazy(s, t->cpu);
	if (t->round_locks & HOLD_MUTEX)
		round_settle_spinners(s); /* the mutex owner sleeps */
}

/* @task was handed @lock by an unlock: it runs to take the rest, at
 * once if it was spinning, after the wake-up if it slept (its CPU lazy
 * until then). */
static void round_wake(struct sim *s, uint32_t task, unsigned int lock)
{
	struct thread *t = &s->thread[task];
	uint64_t at = s->now, ns;

	if (s->cpu[t->cpu].lazy)
		at += (uint64_t)s->p.v[P_WAKE_NS];
	t->round_locks |= (uint8_t)lock;
	t->round_waits = 0;
	t->spinning = false;
	ns = awake_ns(s, t);
	s->cpu[t->cpu].awake_until = ns ? at + ns : 0;
	sim_schedule(s, at, EV_SPLIT_ROUND, task);
}

static void round_release(struct sim *s, struct thread *t)
{
	uint32_t woken[READERS_WAKEUP_MAX];
	unsigned int n, i;

	if (t->round_locks & (HOLD_READ | HOLD_WRITE)) {
		bool write = t->round_locks & HOLD_WRITE;

		if (write) /* mmap_write_unlock(): every VMA lock goes with it */
			for (i = 0; i < s->nr_threads; i++)
				s->thread[i].vma_wlocked = false;

		n = model_rwsem_up(&s->mmap_lock, s->waiters, write, woken,
				   READERS_WAKEUP_MAX);
		for (i = 0; i < n; i++)
			round_wake(s, woken[i], s->waiters[woken[i]].write ? HOLD_WRITE : HOLD_READ);
	}
	if (t->round_locks & HOLD_MUTEX) {
		uint32_t next = model_mutex_unlock(&s->split_mutex, s->waiters);

		if (next != LOCK_NO_TASK)
			round_wake(s, next, HOLD_MUTEX);
	}
	t->round_locks = 0;
	round_settle_spinners(s);
}

/* The THP fault: a new 2 MiB folio on the thread's node, mapped and
 * written, so the thread's TLB holds it. */
static void fault_thp(struct sim *s, struct thread *t, unsigned int i)
{
	struct cpu *c = &s->cpu[t->cpu];
	uint64_t head = thp_head(t, i), vpn;

	sim_cpu_sync(s, c);
	for (vpn = head; vpn < head + (1ULL << PMD_ORDER); vpn++) {
		struct folio_page *fp = &t->mm->obj->page[vpn];

		fp->order = PMD_ORDER;
		fp->frame_gen++;
		fp->node = (uint8_t)c->node;
		*pte_of(t->mm, vpn) = PTE_PRESENT | PTE_DIRTY;
		tlb_insert(&c->tlb, tlb_key(t->mm->id, vpn), fp->frame_gen);
	}
}

/* flush_tlb_mm_range() from @t's CPU to mm_cpumask: @pages from @start,
 * or the whole mm when @pages is 0. */
static void flush_range(struct sim *s, struct thread *t, uint64_t start, uint64_t pages)
{
	struct tlbp_flush_req req = {
		.cpus = &t->mm->cpus, .mm = &t->mm->flush,
		.start = start << PAGE_SHIFT, .end = (start + pages) << PAGE_SHIFT,
		.nr_pages = pages, .unmapped = true,
	};

	uint64_t vpn;

	if (!pages) {
		req.start = req.nr_pages = 0;
		req.end = TLBP_FLUSH_ALL;
		req.full = true;
	}
	/* The range's translations changed (a PMD split, a protection). */
	for (vpn = start; vpn < start + pages; vpn++)
		flush_turn_note_change(s, t->mm->id, vpn);
	t->mm->tlb_gen++;
	if (s->flush_ops->flush(&s->cpu[t->cpu].flush_ctx, &req))
		oracle_violation(s, "flush failed", t->mm->id, start);
}

/*
 * mprotect() number @k of the round: even ones downgrade the middle page
 * of THP k / 2, which splits its PMD first (__split_huge_pmd() flushes
 * the PMD's range: one entry, a ranged flush) and then flush the page;
 * odd ones upgrade it back, which x86 does not flush (pte_needs_flush()).
 */
static void mprotect_one(struct sim *s, struct thread *t, unsigned int k)
{
	uint64_t head = thp_head(t, k / 2), page = head + (1ULL << PMD_ORDER) / 2;

	if (k % 2)
		return;
	flush_range(s, t, head, 1ULL << PMD_ORDER);
	flush_range(s, t, page, 1);
}

static void munmap_round(struct sim *s, struct thread *t)
{
	uint64_t head = thp_head(t, 0), n = (uint64_t)round_thps(s) << PMD_ORDER, vpn;

	for (vpn = head; vpn < head + n; vpn++) {
		*pte_of(t->mm, vpn) = 0;
		flush_turn_note_change(s, t->mm->id, vpn);
	}
	/* tlb_finish_mmu(): past the 33-page ceiling, a full flush. */
	s->flush_freed_tables = true;
	flush_range(s, t, head, 0);
	s->flush_freed_tables = false;
}

/* Does @t's step; returns how long it takes. */
static uint64_t round_work(struct sim *s, struct thread *t)
{
	struct cpu *c = &s->cpu[t->cpu];
	uint64_t before = cpu_path_ns(c), vpn, head;
	unsigned int i, thps = round_thps(s);

	switch ((enum round_step)t->round_step) {
	case ROUND_FIRST_FAULT:
		split_vmas_anon_vma_prepare(s, (unsigned int)(t - s->thread));
		if (t->fault_locked)
			fault_thp(s, t, 0);
		break;
	case ROUND_FAULTS:
		fault_thp(s, t, t->fault_locked + t->round_part);
		break;
	case ROUND_MPROTECT:
		mprotect_one(s, t, t->round_part);
		break;
	case ROUND_REWRITE:
		/* Stores through whatever the TLB kept: the oracle checks it. */
		sim_cpu_sync(s, c);
		head = thp_head(t, 0);
		for (vpn = head; vpn < head + ((uint64_t)thps << PMD_ORDER); vpn++) {
			uint64_t key = tlb_key(t->mm->id, vpn);
			uint32_t gen;

			if (tlb_lookup(&c->tlb, key, &gen))
				oracle_check_hit(s, t->cpu, t->mm, vpn, gen);
			else
				tlb_insert(&c->tlb, key, t->mm->obj->page[vpn].frame_gen);
		}
		break;
	case ROUND_SPLIT:
		for (i = 0; i < thps; i++)
			if (sim_split_folio(s, t->cpu, t->mm, thp_head(t, i)))
				oracle_violation(s, "split failed", t->mm->id, thp_head(t, i));
		break;
	case ROUND_MUNMAP:
		munmap_round(s, t);
		split_vmas_unmap(s, (unsigned int)(t - s->thread));
		break;
	default:
		break;
	}
	return cpu_path_ns(c) - before +
	       (uint64_t)(step_own_ns(s, t, (enum round_step)t->round_step) * host_share(s));
}

/* The step after @t's: mprotect() and the faults go a part at a time. */
static void round_next(struct sim *s, struct thread *t)
{
	round_advance(s, (unsigned int)(t - s->thread), t);
	if (t->round_step == ROUND_SPLIT && !t->round_part)
		t->split_started_ns = s->now;
}

/*
 * A writer's step write-locks the VMA it changes (vma_start_write()):
 * mmap() the VMA its new region joined (placed now), mprotect() and
 * munmap() the one its region is in. vma_start_write() waits for the
 * faults running under that VMA's lock; new ones fall back to mmap_lock
 * (step_wants()). Returns true if @ti must wait: it sleeps (its CPU
 * lazy) until the last of them ends, and runs wake_ns later.
 */
static bool round_vma_start_write(struct sim *s, unsigned int ti)
{
	struct thread *t = &s->thread[ti];
	uint64_t until = 0;
	unsigned int i;

	if (!(t->round_locks & HOLD_WRITE))
		return false;
	if (t->vma_waited) {
		s->mmap_writer_sleeps = false; /* back from its wait, if any */
		return false;
	}
	t->vma_waited = true;
	if (t->round_step == ROUND_MMAP)
		split_vmas_map(s, ti);
	for (i = 0; i < s->nr_threads; i++) {
		struct thread *o = &s->thread[i];

		if (i != ti && !split_vmas_same(s, i, ti))
			continue;
		o->vma_wlocked = true;
		if (o->vma_fault_until > until)
			until = o->vma_fault_until;
	}
	if (until <= s->now)
		return false;
	sim_cpu_enter_lazy(s, t->cpu);
	s->mmap_writer_sleeps = true;
	round_settle_spinners(s); /* the writer they spin on sleeps */
	sim_schedule(s, until + (uint64_t)s->p.v[P_WAKE_NS], EV_SPLIT_ROUND, ti);
	return true;
}

void sim_split_round(struct sim *s, unsigned int ti)
{
	struct thread *t = &s->thread[ti];
	uint64_t took, ns;

	sim_cpu_exit_lazy(s, t->cpu, t->mm);
	switch ((enum round_stage)t->round_stage) {
	case ROUND_ACQUIRE:
		if (!round_acquire(s, ti)) {
			round_wait(s, t);
			return; /* an unlock wakes it */
		}
		t->round_stage = ROUND_WORK;
		/* fall through */
	case ROUND_WORK:
		if (round_vma_start_write(s, ti))
			return; /* it sleeps until the faults end */
		s->event_path_base = cpu_path_ns(&s->cpu[t->cpu]);
		took = round_work(s, t);
		if ((t->round_step == ROUND_FAULTS || t->round_step == ROUND_FIRST_FAULT) &&
		    !(t->round_locks & (HOLD_READ | HOLD_WRITE)))
			t->vma_fault_until = s->now + took; /* under the VMA lock */
		/* Awake until the step ends, and on through the steps that
		 * need no lock held by another (sim_split_round_awake_until()). */
		s->cpu[t->cpu].awake_until = s->now + took;
		t->round_stage = ROUND_RELEASE;
		sim_schedule(s, s->now + (took ? took : 1), EV_SPLIT_ROUND, ti);
		return;
	case ROUND_RELEASE:
	default:
		if (t->round_step == ROUND_SPLIT) {
			/* thp_split's split_ns: the whole write, mutex wait included */
			s->st.op_count += round_thps(s);
			s->st.op_latency_ns_total += s->now - t->split_started_ns;
		}
		t->vma_fault_until = 0;
		t->vma_waited = false;
		round_release(s, t);
		round_next(s, t);
		t->round_stage = ROUND_ACQUIRE;
		ns = awake_ns(s, t);
		s->cpu[t->cpu].awake_until = ns ? s->now + ns : 0;
		sim_schedule(s, s->now, EV_SPLIT_ROUND, ti);
		return;
	}
}

int sim_split_round_start(struct sim *s)
{
	unsigned int i;
	uint64_t vpn;

	s->waiters = calloc(s->nr_threads, sizeof(*s->waiters));
	if (!s->waiters)
		return -1;
	model_rwsem_init(&s->mmap_lock);
	model_mutex_init(&s->split_mutex);
	for (i = 0; i < s->nr_mms; i++)
		for (vpn = 0; vpn < s->mm[i].nr_pages; vpn++)
			*pte_of(&s->mm[i], vpn) = 0; /* mapped by the rounds */
	s->last_vma_id = 0;
	s->mmap_writer_sleeps = false;
	for (i = 0; i < s->nr_threads; i++) {
		split_vmas_init(s, i);
		if (sim_schedule(s, i, EV_SPLIT_ROUND, i))
			return -1;
	}
	return 0;
}
