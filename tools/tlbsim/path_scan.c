// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The NUMA scanner (task_numa_work / change_prot_numa): every scan period,
 * mark scan_size worth of an mm's PTEs PROT_NONE, one PTE table per event so
 * that faults and migrations interleave with a pass, inside one gather whose
 * flush comes at the end of the pass; with a walk over VMAs (scan_walk.c),
 * one gather per VMA, as change_prot_numa() is called VMA by VMA.
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

/*
 * With scan_overhead_ratio: task_tick_numa() of each task fires every
 * period of its runtime after its node_stamp (busy threads: runtime is
 * virtual time), and the first to fire once numa_next_scan has passed
 * runs the pass; that task's stamp then moves on by the ratio times the
 * pass (task_numa_work()'s cap). Returns when the next pass starts, and
 * makes its task mm->scan_thread.
 */
static uint64_t scan_next_by_runtime(struct sim *s, struct mm *mm, uint64_t next_scan,
				     uint64_t took)
{
	uint64_t best = UINT64_MAX;
	unsigned int i;

	s->thread[mm->scan_thread].scan_stamp_ns += SCAN_WINNER_STAMP_NS +
		(uint64_t)(s->p.v[P_SCAN_OVERHEAD_RATIO] * (double)took);
	for (i = mm->first_thread; i < mm->first_thread + mm->nr_threads; i++) {
		uint64_t period = s->thread[i].scan_rate.period_ns ? s->thread[i].scan_rate.period_ns : 1;
		uint64_t fire = s->thread[i].scan_stamp_ns + period;

		/* Ticks before numa_next_scan only move the stamp on. */
		if (fire < next_scan)
			fire += (next_scan - fire + period - 1) / period * period;
		if (fire < best) {
			best = fire;
			mm->scan_thread = i;
		}
	}
	s->thread[mm->scan_thread].scan_stamp_ns = best;
	return best;
}

/*
 * The call that started at @started is over, @took of it the scanning
 * task's runtime: numa_next_scan was set one period (in jiffies) of the
 * calling task after the call started, and with tasks' ticks modelled the
 * next call comes at the first tick after it.
 */
static void schedule_next_call(struct sim *s, struct mm *mm, uint64_t started, uint64_t took)
{
	uint64_t next;

	if (ticks_modelled(s))
		mm->rate.period_ns = period_of(s, mm, mm->scan_thread);
	next = started + sim_jiffies_ns(s, (double)mm->rate.period_ns);
	if (next <= s->now)
		next = s->now + 1;
	if (ticks_modelled(s))
		next = scan_next_by_runtime(s, mm, next, took);
	sim_schedule(s, next, EV_SCAN_START, mm->id - 1);
}

/* A pass of a walk marks the call's ranges one after the other, from
 * the first: it spans the lowest modelled page to the highest. */
static void walk_pass_begin(struct mm *mm)
{
	const struct vma_walk *w = mm->walk;
	unsigned int i;

	mm->scan_range = 0;
	mm->scan_next_vpn = w->range[0].start;
	mm->scan_vma_end = w->range[0].end;
	mm->pass_start_vpn = UINT64_MAX;
	mm->scan_pass_end = 0;
	for (i = 0; i < w->nr_ranges; i++) {
		if (w->range[i].start == w->range[i].end)
			continue; /* no modelled page */
		if (w->range[i].start < mm->pass_start_vpn)
			mm->pass_start_vpn = w->range[i].start;
		if (w->range[i].end > mm->scan_pass_end)
			mm->scan_pass_end = w->range[i].end;
	}
	if (mm->pass_start_vpn > mm->scan_pass_end)
		mm->pass_start_vpn = mm->scan_pass_end;
}

void sim_scan_start(struct sim *s, struct mm *mm)
{
	uint64_t pages = (uint64_t)(s->p.v[P_SCAN_SIZE_MB] * 1048576.0) >> PAGE_SHIFT;
	double writer_hz = s->p.v[P_MMAP_WRITER_HZ];

	if (!pages)
		pages = 1;
	s->st.scan_calls++;
	if (mm->walk) {
		mm->pass_pages = scan_walk_call(s, mm, scan_next_task(s, mm) - mm->first_thread,
						pages);
		if (!mm->walk->nr_ranges) {
			/* No PTE to change this call: nothing to gather. */
			mm->scan_cpu_rr++;
			schedule_next_call(s, mm, s->now, 0);
			return;
		}
	}
	/* Before the first pass both are [0, 0): empty. */
	mm->earlier_pass[1] = mm->earlier_pass[0];
	mm->earlier_pass[0].start = mm->pass_start_vpn;
	mm->earlier_pass[0].end = mm->scan_pass_end;
	if (mm->walk) {
		walk_pass_begin(mm);
	} else {
		if (mm->scan_next_vpn >= mm->nr_pages)
			mm->scan_next_vpn = 0;
		mm->pass_start_vpn = mm->scan_next_vpn;
		mm->scan_pass_end = mm->scan_next_vpn + pages;
		if (mm->scan_pass_end > mm->nr_pages)
			mm->scan_pass_end = mm->nr_pages;
		mm->scan_vma_end = mm->scan_pass_end;
	}
	mm->pass_started_ns = s->now;
	mm->scan_cpu = sim_this_cpu(s);
	mm->scan_cpu_rr++;
	mm->in_pass = true;
	/* Writers arrive as a Poisson stream; only the first in a pass matters. */
	mm->writer_at = writer_hz > 0 ? s->now + (uint64_t)rng_exp(&s->rng, 1e9 / writer_hz) :
			UINT64_MAX;
	tlbp_gather_begin(&mm->gather, &mm->flush, s->batch_cfg.range_ceiling,
			  PAGE_SHIFT);
	sim_schedule(s, s->now, EV_SCAN_TABLE, mm->id - 1);
}

