// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The wait for a flush's targets on a host with fewer cores than runnable
 * vCPUs (tools/tlbsim/host_sched.c). The model's closed form is a fluid
 * approximation of a host that runs its threads in turn; here it is held
 * against that host played out event by event: H cores, each running one
 * thread for a slice, the waiting threads queued first in first out, a
 * preempted thread going to the back, slices ending independently. The
 * wait is until every target has run, for flushes with more targets than
 * fit beside the sender. Also exact values by hand (the rotation's and,
 * for targets that fit, the round trip's stretch), the cases where
 * nothing waits, and the targets beyond the busy ones (halted vCPUs,
 * woken at once).
 */
#include <stdlib.h>
#include <check.h>
#include "host_sched.h"
#include "rng.h"
#include "sim.h"
#include "suite_runner.h"

#define SLICE 1e6
#define MAX_R 16

static struct sim *host(double cores, unsigned int threads)
{
	struct sim *s = calloc(1, sizeof(*s));

	ck_assert_ptr_nonnull(s);
	params_defaults(&s->p);
	s->p.v[P_HOST_CPUS] = cores;
	s->p.v[P_HOST_SLICE_NS] = SLICE;
	s->nr_cpus = threads;
	s->nr_threads = threads;
	return s;
}

/* A random permutation of 0..n-1 in @v. */
static void shuffle(struct rng *r, unsigned int *v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		v[i] = i;
	for (i = n; i > 1; i--) {
		unsigned int j = (unsigned int)rng_below(r, i), t = v[i - 1];

		v[i - 1] = v[j];
		v[j] = t;
	}
}

/* One flush's wait, in slices, for @k targets among @R threads on @H
 * cores, the host played out slice end by slice end from a random start. */
static double play_one(struct rng *r, unsigned int R, unsigned int H, unsigned int k)
{
	unsigned int order[MAX_R], queue[MAX_R], running[MAX_R];
	unsigned int head = 0, len = R - H, left = 0, sender, i;
	bool pending[MAX_R];
	double resid[MAX_R], t = 0;

	shuffle(r, order, R);
	for (i = 0; i < H; i++) {
		running[i] = order[i];
		resid[i] = rng_unit(r);
	}
	for (i = 0; i < len; i++)
		queue[i] = order[H + i];
	sender = running[0];
	/* k targets: the first k of another permutation, sender skipped. */
	shuffle(r, order, R);
	for (i = 0; i < R; i++)
		pending[i] = false;
	for (i = 0; i < R && left < k; i++) {
		if (order[i] == sender)
			continue;
		pending[order[i]] = true;
		left++;
	}
	for (i = 0; i < H; i++)
		if (pending[running[i]]) {
			pending[running[i]] = false;
			left--;
		}
	while (left) {
		unsigned int c = 0, next;
		double dt;

		for (i = 1; i < H; i++)
			if (resid[i] < resid[c])
				c = i;
		dt = resid[c];
		t += dt;
		for (i = 0; i < H; i++)
			resid[i] -= dt;
		next = queue[head % MAX_R];
		queue[(head + len) % MAX_R] = running[c];
		head++;
		running[c] = next;
		resid[c] = 1;
		if (pending[next]) {
			pending[next] = false;
			left--;
		}
	}
	return t;
}

/* The mean wait, in slices, over @trials flushes played out. */
static double played_out(unsigned int R, unsigned int H, unsigned int k,
			 unsigned int trials)
{
	double sum = 0;
	struct rng r;
	unsigned int n;

	rng_seed(&r, 14);
	for (n = 0; n < trials; n++)
		sum += play_one(&r, R, H, k);
	return sum / trials;
}

START_TEST(test_host_sched_matches_a_host_played_out)
{
	static const unsigned int cases[][3] = {
		/* R, H, k, more targets than fit beside the sender: the
		 * microbench's 7 and 3, 2 and 4 among a few or many busy
		 * vCPUs, hosts of 3 and 4 cores */
		{ 8, 2, 7 }, { 4, 2, 3 }, { 8, 2, 3 }, { 5, 2, 2 },
		{ 8, 2, 4 }, { 6, 3, 3 }, { 12, 4, 6 },
	};
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sim *s = host(cases[i][1], cases[i][0]);
		double model = host_rotation_wait_ns(s, cases[i][2], cases[i][0]) / SLICE;
		double host_says = played_out(cases[i][0], cases[i][1], cases[i][2], 40000);

		/* The fluid form within 20% of the host played out. */
		ck_assert_msg(model > 0.8 * host_says && model < 1.2 * host_says,
			      "R=%u H=%u k=%u: model %.3f slices, host %.3f",
			      cases[i][0], cases[i][1], cases[i][2], model, host_says);
		free(s);
	}
}
END_TEST

