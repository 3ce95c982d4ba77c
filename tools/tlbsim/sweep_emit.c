// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * tlbsim sweep --emit-jobs FILE: instead of running the sweep, write one
 * self-contained shell command per run, in the sweep's order, for GNU
 * parallel (parallel < FILE, or --sshloginfile across hosts) or a Slurm
 * array (line $SLURM_ARRAY_TASK_ID). Run k writes FILE's name without its
 * extension plus -k.json; 'tlbsim merge' reads them back.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "diag.h"
#include "options.h"
#include "sweep.h"

/* " 's'": @s in single quotes for sh, a quote inside written as '\'' */
static void put_sh(FILE *f, const char *s)
{
	fputs(" '", f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

/* "--set name=value", the value exact: %.17g reads back as the same double. */
static void put_set(FILE *f, int id, double v)
{
	char kv[128];

	if (param_defs[id].choices)
		snprintf(kv, sizeof(kv), "%s=%s", param_defs[id].name,
			 param_defs[id].choices[(int)v]);
	else
		snprintf(kv, sizeof(kv), "%s=%.17g", param_defs[id].name, v);
	fputs(" --set", f);
	put_sh(f, kv);
}

/* The results' stem: FILE's absolute path without its extension, so that
 * the commands work from any directory (and any host sharing it). */
static int result_stem(const char *file, char *stem, size_t len)
{
	char dir[PATH_MAX], abs[PATH_MAX];
	const char *slash = strrchr(file, '/'), *base = slash ? slash + 1 : file;
	const char *dot = strrchr(base, '.');

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - file) + 1 : 1,
		 slash ? file : ".");
	if (!realpath(dir, abs))
		return fail("--emit-jobs '%s': %s", file, strerror(errno));
	size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);

	if (strlen(abs) + 1 + n >= len)
		return fail("--emit-jobs '%s': the path is too long", file);
	if (!strcmp(abs, "/"))
		abs[0] = '\0';
	snprintf(stem, len, "%s/%.*s", abs, (int)n, base);
	return 0;
}

int sweep_emit_jobs(const struct options *o, const struct sweep_spec *sw)
{
	char stem[PATH_MAX], out[PATH_MAX + 32], seed[32];
	unsigned int v, pair, k, n = 0, width;
	FILE *f;
	int id;

	if (result_stem(o->emit_jobs, stem, sizeof(stem)))
		return 2;
	f = fopen(o->emit_jobs, "w");
	if (!f)
		return fail("--emit-jobs '%s': %s", o->emit_jobs, strerror(errno));
	width = snprintf(seed, sizeof(seed), "%u", sw->nr_values * o->pairs * o->nr_policies);
	for (v = 0; v < sw->nr_values; v++) {
		for (pair = 0; pair < o->pairs; pair++) {
			for (k = 0; k < o->nr_policies; k++) {
				put_sh(f, o->self);
				fprintf(f, " run");
				put_sh(f, o->sc->name);
				fprintf(f, " --policy");
				put_sh(f, o->policies[k]);
				fprintf(f, " --seed %llu",
					(unsigned long long)o->seed + pair);
				for (id = 0; id < NR_PARAMS; id++)
					if (id != sw->param && o->params.set[id])
						put_set(f, id, o->params.v[id]);
				put_set(f, sw->param, sw->values[v]);
				if (o->no_timing)
					fprintf(f, " --no-timing");
				/* Zero-padded, so that a glob lists them in this order. */
				snprintf(out, sizeof(out), "%s-%0*u.json", stem, (int)width, ++n);
				fprintf(f, " --json");
				put_sh(f, out);
				fprintf(f, " >/dev/null\n");
			}
		}
	}
	if (fclose(f))
		return fail("--emit-jobs '%s': %s", o->emit_jobs, strerror(errno));
	fprintf(stderr, "tlbsim: %u runs in %s; results will be %s-*.json (tlbsim merge)\n",
		n, o->emit_jobs, stem);
	return 0;
}
