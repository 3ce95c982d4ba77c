// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * THP fault-and-split, in the spirit of mmtests' thpscale: every thread,
 * pinned to its own CPU so that the mm is live on all of them, loops over
 *
 *   mmap nr_thp x 2 MiB, write every page (THP faults, THP "always"),
 *   mprotect one page of each THP and back (the PMD is split: the THP is
 *   now PTE-mapped), write every page again, split every THP through
 *   /sys/kernel/debug/split_huge_pages (unmap_folio: the split policy),
 *   munmap.
 *
 * The split of a PTE-mapped THP clears 512 accessible PTEs: flushed one by
 * one (per-pte, before v6.7) that is 512 shootdowns, batched it is one.
 *
 * Usage: thp_split [threads=N] [nr_thp=N] [warmup=S] [window=S]
 */
#include "tb_common.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define THP_SIZE (2UL << 20)
#define MAX_THREADS 64
#define SPLIT_FILE "/sys/kernel/debug/split_huge_pages"

struct stats {
	unsigned long iterations, splits, failures;
	unsigned long split_ns;	/* time spent in the split writes */
};

static volatile int stop;
static unsigned int nr_thp = 4;

/*
 * Stores only: a read first would map the huge zero page, and the write
 * would then fall back to small pages, copying each with a flush.
 */
static void write_pages(char *p, size_t len, char val)
{
	for (size_t off = 0; off < len; off += TB_PAGE_SIZE)
		((volatile char *)p)[off] = val;
}

static int split_range(uintptr_t start, uintptr_t end)
{
	char buf[96];
	int n = snprintf(buf, sizeof(buf), "%d,0x%" PRIxPTR ",0x%" PRIxPTR,
			 (int)getpid(), start, end);
	FILE *f = fopen(SPLIT_FILE, "w");
	int err;

	if (!f)
		return -1;
	err = fwrite(buf, 1, n, f) != (size_t)n;
	err |= fclose(f) != 0;
	return err ? -1 : 0;
}

static void *worker(void *arg)
{
	struct stats *st = arg;
	size_t len = nr_thp * THP_SIZE;

	while (!stop) {
		char *map = mmap(NULL, len + THP_SIZE, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		char *p;
		double t0;

		if (map == MAP_FAILED)
			break;
		p = (char *)(((uintptr_t)map + THP_SIZE - 1) & ~(THP_SIZE - 1));
		write_pages(p, len, 1);
		for (unsigned int i = 0; i < nr_thp; i++) {
			char *page = p + i * THP_SIZE + THP_SIZE / 2;

			mprotect(page, TB_PAGE_SIZE, PROT_READ);
			mprotect(page, TB_PAGE_SIZE, PROT_READ | PROT_WRITE);
		}
		write_pages(p, len, 2);
		t0 = tb_now();
		if (split_range((uintptr_t)p, (uintptr_t)p + len))
			__atomic_add_fetch(&st->failures, 1, __ATOMIC_RELAXED);
		__atomic_add_fetch(&st->split_ns,
				   (unsigned long)((tb_now() - t0) * 1e9),
				   __ATOMIC_RELAXED);
		__atomic_add_fetch(&st->splits, nr_thp, __ATOMIC_RELAXED);
		__atomic_add_fetch(&st->iterations, 1, __ATOMIC_RELAXED);
		munmap(map, len + THP_SIZE);
	}
	return NULL;
}

struct worker_arg {
	struct stats st;
	int cpu;
};

static void *worker_pinned(void *arg)
{
	struct worker_arg *wa = arg;

	tb_pin_to_cpu(wa->cpu);
	return worker(&wa->st);
}

static void sum(const struct worker_arg *wa, unsigned int n, struct stats *out)
{
	memset(out, 0, sizeof(*out));
	for (unsigned int i = 0; i < n; i++) {
		out->iterations += __atomic_load_n(&wa[i].st.iterations, __ATOMIC_RELAXED);
		out->splits += __atomic_load_n(&wa[i].st.splits, __ATOMIC_RELAXED);
		out->failures += __atomic_load_n(&wa[i].st.failures, __ATOMIC_RELAXED);
		out->split_ns += __atomic_load_n(&wa[i].st.split_ns, __ATOMIC_RELAXED);
	}
}

int main(int argc, char **argv)
{
	unsigned int threads = 8, warmup = 3, window = 30;
	struct worker_arg wa[MAX_THREADS];
	pthread_t tids[MAX_THREADS];
	struct stats a, b;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	for (int i = 1; i < argc; i++) {
		unsigned long v = strtoul(strchr(argv[i], '=') ? strchr(argv[i], '=') + 1 : "", NULL, 10);

		if (!strncmp(argv[i], "threads=", 8))
			threads = v;
		else if (!strncmp(argv[i], "nr_thp=", 7))
			nr_thp = v;
		else if (!strncmp(argv[i], "warmup=", 7))
			warmup = v;
		else if (!strncmp(argv[i], "window=", 7))
			window = v;
		else {
			fprintf(stderr, "usage: thp_split [threads=N] [nr_thp=N] [warmup=S] [window=S]\n");
			return 2;
		}
	}
	if (!threads || threads > MAX_THREADS || !nr_thp || ncpu < 1)
		return 2;
	/* "always", not MADV_HUGEPAGE: tinyconfig has no madvise(2). */
	tb_write_file("/sys/kernel/mm/transparent_hugepage/enabled", "always");
	tb_write_file("/sys/kernel/mm/transparent_hugepage/hugepages-2048kB/enabled", "inherit");
	tb_write_file("/sys/kernel/mm/transparent_hugepage/hugepages-64kB/enabled", "never");
	printf("@@params threads=%u nr_thp=%u warmup=%u window=%u\n", threads,
	       nr_thp, warmup, window);
	fflush(stdout);
	memset(wa, 0, sizeof(wa));
	for (unsigned int i = 0; i < threads; i++) {
		wa[i].cpu = (int)(i % ncpu);
		pthread_create(&tids[i], NULL, worker_pinned, &wa[i]);
	}
	tb_sleep_ms(warmup * 1000);
	sum(wa, threads, &a);
	tb_snapshot("begin");
	tb_sleep_ms(window * 1000);
	tb_snapshot("end");
	sum(wa, threads, &b);
	stop = 1;
	for (unsigned int i = 0; i < threads; i++)
		pthread_join(tids[i], NULL);
	printf("@@result splits=%lu iterations=%lu split_failures=%lu split_ms_per_thp=%.3f\n",
	       b.splits - a.splits, b.iterations - a.iterations,
	       b.failures - a.failures,
	       b.splits > a.splits ?
	       (double)(b.split_ns - a.split_ns) / 1e6 / (double)(b.splits - a.splits) :
	       0.0);
	return 0;
}
