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
	VMA_FAULTERS_NONE, /* nobody in the window: the main thread's
			    * (its faults are not modelled), a stable
			    * worker's stack */
	VMA_FAULTERS_READ, /* pages tasks read every sweep: the first of a
			    * page's readers to touch it after a marking */
	VMA_FAULTERS_OWN,  /* one task: its stack */
	VMA_FAULTERS_PAGES, /* modelled pages: bits set by their hint faults */
};

/* Pages of the mm, [start, end); empty for a VMA whose pages are not
 * modelled but whose marking changes PTEs, so flushes. */
struct scan_range {
	uint64_t start, end;
};

/* Pages of a VMA_FAULTERS_READ VMA with readers, at most */
#define WALK_READ_PAGES_MAX 4

/*
 * A page of a stack the process maps alone (folio_mapcount() 1, order 0):
 * a worker's, or main()'s frame that its workers read. Its hint faults
 * can migrate it like any other page (path_private_fault.c).
 */
struct walk_page {
	uint64_t vpn;        /* above the region's: its TLB key and flush range */
	uint8_t node;        /* where it is */
	uint8_t last_node;   /* its last hint fault's node plus one, 0: none */
	uint8_t last_task;   /* and its task's index in the mm plus one */
	uint16_t last_cpu;   /* and its CPU */
	bool protnone;       /* marked, not faulted on since */
	bool queued;         /* its fault waits for the faulter's next access */
};

struct walk_vma {
	enum vma_faulters faulters;
	unsigned int owner;      /* VMA_FAULTERS_OWN: index of the task in its mm */
	/* VMA_FAULTERS_READ: each page's readers, one bit a task */
	unsigned int nr_read;
	uint64_t readers[WALK_READ_PAGES_MAX];
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
	/* Its pages can migrate (scan_walk_private()): page[0] for
	 * VMA_FAULTERS_OWN, page[i] for reader page i otherwise. */
	bool private;
	struct walk_page page[WALK_READ_PAGES_MAX];
};

struct vma_walk {
	unsigned int cap;        /* VMAs it has room for */
	unsigned int nr;
	unsigned int off;        /* mm->numa_scan_offset, as a VMA index */
	bool mid_region;         /* the offset is inside VMA off, at off_vpn */
	uint64_t off_vpn;
	uint64_t forced, pid_skips; /* calls that forced a VMA, VMAs skipped: for tests */
	struct walk_vma *vma;
	/* Indices of the VMAs of modelled pages, in address order. */
	unsigned int nr_paged;
	unsigned int *paged;
};

/*
 * One task_numa_work() call's place in the walk. Calls by different tasks
 * can be under way at once (each holds mmap_lock for read): they share the
 * offset and the VMAs' state, and each has its own place and budget.
 */
struct walk_call {
	unsigned int task;        /* the calling task's index in its mm */
	unsigned int i;           /* the VMA it is at */
	uint64_t from;            /* its next range in VMA i starts no lower */
	int64_t pages, virtpages; /* what is left of its two budgets */
	bool skipped, forced;     /* vma_pids_skipped, vma_pids_forced */
	bool in_vma;              /* inside VMA i: its next range, untested */
	struct scan_range range;  /* the range it marks now */
	uint64_t marked;          /* modelled pages its ranges covered */
};

/* An empty walk with room for @cap VMAs, in one allocation that free()
 * releases; NULL if @cap is 0 or memory ran out. */
struct vma_walk *scan_walk_new(unsigned int cap);

/* Appends a VMA (address order) with no modelled pages, faulted on by
 * nobody (VMA_FAULTERS_NONE) or by task @owner (VMA_FAULTERS_OWN); -1 if
 * the walk is full or @f is another kind. */
int scan_walk_add(struct vma_walk *w, enum vma_faulters f, unsigned int owner);
/* Appends a VMA (address order) with @nr pages that tasks read every
 * sweep, page i by the tasks in @readers[i] (one bit a task's index in
 * its mm); -1 if the walk is full, @nr is 0 or above
 * WALK_READ_PAGES_MAX, or a page has no reader. */
int scan_walk_add_read(struct vma_walk *w, const uint64_t *readers, unsigned int nr);
/* The last VMA appended (VMA_FAULTERS_OWN or VMA_FAULTERS_READ) maps
 * pages of its own, the process alone, on node @node at first: their
 * hint faults (one per page per marking, by the task that faults it) can
 * migrate them. They take the page numbers from @vpn on, above the mm's
 * modelled pages. Returns how many it has, or -1 if the walk is empty or
 * its last VMA is of another kind or private already. */
int scan_walk_private(struct vma_walk *w, uint64_t vpn, unsigned int node);
/* Appends a VMA (address order) that maps the mm's pages [@start, @end);
 * its bits come from their hint faults. -1 if the walk is full, the range
 * is empty or it does not lie above the last such VMA's. */
int scan_walk_add_pages(struct vma_walk *w, uint64_t start, uint64_t end);

/*
 * A task_numa_work() call of @mm's task @task (its index in @mm) starts
 * now with a budget of @budget pages: at the offset, or after a new
 * sequence if no VMA is left there.
 */
void scan_walk_begin(struct sim *s, struct mm *mm, struct walk_call *c, unsigned int task,
		     uint64_t budget);
/*
 * Walks @c on to the next range it marks (one change_prot_numa(), with
 * its own gather and flush), decided now against the VMAs' state as other
 * calls left it, and stores it in *@r and c->range: modelled pages, or an
 * empty range for a VMA without them that has a PTE to change. Returns
 * false when the call is over instead; the offset or the sequence moved
 * on as the kernel's does.
 */
bool scan_walk_next(struct sim *s, struct mm *mm, struct walk_call *c, struct scan_range *r);
/*
 * @c marked c->range, and its flush is done; @changed: a PTE changed (only
 * such a range is charged to the budget). A VMA marked to its end is done
 * for this sequence (prev_scan_seq). Returns true if the call is over.
 */
bool scan_walk_marked(struct mm *mm, struct walk_call *c, bool changed);

/* A hint fault by task @task on page @vpn (vma_set_access_pid_bit()):
 * sets its bit in the VMA that maps the page. */
void scan_walk_hint_fault(struct vma_walk *w, unsigned int task, uint64_t vpn);

#endif
