/* SPDX-License-Identifier: GPL-3.0-or-later */
/* chaoskey.h - the ChaosKey's raw (unwhitened) noise over USB, behind a
 * transport interface so that tests feed it synthetic frames.
 *
 * What is public (Keith Packard's chaosread, github.com/keith-packard/
 * chaosread, README and chaosread.c): the device is USB 1d50:60c6; its
 * interface 0 has three bulk IN endpoints: 0x85 "cooked" (the whitened
 * bytes the kernel's chaoskey driver serves as /dev/chaoskeyN and hwrng),
 * 0x86 "raw" (the noise source's ADC: each 12-bit sample in the low 12 bits
 * of a 2-byte little-endian word) and 0x87 (the firmware image).  Reading
 * 0x86 means claiming interface 0, which detaches the kernel's chaoskey
 * driver: its hwrng disappears for the run, and is reattached at close.
 */
#ifndef RNGAUDIT_CHAOSKEY_H
#define RNGAUDIT_CHAOSKEY_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "sources/source.h"

#define CHAOSKEY_VENDOR 0x1d50
#define CHAOSKEY_PRODUCT 0x60c6
#define CHAOSKEY_INTERFACE 0
#define CHAOSKEY_EP_RAW 0x86
#define CHAOSKEY_SAMPLE_BITS 12

/* How raw frames reach the source: the libusb one (chaoskey_usb.c), or a
 * test's.  read() fills up to len bytes, returning the count (> 0) or a
 * negative err code; open() returns 0, ERR_UNAVAILABLE (no device, or built
 * without libusb-1.0) or ERR_PERM, with e naming the problem. */
struct chaoskey_transport {
	const char *name;
	int (*open)(void **ctx, const char *serial, char *what, size_t what_len, struct err *e);
	ssize_t (*read)(void *ctx, uint8_t *buf, size_t len, struct err *e);
	void (*close)(void *ctx);
	/* For `sources`: 1 if a device is there (why says otherwise why not). */
	int (*probe)(char *why, size_t why_len);
};

/* The libusb-1.0 transport; without libusb it reports itself unavailable. */
extern const struct chaoskey_transport chaoskey_usb;

/* Opens "chaoskey[:serial=S]" over transport t (tests pass their own). */
int chaoskey_open_with(struct source **out, const char *spec, const struct chaoskey_transport *t,
		       struct err *e);

/* Checks n raw samples: a value with bits above the 12 set means the frames
 * are not raw samples (the wrong endpoint, or lost alignment): ERR_DATA
 * naming the first such sample. */
int chaoskey_check_samples(const uint64_t *x, size_t n, uint64_t first_index, struct err *e);

#endif
