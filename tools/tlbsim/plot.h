/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Line plots through gnuplot: one series per policy over the swept values,
 * with min-max error bars when there are several seeds. Knows nothing of
 * sweeps or records, only numbers and names.
 */
#ifndef TLBSIM_PLOT_H
#define TLBSIM_PLOT_H

#include <stdbool.h>

struct plot_series {
	const char *name;
	const double *y, *lo, *hi; /* mean, min and max at each x */
};

struct plot_spec {
	const char *title, *xlabel, *ylabel;
	unsigned int nr_x;
	const double *x;
	unsigned int nr_series;
	const struct plot_series *series;
	bool spread; /* draw lo..hi as error bars */
};

/*
 * Writes @spec into @file (.png or .svg) with gnuplot. gnuplot's own
 * output never reaches the terminal; when it fails, its first error line
 * is in the one-line message. 0, or 2 after that message.
 */
int plot_write(const struct plot_spec *spec, const char *file);

#endif
