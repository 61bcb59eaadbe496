#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""csv-tableschema.py - writes the Frictionless Table Schemas of rngaudit's CSVs.

usage: csv-tableschema.py DATA-DIR

One table schema per audit CSV schema version (rngaudit-audit(1), CSV
COLUMNS): DATA-DIR/rngaudit-audit-csv-N.tableschema.json for N = 1..5, each
naming every column of that version in order with its type, and the fleet
CSV of `report merge`: DATA-DIR/rngaudit-merge-csv.tableschema.json.  Each
version's booleans are typed with the spellings that version wrote (0/1,
yes/no/unknown, on/off/unknown up to 4; true/false from 5), so a data tool
reads every version's booleans as booleans; text columns that can look
numeric or empty (microcode, recommendation) are strings.  The files are
committed under data/; tests/csv_pandas.sh checks them against the CSVs the
tool writes.  Run it again after a column changes (issue 26 item 3).
"""
import json
import os
import sys

# (name, type, description); the columns of schema 5, in order.  The
# version that added a column is where its block starts.
V1 = [
    ("timestamp", "datetime", "When the audit finished, ISO 8601 UTC."),
    ("host", "string", "Host name."),
    ("cpu_vendor", "string", "CPU vendor (e.g. AuthenticAMD)."),
    ("cpu_family", "integer", "CPU family, decimal as /proc/cpuinfo shows it."),
    ("cpu_model", "integer", "CPU model, decimal."),
    ("cpu_stepping", "integer", "CPU stepping."),
    ("microcode", "string", "Microcode revision in hex (0x...); empty when unknown."),
    ("kernel", "string", "Kernel release (uname -r)."),
    ("tool_version", "string", "rngaudit's version."),
    ("source", "string", "The source spec, normalised."),
    ("device", "string", "The source's device, path or model."),
    ("conditioned", "boolean", "DRBG or conditioned output (false: raw noise)."),
    ("kind", "string", "drbg, conditioned or raw."),
    ("samples", "integer", "Samples collected."),
    ("bits_per_sample", "integer", "K, bits per sample (1 to 8)."),
    ("word_bits", "integer", "The source's native word width in bits."),
    ("seconds", "number", "Collection time in seconds."),
    ("partial", "boolean", "The run was interrupted."),
    ("alpha", "number", "The health tests' false-alarm probability."),
    ("h_claim", "number", "Min-entropy per sample claimed for the health tests."),
    ("rct_cutoff", "integer", "Repetition count test cutoff (SP 800-90B 4.4.1)."),
    ("rct_failures", "integer", "Repetition count test failures."),
    ("apt_cutoff", "integer", "Adaptive proportion test cutoff (SP 800-90B 4.4.2)."),
    ("apt_failures", "integer", "Adaptive proportion test failures."),
    ("calls", "integer", "Instruction executions or system calls."),
    ("underflows", "integer", "CF=0 returns (RDRAND, RDSEED)."),
    ("retries", "integer", "Retries."),
    ("exhausted", "integer", "Exhausted retry budgets."),
    ("zero_words", "integer", "All-zero native words."),
    ("ones_words", "integer", "All-ones native words."),
    ("word_repeats", "integer", "Repeated native words."),
    ("h_original", "number", "Min-entropy per sample of the literal samples."),
    ("h_bitstring", "number", "Min-entropy per bit of the bitstring."),
    ("h_assessed", "number", "The assessed min-entropy per sample."),
    ("entropy_credit", "number", "h_assessed when it may be read as min-entropy; else empty "
     "(credit_status says why)."),
] + [("lit_" + e, "number", "The %s estimator on the literal samples, bits per sample." % e)
     for e in ("mcv", "collision", "markov", "compression", "tuple", "lrs", "multimcw", "lag",
               "multimmc", "lz78y")] + \
    [("bit_" + e, "number", "The %s estimator on the bitstring, bits per bit." % e)
     for e in ("mcv", "collision", "markov", "compression", "tuple", "lrs", "multimcw", "lag",
               "multimmc", "lz78y")] + [
    ("iid", "string", "not_run (the audit uses the non-IID track)."),
    ("verdict", "string", "pass, warn, fail or unavailable."),
    ("credibility", "number", "How far the verdict can be believed, 0 to 1."),
    ("reasons", "string", "The reason codes, separated by semicolons."),
]
V2 = [
    ("kernel_release", "string", "The kernel release the trust was read from; empty when unknown."),
    ("kernel_trust_cpu", "boolean", "The kernel credits the CPU RNG (random.trust_cpu); empty when unknown."),
    ("kernel_trust_cpu_reason", "string", "Why: command line, CONFIG default, kernel default, or unknown."),
    ("kernel_trust_bootloader", "boolean", "The kernel credits the bootloader's seed; empty when unknown."),
    ("kernel_cpu_flags_cleared", "string", "CPU RNG flags the kernel cleared, space-separated."),
    ("virtualized", "boolean", "The host is a guest; empty when unknown."),
    ("hwrng_quality", "integer", "The kernel's credit for the hwrng, bits per 1024; empty when unknown."),
    ("crng_ready", "boolean", "The kernel's CRNG is initialised; empty when unknown."),
    ("recommendation", "string", "The kernel setting to apply for this source; empty when nothing changes."),
    ("recommendation_reason", "string", "Why, what the change does and where to set it."),
    ("schema", "integer", "The CSV's schema version."),
]
V3 = [
    ("credit_status", "string", "credited, none or not_assessed."),
    ("h_claim_rule", "string", "Where h_claim came from."),
    ("prop_cutoff", "integer", "The proportion test's cutoff (windows of 4096)."),
    ("prop_failures", "integer", "The proportion test's failed windows."),
    ("alarms", "integer", "Health-test alarms observed in the run."),
    ("alarms_expected", "number", "Alarms a source meeting h_claim exactly would raise in a run this long."),
    ("assess_seconds", "number", "Time the estimators took; empty when they did not run."),
    ("policy_fail_below", "number", "The policy's fail floor, min-entropy per bit."),
    ("policy_warn_below", "number", "The policy's warn floor, min-entropy per bit."),
]
V4 = [
    ("kind_basis", "string", "Why kind is what it is."),
    ("ideal_h_low", "number", "An ideal source's low score (0.1% quantile), bits per sample."),
    ("ideal_h_mean", "number", "An ideal source's mean score, bits per sample."),
    ("kernel_credits", "boolean", "The kernel credits this source as entropy; empty when unknown or when no "
     "kernel setting credits it."),
    ("operator_choice", "boolean", "Keeping the kernel's credit is the operator's call."),
    ("kernel_version", "string", "The kernel's version with its sublevel; empty when unknown."),
    ("kernel_version_source", "string", "Where kernel_version came from."),
    ("kernel_cpu_flags_warned", "string", "CPU RNG flags the kernel's log warned about while using them."),
]
COLUMNS = {1: V1, 2: V1 + V2, 3: V1 + V2 + V3, 4: V1 + V2 + V3 + V4, 5: V1 + V2 + V3 + V4}

# How each version spelt its booleans: (trueValues, falseValues, missing).
OLD_BOOL = {
    "conditioned": (["1"], ["0"], [""]),
    "partial": (["1"], ["0"], [""]),
    "operator_choice": (["1"], ["0"], [""]),
    "virtualized": (["yes"], ["no"], ["", "unknown"]),
    "crng_ready": (["yes"], ["no"], ["", "unknown"]),
    "kernel_trust_cpu": (["on"], ["off"], ["", "unknown"]),
    "kernel_trust_bootloader": (["on"], ["off"], ["", "unknown"]),
    "kernel_credits": (["on"], ["off"], ["", "unknown"]),
}
ENUMS = {
    "kind": ["drbg", "conditioned", "raw"],
    "verdict": ["pass", "warn", "fail", "unavailable"],
    "credit_status": ["credited", "none", "not_assessed"],
}
PROFILE = "https://datapackage.org/profiles/2.0/tableschema.json"


def field(name, ftype, desc, version):
    f = {"name": name, "type": ftype, "description": desc}
    if ftype == "boolean":
        if version < 5:
            f["trueValues"], f["falseValues"], missing = OLD_BOOL[name]
            if missing != [""]:
                f["missingValues"] = missing
        else:
            f["trueValues"], f["falseValues"] = ["true"], ["false"]
    if name == "entropy_credit" and version <= 2:
        f["missingValues"] = ["", "none"]   # schemas 1 and 2 wrote "none"
    if name in ENUMS:
        f["constraints"] = {"enum": ENUMS[name]}
    if name in ("timestamp", "source", "verdict") or (name == "schema" and version >= 2):
        f.setdefault("constraints", {})["required"] = True
    if name == "schema":
        f.setdefault("constraints", {})["enum"] = [version]
    return f


def audit_schema(version):
    return {
        "$schema": PROFILE,
        "title": "rngaudit audit CSV, schema %d" % version,
        "description": "One row per source per run, as `rngaudit audit --csv` writes it (schema %d); "
                       "see rngaudit-audit(1), CSV COLUMNS.  RFC 4180, CRLF line ends, text quoted, "
                       "numbers and booleans bare; an empty field is null." % version,
        "fields": [field(n, t, d, version) for n, t, d in COLUMNS[version]],
        "missingValues": [""],
        "primaryKey": ["host", "timestamp", "source"],
    }


MERGE = [
    ("cpu_vendor", "string", "CPU vendor of the group."),
    ("cpu_family", "integer", "CPU family, decimal."),
    ("cpu_model", "integer", "CPU model, decimal."),
    ("microcode", "string", "Microcode revision in hex; empty when unknown."),
    ("virtualized", "boolean", "The group's hosts are guests; empty when unknown."),
    ("kernel_release", "string", "The kernel the trust was read from."),
    ("source", "string", "The source spec."),
    ("hosts", "integer", "Distinct host names in the group."),
    ("runs", "integer", "Distinct runs in the group."),
    ("pass", "integer", "Runs that passed."),
    ("warn", "integer", "Runs that warned."),
    ("fail", "integer", "Runs that failed."),
    ("unavailable", "integer", "Runs where the source was unavailable."),
    ("h_assessed_min", "number", "The least h_assessed of the group; empty when none."),
    ("h_assessed_median", "number", "The median h_assessed of the group; empty when none."),
    ("trust_cpu_hosts", "integer", "Hosts whose kernel credits the CPU RNG."),
    ("trust_cpu_failed", "integer", "Of those, hosts where this source failed."),
    ("recommendation", "string", "The kernel setting recommended most often in the group; empty: none."),
    ("credited_hosts", "integer", "Hosts whose kernel credits this source; empty when no setting credits it."),
    ("credited_failed", "integer", "Of those, hosts where this source failed."),
    ("bits_per_sample", "integer", "K of the policy the group's runs were judged by; empty unless every run gives the same policy."),
    ("policy_fail_below", "number", "The policy's fail floor in min-entropy per bit; empty unless every run agrees."),
    ("policy_warn_below", "number", "The policy's warn floor in min-entropy per bit; empty unless every run agrees."),
]


def merge_schema():
    fields = []
    for n, t, d in MERGE:
        f = {"name": n, "type": t, "description": d}
        if t == "boolean":
            f["trueValues"], f["falseValues"] = ["true"], ["false"]
        fields.append(f)
    return {
        "$schema": PROFILE,
        "title": "rngaudit fleet CSV",
        "description": "One row per group, as `rngaudit report merge` writes it; see rngaudit-report(1), "
                       "OUTPUT COLUMNS.  RFC 4180, CRLF line ends, text quoted, numbers and booleans "
                       "bare; an empty field is null.",
        "fields": fields,
        "missingValues": [""],
    }


def write(path, doc):
    with open(path, "w") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")


def main(argv):
    if len(argv) != 2:
        print("usage: csv-tableschema.py DATA-DIR", file=sys.stderr)
        return 2
    for v in COLUMNS:
        write(os.path.join(argv[1], "rngaudit-audit-csv-%d.tableschema.json" % v), audit_schema(v))
    write(os.path.join(argv[1], "rngaudit-merge-csv.tableschema.json"), merge_schema())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
