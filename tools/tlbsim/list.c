// SPDX-License-Identifier: GPL-2.0-only OR MIT
/* tlbsim list: the scenarios, one scenario's knobs, the metric dictionary. */
#include <stdio.h>
#include <string.h>
#include "diag.h"
#include "list.h"
#include "options.h"
#include "suggest.h"

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
	printf("  %-25s %-9s %12s  %-14s %s\n", "name", "kind", "default", "unit", "source");
	for (i = 0; i < NR_PARAMS; i++) {
		const struct param_def *d = &param_defs[i];

		if (!scenario_reads(sc, (enum param_id)i))
			continue;
		param_format((enum param_id)i, def.v[i], buf, sizeof(buf));
		printf("  %-25s %-9s %12s  %-14s %s\n", d->name, param_kind_name(d->kind),
		       buf, d->unit, scenario_param_source(sc, (enum param_id)i));
	}
	printf("\nmetrics (in this order in tables, JSON and CSV):\n");
	for (m = sc->metrics; *m != NR_METRICS; m++)
		list_metric(&metric_defs[*m]);
}

int cmd_list(int argc, char **argv)
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

