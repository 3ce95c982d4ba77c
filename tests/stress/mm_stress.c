// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Concurrency stress of the mm's batched-flush generation pair.
 *
 * Producers play reclaim: each clears a "PTE" (marks its entry stale: some
 * CPU may still cache it), then defers the flush by bumping the mm's
 * pending generation, then records the entry as deferred. Consumers play
 * mprotect/munmap on another PTL: they drain with the batched-pending flush,
 * whose flush_mm clears every entry stale at the time it runs.
 *
 * The checker, in each consumer: every entry recorded as deferred before a
 * drain began must be flushed when that drain returns. A drain that skips
 * an outstanding flush, or marks flushed a generation it did not flush,
 * fails it.
 *
 * The pair has 15 bits per generation, like the kernel's tlb_flush_batched:
 * if more than TLBP_MM_GEN_PENDING_LARGE deferrals land while one drain is
 * between reading the word and its compare-and-swap, the word can come back
 * to the value the drain read (ABA) and the swap marks flushed what the
 * drain never saw. In the kernel the drainer holds the PTL with preemption
 * off, so that window is one flush long; here a descheduled drainer can
 * stretch it to milliseconds. A consumer's check can see another
 * consumer's ABA (that drain's swap left the word "nothing outstanding"),
 * so a stale entry is excused only if some drain whose window held more
 * than that many deferrals ended after the entry was deferred; such
 * drains are counted and reported, and every other stale entry fails.
 *
 * Usage: mm_stress [--naive] [--seconds S]
 *   --naive replaces the generation pair with a plain set/clear flag (the
 *   pre-2021 scheme); the checker must catch it losing a flush (exit 1).
 * Exit: 0 no lost flush, 1 a lost flush (the first is described), 2 usage.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <tlbpolicy/mm.h>

#define NR_PRODUCERS 2
#define NR_CONSUMERS 2
#define MAX_ENTRIES (1 << 20)

struct producer_log {
	atomic_uchar stale[MAX_ENTRIES];
	atomic_uint published; /* entries whose stale flag is set */
	atomic_uint deferred;  /* entries whose flush was deferred */
	atomic_uint flushed_low; /* below this, every entry has been flushed */
};

static struct producer_log logs[NR_PRODUCERS];
/* Drains whose window held more deferrals than a generation can count. */
static atomic_uint wrapped_windows;
/* Per consumer: odd while draining, so others can wait for it to finish. */
static atomic_uint drain_seq[NR_CONSUMERS];
static struct tlbp_mm mm;
static atomic_int naive_flag;
static atomic_bool stop, lost;
static bool naive;
static char lost_what[160];

/* Clears every entry that was stale when the flush started. */
static void flush_everything(void)
{
	unsigned int p, i;

	for (p = 0; p < NR_PRODUCERS; p++) {
		unsigned int hi = atomic_load(&logs[p].published);
		unsigned int lo = atomic_load(&logs[p].flushed_low);

		for (i = lo; i < hi; i++)
			atomic_store(&logs[p].stale[i], 0);
		/* Raise the watermark; concurrent flushers only ever raise it. */
		while (lo < hi && !atomic_compare_exchange_weak(&logs[p].flushed_low, &lo, hi))
			;
	}
	/* Widen the window in which producers race with the flush. */
	sched_yield();
}

static int op_flush(void *ctx, const struct tlbp_flush_req *req)
{
	(void)ctx;
	(void)req;
	return 0;
}

static int op_flush_mm(void *ctx, struct tlbp_mm *m)
{
	(void)ctx;
	(void)m;
	flush_everything();
	return 0;
}

static const struct tlbp_flush_ops ops = { .flush = op_flush, .flush_mm = op_flush_mm };

static void defer_flush(void)
{
	if (naive)
		atomic_store(&naive_flag, 1);
	else
		tlbp_mm_mark_batched_pending(&mm);
}

static void drain(void)
{
	if (!naive) {
		tlbp_mm_flush_batched_pending(&mm, NULL);
		return;
	}
	if (atomic_load(&naive_flag)) {
		flush_everything();
		atomic_store(&naive_flag, 0); /* erases a deferral made meanwhile */
	}
}

static void *producer(void *arg)
{
	struct producer_log *log = arg;
	unsigned int id;

	for (id = 0; id < MAX_ENTRIES && !atomic_load(&stop); id++) {
		atomic_store(&log->stale[id], 1);        /* PTE cleared, maybe cached */
		atomic_store(&log->published, id + 1);
		defer_flush();                           /* set_tlb_ubc_flush_pending */
		atomic_store(&log->deferred, id + 1);
		if ((id & 63) == 0)
			sched_yield();
	}
	return NULL;
}

