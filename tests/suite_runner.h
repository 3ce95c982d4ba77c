/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* One way to run a Check suite and turn its result into an exit status. */
#ifndef TLBPOLICY_TESTS_SUITE_RUNNER_H
#define TLBPOLICY_TESTS_SUITE_RUNNER_H

#include <check.h>

/* Runs @s (and frees it); returns EXIT_SUCCESS or EXIT_FAILURE. */
int run_suite(Suite *s);

#endif
