// SPDX-License-Identifier: GPL-2.0-only OR MIT
/* Which path handles which event, on which CPU: the one place that knows both. */
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

static void prefetch_access(const struct sim *s, const struct event *ev)
{
	sim_access_prefetch(s, ev->arg);
}

static void prefetch_prompt_access(const struct sim *s, const struct event *ev)
{
	sim_prompt_prefetch(s, ev->arg, ev->arg2);
}

/* Accesses, their faults and THP operations run on the thread's CPU. */
static unsigned int thread_cpu(const struct sim *s, const struct event *ev)
{
	return s->thread[ev->arg].cpu;
}

static void on_scan_start(struct sim *s, const struct event *ev)
{
	/* Not a start the scanner scheduled again since. */
	if (ev->arg2 == s->mm[ev->arg].start_gen)
		sim_scan_start(s, &s->mm[ev->arg]);
}

static unsigned int scan_start_cpu(const struct sim *s, const struct event *ev)
{
	return sim_scan_next_cpu(s, &s->mm[ev->arg]);
}

static void on_scan_table(struct sim *s, const struct event *ev)
{
	sim_scan_table(s, &s->mm[ev->arg / SCAN_CALLS_MAX], ev->arg % SCAN_CALLS_MAX);
}

static unsigned int scan_table_cpu(const struct sim *s, const struct event *ev)
{
	return s->mm[ev->arg / SCAN_CALLS_MAX].call[ev->arg % SCAN_CALLS_MAX].cpu;
}

static void on_thp_op(struct sim *s, const struct event *ev)
{
	sim_thp_op(s, ev->arg);
}

static void on_split_round(struct sim *s, const struct event *ev)
{
	sim_split_round(s, ev->arg);
}

static void on_demote(struct sim *s, const struct event *ev)
{
	(void)ev;
	sim_demote(s);
}

static void on_window(struct sim *s, const struct event *ev)
{
	(void)ev;
	sim_window_start(s);
}

/* The sysfs write that demotes, the workload's control: the boot CPU. */
static unsigned int boot_cpu(const struct sim *s, const struct event *ev)
{
	(void)s;
	(void)ev;
	return 0;
}

static const struct sim_handler handlers[NR_EVENT_KINDS] = {
	[EV_ACCESS] = { on_access, thread_cpu },
	[EV_PROMPT_ACCESS] = { on_prompt_access, thread_cpu },
	[EV_SCAN_START] = { on_scan_start, scan_start_cpu },
	[EV_SCAN_TABLE] = { on_scan_table, scan_table_cpu },
	[EV_THP_OP] = { on_thp_op, thread_cpu },
	[EV_DEMOTE] = { on_demote, boot_cpu },
	[EV_WINDOW] = { on_window, boot_cpu },
	[EV_SPLIT_ROUND] = { on_split_round, thread_cpu },
};

void sim_paths_register(struct sim *s)
{
	unsigned int k;

	for (k = 0; k < NR_EVENT_KINDS; k++)
		sim_on_event(s, (enum event_kind)k, &handlers[k]);
	sim_prefetch_on(s, EV_ACCESS, prefetch_access);
	sim_prefetch_on(s, EV_PROMPT_ACCESS, prefetch_prompt_access);
	s->on_end = sim_scan_end;
}
