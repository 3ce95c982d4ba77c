// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The sleeping locks of the thp_split model (sleeplock.c): first come,
 * first served (6.12 also lets a spinner take a freed lock ahead of the
 * sleepers, which the model leaves out); an rwsem queues a reader behind
 * a waiting writer, passes a freed lock to a writer at the head alone,
 * else to every queued reader, writers between them keeping their
 * places (rwsem_mark_wake()).
 */
#include <check.h>
#include "sleeplock.h"
#include "suite_runner.h"

#define TASKS 8

START_TEST(test_mutex_hands_off_in_order)
{
	struct lock_waiter w[TASKS];
	struct model_mutex m;

	model_mutex_init(&m);
	ck_assert(model_mutex_lock(&m, w, 0));
	ck_assert_uint_eq(m.owner, 0);
	ck_assert(!model_mutex_lock(&m, w, 3));
	ck_assert(!model_mutex_lock(&m, w, 1));
	ck_assert_uint_eq(model_mutex_unlock(&m, w), 3);
	ck_assert(m.held);
	ck_assert_uint_eq(m.owner, 3);
	ck_assert_uint_eq(model_mutex_unlock(&m, w), 1);
	ck_assert_uint_eq(model_mutex_unlock(&m, w), LOCK_NO_TASK);
	ck_assert(!m.held);
	ck_assert_uint_eq(m.owner, LOCK_NO_TASK);
	/* Unlocking a free mutex changes nothing. */
	ck_assert_uint_eq(model_mutex_unlock(&m, w), LOCK_NO_TASK);
	ck_assert(!m.held);
	ck_assert(model_mutex_lock(&m, w, 2));
}
END_TEST

START_TEST(test_rwsem_readers_share_writers_exclude)
{
	struct lock_waiter w[TASKS];
	struct model_rwsem r;
	uint32_t woken[TASKS];

	model_rwsem_init(&r);
	ck_assert(model_rwsem_down(&r, w, 0, false));
	ck_assert(model_rwsem_down(&r, w, 1, false));
	ck_assert_uint_eq(r.readers, 2);
	ck_assert(!model_rwsem_down(&r, w, 2, true));
	/* The last reader out hands the lock to the writer. */
	ck_assert_uint_eq(model_rwsem_up(&r, w, false, woken, TASKS), 0);
	ck_assert_uint_eq(model_rwsem_up(&r, w, false, woken, TASKS), 1);
	ck_assert_uint_eq(woken[0], 2);
	ck_assert(r.writer);
	ck_assert(!model_rwsem_down(&r, w, 3, false));
	ck_assert(!model_rwsem_down(&r, w, 4, true));
	ck_assert_uint_eq(model_rwsem_up(&r, w, true, woken, TASKS), 1);
	ck_assert_uint_eq(woken[0], 3);
	ck_assert_uint_eq(r.readers, 1);
	ck_assert_uint_eq(model_rwsem_up(&r, w, false, woken, TASKS), 1);
	ck_assert_uint_eq(woken[0], 4);
	ck_assert(r.writer && !r.readers);
	ck_assert_uint_eq(model_rwsem_up(&r, w, true, woken, TASKS), 0);
	ck_assert(!r.writer);
}
END_TEST

START_TEST(test_rwsem_reader_queues_behind_a_waiting_writer)
{
	struct lock_waiter w[TASKS];
	struct model_rwsem r;
	uint32_t woken[TASKS];

	model_rwsem_init(&r);
	ck_assert(model_rwsem_down(&r, w, 0, false));
	ck_assert(!model_rwsem_down(&r, w, 1, true));
	/* Held to read, yet a new reader waits: a writer is queued. */
	ck_assert(!model_rwsem_down(&r, w, 2, false));
	ck_assert_uint_eq(r.readers, 1);
	ck_assert_uint_eq(model_rwsem_up(&r, w, false, woken, TASKS), 1);
	ck_assert_uint_eq(woken[0], 1);
	ck_assert_uint_eq(model_rwsem_up(&r, w, true, woken, TASKS), 1);
	ck_assert_uint_eq(woken[0], 2);
}
END_TEST

