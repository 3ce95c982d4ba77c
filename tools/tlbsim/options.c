// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "diag.h"
#include "itemlist.h"
#include "options.h"
#include "outpath.h"
#include "suggest.h"

const char *const command_names[NR_COMMANDS] = { "list", "run", "compare", "sweep", "merge",
						 "fit" };

static const char *const command_usage[NR_COMMANDS] = {
	"tlbsim list [SCENARIO | metrics]",
	"tlbsim run SCENARIO [--policy P] [--set key=value ...] [--seed N]\n"
	"                  [--json FILE.json] [--csv FILE.csv] [--timeline FILE.svg] [--no-timing]\n"
	"                  [--no-blind]",
	"tlbsim compare SCENARIO [--policies a,b,...] [--pairs N] [--set key=value ...]\n"
	"                  [--seed N] [--jobs N] [--fit FIT.json] [--json FILE.json]\n"
	"                  [--csv FILE.csv] [--no-timing] [--no-blind]",
	"tlbsim sweep SCENARIO --vary key=v1,v2,... [--policies a,b,...] [--pairs N]\n"
	"                  [--metric NAME[,NAME...]] [--plot FILE.png|FILE.svg[,...]]\n"
	"                  [--set key=value ...] [--seed N] [--jobs N] [--emit-jobs FILE]\n"
	"                  [--json FILE.json] [--csv FILE.csv] [--no-timing]",
	"tlbsim merge RESULT.json... [--vary key] [--metric NAME[,NAME...]]\n"
	"                  [--plot FILE.png|FILE.svg[,...]] [--json FILE.json] [--csv FILE.csv]",
	"tlbsim fit SCENARIO --free NAME=LO:HI[,...] --targets FILE.json [--policy P]\n"
	"                  [--out FIT.json] [--set key=value ...] [--seed N] [--seeds N]\n"
	"                  [--jobs N] [--max-evals N] [--tolerance X] [--profile-points N]\n"
	"                  [--samples N]",
};

#define RUN (1u << CMD_RUN)
#define COMPARE (1u << CMD_COMPARE)
#define SWEEP (1u << CMD_SWEEP)
#define MERGE (1u << CMD_MERGE)
#define FIT (1u << CMD_FIT)

enum option_id {
	OPT_SET, OPT_POLICY, OPT_POLICIES, OPT_SEED, OPT_PAIRS, OPT_JOBS, OPT_JSON,
	OPT_CSV, OPT_PLOT, OPT_METRIC, OPT_VARY, OPT_EMIT_JOBS, OPT_TIMELINE,
	OPT_NO_TIMING, OPT_NO_BLIND, OPT_FREE, OPT_TARGETS, OPT_OUT, OPT_FIT, OPT_SEEDS, OPT_MAX_EVALS,
	OPT_TOLERANCE, OPT_PROFILE_POINTS, OPT_SAMPLES, OPT_HELP, OPT_VERSION, NR_OPTIONS
};

/* Which commands take an option: any other command refuses it, so that
 * nothing a user types is silently ignored. */
static const struct option_def {
	const char *name;
	unsigned int commands;
	bool has_value;
} option_defs[NR_OPTIONS] = {
	[OPT_SET] = { "--set", RUN | COMPARE | SWEEP | FIT, true },
	[OPT_POLICY] = { "--policy", RUN | FIT, true },
	[OPT_POLICIES] = { "--policies", COMPARE | SWEEP, true },
	[OPT_SEED] = { "--seed", RUN | COMPARE | SWEEP | FIT, true },
	[OPT_PAIRS] = { "--pairs", COMPARE | SWEEP, true },
	[OPT_JOBS] = { "--jobs", COMPARE | SWEEP | FIT, true },
	[OPT_JSON] = { "--json", RUN | COMPARE | SWEEP | MERGE, true },
	[OPT_CSV] = { "--csv", RUN | COMPARE | SWEEP | MERGE, true },
	[OPT_PLOT] = { "--plot", SWEEP | MERGE, true },
	[OPT_METRIC] = { "--metric", SWEEP | MERGE, true },
	[OPT_VARY] = { "--vary", SWEEP | MERGE, true },
	[OPT_EMIT_JOBS] = { "--emit-jobs", SWEEP, true },
	[OPT_TIMELINE] = { "--timeline", RUN, true },
	[OPT_NO_TIMING] = { "--no-timing", RUN | COMPARE | SWEEP, false },
	[OPT_NO_BLIND] = { "--no-blind", RUN | COMPARE, false },
	[OPT_FREE] = { "--free", FIT, true },
	[OPT_TARGETS] = { "--targets", FIT, true },
	[OPT_OUT] = { "--out", FIT, true },
	[OPT_FIT] = { "--fit", COMPARE, true },
	[OPT_SEEDS] = { "--seeds", FIT, true },
	[OPT_MAX_EVALS] = { "--max-evals", FIT, true },
	[OPT_TOLERANCE] = { "--tolerance", FIT, true },
	[OPT_PROFILE_POINTS] = { "--profile-points", FIT, true },
	[OPT_SAMPLES] = { "--samples", FIT, true },
	[OPT_HELP] = { "--help", ~0u, false },
	[OPT_VERSION] = { "--version", ~0u, false },
};

