// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include <stdlib.h>
#include "heap.h"

static bool before(const struct event *a, const struct event *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

int heap_init(struct event_heap *h, size_t cap)
{
	h->ev = malloc((cap ? cap : 16) * sizeof(*h->ev));
	h->len = 0;
	h->cap = cap ? cap : 16;
	h->next_seq = 0;
	return h->ev ? 0 : -1;
}

void heap_free(struct event_heap *h)
{
	free(h->ev);
	h->ev = NULL;
	h->len = h->cap = 0;
}

int heap_push(struct event_heap *h, uint64_t time, uint32_t kind, uint32_t arg,
	      uint64_t arg2)
{
	struct event e = { time, h->next_seq++, kind, arg, arg2 };
	size_t i;

	if (h->len == h->cap) {
		struct event *grown = realloc(h->ev, 2 * h->cap * sizeof(*grown));

		if (!grown)
			return -1;
		h->ev = grown;
		h->cap *= 2;
	}
	for (i = h->len++; i > 0; ) {
		size_t parent = (i - 1) / 2;

		if (!before(&e, &h->ev[parent]))
			break;
		h->ev[i] = h->ev[parent];
		i = parent;
	}
	h->ev[i] = e;
	return 0;
}

bool heap_pop(struct event_heap *h, struct event *out)
{
	struct event last;
	size_t i = 0;

	if (!h->len)
		return false;
	*out = h->ev[0];
	last = h->ev[--h->len];
	for (;;) {
		size_t child = 2 * i + 1;

		if (child >= h->len)
			break;
		if (child + 1 < h->len && before(&h->ev[child + 1], &h->ev[child]))
			child++;
		if (!before(&h->ev[child], &last))
			break;
		h->ev[i] = h->ev[child];
		i = child;
	}
	if (h->len)
		h->ev[i] = last;
	return true;
}
