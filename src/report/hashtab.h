/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hashtab.h - interning byte strings: each distinct key gets a dense id
 * (0, 1, 2, ... in the order first seen), found again in expected O(1).
 *
 * The fleet merge (merge.c) keys hosts, group keys and rows with it, so a
 * million rows cost a million lookups rather than a scan of everything seen
 * so far.  Keys are copied into one growing arena (no allocation per key);
 * the table is open addressing with linear probing, at most 3/4 full, and
 * keeps each key's 32-bit hash beside its id so that a probe compares bytes
 * only when the hashes agree.
 */
#ifndef RNGAUDIT_HASHTAB_H
#define RNGAUDIT_HASHTAB_H

#include <stddef.h>
#include <stdint.h>

struct hashtab_slot {
	uint32_t id1;       /* id + 1; 0 = empty */
	uint32_t hash;
};

struct hashtab {
	struct hashtab_slot *slot;
	size_t cap;         /* slots, a power of two (0 before the first insert) */
	size_t n;           /* keys */
	char *arena;        /* the keys, back to back, each followed by a NUL */
	size_t used, room;  /* bytes of arena used, allocated */
	size_t *off;        /* key id's bytes are arena[off[id] .. off[id + 1] - 1) */
	size_t offroom;
};

/* An empty table: struct hashtab t = HASHTAB_INIT. */
#define HASHTAB_INIT { 0 }

/* Finds key (len bytes) or adds it.  Returns 1 and sets *id if it was added,
 * 0 and sets *id if it was there already, ERR_NOMEM if it had to be added
 * and memory ran out (the table is unchanged then).  At most UINT32_MAX - 1
 * keys: one more is ERR_NOMEM too. */
int hashtab_intern(struct hashtab *t, const void *key, size_t len, uint32_t *id);

/* Key id's bytes (valid until the next hashtab_intern) and their length.
 * A NUL byte follows them, so a key interned from a C string reads back as
 * one. */
const char *hashtab_key(const struct hashtab *t, uint32_t id, size_t *len);

/* The number of keys. */
size_t hashtab_count(const struct hashtab *t);

/* Frees everything; t is empty (HASHTAB_INIT) again. */
void hashtab_free(struct hashtab *t);

#endif
