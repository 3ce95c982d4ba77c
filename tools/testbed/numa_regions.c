// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The two-region NUMA workload: one VMA laid out as
 *
 *   [slice of moving thread 0] ... [slice of moving thread M-1] [stable region]
 *
 * Moving threads switch node at the end of the first sweep of their
 * slice once switch_ms have passed since their last switch, so NUMA
 * balancing migrates their slices; stable threads stay on their node and only take hint
 * faults. The scanner walks in address order, so the slices are marked
 * first and migrate while the same pass is still marking the stable
 * region: migration unmaps and scanner page-table walks overlap, which is
 * what makes a batched migration flush visible to the scanner.
 * Every thread writes one byte per 4 KiB page of its own part in a loop.
 *
 * mode=private    order-0 anonymous memory (THP off)
 * mode=mthp64     64 KiB mTHP anonymous memory
 * mode=shared     MAP_SHARED anonymous memory; a second process maps all
 *                 of it and runs half of the threads
 * mode=thp-split  2 MiB THPs with their second half discarded: partially
 *                 mapped, so NUMA migration splits them first
 *
 * Usage (defaults: private, 4 moving x 32 MiB, 4 stable x 192 MiB, 3000 ms,
 * 5 s warmup, 35 s window):
 *        numa_regions [mode=M] [moving=N] [stable=N] [slice_mb=N]
 *        [stable_mb=N] [switch_ms=N] [warmup=S] [window=S]
 * Prints counter snapshots (tb_snapshot) around the measured window.
 */
#include "tb_common.h"

#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define THP_SIZE (2UL << 20)
#define MAX_THREADS 64
#define MAX_SWITCHES 64
#define SWEEP_LOG_WORKERS 4
#define SWEEP_BIN_MS 100
#define SWEEP_BINS 512

enum mode { MODE_PRIVATE, MODE_MTHP64, MODE_SHARED, MODE_THP_SPLIT };

static const char *const mode_names[] = {
	[MODE_PRIVATE] = "private",
	[MODE_MTHP64] = "mthp64",
	[MODE_SHARED] = "shared",
	[MODE_THP_SPLIT] = "thp-split",
};

struct params {
	enum mode mode;
	unsigned int moving, stable;
	unsigned long slice_mb, stable_mb;
	unsigned int switch_ms, warmup, window;
};

/* Lives in a MAP_SHARED page so that both processes of mode=shared see it. */
struct control {
	pthread_barrier_t ready;
	volatile int stop;
	unsigned long passes[MAX_THREADS];
	unsigned long switches[MAX_THREADS];
	pid_t tid[MAX_THREADS];
	/* The workers' scheduler counts (sched_keys[]), at the window's
	 * [0] start and [1] end, of [0] the moving threads and [1] the
	 * stable ones; -1 if unreadable. Kept here rather than in main()'s
	 * frame, whose layout tlbsim models. */
	double sched[2][2][3];
	/* How many workers each node holds, and for how long in all some
	 * node has held more than it has CPUs (workers then share a CPU and
	 * the balancer moves them between the node's CPUs): the moving
	 * workers switch on their own clocks, not in pairs. Under occ_lock. */
	pthread_mutex_t occ_lock;
	unsigned int node_workers[TB_MAX_NODES];
	double occ_since, overloaded_s;
	double overloaded_at[2]; /* overloaded_s at the window's start, end */
	/* The first moving workers' sweeps (sweep_log_note()), in the
	 * first page with passes[]: see the static assert below. */
	double sweep_start[SWEEP_LOG_WORKERS];
	unsigned char sweep_log[SWEEP_LOG_WORKERS][SWEEP_BINS];
	/* How late each moving worker's switches came, in ms past their due
	 * time: the end of the sweep under way when switch_ms ran out. */
	float switch_late_ms[MAX_THREADS][MAX_SWITCHES];
};

_Static_assert(offsetof(struct control, sweep_log) + sizeof(((struct control *)0)->sweep_log) <= 4096,
	       "the sweep log must share the control page's first page with passes[]");

