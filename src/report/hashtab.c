/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hashtab.c - interning byte strings with dense ids (see hashtab.h). */
#include "config.h"

#include "report/hashtab.h"

#include <stdlib.h>
#include <string.h>

#include "err.h"

/* 64-bit FNV-1a over the bytes, then MurmurHash3's fmix64 finaliser: FNV
 * alone leaves the low bits (the ones a power-of-two table uses) poorly
 * mixed for keys that differ only in their last bytes, like "host123". */
static uint32_t hash_bytes(const void *key, size_t len)
{
	const unsigned char *p = key;
	uint64_t h = 0xcbf29ce484222325u;   /* FNV-1a 64-bit offset basis */

	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3u;            /* FNV-1a 64-bit prime */
	}
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdu;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53u;
	h ^= h >> 33;
	return (uint32_t)h;
}

/* p (room elements of size sz) grown to hold at least need, or NULL with p
 * left as it was: doubling keeps the cost of n appends O(n). */
static void *grow(void *p, size_t *room, size_t need, size_t sz)
{
	size_t nr = *room ? *room : 16;

	while (nr < need) {
		if (nr > SIZE_MAX / 2 / sz)
			return NULL;
		nr *= 2;
	}
	if (nr != *room) {
		if (!(p = realloc(p, nr * sz)))
			return NULL;
		*room = nr;
	}
	return p;
}

/* The slot where key (with hash h) is, or the empty slot where it goes. */
static struct hashtab_slot *probe(const struct hashtab *t, const void *key, size_t len, uint32_t h)
{
	size_t mask = t->cap - 1;

	for (size_t i = h & mask;; i = (i + 1) & mask) {
		struct hashtab_slot *s = &t->slot[i];
		if (!s->id1)
			return s;
		if (s->hash == h) {
			size_t o = t->off[s->id1 - 1], n = t->off[s->id1] - o - 1;
			if (n == len && memcmp(t->arena + o, key, len) == 0)
				return s;
		}
	}
}

/* Doubles the slots (4/3 of the keys at most are in use after). */
static int rehash(struct hashtab *t)
{
	size_t ncap = t->cap ? 2 * t->cap : 64;
	struct hashtab_slot *ns;

	if (ncap > SIZE_MAX / sizeof *ns || !(ns = calloc(ncap, sizeof *ns)))
		return ERR_NOMEM;
	for (size_t i = 0; i < t->cap; i++) {
		struct hashtab_slot *s = &t->slot[i];
		if (s->id1) {
			size_t j = s->hash & (ncap - 1);
			while (ns[j].id1)
				j = (j + 1) & (ncap - 1);
			ns[j] = *s;
		}
	}
	free(t->slot);
	t->slot = ns;
	t->cap = ncap;
	return 0;
}

int hashtab_intern(struct hashtab *t, const void *key, size_t len, uint32_t *id)
{
	uint32_t h = hash_bytes(key, len);
	struct hashtab_slot *s;
	size_t *off;
	char *arena;

	if (t->cap) {
		s = probe(t, key, len, h);
		if (s->id1) {
			*id = s->id1 - 1;
			return 0;
		}
	}
	/* New: make room first, so that a failure leaves the table as it was. */
	if (t->n >= UINT32_MAX - 1 || len >= SIZE_MAX - t->used)
		return ERR_NOMEM;
	if ((t->n + 1) * 4 > t->cap * 3 && rehash(t) != 0)   /* at most 3/4 full */
		return ERR_NOMEM;
	if (!(off = grow(t->off, &t->offroom, t->n + 2, sizeof *t->off)))
		return ERR_NOMEM;
	t->off = off;
	if (!(arena = grow(t->arena, &t->room, t->used + len + 1, 1)))
		return ERR_NOMEM;
	t->arena = arena;
	s = probe(t, key, len, h);
	if (len)
		memcpy(t->arena + t->used, key, len);
	t->arena[t->used + len] = '\0';
	t->off[t->n] = t->used;
	t->used += len + 1;
	t->off[t->n + 1] = t->used;
	s->hash = h;
	s->id1 = (uint32_t)(t->n + 1);
	*id = (uint32_t)t->n++;
	return 1;
}

const char *hashtab_key(const struct hashtab *t, uint32_t id, size_t *len)
{
	*len = t->off[id + 1] - t->off[id] - 1;
	return t->arena + t->off[id];
}

size_t hashtab_count(const struct hashtab *t)
{
	return t->n;
}

void hashtab_free(struct hashtab *t)
{
	free(t->slot);
	free(t->arena);
	free(t->off);
	memset(t, 0, sizeof *t);
}
