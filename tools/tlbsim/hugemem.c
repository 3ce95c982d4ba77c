// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Memory read at random by every sampled access. On 4 KiB host pages
 * nearly every such read first walks the host's page table (an access's
 * prefetch waits for it, and under a hypervisor that walk is nested); on
 * 2 MiB pages the host TLB covers hundreds of MiB. The madvise is a hint
 * whose failure costs speed only.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "hugemem.h"

/* The host's PMD size, the THP asked for. */
#define HOST_HUGE_BYTES ((size_t)2 << 20)
#define CACHE_LINE 64

void *huge_alloc(size_t bytes)
{
	size_t align = bytes < HOST_HUGE_BYTES ? CACHE_LINE : HOST_HUGE_BYTES;
	void *mem = NULL;

	if (posix_memalign(&mem, align, bytes ? bytes : 1))
		return NULL;
#ifdef MADV_HUGEPAGE
	if (bytes >= HOST_HUGE_BYTES)
		(void)madvise(mem, bytes & ~(HOST_HUGE_BYTES - 1), MADV_HUGEPAGE);
#endif
	return mem;
}

void *huge_zalloc(size_t bytes)
{
	void *mem = huge_alloc(bytes);

	if (mem)
		memset(mem, 0, bytes);
	return mem;
}