static unsigned int total_deferred(void)
{
	unsigned int p, total = 0;

	for (p = 0; p < NR_PRODUCERS; p++)
		total += atomic_load(&logs[p].deferred);
	return total;
}

/* Wait until every other consumer has finished the drain it is in, so
 * that any wrapped window it had is counted. */
static void wait_for_other_drains(unsigned int self)
{
	unsigned int c, seq;

	for (c = 0; c < NR_CONSUMERS; c++) {
		if (c == self)
			continue;
		seq = atomic_load(&drain_seq[c]);
		while ((seq & 1) && atomic_load(&drain_seq[c]) == seq &&
		       !atomic_load(&stop))
			sched_yield();
	}
}

/* A stale entry deferred after @wraps_before was read: lost, or excused by
 * a drain whose window spanned a generation wrap since then. */
static bool excused(unsigned int self, unsigned int wraps_before)
{
	if (naive)
		return false;
	wait_for_other_drains(self);
	return atomic_load(&wrapped_windows) != wraps_before;
}

static void *consumer(void *arg)
{
	unsigned int self = (unsigned int)(uintptr_t)arg;
	unsigned int checked[NR_PRODUCERS] = { 0 }, before[NR_PRODUCERS], p, i;
	unsigned int start, wraps_now, wraps_before = 0;

	while (!atomic_load(&stop)) {
		/* Read before the snapshot: the next iteration checks entries
		 * deferred after it, against wraps counted since. */
		wraps_now = atomic_load(&wrapped_windows);
		start = total_deferred();
		for (p = 0; p < NR_PRODUCERS; p++)
			before[p] = atomic_load(&logs[p].deferred);
		atomic_fetch_add(&drain_seq[self], 1);
		drain();
		/* A deferral's count lags its bump: allow each producer one. */
		if (!naive && total_deferred() - start + NR_PRODUCERS >= TLBP_MM_GEN_PENDING_LARGE)
			atomic_fetch_add(&wrapped_windows, 1);
		atomic_fetch_add(&drain_seq[self], 1);
		for (p = 0; p < NR_PRODUCERS; p++) {
			for (i = checked[p]; i < before[p]; i++) {
				if (!atomic_load(&logs[p].stale[i]))
					continue;
				if (excused(self, wraps_before))
					break;
				if (!atomic_exchange(&lost, true))
					snprintf(lost_what, sizeof(lost_what),
						 "entry %u of producer %u deferred before a drain, "
						 "still stale after it", i, p);
				atomic_store(&stop, true);
				return NULL;
			}
			checked[p] = before[p];
		}
		wraps_before = wraps_now;
	}
	return NULL;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	pthread_t prod[NR_PRODUCERS], cons[NR_CONSUMERS];
	double seconds = 3, t0;
	unsigned int i, total = 0;

	for (i = 1; i < (unsigned int)argc; i++) {
		if (!strcmp(argv[i], "--naive"))
			naive = true;
		else if (!strcmp(argv[i], "--seconds") && i + 1 < (unsigned int)argc)
			seconds = atof(argv[++i]);
		else {
			fprintf(stderr, "usage: mm_stress [--naive] [--seconds S]\n");
			return 2;
		}
	}
	if (tlbp_mm_init(&mm, &ops, NULL)) {
		fprintf(stderr, "mm_stress: tlbp_mm_init failed\n");
		return 2;
	}
	t0 = now();
	for (i = 0; i < NR_PRODUCERS; i++)
		pthread_create(&prod[i], NULL, producer, &logs[i]);
	for (i = 0; i < NR_CONSUMERS; i++)
		pthread_create(&cons[i], NULL, consumer, (void *)(uintptr_t)i);
	while (!atomic_load(&stop) && now() - t0 < seconds) {
		struct timespec nap = { 0, 10 * 1000 * 1000 };

		nanosleep(&nap, NULL);
	}
	atomic_store(&stop, true);
	for (i = 0; i < NR_PRODUCERS; i++)
		pthread_join(prod[i], NULL);
	for (i = 0; i < NR_CONSUMERS; i++)
		pthread_join(cons[i], NULL);
	for (i = 0; i < NR_PRODUCERS; i++)
		total += atomic_load(&logs[i].deferred);
	printf("mm_stress (%s): %u deferrals in %.1f s: %s (%u drains spanned a generation wrap)\n",
	       naive ? "naive flag" : "generation pair", total, now() - t0,
	       atomic_load(&lost) ? lost_what : "no lost flush",
	       atomic_load(&wrapped_windows));
	return atomic_load(&lost) ? 1 : 0;
}
