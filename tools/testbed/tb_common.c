// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include "tb_common.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define TB_COUNTERS "/sys/kernel/debug/tlbpolicy/counters"

/*
 * The library's counters are read right before and right after
 * /proc/vmstat: their migration counts are compared (hint_migrated
 * against numa_pages_migrated), a storm moves both while a read waits,
 * and two reads of the library's bracket the moment vmstat was read
 * (scripts/testbed-report.py, numa_migrated_unhinted_{min,max}).
 */
static const struct {
	const char *path, *name;
} snapshot_files[] = {
	{ TB_COUNTERS, TB_COUNTERS },
	{ "/proc/vmstat", "/proc/vmstat" },
	{ TB_COUNTERS, TB_COUNTERS " (after vmstat)" },
	{ "/proc/interrupts", "/proc/interrupts" },
};

static int parse_cpulist(const char *s, cpu_set_t *set)
{
	int n = 0;

	CPU_ZERO(set);
	while (*s && *s != '\n') {
		char *end;
		long lo = strtol(s, &end, 10), hi = lo;

		if (end == s)
			return -1;
		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		for (long c = lo; c <= hi && c < CPU_SETSIZE; c++, n++)
			CPU_SET(c, set);
		s = *end == ',' ? end + 1 : end;
	}
	return n;
}

int tb_nodes_read(struct tb_nodes *nodes)
{
	memset(nodes, 0, sizeof(*nodes));
	for (int i = 0; i < TB_MAX_NODES; i++) {
		char path[64], line[256];
		FILE *f;

		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist", i);
		f = fopen(path, "r");
		if (!f)
			break;
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
		nodes->nr_cpus[i] = parse_cpulist(line, &nodes->cpus[i]);
		if (nodes->nr_cpus[i] <= 0)
			break;
		nodes->nr++;
	}
	return nodes->nr == TB_MAX_NODES ? 0 : -1;
}

int tb_pin_to_node(const struct tb_nodes *nodes, int node)
{
	return sched_setaffinity(0, sizeof(cpu_set_t), &nodes->cpus[node % nodes->nr]);
}

int tb_pin_to_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

int tb_node_cpu(const struct tb_nodes *nodes, int node, int n)
{
	const cpu_set_t *set = &nodes->cpus[node % nodes->nr];
	int want = n % nodes->nr_cpus[node % nodes->nr];

	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, set) && want-- == 0)
			return c;
	return 0;
}

/* Room for one counter file's text: /proc/interrupts of 8 vCPUs is ~5 KiB. */
#define TB_SNAP_MAX 65536
#define TB_SNAP_FILES (sizeof(snapshot_files) / sizeof(snapshot_files[0]))

/* Read the whole of @path into @buf; its length, or -1 if it cannot be opened. */
static long snap_read(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t n, len = 0;

	if (!f)
		return -1;
	while (len < size && (n = fread(buf + len, 1, size - len, f)) > 0)
		len += n;
	if (len == size)
		fprintf(stderr, "tb_snapshot: %s truncated at %zu bytes\n", path, size);
	fclose(f);
	return (long)len;
}

/*
 * All the files are read before any is printed: printing goes to the
 * guest's serial console, slow enough under TCG that a storm migrates
 * thousands of pages between /proc/vmstat and the library's counters if
 * each file is printed as it is read. @@snap-span-<tag> gives the read's
 * duration, the bound on how far apart the files' counts are
 * (docs/data/testbed-snapshot-order.md).
 */
void tb_snapshot(const char *tag)
{
	static char text[TB_SNAP_FILES][TB_SNAP_MAX];
	long len[TB_SNAP_FILES];
	double t0 = tb_now(), t1;

	for (size_t i = 0; i < TB_SNAP_FILES; i++)
		len[i] = snap_read(snapshot_files[i].path, text[i], sizeof(text[i]));
	t1 = tb_now();
	for (size_t i = 0; i < TB_SNAP_FILES; i++) {
		printf("@@snap %s %s\n", tag, snapshot_files[i].name);
		if (len[i] > 0)
			fwrite(text[i], 1, (size_t)len[i], stdout);
		printf("@@end\n");
	}
	printf("@@snap-span-%s seconds=%.6f\n", tag, t1 - t0);
	fflush(stdout);
}

double tb_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void tb_sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int tb_write_file(const char *path, const char *val)
{
	FILE *f = fopen(path, "w");
	int err;

	if (!f) {
		fprintf(stderr, "tb: %s: %s\n", path, strerror(errno));
		return -1;
	}
	err = fputs(val, f) < 0;
	err |= fclose(f) != 0;
	if (err)
		fprintf(stderr, "tb: writing %s to %s failed\n", val, path);
	return err ? -1 : 0;
}

/*
 * qemu shrinks a vCPU's TLB only at a full flush that ends a window of
 * 100 ms in which under 30% of it was in use, and then to the power of two
 * above the most entries in use (tlb_mmu_resize_locked()). A window's use
 * is what was filled between two flushes, so the first round can still
 * see a workload's use and the second the fill that round found: the
 * third, after two quiet ones, shrinks. One more for slack.
 */
#define SHRINK_ROUNDS 4
#define SHRINK_QUIET_MS 150

static char *shrink_spare;

void tb_flush_mm(char *spare, unsigned int pages)
{
	mprotect(spare, pages * TB_PAGE_SIZE, PROT_READ);
	mprotect(spare, pages * TB_PAGE_SIZE, PROT_READ | PROT_WRITE);
}

static void *shrink_main(void *arg)
{
	tb_pin_to_cpu((int)(long)arg);
	for (int r = 0; r < SHRINK_ROUNDS; r++) {
		tb_sleep_ms(SHRINK_QUIET_MS);
		tb_flush_mm(shrink_spare, TB_FLUSH_PAGES);
	}
	return NULL;
}

int tb_tlb_shrink(const int *cpus, int nr)
{
	size_t len = TB_FLUSH_PAGES * TB_PAGE_SIZE;
	pthread_t tid[CPU_SETSIZE];
	int i, err = 0;

	if (nr > CPU_SETSIZE)
		return -1;
	shrink_spare = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (shrink_spare == MAP_FAILED)
		return -1;
	memset(shrink_spare, 1, len); /* present, so that mprotect() flushes */
	for (i = 0; i < nr; i++)
		if (pthread_create(&tid[i], NULL, shrink_main, (void *)(long)cpus[i]))
			break;
	if (i < nr)
		err = -1;
	while (i-- > 0)
		pthread_join(tid[i], NULL);
	munmap(shrink_spare, len);
	return err;
}
