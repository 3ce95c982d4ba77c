/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * xoshiro256** seeded through splitmix64: fast, small state, and the same
 * stream on every machine, which is what byte-identical runs need.
 */
#ifndef TLBSIM_RNG_H
#define TLBSIM_RNG_H

#include <math.h>
#include <stdint.h>

struct rng {
	uint64_t s[4];
};

static inline uint64_t rng_splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline void rng_seed(struct rng *r, uint64_t seed)
{
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = rng_splitmix(&seed);
}

static inline uint64_t rng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rng_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rng_rotl(s[3], 45);
	return result;
}

/* Uniform in [0, 1) with 53 bits. */
static inline double rng_unit(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

/* Uniform in [0, n), n > 0, without modulo bias (Lemire). */
static inline uint64_t rng_below(struct rng *r, uint64_t n)
{
	unsigned __int128 m = (unsigned __int128)rng_next(r) * n;
	uint64_t l = (uint64_t)m;

	if (l < n) {
		uint64_t t = -n % n;

		while (l < t) {
			m = (unsigned __int128)rng_next(r) * n;
			l = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

/*
 * Natural log of x in (0, 1], without libm: split x into 2^e * m with m in
 * [1, 2), then log2(m) = 2 atanh((m-1)/(m+1)) / ln 2 as a short odd series
 * in t = (m-1)/(m+1), |t| <= 1/3 (relative error below 1e-7). Sampling
 * needs no more, and this is several times faster than log1p().
 */
static inline double rng_fast_log(double x)
{
	union { double d; uint64_t u; } v = { .d = x };
	int e = (int)((v.u >> 52) & 0x7ff) - 1023;
	double m, t, t2;

	v.u = (v.u & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL;
	m = v.d;
	t = (m - 1.0) / (m + 1.0);
	t2 = t * t;
	return e * 0.6931471805599453 +
	       2.0 * t * (1.0 + t2 * (1.0 / 3 + t2 * (1.0 / 5 + t2 * (1.0 / 7 +
	       t2 * (1.0 / 9 + t2 * (1.0 / 11 + t2 / 13))))));
}

/* Exponential with the given mean. */
static inline double rng_exp(struct rng *r, double mean)
{
	/* 1 - u is in (0, 1]: never log(0). */
	return -mean * rng_fast_log(1.0 - rng_unit(r));
}

#endif
