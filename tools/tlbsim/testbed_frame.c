// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * numa_regions' main() frame as the testbed's compiler lays it out
 * (Debian's gcc 12, -O2, scripts/testbed-initramfs.sh), read off the
 * binary: `objdump -d` of main() puts the parameters (struct params) at
 * 128 bytes above the stack pointer and the workers' arguments (struct
 * worker, 64 bytes each) from 960. Every worker reads both every sweep:
 * p->mode for each page it stores to, its own struct worker for the loop.
 *
 * Where the frame falls in its page changes from run to run: the kernel
 * starts the stack a random 0 to 8 KiB below its top (arch_align_stack()),
 * so in some runs the parameters and the arguments share a page, in
 * others they do not, and a page boundary can split the arguments so
 * that a page is read by only some of the workers. The guest's walk logs
 * show both (docs/kernel-port.md).
 */
#include "sim.h" /* PAGE_SHIFT */
#include "testbed_frame.h"

#define FRAME_PARAMS_OFF 128
#define FRAME_PARAMS_LEN 48
#define FRAME_WORKERS_OFF 960
#define FRAME_WORKER_LEN 64
/* Pages the frame's read bytes can span: the last argument ends below
 * 960 + 64 * 64 bytes past a start inside the first page. */
#define FRAME_PAGES_MAX 3

/* Marks worker @w as a reader of the pages [@off, @off + @len) spans. */
static void mark_readers(uint64_t *pages, uint64_t base, uint64_t off, uint64_t len, unsigned int w)
{
	uint64_t page;

	for (page = (base + off) >> PAGE_SHIFT; page <= (base + off + len - 1) >> PAGE_SHIFT; page++)
		pages[page] |= 1ULL << (w % 64);
}

int testbed_frame_readers(uint64_t base, unsigned int first_worker, unsigned int nr_workers,
			  uint64_t *readers, unsigned int max)
{
	uint64_t pages[FRAME_PAGES_MAX] = { 0 };
	unsigned int i, nr = 0;

	if (base >= 1u << PAGE_SHIFT || !nr_workers || first_worker > TESTBED_FRAME_WORKERS_MAX ||
	    nr_workers > TESTBED_FRAME_WORKERS_MAX - first_worker)
		return -1;
	for (i = 0; i < nr_workers; i++) {
		mark_readers(pages, base, FRAME_PARAMS_OFF, FRAME_PARAMS_LEN, i);
		mark_readers(pages, base, FRAME_WORKERS_OFF + (uint64_t)(first_worker + i) * FRAME_WORKER_LEN,
		      FRAME_WORKER_LEN, i);
	}
	for (i = 0; i < FRAME_PAGES_MAX; i++) {
		if (!pages[i])
			continue;
		if (nr == max)
			return -1;
		readers[nr++] = pages[i];
	}
	return (int)nr;
}
