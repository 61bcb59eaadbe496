/* bzsize.h - exact bzip2 output sizes (see bzsize.c). */
#ifndef RNGAUDIT_IID_BZSIZE_H
#define RNGAUDIT_IID_BZSIZE_H

#include <stddef.h>
#include <stdint.h>

struct iid_bzwork;
struct iid_bzwork *iid_bzwork_new(int level);
void iid_bzwork_free(struct iid_bzwork *w);

/* The length BZ2_bzBuffToBuffCompress(dest, &len, in, n, level, 0, wf) gives
 * (with enough room).  Returns 0, or -1 when it cannot be sure (use libbz2). */
int iid_bz2_size(const uint8_t *in, size_t n, int level, struct iid_bzwork *w, uint64_t *size);

#endif