int command_lookup(const char *name)
{
	int i;

	for (i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(name, command_names[i]))
			return i;
	return -1;
}

void usage(FILE *f, enum command cmd)
{
	unsigned int i;

	for (i = 0; i < NR_COMMANDS; i++)
		if (cmd == NR_COMMANDS || cmd == i)
			fprintf(f, "%s %s\n", cmd != NR_COMMANDS || i == 0 ? "usage:" : "      ",
				command_usage[i]);
	fprintf(f, "See tlbsim(1); 'tlbsim list' names the scenarios, policies and parameters.\n");
}

void version(void)
{
	printf("tlbsim (tlbpolicy) %s\n", PACKAGE_VERSION);
}

static int option_lookup(const char *a)
{
	int i;

	if (!strcmp(a, "-h"))
		return OPT_HELP;
	for (i = 0; i < NR_OPTIONS; i++)
		if (!strcmp(a, option_defs[i].name))
			return i;
	return -1;
}

static int unknown_option(const char *a, enum command cmd)
{
	const char *names[NR_OPTIONS];
	char hint[96];
	int i;

	for (i = 0; i < NR_OPTIONS; i++)
		names[i] = option_defs[i].name;
	return fail("unknown option '%s' for %s%s", a, command_names[cmd],
		    suggest_hint(a, names, NR_OPTIONS, hint, sizeof(hint)));
}

/* "--plot does not apply to compare (sweep and merge take it)". */
static int misplaced_option(int id, enum command cmd)
{
	char list[96] = "";
	unsigned int c, n = 0;

	for (c = 0; c < NR_COMMANDS; c++)
		if (option_defs[id].commands & (1u << c))
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 n++ ? ", " : "", command_names[c]);
	return fail("%s does not apply to %s (%s take%s it)", option_defs[id].name,
		    command_names[cmd], list, n == 1 ? "s" : "");
}

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;

	if (!s || !*s || *s == '-')
		return -1;
	errno = 0;
	*out = strtoull(s, &end, 10);
	return errno || *end ? -1 : 0;
}

/* "unknown policy 'x' for SC (did you mean ...?); one of: a, b, c". */
static int unknown_policy(const struct scenario *sc, const char *name)
{
	const char *names[32] = { 0 };
	char hint[96], list[512] = "";
	unsigned int k;

	for (k = 0; k < sc->nr_policies && k < 32; k++) {
		names[k] = sc->policies[k].name;
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
			 k ? ", " : "", names[k]);
	}
	return fail("unknown policy '%s' for %s%s; one of: %s", name, sc->name,
		    suggest_hint(name, names, 32, hint, sizeof(hint)), list);
}

static int parse_policies(struct options *o, char *list)
{
	unsigned int k;

	o->nr_policies = itemlist_split("--policies", list, o->policies, MAX_POLICIES);
	if (!o->nr_policies)
		return 2;
	for (k = 0; k < o->nr_policies; k++)
		if (!scenario_policy(o->sc, o->policies[k]))
			return unknown_policy(o->sc, o->policies[k]);
	return 0;
}

