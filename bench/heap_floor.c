// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The event-queue floor of tlbsim: what its own heap (tools/tlbsim/heap.c)
 * does per second when every pop schedules one event, the queue held at
 * the size a run keeps (one pending access per thread plus a few), with
 * and without one exponential draw per event for the next time. A run
 * cannot process events faster than this; tlbsim-bench.sh prints each
 * run's rate as a fraction of it.
 *
 * With PAGE_MIB and TLB_MIB, a third rate adds what no model of a large
 * machine can skip: each event's page state, one random 8-byte word in a
 * PAGE_MIB array (tlbsim's page array), and its CPU's TLB set, a random
 * 128-byte set in a TLB_MIB array, both prefetched eight events at a time
 * when the event is queued and again just before it runs, as tlbsim does.
 * It bounds what any run at that size can reach.
 *
 * Usage: heap_floor [QUEUE_LEN [EVENTS [PAGE_MIB TLB_MIB]]]
 *        (defaults: 400, 40000000, no memory floor)
 * Prints "heap_floor_events_per_s N", "heap_floor_rng_events_per_s N"
 * and, given the sizes, "heap_floor_mem_events_per_s N".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include "heap.h"
#include "rng.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Events per second of @n pops each followed by a push; @draw adds one
 * exponential draw per event (the access stream's gap). */
static double rate(size_t len, uint64_t n, int draw)
{
	struct event_heap h;
	struct rng r;
	struct event ev;
	uint64_t i, sink = 0, lcg = 1;
	double t0;

	rng_seed(&r, 1);
	if (heap_init(&h, len))
		return 0;
	for (i = 0; i < len; i++)
		heap_push(&h, rng_next(&r) >> 40, 0, (uint32_t)i, 0);
	t0 = now_s();
	for (i = 0; i < n && heap_pop(&h, &ev); i++) {
		uint64_t gap;

		/* Without the draw, an LCG step: times still arrive in random
		 * order, which is what the heap's cost depends on. */
		lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
		gap = draw ? (uint64_t)rng_exp(&r, 2.5e6) + 1 : (lcg >> 42) + 1;

		sink += ev.arg;
		heap_push(&h, ev.time + gap, ev.kind, ev.arg, ev.arg2);
	}
	t0 = now_s() - t0;
	heap_free(&h);
	/* Keeps the loop's result live. */
	if (sink == 1)
		fputc('\n', stderr);
	return t0 > 0 ? (double)i / t0 : 0;
}

/* A TLB set: eight 16-byte ways, two cache lines. */
struct mem_set {
	uint64_t key_gen[16];
};

/*
 * rate() with the draw, plus each event's two random lines: the page's
 * word and its set (searched for the page's key like a lookup), in
 * arrays of @page_bytes and @tlb_bytes. An event's lines are drawn when
 * it is queued, prefetched eight events at a time then, and once more
 * when it reaches the queue's head.
 */
static double rate_mem(size_t len, uint64_t n, size_t page_bytes, size_t tlb_bytes)
{
	uint64_t nr_pages = page_bytes / sizeof(uint64_t), nr_sets = tlb_bytes / sizeof(struct mem_set);
	size_t huge = (size_t)1 << 21;
	size_t page_alloc = (page_bytes + huge - 1) & ~(huge - 1);
	size_t set_alloc = (tlb_bytes + huge - 1) & ~(huge - 1);
	uint64_t *page = aligned_alloc(huge, page_alloc ? page_alloc : huge);
	struct mem_set *set = aligned_alloc(huge, set_alloc ? set_alloc : huge);
	const void *burst[24];
	unsigned int queued = 0, w;
	struct event_heap h;
	struct rng r;
	struct event ev;
	uint64_t i, sink = 0;
	double t0 = 0;

	if (!page || !set || !nr_pages || !nr_sets || heap_init(&h, len))
		goto out;
	/* On 2 MiB host pages where the host allows, as tlbsim's arrays. */
	(void)madvise(page, page_alloc, MADV_HUGEPAGE);
	(void)madvise(set, set_alloc, MADV_HUGEPAGE);
	memset(page, 1, page_bytes);
	memset(set, 0, tlb_bytes);
	rng_seed(&r, 1);
	for (i = 0; i < len; i++)
		heap_push(&h, rng_next(&r) >> 40, 0, (uint32_t)i, rng_below(&r, nr_pages));
	t0 = now_s();
	for (i = 0; i < n && heap_pop(&h, &ev); i++) {
		const struct mem_set *st = &set[ev.arg2 % nr_sets];
		uint64_t next;

		if (h.len) { /* the next event's lines, just in time */
			const char *next_set = (const char *)&set[h.ev[0].arg2 % nr_sets];

			__builtin_prefetch(&page[h.ev[0].arg2]);
			__builtin_prefetch(next_set);
			__builtin_prefetch(next_set + 64);
		}
		sink += page[ev.arg2];
		for (w = 0; w < 16; w += 2)
			sink += st->key_gen[w] == ev.arg2;
		next = rng_below(&r, nr_pages);
		/* Eight events' lines at a time: the page's and the set's two. */
		burst[queued++] = &page[next];
		burst[queued++] = &set[next % nr_sets];
		burst[queued++] = (const char *)&set[next % nr_sets] + 64;
		if (queued == 24) {
			for (w = 0; w < 24; w++)
				__builtin_prefetch(burst[w]);
			queued = 0;
		}
		heap_push(&h, ev.time + (uint64_t)rng_exp(&r, 2.5e6) + 1, ev.kind, ev.arg, next);
	}
	t0 = now_s() - t0;
	heap_free(&h);
	if (sink == 1)
		fputc('\n', stderr);
out:
	free(page);
	free(set);
	return t0 > 0 ? (double)i / t0 : 0;
}

int main(int argc, char **argv)
{
	size_t len = argc > 1 ? strtoull(argv[1], NULL, 0) : 400;
	uint64_t n = argc > 2 ? strtoull(argv[2], NULL, 0) : 40000000;
	uint64_t page_mib = argc > 4 ? strtoull(argv[3], NULL, 0) : 0;
	uint64_t tlb_mib = argc > 4 ? strtoull(argv[4], NULL, 0) : 0;
	double best = 0, best_rng = 0, r;
	int k;

	/* The sizes come as a pair, each at most 1 TiB. */
	if (!len || !n || argc == 4 || argc > 5 ||
	    (argc == 5 && (!page_mib || !tlb_mib || page_mib > (1u << 20) || tlb_mib > (1u << 20)))) {
		fprintf(stderr, "usage: heap_floor [QUEUE_LEN [EVENTS [PAGE_MIB TLB_MIB]]]\n");
		return 2;
	}
	/* Best of three: on a loaded machine the minimum time is the cost. */
	for (k = 0; k < 3; k++) {
		r = rate(len, n, 0);
		best = r > best ? r : best;
		r = rate(len, n, 1);
		best_rng = r > best_rng ? r : best_rng;
	}
	printf("heap_floor_events_per_s %.0f\n", best);
	printf("heap_floor_rng_events_per_s %.0f\n", best_rng);
	if (argc > 4) {
		size_t mib = (size_t)1 << 20;
		double best_mem = 0;

		for (k = 0; k < 3; k++) {
			r = rate_mem(len, n / 4, page_mib * mib, tlb_mib * mib);
			best_mem = r > best_mem ? r : best_mem;
		}
		printf("heap_floor_mem_events_per_s %.0f\n", best_mem);
	}
	return 0;
}