/*
 * What the model charges each flush is a draw (host_rotation_wait_draw_ns(),
 * the last of m targets' uniform turns, m binomial), so concurrent flushes
 * do not all end together. Its spread against the host played out: the
 * share of flushes that wait less than a quarter, a half and the whole of
 * the played-out mean, each within 0.06; every draw within one rotation;
 * the same seed, the same draws.
 */
START_TEST(test_host_sched_draws_spread_as_a_host_does)
{
	static const unsigned int cases[][3] = { { 8, 2, 7 }, { 8, 2, 3 }, { 4, 2, 3 } };
	static const double at[] = { 0.25, 0.5, 1 };
	const unsigned int trials = 40000;
	unsigned int i, j, n;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unsigned int R = cases[i][0], H = cases[i][1], k = cases[i][2];
		struct sim *s = host(H, R);
		double mean = played_out(R, H, k, trials), rotation = (R - H) / (double)H;
		unsigned int host_below[3] = { 0 }, draw_below[3] = { 0 };
		double first;
		struct rng r;

		rng_seed(&r, 15);
		rng_seed(&s->host_rng, 16);
		for (n = 0; n < trials; n++) {
			double played = play_one(&r, R, H, k);
			double drawn = host_rotation_wait_draw_ns(s, k, R) / SLICE;

			ck_assert(drawn >= 0 && drawn <= rotation + 1e-9);
			for (j = 0; j < 3; j++) {
				host_below[j] += played < at[j] * mean;
				draw_below[j] += drawn < at[j] * mean;
			}
		}
		for (j = 0; j < 3; j++)
			ck_assert_msg(abs((int)host_below[j] - (int)draw_below[j]) < 0.06 * trials,
				      "R=%u H=%u k=%u below %.2f of the mean: host %u, drawn %u",
				      R, H, k, at[j], host_below[j], draw_below[j]);
		rng_seed(&s->host_rng, 17);
		first = host_rotation_wait_draw_ns(s, k, R);
		rng_seed(&s->host_rng, 17);
		ck_assert_double_eq(host_rotation_wait_draw_ns(s, k, R), first);
		free(s);
	}
}
END_TEST

START_TEST(test_host_sched_three_of_four_by_hand)
{
	struct sim *s = host(2, 4);

	/* p = 2/3, a rotation of one slice, E[m / (m + 1)] = 17/27. */
	ck_assert_double_eq_tol(host_rotation_wait_ns(s, 3, 4), SLICE * 17 / 27, 1);
	/* One core: every target waits, k / (k + 1) of R - 1 slices. */
	s->p.v[P_HOST_CPUS] = 1;
	ck_assert_double_eq_tol(host_rotation_wait_ns(s, 3, 4), SLICE * 3 * 3 / 4, 1);
	free(s);
}
END_TEST

/* Targets that fit beside the sender: no rotation, the round trip
 * stretched by R / (H P), P the chance they all run beside it. */
