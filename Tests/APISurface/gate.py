#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks the api-surface report against the list of accepted exceptions.

    gate.py REPORT_TXT EXCEPTIONS_TSV

REPORT_TXT is the `report.txt` the api-surface tool writes (`KIND<TAB>declaration<TAB>...`,
KIND one of SAME, DIFFER, MISSING, EXTRA). Exit status 1 when a DIFFER or MISSING declaration
is not in EXCEPTIONS_TSV, when an EXTRA declaration is neither on a Foundation or Dispatch type
nor listed, or when a listed declaration no longer appears in the report as listed.
"""
import sys

PLATFORM_PREFIXES = ("Foundation.", "Dispatch.")


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    listed = {}
    with open(sys.argv[2], encoding="utf-8") as file:
        for number, line in enumerate(file, 1):
            if not line.strip() or line.startswith("#"):
                continue
            fields = line.rstrip("\n").split("\t")
            if len(fields) != 3 or fields[0] not in ("DIFFER", "MISSING", "EXTRA") or not fields[2].strip():
                print(f"{sys.argv[2]}:{number}: expected 'KIND<TAB>declaration<TAB>reason'")
                return 1
            listed[(fields[0], fields[1])] = fields[2]
    counts = {}
    unexpected = []
    seen = set()
    with open(sys.argv[1], encoding="utf-8") as file:
        for line in file:
            fields = line.rstrip("\n").split("\t")
            if len(fields) < 2 or fields[0] not in ("SAME", "DIFFER", "MISSING", "EXTRA"):
                continue
            kind, name = fields[0], fields[1]
            counts[kind] = counts.get(kind, 0) + 1
            if kind == "SAME":
                continue
            key = (kind, name)
            if key in listed:
                seen.add(key)
            elif kind == "EXTRA" and name.removeprefix("static ").startswith(PLATFORM_PREFIXES):
                continue
            else:
                unexpected.append("\t".join(fields[:3]))
    stale = sorted(key for key in listed if key not in seen)
    print("api-surface gate: " + ", ".join(f"{counts.get(kind, 0)} {kind.lower()}"
                                          for kind in ("SAME", "DIFFER", "MISSING", "EXTRA")))
    for line in unexpected:
        print(f"  NOT LISTED: {line}")
    for kind, name in stale:
        print(f"  listed but not in the report: {kind} {name}")
    if unexpected or stale:
        print(f"api-surface gate: FAILED (see {sys.argv[2]})")
        return 1
    print("api-surface gate: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
