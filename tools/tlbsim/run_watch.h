/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * What tlbsim run watches while its one model runs, through the engine's
 * tick hook: the timeline samples (--timeline), and progress on stderr
 * once the run has taken a second (virtual time done, wall time, the rest).
 */
#ifndef TLBSIM_RUN_WATCH_H
#define TLBSIM_RUN_WATCH_H

#include <stdbool.h>
#include "sim.h"
#include "timeline.h"

struct run_watch {
	struct sim_tick tick;
	struct timeline tl;
	bool sampling;        /* --timeline given */
	double t0, shown;     /* wall clock: start, last progress line */
	bool tty, drawn;
};

/* Sets @w up for a run of @duration_ns virtual time (0: until done). */
void run_watch_start(struct run_watch *w, bool timeline, uint64_t duration_ns);
/* Erases the progress line; the timeline stays in w->tl. */
void run_watch_end(struct run_watch *w);

#endif
