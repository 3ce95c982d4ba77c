/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* run --timeline: a timeline as a hand-written SVG (no gnuplot needed). */
#ifndef TLBSIM_TIMELINE_SVG_H
#define TLBSIM_TIMELINE_SVG_H

struct timeline;

/*
 * Three panels over virtual time: TLB interrupts per second; migrations
 * per second, and those that found tlb_flush_pending raised; bands where a
 * scan pass runs and where the flag is raised. @title and @subtitle are
 * plain text (escaped here). 0, or 2 after a one-line error.
 */
int timeline_write_svg(const char *path, const struct timeline *tl, const char *title,
		       const char *subtitle);

#endif
