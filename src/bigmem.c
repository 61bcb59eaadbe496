/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bigmem.c - zeroed buffers on transparent huge pages (see bigmem.h).
 *
 * Every buffer has a 64-byte header in front: its usable size, and the
 * mapping it lives in (0 for one from calloc).  A big buffer's data starts
 * on a 2 MiB boundary, so that the kernel can back all of it with huge
 * pages once madvise(MADV_HUGEPAGE) asks (THP mode "madvise", Debian's
 * default; MADV_HUGEPAGE marks a region "important to be hugepage backed":
 * kernel commit 0af4e98b6b09, "thp: madvise(MADV_HUGEPAGE)", 2.6.38); the
 * header sits at the end of the small page before it.  Measured here
 * (strace and page-fault counts on a 6.x guest): an madvise that stops
 * short of a 2 MiB boundary got no huge page for that last 2 MiB, so the
 * mapping is whole huge pages where it can be (map_pages).  Where there is
 * no mmap, or no MADV_HUGEPAGE, it is calloc throughout. */
#include "config.h"

#include "bigmem.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(HAVE_SYS_MMAN_H) || defined(__linux__)
#include <sys/mman.h>
#endif

#define BIGMEM_HDR 64
#define BIGMEM_PAGE ((size_t)4096)   /* a small page: a mapping's header page, prefault's unit */

struct bigmem_hdr {
	size_t size;      /* usable bytes */
	void *map;        /* the mapping, or NULL: the block is calloc's */
	size_t maplen;    /* the mapping's length: the header's page and the data */
	size_t huge;      /* the data's bytes on huge pages (asked for) */
};

static struct bigmem_hdr *hdr_of(void *p)
{
	return (struct bigmem_hdr *)((char *)p - BIGMEM_HDR);
}

static int mul_ok(size_t a, size_t b, size_t *out)
{
	if (b && a > (SIZE_MAX - 2 * BIGMEM_HUGE) / b)
		return 0;
	*out = a * b;
	return 1;
}

#ifdef MADV_HUGEPAGE
/* Freed mappings kept for the next buffers: the estimators run one after
 * another, each allocating and freeing buffers of the same few sizes (the
 * sixteen dictionaries of MultiMMC, then LZ78Y's), and a fresh mapping
 * costs the kernel a fault and a zeroed page for every page (in these VMs
 * the host's too), a reused one a memset over memory already mapped.  At
 * most BIGMEM_CACHE_SLOTS mappings and BIGMEM_CACHE_BYTES in all, each
 * reused for a request of at least half its size; the rest are unmapped. */
#define BIGMEM_CACHE_SLOTS 32
#define BIGMEM_CACHE_BYTES ((size_t)24 << 20)

static struct {
	pthread_mutex_t lock;
	void *data[BIGMEM_CACHE_SLOTS];   /* NULL: an empty slot */
	size_t bytes;
} bigmem_cache = { PTHREAD_MUTEX_INITIALIZER, { NULL }, 0 };

/* The data room of a mapping: its length less the header's page. */
static size_t map_room(const struct bigmem_hdr *h)
{
	return h->maplen - BIGMEM_PAGE;
}

/* The bytes a buffer of size bytes takes on whole pages, *huge of them on
 * huge pages (see bigmem.h): from min on the data is 2 MiB aligned and on
 * huge pages, since the kernel maps a huge page only where the mapping
 * covers all of its 2 MiB and a touched huge page is resident whole.  The
 * size is rounded up to whole huge pages when the last part is min or
 * more, or when that adds at most a quarter; else the last part stays on
 * small pages (2.1 MiB on two huge pages would double). */
static size_t huge_len(size_t size, size_t min, size_t *huge)
{
	const size_t up = (size + BIGMEM_HUGE - 1) & ~(BIGMEM_HUGE - 1);
	const size_t last = size & (BIGMEM_HUGE - 1);
	size_t sz;

	if (size < min) {
		*huge = 0;
		return (size + BIGMEM_PAGE - 1) & ~(BIGMEM_PAGE - 1);
	}
	sz = last == 0 || last >= min || up - size <= size / 4 ? up
		: (size + BIGMEM_PAGE - 1) & ~(BIGMEM_PAGE - 1);
	*huge = sz & ~(BIGMEM_HUGE - 1);
	return sz;
}

/* A cached mapping with room for size bytes, at most twice that, zeroed
 * up to size, on huge pages if its size asks for them; NULL when there is
 * none. */
static void *cache_take(size_t size)
{
	size_t best = BIGMEM_CACHE_SLOTS, huge;
	void *p;

	huge_len(size, BIGMEM_MIN, &huge);
	pthread_mutex_lock(&bigmem_cache.lock);
	for (size_t i = 0; i < BIGMEM_CACHE_SLOTS; i++) {
		const struct bigmem_hdr *h;

		if (!bigmem_cache.data[i])
			continue;
		h = hdr_of(bigmem_cache.data[i]);
		if (map_room(h) >= size && map_room(h) / 2 <= size && h->huge >= huge &&
		    (best == BIGMEM_CACHE_SLOTS || map_room(h) < map_room(hdr_of(bigmem_cache.data[best]))))
			best = i;
	}
	if (best == BIGMEM_CACHE_SLOTS) {
		pthread_mutex_unlock(&bigmem_cache.lock);
		return NULL;
	}
	p = bigmem_cache.data[best];
	bigmem_cache.data[best] = NULL;
	bigmem_cache.bytes -= map_room(hdr_of(p));
	pthread_mutex_unlock(&bigmem_cache.lock);
	/* the caller's bytes were written while the buffer was in use; past
	 * them, what a shrink or an earlier user left is zeroed on growth by
	 * bigmem_realloc, which never grows a block in place */
	memset(p, 0, size);
	hdr_of(p)->size = size;
	return p;
}

