#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""csv_types.py - is a CSV the tool wrote loadable as types?

usage: csv_types.py KIND FILE    (KIND: audit, assess, merge)

Reads FILE with Python's csv module and checks the one convention every
CSV of rngaudit follows (RFC 4180; rngaudit-audit(1), CSV):
  - the header is the column names, bare;
  - every column outside KIND's text and boolean columns is numeric: each
    field a finite number or empty, never quoted (a typed reader such as
    pandas then loads the column as numbers);
  - every boolean column holds true, false or nothing, bare (one form:
    schema 5, rngaudit-audit(1));
  - every text field is quoted (one quoting convention, whatever the text);
  - the fields KIND always knows are never blank;
  - every row has the header's width, lines end in CRLF.
Prints one line per problem (FILE:LINE: column: what) and exits 1 if any,
0 if none, 2 on usage errors.
"""
import csv
import math
import sys

TEXT = {
    "audit": {
        "timestamp", "host", "cpu_vendor", "microcode", "kernel", "tool_version", "source",
        "device", "kind", "iid", "verdict", "reasons", "kernel_release",
        "kernel_trust_cpu_reason", "kernel_cpu_flags_cleared",
        "recommendation", "recommendation_reason",
        "credit_status", "h_claim_rule", "kind_basis", "kernel_version",
        "kernel_version_source", "kernel_cpu_flags_warned",
    },
    "assess": {"domain", "id", "estimator", "reason", "details"},
    "merge": {"cpu_vendor", "microcode", "kernel_release", "source", "recommendation"},
}
BOOL = {
    "audit": {"conditioned", "partial", "kernel_trust_cpu", "kernel_trust_bootloader",
              "virtualized", "crng_ready", "kernel_credits", "operator_choice"},
    "assess": set(),
    "merge": {"virtualized"},
}
NEVER_BLANK = {
    "audit": {"timestamp", "host", "source", "kind", "samples", "bits_per_sample", "word_bits",
              "conditioned", "verdict", "credibility", "schema", "credit_status", "alpha",
              "kind_basis", "operator_choice"},
    "assess": {"domain", "id", "estimator", "applicable"},
    "merge": {"cpu_vendor", "cpu_family", "cpu_model", "source", "hosts", "runs", "pass",
              "warn", "fail", "unavailable", "trust_cpu_hosts", "trust_cpu_failed"},
}


def raw_fields(line):
    """The fields of one physical line as (text, was_quoted); our CSVs have
    no line breaks inside fields."""
    out, i, n = [], 0, len(line)
    while True:
        if i < n and line[i] == '"':
            j, text = i + 1, []
            while j < n:
                if line[j] == '"':
                    if j + 1 < n and line[j + 1] == '"':
                        text.append('"')
                        j += 2
                        continue
                    break
                text.append(line[j])
                j += 1
            out.append(("".join(text), True))
            i = j + 1
        else:
            j = line.find(",", i)
            j = n if j < 0 else j
            out.append((line[i:j], False))
            i = j
        if i >= n:
            return out
        i += 1   # the comma
        if i == n:
            out.append(("", False))
            return out


def main(argv):
    if len(argv) != 3 or argv[1] not in TEXT:
        print("usage: csv_types.py audit|assess|merge FILE", file=sys.stderr)
        return 2
    kind, path = argv[1], argv[2]
    problems = []

    def bad(line, col, what):
        problems.append(f"{path}:{line}: {col}: {what}")

    with open(path, newline="", encoding="utf-8") as fp:
        data = fp.read()
    lines = data.split("\r\n")
    if lines and lines[-1] == "":
        lines.pop()
    else:
        bad(len(lines), "-", "the last line does not end in CRLF")
    if any("\n" in ln for ln in lines):
        bad(0, "-", "a line ends in LF alone (RFC 4180 asks for CRLF)")
    rows = list(csv.reader(data.splitlines(), strict=True))
    if not rows:
        bad(1, "-", "empty file")
    else:
        header = rows[0]
        for col, (_, quoted) in zip(header, raw_fields(lines[0])):
            if quoted:
                bad(1, col, "header name quoted")
        for col in NEVER_BLANK[kind] - set(header):
            bad(1, col, "column missing from the header")
        for ln, (row, raw) in enumerate(zip(rows[1:], lines[1:]), start=2):
            if len(row) != len(header):
                bad(ln, "-", f"{len(row)} fields, the header has {len(header)}")
                continue
            for col, value, (_, quoted) in zip(header, row, raw_fields(raw)):
                if col in NEVER_BLANK[kind] and value == "":
                    bad(ln, col, "blank, though always known")
                if col in BOOL[kind]:
                    if quoted or value not in ("true", "false", ""):
                        bad(ln, col, f"boolean {value!r}{' quoted' if quoted else ''}: not bare true, false or empty")
                    continue
                if col in TEXT[kind]:
                    if not quoted:
                        bad(ln, col, f"text {value!r} not quoted")
                    continue
                if quoted:
                    bad(ln, col, f"number {value!r} quoted")
                if value == "":
                    continue
                try:
                    x = float(value)
                except ValueError:
                    bad(ln, col, f"{value!r} is not a number")
                    continue
                if not math.isfinite(x):
                    bad(ln, col, f"{value!r} is not finite")
                elif value.startswith("-0") and x == 0:
                    bad(ln, col, f"{value!r}: negative zero")
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