/*
 * What the window reports of the workers' scheduling, /proc/TID/sched's
 * key and the report's name: how often the kernel moved a worker to
 * another CPU (each landing on a CPU whose TLB holds none of its part; a
 * node switch is one move or more), how often it slept, and how often it
 * was preempted.
 */
static const char *const sched_keys[3][2] = {
	{ "se.nr_migrations", "cpu_moves" },
	{ "nr_voluntary_switches", "sleeps" },
	{ "nr_involuntary_switches", "preemptions" },
};

struct worker {
	const struct params *p;
	const struct tb_nodes *nodes;
	struct control *ctl;
	char *base, *region;
	size_t len, region_len;
	unsigned int id;
	bool moving, reader;
};

static size_t stride_len(const struct params *p, size_t off)
{
	/* thp-split: only the first half of each 2 MiB is still mapped. */
	if (p->mode == MODE_THP_SPLIT && (off % THP_SIZE) >= THP_SIZE / 2)
		return 0;
	return 1;
}

/*
 * A store, not base[off]++: a read first would map the shared zero page
 * and the write would then copy it, with a TLB flush per page.
 */
static void touch(const struct params *p, char *base, size_t len, char val)
{
	for (size_t off = 0; off < len; off += TB_PAGE_SIZE)
		if (stride_len(p, off))
			((volatile char *)base)[off] = val;
}

/* Adds the time since the last change to ctl->overloaded_s if some
 * node holds more workers than CPUs. Under occ_lock. */
static void occupancy_account(struct control *ctl, const struct tb_nodes *nodes, double now)
{
	for (int n = 0; n < nodes->nr; n++)
		if (ctl->node_workers[n] > (unsigned int)nodes->nr_cpus[n]) {
			ctl->overloaded_s += now - ctl->occ_since;
			break;
		}
	ctl->occ_since = now;
}

/* A worker leaves node @from for node @to (-1: joins @to). Returns the
 * time overloaded so far. */
static double occupancy_move(struct control *ctl, const struct tb_nodes *nodes, int from,
			     int to)
{
	double overloaded;

	pthread_mutex_lock(&ctl->occ_lock);
	occupancy_account(ctl, nodes, tb_now());
	if (from >= 0)
		ctl->node_workers[from % nodes->nr]--;
	if (to >= 0)
		ctl->node_workers[to % nodes->nr]++;
	overloaded = ctl->overloaded_s;
	pthread_mutex_unlock(&ctl->occ_lock);
	return overloaded;
}

/* One line: each moving worker's switches, how late (ms), in order;
 * workers separated by ';'. */
static void print_switch_late(const struct control *ctl, const struct params *p)
{
	printf("@@switch_late_ms ");
	for (unsigned int i = 0; i < p->moving; i++) {
		unsigned long nr = ctl->switches[i] < MAX_SWITCHES ? ctl->switches[i] : MAX_SWITCHES;

		for (unsigned long k = 0; k < nr; k++)
			printf("%s%.1f", k ? "," : "", ctl->switch_late_ms[i][k]);
		printf("%s", i + 1 < p->moving ? ";" : "\n");
	}
	if (!p->moving)
		printf("\n");
}

/* Every worker on its first node (worker_main(): id % 2). */
static void occupancy_init(struct control *ctl, const struct params *p,
			   const struct tb_nodes *nodes)
{
	pthread_mutexattr_t ma;

	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED);
	pthread_mutex_init(&ctl->occ_lock, &ma);
	for (unsigned int i = 0; i < p->moving + p->stable; i++)
		occupancy_move(ctl, nodes, -1, (int)(i % 2));
}

/*
 * A moving worker's sweeps over time, in 100 ms bins of CLOCK_MONOTONIC
 * (the kernel's ktime, so the bins line up with a measurement kernel's
 * log): the fastest sweep that ended in each bin. A sweep whose
 * translations the vCPU's TLB holds takes tens of us on the guest, one
 * that walks the page table on every page a millisecond or more: the log
 * says when the worker's TLB held its slice, which decides whether a
 * marking of the slice is seen at once or only at the scanner's flush.
 * One byte a bin, kept in the control page's first page, which every
 * worker writes each sweep already (passes[]): a log anywhere else is
 * memory the scanner marks and the workers fault on, which would change
 * what it measures. The byte: 0 for none, then 8 us steps to 1 ms and
 * 100 us steps to 13.9 ms; longer (a sweep held up in faults) is 255.
 */
