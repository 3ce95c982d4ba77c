/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Recording fake of struct tlbp_flush_ops: every call is appended to a log
 * the tests assert on, and any op can be told to fail its next calls.
 */
#ifndef TLBPOLICY_TESTS_FAKE_OPS_H
#define TLBPOLICY_TESTS_FAKE_OPS_H

#include <tlbpolicy/tlbpolicy.h>

#define FAKE_LOG_MAX 64
#define FAKE_MAX_CPUS TLBP_CPUSET_MAX_CPUS

enum fake_call { FAKE_FLUSH, FAKE_FLUSH_MM, FAKE_ADD_PENDING };

struct fake_record {
	enum fake_call call;
	struct tlbp_mm *mm;
	uint64_t start, end, nr_pages;
	bool full, unmapped, writable, had_mm;
	unsigned int cpu_weight;
	unsigned int first_cpu;
};

struct fake_ops {
	struct fake_record log[FAKE_LOG_MAX];
	unsigned int nr_calls;
	unsigned int nr[3];      /* calls per enum fake_call */
	int fail_err[3];         /* error to return ... */
	unsigned int fail_count[3]; /* ... for this many calls */
	/* Run once inside the next flush_mm, to interleave another agent. */
	void (*during_flush_mm)(void *arg);
	void *during_arg;
};

extern const struct tlbp_flush_ops fake_flush_ops;
/* Ops with the optional add_pending op left NULL. */
extern const struct tlbp_flush_ops fake_flush_ops_no_add;

void fake_ops_reset(struct fake_ops *f);
void fake_ops_fail(struct fake_ops *f, enum fake_call call, int err,
		   unsigned int count);

#endif
