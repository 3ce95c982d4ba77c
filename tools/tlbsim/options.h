/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * tlbsim's command line: which options each command takes, and parsing
 * argv into struct options. Nothing here runs a model.
 */
#ifndef TLBSIM_OPTIONS_H
#define TLBSIM_OPTIONS_H

#include <stdio.h>

struct options;

enum command { CMD_LIST, CMD_RUN, CMD_COMPARE, CMD_SWEEP, CMD_MERGE, NR_COMMANDS };

extern const char *const command_names[NR_COMMANDS];

/* The command called @name, or -1. */
int command_lookup(const char *name);
/* Every command's usage, or only @cmd's (NR_COMMANDS for all). */
void usage(FILE *f, enum command cmd);
void version(void);
/*
 * Fills @o from argv[2..] of @cmd: 0, -1 after --help or --version (exit
 * 0), or 2 after a one-line error. Options that @cmd does not take, empty
 * or repeated list items and bad values are errors here, before any run.
 */
int options_parse(int argc, char **argv, enum command cmd, struct options *o);

#endif
