// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The NUMA scanner (task_numa_work / change_prot_numa): every scan period,
 * mark scan_size worth of an mm's PTEs PROT_NONE, one PTE table per event so
 * that faults and migrations interleave with a pass, inside one gather whose
 * flush comes at the end of the pass; with a walk over VMAs (scan_walk.c),
 * one gather per VMA, as change_prot_numa() is called VMA by VMA.
 *
 * With a walk, numa_next_scan moves on as a call starts, as
 * task_numa_work() sets it, so calls of several tasks can be under way at
 * once (each holds mmap_lock for read, each has its gathers), and a gather
 * that finishes while another is in flight flushes the whole mm
 * (mm_tlb_flush_nested()); each call draws its own mmap_lock writer for
 * the convoy below (the testbed, the only scenario with a walk, has none).
 * Without one, a pass is a region's scan_size and the next call is
 * scheduled when it ends.
 *
 * A table takes as long as its work: the PTE updates plus, when a
 * migration deferred a flush since the last table, the drain
 * (flush_tlb_batched_pending) with its wait for every CPU's ack. That wait
 * is what stretches an unpatched pass from about a millisecond to tens.
 *
 * The pass holds mmap_lock for read throughout. An mmap_lock writer of the
 * workload that arrives during the pass queues behind it, and from then on
 * every reader of the process queues behind the writer until the pass
 * ends and the writer is done: the convoy. Readers spin for up to convoy_spin_us (kernel cycles),
 * then sleep (lost work, no cycles).
 */
#include <math.h>
#include "engine.h"
#include "flush_turn.h"
#include "paths.h"
#include "scan_walk.h"
#include "sim.h"

/* kernel/sched/fair.c: NUMA_PERIOD_SLOTS and NUMA_PERIOD_THRESHOLD */
#define PERIOD_SLOTS 10
#define PERIOD_THRESHOLD 7
/* task_numa_work(): the task that wins a scan moves its node_stamp on by
 * 2 * TICK_NSEC "so that another task of this mm will likely win the next
 * time around"; TICK_NSEC at CONFIG_HZ=250 (Debian's and the testbed's) */
#define SCAN_WINNER_STAMP_NS (2 * 4000000ULL)

/* Each task's task_tick_numa() is modelled (scan_overhead_ratio): tasks
 * take turns by their runtime stamps and keep their own scan periods. */
static bool ticks_modelled(const struct sim *s)
{
	return s->p.v[P_SCAN_OVERHEAD_RATIO] > 0;
}

struct scan_rate *sim_scan_rate(struct sim *s, struct thread *t)
{
	return ticks_modelled(s) ? &t->scan_rate : &t->mm->rate;
}

/* The period of @task's scan (numa_next_scan = now + its period). */
static uint64_t period_of(const struct sim *s, const struct mm *mm, unsigned int task)
{
	return ticks_modelled(s) ? s->thread[task].scan_rate.period_ns : mm->rate.period_ns;
}

/* The task whose task_numa_work() makes the next scan call. */
static unsigned int scan_next_task(const struct sim *s, const struct mm *mm)
{
	if (ticks_modelled(s))
		return mm->scan_thread;
	return mm->first_thread + mm->scan_cpu_rr % mm->nr_threads;
}

/* task_numa_work runs in the context of one of the mm's tasks; a whole
 * pass stays on that task's CPU, the next pass takes the next task. */
unsigned int sim_scan_next_cpu(const struct sim *s, const struct mm *mm)
{
	return s->thread[scan_next_task(s, mm)].cpu;
}

uint64_t sim_jiffies_ns(const struct sim *s, double ns)
{
	return (uint64_t)(ns / s->p.v[P_JIFFIES_RATE]);
}

bool sim_scan_in_own_call(const struct sim *s, unsigned int thread)
{
	return ticks_modelled(s) && s->thread[thread].in_call;
}

