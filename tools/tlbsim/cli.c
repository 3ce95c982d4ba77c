// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * tlbsim: list | run | compare | sweep. Every error is one line on stderr
 * and exit status 2 (usage) or 1 (a run failed).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "cli.h"
#include "progress.h"
#include "suggest.h"
#include "sweep.h"

int fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "tlbsim: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	return 2;
}

void warn_once(const struct options *o, unsigned int bit, const char *fmt, ...)
{
	va_list ap;

	if (*o->warned & bit)
		return;
	*o->warned |= bit;
	fprintf(stderr, "tlbsim: warning: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
}

static const char *const commands[] = { "list", "run", "compare", "sweep" };

static const char *const command_usage[] = {
	"tlbsim list [SCENARIO | metrics]",
	"tlbsim run SCENARIO [--policy P] [--set key=value ...] [--seed N]\n"
	"                  [--json FILE] [--csv FILE] [--no-timing]",
	"tlbsim compare SCENARIO [--policies a,b,...] [--pairs N] [--set key=value ...]\n"
	"                  [--seed N] [--json FILE] [--csv FILE] [--no-timing]",
	"tlbsim sweep SCENARIO --vary key=v1,v2,... [--policies a,b,...]\n"
	"                  [--metric NAME[,NAME...]] [--plot FILE.png|FILE.svg[,...]]\n"
	"                  [--set key=value ...] [--seed N] [--json FILE] [--csv FILE]",
};

/* Every command's usage, or only @cmd's. */
static void usage(FILE *f, const char *cmd)
{
	unsigned int i;

	for (i = 0; i < 4; i++)
		if (!cmd || !strcmp(cmd, commands[i]))
			fprintf(f, "%s %s\n", cmd || i == 0 ? "usage:" : "      ",
				command_usage[i]);
	fprintf(f, "See tlbsim(1); 'tlbsim list' names the scenarios, policies and parameters.\n");
}

static void version(void)
{
	printf("tlbsim (tlbpolicy) %s\n", PACKAGE_VERSION);
}

/* The options a command knows, for "did you mean". */
static const char *const option_names[] = {
	"--no-timing", "--set", "--policy", "--policies", "--seed", "--pairs",
	"--json", "--csv", "--plot", "--metric", "--vary", "--help", "--version",
};

static const struct scenario *find_scenario(const char *name);

static void list_scenarios(void)
{
	unsigned int i, k;

	printf("scenarios and policies:\n");
	for (i = 0; i < nr_scenarios; i++) {
		const struct scenario *sc = scenarios[i];

		printf("  %-16s %s\n", sc->name, sc->help);
		for (k = 0; k < sc->nr_policies; k++)
			printf("    %-26s %s%s\n", sc->policies[k].name, sc->policies[k].help,
			       !strcmp(sc->policies[k].name, sc->default_policy) ? " [default]" : "");
	}
	printf("\n'tlbsim list SCENARIO' shows its parameters and metrics, "
	       "'tlbsim list metrics' what every metric means.\n");
}

static void list_metric(const struct metric_def *d)
{
	printf("  %-40s %-11s %s\n", d->name, d->unit, d->help);
}

/* One scenario: its policies, the parameters it reads with its own
 * defaults, and the metrics it reports. */
static void list_scenario(const struct scenario *sc)
{
	const enum metric_id *m;
	struct params def;
	unsigned int i, k;
	char buf[32];

	scenario_defaults(sc, &def);
	printf("%s: %s\n\npolicies:\n", sc->name, sc->help);
	for (k = 0; k < sc->nr_policies; k++)
		printf("  %-26s %s%s\n", sc->policies[k].name, sc->policies[k].help,
		       !strcmp(sc->policies[k].name, sc->default_policy) ? " [default]" : "");
	printf("\nparameters (--set key=value):\n");
	printf("  %-22s %-9s %12s  %-14s %s\n", "name", "kind", "default", "unit", "source");
	for (i = 0; i < NR_PARAMS; i++) {
		const struct param_def *d = &param_defs[i];

		if (!scenario_reads(sc, (enum param_id)i))
			continue;
		param_format((enum param_id)i, def.v[i], buf, sizeof(buf));
		printf("  %-22s %-9s %12s  %-14s %s\n", d->name, param_kind_name(d->kind),
		       buf, d->unit, d->source);
	}
	printf("\nmetrics (in this order in tables, JSON and CSV):\n");
	for (m = sc->metrics; *m != NR_METRICS; m++)
		list_metric(&metric_defs[*m]);
}

static int cmd_list(int argc, char **argv)
{
	const struct scenario *sc;
	int i;

	if (argc == 2) {
		list_scenarios();
		return 0;
	}
	if (argc > 3)
		return fail("list takes at most one argument: a scenario or 'metrics'");
	if (!strcmp(argv[2], "metrics")) {
		printf("metrics (--json/--csv keys):\n");
		for (i = 0; i < NR_METRICS; i++)
			list_metric(&metric_defs[i]);
		return 0;
	}
	sc = find_scenario(argv[2]);
	if (!sc)
		return 2;
	list_scenario(sc);
	return 0;
}

/* The scenario called @name, or NULL after a one-line error. */
static const struct scenario *find_scenario(const char *name)
{
	const char *names[16] = { 0 };
	const struct scenario *sc = scenario_find(name);
	char hint[96];
	unsigned int k;

	if (sc)
		return sc;
	for (k = 0; k < nr_scenarios && k < 16; k++)
		names[k] = scenarios[k]->name;
	fail("unknown scenario '%s'%s (see 'tlbsim list')", name,
	     suggest_hint(name, names, 16, hint, sizeof(hint)));
	return NULL;
}

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;

	if (!*s || *s == '-')
		return -1;
	errno = 0;
	*out = strtoull(s, &end, 10);
	return errno || *end ? -1 : 0;
}

