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
 *   ipi_extra7_ns            (shootdown_7 - shootdown_1) / 6: the same from
 *                            seven targets, the workloads' case; with 8
 *                            vCPUs on fewer host cores the round trip is
 *                            not linear in the targets, so the two differ
 *   ipi_socket_ns            shootdown_far - shootdown_1: the other node
 *   shootdown_{1,3}_loaded_ns
 *                            shootdown_1 and _3 again while other
 *                            processes keep the rest of the vCPUs busy
 *                            (8 runnable, as under the workloads): a
 *                            target answers when the host runs its
 *                            thread, so these test tlbsim's model of the
 *                            host (host_sched.c), which the unloaded
 *                            shootdowns calibrate
 *   shootdown_*_mean_ns      the mean of some of these: a median hides the
 *                            few flushes that wait for the host
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
 *   protnone_pte_ns          mprotect(PROT_NONE) of 64 MiB of present
 *                            pages, per PTE: change_pte_range()'s loop,
 *                            which the NUMA scanner runs too
 *   *_loaded_ns              fault, migrate_page and protnone_pte again
 *                            while 7 other processes keep the other vCPUs
 *                            busy (another mm: no shootdown reaches them),
 *                            as the workloads do: 8 vCPU threads then share
 *                            the host's cores, and wall time stretches
 *   tlb_refill_loaded_ns     one pass of that loop over 32 MiB right after
 *                            a full flush, less a pass with the TLB warm,
 *                            per page, other vCPUs busy: what a page's
 *                            translation costs to walk again after a flush
 *   warm_pass_loaded_ns      that warm pass itself, per page
 *   *_192_loaded_ns          both again over 192 MiB, a stable thread's
 *                            part: if the TLB (qemu's software TLB, sized
 *                            at each flush) cannot keep that many
 *                            translations, the warm pass costs what the
 *                            cold one does and the refill reads near 0
 *   sweep_walk_ns_per_page   8 threads, one per CPU, each writing one byte
 *                            per 4 KiB page of its own 32 MiB in a loop
 *                            (numa_regions' access), NUMA balancing off:
 *                            ns per page per thread, every page walked.
 *                            Every sweep below starts with the vCPUs'
 *                            TLBs back at their boot size
 *                            (tb_tlb_shrink()), whatever ran before. Until
 *                            2026-12-06 none did, and this figure was
 *                            sweep_ns_per_page: the refill passes had
 *                            grown this thread's CPU's TLB, its sweeper
 *                            hit while the other seven walked, and the
 *                            rate of all eight read 3 to 4 times under a
 *                            walk (docs/data/testbed-sweep-mix.md)
 *   sweep_mixed_{32,192}_ns_per_page
 *                            the same loop in numa_regions' private mix:
 *                            four threads over 32 MiB and four over
 *                            192 MiB at once, each on the node the
 *                            workload starts it on; ns per page of the
 *                            32 MiB sweepers and of the 192 MiB ones
 *   sweep_grown_{32,192}_ns_per_page, sweep_grown_flush_irqs
 *                            that mix again after 16 full flushes of
 *                            every vCPU of the mm, 100 ms apart, and none
 *                            while counted: qemu doubles a vCPU's TLB at
 *                            a full flush that finds it 70% used, so the
 *                            TLBs grow to hold their parts (8 doublings
 *                            from 2^8 slots reach 2^16, a 192 MiB part)
 *                            and the sweeps hit, as under NUMA balancing
 *                            between two of its rare full flushes; and
 *                            the TLB interrupts the flushes made, per
 *                            flush (checks they reached the sweepers)
 *   sweep_flushed_{32,192}_ns_per_page, sweep_flushed_interval_ms
 *                            the same with a pair of full flushes every
 *                            10 ms while counted too, about the rate a
 *                            vCPU meets under NUMA balancing's storms,
 *                            and the interval the guest kept (its sleeps
 *                            may run long)
 *   sweep_pinged_{32,192}_ns_per_page, sweep_pinged_interval_ms,
 *   sweep_pinged_flush_irqs
 *                            the same again, but each flush while counted
 *                            changes one page: every vCPU of the mm still
 *                            takes the interrupt, and invalidates that
 *                            page alone, so the TLBs keep their parts;
 *                            what the sweepers lose here is the
 *                            interrupt's cost, not the full flush's
 *   split_thp_{batched,per_pte}_ns
 *                            one round of thp_split's loop by a lone
 *                            process, the rest of the guest idle: the
 *                            write to split_huge_pages that splits 4
 *                            PTE-mapped THPs, per THP, under each split
 *                            policy; the mm is live on this CPU only, so
 *                            every flush is local and the two differ by
 *                            511 local one-page flushes
 *   wake_ns                  a thread asleep in read() on another vCPU
 *                            of the same node, the rest of the guest
 *                            idle: from the write() that wakes it to its
 *                            own write() back, half a pipe ping-pong
 *                            round trip (both sides sleep in between, so
 *                            each wake-up is of a halted vCPU)
 *   thp_round_{fault,mprotect,rewrite}_ns, thp_round_munmap_ns
 *                            the rest of that round under the batched
 *                            policy, per THP: the first write pass (the
 *                            THP faults: allocation and clearing), the
 *                            mprotect() pair that splits the PMD, the
 *                            second write pass; and the munmap() of the
 *                            round's 4 THPs, per round (tlbsim's model of
 *                            thp_split, where the rest of the guest is
 *                            mostly asleep on the mm's locks)
 *
 * Output: one "@@micro key=value ..." line. Usage: microbench [reps=N] [speed]
 *
 * "microbench speed" measures only tlb_refill_loaded_ns, sweep_walk_ns_per_page
 * and sweep_grown_{32,192}_ns_per_page, the profile's memory-bound costs,
 * in about 15 s, and prints them on a "@@speed" line: /init runs it after
 * every testbed workload, so that each run records how fast its host ran
 * the guest (the same kernel on a host with slower memory swept 3 times
 * slower, docs/data/testbed-sweep-mix.md).
 */
#include "tb_common.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_SPINNERS 7
#define MOVE_BATCH 64
#define COPY_POOL (64UL << 20)
#define PROT_REGION (64UL << 20)
#define SWEEP_PART (32UL << 20)
/* numa_regions' stable thread part, the largest a thread sweeps. */
#define STABLE_PART (192UL << 20)
#define SWEEP_SECONDS 3

#define THP_SIZE (2UL << 20)
#define SPLIT_THPS 4
#define SPLIT_ROUNDS 25
#define THP_ENABLED "/sys/kernel/mm/transparent_hugepage/enabled"
#define SPLIT_FILE "/sys/kernel/debug/split_huge_pages"
#define SPLIT_POLICY "/sys/kernel/debug/tlbpolicy/split_policy"

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
 * with the given remote CPUs spinning in this mm; *@mean (if not NULL)
 * gets the mean, which counts the rare slow flushes at their weight. */
static double shootdown_ns(const int *cpus, int nr, unsigned int reps, double *irqs,
			   double *mean)
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
	if (mean) {
		*mean = 0;
		for (unsigned int r = 0; r < reps; r++)
			*mean += t[r] / reps;
	}
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

/* ns per PTE of mprotect(PROT_NONE) over a region of present pages. */
static double protnone_ns(unsigned int reps)
{
	char *buf = mmap(NULL, PROT_REGION, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	double *t = calloc(reps, sizeof(*t)), m;

	madvise(buf, PROT_REGION, MADV_NOHUGEPAGE);
	memset(buf, 1, PROT_REGION);
	for (unsigned int r = 0; r < reps; r++) {
		double t0 = tb_now();

		mprotect(buf, PROT_REGION, PROT_NONE);
		t[r] = (tb_now() - t0) * 1e9 / (double)(PROT_REGION / TB_PAGE_SIZE);
		mprotect(buf, PROT_REGION, PROT_READ | PROT_WRITE);
	}
	m = median(t, reps);
	free(t);
	munmap(buf, PROT_REGION);
	return m;
}

/* One store per page of @buf: numa_regions' loop, once. */
static double one_pass_ns(char *buf, size_t len, char v)
{
	double t0 = tb_now();

	for (size_t off = 0; off < len; off += TB_PAGE_SIZE)
		((volatile char *)buf)[off] = v;
	return (tb_now() - t0) * 1e9;
}

/*
 * ns per page to refill a translation: a pass over @len after a full
 * flush (an mprotect of the whole part, far over the 33-page ceiling)
 * against a pass with every translation the TLB could keep still cached.
 * *@warm_ns gets the warm pass per page: if the TLB cannot hold @len of
 * translations, the warm pass misses too and costs what the cold one does.
 */
static double refill_ns(unsigned int reps, size_t len, double *warm_ns)
{
	char *buf = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	double *cold = calloc(reps, sizeof(*cold)), *warm = calloc(reps, sizeof(*warm)), m;
	double pages = (double)(len / TB_PAGE_SIZE);

	madvise(buf, len, MADV_NOHUGEPAGE);
	memset(buf, 1, len);
	for (unsigned int r = 0; r < reps; r++) {
		mprotect(buf, len, PROT_READ);
		mprotect(buf, len, PROT_READ | PROT_WRITE);
		cold[r] = one_pass_ns(buf, len, (char)r);
		warm[r] = one_pass_ns(buf, len, (char)r);
	}
	m = (median(cold, reps) - median(warm, reps)) / pages;
	*warm_ns = median(warm, reps) / pages;
	free(cold);
	free(warm);
	munmap(buf, len);
	return m;
}

/* Busy processes on @cpus (another mm each), until load_stop(). */
static void load_start(const int *cpus, int nr, pid_t *pids)
{
	for (int i = 0; i < nr; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			tb_pin_to_cpu(cpus[i]);
			for (;;)
				__asm__ volatile("" ::: "memory");
		}
	}
	tb_sleep_ms(200);
}

static void load_stop(const pid_t *pids, int nr)
{
	for (int i = 0; i < nr; i++) {
		if (pids[i] > 0) {
			kill(pids[i], SIGKILL);
			waitpid(pids[i], NULL, 0);
		}
	}
}

/* When the sweeps of sweep_parts() meet full flushes. */
struct flush_plan {
	unsigned int grow;     /* flushes before counting, 100 ms apart */
	unsigned int every_ms; /* and one each this often while counted; 0: none */
	unsigned int pages;    /* pages each of those changes: TB_FLUSH_PAGES for a
				* full flush, at most 33 for a ranged one */
};

/* What the flushes of a flush_plan did. */
struct flush_seen {
	double irqs_per_flush; /* TLB interrupts, all of them */
	double interval_ms;    /* between two pairs while counted, mean */
};

/* The TLBs grown by full flushes, none while counted. */
static const struct flush_plan grown = { 16, 0, TB_FLUSH_PAGES };


struct sweeper {
	int cpu;
	char *part;
	size_t len;
	volatile unsigned long pages;
};

static volatile int sweep_stop;

static void *sweep_main(void *arg)
{
	struct sweeper *w = arg;
	char v = 0;

	tb_pin_to_cpu(w->cpu);
	memset(w->part, 1, w->len);
	while (!sweep_stop) {
		for (size_t off = 0; off < w->len; off += TB_PAGE_SIZE)
			((volatile char *)w->part)[off] = v;
		w->pages += w->len / TB_PAGE_SIZE;
		v++;
	}
	return NULL;
}

/*
 * numa_regions' loop by @nr threads at once, thread i on @cpus[i] over its
 * own @len[i] bytes, NUMA balancing off, the vCPUs' TLBs first brought back
 * to their boot size: fills @ns_per_page[i], ns per
 * page of thread i's own sweeps. The count starts once every thread has
 * finished its first pass (all faulted in) and a second has gone by, or
 * after @plan's flushes (NULL: none; this thread makes them, asleep in
 * between); *@seen, if given, gets what they did. Returns -1 if the region cannot be mapped or a thread
 * finished no pass while counted.
 */
static int sweep_parts(const int *cpus, const size_t *len, int nr,
		       const struct flush_plan *plan, double *ns_per_page, struct flush_seen *seen)
{
	struct sweeper w[MAX_SPINNERS + 1];
	pthread_t tid[MAX_SPINNERS + 1];
	unsigned long before[MAX_SPINNERS + 1];
	size_t total = TB_FLUSH_PAGES * TB_PAGE_SIZE, at = total;
	unsigned int flushes = 0, counted = 0;
	double t0, elapsed;
	long irq0;
	char *region;
	int i, started, err = 0;

	for (i = 0; i < nr; i++)
		total += len[i];
	/* From the TLBs' boot size, whatever grew them before. */
	if (tb_tlb_shrink(cpus, nr))
		return -1;
	region = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (region == MAP_FAILED)
		return -1;
	madvise(region, total, MADV_NOHUGEPAGE); /* 4 KiB, as mode=private */
	memset(region, 1, at); /* the spare pages tb_flush_mm() changes: present */
	tb_write_file("/proc/sys/kernel/numa_balancing", "0");
	sweep_stop = 0;
	for (i = 0; i < nr; i++) {
		w[i].cpu = cpus[i];
		w[i].part = region + at;
		w[i].len = len[i];
		w[i].pages = 0;
		at += len[i];
		pthread_create(&tid[i], NULL, sweep_main, &w[i]);
	}
	do {
		tb_sleep_ms(100);
		for (started = 0, i = 0; i < nr; i++)
			started += w[i].pages > 0;
	} while (started < nr);
	tb_sleep_ms(1000);
	irq0 = tlb_irqs();
	for (unsigned int f = 0; plan && f < plan->grow; f++, flushes += 2) {
		tb_flush_mm(region, TB_FLUSH_PAGES);
		tb_sleep_ms(100);
	}
	for (i = 0; i < nr; i++)
		before[i] = w[i].pages;
	t0 = tb_now();
	if (plan && plan->every_ms) {
		for (; counted < SWEEP_SECONDS * 1000 / plan->every_ms; counted++, flushes += 2) {
			tb_sleep_ms(plan->every_ms);
			tb_flush_mm(region, plan->pages);
		}
	} else {
		tb_sleep_ms(SWEEP_SECONDS * 1000);
	}
	elapsed = tb_now() - t0;
	for (i = 0; i < nr; i++) {
		/* Pages count per finished pass: a pass of slack. */
		if (w[i].pages <= before[i])
			err = -1;
		else
			ns_per_page[i] = elapsed * 1e9 / (double)(w[i].pages - before[i]);
	}
	if (seen) {
		seen->irqs_per_flush = flushes ? (double)(tlb_irqs() - irq0) / flushes : 0;
		seen->interval_ms = counted ? elapsed * 1e3 / counted : 0;
	}
	sweep_stop = 1;
	for (i = 0; i < nr; i++)
		pthread_join(tid[i], NULL);
	munmap(region, total);
	tb_write_file("/proc/sys/kernel/numa_balancing", "1");
	return err;
}

/* ns per page per thread of numa_regions' loop, one thread per CPU, each
 * over 32 MiB: the rate of all of them together. */
static double sweep_ns(const int *cpus, int nr)
{
	size_t len[MAX_SPINNERS + 1];
	double ns[MAX_SPINNERS + 1], pages_per_ns = 0;

	for (int i = 0; i < nr; i++)
		len[i] = SWEEP_PART;
	if (sweep_parts(cpus, len, nr, NULL, ns, NULL))
		return -1;
	for (int i = 0; i < nr; i++)
		pages_per_ns += 1 / ns[i];
	return nr / pages_per_ns;
}

/*
 * numa_regions' mix (private mode): its four moving threads' 32 MiB and its
 * four stable threads' 192 MiB swept at once, each thread on the node
 * numa_regions starts it on (worker i on node i % 2), meeting @plan's
 * full flushes (NULL: none). Fills the mean ns per page of the 32 MiB
 * sweepers and of the 192 MiB ones, and sweep_parts()'s @seen.
 */
static int sweep_mixed(const struct tb_nodes *nodes, const struct flush_plan *plan,
		       double *small, double *large, struct flush_seen *seen)
{
	int cpus[8];
	size_t len[8];
	double ns[8];

	for (int i = 0; i < 8; i++) {
		cpus[i] = tb_node_cpu(nodes, i % 2, i / 2);
		len[i] = i < 4 ? SWEEP_PART : STABLE_PART;
	}
	if (sweep_parts(cpus, len, 8, plan, ns, seen))
		return -1;
	*small = (ns[0] + ns[1] + ns[2] + ns[3]) / 4;
	*large = (ns[4] + ns[5] + ns[6] + ns[7]) / 4;
	return 0;
}

struct pong_arg {
	int cpu, in, out;
	unsigned int reps;
};

static void *pong(void *arg)
{
	struct pong_arg *a = arg;
	char c;

	tb_pin_to_cpu(a->cpu);
	for (unsigned int i = 0; i < a->reps; i++)
		if (read(a->in, &c, 1) != 1 || write(a->out, &c, 1) != 1)
			break;
	return NULL;
}

/* Median ns to wake a sleeping thread on @cpu and hear back, halved. */
static double wake_ns(int cpu, unsigned int reps)
{
	int to[2], from[2];
	struct pong_arg a;
	pthread_t tid;
	double *v = calloc(reps, sizeof(*v)), r = -1;
	unsigned int i;
	char c = 0;

	if (!v || pipe(to) || pipe(from)) {
		free(v);
		return -1;
	}
	a = (struct pong_arg){ .cpu = cpu, .in = to[0], .out = from[1], .reps = reps };
	if (pthread_create(&tid, NULL, pong, &a) == 0) {
		for (i = 0; i < reps; i++) {
			double t0 = tb_now();

			if (write(to[1], &c, 1) != 1 || read(from[0], &c, 1) != 1)
				break;
			v[i] = (tb_now() - t0) * 1e9 / 2;
			tb_sleep_ms(1); /* both sides asleep before the next */
		}
		pthread_join(tid, NULL);
		if (i == reps)
			r = median(v, reps);
	}
	close(to[0]);
	close(to[1]);
	close(from[0]);
	close(from[1]);
	free(v);
	return r;
}

/* The phases of one round of thp_split's loop, timed: ns per THP except
 * munmap, which is per round. */
struct split_round {
	double fault, mprotect, rewrite, split, munmap;
};
#define SPLIT_PHASES 5

/*
 * thp_split's round, alone: fault SPLIT_THPS THPs in (stores only, so no
 * huge zero page), PTE-map each with an mprotect() of one page and back,
 * write them again, split them through split_huge_pages and unmap them,
 * timing each phase. 0, or -1 on failure.
 */
static int split_round(struct split_round *r)
{
	size_t len = SPLIT_THPS * THP_SIZE;
	char *map = mmap(NULL, len + THP_SIZE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *p, buf[96];
	double t0;
	FILE *f;
	int n, err;

	if (map == MAP_FAILED)
		return -1;
	p = (char *)(((uintptr_t)map + THP_SIZE - 1) & ~(THP_SIZE - 1));
	t0 = tb_now();
	for (size_t off = 0; off < len; off += TB_PAGE_SIZE)
		((volatile char *)p)[off] = 1;
	r->fault = (tb_now() - t0) * 1e9 / SPLIT_THPS;
	t0 = tb_now();
	for (unsigned int i = 0; i < SPLIT_THPS; i++) {
		char *page = p + i * THP_SIZE + THP_SIZE / 2;

		if (mprotect(page, TB_PAGE_SIZE, PROT_READ) ||
		    mprotect(page, TB_PAGE_SIZE, PROT_READ | PROT_WRITE)) {
			munmap(map, len + THP_SIZE);
			return -1;
		}
	}
	r->mprotect = (tb_now() - t0) * 1e9 / SPLIT_THPS;
	t0 = tb_now();
	for (size_t off = 0; off < len; off += TB_PAGE_SIZE)
		((volatile char *)p)[off] = 2;
	r->rewrite = (tb_now() - t0) * 1e9 / SPLIT_THPS;
	n = snprintf(buf, sizeof(buf), "%d,0x%lx,0x%lx", (int)getpid(),
		     (unsigned long)(uintptr_t)p, (unsigned long)(uintptr_t)(p + len));
	t0 = tb_now();
	f = fopen(SPLIT_FILE, "w");
	err = !f || fwrite(buf, 1, (size_t)n, f) != (size_t)n;
	if (f)
		err |= fclose(f) != 0;
	r->split = (tb_now() - t0) * 1e9 / SPLIT_THPS;
	t0 = tb_now();
	munmap(map, len + THP_SIZE);
	r->munmap = (tb_now() - t0) * 1e9;
	return err ? -1 : 0;
}

/* The median of each phase under @policy, in a child of its own: a fresh
 * mm that only ever ran on this CPU, so no flush leaves it. -1 (every
 * phase) on failure. */
static void split_ns(const char *policy, struct split_round *med)
{
	struct split_round *out = mmap(NULL, sizeof(*out), PROT_READ | PROT_WRITE,
				       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct split_round failed = { -1, -1, -1, -1, -1 };
	int status;
	pid_t pid, w;

	*med = failed;
	if (out == MAP_FAILED)
		return;
	*out = failed;
	if (tb_write_file(SPLIT_POLICY, policy) == 0 && (pid = fork()) >= 0) {
		if (pid == 0) {
			static double v[SPLIT_PHASES][SPLIT_ROUNDS];
			struct split_round r;
			unsigned int i;

			for (i = 0; i < SPLIT_ROUNDS && !split_round(&r); i++) {
				v[0][i] = r.fault;
				v[1][i] = r.mprotect;
				v[2][i] = r.rewrite;
				v[3][i] = r.split;
				v[4][i] = r.munmap;
			}
			if (i == SPLIT_ROUNDS) {
				out->fault = median(v[0], SPLIT_ROUNDS);
				out->mprotect = median(v[1], SPLIT_ROUNDS);
				out->rewrite = median(v[2], SPLIT_ROUNDS);
				out->split = median(v[3], SPLIT_ROUNDS);
				out->munmap = median(v[4], SPLIT_ROUNDS);
			}
			_exit(0);
		}
		while ((w = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
			;
		if (w < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
			*out = failed;
	}
	*med = *out;
	munmap(out, sizeof(*out));
}

/* The bracketed choice of a sysfs selector ("always [madvise] never"). */
static int read_choice(const char *path, char *buf, size_t len)
{
	char line[128], *a, *b;
	FILE *f = fopen(path, "r");
	int ok = f && fgets(line, sizeof(line), f);

	if (f)
		fclose(f);
	if (!ok || !(a = strchr(line, '[')) || !(b = strchr(a, ']')) || (size_t)(b - a) > len)
		return -1;
	memcpy(buf, a + 1, (size_t)(b - a - 1));
	buf[b - a - 1] = '\0';
	return 0;
}

/* The "@@speed" line: see the header. @all: the CPUs other than this
 * thread's, @every: all of them. Returns 0, or 1 if a sweep failed. */
static int speed_probe(const struct tb_nodes *nodes, const int *all, const int *every)
{
	double sweep, grown_32, grown_192, refill, warm;
	pid_t load[MAX_SPINNERS];

	load_start(all, MAX_SPINNERS, load);
	refill = refill_ns(20, SWEEP_PART, &warm);
	load_stop(load, MAX_SPINNERS);
	sweep = sweep_ns(every, MAX_SPINNERS + 1);
	if (sweep_mixed(nodes, &grown, &grown_32, &grown_192, NULL))
		grown_32 = grown_192 = -1;
	printf("@@speed tlb_refill_loaded_ns=%.1f sweep_walk_ns_per_page=%.1f "
	       "sweep_grown_32_ns_per_page=%.1f sweep_grown_192_ns_per_page=%.1f\n",
	       refill, sweep, grown_32, grown_192);
	return sweep < 0 || grown_32 < 0;
}

int main(int argc, char **argv)
{
	struct tb_nodes nodes;
	unsigned int reps = 2000;
	int near[MAX_SPINNERS], far[1], all[MAX_SPINNERS];
	double s0, s1, s3, s7, sfar, s1_l, s3_l, s3_mean, s7_mean, s1_l_mean, s3_l_mean, irqs7, fault, migrate, pte, fault_l, migrate_l, pte_l, sweep;
	double refill_l, warm_l, refill_192_l, warm_192_l, wake, sweep_32, sweep_192;
	double grown_32, grown_192, flushed_32, flushed_192, pinged_32, pinged_192;
	struct flush_seen grown_seen = { -1, -1 }, flushed_seen = grown_seen, pinged_seen = grown_seen;
	const struct flush_plan flushed = { 16, 10, TB_FLUSH_PAGES };
	const struct flush_plan pinged = { 16, 10, 1 };
	struct split_round split_b = { -1, -1, -1, -1, -1 }, split_p = split_b;
	char thp[16], policy[16];
	int every[MAX_SPINNERS + 1];
	pid_t load[MAX_SPINNERS];
	bool speed = false;

	for (int a = 1; a < argc; a++) {
		if (!strncmp(argv[a], "reps=", 5) && atoi(argv[a] + 5) > 10) {
			reps = (unsigned int)atoi(argv[a] + 5);
		} else if (!strcmp(argv[a], "speed")) {
			speed = true;
		} else {
			fprintf(stderr, "usage: microbench [reps=N (>10)] [speed]\n");
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
	every[0] = tb_node_cpu(&nodes, 0, 0);
	for (int i = 0; i < MAX_SPINNERS; i++)
		every[i + 1] = all[i];
	if (speed)
		return speed_probe(&nodes, all, every);

	wake = wake_ns(near[0], reps / 10);
	s0 = shootdown_ns(NULL, 0, reps, NULL, NULL);
	s1 = shootdown_ns(near, 1, reps, NULL, NULL);
	s3 = shootdown_ns(near, 3, reps, NULL, &s3_mean);
	sfar = shootdown_ns(far, 1, reps, NULL, NULL);
	s7 = shootdown_ns(all, MAX_SPINNERS, reps, &irqs7, &s7_mean);
	/* The targets are all[]'s first; the load takes the rest. */
	load_start(all + 1, MAX_SPINNERS - 1, load);
	s1_l = shootdown_ns(all, 1, reps / 2, NULL, &s1_l_mean);
	load_stop(load, MAX_SPINNERS - 1);
	load_start(all + 3, MAX_SPINNERS - 3, load);
	s3_l = shootdown_ns(all, 3, reps / 10, NULL, &s3_l_mean);
	load_stop(load, MAX_SPINNERS - 3);
	fault = fault_ns(reps * 4);
	migrate = migrate_ns(reps / 10);
	pte = protnone_ns(20);
	load_start(all, MAX_SPINNERS, load);
	fault_l = fault_ns(reps * 4);
	migrate_l = migrate_ns(reps / 10);
	pte_l = protnone_ns(20);
	refill_l = refill_ns(20, SWEEP_PART, &warm_l);
	refill_192_l = refill_ns(20, STABLE_PART, &warm_192_l);
	load_stop(load, MAX_SPINNERS);
	sweep = sweep_ns(every, MAX_SPINNERS + 1);
	if (sweep_mixed(&nodes, NULL, &sweep_32, &sweep_192, NULL))
		sweep_32 = sweep_192 = -1;
	if (sweep_mixed(&nodes, &grown, &grown_32, &grown_192, &grown_seen))
		grown_32 = grown_192 = -1;
	if (sweep_mixed(&nodes, &flushed, &flushed_32, &flushed_192, &flushed_seen))
		flushed_32 = flushed_192 = -1;
	if (sweep_mixed(&nodes, &pinged, &pinged_32, &pinged_192, &pinged_seen))
		pinged_32 = pinged_192 = -1;
	/* Last, as THP "always" would change the faults measured above. */
	if (!read_choice(THP_ENABLED, thp, sizeof(thp)) &&
	    !read_choice(SPLIT_POLICY, policy, sizeof(policy)) &&
	    !tb_write_file(THP_ENABLED, "always")) {
		split_ns("batched", &split_b);
		split_ns("per-pte", &split_p);
		tb_write_file(SPLIT_POLICY, policy);
		tb_write_file(THP_ENABLED, thp);
	}
	printf("@@micro reps=%u shootdown_0_ns=%.0f shootdown_1_ns=%.0f shootdown_3_ns=%.0f "
	       "shootdown_7_ns=%.0f shootdown_far_ns=%.0f ipi_first_ns=%.0f ipi_extra_ns=%.0f ipi_extra7_ns=%.0f "
	       "ipi_socket_ns=%.0f tlb_irqs_per_shootdown=%.2f fault_ns=%.0f copy_4k_ns=%.0f "
	       "migrate_page_ns=%.0f protnone_pte_ns=%.1f fault_loaded_ns=%.0f "
	       "migrate_page_loaded_ns=%.0f protnone_pte_loaded_ns=%.1f tlb_refill_loaded_ns=%.1f "
	       "warm_pass_loaded_ns=%.1f tlb_refill_192_loaded_ns=%.1f warm_pass_192_loaded_ns=%.1f "
	       "sweep_walk_ns_per_page=%.1f split_thp_batched_ns=%.0f split_thp_per_pte_ns=%.0f "
	       "thp_round_fault_ns=%.0f thp_round_mprotect_ns=%.0f thp_round_rewrite_ns=%.0f "
	       "thp_round_munmap_ns=%.0f wake_ns=%.0f shootdown_1_loaded_ns=%.0f shootdown_3_loaded_ns=%.0f "
	       "shootdown_3_mean_ns=%.0f shootdown_7_mean_ns=%.0f shootdown_1_loaded_mean_ns=%.0f "
	       "shootdown_3_loaded_mean_ns=%.0f sweep_mixed_32_ns_per_page=%.1f "
	       "sweep_mixed_192_ns_per_page=%.1f sweep_grown_32_ns_per_page=%.1f "
	       "sweep_grown_192_ns_per_page=%.1f sweep_grown_flush_irqs=%.2f "
	       "sweep_flushed_32_ns_per_page=%.1f sweep_flushed_192_ns_per_page=%.1f "
	       "sweep_flushed_interval_ms=%.2f sweep_pinged_32_ns_per_page=%.1f "
	       "sweep_pinged_192_ns_per_page=%.1f sweep_pinged_interval_ms=%.2f "
	       "sweep_pinged_flush_irqs=%.2f\n",
	       reps, s0, s1, s3, s7, sfar, s1 - s0, (s3 - s1) / 2, (s7 - s1) / 6, sfar - s1, irqs7,
	       fault, copy_ns(reps), migrate, pte, fault_l, migrate_l, pte_l, refill_l,
	       warm_l, refill_192_l, warm_192_l, sweep, split_b.split, split_p.split,
	       split_b.fault, split_b.mprotect, split_b.rewrite, split_b.munmap, wake, s1_l, s3_l,
	       s3_mean, s7_mean, s1_l_mean, s3_l_mean, sweep_32, sweep_192, grown_32, grown_192,
	       grown_seen.irqs_per_flush, flushed_32, flushed_192, flushed_seen.interval_ms,
	       pinged_32, pinged_192, pinged_seen.interval_ms, pinged_seen.irqs_per_flush);
	return 0;
}
