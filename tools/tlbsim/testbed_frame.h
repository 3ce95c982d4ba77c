/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The pages of numa_regions' main() frame that its workers read every
 * sweep (tools/testbed/numa_regions.c): which of the main thread's stack
 * pages take a hint fault after the NUMA scanner marks them, and by whom.
 */
#ifndef TLBSIM_TESTBED_FRAME_H
#define TLBSIM_TESTBED_FRAME_H

#include <stdint.h>

/* The frame starts 16-byte aligned (arch_align_stack()). */
#define TESTBED_FRAME_ALIGN 16
/* numa_regions' MAX_THREADS: main()'s ws[] has room for no more workers. */
#define TESTBED_FRAME_WORKERS_MAX 64

/*
 * The pages a process's @nr_workers workers read, the first of them
 * numa_regions' worker @first_worker (its index in main()'s ws[]), when
 * main()'s frame starts @base bytes into its first page: @readers[i] gets
 * page i's readers, one bit a worker's index in the process (bit w % 64),
 * pages without one left out. Returns how many pages it wrote, or -1 if
 * @base is not below the page size, @nr_workers is 0 or they read more
 * than @max pages.
 */
int testbed_frame_readers(uint64_t base, unsigned int first_worker, unsigned int nr_workers,
			  uint64_t *readers, unsigned int max);

#endif