START_TEST(test_rwsem_wakes_every_queued_reader)
{
	struct lock_waiter w[TASKS];
	struct model_rwsem r;
	uint32_t woken[TASKS];

	model_rwsem_init(&r);
	ck_assert(model_rwsem_down(&r, w, 0, true));
	ck_assert(!model_rwsem_down(&r, w, 1, false));
	ck_assert(!model_rwsem_down(&r, w, 2, true));
	ck_assert(!model_rwsem_down(&r, w, 3, false));
	ck_assert(!model_rwsem_down(&r, w, 4, true));
	/* Readers 1 and 3 both: the writers keep their order. */
	ck_assert_uint_eq(model_rwsem_up(&r, w, true, woken, TASKS), 2);
	ck_assert_uint_eq(woken[0], 1);
	ck_assert_uint_eq(woken[1], 3);
	ck_assert_uint_eq(r.readers, 2);
	ck_assert_uint_eq(model_rwsem_up(&r, w, false, woken, TASKS), 0);
	ck_assert_uint_eq(model_rwsem_up(&r, w, false, woken, TASKS), 1);
	ck_assert_uint_eq(woken[0], 2);
	ck_assert_uint_eq(model_rwsem_up(&r, w, true, woken, TASKS), 1);
	ck_assert_uint_eq(woken[0], 4);
	ck_assert_uint_eq(model_rwsem_up(&r, w, true, woken, TASKS), 0);
	ck_assert(!r.writer && !r.readers);
	ck_assert_uint_eq(r.q.head, LOCK_NO_TASK);
}
END_TEST

START_TEST(test_rwsem_wakes_at_most_max_readers)
{
	struct lock_waiter w[TASKS];
	struct model_rwsem r;
	uint32_t woken[TASKS];

	model_rwsem_init(&r);
	ck_assert(model_rwsem_down(&r, w, 0, true));
	ck_assert(!model_rwsem_down(&r, w, 1, false));
	ck_assert(!model_rwsem_down(&r, w, 2, false));
	ck_assert(!model_rwsem_down(&r, w, 3, false));
	ck_assert_uint_eq(model_rwsem_up(&r, w, true, woken, 2), 2);
	ck_assert_uint_eq(r.readers, 2);
	ck_assert_uint_eq(r.q.head, 3);
	/* The one left takes it when the readers are done. */
	ck_assert_uint_eq(model_rwsem_up(&r, w, false, woken, 2), 0);
	ck_assert_uint_eq(model_rwsem_up(&r, w, false, woken, 2), 1);
	ck_assert_uint_eq(woken[0], 3);
}
END_TEST

START_TEST(test_rwsem_bad_releases_change_nothing)
{
	struct lock_waiter w[TASKS];
	struct model_rwsem r;
	uint32_t woken[TASKS];

	model_rwsem_init(&r);
	ck_assert_uint_eq(model_rwsem_up(&r, w, true, woken, TASKS), 0);
	ck_assert_uint_eq(model_rwsem_up(&r, w, false, woken, TASKS), 0);
	ck_assert(!r.writer && !r.readers);
	ck_assert(model_rwsem_down(&r, w, 0, false));
	/* up_write() of a read-held lock, and no room to wake: refused. */
	ck_assert_uint_eq(model_rwsem_up(&r, w, true, woken, TASKS), 0);
	ck_assert(!model_rwsem_down(&r, w, 1, true));
	ck_assert_uint_eq(model_rwsem_up(&r, w, false, woken, 0), 0);
	ck_assert_uint_eq(r.readers, 1);
	ck_assert_uint_eq(model_rwsem_up(&r, w, false, woken, 1), 1);
	ck_assert_uint_eq(woken[0], 1);
	/* The writer was the tail: the queue takes new waiters again. */
	ck_assert(!model_rwsem_down(&r, w, 2, false));
	ck_assert_uint_eq(r.q.head, 2);
	ck_assert_uint_eq(r.q.tail, 2);
}
END_TEST

static Suite *sleeplock_suite(void)
{
	Suite *s = suite_create("sim_sleeplock");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_mutex_hands_off_in_order);
	tcase_add_test(tc, test_rwsem_readers_share_writers_exclude);
	tcase_add_test(tc, test_rwsem_reader_queues_behind_a_waiting_writer);
	tcase_add_test(tc, test_rwsem_wakes_every_queued_reader);
	tcase_add_test(tc, test_rwsem_wakes_at_most_max_readers);
	tcase_add_test(tc, test_rwsem_bad_releases_change_nothing);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(sleeplock_suite());
}
