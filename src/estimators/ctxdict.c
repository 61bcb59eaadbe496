/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ctxdict.c - the context dictionary of SP 800-90B 6.3.9 MultiMMC and
 * 6.3.10 LZ78Y (see ctxdict.h): set-up, growth, new contexts and the
 * followers kept outside a context's record. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "bigmem.h"
#include "estimators/ctxdict.h"

int ctxdict_init(struct ctxdict *d, const uint8_t *buf, unsigned len, unsigned k)
{
	unsigned bits = 1;
	size_t slots = CTXDICT_SLOTS0;

	memset(d, 0, sizeof *d);
	d->buf = buf;
	d->len = len;
	d->k = k;
	while ((1u << bits) < k)
		bits++;
	if (len * bits <= 16) {
		d->direct_bits = bits;
		slots = (size_t)1 << (len * bits);
		if (slots * k <= 65536) {
			d->dense = bigmem_calloc(slots * k, sizeof *d->dense);
			if (!d->dense)
				return -1;
		}
	}
	d->slot = bigmem_calloc(slots, sizeof *d->slot);
	d->smask = slots - 1;
	d->extra = bigmem_calloc(CTXDICT_SLOTS0, sizeof *d->extra);
	d->emask = CTXDICT_SLOTS0 - 1;
	if (!d->slot || !d->extra) {
		ctxdict_free(d);
		return -1;
	}
	return 0;
}

void ctxdict_free(struct ctxdict *d)
{
	bigmem_free(d->dense);
	bigmem_free(d->slot);
	bigmem_free(d->rec);
	bigmem_free(d->extra);
	memset(d, 0, sizeof *d);
}



static void dict_place(struct ctxdict *d, uint64_t hash, uint32_t v)
{
	size_t i = (size_t)hash & d->smask;
	while (d->slot[i])
		i = (i + 1) & d->smask;
	d->slot[i] = v;
}

static int dict_grow_slots(struct ctxdict *d)
{
	size_t n = (d->smask + 1) * 2;
	uint32_t *old = d->slot;
	d->slot = bigmem_calloc(n, sizeof *d->slot);
	if (!d->slot) {
		d->slot = old;
		return -1;
	}
	d->smask = n - 1;
	bigmem_free(old);
	for (size_t r = 0; r < d->nrec; r++) {
		struct ctxdict_key k = ctxdict_key(d, d->rec[r].end);
		dict_place(d, k.hash, ctxdict_tag(k.hash) << CTXDICT_REC_BITS | (uint32_t)(r + 1));
	}
	return 0;
}

int ctxdict_reserve(struct ctxdict *d, size_t nrec)
{
	struct ctxdict_rec *p;
	if (nrec > CTXDICT_REC_MAX)
		nrec = CTXDICT_REC_MAX;
	if (!d->direct_bits) {
		while (nrec * 5 > (d->smask + 1) * 4)
			if (dict_grow_slots(d) < 0)
				return -1;
	}
	if (nrec > d->caprec) {
		p = bigmem_realloc(d->rec, nrec, sizeof *p);
		if (!p)
			return -1;
		d->rec = p;
		d->caprec = nrec;
	}
	return 0;
}

long ctxdict_add(struct ctxdict *d, const struct ctxdict_key *k, size_t end, uint8_t y)
{
	struct ctxdict_rec *c;
	if (d->nrec >= CTXDICT_REC_MAX)
		return -1;
	/* keep the table at most 4/5 full (tags make the probes cheap) */
	if (!d->direct_bits && (d->nrec + 1) * 5 > (d->smask + 1) * 4 && dict_grow_slots(d) < 0)
		return -1;
	if (d->nrec == d->caprec) {
		size_t n = d->caprec ? d->caprec * 2 : 64;
		struct ctxdict_rec *p = bigmem_realloc(d->rec, n, sizeof *p);
		if (!p)
			return -1;
		d->rec = p;
		d->caprec = n;
	}
	c = &d->rec[d->nrec];
	c->end = (uint32_t)end;
	c->best = 1;
	c->first_cnt = 1;
	c->best_sym = y;
	c->first_sym = y;
	c->more = 0;
	c->link = 0;
	c->link_sym = 0;
	if (d->direct_bits) {
		d->slot[k->hash] = (uint32_t)(d->nrec + 1);
		if (d->dense)
			d->dense[d->nrec * d->k + y] = 1;
	} else {
		dict_place(d, k->hash, ctxdict_tag(k->hash) << CTXDICT_REC_BITS | (uint32_t)(d->nrec + 1));
	}
	return (long)d->nrec++;
}