/*
 * With scan_overhead_ratio: task_tick_numa() of each task fires every
 * period of its runtime after its node_stamp (busy threads: runtime is
 * virtual time), and the first to fire once numa_next_scan has passed
 * runs the next call; a task in a call of its own does not compete.
 * Returns when the next call starts, and makes its task mm->scan_thread;
 * UINT64_MAX if every task is in a call. A call's end or a period's
 * change before then can change the answer: the start is picked again.
 */
static uint64_t scan_next_by_runtime(struct sim *s, struct mm *mm, uint64_t next_scan)
{
	uint64_t best = UINT64_MAX;
	unsigned int i;

	for (i = mm->first_thread; i < mm->first_thread + mm->nr_threads; i++) {
		uint64_t period = s->thread[i].scan_rate.period_ns ? s->thread[i].scan_rate.period_ns : 1;
		uint64_t fire = s->thread[i].scan_stamp_ns + period;

		if (s->thread[i].in_call)
			continue;
		/* Ticks before numa_next_scan only move the stamp on. */
		if (fire < next_scan)
			fire += (next_scan - fire + period - 1) / period * period;
		if (fire < best) {
			best = fire;
			mm->scan_thread = i;
		}
	}
	return best;
}

/* The next call comes at numa_next_scan, or with tasks' ticks modelled at
 * the first tick after it of a task not in a call; none while every task
 * is in one (the first to end schedules it). */
static void schedule_next_call(struct sim *s, struct mm *mm)
{
	uint64_t next = mm->next_scan_ns > s->now ? mm->next_scan_ns : s->now + 1;

	mm->start_gen++; /* voids a start scheduled before */
	mm->call_pending = false;
	if (ticks_modelled(s))
		next = scan_next_by_runtime(s, mm, next);
	if (next == UINT64_MAX)
		return;
	mm->call_pending = true;
	sim_schedule_page(s, next, EV_SCAN_START, mm->id - 1, mm->start_gen);
}

void sim_scan_schedule_first(struct sim *s, struct mm *mm, uint64_t next_scan_ns)
{
	mm->next_scan_ns = next_scan_ns;
	schedule_next_call(s, mm);
}

/* A call of @task started at @started: numa_next_scan is one period (in
 * jiffies) of the calling task later, and the next start is picked
 * against it. */
static void next_call_after(struct sim *s, struct mm *mm, unsigned int task, uint64_t started)
{
	if (ticks_modelled(s))
		mm->rate.period_ns = period_of(s, mm, task);
	mm->next_scan_ns = started + sim_jiffies_ns(s, (double)mm->rate.period_ns);
	schedule_next_call(s, mm);
}

static uint32_t table_event_arg(const struct mm *mm, const struct scan_call *c)
{
	return (mm->id - 1) * SCAN_CALLS_MAX + (uint32_t)(c - mm->call);
}

/* A free slot for a call of @task; NULL if it has a call under way (the
 * round robin without ticks can pick it) or every slot is taken. */
static struct scan_call *call_slot(const struct sim *s, struct mm *mm, unsigned int task)
{
	unsigned int i;

	if (s->thread[task].in_call)
		return NULL;
	for (i = 0; i < SCAN_CALLS_MAX; i++)
		if (!mm->call[i].active)
			return &mm->call[i];
	return NULL;
}

/* The range @c marks next: its tables from the first, in a gather of
 * its own (change_prot_numa()). */
static void range_begin(struct sim *s, struct mm *mm, struct scan_call *c,
			struct scan_range r)
{
	c->next_vpn = r.start;
	c->range_end = r.end;
	c->changed = false;
	tlbp_gather_begin(&c->gather, &mm->flush, s->batch_cfg.range_ceiling, PAGE_SHIFT);
}

/* Without a walk, a pass over scan_size pages from where the last ended,
 * one range, one gather. */
