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

static const char *const snapshot_files[] = {
	"/proc/vmstat",
	"/proc/interrupts",
	"/sys/kernel/debug/tlbpolicy/counters",
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

void tb_snapshot(const char *tag)
{
	char buf[4096];

	for (size_t i = 0; i < sizeof(snapshot_files) / sizeof(snapshot_files[0]); i++) {
		FILE *f = fopen(snapshot_files[i], "r");
		size_t n;

		printf("@@snap %s %s\n", tag, snapshot_files[i]);
		if (f) {
			while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
				fwrite(buf, 1, n, stdout);
			fclose(f);
		}
		printf("@@end\n");
	}
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
