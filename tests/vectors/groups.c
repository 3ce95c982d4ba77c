// SPDX-License-Identifier: GPL-2.0-only OR MIT
/* Every vector group, and the failure record the assertions write. */
#include "tv.h"

#define TV_GROUP(g) { #g, tv_##g##_cases, &tv_##g##_nr_cases }

const struct tv_group tv_groups[] = {
	TV_GROUP(cpuset), TV_GROUP(mm), TV_GROUP(batch), TV_GROUP(gather),
	TV_GROUP(migrate), TV_GROUP(hint_fault), TV_GROUP(split), TV_GROUP(gp_batch),
};
const unsigned int tv_nr_groups = sizeof(tv_groups) / sizeof(tv_groups[0]);

struct tv_failure tv_failure;

void tv_fail(const char *file, int line, const char *expr)
{
	if (tv_failure.failed)
		return; /* the first failure is the one worth reading */
	tv_failure.failed = true;
	tv_failure.file = file;
	tv_failure.line = line;
	tv_failure.expr = expr;
	tv_failure.msg[0] = '\0';
}

void tv_failf(const char *file, int line, const char *expr, const char *fmt, ...)
{
	va_list ap;

	if (tv_failure.failed)
		return;
	tv_fail(file, line, expr);
	va_start(ap, fmt);
	vsnprintf(tv_failure.msg, sizeof(tv_failure.msg), fmt, ap);
	va_end(ap);
}

bool tv_run(const struct tv_case *c, int i)
{
	tv_failure.failed = false;
	if (c->setup)
		c->setup();
	c->fn(i);
	return !tv_failure.failed;
}
