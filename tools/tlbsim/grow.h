/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* Growing a caller's array by doubling, for the lists of runs and samples. */
#ifndef TLBSIM_GROW_H
#define TLBSIM_GROW_H

#include <stdlib.h>

/*
 * Makes room for one more element in *@arr (of @size bytes each, @len in
 * use, *@cap allocated), starting at @first: 0, or -1 with *@arr untouched.
 */
static inline int grow_for_one(void **arr, size_t *cap, size_t len, size_t size,
			       size_t first)
{
	size_t want = *cap ? 2 * *cap : first;
	void *grown;

	if (len < *cap)
		return 0;
	grown = realloc(*arr, want * size);
	if (!grown)
		return -1;
	*arr = grown;
	*cap = want;
	return 0;
}

#endif
