#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""json_validate.py - checks of rngaudit's JSON documents (tests/json_report.sh).

  json_validate.py schema SCHEMA             SCHEMA is a valid JSON Schema (draft 2020-12)
  json_validate.py valid SCHEMA DOC          DOC loads with Python's json and validates
  json_validate.py csv DOC CSV               DOC holds every fact of each row of the audit
                                             CSV CSV (the same run): each column mapped to
                                             its JSON field, empty fields to null

Exit 0 when it holds, 1 with one line per problem when not, 3 when Python's
jsonschema module (Debian: python3-jsonschema) is missing.
"""
import csv
import json
import sys


def validator(schema_path):
    try:
        import jsonschema
    except ImportError:
        print("jsonschema not installed (python3-jsonschema)")
        sys.exit(3)
    with open(schema_path) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def cmd_schema(schema_path):
    validator(schema_path)
    return 0


def cmd_valid(schema_path, doc_path):
    v = validator(schema_path)
    with open(doc_path) as f:
        doc = json.load(f)
    errors = sorted(v.iter_errors(doc), key=lambda e: list(e.absolute_path))
    for e in errors[:10]:
        print("%s: %s" % ("/".join(str(p) for p in e.absolute_path) or "(root)", e.message))
    return 1 if errors else 0


def get(d, path):
    for p in path.split("."):
        if d is None:
            return None
        d = d[p]
    return d


def estimator(src, domain, ident):
    est = src["estimates"]
    if est is None:
        return None
    for e in est[domain]:
        if e["id"] == ident:
            return e["h"]
    return None


ESTIMATORS = ["mcv", "collision", "markov", "compression", "tuple", "lrs", "multimcw", "lag",
              "multimmc", "lz78y"]

# CSV column -> how to read it from (document, source object).  Every column
# of the CSV must be here: a column the JSON does not carry fails the check.
COLUMNS = {
    "timestamp": lambda d, s: d["timestamp"],
    "host": lambda d, s: d["machine"]["host"],
    "cpu_vendor": lambda d, s: d["machine"]["cpu"]["vendor"],
    "cpu_family": lambda d, s: d["machine"]["cpu"]["family"],
    "cpu_model": lambda d, s: d["machine"]["cpu"]["model"],
    "cpu_stepping": lambda d, s: d["machine"]["cpu"]["stepping"],
    "microcode": lambda d, s: d["machine"]["cpu"]["microcode"],
    "kernel": lambda d, s: d["machine"]["kernel"],
    "tool_version": lambda d, s: d["tool_version"],
    "source": lambda d, s: s["source"],
    "device": lambda d, s: s["device"],
    "conditioned": lambda d, s: s["conditioned"],
    "kind": lambda d, s: s["kind"],
    "samples": lambda d, s: s["samples"],
    "bits_per_sample": lambda d, s: s["bits_per_sample"],
    "word_bits": lambda d, s: s["word_bits"],
    "seconds": lambda d, s: s["seconds"],
    "partial": lambda d, s: s["partial"],
    "alpha": lambda d, s: d["policy"]["alpha"],
    "h_claim": lambda d, s: get(s, "health.h_claim"),
    "rct_cutoff": lambda d, s: get(s, "health.rct.cutoff"),
    "rct_failures": lambda d, s: get(s, "health.rct.failures"),
    "apt_cutoff": lambda d, s: get(s, "health.apt.cutoff"),
    "apt_failures": lambda d, s: get(s, "health.apt.failures"),
    "calls": lambda d, s: get(s, "counters.calls"),
    "underflows": lambda d, s: get(s, "counters.underflows"),
    "retries": lambda d, s: get(s, "counters.retries"),
    "exhausted": lambda d, s: get(s, "counters.exhausted"),
    "zero_words": lambda d, s: get(s, "health.words.zeros"),
    "ones_words": lambda d, s: get(s, "health.words.ones"),
    "word_repeats": lambda d, s: get(s, "health.words.repeats"),
    "h_original": lambda d, s: get(s, "estimates.h_original"),
    "h_bitstring": lambda d, s: get(s, "estimates.h_bitstring"),
    "h_assessed": lambda d, s: get(s, "estimates.h_assessed"),
    "entropy_credit": lambda d, s: s["entropy_credit"],
    "iid": lambda d, s: "not_run" if s["iid"] is None else s["iid"],
    "verdict": lambda d, s: s["verdict"]["status"],
    "credibility": lambda d, s: s["verdict"]["credibility"],
    "reasons": lambda d, s: ";".join(r["code"] for r in s["verdict"]["reasons"]),
    "kernel_release": lambda d, s: d["kernel"]["release"],
    "kernel_trust_cpu": lambda d, s: d["kernel"]["trust_cpu"]["on"],
    "kernel_trust_cpu_reason": lambda d, s: d["kernel"]["trust_cpu"]["source"],
    "kernel_trust_bootloader": lambda d, s: d["kernel"]["trust_bootloader"]["on"],
    "kernel_cpu_flags_cleared": lambda d, s: " ".join(d["kernel"]["cpu_flags_cleared"]),
    "virtualized": lambda d, s: d["kernel"]["virtualized"],
    "hwrng_quality": lambda d, s: d["kernel"]["hwrng"]["quality"],
    "crng_ready": lambda d, s: d["kernel"]["crng_ready"],
    "recommendation": lambda d, s: s["trust"]["recommendation"],
    "recommendation_reason": lambda d, s: s["trust"]["reason"],
    "schema": lambda d, s: "SKIP",   # the CSV's own schema number
    "credit_status": lambda d, s: s["credit_status"],
    "h_claim_rule": lambda d, s: get(s, "health.h_claim_rule"),
    "prop_cutoff": lambda d, s: get(s, "health.proportion.cutoff"),
    "prop_failures": lambda d, s: get(s, "health.proportion.failures"),
    "alarms": lambda d, s: get(s, "health.alarms"),
    "alarms_expected": lambda d, s: get(s, "health.alarms_expected"),
    "assess_seconds": lambda d, s: get(s, "estimates.seconds"),
    "policy_fail_below": lambda d, s: get(s, "policy.fail_below"),
    "policy_warn_below": lambda d, s: get(s, "policy.warn_below"),
    "kind_basis": lambda d, s: s["kind_basis"],
    "ideal_h_low": lambda d, s: get(s, "ideal.low"),
    "ideal_h_mean": lambda d, s: get(s, "ideal.mean"),
    "kernel_credits": lambda d, s: None if s["trust"]["role"] == "none" else s["trust"]["credited"],
    "operator_choice": lambda d, s: s["trust"]["operator_choice"],
    "kernel_version": lambda d, s: d["kernel"]["version"],
    "kernel_version_source": lambda d, s: d["kernel"]["version_from"],
    "kernel_cpu_flags_warned": lambda d, s: " ".join(d["kernel"]["cpu_flags_warned"]),
}
for _i in ESTIMATORS:
    COLUMNS["lit_" + _i] = (lambda i: lambda d, s: estimator(s, "literal", i))(_i)
    COLUMNS["bit_" + _i] = (lambda i: lambda d, s: estimator(s, "bitstring", i))(_i)


def same(field, value):
    """The CSV's text for a field against the JSON's typed value."""
    if value == "SKIP":
        return True
    if value is None:
        return field == ""
    if isinstance(value, bool):
        # the CSV's one form for booleans (schema 5): true, false, empty if null
        return field == ("true" if value else "false")
    if isinstance(value, (int, float)):
        try:
            return float(field) == float(value)
        except ValueError:
            return False
    return field == value


def cmd_csv(doc_path, csv_path):
    with open(doc_path) as f:
        doc = json.load(f)
    with open(csv_path, newline="") as f:
        rows = list(csv.DictReader(f))
    bad = []
    if len(rows) != len(doc["sources"]):
        bad.append("%d CSV rows, %d JSON sources" % (len(rows), len(doc["sources"])))
    for row, src in zip(rows, doc["sources"]):
        for col, field in row.items():
            if col not in COLUMNS:
                bad.append("CSV column %s: not carried by the JSON" % col)
                continue
            value = COLUMNS[col](doc, src)
            if not same(field, value):
                bad.append("%s: %s: CSV %r, JSON %r" % (src["source"], col, field, value))
    for b in bad[:10]:
        print(b)
    return 1 if bad else 0


def main(argv):
    if len(argv) == 3 and argv[1] == "schema":
        return cmd_schema(argv[2])
    if len(argv) == 4 and argv[1] == "valid":
        return cmd_valid(argv[2], argv[3])
    if len(argv) == 4 and argv[1] == "csv":
        return cmd_csv(argv[2], argv[3])
    print(__doc__.strip())
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
