/* shuffle.c - the random permutations of 90B 5.1.
 *
 * NIST's tool draws from xoshiro256** seeded from /dev/urandom and shuffles
 * with Fisher-Yates using Lemire's unbiased range reduction.  We keep the
 * generator and the shuffle but seed every permutation from (seed, index)
 * through splitmix64, so that results are reproducible and independent of how
 * permutations are spread over threads.  (xoshiro256** and splitmix64 are
 * Blackman and Vigna's public-domain generators.) */
#include "config.h"

#include "iid/iid.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void iid_rng_seed(struct iid_rng *g, uint64_t seed, uint64_t stream)
{
	uint64_t x = seed;
	uint64_t y;
	/* mix the stream number in through a second splitmix64 step so that
	 * (seed, i) and (seed + 1, i - 1) do not share a state */
	y = splitmix64(&x) ^ (stream * 0xd1342543de82ef95ULL + 0x2545f4914f6cdd1dULL);
	for (int i = 0; i < 4; i++)
		g->s[i] = splitmix64(&y);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t iid_rng_next(struct iid_rng *g)
{
	uint64_t *s = g->s;
	const uint64_t r = rotl(s[1] * 5, 7) * 9;
	const uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return r;
}

/* Uniform in [0, bound) for bound <= 2^32, from 32 random bits (Lemire 2018:
 * multiply-shift, rejecting the few low products that would bias it). */
static inline uint32_t below32(uint32_t x, uint32_t bound, struct iid_rng *g, uint64_t *pool,
			       int *npool)
{
	uint64_t m = (uint64_t)x * bound;
	uint32_t l = (uint32_t)m;
	if (l < bound) {
		uint32_t t = (uint32_t)(-bound) % bound;
		while (l < t) {
			if (*npool == 0) {
				*pool = iid_rng_next(g);
				*npool = 2;
			}
			x = (uint32_t)(*pool >> (32 * --*npool));
			m = (uint64_t)x * bound;
			l = (uint32_t)m;
		}
	}
	return (uint32_t)(m >> 32);
}

void iid_shuffle(uint8_t *a, size_t n, struct iid_rng *g)
{
	uint64_t pool = 0;
	int npool = 0;
	size_t i = n;

	/* indices beyond 2^32 (never for 90B data sizes) use a 64-bit draw */
	for (; i > ((size_t)1 << 32); i--) {
		size_t j = (size_t)(((unsigned __int128)iid_rng_next(g) * i) >> 64);
		uint8_t t = a[i - 1]; a[i - 1] = a[j]; a[j] = t;
	}
	/* one 64-bit output gives two 32-bit draws */
	for (; i > 1; i--) {
		uint32_t x, j;
		uint8_t t;
		if (npool == 0) {
			pool = iid_rng_next(g);
			npool = 2;
		}
		x = (uint32_t)(pool >> (32 * --npool));
		j = below32(x, (uint32_t)i, g, &pool, &npool);
		t = a[i - 1]; a[i - 1] = a[j]; a[j] = t;
	}
}
