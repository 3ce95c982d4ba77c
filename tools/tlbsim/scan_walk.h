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

#define WALK_MAX_VMAS 80

/* Which of the mm's tasks take a hint fault on a VMA soon after the
 * scanner marks it, and so set their bit in its pids_active. */
enum vma_faulters {
	VMA_FAULTERS_NONE, /* nobody running (the sleeping main thread's) */
	VMA_FAULTERS_ONE,  /* one page every task reads: the first to touch it */
	VMA_FAULTERS_OWN,  /* one task: its stack */
	VMA_FAULTERS_REGION, /* the modelled region: bits set by its hint faults */
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
};

struct vma_walk {
	unsigned int nr;
	unsigned int off;        /* mm->numa_scan_offset, as a VMA index */
	bool mid_region;         /* the offset is inside the region */
	unsigned int region;     /* index of the region's VMA */
	uint64_t forced, pid_skips; /* calls that forced a VMA, VMAs skipped: for tests */
	struct walk_vma vma[WALK_MAX_VMAS];
};

/* Appends a VMA (address order); -1 if the walk is full. */
int scan_walk_add(struct vma_walk *w, enum vma_faulters f, unsigned int owner);

/*
 * One task_numa_work() call by task @task (its index in @mm) at the
 * current time: marks the VMAs it scans, completes sequences as the
 * kernel does (sim_scan_seq_done()), and returns how many of the
 * region's pages from mm->scan_next_vpn this call marks (0: none).
 */
uint64_t scan_walk_call(struct sim *s, struct mm *mm, unsigned int task, uint64_t budget);

/* A hint fault by task @task in the region (vma_set_access_pid_bit()). */
void scan_walk_region_fault(struct vma_walk *w, unsigned int task);

#endif
