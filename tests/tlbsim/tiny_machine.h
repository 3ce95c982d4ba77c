/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * A tiny hand-built model machine for the tlbsim tests: TINY_CPUS CPUs on
 * two nodes, one mm of TINY_PAGES pages mapped by a thread on every CPU.
 */
#ifndef TLBSIM_TESTS_TINY_MACHINE_H
#define TLBSIM_TESTS_TINY_MACHINE_H

#include <stdbool.h>
#include <stdint.h>
#include "sim.h"

#define TINY_CPUS 4
#define TINY_PAGES 1024

/* The machine with back-end @be; @host_cpus > 0 makes its vCPUs threads
 * of a host with that many cores (1 ms slices) from the start. */
struct sim *tiny_machine(enum backend_kind be, enum unsafe_mode unsafe,
			 enum tlbp_hint_policy hint_policy, double host_cpus);
void tiny_destroy(struct sim *s);
/* As the model sees it: the CPU caught up with machine-wide flushes. */
bool tiny_cached(struct sim *s, unsigned int cpu, uint64_t vpn);
/* Page @vpn's translation in every CPU's TLB. */
void tiny_cache_everywhere(struct sim *s, uint64_t vpn);

#endif
