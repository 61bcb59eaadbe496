/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bigmem.h - zeroed buffers of megabytes, on transparent huge pages where
 * the kernel offers them.
 *
 * The estimators touch tens of megabytes once each (MultiMMC's sixteen
 * dictionaries, the suffix order of a long bitstring).  With 4 KiB pages
 * that is one page fault per 4 KiB, and in the VMs this runs on a fault
 * costs 5-20 us.  A 2 MiB huge page takes one fault for 512 small ones,
 * and one TLB entry: `assess` of NIST's 1M-byte truerand_8bit went from
 * 17,400 faults to 6,100 and 1.04 s to 0.86 s CPU (medians of 7).  From
 * 64 KiB (BIGMEM_MAP_MIN) a buffer is its own mapping, faulted in whole by
 * one madvise(MADV_POPULATE_WRITE) (Linux 5.14, kernel commit
 * 4ca9b3859dac): measured here, a fault
 * costs ~10 us, ~24 us when the page was read first (the zero page, then
 * a copy-on-write fault and a TLB shootdown to the other threads' CPUs),
 * and populating ~0.5 us a page.  The dictionaries that grow by doubling
 * took most of the faults left: 8,850 -> 885 for truerand_8bit.  Below
 * BIGMEM_MIN the pages stay small (see below); below 64 KiB buffers come
 * from calloc.  A freed mapping is
 * kept (up to 24 MiB in all) for the next request of at least half its
 * size, which gets it zeroed by memset: the estimators free and allocate
 * the same sizes one after another, and a fresh mapping's pages cost the
 * kernel (and in a VM the host) a fault and a clear each: `assess` of
 * truerand_8bit had 85.0 MB populated in 135 madvise calls, now 74.6 MB in
 * 80, and took 0.690 -> 0.656 s CPU (means of 6 alternating runs).
 *
 * A populated small page still costs its first touch: in the Zen 5 guests
 * this runs on now (a paravirtual kernel whose page tables the host
 * shadows), ~6 us a 4 KiB page, against ~0.3 ms for a whole 2 MiB huge
 * page (the kernel clearing it); a 1 MB file read() into populated small
 * pages took 1.3 ms and its first pass 1.2 ms more, on a huge page 0.1 ms
 * and 0.02 ms.  So huge pages start lower than the 1.5 MiB they once did:
 *  - BIGMEM_MIN, 960 KiB, for bigmem_calloc: about a megabyte, so a
 *    buffer at most about doubles (a 2^17-entry table of 8-byte words is
 *    16 bytes short of 1 MiB).  Such buffers come in numbers (one a
 *    worker, one a dictionary): rounding up from 384 KiB grew `iid` of
 *    truerand_8bit from 44 to 83 MB and `restart` from 111 to 170 MB for
 *    no CPU time they could show; from 960 KiB, 44 -> 48 and 110 -> 120;
 *  - BIGMEM_ONE_MIN, 384 KiB (96 small pages, whose touches cost about
 *    twice a huge page), for bigmem_malloc, which takes a command's one
 *    input buffer (the samples read).
 * `assess` of NIST's truerand_1bit (1M samples: its sample buffer and
 * LZ78Y's 2^17-word table) went from ~49 to ~45 ms CPU (medians of 40
 * alternating runs), of truerand_8bit -2.5%, `iid` -3.6%. */
#ifndef RNGAUDIT_BIGMEM_H
#define RNGAUDIT_BIGMEM_H

#include <stddef.h>

#define BIGMEM_HUGE ((size_t)2 << 20)
#define BIGMEM_MIN ((size_t)960 << 10)   /* bigmem_calloc: huge pages from here on */
#define BIGMEM_ONE_MIN ((size_t)384 << 10)   /* bigmem_malloc: huge pages from here on */
#define BIGMEM_MAP_MIN ((size_t)64 << 10)   /* 64 KiB: a mapping of its own, prefaulted */

/* size zeroed bytes (NULL when out of memory); free with bigmem_free() */
void *bigmem_calloc(size_t nmemb, size_t size);
/* Grows or shrinks p (from bigmem_calloc or NULL) to nmemb * size bytes,
 * keeping its contents; the new tail is zeroed.  NULL when out of memory
 * (p is then unchanged). */
void *bigmem_realloc(void *p, size_t nmemb, size_t size);
void bigmem_free(void *p);
/* size bytes, not zeroed, for free() (NULL when out of memory): from
 * BIGMEM_ONE_MIN on huge pages, and faulted in; below, malloc's.  For a
 * command's one large buffer, handed to code that frees it with free()
 * and may grow it with realloc() (onto small pages). */
void *bigmem_malloc(size_t size);
/* Faults in, writable, the whole pages within [p, p + len) of any writable
 * buffer (one from malloc, say) that is about to be filled: one system
 * call instead of a fault a page.  Only a hint; nothing changes but speed. */
void bigmem_prefault(void *p, size_t len);

#endif
