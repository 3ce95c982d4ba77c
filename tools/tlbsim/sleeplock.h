/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Sleeping locks between modelled tasks: a mutex and an rwsem with the
 * kernel's queueing order, for workloads whose tasks sleep on them (the
 * testbed's thp_split: split_huge_pages' mutex and the mm's mmap_lock).
 * A task that cannot take a lock joins its wait queue and sleeps; an
 * unlock hands the lock to the tasks it wakes, which the caller resumes.
 *
 * The queue is intrusive: one struct lock_waiter per task, in an array
 * the caller owns, since a task waits on one lock at a time. Whether a
 * waiter spins or sleeps is its caller's to model; the queue's order is
 * first come, first served either way (6.12 lets a spinner take a freed
 * lock ahead of woken sleepers, which this does not model).
 */
#ifndef TLBSIM_SLEEPLOCK_H
#define TLBSIM_SLEEPLOCK_H

#include <stdbool.h>
#include <stdint.h>

#define LOCK_NO_TASK UINT32_MAX

struct lock_waiter {
	uint32_t next;  /* the task queued after this one, or LOCK_NO_TASK */
	bool write;     /* waits to write (an rwsem writer) */
};

struct lock_queue {
	uint32_t head, tail; /* LOCK_NO_TASK when empty */
};

struct model_mutex {
	bool held;
	uint32_t owner; /* the task holding it, or LOCK_NO_TASK */
	struct lock_queue q;
};

struct model_rwsem {
	unsigned int readers; /* tasks holding it to read */
	bool writer;          /* a task holds it to write */
	struct lock_queue q;
};

void model_mutex_init(struct model_mutex *m);
/* mutex_lock() by @task: true if it holds @m now, false if it queued. */
bool model_mutex_lock(struct model_mutex *m, struct lock_waiter *w, uint32_t task);
/* mutex_unlock(): the first waiter, which holds @m now, or LOCK_NO_TASK
 * (then @m is free). Unlocking a free mutex changes nothing. */
uint32_t model_mutex_unlock(struct model_mutex *m, struct lock_waiter *w);

void model_rwsem_init(struct model_rwsem *r);
/*
 * down_read()/down_write() by @task: true if it holds @r now, false if it
 * queued. A reader takes the lock when no writer holds it and nobody
 * waits: with a writer queued, a new reader queues behind it (6.12's
 * rwsem_down_read_slowpath() steals the lock only when no other reader
 * holds it either, which never outlives a wake-up here). A writer takes
 * it only when it is free and nobody waits.
 */
bool model_rwsem_down(struct model_rwsem *r, struct lock_waiter *w, uint32_t task,
		      bool write);
/*
 * up_read()/up_write(): when the lock is then free, it passes as
 * rwsem_mark_wake() passes it: to the first waiter if it writes, else to
 * every queued reader (writers between them keep their places). Writes
 * the tasks woken to @woken (room for @max) and returns how many; the
 * lock is theirs. Readers beyond @max stay queued. Releasing a lock
 * nobody holds, or with @max 0, changes nothing.
 */
unsigned int model_rwsem_up(struct model_rwsem *r, struct lock_waiter *w, bool write,
			    uint32_t *woken, unsigned int max);

#endif