static unsigned char sweep_code(double us)
{
	double code = us < 1000 ? 1 + us / 8 : 126 + (us - 1000) / 100;

	return (unsigned char)(code > 255 ? 255 : code);
}

static double sweep_us(unsigned char code)
{
	return code <= 126 ? (code - 1) * 8.0 + 4 : 1000 + (code - 126) * 100.0 + 50;
}

static void sweep_log_note(struct control *ctl, unsigned int id, double began, double ended)
{
	unsigned char code = sweep_code((ended - began) * 1e6), *b;
	long bin;

	if (id >= SWEEP_LOG_WORKERS)
		return;
	bin = (long)((ended - ctl->sweep_start[id]) * 1000 / SWEEP_BIN_MS);
	if (bin < 0 || bin >= SWEEP_BINS)
		return;
	b = &ctl->sweep_log[id][bin];
	if (!*b || code < *b)
		*b = code;
}

/* One line a logged worker: "bins=" the fastest sweep of each bin in us,
 * 0 where none ended. */
static void print_sweep_log(const struct control *ctl, const struct params *p)
{
	for (unsigned int i = 0; i < p->moving && i < SWEEP_LOG_WORKERS; i++) {
		long last = SWEEP_BINS - 1;

		while (last > 0 && !ctl->sweep_log[i][last])
			last--;
		printf("@@sweep_log worker=%u start_ms=%.0f bin_ms=%d bins=", i,
		       ctl->sweep_start[i] * 1000, SWEEP_BIN_MS);
		for (long b = 0; b <= last; b++)
			printf("%s%.0f", b ? "," : "",
			       ctl->sweep_log[i][b] ? sweep_us(ctl->sweep_log[i][b]) : 0.0);
		printf("\n");
	}
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	int node = w->id % 2;
	double next = 0, began;

	w->ctl->tid[w->id] = (pid_t)syscall(SYS_gettid);
	tb_pin_to_node(w->nodes, node);
	touch(w->p, w->base, w->len, 1);
	if (w->p->mode == MODE_THP_SPLIT) {
		/* Whole THPs were faulted in on this node; unmapping the
		 * second half of each splits its PMD and leaves it partially
		 * mapped, on the deferred split list: NUMA migration of such
		 * a folio splits it first (migrate_pages_batch). munmap, not
		 * MADV_DONTNEED: tinyconfig has no madvise(2). */
		for (size_t off = THP_SIZE / 2; off < w->len; off += THP_SIZE)
			munmap(w->base + off, THP_SIZE / 2);
	}
	pthread_barrier_wait(&w->ctl->ready);
	if (w->reader) {
		/* Map every page in this process too: mapcount 2 everywhere. */
		volatile char sink = 0;

		for (size_t off = 0; off < w->region_len; off += TB_PAGE_SIZE)
			if (stride_len(w->p, off))
				sink += w->region[off];
		(void)sink;
	}
	pthread_barrier_wait(&w->ctl->ready);
	/* A sweep begins where the one before ended: one clock read a sweep,
	 * as before the log. */
	began = tb_now();
	next = began + w->p->switch_ms / 1000.0;
	if (w->moving && w->id < SWEEP_LOG_WORKERS)
		w->ctl->sweep_start[w->id] = began;
	while (!w->ctl->stop) {
		double now;

		touch(w->p, w->base, w->len, (char)w->ctl->passes[w->id]);
		w->ctl->passes[w->id]++;
		if (!w->moving)
			continue;
		now = tb_now();
		sweep_log_note(w->ctl, w->id, began, now);
		began = now;
		if (now >= next) {
			unsigned long nr = w->ctl->switches[w->id];

			if (nr < MAX_SWITCHES)
				w->ctl->switch_late_ms[w->id][nr] = (float)((tb_now() - next) * 1e3);
			node ^= 1;
			tb_pin_to_node(w->nodes, node);
			occupancy_move(w->ctl, w->nodes, node ^ 1, node);
			w->ctl->switches[w->id]++;
			began = tb_now();
			next = began + w->p->switch_ms / 1000.0;
		}
	}
	return NULL;
}