static void pass_begin(struct sim *s, struct mm *mm, struct scan_call *c, uint64_t pages)
{
	/* Before the first pass both are [0, 0): empty. */
	mm->earlier_pass[1] = mm->earlier_pass[0];
	mm->earlier_pass[0].start = mm->pass_start_vpn;
	mm->earlier_pass[0].end = mm->scan_pass_end;
	if (mm->scan_next_vpn >= mm->nr_pages)
		mm->scan_next_vpn = 0;
	mm->pass_start_vpn = mm->scan_next_vpn;
	mm->scan_pass_end = mm->scan_next_vpn + pages;
	if (mm->scan_pass_end > mm->nr_pages)
		mm->scan_pass_end = mm->nr_pages;
	range_begin(s, mm, c, (struct scan_range){ mm->pass_start_vpn, mm->scan_pass_end });
}

static void scan_finish(struct sim *s, struct mm *mm, struct scan_call *c);

void sim_scan_start(struct sim *s, struct mm *mm)
{
	uint64_t pages = (uint64_t)(s->p.v[P_SCAN_SIZE_MB] * 1048576.0) >> PAGE_SHIFT;
	double writer_hz = s->p.v[P_MMAP_WRITER_HZ];
	unsigned int task = scan_next_task(s, mm);
	struct scan_call *c = call_slot(s, mm, task);
	struct scan_range r;

	mm->call_pending = false;
	mm->scan_cpu_rr++;
	if (!c) {
		/* Its task_work finds the call of its own still running. */
		next_call_after(s, mm, task, s->now);
		return;
	}
	if (!pages)
		pages = 1;
	s->st.scan_calls++;
	s->thread[task].in_call = true;
	*c = (struct scan_call){ .active = true, .cpu = sim_this_cpu(s), .task = task,
				 .started_ns = s->now, .writer_at = UINT64_MAX };
	mm->nr_calls++;
	/* Its tick fired now; "so that another task of this mm will likely
	 * win the next time around" */
	if (ticks_modelled(s))
		s->thread[task].scan_stamp_ns = s->now + SCAN_WINNER_STAMP_NS;
	if (mm->walk) {
		/* numa_next_scan moves on as the call starts: the next may
		 * start before this one ends. */
		next_call_after(s, mm, task, s->now);
		scan_walk_begin(s, mm, &c->walk, task - mm->first_thread, pages);
		if (!scan_walk_next(s, mm, &c->walk, &r)) {
			scan_finish(s, mm, c); /* no PTE to change: no gather */
			return;
		}
		range_begin(s, mm, c, r);
	} else {
		pass_begin(s, mm, c, pages);
	}
	/* Writers arrive as a Poisson stream; only the first in a pass matters. */
	c->writer_at = writer_hz > 0 ? s->now + (uint64_t)rng_exp(&s->rng, 1e9 / writer_hz) :
		       UINT64_MAX;
	sim_schedule(s, s->now, EV_SCAN_TABLE, table_event_arg(mm, c));
}

/* Every reader of @mm that queued behind the writer waits for the pass. */
static void convoy(struct sim *s, struct mm *mm, const struct scan_call *c)
{
	double spin_cap = s->p.v[P_CONVOY_SPIN_US] * 1e3;
	uint64_t stall, spin;
	unsigned int i;

	if (c->writer_at >= s->now)
		return;
	stall = s->now - c->writer_at + (uint64_t)(s->p.v[P_MMAP_WRITE_HOLD_MS] * 1e6);
	spin = stall < spin_cap ? stall : (uint64_t)spin_cap;
	s->st.convoy_passes++;
	for (i = mm->first_thread; i < mm->first_thread + mm->nr_threads; i++) {
		struct acct *a = &s->cpu[s->thread[i].cpu].acct;

		if (i == c->task)
			continue; /* the pass's own task holds the lock */
		a->spin_ns += spin;
		a->sleep_ns += stall - spin;
		s->st.convoy_ns += stall;
	}
}

/*
 * update_task_scan_period(), once per completed sequence over the address
 * space as in task_numa_placement(): no local and no shared fault (none
 * at all included) doubles the period and puts the next scan a period
 * away; otherwise mostly private or mostly local faults lengthen it by a
 * slot per ratio point above the threshold, and it shortens if neither;
 * clamped to the tunables' bounds. (Failed migrations, which also back
 * off, are not counted.)
 */
