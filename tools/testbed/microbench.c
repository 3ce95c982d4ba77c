// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The testbed machine's costs, measured from inside the guest, for the
 * tlbsim machine profile (docs/results.md, "Against a real kernel"). Each
 * figure is the median of many repetitions of one operation, or a
 * difference of two such medians:
 *
 *   shootdown_{0,1,3,7}_ns   mprotect() downgrade + upgrade of one present
 *                            page (two flushes), per flush, with 0, 1, 3 or
 *                            7 threads of the same mm spinning on other CPUs
 *   shootdown_far_ns         the same with 1 thread on the other node
 *   ipi_first_ns             shootdown_1 - shootdown_0: the first remote
 *                            target's round trip (send, handler, ack)
 *   ipi_extra_ns             (shootdown_3 - shootdown_1) / 2: each further
 *                            same-node target
 *   ipi_socket_ns            shootdown_far - shootdown_1: the other node
 *   fault_ns                 a read fault that maps the zero page: trap,
 *                            walk, PTE install under the PTE lock, return;
 *                            the work of a NUMA hint fault that does not
 *                            migrate
 *   copy_4k_ns               memcpy() of a cache-cold 4 KiB page
 *   migrate_page_ns          move_pages() of 64 pages to the other node,
 *                            per page (unmap, one batched flush, copy,
 *                            remap), with no other thread in the mm
 *   tlb_irqs_per_shootdown   TLB interrupts counted per flush with 7
 *                            remote threads (checks the IPIs happened)
 *
 * Output: one "@@micro key=value ..." line. Usage: microbench [reps=N]
 */
#include "tb_common.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_SPINNERS 7
#define MOVE_BATCH 64
#define COPY_POOL (64UL << 20)

static volatile int spin_stop;

static void *spinner(void *arg)
{
	tb_pin_to_cpu((int)(long)arg);
	while (!spin_stop)
		__asm__ volatile("" ::: "memory");
	return NULL;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return v[n / 2];
}

static long tlb_irqs(void)
{
	char line[4096];
	long sum = -1;
	FILE *f = fopen("/proc/interrupts", "r");

	while (f && fgets(line, sizeof(line), f)) {
		char *p = line;

		while (*p == ' ')
			p++;
		if (strncmp(p, "TLB:", 4))
			continue;
		sum = 0;
		for (p += 4;;) {
			char *end;
			long v = strtol(p, &end, 10);

			if (end == p)
				break;
			sum += v;
			p = end;
		}
	}
	if (f)
		fclose(f);
	return sum;
}

/* Median ns per flush of a one-page mprotect() downgrade/upgrade pair,
 * with the given remote CPUs spinning in this mm. */
