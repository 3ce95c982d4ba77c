// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include "progress.h"

/* Below this, progress is noise: the result is about to appear anyway. */
#define PROGRESS_AFTER_S 1.0

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void progress_start(struct progress *pg, unsigned int total)
{
	pg->t0 = now_s();
	pg->total = total;
	pg->done = 0;
	pg->tty = isatty(STDERR_FILENO);
	pg->drawn = false;
}

void progress_step(struct progress *pg, const char *label)
{
	double elapsed = now_s() - pg->t0;
	/* Runs of one command are alike: the mean so far predicts the rest. */
	double left = pg->done + 1 < pg->total ?
		      elapsed / (pg->done + 1) * (pg->total - pg->done - 1) : 0;

	pg->done++;
	if (elapsed < PROGRESS_AFTER_S)
		return;
	fprintf(stderr, "%s%u/%u runs done (%s), %.0f s elapsed, about %.0f s left%s",
		pg->tty ? "\r\033[K" : "tlbsim: ", pg->done, pg->total, label, elapsed,
		left, pg->tty ? "" : "\n");
	pg->drawn = pg->tty;
}

void progress_end(struct progress *pg)
{
	if (pg->drawn)
		fprintf(stderr, "\r\033[K");
	pg->drawn = false;
}
