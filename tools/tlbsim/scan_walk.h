/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * task_numa_work()'s walk over a process's VMAs (Linux 6.12,
 * kernel/sched/fair.c): which VMAs one scan call marks, and when a scan
 * sequence (numa_scan_seq) completes. Without a walk, an mm's every scan
 * is a pass over its one region and each pass is a sequence.
 */
#ifndef TLBSIM_SCAN_WALK_H
#define TLBSIM_SCAN_WALK_H

#include <stdbool.h>
#include <stdint.h>

struct sim;
struct mm;

/* Which of the mm's tasks take a hint fault on a VMA soon after the
 * scanner marks it, and so set their bit in its pids_active. */
enum vma_faulters {
	VMA_FAULTERS_NONE, /* nobody running (the sleeping main thread's) */
	VMA_FAULTERS_ONE,  /* one page every task reads: the first to touch it */
	VMA_FAULTERS_OWN,  /* one task: its stack */
	VMA_FAULTERS_PAGES, /* modelled pages: bits set by their hint faults */
};

/* Pages of the mm, [start, end); empty for a VMA whose pages are not
 * modelled but whose marking changes PTEs, so flushes. */
struct scan_range {
	uint64_t start, end;
};

struct walk_vma {
	enum vma_faulters faulters;
	unsigned int owner;      /* VMA_FAULTERS_OWN: index of the task in its mm */
	bool started;            /* numab_state allocated */
	uint64_t start_seq;      /* numab_state->start_scan_seq */
	uint64_t prev_seq;       /* numab_state->prev_scan_seq */
	uint64_t next_scan_ns;   /* numab_state->next_scan */
	uint64_t reset_ns;       /* numab_state->pids_active_reset */
	uint64_t pids[2];        /* numab_state->pids_active, one bit a task */
	struct scan_range pages; /* VMA_FAULTERS_PAGES: the mm's pages it maps */
	/* Not VMA_FAULTERS_PAGES: a page is mapped again since the last
	 * marking (a fault, or the process's start), so marking changes a
	 * PTE and the VMA's gather flushes. */
	bool remapped;
};

struct vma_walk {
	unsigned int cap;        /* VMAs it has room for */
	unsigned int nr;
	unsigned int off;        /* mm->numa_scan_offset, as a VMA index */
	bool mid_region;         /* the offset is inside VMA off, at mm->scan_next_vpn */
	uint64_t forced, pid_skips; /* calls that forced a VMA, VMAs skipped: for tests */
	/* What the last call marks: a range per VMA whose marking changes a
	 * PTE, each its own change_prot_numa() (mmu_gather and final flush);
	 * an empty range for a VMA without modelled pages. */
	unsigned int nr_ranges;
	struct scan_range *range;
	struct walk_vma *vma;
	/* Indices of the VMAs of modelled pages, in address order. */
	unsigned int nr_paged;
	unsigned int *paged;
};

/* An empty walk with room for @cap VMAs, in one allocation that free()
 * releases; NULL if @cap is 0 or memory ran out. */
struct vma_walk *scan_walk_new(unsigned int cap);

/* Appends a VMA (address order) with no modelled pages, faulted on by
 * @f (not VMA_FAULTERS_PAGES); -1 if the walk is full or @f is. */
int scan_walk_add(struct vma_walk *w, enum vma_faulters f, unsigned int owner);
/* Appends a VMA (address order) that maps the mm's pages [@start, @end);
 * its bits come from their hint faults. -1 if the walk is full, the range
 * is empty or it does not lie above the last such VMA's. */
int scan_walk_add_pages(struct vma_walk *w, uint64_t start, uint64_t end);

/*
 * One task_numa_work() call by task @task (its index in @mm) at the
 * current time: marks the VMAs it scans, completes sequences as the
 * kernel does (sim_scan_seq_done()), lists in w->range the modelled
 * pages this call marks, a range per VMA in the order it marks them
 * (a forced VMA last; a VMA the budget ended in is resumed from
 * mm->scan_next_vpn; empty for a VMA without modelled pages that has a
 * PTE to change), and returns how many modelled pages that is.
 */
uint64_t scan_walk_call(struct sim *s, struct mm *mm, unsigned int task, uint64_t budget);

/* A hint fault by task @task on page @vpn (vma_set_access_pid_bit()):
 * sets its bit in the VMA that maps the page. */
void scan_walk_hint_fault(struct vma_walk *w, unsigned int task, uint64_t vpn);

#endif