static int parse(struct params *p, int argc, char **argv)
{
	*p = (struct params){ MODE_PRIVATE, 4, 4, 32, 192, 3000, 5, 35 };
	for (int i = 1; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		unsigned long v;

		if (!eq)
			return -1;
		*eq++ = '\0';
		if (!strcmp(argv[i], "mode")) {
			unsigned int m;

			for (m = 0; m < sizeof(mode_names) / sizeof(mode_names[0]); m++)
				if (!strcmp(eq, mode_names[m]))
					break;
			if (m == sizeof(mode_names) / sizeof(mode_names[0]))
				return -1;
			p->mode = m;
			continue;
		}
		v = strtoul(eq, NULL, 10);
		if (!strcmp(argv[i], "moving"))
			p->moving = v;
		else if (!strcmp(argv[i], "stable"))
			p->stable = v;
		else if (!strcmp(argv[i], "slice_mb"))
			p->slice_mb = v;
		else if (!strcmp(argv[i], "stable_mb"))
			p->stable_mb = v;
		else if (!strcmp(argv[i], "switch_ms"))
			p->switch_ms = v;
		else if (!strcmp(argv[i], "warmup"))
			p->warmup = v;
		else if (!strcmp(argv[i], "window"))
			p->window = v;
		else
			return -1;
	}
	if (p->moving + p->stable == 0 || p->moving + p->stable > MAX_THREADS)
		return -1;
	return 0;
}

static void set_thp(enum mode mode)
{
	const char *top = mode == MODE_THP_SPLIT ? "always" : "never";

	tb_write_file("/sys/kernel/mm/transparent_hugepage/enabled", top);
	tb_write_file("/sys/kernel/mm/transparent_hugepage/hugepages-64kB/enabled",
		      mode == MODE_MTHP64 ? "always" : "never");
	tb_write_file("/sys/kernel/mm/transparent_hugepage/hugepages-2048kB/enabled",
		      "inherit");
}

/* Run this process's share of the threads until ctl->stop. */
static void run_threads(const struct params *p, const struct tb_nodes *nodes,
			struct control *ctl, char *region, size_t region_len,
			unsigned int first, unsigned int last, pthread_t *tids,
			struct worker *ws)
{
	size_t slice = p->slice_mb << 20, stab = p->stable_mb << 20;

	for (unsigned int i = first; i < last; i++) {
		struct worker *w = &ws[i];

		w->p = p;
		w->nodes = nodes;
		w->ctl = ctl;
		w->id = i;
		w->region = region;
		w->region_len = region_len;
		w->moving = i < p->moving;
		w->reader = p->mode == MODE_SHARED && i == first;
		w->base = w->moving ? region + i * slice :
			  region + p->moving * slice + (i - p->moving) * stab;
		w->len = w->moving ? slice : stab;
		pthread_create(&tids[i], NULL, worker_main, w);
	}
}

/*
 * The value of @key in a /proc/<pid>/sched file (CONFIG_SCHED_DEBUG),
 * lines "key : value", or -1 if the file or the line is missing.
 */
static double sched_field(const char *path, const char *key)
{
	char line[256];
	double v = -1;
	size_t len = strlen(key);
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, len) && (line[len] == ' ' || line[len] == ':')) {
			char *colon = strchr(line, ':');

			if (colon)
				v = strtod(colon + 1, NULL);
			break;
		}
	fclose(f);
	return v;
}

/*
 * The mm's completed NUMA scan sequences (mm->numa_scan_seq), or -1. One
 * sequence marks every VMA once; it may take several task_numa_work()
 * calls, which the kernel counts in numa_scan_passes.
 */
static long scan_seq_now(void)
{
	return (long)sched_field("/proc/self/sched", "mm->numa_scan_seq");
}

