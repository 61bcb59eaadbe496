/* nist_iid.c - see nist_iid.h.  Field by field as iid/iid_test_case.h,
 * iid/permutation_test_result.h and iid/iid_test_run.h write them, with
 * one deliberate difference: NIST's ea_iid writes "hAssessed" as the bits
 * per symbol unless run with -vv (iid_main.cpp computes it only there);
 * this writes the assessed value always (rngaudit-iid(1)). */
#include "config.h"

#include <string.h>

#include "report/nist_iid.h"
#include "report/nist_json.h"
#include "err.h"

/* permutation_test_result.h's member name: the statistic's printed name
 * without parentheses ("periodicity(8)" -> "periodicity8"). */
static void stat_key(int i, char *key, size_t size)
{
	const char *s = iid_stat_name(i);
	size_t k = 0;

	for (; *s && k + 1 < size; s++)
		if (*s != '(' && *s != ')')
			key[k++] = *s;
	key[k] = '\0';
}

struct json *nist_iid_json(const struct nist_iid_json_in *in)
{
	struct json *tc, *results = NULL;
	struct json *doc = nist_json_doc_case(1, "", in->path, in->sha256, "", &tc);
	char key[32];
	int rc = 0;

	if (!doc)
		return NULL;
	rc |= json_set_real(tc, "mean", in->mean);
	rc |= json_set_real(tc, "median", in->median);
	if (in->binary)
		rc |= json_set_bool(tc, "binary", 1);
	rc |= json_set_real(tc, "hOriginal", in->h_original);
	rc |= json_set_real(tc, "hBitstring", in->h_bitstring);
	rc |= json_set_real(tc, "hAssessed", in->h_assessed);
	rc |= json_set_bool(tc, "passedChiSquareTests", in->chi_pass);
	rc |= json_set_bool(tc, "passedLongestRepeatedSubstringTest", in->lrs_pass);
	rc |= json_set_bool(tc, "passedIidPermutationTests", in->perm->passed);
	rc |= json_set_new(tc, "permutationTestResults", JSON_ARRAY, &results);
	for (int it = 0; results && it < 3; it++) {
		struct json *r;

		if (json_append_new(results, JSON_OBJECT, &r) != 0) {
			rc = ERR_NOMEM;
			break;
		}
		rc |= json_set_int(r, "iteration", it);
		for (int i = 0; i < IID_NSTATS; i++) {
			stat_key(i, key, sizeof key);
			rc |= json_set_real(r, key, in->perm->c[i][it]);
		}
	}
	if (rc != 0 || !results) {
		json_free(doc);
		return NULL;
	}
	return doc;
}
