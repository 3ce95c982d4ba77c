/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The event engine: a queue ordered by (virtual time, sequence number) and
 * a loop that pops the earliest event and calls the handler its kind
 * registered. It knows the model's clock, not the kernel paths.
 */
#ifndef TLBSIM_ENGINE_H
#define TLBSIM_ENGINE_H

#include <stdint.h>
#include "sim.h"

/* Makes @fn handle every event of @kind (one handler per kind). */
void sim_on_event(struct sim *s, enum event_kind kind,
		  void (*fn)(struct sim *s, const struct event *ev));
int sim_schedule(struct sim *s, uint64_t at, enum event_kind kind, uint32_t arg);
int sim_schedule_page(struct sim *s, uint64_t at, enum event_kind kind,
		      uint32_t arg, uint64_t vpn);
/* Runs until the queue is empty, then calls s->on_end and the tick hook
 * for the rest. */
void sim_run(struct sim *s);

#endif
