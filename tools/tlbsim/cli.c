// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * tlbsim: list | run | compare | sweep | merge | fit. Every error is one line on stderr
 * and exit status 2 (usage) or 1 (a run failed).
 */
#include <errno.h>
#include <limits.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "diag.h"
#include "fit.h"
#include "list.h"
#include "merge.h"
#include "options.h"
#include "outpath.h"
#include "run_watch.h"
#include "runner.h"
#include "suggest.h"
#include "sweep.h"
#include "timeline_svg.h"

/* Default policy set for compare/sweep: every non-test policy. */
static void default_policies(struct options *o)
{
	unsigned int k;

	if (o->nr_policies)
		return;
	for (k = 0; k < o->sc->nr_policies && o->nr_policies < MAX_POLICIES; k++)
		if (!o->sc->policies[k].unsafe)
			o->policies[o->nr_policies++] = o->sc->policies[k].name;
}

/* run --timeline: the picture's file, titled with what ran. */
static int write_timeline(const struct options *o, const struct run_record *r,
			  const struct timeline *tl)
{
	char title[160], machine[256];

	if (tl->oom)
		return fail("--timeline: out of memory for the samples");
	snprintf(title, sizeof(title), "tlbsim %s, policy %s, seed %" PRIu64, o->sc->name,
		 r->policy, r->seed);
	o->sc->describe(&r->params, machine, sizeof(machine));
	return timeline_write_svg(o->timeline, tl, title, machine);
}

static int cmd_run(struct options *o)
{
	struct run_task t = { .policy = o->policy ? o->policy : o->sc->default_policy,
			      .seed = o->seed, .params = o->params };
	struct plan pl = { 0 };
	struct records rs = { 0 };
	struct run_watch w;
	struct params eff;
	int ret;

	scenario_params(o->sc, &o->params, &eff);
	run_watch_start(&w, o->timeline != NULL,
			scenario_reads(o->sc, P_DURATION_S) ?
			(uint64_t)(eff.v[P_DURATION_S] * 1e9) : 0);
	snprintf(t.label, sizeof(t.label), "%s", t.policy);
	if (plan_add(&pl, &t)) {
		timeline_free(&w.tl);
		return fail("out of memory");
	}
	/* The hook lives in this frame: set only while the run executes. */
	o->tick = &w.tick;
	ret = runner_execute(o, &pl, &rs);
	o->tick = NULL;
	run_watch_end(&w);
	if (!ret) {
		report_run(stdout, &rs.r[0]);
		ret = write_outputs(o, &rs);
	}
	if (!ret && o->timeline)
		ret = write_timeline(o, &rs.r[0], &w.tl);
	timeline_free(&w.tl);
	plan_free(&pl);
	records_free(&rs);
	return ret;
}

/* The terminal's width when stdout is one, else 100 columns (a mail, a
 * commit message, a pasted log). */
static int output_width(void)
{
	struct winsize ws;

	if (isatty(STDOUT_FILENO) && !ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col > 0)
		return ws.ws_col;
	return 100;
}

/* Every policy for every pair, pair by pair: the records' order. */
static int plan_compare(const struct options *o, struct plan *pl)
{
	unsigned int pair, k;

	for (pair = 0; pair < o->pairs; pair++) {
		for (k = 0; k < o->nr_policies; k++) {
			struct run_task t = { .policy = o->policies[k], .seed = o->seed + pair,
					      .pair = pair, .params = o->params };

			snprintf(t.label, sizeof(t.label), "%s, seed %" PRIu64, t.policy, t.seed);
			if (plan_add(pl, &t))
				return fail("out of memory");
		}
	}
	return 0;
}

static int cmd_compare(struct options *o)
{
	struct records rs = { 0 };
	struct plan pl = { 0 };
	int ret;

	default_policies(o);
	if (o->fit)
		return fit_compare_main(o);
	if (o->params.v[P_SCALE] < 1)
		warn_once(o, WARN_SCALE, "scale=%g is a reduced model, not comparable with "
			  "docs/results.md's figures",
			  o->params.v[P_SCALE]);
	ret = plan_compare(o, &pl);
	if (!ret)
		ret = runner_execute(o, &pl, &rs);
	if (!ret) {
		printf("%s: %u pair%s, seed %" PRIu64 "%s\n", o->sc->name, o->pairs,
		       o->pairs > 1 ? "s (mean [min..max])" : "", o->seed,
		       o->pairs > 1 ? "+" : "");
		report_machine(stdout, o->sc, &rs.r[0].params);
		report_compare(stdout, &rs, o->policies, o->nr_policies, output_width());
		ret = write_outputs(o, &rs);
	}
	plan_free(&pl);
	records_free(&rs);
	return ret;
}

static int cmd_sweep(struct options *o)
{
	struct sweep_spec sw;

	if (sweep_parse(o->sc, o->vary, &o->params, &sw))
		return 2;
	default_policies(o);
	if (o->emit_jobs)
		return sweep_emit_jobs(o, &sw);
	return sweep_run(o, &sw);
}

/* This program's absolute path when it was started by a path, else its
 * name (found through PATH again): jobs files run from any directory. */
static const char *self_path(const char *argv0, char *buf, size_t len)
{
	char abs[PATH_MAX];

	if (!strchr(argv0, '/') || !realpath(argv0, abs))
		return "tlbsim";
	snprintf(buf, len, "%s", abs);
	return buf;
}

int main(int argc, char **argv)
{
	const char *inputs[MAX_INPUTS];
	char self[PATH_MAX];
	struct options o = { .inputs = inputs };
	struct baseline base = { 0 };
	unsigned int warned = 0;
	char hint[96];
	int cmd, ret;

	o.base = &base;
	o.warned = &warned;
	o.self = self_path(argv[0], self, sizeof(self));
	if (argc < 2)
		return fail("missing command: list, run, compare, sweep, merge or fit (see --help)");
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout, NR_COMMANDS);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		version();
		return 0;
	}
	cmd = command_lookup(argv[1]);
	if (cmd < 0)
		return fail("unknown command '%s'%s (list, run, compare, sweep, merge, fit)", argv[1],
			    suggest_hint(argv[1], command_names, NR_COMMANDS, hint, sizeof(hint)));
	if (cmd == CMD_LIST) {
		if (argc > 2 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))) {
			usage(stdout, CMD_LIST);
			return 0;
		}
		return cmd_list(argc, argv);
	}
	o.cmd = (enum command)cmd;
	ret = options_parse(argc, argv, o.cmd, &o);
	if (ret)
		return ret < 0 ? 0 : ret; /* --help or --version, or an error */
	if (o.no_blind)
		base.blind = BLIND_NEVER;
	switch (o.cmd) {
	case CMD_RUN:
		return cmd_run(&o);
	case CMD_COMPARE:
		return cmd_compare(&o);
	case CMD_SWEEP:
		return cmd_sweep(&o);
	case CMD_FIT:
		return fit_main(&o);
	default:
		return merge_main(&o);
	}
}
