/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * What the flush back-ends share (backend.c): the INVLPGB back-end falls
 * back to x86's IPIs for an mm without a global ASID, as Linux does.
 */
#ifndef TLBSIM_BACKEND_H
#define TLBSIM_BACKEND_H

#include "sim.h"

/* The CPU issuing the flush @ctx asks for. */
unsigned int backend_issuer(const struct flush_ctx *ctx);
/* The model's mm around the library's flush state. */
struct mm *backend_mm_of(struct tlbp_mm *f);
/* Drops what @req covers from one CPU's TLB; returns entries dropped. */
uint32_t backend_invalidate(struct sim *s, unsigned int cpu,
			    const struct tlbp_flush_req *req);
/* Counts @req as a full or a ranged flush. */
void backend_count_kind(struct sim *s, const struct tlbp_flush_req *req);
/* Whether @req is a full flush of every CPU of the machine. */
bool backend_whole_machine(const struct sim *s, const struct tlbp_flush_req *req);
/* x86-ipi's ops, for an mm an INVLPGB machine still flushes by IPIs. */
int backend_x86_flush(void *ctx, const struct tlbp_flush_req *req);
int backend_x86_add_pending(void *ctx, struct tlbp_mm *mm, uint64_t start,
			    uint64_t end);

typedef int backend_flush_fn(void *ctx, const struct tlbp_flush_req *req);
/* x86's flush_tlb_mm() (a drain of the batched generation): the whole mm
 * through @flush, which is flush_tlb_mm_range() of the back-end. */
int backend_x86_flush_tlb_mm(void *ctx, struct tlbp_mm *f, backend_flush_fn *flush);

extern const struct tlbp_flush_ops backend_invlpgb_ops;

#endif