static void update_scan_period(struct sim *s, struct mm *mm, struct scan_rate *r)
{
	uint64_t lr = r->faults_local + r->faults_remote;
	uint64_t ps = r->faults_private + r->faults_shared;
	double period = (double)r->period_ns, slot = ceil(period / PERIOD_SLOTS);
	double lo = s->p.v[P_SCAN_PERIOD_MIN_MS] * 1e6, hi = s->p.v[P_SCAN_PERIOD_MAX_MS] * 1e6;
	int lr_ratio, ps_ratio, diff;

	if (!r->faults_local && !r->faults_shared) {
		/* No local or shared fault (no fault at all included): back off. */
		period *= 2;
	} else {
		lr_ratio = (int)(r->faults_local * PERIOD_SLOTS / lr);
		ps_ratio = (int)(r->faults_private * PERIOD_SLOTS / ps);
		if (ps_ratio >= PERIOD_THRESHOLD)
			diff = ps_ratio - PERIOD_THRESHOLD ? ps_ratio - PERIOD_THRESHOLD : 1;
		else if (lr_ratio >= PERIOD_THRESHOLD)
			diff = lr_ratio - PERIOD_THRESHOLD ? lr_ratio - PERIOD_THRESHOLD : 1;
		else
			diff = -(PERIOD_THRESHOLD - (lr_ratio > ps_ratio ? lr_ratio : ps_ratio));
		period += diff * slot;
	}
	period = period < lo ? lo : period > hi ? hi : period;
	r->period_ns = (uint64_t)period;
	/* Backing off also puts the process's next scan a new period away
	 * (a pass without a walk sets its own when it ends). */
	if (!r->faults_local && !r->faults_shared)
		mm->next_scan_ns = s->now + sim_jiffies_ns(s, period);
	r->faults_local = r->faults_remote = 0;
	r->faults_private = r->faults_shared = 0;
	s->st.scan_period_updates++;
}

/*
 * reset_ptenuma_scan(): @mm completed a sequence. Without tasks' ticks its
 * one period is updated now; with them each task updates its own at its
 * next hint fault (sim_scan_task_fault()).
 */
void sim_scan_seq_done(struct sim *s, struct mm *mm)
{
	mm->scan_seq++;
	s->st.scan_sequences++;
	if (ticks_modelled(s))
		return; /* each task at its next fault: sim_scan_task_fault() */
	update_scan_period(s, mm, &mm->rate);
	/* A call scheduled by the old period comes at the new next scan. */
	if (mm->call_pending)
		schedule_next_call(s, mm);
}

void sim_scan_task_fault(struct sim *s, struct thread *t)
{
	struct mm *mm = t->mm;

	if (!ticks_modelled(s) || t->scan_seq_seen == mm->scan_seq)
		return;
	t->scan_seq_seen = mm->scan_seq;
	update_scan_period(s, mm, &t->scan_rate);
	/* A call scheduled by the old period comes at another tick. */
	if (mm->call_pending)
		schedule_next_call(s, mm);
}

/* The call is over: its last flush (tlb_finish_mmu) was acknowledged,
 * or it had nothing to mark. */
