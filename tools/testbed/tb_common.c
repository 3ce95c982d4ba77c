// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include "tb_common.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
