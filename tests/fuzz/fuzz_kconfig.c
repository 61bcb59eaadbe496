/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_kconfig.c - libFuzzer target: a kernel build configuration, as
 * /proc/config.gz (the input through kparse_gunzip) and as the text of
 * /boot/config-RELEASE (the input itself).
 *
 * A stream that decompresses must give at most the limit, NUL-terminated;
 * one that does not is ERR_DATA (or ERR_NOMEM) with a message.  The options
 * the trust resolution reads are looked up in both texts. */
#include "config.h"

#include "fuzz.h"

#include "audit/kparse.h"

/* Small, so that the fuzzer reaches the "decompresses to more than" path. */
#define FUZZ_CONFIG_MAX (64u << 10)

static void check_options(const char *text, size_t len)
{
	static const char *const opts[] = { "CONFIG_RANDOM_TRUST_CPU", "CONFIG_RANDOM_TRUST_BOOTLOADER" };
	char v[32];
	for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++) {
		memset(v, 'x', sizeof v);
		FUZZ_ASSERT(kparse_config_option(text, len, opts[i], v, sizeof v) <= 1);
		FUZZ_ASSERT(memchr(v, '\0', sizeof v) != NULL);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *out = NULL;
	size_t outlen = 0;
	struct err e;
	int rc;

	check_options((const char *)data, size);
	rc = kparse_gunzip(data, size, FUZZ_CONFIG_MAX, &out, &outlen, "fuzz", &e);
	if (rc != 0) {
		FUZZ_ASSERT((rc == ERR_DATA || rc == ERR_NOMEM) && e.msg[0] && out == NULL);
		return 0;
	}
	FUZZ_ASSERT(out != NULL && outlen <= FUZZ_CONFIG_MAX && out[outlen] == '\0');
	check_options(out, outlen);
	free(out);
	return 0;
}
