/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* What tlbsim tells its user on stderr: one-line errors and warnings. */
#ifndef TLBSIM_DIAG_H
#define TLBSIM_DIAG_H

struct options;

/* Warnings a command prints once however many runs it makes. */
enum { WARN_CHECK = 1, WARN_IDLE = 2, WARN_SCALE = 4 };

/* One-line warning on stderr, unless @bit was already warned about. */
void warn_once(const struct options *o, unsigned int bit, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* One-line error on stderr; returns the usage exit status, 2. */
int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
