/* nist_iid.h - NIST's ea_iid -o document (SP800-90B_EntropyAssessment
 * commit 68ed165): one test case with the IID track's figures and verdicts
 * and the permutation counters as three "permutationTestResults" (C[i][0],
 * C[i][1], C[i][2] of every statistic). */
#ifndef RNGAUDIT_NIST_IID_H
#define RNGAUDIT_NIST_IID_H
#include "iid/iid.h"
#include "report/json.h"

struct nist_iid_json_in {
	const char *path;
	const char *sha256;
	double mean, median;
	int binary;
	double h_original, h_bitstring;
	double h_assessed;      /* the correct one, whatever the verbosity */
	int chi_pass, lrs_pass;
	const struct iid_perm_result *perm;
};

/* NULL when out of memory; nist_json_stamp() adds commandline and date. */
struct json *nist_iid_json(const struct nist_iid_json_in *in);
#endif
