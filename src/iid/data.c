/* SPDX-License-Identifier: GPL-3.0-or-later */
/* data.c - the input of the IID track as NIST's tool prepares it: bit width,
 * symbol translation, raw mean and median (ea_iid v1.1.7 read_file_subset and
 * calc_stats). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iid/iid.h"

static unsigned width_of(const uint8_t *s, size_t n)
{
	uint8_t mask = 0;
	unsigned w = 8;
	for (size_t i = 0; i < n; i++)
		mask |= s[i];
	while (w > 0 && !(mask & (1u << (w - 1))))
		w--;
	return w;
}

int iid_data_init(struct iid_data *d, const uint8_t *s, size_t n, unsigned bits, struct err *e)
{
	size_t counts[256] = { 0 };
	unsigned long long sum = 0;
	unsigned w, v;

	memset(d, 0, sizeof *d);
	if (n < 2)
		return err_set(e, ERR_DATA, "need at least 2 samples, got %zu", n);
	if (bits > 8)
		return err_set(e, ERR_USAGE, "bits per sample must be 1..8, got %u", bits);
	w = width_of(s, n);
	if (bits == 0) {
		/* NIST infers the width from the highest bit set anywhere; all-zero
		 * data gives 0, which we lift to 1 (the alphabet check rejects it). */
		bits = w ? w : 1;
	} else if (w > bits) {
		return err_set(e, ERR_DATA, "data uses %u bits, more than the %u bits per sample given",
			       w, bits);
	} else if (w < bits) {
		d->narrower = 1;
	}
	d->raw = malloc(n);
	d->sym = malloc(n);
	if (!d->raw || !d->sym) {
		iid_data_free(d);
		return err_set(e, ERR_NOMEM, "out of memory for %zu samples", n);
	}
	memcpy(d->raw, s, n);
	d->n = n;
	d->bits = bits;
	for (size_t i = 0; i < n; i++) {
		counts[s[i]]++;
		sum += s[i];
	}
	for (v = 0; v < 256; v++) {
		if (counts[v]) {
			d->map[v] = (uint8_t)d->k++;
			d->maxsym = v;
		}
	}
	/* NIST maps the symbols down only when some value below the largest is
	 * missing (alph_size < maxsymbol + 1). */
	d->translated = d->k < d->maxsym + 1;
	if (d->translated)
		for (size_t i = 0; i < n; i++)
			d->sym[i] = d->map[s[i]];
	else
		memcpy(d->sym, s, n);
	if (!d->translated)
		for (v = 0; v < 256; v++)
			d->map[v] = (uint8_t)v;

	d->rawmean = (double)sum / (double)n;
	d->rawsum = sum;
	if (d->k == 2) {
		int j = 0;
		for (v = 0; v < 256; v++)
			if (counts[v])
				d->binval[j++] = (uint8_t)v;
		d->ones = counts[d->binval[1]];
	}
	if (d->k == 2) {
		/* 90B 5.1.5/5.1.6: the median of binary data is taken as 0.5 */
		d->median = 0.5;
	} else {
		/* median of the translated symbols, from their counts (NIST sorts) */
		size_t half = n / 2, acc = 0;
		int lo = -1, hi = -1;
		for (v = 0; v < 256 && hi < 0; v++) {
			size_t c = counts[v];
			if (!c)
				continue;
			if (lo < 0 && acc + c > half - 1)
				lo = d->map[v];
			if (acc + c > half)
				hi = d->map[v];
			acc += c;
		}
		if (n & 1)
			d->median = hi;
		else
			d->median = (hi + lo) / 2.0;
	}
	return 0;
}

void iid_data_free(struct iid_data *d)
{
	free(d->raw);
	free(d->sym);
	d->raw = d->sym = NULL;
}