/*
 * When the mm's scan sequence grew, in ms since the workers' clock
 * started. A moving worker's hint faults migrate at once while its
 * numa_scan_seq is 4 or less (should_numa_migrate_memory()'s early
 * window) and meet the two-stage filter after, so when a worker's long
 * stall ends is read against these times.
 */
#define MAX_SEQ_STEPS 64

struct seq_log {
	double start;
	long first, last;
	unsigned int nr;
	float at_ms[MAX_SEQ_STEPS];
};

static void seq_log_note(struct seq_log *log)
{
	long seq = scan_seq_now();

	if (log->first < 0) {
		log->first = log->last = seq;
		return;
	}
	for (; seq > log->last; log->last++)
		if (log->nr < MAX_SEQ_STEPS)
			log->at_ms[log->nr++] = (float)((tb_now() - log->start) * 1e3);
}

/* tb_sleep_ms(@ms), looking at the scan sequence every 200 ms meanwhile. */
static void sleep_noting_seqs(struct seq_log *log, unsigned int ms)
{
	double end = tb_now() + ms / 1000.0;

	for (;;) {
		double left = end - tb_now();

		seq_log_note(log);
		if (left <= 0)
			return;
		tb_sleep_ms(left < 0.2 ? (unsigned int)(left * 1000) + 1 : 200);
	}
}

static void print_seq_log(const struct seq_log *log)
{
	printf("@@scan_seq_ms first=%ld", log->first);
	for (unsigned int i = 0; i < log->nr; i++)
		printf("%s%.0f", i ? "," : " at=", log->at_ms[i]);
	printf("\n");
}

/* Each moving worker's numa_preferred_nid and numa_pages_migrated at
 * the end (/proc/TID/sched): a task with no preferred node keeps the
 * early window's rule whatever its sequence. */
static void print_moving_numa(const struct control *ctl, const struct params *p)
{
	static const char *const keys[2][2] = {
		{ "numa_preferred_nid", "preferred_nid" },
		{ "numa_pages_migrated", "pages_migrated" },
	};

	printf("@@moving_numa");
	for (unsigned int k = 0; k < 2; k++) {
		printf(" %s=", keys[k][1]);
		for (unsigned int i = 0; i < p->moving; i++) {
			char path[64];

			snprintf(path, sizeof(path), "/proc/%d/sched", (int)ctl->tid[i]);
			printf("%s%.0f", i ? "," : "", sched_field(path, keys[k][0]));
		}
	}
	printf("\n");
}

/* @key of /proc/TID/sched summed over workers [@first, @last), or -1 if
 * unreadable. */
static double sched_sum(const struct control *ctl, unsigned int first, unsigned int last,
			const char *key)
{
	double sum = 0;

	for (unsigned int i = first; i < last; i++) {
		char path[64];
		double v;

		snprintf(path, sizeof(path), "/proc/%d/sched", (int)ctl->tid[i]);
		v = sched_field(path, key);
		if (v < 0)
			return -1;
		sum += v;
	}
	return sum;
}

/*
 * The workers' summed se.sum_exec_runtime in ms, the runtime
 * task_tick_numa() paces NUMA scans by, or -1 if unreadable.
 */
static double runtime_ms_now(const struct control *ctl, const struct params *p)
{
	return sched_sum(ctl, 0, p->moving + p->stable, "se.sum_exec_runtime");
}

/* ctl->sched[@at] now: sched_keys[] summed over the moving and over the
 * stable workers. */
static void sched_now(struct control *ctl, const struct params *p, unsigned int at)
{
	for (unsigned int k = 0; k < 3; k++) {
		ctl->sched[at][0][k] = sched_sum(ctl, 0, p->moving, sched_keys[k][0]);
		ctl->sched[at][1][k] = sched_sum(ctl, p->moving, p->moving + p->stable,
						 sched_keys[k][0]);
	}
}

