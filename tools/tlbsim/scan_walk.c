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
 * A call decides each VMA when it reaches it, so calls that overlap see
 * each other: a VMA is done for the sequence (prev_scan_seq) only once
 * its marking returns, and a call that meets one another call is still
 * marking marks it too, finds PROT_NONE the PTEs the other marked, is not
 * charged for a range where it changed none, and moves on; each call
 * that reaches the end completes a sequence. In the guest, a first call slowed by its flushes to seconds
 * is joined by the calls of the other tasks, which use up the two
 * sequences that mark every VMA (docs/kernel-port.md).
 *
 * Each VMA marked is a change_prot_numa() of its own, whose gather
 * flushes if it changed a PTE (or another gather is in flight): modelled
 * pages that were present, and for a VMA without them, a page of it mapped
 * again since its last marking.
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
	w = calloc(1, sizeof(*w) + cap * (sizeof(*w->vma) + sizeof(*w->paged)));
	if (!w)
		return NULL;
	w->cap = cap;
	w->vma = (struct walk_vma *)(w + 1);
	w->paged = (unsigned int *)(w->vma + cap);
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
	if (f != VMA_FAULTERS_NONE && f != VMA_FAULTERS_OWN)
		return -1; /* modelled pages need their range, read pages their readers */
	return append(w, f, owner) ? 0 : -1;
}

int scan_walk_add_read(struct vma_walk *w, const uint64_t *readers, unsigned int nr)
{
	struct walk_vma *v;
	unsigned int i;

	if (!nr || nr > WALK_READ_PAGES_MAX)
		return -1;
	for (i = 0; i < nr; i++)
		if (!readers[i])
			return -1;
	v = append(w, VMA_FAULTERS_READ, 0);
	if (!v)
		return -1;
	v->nr_read = nr;
	for (i = 0; i < nr; i++)
		v->readers[i] = readers[i];
	return 0;
}

