#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""csv_pandas.py - loads audit CSVs of any schema with pandas, typed by
rngaudit's table schemas (issue 26 item 3).

usage: csv_pandas.py typed DATA-DIR FILE...   load each FILE with the table
                                              schema of its version (DATA-DIR/
                                              rngaudit-audit-csv-N.tableschema.json),
                                              concatenate them as schema 5's
                                              columns and check every column
       csv_pandas.py naive FILE...            the same files read by pandas with
                                              no hints, concatenated: print the
                                              columns of mixed types
       csv_pandas.py merge DATA-DIR FILE      the fleet CSV with its schema

typed prints one line per problem and exits 1 if any: a header that is not
the schema's fields in order; a value its field's type does not read (a
word in a number column, a boolean spelling the version did not write, a
value outside an enum, an empty required field); and, over the whole
fleet, a column whose dtype is not its type's (Int64, float64, boolean,
string, datetime64 UTC) or whose values are of more than one type.  It
prints "N rows, M columns, K schema versions" when all is well.  naive
prints one line per mixed column ("COLUMN: mixed (TYPES)").  Exit 3 when
pandas is missing, 2 on usage errors.
"""
import json
import os
import sys

try:
    import pandas as pd
    from pandas.api.types import infer_dtype
except ImportError:
    print("pandas is not installed (python3-pandas)", file=sys.stderr)
    sys.exit(3)

DTYPE = {"integer": "Int64", "number": "float64", "boolean": "boolean", "string": "string",
         "datetime": "datetime64[ns, UTC]"}
# what pandas' infer_dtype() may say of a column of each type (nulls skipped)
INFERRED = {"integer": {"integer", "empty"}, "number": {"floating", "integer", "empty"},
            "boolean": {"boolean", "empty"}, "string": {"string", "empty"},
            "datetime": {"datetime64", "datetime", "empty"}}


def schema_path(data, version):
    return os.path.join(data, "rngaudit-audit-csv-%d.tableschema.json" % version)


def version_of(raw):
    """The schema of an audit CSV read as text: its width, and for 87
    columns its rows' schema column."""
    width = {59: 1, 70: 2, 79: 3}.get(len(raw.columns))
    if width:
        return width
    if len(raw) and "schema" in raw.columns:
        return int(raw["schema"].iloc[0])
    return 5


def typed_frame(raw, schema, path, problems):
    """raw (every field a str) typed by the table schema's fields."""
    names = [f["name"] for f in schema["fields"]]
    if list(raw.columns) != names:
        problems.append("%s: header is not the schema's fields in order" % path)
        return None
    out = {}
    for f in schema["fields"]:
        col, t = raw[f["name"]], f["type"]
        missing = set(f.get("missingValues", schema.get("missingValues", [""])))
        null = col.isin(missing)
        given = col.mask(null)
        where = "%s: %s" % (path, f["name"])
        if t in ("integer", "number"):
            num = pd.to_numeric(given, errors="coerce")
            for v in col[num.isna() & ~null]:
                problems.append("%s: %r is not a number" % (where, v))
            if t == "integer" and ((num.dropna() % 1) != 0).any():
                problems.append("%s: a number that is not an integer" % where)
            out[f["name"]] = num.astype(DTYPE[t])
        elif t == "boolean":
            tv, fv = set(f.get("trueValues", ["true"])), set(f.get("falseValues", ["false"]))
            for v in given.dropna():
                if v not in tv | fv:
                    problems.append("%s: %r is not one of %s" % (where, v, sorted(tv | fv)))
            out[f["name"]] = given.map(lambda v: True if v in tv else False if v in fv else pd.NA)\
                                  .astype("boolean")
        elif t == "datetime":
            out[f["name"]] = pd.to_datetime(given, format="%Y-%m-%dT%H:%M:%SZ", utc=True, errors="coerce")
            if (out[f["name"]].isna() & ~null).any():
                problems.append("%s: a value that is not an ISO 8601 UTC time" % where)
        else:
            out[f["name"]] = given.astype("string")
        c = f.get("constraints", {})
        if c.get("required") and null.any():
            problems.append("%s: empty, though required" % where)
        if "enum" in c:
            allowed = {str(x) for x in c["enum"]}
            for v in given.dropna():
                if v not in allowed:
                    problems.append("%s: %r not in %s" % (where, v, sorted(allowed)))
    return pd.DataFrame(out)


def read_raw(path):
    return pd.read_csv(path, dtype=str, keep_default_na=False, na_filter=False)


def check_columns(df, fields, problems, label):
    for f in fields:
        col, t = df[f["name"]], f["type"]
        if str(col.dtype) != DTYPE[t]:
            problems.append("%s: %s: dtype %s, not %s" % (label, f["name"], col.dtype, DTYPE[t]))
        kind = infer_dtype(col, skipna=True)
        if kind not in INFERRED[t]:
            problems.append("%s: %s: values of mixed or wrong type (%s)" % (label, f["name"], kind))


def cmd_typed(data, paths):
    problems, frames, versions = [], [], set()
    with open(schema_path(data, 5)) as fp:
        newest = json.load(fp)
    for p in paths:
        raw = read_raw(p)
        v = version_of(raw)
        versions.add(v)
        with open(schema_path(data, v)) as fp:
            schema = json.load(fp)
        df = typed_frame(raw, schema, p, problems)
        if df is not None:
            frames.append(df)
    if frames:
        # every file as schema 5's columns: a column a version lacks is null
        names = [f["name"] for f in newest["fields"]]
        dtypes = {f["name"]: DTYPE[f["type"]] for f in newest["fields"]}
        fleet = pd.concat([f.reindex(columns=names).astype(dtypes) for f in frames], ignore_index=True)
        check_columns(fleet, newest["fields"], problems, "fleet")
    for p in problems:
        print(p)
    if not problems:
        print("%d rows, %d columns, %d schema versions" % (len(fleet), len(fleet.columns), len(versions)))
    return 1 if problems else 0


def cmd_naive(paths):
    fleet = pd.concat([pd.read_csv(p) for p in paths], ignore_index=True)
    for name in fleet.columns:
        kind = infer_dtype(fleet[name], skipna=True)
        if kind.startswith("mixed"):
            types = sorted({type(v).__name__ for v in fleet[name].dropna()})
            print("%s: mixed (%s)" % (name, ", ".join(types)))
    return 0


def cmd_merge(data, path):
    problems = []
    with open(os.path.join(data, "rngaudit-merge-csv.tableschema.json")) as fp:
        schema = json.load(fp)
    df = typed_frame(read_raw(path), schema, path, problems)
    if df is not None:
        check_columns(df, schema["fields"], problems, path)
    for p in problems:
        print(p)
    return 1 if problems else 0


def main(argv):
    if len(argv) >= 4 and argv[1] == "typed":
        return cmd_typed(argv[2], argv[3:])
    if len(argv) >= 3 and argv[1] == "naive":
        return cmd_naive(argv[2:])
    if len(argv) == 4 and argv[1] == "merge":
        return cmd_merge(argv[2], argv[3])
    print(__doc__.split("\n\n")[1], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