static inline uint64_t extra_hash(uint64_t key)
{
	key *= 0x9e3779b97f4a7c15u;
	return key ^ (key >> 32);
}

static int dict_grow_extra(struct ctxdict *d)
{
	size_t n = (d->emask + 1) * 2;
	uint64_t *old = d->extra, *nw = bigmem_calloc(n, sizeof *nw);
	if (!nw)
		return -1;
	for (size_t i = 0; i <= d->emask; i++) {
		if (old[i]) {
			size_t j = (size_t)extra_hash(old[i] >> 32) & (n - 1);
			while (nw[j])
				j = (j + 1) & (n - 1);
			nw[j] = old[i];
		}
	}
	d->extra = nw;
	d->emask = n - 1;
	bigmem_free(old);
	return 0;
}

int ctxdict_count_slow(struct ctxdict *d, long i, uint8_t y, int make_new)
{
	struct ctxdict_rec *c = &d->rec[i];
	uint32_t cnt;
	int added = 0;

	if (d->dense) {
		uint32_t *p = &d->dense[(size_t)i * d->k + y];
		if (!*p && !make_new)
			return 0;
		added = !*p;
		cnt = ++*p;
	} else if (c->first_sym == y) {
		cnt = ++c->first_cnt;
	} else {
		uint64_t key = (uint64_t)(i + 1) << 8 | y;
		size_t j = (size_t)extra_hash(key) & d->emask;
		if (c->more) {
			while (d->extra[j] && (d->extra[j] >> 32) != key)
				j = (j + 1) & d->emask;
		} else {
			j = (size_t)-1;
		}
		if (j != (size_t)-1 && d->extra[j]) {
			cnt = (uint32_t)++d->extra[j];
		} else if (make_new) {
			if ((d->nextra + 1) * 2 > d->emask + 1) {
				if (dict_grow_extra(d) < 0)
					return -1;
			}
			j = (size_t)extra_hash(key) & d->emask;
			while (d->extra[j])
				j = (j + 1) & d->emask;
			d->extra[j] = key << 32 | 1u;
			d->nextra++;
			c->more = 1;
			cnt = 1;
			added = 1;
		} else {
			return 0;
		}
	}
	/* NIST's PostfixDictionary::incrementPostfix: ties to the larger value */
	if (cnt > c->best || (cnt == c->best && y > c->best_sym)) {
		c->best_sym = y;
		c->best = cnt;
	}
	return added;
}

void ctxdict_count_more(struct ctxdict *d, long i, uint8_t y, uint32_t m)
{
	struct ctxdict_rec *c = &d->rec[i];

	if (d->dense) {
		d->dense[(size_t)i * d->k + y] += m;
	} else if (c->first_sym == y) {
		c->first_cnt += m;
	} else {
		const uint64_t key = (uint64_t)(i + 1) << 8 | y;
		size_t j = (size_t)extra_hash(key) & d->emask;
		while ((d->extra[j] >> 32) != key)   /* there: y was counted */
			j = (j + 1) & d->emask;
		d->extra[j] += m;
	}
	c->best += m;
}

void ctxdict_each_pair(const struct ctxdict *d, void (*fn)(void *ctx, size_t rec, uint8_t y),
		       void *ctx)
{
	for (size_t r = 0; r < d->nrec; r++)
		fn(ctx, r, d->rec[r].first_sym);
	for (size_t j = 0; j <= d->emask; j++) {
		if (d->extra[j]) {
			const uint64_t key = d->extra[j] >> 32;   /* (record + 1) << 8 | y */
			fn(ctx, (size_t)(key >> 8) - 1, (uint8_t)(key & 0xffu));
		}
	}
}
