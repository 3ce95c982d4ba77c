/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* "Did you mean": the nearest known name to a misspelt one. */
#ifndef TLBSIM_SUGGEST_H
#define TLBSIM_SUGGEST_H

#include <stddef.h>

/* The entry of @names (@n of them, NULL entries skipped) closest to @word
 * by edit distance, if it is close enough to be a typo; NULL otherwise. */
const char *suggest_name(const char *word, const char *const *names, size_t n);

/* Formats " (did you mean 'X'?)" into @buf, or "" when nothing is close. */
const char *suggest_hint(const char *word, const char *const *names, size_t n,
			 char *buf, size_t len);

#endif
