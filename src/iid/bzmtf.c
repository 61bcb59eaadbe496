/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bzmtf.c - bzip2's move-to-front and zero-run coding of a block's
 * transform (generateMTFValues), for bzcode.c.
 *
 * For the small alphabets of decimal text the step runs without
 * data-dependent branches: the MTF list of up to 16 symbols is a vector of
 * each symbol's place (SSSE3) or a word of nibbles (elsewhere), and zero
 * runs are written from a table. */
#include "config.h"

#include <string.h>

#include "iid/bzsize_int.h"

#ifdef BZ_X86_SIMD
#include <tmmintrin.h>
#endif

size_t bz_put_zero_run(uint16_t *out, size_t z)
{
	size_t k = 0;
	z--;
	for (;;) {
		out[k++] = (z & 1) ? BZ_RUNB : BZ_RUNA;
		if (z < 2)
			return k;
		z = (z - 2) / 2;
	}
}

/* One MTF step on a list of bytes (bzip2's own loop): ll's place in it;
 * ll moves to the front. */
int bz_mtf_byte_list(uint8_t *list, uint8_t ll)
{
	uint8_t tmp = list[0], tmp2;
	int j = 0;
	while (ll != tmp) {
		j++;
		tmp2 = tmp;
		tmp = list[j];
		list[j] = tmp2;
	}
	list[0] = tmp;
	return j;
}

/* An MTF list of up to 16 symbols as the nibbles of a word, the front in
 * the lowest: 0, 1, ..., n - 1 */
static uint64_t mtf_nibble_list(int n)
{
	uint64_t list = 0;
	for (int i = n - 1; i >= 0; i--)
		list = list << 4 | (uint64_t)i;
	return list;
}

/* One MTF step on such a list: ll's place in it; ll moves to the front. */
static inline unsigned mtf_nibble_step(uint64_t *list, uint64_t ll)
{
	uint64_t v = *list ^ (0x1111111111111111ULL * ll);
	/* the flag of v's lowest zero nibble is exact (a borrow only flags
	 * nibbles above a true zero); ll is in the list, so it exists */
	uint64_t z = (v - 0x1111111111111111ULL) & ~v & 0x8888888888888888ULL;
	uint64_t upto = z ^ (z - 1);   /* the nibbles up to and including ll's */
	*list = (*list & ~upto) | ((*list << 4) & upto) | ll;
	return (unsigned)__builtin_ctzll(z) >> 2;
}

/* Zero-run coding of MTF place j (bzip2's generateMTFValues) without a
 * branch on whether j is 0 (a third of the time, unpredictably, on the text
 * of 8-bit samples): a pending run of up to BZ_RUN_TAB - 1 zeros is written
 * from a table with the value j + 1 after it on every step, and kept only
 * when j closes the run. */
static inline void run_code(const struct iid_bzwork *w, uint16_t *mtfv, size_t *wr, size_t *zpend,
			    unsigned j)
{
	size_t rl;
	if (__builtin_expect(*zpend >= BZ_RUN_TAB - 1, 0)) {
		if (j == 0) {
			++*zpend;
			return;
		}
		*wr += bz_put_zero_run(mtfv + *wr, *zpend);
		mtfv[(*wr)++] = (uint16_t)(j + 1);
		*zpend = 0;
		return;
	}
	rl = w->run_len[*zpend];
	memcpy(mtfv + *wr, w->run_sym[*zpend], sizeof w->run_sym[0]);
	mtfv[*wr + rl] = (uint16_t)(j + 1);
	/* (masks, not conditionals, which the compiler may turn back into
	 * branches) */
	*wr += (rl + 1) & -(size_t)(j != 0);
	*zpend = (*zpend + 1) & -(size_t)(j == 0);
}

#ifdef BZ_X86_SIMD
/* The pshufb chain's tables, by byte value: its symbol in every lane
 * (bcast) and every lane but its own (keep); init: symbol v at place v,
 * unused lanes at 127, which no place exceeds. */
