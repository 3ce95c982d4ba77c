/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The event queue: a binary min-heap ordered by (time, sequence number).
 * The sequence number breaks ties in scheduling order, so runs do not
 * depend on how the heap happens to arrange equal times.
 */
#ifndef TLBSIM_HEAP_H
#define TLBSIM_HEAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct event {
	uint64_t time;  /* virtual ns */
	uint64_t seq;
	uint32_t kind;
	uint32_t arg;
	uint64_t arg2; /* a page, for events about one page */
};

struct event_heap {
	struct event *ev;
	size_t len, cap;
	uint64_t next_seq;
};

int heap_init(struct event_heap *h, size_t cap);
void heap_free(struct event_heap *h);
int heap_push(struct event_heap *h, uint64_t time, uint32_t kind, uint32_t arg,
	      uint64_t arg2);
bool heap_pop(struct event_heap *h, struct event *out);

#endif