int options_resolve_metrics(struct options *o)
{
	unsigned int k;
	int id;

	if (!o->nr_metrics) {
		o->metrics[0] = o->sc->metrics[0];
		return 0;
	}
	for (k = 0; k < o->nr_metrics; k++) {
		id = metric_lookup(o->metric_names[k]);
		if (id < 0)
			return fail("unknown metric '%s' (see 'tlbsim list metrics')",
				    o->metric_names[k]);
		if (!scenario_reports(o->sc, (enum metric_id)id))
			return fail("%s does not report %s (see 'tlbsim list %s')", o->sc->name,
				    o->metric_names[k], o->sc->name);
		o->metrics[k] = id;
	}
	return 0;
}

static const char *const json_ext[] = { ".json", NULL };
static const char *const csv_ext[] = { ".csv", NULL };
static const char *const plot_ext[] = { ".png", ".svg", NULL };
static const char *const svg_ext[] = { ".svg", NULL };

/* Every file the command will write, checked before anything runs. */
static int check_outputs(const struct options *o)
{
	unsigned int k;

	if (o->json && outpath_check("--json", o->json, json_ext))
		return 2;
	if (o->csv && outpath_check("--csv", o->csv, csv_ext))
		return 2;
	if (o->timeline && outpath_check("--timeline", o->timeline, svg_ext))
		return 2;
	if (o->fit_out && outpath_check("--out", o->fit_out, json_ext))
		return 2;
	for (k = 0; k < o->nr_plots; k++)
		if (outpath_check("--plot", o->plots[k], plot_ext))
			return 2;
	return 0;
}

/* An unsigned option in [@lo, @hi]; 0 or 2. */
static int parse_bounded(const char *opt, const char *val, uint64_t lo, uint64_t hi,
			 unsigned int *out)
{
	uint64_t v;

	if (parse_u64(val, &v) || v < lo || v > hi)
		return fail("bad %s '%s': %" PRIu64 "..%" PRIu64, opt, val, lo, hi);
	*out = (unsigned int)v;
	return 0;
}

/* fit's options, and compare's --fit; 0 or 2. */
static int apply_fit_option(struct options *o, int id, const char *val)
{
	char *end;

	if (!val) /* every one of them takes a value */
		return 2;
	switch (id) {
	case OPT_FREE:
		o->fit_free = val;
		return 0;
	case OPT_TARGETS:
		o->fit_targets = val;
		return 0;
	case OPT_OUT:
		o->fit_out = val;
		return 0;
	case OPT_FIT:
		o->fit = val;
		return 0;
	case OPT_SEEDS:
		return parse_bounded("--seeds", val, 1, 100, &o->fit_seeds);
	case OPT_MAX_EVALS:
		return parse_bounded("--max-evals", val, 1, 100000, &o->fit_max_evals);
	case OPT_PROFILE_POINTS:
		return parse_bounded("--profile-points", val, 2, 1000, &o->fit_profile_points);
	case OPT_SAMPLES:
		return parse_bounded("--samples", val, 0, 100000, &o->fit_samples);
	case OPT_TOLERANCE:
		o->fit_tolerance = strtod(val, &end);
		if (*end || end == val || !(o->fit_tolerance > 0 && o->fit_tolerance <= 10))
			return fail("bad --tolerance '%s': a number above 0, at most 10", val);
		return 0;
	}
	return 2;
}