int scan_walk_private(struct vma_walk *w, uint64_t vpn, unsigned int node)
{
	struct walk_vma *v = w->nr ? &w->vma[w->nr - 1] : NULL;
	unsigned int i, nr;

	if (!v || v->private || node > UINT8_MAX ||
	    (v->faulters != VMA_FAULTERS_OWN && v->faulters != VMA_FAULTERS_READ))
		return -1;
	nr = v->faulters == VMA_FAULTERS_OWN ? 1 : v->nr_read;
	v->private = true;
	for (i = 0; i < nr; i++)
		v->page[i] = (struct walk_page){ .vpn = vpn + i, .node = (uint8_t)node };
	return (int)nr;
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

/* One of @mask's bits, each as likely. */
static uint64_t any_bit(struct sim *s, uint64_t mask)
{
	uint64_t k = rng_below(&s->rng, (uint64_t)__builtin_popcountll(mask));

	while (k--)
		mask &= mask - 1;
	return mask & -mask;
}

/* Page @i of @v, marked now, takes its fault by the task with bit @bit
 * at that task's next access, if the page can migrate. */
static void fault_soon(struct sim *s, const struct mm *mm, struct walk_vma *v, unsigned int i,
		       uint64_t bit)
{
	if (!v->private)
		return;
	v->page[i].protnone = true;
	sim_private_fault_queue(&s->thread[mm->first_thread + (unsigned int)__builtin_ctzll(bit)],
				&v->page[i]);
}

/*
 * The bits of the tasks that fault on @v soon after it is marked. A page
 * its readers touch every sweep takes one hint fault, by whichever of them
 * touches it first, which maps it again for the rest: one bit a page, not
 * one a reader.
 */
static uint64_t faulter_bits(struct sim *s, const struct mm *mm, struct walk_vma *v)
{
	uint64_t bits = 0, bit;
	unsigned int i;

	switch (v->faulters) {
	case VMA_FAULTERS_READ:
		for (i = 0; i < v->nr_read; i++) {
			bit = any_bit(s, v->readers[i]);
			fault_soon(s, mm, v, i, bit);
			bits |= bit;
		}
		return bits;
	case VMA_FAULTERS_OWN:
		fault_soon(s, mm, v, 0, task_bit(v->owner));
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
	/* numa_scan_offset > vm_start: the offset (which every call moves)
	 * is inside the VMA or past it. */
	if (w->off > i || (w->off == i && w->mid_region))
		return true;
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

/* mm->numa_scan_offset = @vpn, inside VMA @i, or at its end: the next
 * VMA's start. */
static void set_offset(struct vma_walk *w, unsigned int i, uint64_t vpn)
{
	const struct walk_vma *v = &w->vma[i];

	w->mid_region = v->faulters == VMA_FAULTERS_PAGES && vpn < v->pages.end;
	w->off = w->mid_region ? i : i + 1;
	w->off_vpn = vpn;
}

/* retry_pids: the call starts (again) at the offset, after
 * reset_ptenuma_scan() if no VMA is left there. */
static void call_restart(struct sim *s, struct mm *mm, struct walk_call *c)
{
	struct vma_walk *w = mm->walk;

	if (w->off >= w->nr) {
		sim_scan_seq_done(s, mm);
		w->off = 0;
		w->mid_region = false;
	}
	c->i = w->off;
	c->from = w->mid_region ? w->off_vpn : 0;
}

void scan_walk_begin(struct sim *s, struct mm *mm, struct walk_call *c, unsigned int task,
		     uint64_t budget)
{
	/* virtpages: up to eight times the budget of virtual space. */
	*c = (struct walk_call){ .task = task, .pages = (int64_t)budget,
				 .virtpages = 8 * (int64_t)budget };
	call_restart(s, mm, c);
}

/* VMA c->i is marked to its end: not again this sequence; a forced VMA
 * ends the call, the offset past it. Returns true if the call is over. */
static bool vma_done(struct mm *mm, struct walk_call *c)
{
	struct vma_walk *w = mm->walk;

	w->vma[c->i].prev_seq = mm->scan_seq;
	c->in_vma = false;
	if (c->forced) {
		set_offset(w, c->i, w->vma[c->i].pages.end);
		return true;
	}
	c->i++;
	return false;
}

/* Whether VMA c->i is marked by @c now: task_numa_work()'s tests in its
 * order. Moves the offset past a VMA done this sequence. */
static bool vma_wanted(struct sim *s, struct mm *mm, struct walk_call *c, uint64_t delay)
{
	struct vma_walk *w = mm->walk;
	struct walk_vma *v = &w->vma[c->i];

	if (!v->started)
		vma_start(v, mm, s->now, delay);
	if (mm->scan_seq && s->now < v->next_scan_ns)
		return false;
	if (mm->scan_seq && s->now > v->reset_ns) {
		v->reset_ns += 4 * delay;
		v->pids[0] = v->pids[1];
		v->pids[1] = 0;
	}
	if (v->prev_seq == mm->scan_seq) {
		w->off = c->i + 1;
		w->mid_region = false;
		return false;
	}
	if (!c->forced && !accessed(w, v, c->i, mm, task_bit(c->task))) {
		c->skipped = true;
		w->pid_skips++;
		return false;
	}
	return true;
}

/* The range @c marks in VMA c->i, which it wants; false if the VMA has
 * no PTE to change. */
static bool vma_range(struct sim *s, struct mm *mm, struct walk_call *c)
{
	struct walk_vma *v = &mm->walk->vma[c->i];
	uint64_t bits, from, end;
	bool remapped;

	if (v->faulters == VMA_FAULTERS_PAGES) {
		/* change_prot_numa() from where the call is to where its
		 * budget ends, rounded up to a PMD (ALIGN(..., HPAGE_SIZE))
		 * and cut at the VMA's end. */
		from = c->from > v->pages.start ? c->from : v->pages.start;
		end = (from + (uint64_t)c->pages + PTES_PER_TABLE - 1) &
		      ~(uint64_t)(PTES_PER_TABLE - 1);
		c->range = (struct scan_range){ from, end < v->pages.end ? end : v->pages.end };
		return true;
	}
	/* change_pte_range(): a present PTE made PROT_NONE needs a flush
	 * (pte_needs_flush()), one already PROT_NONE is skipped. Its
	 * faulters map it again. */
	bits = faulter_bits(s, mm, v);
	remapped = v->remapped;
	v->remapped = bits != 0;
	v->pids[1] |= bits;
	c->range = (struct scan_range){ 0, 0 };
	return remapped;
}

bool scan_walk_next(struct sim *s, struct mm *mm, struct walk_call *c, struct scan_range *r)
{
	struct vma_walk *w = mm->walk;
	uint64_t delay = sim_jiffies_ns(s, s->p.v[P_SCAN_DELAY_MS] * 1e6);

	for (;;) {
		while (c->i < w->nr) {
			/* The do-while over a VMA's ranges tests it once. */
			if (!c->in_vma && !vma_wanted(s, mm, c, delay)) {
				c->i++;
				continue;
			}
			c->in_vma = true;
			if (vma_range(s, mm, c)) {
				*r = c->range;
				return true;
			}
			/* Nothing to change: marked at no cost. */
			if (vma_done(mm, c))
				return false;
		}
		if (c->forced || !c->skipped)
			break;
		/* Skipped some and reached the end: force the first VMA
		 * left from the offset, whatever its bits. */
		c->forced = true;
		w->forced++;
		call_restart(s, mm, c);
	}
	sim_scan_seq_done(s, mm); /* reset_ptenuma_scan() */
	w->off = 0;
	w->mid_region = false;
	return false;
}

bool scan_walk_marked(struct mm *mm, struct walk_call *c, bool changed)
{
	const struct walk_vma *v = &mm->walk->vma[c->i];
	int64_t len = (int64_t)(c->range.end - c->range.start);

	if (v->faulters != VMA_FAULTERS_PAGES)
		return vma_done(mm, c);
	/* The kernel charges the budget only for a range with a PTE
	 * changed, its virtual-space budget for every range. A VMA without
	 * modelled pages is not charged: its size is not modelled. */
	c->marked += (uint64_t)len;
	if (changed)
		c->pages -= len;
	c->virtpages -= len;
	c->from = c->range.end;
	if (c->pages <= 0 || c->virtpages <= 0) {
		/* goto out: the offset where the call stopped, and the VMA
		 * not done for the sequence even if marked to its end. */
		set_offset(mm->walk, c->i, c->range.end);
		return true;
	}
	if (c->range.end < v->pages.end)
		return false; /* the VMA's next range */
	return vma_done(mm, c);
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