static int unknown_policy(const struct scenario *sc, const char *name)
{
	const char *names[32] = { 0 };
	char hint[96];
	unsigned int k;

	for (k = 0; k < sc->nr_policies && k < 32; k++)
		names[k] = sc->policies[k].name;
	return fail("unknown policy '%s' for %s%s (see 'tlbsim list')", name, sc->name,
		    suggest_hint(name, names, 32, hint, sizeof(hint)));
}

static int split_policies(struct options *o, char *list)
{
	char *tok, *save = NULL;

	o->nr_policies = 0;
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (o->nr_policies == MAX_POLICIES)
			return fail("too many policies (at most %d)", MAX_POLICIES);
		if (!scenario_policy(o->sc, tok))
			return unknown_policy(o->sc, tok);
		o->policies[o->nr_policies++] = tok;
	}
	return o->nr_policies ? 0 : fail("--policies needs at least one policy");
}

static int parse_options(int argc, char **argv, struct options *o, const char *cmd)
{
	char err[1024];
	uint64_t v;
	int i;

	if (argc < 3)
		return fail("%s needs a scenario (see 'tlbsim list')", cmd);
	if (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h")) {
		usage(stdout, cmd);
		return -1;
	}
	if (!strcmp(argv[2], "--version")) {
		version();
		return -1;
	}
	o->sc = find_scenario(argv[2]);
	if (!o->sc)
		return 2;
	params_defaults(&o->params);
	o->seed = 1;
	o->pairs = 1;
	for (i = 3; i < argc; i++) {
		const char *a = argv[i], *val;

		if (!strcmp(a, "--no-timing")) {
			o->no_timing = true;
			continue;
		}
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout, cmd);
			return -1;
		}
		if (!strcmp(a, "--version")) {
			version();
			return -1;
		}
		if (strncmp(a, "--", 2) != 0) {
			if (strchr(a, '='))
				return fail("unexpected argument '%s' (did you mean --set %s?)", a, a);
			return fail("unexpected argument '%s'", a);
		}
		val = i + 1 < argc ? argv[++i] : NULL;
		if (!val || !strncmp(val, "--", 2))
			return fail("%s needs a value", a);
		if (!strcmp(a, "--set")) {
			if (params_set(&o->params, val, err, sizeof(err)) ||
			    scenario_check_reads(o->sc, val, err, sizeof(err)))
				return fail("%s", err);
		} else if (!strcmp(a, "--policy")) {
			if (!scenario_policy(o->sc, val))
				return unknown_policy(o->sc, val);
			o->policy = val;
		} else if (!strcmp(a, "--policies")) {
			if (split_policies(o, argv[i]))
				return 2;
		} else if (!strcmp(a, "--seed")) {
			if (parse_u64(val, &o->seed))
				return fail("bad seed '%s': a non-negative integer", val);
		} else if (!strcmp(a, "--pairs")) {
			if (parse_u64(val, &v) || v < 1 || v > 100)
				return fail("bad --pairs '%s': 1..100", val);
			o->pairs = (unsigned int)v;
		} else if (!strcmp(a, "--json")) {
			o->json = val;
		} else if (!strcmp(a, "--csv")) {
			o->csv = val;
		} else if (!strcmp(a, "--plot")) {
			o->plot = val;
		} else if (!strcmp(a, "--metric")) {
			if (!sweep_metric_ids(o->sc, val, NULL))
				return 2;
			o->metric = val;
		} else if (!strcmp(a, "--vary")) {
			o->vary = val;
		} else {
			char hint[96];

			return fail("unknown option '%s' for %s%s", a, cmd,
				    suggest_hint(a, option_names,
						 sizeof(option_names) / sizeof(option_names[0]),
						 hint, sizeof(hint)));
		}
	}
	return 0;
}

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