/*
 * The guest's clocks now: *@ticks_s the timer ticks every CPU has
 * accounted (/proc/stat's "cpu" line, all fields, in seconds of ticks)
 * per CPU, *@uptime_s the wall clock (/proc/uptime). With HZ_PERIODIC a
 * CPU accounts one tick per timer interrupt it handles, and jiffies count
 * the timekeeping CPU's: a guest that loses ticks shows fewer tick-seconds
 * than seconds. Returns -1 if either file is unreadable.
 */
static int clocks_now(double *ticks_s, double *uptime_s)
{
	unsigned long long v, sum = 0;
	long hz = sysconf(_SC_CLK_TCK), cpus = sysconf(_SC_NPROCESSORS_ONLN);
	char word[16];
	FILE *f = fopen("/proc/stat", "r");
	int ok;

	if (!f)
		return -1;
	ok = fscanf(f, "%15s", word) == 1 && !strcmp(word, "cpu");
	while (ok && fscanf(f, "%llu", &v) == 1)
		sum += v;
	fclose(f);
	f = fopen("/proc/uptime", "r");
	if (!f)
		return -1;
	ok = ok && fscanf(f, "%lf", uptime_s) == 1 && hz > 0 && cpus > 0;
	fclose(f);
	if (!ok)
		return -1;
	*ticks_s = (double)sum / (double)hz / (double)cpus;
	return 0;
}

/* Sweeps completed so far: [0] by the moving threads, [1] by the stable. */
static void sweeps_now(const struct control *ctl, const struct params *p,
		       unsigned long sum[2])
{
	sum[0] = sum[1] = 0;
	for (unsigned int i = 0; i < p->moving + p->stable; i++)
		sum[i >= p->moving] += ((const volatile unsigned long *)ctl->passes)[i];
}

/*
 * tlbsim's testbed scenario models where this frame puts p and ws[], which
 * every worker reads each sweep (tools/tlbsim/testbed_frame.c): a change to
 * main()'s locals moves them, and the offsets there must follow.
 */
