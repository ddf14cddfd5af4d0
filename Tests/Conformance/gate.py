#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Compares a conformance run with the list of known differences.

    gate.py RESULTS_TSV KNOWN_DIFFERENCES [--shrink]

RESULTS_TSV is the `results.tsv` the conformance tool writes (status, test, file, seconds,
message; one line per test). KNOWN_DIFFERENCES lists the tests that may fail, one per line:
`Class/test<TAB>kind<TAB>reason`, where kind is one of the four differences the project keeps
on purpose (`release`, `contract`, `serial`, `platform`: the list's header says what each
means) and the reason gives the evidence. Lines starting with `#` and blank lines are ignored.

Exit status 1 when a test that did not pass is not listed, or when the list is malformed;
listed tests that now pass are printed so that the list can shrink. With --shrink, their
lines are also deleted from KNOWN_DIFFERENCES (nothing else in it changes).
"""
import sys

KINDS = ("release", "contract", "serial", "platform")

# Classes whose tests wait on the real clock (the conformance tool's README lists them): on a
# loaded machine one can miss its window. A failure there that is not listed is printed as
# timing-dependent instead of failing the gate; every other class is held to the list.
REAL_TIME_CLASSES = {
    "TimerPublisherTests",
    "RunLoopSchedulerTests",
    "OperationQueueSchedulerTests",
    "DispatchQueueSchedulerTests",
}


def read_known(path):
    known = {}
    problems = []
    with open(path, encoding="utf-8") as file:
        for number, line in enumerate(file, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            fields = line.split("\t")
            if len(fields) != 3 or fields[1] not in KINDS or not fields[2].strip():
                problems.append(f"{path}:{number}: expected 'Class/test<TAB>{'|'.join(KINDS)}<TAB>reason': {line}")
                continue
            if fields[0] in known:
                problems.append(f"{path}:{number}: {fields[0]} is listed twice")
            known[fields[0]] = (fields[1], fields[2])
    return known, problems


def read_results(path):
    results = {}
    with open(path, encoding="utf-8") as file:
        for line in file:
            fields = line.rstrip("\n").split("\t")
            if len(fields) < 2 or fields[0] == "status":
                continue
            results[fields[1]] = (fields[0], fields[4] if len(fields) > 4 else "")
    return results


def shrink(path, passing):
    with open(path, encoding="utf-8") as file:
        lines = file.readlines()
    kept = [line for line in lines if line.split("\t", 1)[0] not in passing]
    with open(path, "w", encoding="utf-8") as file:
        file.writelines(kept)
    print(f"conformance gate: {len(lines) - len(kept)} lines deleted from {path}")


def main():
    shrinking = "--shrink" in sys.argv[1:]
    arguments = [argument for argument in sys.argv[1:] if argument != "--shrink"]
    if len(arguments) != 2:
        print(__doc__)
        return 2
    sys.argv[1:] = arguments
    known, problems = read_known(sys.argv[2])
    results = read_results(sys.argv[1])
    if not results:
        problems.append(f"{sys.argv[1]}: no test results")
    passed = sum(1 for status, _ in results.values() if status == "passed")
    differing = sorted(
        (test, status, message)
        for test, (status, message) in results.items()
        if status != "passed" and test not in known
    )
    timing = [row for row in differing if row[0].split("/")[0] in REAL_TIME_CLASSES]
    unexpected = [row for row in differing if row[0].split("/")[0] not in REAL_TIME_CLASSES]
    now_passing = sorted(test for test in known if results.get(test, ("", ""))[0] == "passed")
    not_in_suite = sorted(test for test in known if test not in results)

    by_kind = ", ".join(f"{sum(1 for kind, _ in known.values() if kind == name)} {name}" for name in KINDS)
    print(f"conformance gate: {passed} of {len(results)} passed; {len(known)} known differences ({by_kind})")
    for test in now_passing:
        print(f"  now passing, remove from the list: {test}")
    if shrinking and now_passing:
        shrink(sys.argv[2], set(now_passing))
    for test in not_in_suite:
        print(f"  listed but not in the suite: {test}")
    for test, status, message in timing:
        print(f"  timing-dependent (real clock), not counted: {status}: {test}: {message[:300]}")
    for test, status, message in unexpected:
        print(f"  NEW DIFFERENCE {status}: {test}: {message[:300]}")
    for problem in problems:
        print(f"  {problem}")
    if unexpected or problems:
        print(f"conformance gate: FAILED ({len(unexpected)} tests differ from Apple's behaviour "
              f"and are not in {sys.argv[2]})")
        return 1
    print("conformance gate: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