static void scan_finish(struct sim *s, struct mm *mm, struct scan_call *c)
{
	uint64_t took = s->now - c->started_ns;

	c->active = false;
	s->thread[c->task].in_call = false;
	mm->nr_calls--;
	if (s->thread[c->task].parked) {
		s->thread[c->task].parked = false;
		sim_access_resume(s, c->task);
	}
	convoy(s, mm, c);
	if (!mm->walk || c->walk.marked) { /* a call that marked the region */
		s->st.scan_passes++;
		s->st.scan_pass_ns_total += took;
	}
	/* task_numa_work()'s cap: its task runs 32 times as long elsewhere
	 * before its next tick (scan_overhead_ratio). */
	if (ticks_modelled(s))
		s->thread[c->task].scan_stamp_ns += (uint64_t)(s->p.v[P_SCAN_OVERHEAD_RATIO] * (double)took);
	if (mm->walk) {
		/* The walk completes sequences itself. The next call was
		 * picked as this one started, without this task: it may win
		 * now, with its stamp moved on. */
		schedule_next_call(s, mm);
		return;
	}
	mm->scan_next_vpn = c->next_vpn;
	if (mm->scan_next_vpn >= mm->nr_pages) {
		mm->scan_next_vpn = 0;
		sim_scan_seq_done(s, mm);
	}
	next_call_after(s, mm, c->task, c->started_ns);
}

/* Issues the range's flush; the next step comes when it is acknowledged. */
static void scan_flush(struct sim *s, struct mm *mm, struct scan_call *c)
{
	enum tlbp_flush_reason why;
	uint64_t before = cpu_path_ns(&s->cpu[c->cpu]);

	tlbp_gather_finish(&c->gather, &mm->cpus, &why);
	if (why != TLBP_FLUSH_NOT_REQUIRED)
		s->st.scanner_flush_mm_calls++;
	/* tlb_finish_mmu() drops tlb_flush_pending after the flush returns:
	 * the finish issued it at once, so hold the count up until the wait
	 * it costs is over (SCAN_STEP_DONE). */
	tlbp_mm_inc_flush_pending(&mm->flush);
	c->step = SCAN_STEP_DONE;
	sim_schedule(s, s->now + cpu_path_ns(&s->cpu[c->cpu]) - before + 1,
		     EV_SCAN_TABLE, table_event_arg(mm, c));
}

/* The thread whose slice holds @vpn: the one that touches it next. */
static unsigned int owner_of(const struct mm *mm, uint64_t vpn)
{
	uint64_t i = mm->slice_pages ? vpn / mm->slice_pages : 0;

	if (i >= mm->nr_threads)
		i = mm->nr_threads - 1;
	return mm->first_thread + (unsigned int)i;
}

/*
 * After a range's flush: the call's next range (a walk's next VMA, or the
 * rest of the VMA it is in), or the end of the call. True if it goes on.
 */
static bool next_range(struct sim *s, struct mm *mm, struct scan_call *c)
{
	struct scan_range r;

	tlbp_mm_dec_flush_pending(&mm->flush);
	c->step = SCAN_STEP_DRAIN;
	if (!mm->walk || scan_walk_marked(mm, &c->walk, c->changed) ||
	    !scan_walk_next(s, mm, &c->walk, &r)) {
		scan_finish(s, mm, c);
		return false;
	}
	range_begin(s, mm, c, r);
	return true;
}

/*
 * One step of a call, by its step: take the next table's PTL and drain
 * what migrations deferred (the step lasts as long as the drain's wait);
 * mark the table's PTEs (as long as the updates take); after a range's
 * last table, its flush; then the next range or the end of the call.
 */
