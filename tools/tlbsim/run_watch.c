// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "run_watch.h"

#define SHOW_AFTER_S 1.0 /* a shorter run's result is about to appear anyway */
#define LOG_EVERY_S 10.0 /* a log gets a line this often, a terminal every second */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void show(struct run_watch *w, const struct sim *s, uint64_t at, double now)
{
	double elapsed = now - w->t0, done = (double)at / (double)s->end_ns;
	/* Virtual time passes at a steady rate once the run is under way. */
	double left = done > 0 ? elapsed / done - elapsed : 0;

	if (s->end_ns >= UINT64_MAX / 4) /* runs until its work is done */
		fprintf(stderr, "%svirtual time %.1f s, %.0f s elapsed%s",
			w->tty ? "\r\033[K" : "tlbsim: ", (double)at / 1e9, elapsed,
			w->tty ? "" : "\n");
	else
		fprintf(stderr, "%svirtual time %.1f of %.1f s, %.0f s elapsed, about %.0f s left%s",
			w->tty ? "\r\033[K" : "tlbsim: ", (double)at / 1e9,
			(double)s->end_ns / 1e9, elapsed, left, w->tty ? "" : "\n");
	w->drawn = w->tty;
	w->shown = now;
}

static void on_tick(void *ctx, const struct sim *s, uint64_t at)
{
	struct run_watch *w = ctx;
	double now = now_s();

	if (w->sampling)
		timeline_sample(&w->tl, s, at);
	if (now - w->t0 >= SHOW_AFTER_S && now - w->shown >= (w->tty ? 1.0 : LOG_EVERY_S))
		show(w, s, at, now);
}

void run_watch_start(struct run_watch *w, bool timeline, uint64_t duration_ns)
{
	memset(w, 0, sizeof(*w));
	w->sampling = timeline;
	w->tl.every_ns = timeline_interval(duration_ns);
	w->tick = (struct sim_tick){ w->tl.every_ns, on_tick, w, timeline };
	w->t0 = now_s();
	w->shown = 0; /* the first line is due as soon as a second has passed */
	w->tty = isatty(STDERR_FILENO);
}

void run_watch_end(struct run_watch *w)
{
	if (w->drawn)
		fprintf(stderr, "\r\033[K");
	w->drawn = false;
}
