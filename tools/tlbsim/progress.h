/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Progress of a command's runs on stderr, once it has taken more than a
 * second: elapsed time and an estimate of what remains, redrawn in place
 * on a terminal, one line per finished run otherwise (a log stays
 * readable). Never on stdout, which carries the results.
 */
#ifndef TLBSIM_PROGRESS_H
#define TLBSIM_PROGRESS_H

#include <stdbool.h>

struct progress {
	double t0;
	unsigned int total, done;
	bool tty;
	bool drawn; /* a line is on the terminal and must be erased */
};

void progress_start(struct progress *pg, unsigned int total);
/* One run finished; @label names it (policy, swept value). */
void progress_step(struct progress *pg, const char *label);
/* Erases the in-place line, if any. */
void progress_end(struct progress *pg);

#endif