__attribute__((target("ssse3"))) static void mtf_tables_ssse3(const int *unseq, int n_in_use,
							      __m128i bcast[256], __m128i keep[256],
							      uint8_t init[16])
{
	const __m128i lanes = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);

	for (int b = 0; b < 256; b++) {
		bcast[b] = _mm_set1_epi8((char)(unseq[b] >= 0 ? unseq[b] : 0));
		keep[b] = _mm_xor_si128(_mm_cmpeq_epi8(bcast[b], lanes), _mm_set1_epi8(-1));
	}
	for (int v = 0; v < 16; v++)
		init[v] = (uint8_t)(v < n_in_use ? v : 127);
}

/* MTF of up to 16 symbols with the list held as each symbol's place, a
 * byte per symbol in a vector: a step broadcasts the symbol's place j
 * (pshufb), adds 1 to the places below j and sets the symbol's to 0.  The
 * chain from one step to the next is four one-cycle vector operations,
 * against about eight for the word of nibbles, and the step is a third of
 * its instructions.  Returns the values written; *zpend: the run left open.
 * (Writing the places first and coding the zero runs 64 places at a time
 * was slower: most places are not 0.) */
__attribute__((target("ssse3"))) static size_t mtf_places_ssse3(struct iid_bzwork *w, size_t nb,
								 const int *unseq, int n_in_use,
								 size_t *zpend)
{
	__m128i bcast[256], keep[256], place;
	uint8_t init[16];
	const uint8_t *bwt = w->bwt;
	uint16_t *mtfv = w->mtfv;
	size_t wr = 0, z = 0;

	mtf_tables_ssse3(unseq, n_in_use, bcast, keep, init);
	place = _mm_loadu_si128((const __m128i *)init);
	for (size_t s = 0; s < nb; s++) {
		uint8_t c = bwt[s];
		__m128i j = _mm_shuffle_epi8(place, bcast[c]);
		place = _mm_sub_epi8(place, _mm_cmpgt_epi8(j, place));
		place = _mm_and_si128(place, keep[c]);
		run_code(w, mtfv, &wr, &z, (unsigned)_mm_cvtsi128_si32(j) & 255);
	}
	*zpend = z;
	return wr;
}

/* The MTF list after the first h values of bwt (h >= 1), as each symbol's
 * place, unused lanes at 127: the symbols by their last place before h,
 * latest first, then those not seen in their first order (bzip2's list
 * starts 0, 1, ..., n_in_use - 1, and a symbol moves only when it is
 * coded).  A look back until every symbol is seen: a few dozen values on
 * decimal text. */
static void mtf_list_at(const uint8_t *bwt, size_t h, const int *unseq, int n_in_use,
			uint8_t place[16])
{
	int k = 0;

	memset(place, 127, 16);
	for (size_t s = h; s-- > 0 && k < n_in_use;) {
		int v = unseq[bwt[s]];
		if (place[v] == 127)
			place[v] = (uint8_t)k++;
	}
	for (int v = 0; v < n_in_use; v++)
		if (place[v] == 127)
			place[v] = (uint8_t)k++;
}

/* mtf_places_ssse3 with the block cut in two halves coded side by side:
 * the second half starts from the list the first leaves (mtf_list_at), so
 * each step waits only on its own half's last, and the two chains of four
 * one-cycle operations overlap (a single chain ran at about its latency).
 * Each half is zero-run coded on its own, the second into w->mtfv2; the
 * run of zeros that spans the cut is then coded once, as bzip2 codes it:
 * the first half's open run joined to the second's leading zeros, which
 * are the repeats of the cut's last value (the front of its list), and
 * the second half's values after its leading run copied behind.  Returns
 * 0 (use the single chain) when the second half is that run alone. */