int cli_run_one(const struct options *o, const char *policy, uint64_t seed,
		unsigned int pair, const struct params *params, struct records *rs)
{
	const struct policy_def *pol = scenario_policy(o->sc, policy);
	struct run_record r = { .sc = o->sc, .policy = policy, .seed = seed, .pair = pair };
	char err[160];

	scenario_params(o->sc, params, &r.params);
	if (o->sc->check && o->sc->check(&r.params, err, sizeof(err)))
		warn_once(o, WARN_CHECK, "%s: %s", o->sc->name, err);
	if (scenario_run(o->sc, params, pol, seed, &r.metrics, o->base, err, sizeof(err))) {
		fprintf(stderr, "tlbsim: %s\n", err);
		return 1;
	}
	if ((pol->balancing || !o->sc->has_baseline) && r.metrics.v[o->sc->activity] == 0)
		warn_once(o, WARN_IDLE, "%s, policy %s: nothing happened (%s is 0); the model "
			  "is too small or too short to tell policies apart", o->sc->name,
			  policy, metric_defs[o->sc->activity].name);
	if (r.metrics.v[M_STALE_TRANSLATION_VIOLATIONS] > 0)
		fprintf(stderr, "tlbsim: %s, policy %s, seed %" PRIu64 ": %.0f stale-translation "
			"violations; the first: %s\n", o->sc->name, policy, seed,
			r.metrics.v[M_STALE_TRANSLATION_VIOLATIONS], r.metrics.first_violation);
	if (o->no_timing)
		r.metrics.v[M_WALL_SECONDS] = 0;
	return records_add(rs, &r) ? (fprintf(stderr, "tlbsim: out of memory\n"), 1) : 0;
}

int write_outputs(const struct options *o, const struct records *rs)
{
	char err[160];

	if (o->json && report_json(o->json, rs, err, sizeof(err)))
		return fail("%s", err);
	if (o->csv && report_csv(o->csv, rs, err, sizeof(err)))
		return fail("%s", err);
	return 0;
}