void sim_scan_table(struct sim *s, struct mm *mm, unsigned int slot)
{
	struct scan_call *c = &mm->call[slot];
	unsigned int cpu = c->cpu; /* sim_this_cpu() */
	uint64_t start, end, vpn, changed = 0, took;
	double prompt = s->p.v[P_FAULT_PROMPT_FRACTION];
	double prompt_mean = s->p.v[P_FAULT_PROMPT_MS] * 1e6;
	double cost;

	if (c->step == SCAN_STEP_DONE && !next_range(s, mm, c))
		return;
	if (c->step == SCAN_STEP_DRAIN) {
		/* Under this table's PTL, before touching its PTEs. */
		took = cpu_path_ns(&s->cpu[cpu]);
		tlbp_mm_flush_batched_pending(&mm->flush, NULL);
		took = cpu_path_ns(&s->cpu[cpu]) - took;
		c->step = SCAN_STEP_MARK;
		if (took) {
			sim_schedule(s, s->now + took, EV_SCAN_TABLE, table_event_arg(mm, c));
			return;
		}
	}
	start = c->next_vpn;
	if (start == c->range_end) {
		/* A VMA whose pages are not modelled: one of its PTEs
		 * changes, a page past the modelled ones stands for it. */
		tlbp_gather_add(&c->gather, mm->nr_pages << PAGE_SHIFT,
				(mm->nr_pages + 1) << PAGE_SHIFT);
		c->changed = true;
		scan_flush(s, mm, c);
		return;
	}
	end = (start | (PTES_PER_TABLE - 1)) + 1;
	if (end > c->range_end)
		end = c->range_end;
	cost = (double)(end - start) * s->p.v[P_PTE_UPDATE_NS];
	s->cpu[cpu].acct.kernel_ns += (uint64_t)cost;
	for (vpn = start; vpn < end; vpn++) {
		uint8_t *pte = pte_of(mm, vpn);

		if (!(*pte & PTE_PRESENT))
			continue;
		*pte = PTE_PROTNONE | (*pte & PTE_DIRTY);
		flush_turn_note_change(s, mm->id, vpn);
		changed++;
		/* Active-set pages are touched again within milliseconds of
		 * the marking; the rest wait for the sampled access stream. */
		if (prompt > 0 && rng_unit(&s->rng) < prompt)
			sim_schedule_page(s, s->now + (uint64_t)cost +
					  (uint64_t)rng_exp(&s->rng, prompt_mean),
					  EV_PROMPT_ACCESS, owner_of(mm, vpn), vpn);
	}
	if (changed) {
		tlbp_gather_add(&c->gather, start << PAGE_SHIFT, end << PAGE_SHIFT);
		sim_blind_note(s); /* a cached translation now differs */
		c->changed = true;
	}
	s->st.hint_ptes_updated += changed;
	c->next_vpn = end;
	c->step = SCAN_STEP_DRAIN;
	if (end >= c->range_end) {
		scan_flush(s, mm, c);
		return;
	}
	sim_schedule(s, s->now + (uint64_t)cost + 1, EV_SCAN_TABLE, table_event_arg(mm, c));
}

/* A walk keeps no pass span ([0, 0)): its pages are all of older
 * passes, read only by the published split's metrics, which no scenario
 * with a walk reports. */
enum scan_origin sim_scan_origin(const struct mm *mm, uint64_t vpn)
{
	unsigned int i;

	if (vpn >= mm->pass_start_vpn && vpn < mm->scan_pass_end)
		return SCAN_ORIGIN_THIS_PASS;
	for (i = 0; i < 2; i++)
		if (vpn >= mm->earlier_pass[i].start && vpn < mm->earlier_pass[i].end)
			return SCAN_ORIGIN_RECENT;
	return SCAN_ORIGIN_OLDER;
}

/* Closes @mm's calls: gathers still open, and flushes in flight, whose
 * pending count drops. */
static void scan_close(struct sim *s, void *arg)
{
	struct mm *mm = arg;
	unsigned int i;

	for (i = 0; i < SCAN_CALLS_MAX; i++) {
		struct scan_call *c = &mm->call[i];

		if (!c->active)
			continue;
		if (c->step == SCAN_STEP_DONE)
			tlbp_mm_dec_flush_pending(&mm->flush); /* its flush was issued */
		else
			tlbp_gather_finish(&c->gather, &mm->cpus, NULL);
		c->active = false;
		s->thread[c->task].in_call = false;
	}
	mm->nr_calls = 0;
}

void sim_scan_end(struct sim *s)
{
	unsigned int i;

	/* Calls still under way at the end close now, on the CPU of the mm's
	 * first task, so nothing stays owed. */
	for (i = 0; i < s->nr_mms; i++)
		if (s->mm[i].nr_calls)
			sim_call_on(s, s->thread[s->mm[i].first_thread].cpu,
				    scan_close, &s->mm[i]);
}
