/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* Reads fuzzer bytes as small integers; past the end everything is 0. */
#ifndef TLBPOLICY_FUZZ_INPUT_H
#define TLBPOLICY_FUZZ_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct fuzz_input {
	const uint8_t *data;
	size_t len, pos;
};

static inline uint8_t fuzz_u8(struct fuzz_input *in)
{
	return in->pos < in->len ? in->data[in->pos++] : 0;
}

static inline uint32_t fuzz_u16(struct fuzz_input *in)
{
	return (uint32_t)fuzz_u8(in) | (uint32_t)fuzz_u8(in) << 8;
}

static inline bool fuzz_bool(struct fuzz_input *in)
{
	return fuzz_u8(in) & 1;
}

static inline bool fuzz_more(const struct fuzz_input *in)
{
	return in->pos < in->len;
}

/* An invariant broke: say which, then crash so libFuzzer keeps the input. */
#define FUZZ_REQUIRE(cond) \
	do { \
		if (!(cond)) { \
			fprintf(stderr, "%s:%d: invariant broken: %s\n", __FILE__, \
				__LINE__, #cond); \
			abort(); \
		} \
	} while (0)

#endif
