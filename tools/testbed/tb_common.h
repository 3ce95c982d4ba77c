/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Helpers shared by the testbed workloads: node CPU sets, counter
 * snapshots on stdout, timing. The workloads run as static binaries in the
 * testbed guest's initramfs (scripts/testbed.sh), never on the host.
 */
#ifndef TLBPOLICY_TB_COMMON_H
#define TLBPOLICY_TB_COMMON_H

#define _GNU_SOURCE
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TB_PAGE_SIZE 4096UL
#define TB_MAX_NODES 2

/* CPUs of each node, from /sys/devices/system/node/node<N>/cpulist. */
struct tb_nodes {
	int nr;
	cpu_set_t cpus[TB_MAX_NODES];
	int nr_cpus[TB_MAX_NODES];
};

int tb_nodes_read(struct tb_nodes *nodes);
int tb_pin_to_node(const struct tb_nodes *nodes, int node);
int tb_pin_to_cpu(int cpu);
/* The n-th CPU of a node, wrapping. */
int tb_node_cpu(const struct tb_nodes *nodes, int node, int n);

/*
 * Read the library's counters, /proc/vmstat, the library's counters again
 * ("<file> (after vmstat)") and /proc/interrupts, then print each between
 * "@@snap <tag> <file>" and "@@end" lines, then "@@snap-span-<tag>
 * seconds=S": how long the reads took.
 */
void tb_snapshot(const char *tag);

double tb_now(void);
void tb_sleep_ms(unsigned int ms);
/* Write a string to a sysfs/debugfs file; 0 or -1 (reported on stderr). */
int tb_write_file(const char *path, const char *val);

/*
 * mprotect() of more present pages than x86's single-page flush ceiling
 * (33) ends in a flush of the whole TLB of every CPU the mm runs on
 * (flush_tlb_mm_range()), which is where qemu resizes a vCPU's TLB.
 */
#define TB_FLUSH_PAGES 64

/* Two flushes of every CPU running @spare's mm, each of @pages present
 * pages: full ones for TB_FLUSH_PAGES. */
void tb_flush_mm(char *spare, unsigned int pages);

/*
 * Bring qemu's software TLB of each of the @nr vCPUs @cpus back to about
 * its boot size, however far full flushes grew it before (about 0.6 s).
 * Returns 0, or -1 if the threads or their page cannot be had.
 */
int tb_tlb_shrink(const int *cpus, int nr);

#endif /* TLBPOLICY_TB_COMMON_H */
