/* SPDX-License-Identifier: GPL-3.0-or-later */
/* restart_iid.c - the IID track's permutation tests on a restart matrix's
 * row or column dataset (90B 3.1.4.2 with chapter 5.1).  NIST's
 * ea_restart -i runs them after the chi-square and LRS tests; its second
 * run is meant for the columns but is given the row data again
 * (restart_main.cpp sets data_col.symbols = rdata), which a caller that
 * wants NIST's output reproduces by asking for the rows twice. */
#include "config.h"

#include <stdlib.h>

#include "restart/restart.h"

int restart_permutation(const uint8_t *s, size_t n, unsigned bits, int columns,
			const struct iid_perm_opts *o, struct iid_perm_result *r, struct err *e)
{
	struct iid_data d;
	uint8_t *cols = NULL;
	int rc;

	if (n != RESTART_SAMPLES)
		return err_set(e, ERR_DATA, "a restart matrix has %d x %d = %d samples, got %zu",
			       RESTART_ROWS, RESTART_COLS, RESTART_SAMPLES, n);
	if (columns) {
		if (!(cols = malloc(n)))
			return err_set(e, ERR_NOMEM, "out of memory for the column dataset");
		for (size_t i = 0; i < RESTART_ROWS; i++)
			for (size_t j = 0; j < RESTART_COLS; j++)
				cols[j * RESTART_ROWS + i] = s[i * RESTART_COLS + j];
	}
	rc = iid_data_init(&d, columns ? cols : s, n, bits, e);
	free(cols);
	if (rc != 0)
		return rc;
	rc = iid_permutation_tests(&d, o, r, e);
	iid_data_free(&d);
	return rc;
}
