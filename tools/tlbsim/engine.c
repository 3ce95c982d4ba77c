// SPDX-License-Identifier: GPL-2.0-only OR MIT
/* The event loop: pop the earliest event, advance virtual time, dispatch. */
#include "sim.h"

int sim_schedule_page(struct sim *s, uint64_t at, enum event_kind kind,
		      uint32_t arg, uint64_t vpn)
{
	if (at > s->end_ns)
		return 0;
	return heap_push(&s->heap, at, kind, arg, vpn);
}

int sim_schedule(struct sim *s, uint64_t at, enum event_kind kind, uint32_t arg)
{
	return sim_schedule_page(s, at, kind, arg, 0);
}

/* The tick hook for every boundary up to @until. */
static void tick_until(struct sim *s, uint64_t until)
{
	while (s->tick_next <= until) {
		s->tick->fn(s->tick->ctx, s, s->tick_next);
		s->tick_next += s->tick->every_ns;
	}
}

void sim_run(struct sim *s)
{
	struct event ev;

	if (s->tick)
		s->tick_next = s->tick->every_ns;
	while (heap_pop(&s->heap, &ev)) {
		if (s->tick && ev.time >= s->tick_next)
			tick_until(s, ev.time);
		s->now = ev.time;
		s->st.sim_events++;
		switch (ev.kind) {
		case EV_ACCESS:
			sim_access(s, ev.arg);
			break;
		case EV_PROMPT_ACCESS:
			sim_prompt_access(s, ev.arg, ev.arg2);
			break;
		case EV_SCAN_START:
			sim_scan_start(s, &s->mm[ev.arg]);
			break;
		case EV_SCAN_TABLE:
			sim_scan_table(s, &s->mm[ev.arg]);
			break;
		case EV_THP_OP:
			sim_thp_op(s, ev.arg);
			break;
		case EV_DEMOTE:
			sim_demote(s);
			break;
		default:
			break;
		}
	}
	/* Gathers still open at the end close now, so nothing stays owed. */
	for (unsigned int i = 0; i < s->nr_mms; i++) {
		if (s->mm[i].in_pass && s->mm[i].scan_step != SCAN_STEP_DONE) {
			s->cur_cpu = s->thread[s->mm[i].first_thread].cpu;
			tlbp_gather_finish(&s->mm[i].gather, &s->mm[i].cpus, NULL);
			s->mm[i].in_pass = false;
		}
	}
	/* Up to the last event: scenarios that run until their work is done
	 * have no real end time. */
	if (s->tick) {
		tick_until(s, s->now);
		if (s->tick_next - s->tick->every_ns < s->now) /* the last, partial interval */
			s->tick->fn(s->tick->ctx, s, s->now);
	}
	s->now = s->end_ns;
}
