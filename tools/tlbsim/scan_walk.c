// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * task_numa_work()'s walk over a process's VMAs, as Linux 6.12 reads
 * (kernel/sched/fair.c, task_numa_work() and vma_is_accessed()).
 *
 * A scan call starts at mm->numa_scan_offset and marks every VMA not yet
 * marked in this sequence that the calling task "accessed": its bit is in
 * the VMA's pids_active (set by the task's hint faults there, the two
 * words rotated every four scan delays), or the VMA is in its first two
 * sequences, or it went unmarked for more sequences than the process has
 * threads. A VMA already marked this sequence moves the offset past it.
 * If the call skipped any VMA it then marks the first unmarked VMA from
 * the offset whatever its bits, and returns with the sequence still open;
 * a call that reaches the end with nothing skipped completes the sequence.
 * So how many calls a sequence takes depends on which task calls and
 * which VMAs it faulted on lately: the testbed guest measured 2 to 4
 * (docs/kernel-port.md, "The scanner's walk over the VMAs").
 *
 * Each VMA marked is a change_prot_numa() of its own, whose gather
 * flushes if it changed a PTE: always for modelled pages, and for a VMA
 * without them when a page of it was mapped again since its last
 * marking.
 *
 * Delays are in jiffies: a guest that loses timer ticks stretches them in
 * its own wall time (jiffies_rate).
 */
#include <stdlib.h>
#include "scan_walk.h"
#include "paths.h"
#include "rng.h"
#include "sim.h"

struct vma_walk *scan_walk_new(unsigned int cap)
{
	struct vma_walk *w;

	if (!cap)
		return NULL;
	w = calloc(1, sizeof(*w) + cap * (sizeof(*w->vma) + sizeof(*w->range) +
					  sizeof(*w->paged)));
	if (!w)
		return NULL;
	w->cap = cap;
	w->vma = (struct walk_vma *)(w + 1);
	w->range = (struct scan_range *)(w->vma + cap);
	w->paged = (unsigned int *)(w->range + cap);
	return w;
}

static struct walk_vma *append(struct vma_walk *w, enum vma_faulters f, unsigned int owner)
{
	struct walk_vma *v;

	if (w->nr >= w->cap)
		return NULL;
	v = &w->vma[w->nr++];
	/* Every VMA was touched when the process started. */
	*v = (struct walk_vma){ .faulters = f, .owner = owner, .remapped = true };
	return v;
}

int scan_walk_add(struct vma_walk *w, enum vma_faulters f, unsigned int owner)
{
	if (f == VMA_FAULTERS_PAGES)
		return -1; /* a VMA of modelled pages needs its range */
	return append(w, f, owner) ? 0 : -1;
}

int scan_walk_add_pages(struct vma_walk *w, uint64_t start, uint64_t end)
{
	const struct walk_vma *last = w->nr_paged ? &w->vma[w->paged[w->nr_paged - 1]] : NULL;
	struct walk_vma *v;

	if (start >= end || (last && start < last->pages.end))
		return -1;
	v = append(w, VMA_FAULTERS_PAGES, 0);
	if (!v)
		return -1;
	v->pages = (struct scan_range){ start, end };
	w->paged[w->nr_paged++] = w->nr - 1;
	return 0;
}

static uint64_t task_bit(unsigned int task)
{
	return 1ULL << (task % 64);
}

/*
 * The bits of the tasks that fault on @v soon after it is marked. A page
 * every task reads takes one hint fault, by whichever task touches it
 * first, which maps it again for the rest: one bit, not all of them.
 */
static uint64_t faulter_bits(struct sim *s, const struct walk_vma *v, unsigned int nr_tasks)
{
	switch (v->faulters) {
	case VMA_FAULTERS_ONE:
		return task_bit((unsigned int)rng_below(&s->rng, nr_tasks));
	case VMA_FAULTERS_OWN:
		return task_bit(v->owner);
	default:
		return 0; /* modelled pages' bits come from their hint faults */
	}
}

/* vma_is_accessed() for the task with bit @bit. */
static bool accessed(const struct vma_walk *w, const struct walk_vma *v, unsigned int i,
		     const struct mm *mm, uint64_t bit)
{
	/* get_nr_threads(): the workers and the process's main thread */
	int64_t nr_threads = (int64_t)mm->nr_threads + 1;

	if (mm->scan_seq - v->start_seq < 2)
		return true;
	if ((v->pids[0] | v->pids[1]) & bit)
		return true;
	if (w->mid_region && i == w->off)
		return true; /* numa_scan_offset > vm_start: finish a started VMA */
	return (int64_t)mm->scan_seq > (int64_t)v->prev_seq + nr_threads;
}