/* One option with its value (NULL for a flag); 0 or 2. */
static int apply_option(struct options *o, int id, char *val)
{
	char err[1024];
	uint64_t v;

	switch (id) {
	case OPT_SET:
		if (params_set(&o->params, val, err, sizeof(err)) ||
		    scenario_check_reads(o->sc, val, err, sizeof(err)))
			return fail("%s", err);
		return 0;
	case OPT_POLICY:
		if (!scenario_policy(o->sc, val))
			return unknown_policy(o->sc, val);
		o->policy = val;
		return 0;
	case OPT_POLICIES:
		return parse_policies(o, val);
	case OPT_SEED:
		if (parse_u64(val, &o->seed))
			return fail("bad seed '%s': a non-negative integer", val);
		return 0;
	case OPT_PAIRS:
		if (parse_u64(val, &v) || v < 1 || v > 100)
			return fail("bad --pairs '%s': 1..100", val);
		o->pairs = (unsigned int)v;
		return 0;
	case OPT_JOBS:
		if (parse_u64(val, &v) || v < 1 || v > 1024)
			return fail("bad --jobs '%s': 1..1024", val);
		o->jobs = (unsigned int)v;
		return 0;
	case OPT_JSON:
		o->json = val;
		return 0;
	case OPT_CSV:
		o->csv = val;
		return 0;
	case OPT_PLOT:
		o->nr_plots = itemlist_split("--plot", val, o->plots, MAX_PLOTS);
		return o->nr_plots ? 0 : 2;
	case OPT_METRIC:
		o->nr_metrics = itemlist_split("--metric", val, o->metric_names, MAX_METRICS);
		return o->nr_metrics ? 0 : 2;
	case OPT_VARY:
		o->vary = val;
		return 0;
	case OPT_EMIT_JOBS:
		o->emit_jobs = val;
		return 0;
	case OPT_TIMELINE:
		o->timeline = val;
		return 0;
	case OPT_NO_TIMING:
		o->no_timing = true;
		return 0;
	case OPT_NO_BLIND:
		o->no_blind = true;
		return 0;
	default:
		return apply_fit_option(o, id, val);
	}
}

/* The scenario named by argv[2]; merge reads it from its files later. */
static int parse_subject(char *arg, enum command cmd, struct options *o)
{
	const char *names[16] = { 0 };
	char hint[96];
	unsigned int k;

	if (cmd == CMD_MERGE) {
		o->inputs[o->nr_inputs++] = arg;
		return 0;
	}
	o->sc = scenario_find(arg);
	if (o->sc)
		return 0;
	for (k = 0; k < nr_scenarios && k < 16; k++)
		names[k] = scenarios[k]->name;
	return fail("unknown scenario '%s'%s (see 'tlbsim list')", arg,
		    suggest_hint(arg, names, 16, hint, sizeof(hint)));
}

int options_parse(int argc, char **argv, enum command cmd, struct options *o)
{
	int i, id, ret;

	params_defaults(&o->params);
	o->seed = 1;
	o->pairs = 1;
	/* fit's defaults: docs/tlbsim.md says why each. */
	o->fit_seeds = 2;
	o->fit_max_evals = 40;
	o->fit_profile_points = 7;
	o->fit_samples = 8;
	o->fit_tolerance = 0.1;
	for (i = 2; i < argc; i++) {
		char *a = argv[i], *val = NULL;

		if (strncmp(a, "-", 1) != 0) {
			if (i == 2 || (cmd == CMD_MERGE && o->nr_inputs < MAX_INPUTS)) {
				if (parse_subject(a, cmd, o))
					return 2;
				continue;
			}
			if (strchr(a, '='))
				return fail("unexpected argument '%s' (did you mean --set %s?)", a, a);
			return fail("unexpected argument '%s'", a);
		}
		id = option_lookup(a);
		if (id == OPT_HELP) {
			usage(stdout, cmd);
			return -1;
		}
		if (id == OPT_VERSION) {
			version();
			return -1;
		}
		if (id < 0)
			return unknown_option(a, cmd);
		if (!(option_defs[id].commands & (1u << cmd)))
			return misplaced_option(id, cmd);
		if (!o->sc && cmd != CMD_MERGE)
			return fail("%s needs a scenario before its options (see 'tlbsim list')",
				    command_names[cmd]);
		if (option_defs[id].has_value) {
			val = i + 1 < argc ? argv[++i] : NULL;
			if (!val || !strncmp(val, "--", 2))
				return fail("%s needs a value", a);
		}
		ret = apply_option(o, id, val);
		if (ret)
			return ret;
	}
	if (cmd == CMD_MERGE && !o->nr_inputs)
		return fail("merge needs result files (from tlbsim run ... --json)");
	if (cmd != CMD_MERGE && !o->sc)
		return fail("%s needs a scenario (see 'tlbsim list')", command_names[cmd]);
	if (cmd == CMD_SWEEP && !o->vary)
		return fail("sweep needs --vary key=v1,v2,...");
	if (cmd == CMD_FIT && (!o->fit_free || !o->fit_targets))
		return fail("fit needs --free NAME=LO:HI[,...] and --targets FILE.json");
	if (o->sc && options_resolve_metrics(o))
		return 2;
	return check_outputs(o);
}