/* Keeps the mapping of p for a later request; 0 when the cache is full. */
static int cache_put(void *p)
{
	const size_t room = map_room(hdr_of(p));
	int kept = 0;

	pthread_mutex_lock(&bigmem_cache.lock);
	if (bigmem_cache.bytes + room <= BIGMEM_CACHE_BYTES) {
		for (size_t i = 0; i < BIGMEM_CACHE_SLOTS && !kept; i++) {
			if (!bigmem_cache.data[i]) {
				bigmem_cache.data[i] = p;
				bigmem_cache.bytes += room;
				kept = 1;
			}
		}
	}
	pthread_mutex_unlock(&bigmem_cache.lock);
	return kept;
}

/* Faults in [p, p + len) (whole pages), huge pages first asked for on its
 * first huge bytes: one madvise each. */
static void populate(void *p, size_t len, size_t huge)
{
	if (huge)
		madvise(p, huge, MADV_HUGEPAGE);   /* a hint: failure leaves small pages */
#ifdef MADV_POPULATE_WRITE
	/* also a hint: MADV_POPULATE_WRITE came with kernel commit
	 * 4ca9b3859dac ("mm/madvise: introduce MADV_POPULATE_(READ|WRITE) to
	 * prefault page tables", Linux 5.14; glibc 3561106278cd); before, the
	 * madvise fails (EINVAL) and the pages fault one by one */
	madvise(p, len, MADV_POPULATE_WRITE);
#else
	(void)len;
#endif
}

/* A mapping of size bytes (huge_len()), the header in the page before its
 * data, every page faulted in by populate(). */
static void *map_pages(size_t size)
{
	const size_t page = BIGMEM_PAGE;
	size_t huge;
	const size_t sz = huge_len(size, BIGMEM_MIN, &huge);
	const size_t slack = size >= BIGMEM_MIN ? BIGMEM_HUGE : 0;   /* room to align the data */
	size_t len = sz + slack + page, lead, tail;
	char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *data;
	struct bigmem_hdr *h;

	if (m == MAP_FAILED)
		return NULL;
	data = slack ? (char *)(((uintptr_t)m + page + BIGMEM_HUGE - 1) & ~(uintptr_t)(BIGMEM_HUGE - 1))
			 : m + page;
	/* give back what lies before the header's page and after the data */
	lead = (size_t)(data - page - m);
	if (lead)
		munmap(m, lead);
	tail = len - lead - page - sz;
	if (tail)
		munmap(data + sz, tail);
	populate(data, sz, huge);
	h = hdr_of(data);
	h->size = size;
	h->map = data - page;
	h->maplen = page + sz;
	h->huge = huge;
	return data;
}
#endif

void *bigmem_calloc(size_t nmemb, size_t size)
{
	size_t n;
	char *p;

	if (!mul_ok(nmemb, size, &n))
		return NULL;
#ifdef MADV_HUGEPAGE
	if (n >= BIGMEM_MAP_MIN) {
		p = cache_take(n);
		return p ? p : map_pages(n);
	}
#endif
	p = calloc(1, n + BIGMEM_HDR);
	if (!p)
		return NULL;
	p += BIGMEM_HDR;
	hdr_of(p)->size = n;
	hdr_of(p)->map = NULL;
	hdr_of(p)->huge = 0;
	return p;
}

void *bigmem_malloc(size_t size)
{
	if (size > SIZE_MAX - 2 * BIGMEM_HUGE)   /* rounding it up would wrap */
		return NULL;
#ifdef MADV_HUGEPAGE
	if (size >= BIGMEM_ONE_MIN) {
		size_t huge;
		const size_t len = huge_len(size, BIGMEM_ONE_MIN, &huge);
		void *p;

		if (posix_memalign(&p, BIGMEM_HUGE, len) != 0)
			return NULL;
		populate(p, len, huge);
		return p;
	}
#endif
	return malloc(size ? size : 1);
}

void *bigmem_realloc(void *p, size_t nmemb, size_t size)
{
	size_t n, keep;
	void *q;

	if (!p)
		return bigmem_calloc(nmemb, size);
	if (!mul_ok(nmemb, size, &n))
		return NULL;
	if (n <= hdr_of(p)->size && (hdr_of(p)->map || n >= BIGMEM_MAP_MIN || n == hdr_of(p)->size)) {
		/* shrinking keeps the block; what lies past n is zeroed again
		 * so that growing later finds zeros */
		memset((char *)p + n, 0, hdr_of(p)->size - n);
		hdr_of(p)->size = n;
		return p;
	}
	q = bigmem_calloc(n, 1);
	if (!q)
		return NULL;
	keep = hdr_of(p)->size < n ? hdr_of(p)->size : n;
	memcpy(q, p, keep);
	bigmem_free(p);
	return q;
}

void bigmem_free(void *p)
{
	struct bigmem_hdr *h;

	if (!p)
		return;
	h = hdr_of(p);
	if (h->map) {
#ifdef MADV_HUGEPAGE
		if (!cache_put(p))
			munmap(h->map, h->maplen);
#endif
		return;
	}
	free(h);
}

void bigmem_prefault(void *p, size_t len)
{
#ifdef MADV_HUGEPAGE
	const uintptr_t page = BIGMEM_PAGE, lo = ((uintptr_t)p + page - 1) & ~(page - 1);
	const uintptr_t hi = ((uintptr_t)p + len) & ~(page - 1);

	if (len >= BIGMEM_MAP_MIN && hi > lo)
		populate((void *)lo, hi - lo, 0);
#else
	(void)p;
	(void)len;
#endif
}