static int cmd_run(struct options *o)
{
	struct records rs = { 0 };
	int ret;

	if (o->nr_policies || o->vary || o->plot || o->metric)
		return fail("run takes --policy, not --policies/--vary/--plot/--metric");
	ret = cli_run_one(o, o->policy ? o->policy : o->sc->default_policy, o->seed, 0,
			  &o->params, &rs);
	if (!ret) {
		report_run(stdout, &rs.r[0]);
		ret = write_outputs(o, &rs);
	}
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

static int cmd_compare(struct options *o)
{
	struct records rs = { 0 };
	struct progress pg;
	unsigned int pair, k;
	char label[96];
	int ret = 0;

	if (o->policy || o->vary || o->plot)
		return fail("compare takes --policies and --pairs, not --policy/--vary/--plot");
	default_policies(o);
	if (o->params.v[P_SCALE] < 1)
		warn_once(o, WARN_SCALE, "scale=%g is a reduced model, not comparable with "
			  "docs/results.md's figures",
			  o->params.v[P_SCALE]);
	progress_start(&pg, o->pairs * o->nr_policies);
	for (pair = 0; pair < o->pairs && !ret; pair++) {
		for (k = 0; k < o->nr_policies && !ret; k++) {
			ret = cli_run_one(o, o->policies[k], o->seed + pair, pair,
					  &o->params, &rs);
			snprintf(label, sizeof(label), "%s, seed %" PRIu64, o->policies[k],
				 o->seed + pair);
			progress_step(&pg, label);
		}
	}
	progress_end(&pg);
	if (!ret) {
		printf("%s: %u pair%s, seed %" PRIu64 "%s\n", o->sc->name, o->pairs,
		       o->pairs > 1 ? "s (mean [min..max])" : "", o->seed,
		       o->pairs > 1 ? "+" : "");
		report_machine(stdout, o->sc, &rs.r[0].params);
		report_compare(stdout, &rs, o->policies, o->nr_policies, output_width());
		ret = write_outputs(o, &rs);
	}
	records_free(&rs);
	return ret;
}

static int cmd_sweep(struct options *o)
{
	struct sweep_spec sw;
	char err[160];
	int ret;

	if (!o->vary)
		return fail("sweep needs --vary key=v1,v2,...");
	if (o->policy)
		return fail("sweep takes --policies, not --policy");
	if (sweep_parse(o->sc, o->vary, &o->params, &sw, err, sizeof(err)))
		return fail("%s", err);
	default_policies(o);
	ret = sweep_run(o, &sw);
	return ret ? ret : 0;
}

int main(int argc, char **argv)
{
	struct options o = { 0 };
	struct baseline base = { 0 };
	unsigned int warned = 0;
	int ret;

	o.base = &base;
	o.warned = &warned;
	if (argc < 2)
		return fail("missing command: list, run, compare or sweep (see --help)");
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout, NULL);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		version();
		return 0;
	}
	if (!strcmp(argv[1], "list")) {
		if (argc > 2 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))) {
			usage(stdout, "list");
			return 0;
		}
		return cmd_list(argc, argv);
	}
	if (strcmp(argv[1], "run") != 0 && strcmp(argv[1], "compare") != 0 &&
	    strcmp(argv[1], "sweep") != 0) {
		char hint[96];

		return fail("unknown command '%s'%s (list, run, compare, sweep)", argv[1],
			    suggest_hint(argv[1], commands, 4, hint, sizeof(hint)));
	}
	ret = parse_options(argc, argv, &o, argv[1]);
	if (ret < 0)
		return 0; /* --help or --version */
	if (ret || !o.sc)
		return ret ? ret : 2;
	if (!strcmp(argv[1], "run"))
		return cmd_run(&o);
	if (!strcmp(argv[1], "compare"))
		return cmd_compare(&o);
	return cmd_sweep(&o);
}
