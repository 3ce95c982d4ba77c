/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* Output files: checked before the first run rather than after the last,
 * and the records written at the end. */
#ifndef TLBSIM_OUTPATH_H
#define TLBSIM_OUTPATH_H

/*
 * 0 if @path (given with option @opt) ends in one of @exts (a
 * NULL-terminated list such as { ".png", ".svg", NULL }) and can be
 * written: its directory exists and is writable, and the path is not a
 * directory or a read-only file. Otherwise 2 after a one-line error.
 * A newline in the name is refused: it cannot be quoted for gnuplot or a
 * jobs file line.
 */
int outpath_check(const char *opt, const char *path, const char *const *exts);

/* True if @path ends in @ext. */
int outpath_has_ext(const char *path, const char *ext);

struct options;
struct records;

/* The --json and --csv files of @rs; 0, or 2 after a one-line error. */
int write_outputs(const struct options *o, const struct records *rs);

#endif