int main(int argc, char **argv)
{
	struct params p;
	struct tb_nodes nodes;
	struct control *ctl;
	pthread_barrierattr_t ba;
	pthread_t tids[MAX_THREADS];
	struct worker ws[MAX_THREADS];
	unsigned long begin[2], end[2];
	long seq_begin, seq_end;
	struct seq_log seqs = { .first = -1 };
	double run_begin, run_end, tick_begin, tick_end, up_begin, up_end;
	int clocks;
	unsigned int nr = 0, half;
	size_t region_len, map_len;
	char *map, *region;
	pid_t child = -1;
	int flags;

	if (parse(&p, argc, argv)) {
		fprintf(stderr, "usage: numa_regions [mode=private|mthp64|shared|thp-split] "
			"[moving=N] [stable=N] [slice_mb=N] [stable_mb=N] "
			"[switch_ms=N] [warmup=S] [window=S]\n");
		return 2;
	}
	if (tb_nodes_read(&nodes)) {
		fprintf(stderr, "numa_regions: need 2 NUMA nodes\n");
		return 1;
	}
	set_thp(p.mode);

	region_len = (p.moving * p.slice_mb + p.stable * p.stable_mb) << 20;
	map_len = region_len + THP_SIZE;
	flags = p.mode == MODE_SHARED ? MAP_SHARED | MAP_ANONYMOUS :
					MAP_PRIVATE | MAP_ANONYMOUS;
	map = mmap(NULL, map_len, PROT_READ | PROT_WRITE, flags, -1, 0);
	ctl = mmap(NULL, sizeof(*ctl), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED || ctl == MAP_FAILED) {
		perror("numa_regions: mmap");
		return 1;
	}
	region = (char *)(((uintptr_t)map + THP_SIZE - 1) & ~(THP_SIZE - 1));

	pthread_barrierattr_init(&ba);
	pthread_barrierattr_setpshared(&ba, PTHREAD_PROCESS_SHARED);
	/* Every worker, and the main thread that measures. */
	pthread_barrier_init(&ctl->ready, &ba, p.moving + p.stable + 1);
	occupancy_init(ctl, &p, &nodes);

	printf("@@params mode=%s moving=%u stable=%u slice_mb=%lu stable_mb=%lu "
	       "switch_ms=%u warmup=%u window=%u\n", mode_names[p.mode],
	       p.moving, p.stable, p.slice_mb, p.stable_mb, p.switch_ms,
	       p.warmup, p.window);
	/* Where this run's frame put what every worker reads, within its
	 * page: the stack starts at a random offset (tlbsim draws it). */
	printf("@@frame params=%lu workers=%lu\n", (unsigned long)((uintptr_t)&p & 4095),
	       (unsigned long)((uintptr_t)ws & 4095));
	fflush(stdout);

	half = p.mode == MODE_SHARED ? (p.moving + p.stable) / 2 : p.moving + p.stable;
	if (p.mode == MODE_SHARED) {
		child = fork();
		if (child == 0) {
			run_threads(&p, &nodes, ctl, region, region_len, half,
				    p.moving + p.stable, tids, ws);
			for (unsigned int i = half; i < p.moving + p.stable; i++)
				pthread_join(tids[i], NULL);
			_exit(0);
		}
	}
	run_threads(&p, &nodes, ctl, region, region_len, 0, half, tids, ws);
	nr = half;

	/* Faulted in (and, for shared, mapped twice): start the clock. */
	pthread_barrier_wait(&ctl->ready);
	pthread_barrier_wait(&ctl->ready);
	seqs.start = tb_now();
	sleep_noting_seqs(&seqs, p.warmup * 1000);
	sweeps_now(ctl, &p, begin);
	seq_begin = scan_seq_now();
	run_begin = runtime_ms_now(ctl, &p);
	sched_now(ctl, &p, 0);
	ctl->overloaded_at[0] = occupancy_move(ctl, &nodes, -1, -1);
	clocks = clocks_now(&tick_begin, &up_begin);
	tb_snapshot("begin");
	sleep_noting_seqs(&seqs, p.window * 1000);
	tb_snapshot("end");
	sweeps_now(ctl, &p, end);
	seq_end = scan_seq_now();
	run_end = runtime_ms_now(ctl, &p);
	sched_now(ctl, &p, 1);
	print_moving_numa(ctl, &p);
	ctl->overloaded_at[1] = occupancy_move(ctl, &nodes, -1, -1);
	clocks |= clocks_now(&tick_end, &up_end);
	ctl->stop = 1;
	for (unsigned int i = 0; i < nr; i++)
		pthread_join(tids[i], NULL);
	if (child > 0)
		waitpid(child, NULL, 0);

	{
		unsigned long passes = 0, switches = 0;

		for (unsigned int i = 0; i < p.moving + p.stable; i++) {
			passes += ctl->passes[i];
			switches += ctl->switches[i];
		}
		/* One line: the report keeps the last line of each kind. */
		printf("@@result passes=%lu switches=%lu window_moving_passes=%lu "
		       "window_stable_passes=%lu", passes, switches,
		       end[0] - begin[0], end[1] - begin[1]);
		if (seq_begin >= 0 && seq_end >= 0)
			printf(" window_scan_seqs=%ld", seq_end - seq_begin);
		if (run_begin >= 0 && run_end >= 0)
			printf(" window_worker_runtime_ms=%.0f", run_end - run_begin);
		for (unsigned int g = 0; g < 2; g++)
			for (unsigned int k = 0; k < 3; k++)
				if (ctl->sched[0][g][k] >= 0 && ctl->sched[1][g][k] >= 0)
					printf(" window_%s_%s=%.0f", g ? "stable" : "moving",
					       sched_keys[k][1],
					       ctl->sched[1][g][k] - ctl->sched[0][g][k]);
		printf(" window_overloaded_s=%.2f", ctl->overloaded_at[1] - ctl->overloaded_at[0]);
		/* jiffies per second over HZ: the scanner's delays run in jiffies */
		if (!clocks && up_end > up_begin)
			printf(" window_tick_rate=%.3f",
			       (tick_end - tick_begin) / (up_end - up_begin));
		printf("\n");
	}
	print_switch_late(ctl, &p);
	print_seq_log(&seqs);
	print_sweep_log(ctl, &p);
	return 0;
}
