/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ea_usage.c - the usage text each of NIST's SP800-90B tools prints
 * (print_usage() of cpp/non_iid_main.cpp, iid_main.cpp, restart_main.cpp
 * and conditioning_main.cpp at commit 68ed165, MIN_SIZE = 1000000 put in),
 * byte for byte: a script that parses or compares it sees NIST's text.
 * NIST distributes it for use, copying and modification with
 * acknowledgement of NIST as the source. */
#include "config.h"

#include "cli/ea.h"

/* non_iid_main.cpp and iid_main.cpp print the same text but for the
 * tool's name */
#define EA_USAGE_ESTIMATE(NAME) \
	"Usage is: " NAME " [-i|-c] [-a|-t] [-v] [-q] [-l <index>,<samples> ] <file_name> " \
	"[bits_per_symbol]\n" \
	"\n" \
	"\t <file_name>: Must be relative path to a binary file with at least 1 million " \
	"entries (samples).\n" \
	"\t [bits_per_symbol]: Must be between 1-8, inclusive. By default this value is " \
	"inferred from the data.\n" \
	"\t [-i|-c]: '-i' for initial entropy estimate, '-c' for conditioned sequential " \
	"dataset entropy estimate. The initial entropy estimate is the default.\n" \
	"\t [-a|-t]: '-a' produces the 'H_bitstring' assessment using all read bits, '-t' " \
	"truncates the bitstring used to produce the `H_bitstring` assessment to 1000000 bits. " \
	"Test all data by default.\n" \
	"\t Note: When testing binary data, no `H_bitstring` assessment is produced, so the " \
	"`-a` and `-t` options produce the same results for the initial assessment of binary " \
	"data.\n" \
	"\t -v: Optional verbosity flag for more output. Can be used multiple times.\n" \
	"\t -q: Quiet mode, less output to screen. This will override any verbose flags.\n" \
	"\t -l <index>,<samples>\tRead the <index> substring of length <samples>.\n" \
	"\n" \
	"\t Samples are assumed to be packed into 8-bit values, where the least significant " \
	"'bits_per_symbol'\n" \
	"\t bits constitute the symbol.\n" \
	"\n" \
	"\t -i: Initial Entropy Estimate (Section 3.1.3)\n" \
	"\n" \
	"\t\t Computes the initial entropy estimate H_I as described in Section 3.1.3\n" \
	"\t\t (not accounting for H_submitter) using the entropy estimators specified in\n" \
	"\t\t Section 6.3.  If 'bits_per_symbol' is greater than 1, the samples are also\n" \
	"\t\t converted to bitstrings and assessed to create H_bitstring; for multi-bit " \
	"symbols,\n" \
	"\t\t two entropy estimates are computed: H_original and H_bitstring.\n" \
	"\t\t Returns min(H_original, bits_per_symbol X H_bitstring). The initial entropy\n" \
	"\t\t estimate H_I = min(H_submitter, H_original, bits_per_symbol X H_bitstring).\n" \
	"\n" \
	"\t -c: Conditioned Sequential Dataset Entropy Estimate (Section 3.1.5.2)\n" \
	"\n" \
	"\t\t Computes the entropy estimate per bit h' for the conditioned sequential dataset " \
	"if the\n" \
	"\t\t conditioning function is non-vetted. The samples are converted to a bitstring.\n" \
	"\t\t Returns h' = min(H_bitstring).\n" \
	"\n" \
	"\t -o: Set Output Type to JSON\n" \
	"\n" \
	"\t\t Changes the output format to JSON and sets the file location for the output " \
	"file.\n" \
	"\n" \
	"\t --version: Prints tool version information\n"

const char ea_usage_non_iid[] = EA_USAGE_ESTIMATE("ea_non_iid");

const char ea_usage_iid[] = EA_USAGE_ESTIMATE("ea_iid");

const char ea_usage_restart[] =
	"Usage is: ea_restart [-i|-n] [-v] [-q] [-s <simulation count>] <file_name> "
	"[bits_per_symbol] <H_I>\n"
	"\n"
	"\t <file_name>: Must be relative path to a binary file with at least 1 million "
	"entries (samples),\n"
	"\t and in the \"row dataset\" format described in SP800-90B Section 3.1.4.1.\n"
	"\t [bits_per_symbol]: Must be between 1-8, inclusive.\n"
	"\t <H_I>: Initial entropy estimate.\n"
	"\t [-i|-n]: '-i' for IID data, '-n' for non-IID data. Non-IID is the default.\n"
	"\t -s <simulation count>: Establish cutoff using <simulation count> rounds.\n"
	"\t -v: Optional verbosity flag for more output.\n"
	"\t -q: Quiet mode, less output to screen.\n"
	"\n"
	"\t Restart samples are assumed to be packed into 8-bit values, where the rightmost "
	"'bits_per_symbol'\n"
	"\t bits constitute the sample.\n"
	"\n"
	"\t This program performs restart testing as described in Restart Tests (Section "
	"3.1.4). The data\n"
	"\t consists of 1000 restarts, each with 1000 samples. The data is converted to rows "
	"and columns\n"
	"\t as described Section 3.1.4.1. The sanity check (Section 3.1.4.3) and the "
	"validation test\n"
	"\t (Section 3.1.4.2) are performed on this data.\n"
	"\n"
	"\t If the restart data passes the sanity check and validation test, this program "
	"returns\n"
	"\t min(H_r, H_c, H_I), which is either the validated entropy assessment or used to "
	"derive\n"
	"\t 'h_in' if conditioning is used (Section 3.1.5).\n"
	"\n"
	"\t --version: Prints tool version information\n";

const char ea_usage_conditioning[] =
	"Usage is: ea_conditioning -v [-q] <n_in> <n_out> <nw> <h_in> [-o filename.json]\n"
	"\tor \n"
	"\tea_conditioning -n <n_in> <n_out> <nw> <h_in> [h' | -i filename] [-o "
	"filename.json]\n"
	"\n"
	"\t <n_in>: input number of bits to conditioning function.\n"
	"\t <n_out>: output number of bits from conditioning function.\n"
	"\t <nw>: narrowest internal width of conditioning function.\n"
	"\t <h_in>: input entropy to conditioning function.\n"
	"\t <-v|-n>: '-v' for vetted conditioning function, '-n' for non-vetted conditioning "
	"function. Vetted conditioning is the default.\n"
	"\t <h'>: entropy estimate per bit of conditioned sequential dataset (only for '-n' "
	"option).\n"
	"\t -q: Quiet mode, less output to screen.\n"
	"\t -i: Input file name, to run an entropy assessment on a non-vetted conditioned data "
	"file and use that value as h'.\n"
	"\n"
	"\t This program computes the entropy of the output of a conditioning function 'h_out' "
	"(Section 3.1.5).\n"
	"\t If the conditioning function is vetted, then\n"
	"\n"
	"\t\t h_out = Output_Entropy(n_in, n_out, nw, h_in)\n"
	"\n"
	"\t where 'Output_Entropy' is specified in Section 3.1.5.1.2. If the conditioning "
	"function is non-vetted then\n"
	"\n"
	"\t\t h_out = min(Output_Entropy(n_in, n_out, nw, h_in), 0.999*n_out, h'*n_out)\n"
	"\n"
	"\t as stated in Section 3.1.5.2.\n"
	"\n"
	"\t -o: Set Output Type to JSON\n"
	"\n"
	"\t\t Changes the output format to JSON and sets the file location for the output "
	"file.\n"
	"\n"
	"\t --version: Prints tool version information\n";
