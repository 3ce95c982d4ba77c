/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Memory that a run reads at random (page states, TLB sets, the tag
 * index), placed where the host can back it with 2 MiB pages.
 */
#ifndef TLBSIM_HUGEMEM_H
#define TLBSIM_HUGEMEM_H

#include <stddef.h>

/*
 * @bytes of memory, not zeroed, cache-line aligned; from 2 MiB up also
 * aligned to 2 MiB and advised as huge pages. Free with free(). NULL when
 * out of memory.
 */
void *huge_alloc(size_t bytes);

/* As huge_alloc(), zeroed. */
void *huge_zalloc(size_t bytes);

#endif