/* Every reader of @mm that queued behind the writer waits for the pass. */
static void convoy(struct sim *s, struct mm *mm)
{
	double spin_cap = s->p.v[P_CONVOY_SPIN_US] * 1e3;
	uint64_t stall, spin;
	unsigned int i;

	if (mm->writer_at >= s->now)
		return;
	stall = s->now - mm->writer_at + (uint64_t)(s->p.v[P_MMAP_WRITE_HOLD_MS] * 1e6);
	spin = stall < spin_cap ? stall : (uint64_t)spin_cap;
	s->st.convoy_passes++;
	for (i = mm->first_thread; i < mm->first_thread + mm->nr_threads; i++) {
		struct acct *a = &s->cpu[s->thread[i].cpu].acct;

		if (s->thread[i].cpu == mm->scan_cpu)
			continue; /* the pass's own task holds the lock */
		a->spin_ns += spin;
		a->sleep_ns += stall - spin;
		s->st.convoy_ns += stall;
	}
}

/*
 * update_task_scan_period(), once per completed sequence over the address
 * space as in task_numa_placement(): mostly private or mostly local faults
 * lengthen the period by a slot per ratio point above the threshold,
 * otherwise it shortens; clamped to the tunables' bounds.
 */
static void update_scan_period(struct sim *s, struct scan_rate *r)
{
	uint64_t lr = r->faults_local + r->faults_remote;
	uint64_t ps = r->faults_private + r->faults_shared;
	double period = (double)r->period_ns, slot = ceil(period / PERIOD_SLOTS);
	double lo = s->p.v[P_SCAN_PERIOD_MIN_MS] * 1e6, hi = s->p.v[P_SCAN_PERIOD_MAX_MS] * 1e6;
	int lr_ratio, ps_ratio, diff;

	if (!lr || !ps) {
		period *= 2; /* no faults at all: back off, as the kernel does */
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
	r->faults_local = r->faults_remote = 0;
	r->faults_private = r->faults_shared = 0;
	s->st.scan_period_updates++;
}

/*
 * Each task updates its period at its first hint fault of a new sequence
 * (task_numa_placement()); here every task of @mm does at the sequence's
 * start, from the faults it took in the last one.
 */
void sim_scan_seq_done(struct sim *s, struct mm *mm)
{
	unsigned int i;

	mm->scan_seq++;
	s->st.scan_sequences++;
	if (!ticks_modelled(s)) {
		update_scan_period(s, &mm->rate);
		return;
	}
	for (i = mm->first_thread; i < mm->first_thread + mm->nr_threads; i++)
		update_scan_period(s, &s->thread[i].scan_rate);
}

/* The final flush of the pass (tlb_finish_mmu) was acknowledged. */
static void scan_finish(struct sim *s, struct mm *mm)
{
	uint64_t took = s->now - mm->pass_started_ns;

	mm->in_pass = false;
	convoy(s, mm);
	if (!mm->walk || mm->pass_pages) { /* a call that marked the region */
		s->st.scan_passes++;
		s->st.scan_pass_ns_total += took;
	}
	if (mm->scan_next_vpn >= mm->nr_pages) {
		mm->scan_next_vpn = 0;
		if (!mm->walk) /* the walk completes sequences itself */
			sim_scan_seq_done(s, mm);
	}
	schedule_next_call(s, mm, mm->pass_started_ns, took);
}

/* Issues the final flush; the pass ends when it is acknowledged. */
static void scan_flush(struct sim *s, struct mm *mm, unsigned int cpu)
{
	enum tlbp_flush_reason why;
	uint64_t before = cpu_path_ns(&s->cpu[cpu]);

	tlbp_gather_finish(&mm->gather, &mm->cpus, &why);
	if (why != TLBP_FLUSH_NOT_REQUIRED)
		s->st.scanner_flush_mm_calls++;
	/* tlb_finish_mmu() drops tlb_flush_pending after the flush returns:
	 * the finish issued it at once, so hold the count up until the wait
	 * it costs is over (SCAN_STEP_DONE). */
	tlbp_mm_inc_flush_pending(&mm->flush);
	mm->scan_step = SCAN_STEP_DONE;
	sim_schedule(s, s->now + cpu_path_ns(&s->cpu[cpu]) - before + 1,
		     EV_SCAN_TABLE, mm->id - 1);
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
 * One step of a pass, by mm->scan_step: take the next table's PTL and
 * drain what migrations deferred (the step lasts as long as the drain's
 * wait); mark the table's PTEs (as long as the updates take); after the
 * last table, the final flush; then the end of the pass.
 */
void sim_scan_table(struct sim *s, struct mm *mm)
{
	unsigned int cpu = sim_this_cpu(s); /* the pass's: mm->scan_cpu */
	uint64_t start = mm->scan_next_vpn, end, vpn, changed = 0, took;
	double prompt = s->p.v[P_FAULT_PROMPT_FRACTION];
	double prompt_mean = s->p.v[P_FAULT_PROMPT_MS] * 1e6;
	double cost;

	if (mm->scan_step == SCAN_STEP_DONE) {
		tlbp_mm_dec_flush_pending(&mm->flush);
		mm->scan_step = SCAN_STEP_DRAIN;
		if (!mm->walk || ++mm->scan_range >= mm->walk->nr_ranges) {
			scan_finish(s, mm);
			return;
		}
		/* The call's next VMA: change_prot_numa() gathers and
		 * flushes each VMA on its own. */
		start = mm->scan_next_vpn = mm->walk->range[mm->scan_range].start;
		mm->scan_vma_end = mm->walk->range[mm->scan_range].end;
		tlbp_gather_begin(&mm->gather, &mm->flush, s->batch_cfg.range_ceiling,
				  PAGE_SHIFT);
	}
	if (mm->scan_step == SCAN_STEP_DRAIN) {
		/* Under this table's PTL, before touching its PTEs. */
		took = cpu_path_ns(&s->cpu[cpu]);
		tlbp_mm_flush_batched_pending(&mm->flush, NULL);
		took = cpu_path_ns(&s->cpu[cpu]) - took;
		mm->scan_step = SCAN_STEP_MARK;
		if (took) {
			sim_schedule(s, s->now + took, EV_SCAN_TABLE, mm->id - 1);
			return;
		}
	}
	if (start == mm->scan_vma_end) {
		/* A VMA whose pages are not modelled: one of its PTEs
		 * changes, a page past the modelled ones stands for it. */
		tlbp_gather_add(&mm->gather, mm->nr_pages << PAGE_SHIFT,
				(mm->nr_pages + 1) << PAGE_SHIFT);
		scan_flush(s, mm, cpu);
		return;
	}
	end = (start | (PTES_PER_TABLE - 1)) + 1;
	if (end > mm->scan_vma_end)
		end = mm->scan_vma_end;
	cost = (double)(end - start) * s->p.v[P_PTE_UPDATE_NS];
	s->cpu[cpu].acct.kernel_ns += (uint64_t)cost;
	for (vpn = start; vpn < end; vpn++) {
		uint8_t *pte = pte_of(mm, vpn);

		if (!(*pte & PTE_PRESENT))
			continue;
		*pte = PTE_PROTNONE | (*pte & PTE_DIRTY);
		changed++;
		/* Active-set pages are touched again within milliseconds of
		 * the marking; the rest wait for the sampled access stream. */
		if (prompt > 0 && rng_unit(&s->rng) < prompt)
			sim_schedule_page(s, s->now + (uint64_t)cost +
					  (uint64_t)rng_exp(&s->rng, prompt_mean),
					  EV_PROMPT_ACCESS, owner_of(mm, vpn), vpn);
	}
	if (changed) {
		tlbp_gather_add(&mm->gather, start << PAGE_SHIFT, end << PAGE_SHIFT);
		sim_blind_note(s); /* a cached translation now differs */
	}
	s->st.hint_ptes_updated += changed;
	mm->scan_next_vpn = end;
	mm->scan_step = SCAN_STEP_DRAIN;
	if (end >= mm->scan_vma_end) {
		scan_flush(s, mm, cpu);
		return;
	}
	sim_schedule(s, s->now + (uint64_t)cost + 1, EV_SCAN_TABLE, mm->id - 1);
}

/* With a walk, "this pass" spans the lowest to the highest page the call
 * marks, skipped VMAs between them included: an approximation, read only
 * by the published split's metrics, which no scenario with a walk
 * reports. */
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

static void scan_close(struct sim *s, void *arg)
{
	struct mm *mm = arg;

	(void)s;
	if (mm->scan_step == SCAN_STEP_DONE)
		tlbp_mm_dec_flush_pending(&mm->flush); /* its flush was issued */
	else
		tlbp_gather_finish(&mm->gather, &mm->cpus, NULL);
	mm->in_pass = false;
}

void sim_scan_end(struct sim *s)
{
	unsigned int i;

	/* Gathers still open at the end close now, on the CPU of the mm's
	 * first task, so nothing stays owed; one whose flush is in flight
	 * drops the pending count it holds. */
	for (i = 0; i < s->nr_mms; i++)
		if (s->mm[i].in_pass)
			sim_call_on(s, s->thread[s->mm[i].first_thread].cpu,
				    scan_close, &s->mm[i]);
}