static double shootdown_ns(const int *cpus, int nr, unsigned int reps, double *irqs)
{
	pthread_t tid[MAX_SPINNERS];
	double *t = calloc(reps, sizeof(*t));
	char *page = mmap(NULL, TB_PAGE_SIZE, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long irq0;
	double m;

	spin_stop = 0;
	for (int i = 0; i < nr; i++)
		pthread_create(&tid[i], NULL, spinner, (void *)(long)cpus[i]);
	page[0] = 1;
	tb_sleep_ms(200); /* let the spinners reach their CPUs */
	irq0 = tlb_irqs();
	for (unsigned int r = 0; r < reps; r++) {
		double t0 = tb_now();

		mprotect(page, TB_PAGE_SIZE, PROT_READ);
		mprotect(page, TB_PAGE_SIZE, PROT_READ | PROT_WRITE);
		t[r] = (tb_now() - t0) * 1e9 / 2;
	}
	if (irqs)
		*irqs = (double)(tlb_irqs() - irq0) / (2.0 * reps);
	spin_stop = 1;
	for (int i = 0; i < nr; i++)
		pthread_join(tid[i], NULL);
	munmap(page, TB_PAGE_SIZE);
	m = median(t, reps);
	free(t);
	return m;
}

static double fault_ns(unsigned int reps)
{
	size_t n = reps;
	volatile char *buf = mmap(NULL, n * TB_PAGE_SIZE, PROT_READ,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	double t0, dt;
	char sink = 0;

	t0 = tb_now();
	for (size_t i = 0; i < n; i++)
		sink += buf[i * TB_PAGE_SIZE];
	dt = tb_now() - t0;
	(void)sink;
	munmap((void *)buf, n * TB_PAGE_SIZE);
	return dt * 1e9 / (double)n;
}

static double copy_ns(unsigned int reps)
{
	char *pool = malloc(COPY_POOL), dst[TB_PAGE_SIZE];
	size_t pages = COPY_POOL / TB_PAGE_SIZE;
	double *t = calloc(reps, sizeof(*t)), m;

	memset(pool, 1, COPY_POOL);
	for (unsigned int r = 0; r < reps; r++) {
		/* A stride through 64 MiB: each source page is cold. */
		char *src = pool + ((size_t)r * 4099 % pages) * TB_PAGE_SIZE;
		double t0 = tb_now();

		memcpy(dst, src, TB_PAGE_SIZE);
		__asm__ volatile("" : : "r"(dst) : "memory");
		t[r] = (tb_now() - t0) * 1e9;
	}
	m = median(t, reps);
	free(t);
	free(pool);
	return m;
}

static double migrate_ns(unsigned int reps)
{
	size_t len = MOVE_BATCH * TB_PAGE_SIZE;
	char *buf = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	void *addrs[MOVE_BATCH];
	int to[MOVE_BATCH], status[MOVE_BATCH];
	double *t = calloc(reps, sizeof(*t)), m;

	madvise(buf, len, MADV_NOHUGEPAGE);
	memset(buf, 1, len);
	for (int i = 0; i < MOVE_BATCH; i++)
		addrs[i] = buf + (size_t)i * TB_PAGE_SIZE;
	for (unsigned int r = 0; r < reps; r++) {
		double t0;

		for (int i = 0; i < MOVE_BATCH; i++)
			to[i] = (int)((r + 1) % 2);
		t0 = tb_now();
		syscall(SYS_move_pages, 0, MOVE_BATCH, addrs, to, status, 0);
		t[r] = (tb_now() - t0) * 1e9 / MOVE_BATCH;
	}
	m = median(t, reps);
	free(t);
	munmap(buf, len);
	return m;
}

int main(int argc, char **argv)
{
	struct tb_nodes nodes;
	unsigned int reps = 2000;
	int near[MAX_SPINNERS], far[1], all[MAX_SPINNERS];
	double s0, s1, s3, s7, sfar, irqs7;

	for (int a = 1; a < argc; a++) {
		if (!strncmp(argv[a], "reps=", 5) && atoi(argv[a] + 5) > 10) {
			reps = (unsigned int)atoi(argv[a] + 5);
		} else {
			fprintf(stderr, "usage: microbench [reps=N (>10)]\n");
			return 2;
		}
	}
	if (tb_nodes_read(&nodes) || nodes.nr_cpus[0] < 4 || nodes.nr_cpus[1] < 4) {
		fprintf(stderr, "microbench: needs two nodes of at least 4 CPUs\n");
		return 2;
	}
	/* This thread on node 0's first CPU; the others around it. */
	tb_pin_to_cpu(tb_node_cpu(&nodes, 0, 0));
	for (int i = 0; i < 3; i++)
		near[i] = tb_node_cpu(&nodes, 0, i + 1);
	far[0] = tb_node_cpu(&nodes, 1, 0);
	for (int i = 0; i < MAX_SPINNERS; i++)
		all[i] = i < 3 ? near[i] : tb_node_cpu(&nodes, 1, i - 3);

	s0 = shootdown_ns(NULL, 0, reps, NULL);
	s1 = shootdown_ns(near, 1, reps, NULL);
	s3 = shootdown_ns(near, 3, reps, NULL);
	sfar = shootdown_ns(far, 1, reps, NULL);
	s7 = shootdown_ns(all, MAX_SPINNERS, reps, &irqs7);
	printf("@@micro reps=%u shootdown_0_ns=%.0f shootdown_1_ns=%.0f shootdown_3_ns=%.0f "
	       "shootdown_7_ns=%.0f shootdown_far_ns=%.0f ipi_first_ns=%.0f ipi_extra_ns=%.0f "
	       "ipi_socket_ns=%.0f tlb_irqs_per_shootdown=%.2f fault_ns=%.0f copy_4k_ns=%.0f "
	       "migrate_page_ns=%.0f\n",
	       reps, s0, s1, s3, s7, sfar, s1 - s0, (s3 - s1) / 2, sfar - s1, irqs7,
	       fault_ns(reps * 4), copy_ns(reps), migrate_ns(reps / 10));
	return 0;
}
