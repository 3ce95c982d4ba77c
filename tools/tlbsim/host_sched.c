// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * A guest whose vCPUs are threads of a smaller host (qemu TCG runs one
 * host thread a vCPU; host_cpus cores run them). A flush IPI is handled
 * only when the target's thread runs on the host, so its round trip
 * depends on how many vCPUs the host is running, not on the guest alone.
 *
 * Say R vCPUs are runnable: each runs a task, spinning included (a halted
 * vCPU's thread sleeps on the host and is not counted), with R > H =
 * host_cpus. Two cases, by whether the sender and its k targets fit on
 * the host's cores at once:
 *
 * - k + 1 > H: some target is always off a core, so every flush waits
 *   for the host to run it. The sender holds one core and the other
 *   H - 1 run H - 1 of the R - 1 others, so a given target is off a core
 *   with probability p = (R - H) / (R - 1). The host runs the R - H
 *   waiting threads in turn, H at a time, for host_slice_ns each: a
 *   rotation of (R - H) / H slices, in which a waiting target's turn
 *   falls uniformly. The sender waits for its last target: with m of
 *   its k targets waiting, the largest of m uniform turns, m / (m + 1)
 *   of the rotation on average, with m binomial(k, p).
 *
 * - k + 1 <= H: flushes go at the ordinary round trip while the sender
 *   and its targets run together, and stall while any is off a core; a
 *   stream of them (a per-PTE split's 512) goes only in those windows.
 *   The sender runs H / R of the time and its targets all run beside it
 *   with probability P = prod over i < k of (H - 1 - i) / (R - 1 - i), so
 *   a flush takes R / (H P) times its round trip in wall time.
 *
 * A flush is charged a draw of the rotation's wait (m drawn, then the
 * last of m uniform turns), not its expectation: concurrent flushes with
 * one fixed wait all end together, which lines up every CPU's next step
 * with the others' in a way the host does not (a scanner storm then finds
 * a migration's debt at every page table; the guest's storms pause, see
 * docs/results.md). The draws come from a stream of their own
 * (s->host_rng), so the other decisions' stream is the one it was. The
 * stretch for targets that fit stays an expectation: a per-PTE split's
 * stream of 512 flushes averages it out. With R <= H every target is on a core
 * and the ordinary round trip applies (ipi_first_ns, ipi_extra_ns). The
 * microbench shootdowns this was derived from and checked on are in
 * docs/data/testbed-host-sched.md.
 */
#include "host_sched.h"
#include "rng.h"
#include "sim.h"

#include <math.h>

unsigned int sim_running_vcpus(const struct sim *s)
{
	unsigned int busy = s->nr_threads < s->nr_cpus ? s->nr_threads : s->nr_cpus;

	return busy > s->nr_lazy ? busy - s->nr_lazy : 0;
}

bool host_overcommitted(const struct sim *s, unsigned int running)
{
	double host = s->p.v[P_HOST_CPUS];

	return host > 0 && running > host;
}

/* E[m / (m + 1)] for m binomial(k, p): the expected largest of m uniform
 * turns in [0, 1], none taken as 0. */
static double expected_last_turn(unsigned int k, double p)
{
	double sum = 0;
	unsigned int m;

	if (p >= 1)
		return k / (k + 1.0);
	if (p <= 0)
		return 0;
	for (m = 1; m <= k; m++)
		sum += exp(lgamma(k + 1.0) - lgamma(m + 1.0) - lgamma(k - m + 1.0) +
			   m * log(p) + (k - m) * log1p(-p)) * m / (m + 1.0);
	return sum;
}

/* The targets the host must run, 0 unless it is overcommitted: those
 * beyond the busy vCPUs were halted, and the flush wakes them at once. */
static unsigned int busy_targets(const struct sim *s, unsigned int nr_targets,
				 unsigned int running)
{
	if (!host_overcommitted(s, running))
		return 0;
	return nr_targets < running - 1 ? nr_targets : running - 1;
}

/*
 * The rotation case, shared by the expectation and the draw: true, with
 * the busy targets in *@k, the chance each is off a core in *@p and the
 * rotation's length in *@rotation, when some target cannot run beside
 * the sender; false when nothing waits or host_corun_factor() applies.
 */
static bool rotation_case(const struct sim *s, unsigned int nr_targets, unsigned int running,
			  unsigned int *k, double *p, double *rotation)
{
	double host = s->p.v[P_HOST_CPUS];

	*k = busy_targets(s, nr_targets, running);
	if (!*k || *k + 1 <= host)
		return false; /* they fit beside the sender: host_corun_factor() */
	*p = (running - host) / (running - 1.0);
	*rotation = (running - host) / host * s->p.v[P_HOST_SLICE_NS];
	return true;
}

bool host_rotation(const struct sim *s, unsigned int nr_targets, unsigned int running,
		   double *p_off, double *rotation)
{
	unsigned int k;

	return rotation_case(s, nr_targets, running, &k, p_off, rotation);
}

double host_rotation_wait_ns(const struct sim *s, unsigned int nr_targets,
			     unsigned int running)
{
	double p, rotation;
	unsigned int k;

	if (!rotation_case(s, nr_targets, running, &k, &p, &rotation))
		return 0;
	return rotation * expected_last_turn(k, p);
}

double host_rotation_wait_draw_ns(struct sim *s, unsigned int nr_targets,
				  unsigned int running)
{
	double p, rotation;
	unsigned int k, m = 0, i;

	if (!rotation_case(s, nr_targets, running, &k, &p, &rotation))
		return 0;
	for (i = 0; i < k; i++)
		m += rng_unit(&s->host_rng) < p;
	if (!m)
		return 0;
	/* The largest of m uniforms is U^(1/m). */
	return rotation * pow(rng_unit(&s->host_rng), 1.0 / m);
}

double host_corun_factor(const struct sim *s, unsigned int nr_targets,
			 unsigned int running)
{
	double host = s->p.v[P_HOST_CPUS], together = 1;
	unsigned int k = busy_targets(s, nr_targets, running), i;

	if (!k || k + 1 > host)
		return 1; /* some target always waits: host_rotation_wait_ns() */
	for (i = 0; i < k; i++)
		together *= (host - 1 - i) / (running - 1.0 - i);
	return running / (host * together);
}