START_TEST(test_host_sched_corun_by_hand)
{
	struct sim *s = host(2, 8);

	ck_assert_double_eq(host_rotation_wait_ns(s, 1, 8), 0);
	/* P = 1/7: the sender runs 1/4 of the time, its target beside it
	 * 1/7 of that. */
	ck_assert_double_eq_tol(host_corun_factor(s, 1, 8), 28, 1e-9);
	ck_assert_double_eq_tol(host_corun_factor(s, 1, 3), 3, 1e-9);
	/* Two targets never fit on 2 cores: the rotation instead. */
	ck_assert_double_eq(host_corun_factor(s, 2, 8), 1);
	ck_assert(host_rotation_wait_ns(s, 2, 8) > 0);
	/* 3 cores, 2 targets among 5 others: P = 2/5 x 1/4. */
	s->p.v[P_HOST_CPUS] = 3;
	ck_assert_double_eq_tol(host_corun_factor(s, 2, 6), 6 / (3 * 0.1), 1e-9);
	ck_assert_double_eq(host_rotation_wait_ns(s, 2, 6), 0);
	/* Not overcommitted: 1. */
	ck_assert_double_eq(host_corun_factor(s, 2, 3), 1);
	free(s);
}
END_TEST

START_TEST(test_host_sched_nothing_waits)
{
	struct sim *s = host(0, 8);

	/* Hardware CPUs: no host. */
	ck_assert(!host_overcommitted(s, 8));
	ck_assert_double_eq(host_rotation_wait_ns(s, 7, 8), 0);
	/* As many runnable vCPUs as cores, or no target. */
	s->p.v[P_HOST_CPUS] = 2;
	ck_assert(!host_overcommitted(s, 2));
	ck_assert(host_overcommitted(s, 3));
	ck_assert_double_eq(host_rotation_wait_ns(s, 1, 2), 0);
	ck_assert_double_eq(host_rotation_wait_ns(s, 0, 8), 0);
	free(s);
}
END_TEST

START_TEST(test_host_sched_halted_targets_do_not_wait)
{
	struct sim *s = host(2, 8);

	/* Targets beyond the 3 busy others were halted: they add nothing. */
	ck_assert_double_eq_tol(host_rotation_wait_ns(s, 7, 4),
				host_rotation_wait_ns(s, 3, 4), 1e-6);
	/* More targets never wait less, more busy vCPUs neither. */
	ck_assert(host_rotation_wait_ns(s, 3, 8) > host_rotation_wait_ns(s, 2, 8));
	ck_assert(host_rotation_wait_ns(s, 3, 8) > host_rotation_wait_ns(s, 3, 6));
	free(s);
}
END_TEST

START_TEST(test_host_sched_running_vcpus)
{
	struct sim *s = host(2, 8);

	ck_assert_uint_eq(sim_running_vcpus(s), 8);
	s->nr_lazy = 3;
	ck_assert_uint_eq(sim_running_vcpus(s), 5);
	/* More threads than vCPUs: the vCPUs are what the host runs. */
	s->nr_threads = 20;
	ck_assert_uint_eq(sim_running_vcpus(s), 5);
	s->nr_lazy = 9;
	ck_assert_uint_eq(sim_running_vcpus(s), 0);
	free(s);
}
END_TEST

static Suite *host_sched_suite(void)
{
	Suite *su = suite_create("sim_host_sched");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_host_sched_matches_a_host_played_out);
	tcase_add_test(tc, test_host_sched_draws_spread_as_a_host_does);
	tcase_add_test(tc, test_host_sched_three_of_four_by_hand);
	tcase_add_test(tc, test_host_sched_corun_by_hand);
	tcase_add_test(tc, test_host_sched_nothing_waits);
	tcase_add_test(tc, test_host_sched_halted_targets_do_not_wait);
	tcase_add_test(tc, test_host_sched_running_vcpus);
	suite_add_tcase(su, tc);
	return su;
}

int main(void)
{
	return run_suite(host_sched_suite());
}
