// SPDX-License-Identifier: GPL-2.0-only OR MIT
/* Sleeping locks between modelled tasks: see sleeplock.h. */
#include "sleeplock.h"

static void queue_init(struct lock_queue *q)
{
	q->head = q->tail = LOCK_NO_TASK;
}

static bool queue_empty(const struct lock_queue *q)
{
	return q->head == LOCK_NO_TASK;
}

static void queue_add(struct lock_queue *q, struct lock_waiter *w, uint32_t task, bool write)
{
	w[task].next = LOCK_NO_TASK;
	w[task].write = write;
	if (queue_empty(q))
		q->head = task;
	else
		w[q->tail].next = task;
	q->tail = task;
}

/* Takes @task, which follows @prev (LOCK_NO_TASK: the head), off @q. */
static void queue_unlink(struct lock_queue *q, struct lock_waiter *w, uint32_t prev,
			 uint32_t task)
{
	uint32_t next = w[task].next;

	if (prev == LOCK_NO_TASK)
		q->head = next;
	else
		w[prev].next = next;
	if (q->tail == task)
		q->tail = prev;
	w[task].next = LOCK_NO_TASK;
}

void model_mutex_init(struct model_mutex *m)
{
	m->held = false;
	m->owner = LOCK_NO_TASK;
	queue_init(&m->q);
}

bool model_mutex_lock(struct model_mutex *m, struct lock_waiter *w, uint32_t task)
{
	if (!m->held) {
		m->held = true;
		m->owner = task;
		return true;
	}
	queue_add(&m->q, w, task, true);
	return false;
}

uint32_t model_mutex_unlock(struct model_mutex *m, struct lock_waiter *w)
{
	uint32_t next = m->q.head;

	if (!m->held)
		return LOCK_NO_TASK;
	m->owner = next;
	if (next == LOCK_NO_TASK) {
		m->held = false;
		return LOCK_NO_TASK;
	}
	queue_unlink(&m->q, w, LOCK_NO_TASK, next);
	return next; /* handed over: still held */
}

void model_rwsem_init(struct model_rwsem *r)
{
	r->readers = 0;
	r->writer = false;
	queue_init(&r->q);
}

bool model_rwsem_down(struct model_rwsem *r, struct lock_waiter *w, uint32_t task,
		      bool write)
{
	bool free_now = !r->writer && (write ? r->readers == 0 : true);

	if (free_now && queue_empty(&r->q)) {
		if (write)
			r->writer = true;
		else
			r->readers++;
		return true;
	}
	queue_add(&r->q, w, task, write);
	return false;
}

unsigned int model_rwsem_up(struct model_rwsem *r, struct lock_waiter *w, bool write,
			    uint32_t *woken, unsigned int max)
{
	uint32_t prev = LOCK_NO_TASK, task, next;
	unsigned int n = 0;

	if (!max || (write ? !r->writer : !r->readers))
		return 0;
	if (write)
		r->writer = false;
	else
		r->readers--;
	if (r->readers || queue_empty(&r->q))
		return 0;
	task = r->q.head;
	if (w[task].write) {
		queue_unlink(&r->q, w, LOCK_NO_TASK, task);
		r->writer = true;
		woken[n++] = task;
		return n;
	}
	for (; task != LOCK_NO_TASK && n < max; task = next) {
		next = w[task].next;
		if (w[task].write) {
			prev = task;
			continue;
		}
		queue_unlink(&r->q, w, prev, task);
		r->readers++;
		woken[n++] = task;
	}
	return n;
}
