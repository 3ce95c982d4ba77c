// SPDX-License-Identifier: GPL-2.0-only OR MIT
/* The event loop: pop the earliest event, advance virtual time, dispatch. */
#include "engine.h"

void sim_on_event(struct sim *s, enum event_kind kind, const struct sim_handler *h)
{
	s->on_event[kind] = *h;
}

void sim_prefetch_on(struct sim *s, enum event_kind kind, sim_prefetch_fn *fn)
{
	s->prefetch[kind] = fn;
}

void sim_call_on(struct sim *s, unsigned int cpu,
		 void (*fn)(struct sim *s, void *arg), void *arg)
{
	unsigned int was = s->this_cpu;

	s->this_cpu = cpu;
	fn(s, arg);
	s->this_cpu = was;
}

/* While @ev runs, the next event's data loads (the queue's head now is
 * the next event unless @ev schedules one before it). */
static void prefetch_next(const struct sim *s)
{
	const struct event *next = s->heap.ev;

	if (s->heap.len && next->kind < NR_EVENT_KINDS && s->prefetch[next->kind])
		s->prefetch[next->kind](s, next);
}

static void dispatch(struct sim *s, const struct event *ev)
{
	const struct sim_handler *h;

	if (ev->kind >= NR_EVENT_KINDS || !s->on_event[ev->kind].run)
		return;
	h = &s->on_event[ev->kind];
	s->this_cpu = h->cpu(s, ev);
	h->run(s, ev);
}

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
		prefetch_next(s);
		dispatch(s, &ev);
	}
	if (s->on_end)
		s->on_end(s);
	/* Every CPU's share of the machine-wide flushes, for the accounts. */
	sim_cpus_sync(s);
	/* Up to the last event: scenarios that run until their work is done
	 * have no real end time. */
	if (s->tick) {
		tick_until(s, s->now);
		if (s->tick_next - s->tick->every_ns < s->now) /* the last, partial interval */
			s->tick->fn(s->tick->ctx, s, s->now);
	}
	s->now = s->end_ns;
}
