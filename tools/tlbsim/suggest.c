// SPDX-License-Identifier: GPL-2.0-only OR MIT
/* "Did you mean": Levenshtein distance over short option and scenario names. */
#include <stdio.h>
#include <string.h>
#include "suggest.h"

#define MAX_WORD 64

static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t row[MAX_WORD + 1], diag, up;

	if (la > MAX_WORD || lb > MAX_WORD)
		return (size_t)-1;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		diag = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t best = diag + (a[i - 1] != b[j - 1]);

			up = row[j];
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb];
}

const char *suggest_name(const char *word, const char *const *names, size_t n)
{
	/* A typo is a few edits, fewer for a short name. */
	size_t i, d, best_d = strlen(word) / 3 + 1;
	const char *best = NULL;

	if (best_d > 3)
		best_d = 3;
	for (i = 0; i < n; i++) {
		if (!names[i])
			continue;
		d = distance(word, names[i]);
		if (d <= best_d && (!best || d < distance(word, best))) {
			best = names[i];
			best_d = d;
		}
	}
	return best;
}

const char *suggest_hint(const char *word, const char *const *names, size_t n,
			 char *buf, size_t len)
{
	const char *s = suggest_name(word, names, n);

	if (!s)
		return "";
	snprintf(buf, len, " (did you mean '%s'?)", s);
	return buf;
}
