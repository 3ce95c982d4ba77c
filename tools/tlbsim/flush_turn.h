/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Flushes a vCPU takes on its turn (flush_turn.c): on an overcommitted
 * host, the x86 flush IPIs queued at a vCPU whose thread is off a core are
 * handled together when the host runs it, and all but the first find the
 * CPU caught up.
 */
#ifndef TLBSIM_FLUSH_TURN_H
#define TLBSIM_FLUSH_TURN_H

#include <stdbool.h>
#include <stdint.h>
#include "sim.h"

/* Changes the log keeps: a pass marks a 256 MiB chunk (65,536 PTEs)
 * between flushes at the most. */
#define FLUSH_TURN_LOG_SIZE (1u << 18)

/* Starts the turns' model if the run needs it (x86 IPIs, host_cpus > 0).
 * Returns -1 only when out of memory. */
int flush_turn_init(struct sim *s);
void flush_turn_free(struct sim *s);

/* Page @vpn of mm @mm_id lost its translation or had it changed (a
 * PROT_NONE mark, a migration or split entry, a zap): CPUs waiting for
 * their turn drop it if they cached it. Inline: the scanner calls it for
 * every PTE it marks, in every scenario. */
static inline void flush_turn_note_change(struct sim *s, uint32_t mm_id, uint64_t vpn)
{
	struct flush_turns *t = &s->turns;

	if (t->on)
		t->log[t->seq++ & (FLUSH_TURN_LOG_SIZE - 1)] = tlb_key(mm_id, vpn);
}

/* Whether @cpu's thread is off a core with a flush queued: a flush sent
 * to it now is handled with that one. */
bool flush_turn_pending(const struct sim *s, unsigned int cpu);

/* A flush sent to @cpu while flush_turn_pending(): it finds the CPU caught
 * up (the kernel's flush_tlb_func() returns early). The turn's one flush
 * is a full one (if the first was ranged, it becomes full now); this one
 * drops only the translations changed since @cpu last caught up. */
void flush_turn_absorb(struct sim *s, unsigned int cpu);

/* @cpu's TLB was emptied: no change logged so far can be in it. */
void flush_turn_flushed(struct sim *s, unsigned int cpu);

/* @cpu runs kernel code now (it sends a flush): whatever was queued at it
 * has been handled. */
void flush_turn_running(struct sim *s, unsigned int cpu);

/* A flush (@full or ranged, already carried out) reaches busy @cpu, off
 * a core with probability @p_off; if off, its turn falls uniformly within
 * @rotation ns. Returns the wait for it (0 when it runs now). */
double flush_turn_draw(struct sim *s, unsigned int cpu, double p_off, double rotation,
		       bool full);

/* The wait until @cpu's queued flushes are handled (0 if none). */
double flush_turn_left_ns(const struct sim *s, unsigned int cpu);

#endif
