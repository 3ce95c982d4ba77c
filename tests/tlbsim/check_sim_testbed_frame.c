// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Which pages of numa_regions' main() frame its workers read
 * (tools/tlbsim/testbed_frame.c), from the layout the testbed's binary
 * has: `objdump -d` of main() built as scripts/testbed-initramfs.sh
 * builds it puts struct params (48 bytes) at 128 bytes above the stack
 * pointer and ws[], 64 bytes a worker, at 960. The cases place the frame
 * by hand so that a page boundary falls nowhere, between the two, inside
 * ws[], or below both.
 */
#include <check.h>
#include "testbed_frame.h"
#include "suite_runner.h"

static uint64_t readers[4];

/* The frame @base bytes into its page, workers @first.. @first + @nr - 1:
 * @n pages, page i read by @want[i]. */
static void expect_pages(uint64_t base, unsigned int first, unsigned int nr, int n,
			 const uint64_t *want)
{
	int i;

	ck_assert_int_eq(testbed_frame_readers(base, first, nr, readers, 4), n);
	for (i = 0; i < n; i++)
		ck_assert_uint_eq(readers[i], want[i]);
}

START_TEST(test_testbed_frame_readers_on_one_page)
{
	/* 128..176 and 960..1472: one page, read by all eight. */
	expect_pages(0, 0, 8, 1, (const uint64_t[]){ 0xff });
}
END_TEST

START_TEST(test_testbed_frame_readers_params_and_arguments_apart)
{
	/* params end at 4096 exactly, ws[] starts at 4880: two pages, each
	 * read by every worker. */
	expect_pages(3920, 0, 8, 2, (const uint64_t[]){ 0xff, 0xff });
}
END_TEST

START_TEST(test_testbed_frame_readers_boundary_inside_the_arguments)
{
	/* ws[0..3] at 3840..4096, ws[4..7] past the boundary: the second
	 * page is read by workers 4-7 only. */
	expect_pages(2880, 0, 8, 2, (const uint64_t[]){ 0xff, 0xf0 });
	/* numa-shared: the parent's four read the first page only, the
	 * child's four (ws[4..7], bits of their own process) both. */
	expect_pages(2880, 0, 4, 1, (const uint64_t[]){ 0xf });
	expect_pages(2880, 4, 4, 2, (const uint64_t[]){ 0xf, 0xf });
}
END_TEST

START_TEST(test_testbed_frame_readers_worker_straddles_a_boundary)
{
	/* base 2896 puts ws[i] at 3856 + 64 i: ws[3] spans 4048..4112, so
	 * worker 3 reads both pages; ws[4..7] lie past the boundary. */
	expect_pages(2896, 0, 8, 2, (const uint64_t[]){ 0xff, 0xf8 });
}
END_TEST

START_TEST(test_testbed_frame_readers_sixty_four_workers_on_three_pages)
{
	/* base 3520: params at 3648, ws[i] at 4480 + 64 i, to 8576: ws[0..57]
	 * on the second page, ws[58..63] on the third, worker 63 bit 63. */
	expect_pages(3520, 0, 64, 3, (const uint64_t[]){ ~0ULL, (1ULL << 58) - 1, ~0ULL << 58 });
	ck_assert_int_eq(testbed_frame_readers(3520, 0, 64, readers, 2), -1);
}
END_TEST

START_TEST(test_testbed_frame_readers_leaves_out_a_page_nobody_reads)
{
	/* Everything read lies past the first page's end. */
	expect_pages(4000, 0, 8, 1, (const uint64_t[]){ 0xff });
}
END_TEST

START_TEST(test_testbed_frame_readers_refuses_bad_input)
{
	ck_assert_int_eq(testbed_frame_readers(4096, 0, 8, readers, 4), -1);
	ck_assert_int_eq(testbed_frame_readers(0, 0, 0, readers, 4), -1);
	ck_assert_int_eq(testbed_frame_readers(0, 60, 8, readers, 4), -1); /* past ws[63] */
	/* ws[63] ends 5056 bytes up: the last there is room for. */
	ck_assert_int_eq(testbed_frame_readers(0, 0, 64, readers, 4), 2);
	ck_assert_int_eq(testbed_frame_readers(3920, 0, 8, readers, 1), -1); /* no room */
}
END_TEST

static Suite *testbed_frame_suite(void)
{
	Suite *s = suite_create("sim_testbed_frame");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_testbed_frame_readers_on_one_page);
	tcase_add_test(tc, test_testbed_frame_readers_params_and_arguments_apart);
	tcase_add_test(tc, test_testbed_frame_readers_boundary_inside_the_arguments);
	tcase_add_test(tc, test_testbed_frame_readers_worker_straddles_a_boundary);
	tcase_add_test(tc, test_testbed_frame_readers_sixty_four_workers_on_three_pages);
	tcase_add_test(tc, test_testbed_frame_readers_leaves_out_a_page_nobody_reads);
	tcase_add_test(tc, test_testbed_frame_readers_refuses_bad_input);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(testbed_frame_suite());
}
