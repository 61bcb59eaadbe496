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
 * 1.5 MiB the pages stay small: a huge page would hold the buffer, and
 * waste, whole.  Smaller buffers come from calloc.  A freed mapping is
 * kept (up to 24 MiB in all) for the next request of at least half its
 * size, which gets it zeroed by memset: the estimators free and allocate
 * the same sizes one after another, and a fresh mapping's pages cost the
 * kernel (and in a VM the host) a fault and a clear each: `assess` of
 * truerand_8bit had 85.0 MB populated in 135 madvise calls, now 74.6 MB in
 * 80, and took 0.690 -> 0.656 s CPU (means of 6 alternating runs). */
#ifndef RNGAUDIT_BIGMEM_H
#define RNGAUDIT_BIGMEM_H

#include <stddef.h>

#define BIGMEM_HUGE ((size_t)2 << 20)
#define BIGMEM_MIN ((size_t)3 << 19)   /* 1.5 MiB: rounds up to a huge page */
#define BIGMEM_MAP_MIN ((size_t)64 << 10)   /* 64 KiB: a mapping of its own, prefaulted */

/* size zeroed bytes (NULL when out of memory); free with bigmem_free() */
void *bigmem_calloc(size_t nmemb, size_t size);
/* Grows or shrinks p (from bigmem_calloc or NULL) to nmemb * size bytes,
 * keeping its contents; the new tail is zeroed.  NULL when out of memory
 * (p is then unchanged). */
void *bigmem_realloc(void *p, size_t nmemb, size_t size);
void bigmem_free(void *p);
/* Faults in, writable, the whole pages within [p, p + len) of any writable
 * buffer (one from malloc, say) that is about to be filled: one system
 * call instead of a fault a page.  Only a hint; nothing changes but speed. */
void bigmem_prefault(void *p, size_t len);

#endif