/* The numab_state a VMA gets when a walk first meets it. */
static void vma_start(struct walk_vma *v, const struct mm *mm, uint64_t now, uint64_t delay)
{
	v->started = true;
	v->start_seq = mm->scan_seq;
	v->next_scan_ns = now + delay;
	v->reset_ns = v->next_scan_ns + 4 * delay; /* VMA_PID_RESET_PERIOD */
	v->prev_seq = mm->scan_seq - 1;
}

uint64_t scan_walk_call(struct sim *s, struct mm *mm, unsigned int task, uint64_t budget)
{
	struct vma_walk *w = mm->walk;
	uint64_t delay = sim_jiffies_ns(s, s->p.v[P_SCAN_DELAY_MS] * 1e6);
	uint64_t bit = task_bit(task), marked = 0;
	bool skipped = false, forced = false;
	unsigned int i;

	w->nr_ranges = 0;
retry:
	if (w->off >= w->nr) { /* no VMA left at the offset: a new sequence */
		sim_scan_seq_done(s, mm);
		w->off = 0;
	}
	for (i = w->off; i < w->nr; i++) {
		struct walk_vma *v = &w->vma[i];

		if (!v->started)
			vma_start(v, mm, s->now, delay);
		if (mm->scan_seq && s->now < v->next_scan_ns)
			continue;
		if (mm->scan_seq && s->now > v->reset_ns) {
			v->reset_ns += 4 * delay;
			v->pids[0] = v->pids[1];
			v->pids[1] = 0;
		}
		if (v->prev_seq == mm->scan_seq) {
			w->off = i + 1;
			continue;
		}
		if (!forced && !accessed(w, v, i, mm, bit)) {
			skipped = true;
			w->pid_skips++;
			continue;
		}
		if (v->faulters == VMA_FAULTERS_PAGES) {
			/* change_prot_numa() from the offset to where the
			 * budget ends, rounded up to a PMD (ALIGN(...,
			 * HPAGE_SIZE)) and cut at the VMA's end. The kernel
			 * charges the budget only for ranges with a PTE
			 * changed; here every range is charged. */
			uint64_t from = w->mid_region && i == w->off ? mm->scan_next_vpn : v->pages.start;
			uint64_t end = (from + budget + PTES_PER_TABLE - 1) & ~(uint64_t)(PTES_PER_TABLE - 1);

			if (end > v->pages.end)
				end = v->pages.end;
			w->range[w->nr_ranges++] = (struct scan_range){ from, end };
			marked += end - from;
			budget = end - from < budget ? budget - (end - from) : 0;
			w->mid_region = false;
			if (end < v->pages.end) {
				/* The budget ends inside the VMA: the offset
				 * stays there and this call is over. */
				w->off = i;
				w->mid_region = true;
				return marked;
			}
			if (!budget) {
				/* ... or at its end: the call is over past it,
				 * with prev_scan_seq not set (goto out). */
				w->off = i + 1;
				return marked;
			}
		} else {
			uint64_t bits = faulter_bits(s, v, mm->nr_threads);

			/* change_pte_range(): a present PTE made PROT_NONE
			 * needs a flush (pte_needs_flush()), one already
			 * PROT_NONE is skipped. Its faulters map it again. */
			if (v->remapped)
				w->range[w->nr_ranges++] = (struct scan_range){ 0, 0 };
			v->remapped = bits != 0;
			v->pids[1] |= bits;
		}
		v->prev_seq = mm->scan_seq;
		if (forced)
			break;
	}
	if (i == w->nr && !forced && skipped) {
		forced = true;
		w->forced++;
		goto retry;
	}
	if (i < w->nr) {
		w->off = i + 1;
	} else {
		sim_scan_seq_done(s, mm); /* reset_ptenuma_scan() */
		w->off = 0;
	}
	return marked;
}

void scan_walk_hint_fault(struct vma_walk *w, unsigned int task, uint64_t vpn)
{
	unsigned int lo = 0, hi = w->nr_paged;
	struct walk_vma *v;

	/* The last VMA of modelled pages that starts at or below @vpn. */
	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (w->vma[w->paged[mid]].pages.start <= vpn)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return;
	v = &w->vma[w->paged[lo - 1]];
	if (vpn < v->pages.end && v->started) /* vma->numab_state */
		v->pids[1] |= task_bit(task);
}
