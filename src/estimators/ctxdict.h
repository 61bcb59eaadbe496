/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ctxdict.h - the context dictionary of SP 800-90B 6.3.9 MultiMMC and
 * 6.3.10 LZ78Y for alphabets of more than two symbols (the bitstring paths
 * index their contexts directly).  The look-up (key, find) and the common
 * case of counting a follower are inline: the predictors call them for
 * every depth of every step. */
#ifndef RNGAUDIT_CTXDICT_H
#define RNGAUDIT_CTXDICT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The contexts of one length len (1..16 samples) seen in a sample array, each with the
 * counts of the samples that followed it and its current prediction.  NIST
 * keeps these in std::map; here an open-addressing table over records that
 * name each context by where it ends in the samples (no key copies).  The
 * prediction follows NIST's PostfixDictionary: the most frequent follower,
 * ties to the larger sample value. */
#define CTXDICT_MAXLEN 16
#define CTXDICT_PAD 16   /* zero bytes the sample buffer has before s[0] */

struct ctxdict_rec {
	uint32_t end;        /* the context is buf[end-len .. end-1] */
	uint32_t best;       /* count of the prediction */
	uint32_t first_cnt;  /* count of the first follower seen */
	uint8_t best_sym;    /* the prediction */
	uint8_t first_sym;
	uint8_t more;        /* other followers are in the extra table */
	uint8_t link_sym;
	uint32_t link;       /* 0, or 1 + the record, in the dictionary one sample
				longer, of this context followed by link_sym (a
				cache kept by the caller, to skip a hash look-up) */
};

struct ctxdict {
	const uint8_t *buf;  /* samples, CTXDICT_PAD zero bytes before s[0] */
	unsigned len;
	uint32_t *slot;      /* 0 empty, else tag << 20 | (record + 1) */
	size_t smask;
	struct ctxdict_rec *rec;
	size_t nrec, caprec;
	uint64_t *extra;     /* (((record + 1) << 8 | sym) << 32) | count; 0 empty */
	size_t emask, nextra;
	/* Short contexts over small alphabets (len * bits(k) <= 16) are
	 * indexed directly: slot[context] = record + 1, no hashing, and when
	 * contexts * k <= 2^16 the follower counts are dense[record * k + y]. */
	unsigned direct_bits;   /* bits per sample in the direct index; 0 = hashed */
	unsigned k;
	uint32_t *dense;
};

struct ctxdict_key {
	uint64_t lo, hi;
	uint64_t hash;       /* for a direct dictionary: the context's index */
};

int ctxdict_init(struct ctxdict *d, const uint8_t *buf, unsigned len, unsigned k);
void ctxdict_free(struct ctxdict *d);
/* Sizes the tables for nrec contexts up front (saves rehashing); -1 when
 * out of memory. */
int ctxdict_reserve(struct ctxdict *d, size_t nrec);
/* Adds the context key (ending before s[end]) with follower y counted once.
 * Returns its index, or -1 when out of memory. */
long ctxdict_add(struct ctxdict *d, const struct ctxdict_key *k, size_t end, uint8_t y);
/* ctxdict_count() for a follower other than the first seen, or a dense
 * dictionary. */
int ctxdict_count_slow(struct ctxdict *d, long i, uint8_t y, int make_new);

/* Adds m to the count of follower y of record i, which must be the
 * record's prediction (counted, so an entry): it stays the prediction.
 * For runs of one value, which count the same pair at every step. */
void ctxdict_count_more(struct ctxdict *d, long i, uint8_t y, uint32_t m);

/* Calls fn once for every (context, follower) entry of a dictionary that
 * is not dense: the context's record and the follower. */
void ctxdict_each_pair(const struct ctxdict *d, void (*fn)(void *ctx, size_t rec, uint8_t y),
		       void *ctx);

#define CTXDICT_REC_BITS 20
#define CTXDICT_REC_MAX ((1u << CTXDICT_REC_BITS) - 1)
#define CTXDICT_SLOTS0 256

static inline uint64_t ctxdict_load64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof v);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

static inline uint64_t ctxdict_mix(uint64_t lo, uint64_t hi)
{
	uint64_t h = lo * 0x9e3779b97f4a7c15u ^ (hi + 0x632be59bd9b4e019u) * 0xbf58476d1ce4e5b9u;
	h ^= h >> 31;
	h *= 0x94d049bb133111ebu;
	h ^= h >> 29;
	return h;
}

static inline uint32_t ctxdict_tag(uint64_t h)
{
	return (uint32_t)(h >> (64 - (32 - CTXDICT_REC_BITS)));
}

/* The key of the context of d->len samples that ends before s[end]. */
static inline struct ctxdict_key ctxdict_key(const struct ctxdict *d, size_t end)
{
	/* the 16 samples before s[end], s[end-1] in the top byte of hi */
	const uint8_t *p = d->buf + CTXDICT_PAD + end - 16;
	uint64_t lo = ctxdict_load64(p), hi = ctxdict_load64(p + 8);
	struct ctxdict_key k;
	if (d->len <= 8) {
		k.hi = hi >> (8 * (8 - d->len));
		k.lo = 0;
	} else {
		k.hi = hi;
		k.lo = lo >> (8 * (16 - d->len));
	}
	if (d->direct_bits) {
		/* len <= 8 here: pack the samples' low bits, oldest first */
		uint64_t idx = 0;
		for (unsigned j = d->len; j-- > 0;)
			idx = idx << d->direct_bits | ((k.hi >> (8 * j)) & 0xffu);
		k.hash = idx;
	} else {
		k.hash = ctxdict_mix(k.lo, k.hi);
	}
	return k;
}

/* Index of the record of key, or -1. */
static inline long ctxdict_find(const struct ctxdict *d, const struct ctxdict_key *k)
{
	uint32_t tag = ctxdict_tag(k->hash);
	if (d->direct_bits)
		return (long)d->slot[k->hash] - 1;
	for (size_t i = (size_t)k->hash & d->smask;; i = (i + 1) & d->smask) {
		uint32_t v = d->slot[i];
		if (!v)
			return -1;
		if ((v >> CTXDICT_REC_BITS) == tag) {
			long r = (long)(v & CTXDICT_REC_MAX) - 1;
			struct ctxdict_key o = ctxdict_key(d, d->rec[r].end);
			if (o.lo == k->lo && o.hi == k->hi)
				return r;
		}
	}
}

/* Counts follower y of record i; a follower not yet seen is added only when
 * make_new.  Returns 1 when a follower was added, 0 if not, -1 when out of
 * memory. */
static inline int ctxdict_count(struct ctxdict *d, long i, uint8_t y, int make_new)
{
	struct ctxdict_rec *c = &d->rec[i];

	if (!d->dense && c->first_sym == y) {
		uint32_t cnt = ++c->first_cnt;
		/* NIST's PostfixDictionary::incrementPostfix: ties to the larger value */
		if (cnt > c->best || (cnt == c->best && y > c->best_sym)) {
			c->best_sym = y;
			c->best = cnt;
		}
		return 0;
	}
	return ctxdict_count_slow(d, i, y, make_new);
}

#endif
