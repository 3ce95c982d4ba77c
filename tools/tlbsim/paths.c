// SPDX-License-Identifier: GPL-2.0-only OR MIT
/* Which path handles which event: the one place that knows both. */
#include "engine.h"
#include "heap.h"
#include "paths.h"

static void on_access(struct sim *s, const struct event *ev)
{
	sim_access(s, ev->arg);
}

static void on_prompt_access(struct sim *s, const struct event *ev)
{
	sim_prompt_access(s, ev->arg, ev->arg2);
}

static void on_scan_start(struct sim *s, const struct event *ev)
{
	sim_scan_start(s, &s->mm[ev->arg]);
}

static void on_scan_table(struct sim *s, const struct event *ev)
{
	sim_scan_table(s, &s->mm[ev->arg]);
}

static void on_thp_op(struct sim *s, const struct event *ev)
{
	sim_thp_op(s, ev->arg);
}

static void on_demote(struct sim *s, const struct event *ev)
{
	(void)ev;
	sim_demote(s);
}

void sim_paths_register(struct sim *s)
{
	sim_on_event(s, EV_ACCESS, on_access);
	sim_on_event(s, EV_PROMPT_ACCESS, on_prompt_access);
	sim_on_event(s, EV_SCAN_START, on_scan_start);
	sim_on_event(s, EV_SCAN_TABLE, on_scan_table);
	sim_on_event(s, EV_THP_OP, on_thp_op);
	sim_on_event(s, EV_DEMOTE, on_demote);
	s->on_end = sim_scan_end;
}
