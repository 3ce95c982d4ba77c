// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include <stdarg.h>
#include <stdio.h>
#include "diag.h"
#include "options.h"

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
