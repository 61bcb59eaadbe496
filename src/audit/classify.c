/* SPDX-License-Identifier: GPL-3.0-or-later */
/* classify.c - what a source's output is (see classify.h). */
#include "config.h"

#include "audit/classify.h"

#include <stdio.h>
#include <string.h>

/* hwrng drivers whose output is a DRBG's.  virtio-rng passes on what the
 * host's backend gives: QEMU's default rng-random backend reads the host's
 * /dev/urandom (DRBG output), and other VMMs (Firecracker, cloud
 * hypervisors) feed it from their own CSPRNG; QEMU can also pass a host
 * /dev/hwrng through, so this is "usually", not always. */
static const struct {
	const char *prefix;           /* rng_current starts with it */
	const char *what;
	const char *brief;            /* the same in a few words, for a table */
} classify_drbg_drivers[] = {
	{ "virtio_rng", "virtio-rng passes on the host's RNG output, usually the host kernel's DRBG "
			"(QEMU's default backend reads the host's /dev/urandom; a host /dev/hwrng can be "
			"passed through instead)", "the host's RNG, usually its DRBG" },
};

const char *classify_hwrng_brief(const char *rng_current)
{
	for (size_t i = 0; rng_current && i < sizeof classify_drbg_drivers / sizeof classify_drbg_drivers[0]; i++)
		if (strncmp(rng_current, classify_drbg_drivers[i].prefix,
			    strlen(classify_drbg_drivers[i].prefix)) == 0)
			return classify_drbg_drivers[i].brief;
	return NULL;
}

int classify_hwrng_driver(const char *rng_current, char *what, size_t len)
{
	for (size_t i = 0; rng_current && i < sizeof classify_drbg_drivers / sizeof classify_drbg_drivers[0]; i++)
		if (strncmp(rng_current, classify_drbg_drivers[i].prefix,
			    strlen(classify_drbg_drivers[i].prefix)) == 0) {
			snprintf(what, len, "%s", classify_drbg_drivers[i].what);
			return 1;
		}
	if (len)
		what[0] = '\0';
	return 0;
}

/* The device /dev/hwrng reads from the kernel's current driver; other
 * character devices (a ChaosKey's /dev/chaoskey0) are their own driver. */
static int classify_is_kernel_hwrng(const struct source_info *info)
{
	if (info->simulated)
		return strcmp(info->as, "hwrng") == 0;
	return strcmp(info->name, "hwrng") == 0 && strcmp(info->device, "/dev/hwrng") == 0;
}

void classify_source(struct source_info *info, const struct kernel_ctx *k, char *basis, size_t len)
{
	char what[CLASSIFY_BASIS_MAX];
	const char *real = info->simulated && info->as[0] ? info->as : info->name;

	if (classify_is_kernel_hwrng(info) && k && k->rng_current[0] &&
	    classify_hwrng_driver(k->rng_current, what, sizeof what)) {
		info->kind = SOURCE_DRBG;
		snprintf(basis, len, "driver %s: %s", k->rng_current, what);
		return;
	}
	/* the stand-ins take the kind of the source they stand for, as its
	 * backend describes it (whether or not this machine has it) */
	if (info->simulated && info->as[0]) {
		struct source_info real_info;
		memset(&real_info, 0, sizeof real_info);
		if (source_describe(info->as, &real_info) == 0)
			info->kind = real_info.kind;
	}
	switch (info->kind) {
	case SOURCE_DRBG:
		snprintf(basis, len, "%s is DRBG output", real);
		break;
	case SOURCE_CONDITIONED:
		snprintf(basis, len, "%s is conditioned entropy-source output", real);
		break;
	default:
		if (classify_is_kernel_hwrng(info) && k && k->rng_current[0])
			snprintf(basis, len, "driver %s: not known to pass on DRBG output; read as raw noise",
				 k->rng_current);
		else
			snprintf(basis, len, "%s: raw noise or unknown", real);
		break;
	}
}
