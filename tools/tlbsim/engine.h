/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The event engine: a queue ordered by (virtual time, sequence number) and
 * a loop that pops the earliest event and calls the handler its kind
 * registered. It knows the model's clock, not the kernel paths.
 *
 * It also owns the emulator's smp_processor_id(), sim_this_cpu(): each
 * kind's handler says which CPU an event runs on, and the engine sets it
 * before the handler runs, so no path assigns it. The flush back-ends read
 * it for the objects shared by CPUs (an mm's flush state, gathers); a
 * CPU's own batch carries its CPU in its ops ctx instead (sim.h).
 */
#ifndef TLBSIM_ENGINE_H
#define TLBSIM_ENGINE_H

#include <stdint.h>
#include "sim.h"

/* Makes @h handle every event of @kind (one handler per kind). */
void sim_on_event(struct sim *s, enum event_kind kind, const struct sim_handler *h);
/* Makes @fn start loading what an event of @kind reads, while the event
 * before it runs (optional: kinds whose data is cached need none). */
void sim_prefetch_on(struct sim *s, enum event_kind kind, sim_prefetch_fn *fn);
/* Runs @fn(@s, @arg) on @cpu, as smp_call_function_single() would: for
 * work outside any event (the end hook). */
void sim_call_on(struct sim *s, unsigned int cpu,
		 void (*fn)(struct sim *s, void *arg), void *arg);
int sim_schedule(struct sim *s, uint64_t at, enum event_kind kind, uint32_t arg);
int sim_schedule_page(struct sim *s, uint64_t at, enum event_kind kind,
		      uint32_t arg, uint64_t vpn);
/* Runs until the queue is empty, then calls s->on_end and the tick hook
 * for the rest. */
void sim_run(struct sim *s);

#endif
