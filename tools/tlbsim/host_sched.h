/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * vCPUs that are threads of a smaller host (host_sched.c): how long a
 * flush waits for its targets' threads to be run.
 */
#ifndef TLBSIM_HOST_SCHED_H
#define TLBSIM_HOST_SCHED_H

#include <stdbool.h>

struct sim;

/* The vCPUs running a task now (a spinning one included; lazy ones,
 * whose thread sleeps, not). */
unsigned int sim_running_vcpus(const struct sim *s);
/* Whether @running vCPUs are more than the host's cores (host_cpus > 0). */
bool host_overcommitted(const struct sim *s, unsigned int running);
/* The expected wait, in ns, for the last of @nr_targets busy targets'
 * threads to be run by a host with @running runnable vCPUs (the mean of
 * host_rotation_wait_draw_ns(), which the model charges); 0 unless
 * host_overcommitted() and the sender and its targets are more than the
 * host's cores. */
double host_rotation_wait_ns(const struct sim *s, unsigned int nr_targets,
			     unsigned int running);
/* One flush's wait, drawn: @m of the @nr_targets busy targets off a core
 * (binomial), the last of their uniform turns in the rotation; its mean is
 * host_rotation_wait_ns(). Draws from s->host_rng only. */
double host_rotation_wait_draw_ns(struct sim *s, unsigned int nr_targets,
				  unsigned int running);
/* Whether a flush to @nr_targets busy targets must wait for some of them
 * to be run (host_rotation_wait_ns() is then not 0): with the chance
 * each is off a core in *@p_off and the rotation's length in ns in
 * *@rotation (flush_turn.c draws each target's turn from them). */
bool host_rotation(const struct sim *s, unsigned int nr_targets, unsigned int running,
		   double *p_off, double *rotation);
/* How many times longer a flush's round trip takes, in wall time, when the
 * sender and its @nr_targets targets fit on the host's cores but share
 * them with others: 1 otherwise. */
double host_corun_factor(const struct sim *s, unsigned int nr_targets,
			 unsigned int running);

#endif