__attribute__((target("ssse3"))) static size_t mtf_places_ssse3_2(struct iid_bzwork *w, size_t nb,
								   const int *unseq, int n_in_use,
								   size_t *zpend)
{
	__m128i bcast[256], keep[256], pa, pb;
	uint8_t init[16];
	const uint8_t *bwt = w->bwt;
	uint16_t *mtfv = w->mtfv, *mtfv2 = w->mtfv2, lead[BZ_RUN_SLACK + 64];
	size_t h = nb / 2, wa = 0, za = 0, wb = 0, zb = 0, lz = 0, lrl = 0, k;

	/* the second half's leading zeros: its values equal to the cut's last */
	while (h + lz < nb && bwt[h + lz] == bwt[h - 1])
		lz++;
	if (h + lz == nb)
		return 0;
	if (lz > 0)
		lrl = bz_put_zero_run(lead, lz);

	mtf_tables_ssse3(unseq, n_in_use, bcast, keep, init);
	pa = _mm_loadu_si128((const __m128i *)init);
	mtf_list_at(bwt, h, unseq, n_in_use, init);
	pb = _mm_loadu_si128((const __m128i *)init);
	for (k = 0; k < h; k++) {
		uint8_t ca = bwt[k], cb = bwt[h + k];
		__m128i ja = _mm_shuffle_epi8(pa, bcast[ca]), jb = _mm_shuffle_epi8(pb, bcast[cb]);
		pa = _mm_and_si128(_mm_sub_epi8(pa, _mm_cmpgt_epi8(ja, pa)), keep[ca]);
		pb = _mm_and_si128(_mm_sub_epi8(pb, _mm_cmpgt_epi8(jb, pb)), keep[cb]);
		run_code(w, mtfv, &wa, &za, (unsigned)_mm_cvtsi128_si32(ja) & 255);
		run_code(w, mtfv2, &wb, &zb, (unsigned)_mm_cvtsi128_si32(jb) & 255);
	}
	if (h + k < nb) {   /* odd nb: the second half is one longer */
		uint8_t cb = bwt[h + k];
		__m128i jb = _mm_shuffle_epi8(pb, bcast[cb]);
		run_code(w, mtfv2, &wb, &zb, (unsigned)_mm_cvtsi128_si32(jb) & 255);
	}
	/* join: the spanning run, then the second half after its leading run
	 * (coded from lz zeros as lrl values, followed by a value: lz < nb - h) */
	if (za + lz > 0)
		wa += bz_put_zero_run(mtfv + wa, za + lz);
	memcpy(mtfv + wa, mtfv2 + lrl, (wb - lrl) * sizeof *mtfv);
	*zpend = zb;
	return wa + wb - lrl;
}
#endif

/* (see bzsize_int.h) */
size_t bz_mtf_encode(struct iid_bzwork *w, size_t nb, const int *unseq, int n_in_use)
{
	const uint8_t *bwt = w->bwt;
	uint16_t *mtfv = w->mtfv;
	size_t wr = 0, zpend = 0;

#ifdef BZ_X86_SIMD
	if (n_in_use <= 16 && w->use_simd && __builtin_cpu_supports("ssse3")) {
		/* two halves side by side once the look back and the join are
		 * small beside them */
		wr = nb >= BZ_MTF_SPLIT_MIN ? mtf_places_ssse3_2(w, nb, unseq, n_in_use, &zpend) : 0;
		if (wr == 0)
			wr = mtf_places_ssse3(w, nb, unseq, n_in_use, &zpend);
	} else
#endif
	if (n_in_use <= 16) {
		uint64_t list = mtf_nibble_list(n_in_use);
		for (size_t s = 0; s < nb; s++)
			run_code(w, mtfv, &wr, &zpend,
				 mtf_nibble_step(&list, (uint64_t)unseq[bwt[s]]));
	} else {
		uint8_t yy[256];
		for (int i = 0; i < n_in_use; i++)
			yy[i] = (uint8_t)i;
		for (size_t s = 0; s < nb; s++) {
			uint8_t ll = (uint8_t)unseq[bwt[s]];
			int j;
			if (yy[0] == ll) {
				zpend++;
				continue;
			}
			if (zpend > 0) {
				wr += bz_put_zero_run(mtfv + wr, zpend);
				zpend = 0;
			}
			j = bz_mtf_byte_list(yy, ll);
			/* position j >= 1 is coded as j + 1 (0, 1 are RUNA, RUNB) */
			mtfv[wr++] = (uint16_t)(j + 1);
		}
	}
	if (zpend > 0)
		wr += bz_put_zero_run(mtfv + wr, zpend);
	mtfv[wr++] = (uint16_t)(n_in_use + 1);
	return wr;
}

