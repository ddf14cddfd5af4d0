#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks the figures and counts the documents state against the places they come from.

    scripts/check-figures.py [--conformance-results RESULTS_TSV]

Each check reads a figure where a document states it and the same figure where it comes from:

- conformance: in README.md, the article "Differences from Apple's Combine", and the other
  documents below, the tests passed and run ("passes 1,358 of 1,496 tests"), the known
  differences ("The 138 listed", "the other 138") and each kind's count ("*release* (82)",
  "### Release (82 tests)") against the rows of Tests/Conformance/known-differences.tsv by kind;
  passed + listed must make the total. With --conformance-results (the `results.tsv` that
  scripts/conformance.py writes, `.build-conformance/own/results.tsv`), the tests passed and
  run against that run too. README.md and the article must each state all of them.
- performance: the Performance article's two tables equal the README's "Performance" tables
  (the README is their one source), and the README's "ours / OpenCombine" column (and the heap
  bytes) equal the newest whole-table run in Benchmarks/RESULTS.md (its newest table with an
  "/ OpenCombine" column and 20 rows or more; the README names its date); the atomic
  read-modify-writes of a subject send to one sink, in both, equal RESULTS.md's newest callgrind
  count (`subjectToOneSink ... N / M atomic RMW`: M); the Flood program's memory, in both, equals
  RESULTS.md's newest Flood run ("then X MiB flat").
- marbles: "N pages, from M runs" (and "N pages, M pictures") against the operator pages that
  scripts/check-marble-pages.py counts with a diagram and the marble-*.svg pictures in the
  catalogs (`swift run marble-diagrams --check`, in .ci/run, keeps one picture per run).
- known issues: the README's "with N known issues" against the test sources: the calls of
  `reportedIssues` (Tests/CombineTestingTests/MarbleTestSupport.swift, where each expected issue
  is caught with `withKnownIssue`) and any other `withKnownIssue`; the files the README names
  for them exist.
- trace costs: every figure the paragraph "Measured on ..." of `CombineTrace`'s documentation
  comment states (ns, µs, bytes, instructions, atomic operations) is in the README's "What tracing and logging cost" table,
  their one source.
- set-up: the README's set-up block has two commands; `.ci/run` runs its test command, and the
  site's landing page (docs/SiteLanding.docc) gives the same two.

Documents read: README.md, CONTRIBUTING.md, ARCHITECTURE.md, docs/*.md, the DocC catalogs'
articles (Sources/*/*.docc/*.md) and CHANGELOG.md's Unreleased section (older entries record
the state of their time). Prints each mismatch as `file:line: stated ..., actual ... (what)` and
exits 1 on any; runs in a few seconds (no build).
"""
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
README = "README.md"
ARTICLE = "Sources/Combine/Combine.docc/DifferencesFromApplesCombine.md"
PERFORMANCE = "Sources/Combine/Combine.docc/Performance.md"
RESULTS = "Benchmarks/RESULTS.md"
KNOWN = "Tests/Conformance/known-differences.tsv"
KINDS = ("release", "contract", "serial", "platform")

problems = []


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as file:
        return file.read()


def line_of(text, position, offset=0):
    return offset + text.count("\n", 0, position) + 1


def number(text):
    return int(text.replace(",", ""))


def mismatch(path, line, stated, actual, what):
    problems.append(f"{path}:{line}: stated {stated}, actual {actual} ({what})")


def missing(path, what):
    problems.append(f"{path}: no statement of {what} found (reworded? update scripts/check-figures.py)")


def documents():
    """(path, text, line offset) of every document whose figures are checked."""
    paths = [README, "CONTRIBUTING.md", "ARCHITECTURE.md"] + sorted(
        os.path.relpath(path, ROOT) for path in glob.glob(os.path.join(ROOT, "docs", "*.md"))
    ) + sorted(os.path.relpath(path, ROOT) for path in glob.glob(os.path.join(ROOT, "Sources", "*", "*.docc", "*.md")))
    paths += sorted(os.path.relpath(path, ROOT) for path in glob.glob(os.path.join(ROOT, "docs", "*.docc", "*.md")))
    for path in paths:
        if os.path.isfile(os.path.join(ROOT, path)):
            yield path, read(path), 0
    changelog = read("CHANGELOG.md")
    start = changelog.find("## [Unreleased]")
    if start < 0:
        missing("CHANGELOG.md", "an Unreleased section")
        return
    end = changelog.find("\n## [", start + 1)
    end = len(changelog) if end < 0 else end
    yield "CHANGELOG.md", changelog[start:end], changelog.count("\n", 0, start)


# ---- conformance


def known_differences():
    counts = {kind: 0 for kind in KINDS}
    for line in read(KNOWN).splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 3 or fields[1] not in counts:
            problems.append(f"{KNOWN}: malformed line: {line[:120]}")
            continue
        counts[fields[1]] += 1
    return counts


def conformance_run(path):
    passed = total = 0
    with open(path, encoding="utf-8") as file:
        for line in file:
            fields = line.rstrip("\n").split("\t")
            if len(fields) < 2 or fields[0] == "status":
                continue
            total += 1
            passed += fields[0] == "passed"
    if total == 0:
        problems.append(f"{path}: no test results")
    return passed, total


PASSED = re.compile(r"passes\s+\**([\d,]+)\s+of\s+([\d,]+)\**\s+tests|([\d,]+)\s+of\s+([\d,]+)\s+tests\s+pass\b")
LISTED = re.compile(r"The\s+([\d,]+)\s+listed\s+are\s+the\s+four|the\s+other\s+([\d,]+)\s+is\s+one\s+of\s+four|"
                    r"([\d,]+)\s+known\s+differences")
KIND = re.compile(r"\*(release|contract|serial|platform)\*\s+\((\d+)\)|###\s+(Release|Contract|Serial|Platform)\s+\((\d+)\s+tests?\)")


def check_conformance(results):
    counts = known_differences()
    listed = sum(counts.values())
    run = conformance_run(results) if results else None
    for path, text, offset in documents():
        found = set()
        for match in PASSED.finditer(text):
            passed, total = number(match.group(1) or match.group(3)), number(match.group(2) or match.group(4))
            line = line_of(text, match.start(), offset)
            found.add("passed")
            if passed + listed != total:
                mismatch(path, line, f"{passed:,} of {total:,} passed", f"{total - listed:,} of {total:,} with "
                         f"{listed} listed in {KNOWN}", "conformance: passed + known differences = tests")
            if run and (passed, total) != run:
                mismatch(path, line, f"{passed:,} of {total:,}", f"{run[0]:,} of {run[1]:,} in {results}",
                         "conformance run")
        for match in LISTED.finditer(text):
            stated = number(next(group for group in match.groups() if group))
            found.add("listed")
            if stated != listed:
                mismatch(path, line_of(text, match.start(), offset), stated, f"{listed} rows of {KNOWN}",
                         "known differences")
        for match in KIND.finditer(text):
            kind = (match.group(1) or match.group(3)).lower()
            stated = int(match.group(2) or match.group(4))
            found.add(kind)
            if stated != counts[kind]:
                mismatch(path, line_of(text, match.start(), offset), stated,
                         f"{counts[kind]} rows of kind {kind} in {KNOWN}", f"known differences of kind {kind}")
        if path in (README, ARTICLE):
            for what in ("passed", "listed") + KINDS:
                if what not in found:
                    missing(path, f"conformance: {what}")
    return counts, listed, run


# ---- performance


def section(text, heading):
    start = text.find(heading)
    if start < 0:
        return None, 0
    end = text.find("\n## ", start + len(heading))
    return text[start:end if end >= 0 else len(text)], start


def tables(text, offset=0):
    """Markdown tables of `text`: lists of (line number, cells), the header first."""
    found, current = [], []
    for number_, line in enumerate(text.splitlines(), offset + 1):
        if line.startswith("|"):
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            if not all(set(cell) <= set("-: ") for cell in cells):
                current.append((number_, cells))
        elif current:
            found.append(current)
            current = []
    if current:
        found.append(current)
    return found


def table_with(all_tables, first_header_cell):
    for table in all_tables:
        if table[0][1][0].lower() == first_header_cell:
            return table
    return None


def row_name(name):
    name = name.replace("`", "").replace("→", "->").lower()
    name = re.sub(r"\s*\+\s*", "+", name)
    name = re.sub(r"\s*\((per delivery|per send)\)", r" (\1)", name)
    name = re.sub(r"\s*\((?!per delivery|per send)[^)]*\)", "", name)
    name = name.replace("chain of 50 erased maps", "chain of 50 maps")
    return " ".join(name.split())


def results_whole_table():
    """The newest table of RESULTS.md with an '/ OpenCombine' column and 20 rows or more:
    (its section's date, line of its header, {row name: (ratio, first column)})."""
    text = read(RESULTS)
    best = None
    heading_dates = [(match.start(), match.group(1)) for match in re.finditer(r"^## (\d{4}-\d{2}-\d{2})", text, re.M)]
    position = 0
    for table in tables(text):
        header = [cell.lower() for cell in table[0][1]]
        columns = [index for index, cell in enumerate(header) if re.search(r"(this tree|ours)\s*/\s*opencombine", cell)]
        if not columns or len(table) < 21:
            continue
        line = table[0][0]
        position = sum(len(part) + 1 for part in text.splitlines()[: line - 1])
        date = [date for start, date in heading_dates if start <= position][-1]
        rows = {row_name(cells[0]): (cells[columns[0]], cells[1]) for _, cells in table[1:]}
        best = (date, line, rows)
    return best


def check_performance():
    readme = read(README)
    article = read(PERFORMANCE)
    readme_section, start = section(readme, "## Performance")
    if readme_section is None:
        missing(README, "a Performance section")
        return
    readme_offset = readme.count("\n", 0, start)
    readme_tables = tables(readme_section, readme_offset)
    article_tables = tables(article)
    for first, what in (("scenario", "the performance table"), ("per send", "the contended sends table")):
        source = table_with(readme_tables, first)
        copy = table_with(article_tables, first)
        if source is None:
            missing(README, what)
            continue
        if copy is None:
            missing(PERFORMANCE, what)
            continue
        for index in range(max(len(source), len(copy))):
            source_row = source[index] if index < len(source) else (None, ["(no row)"])
            copy_row = copy[index] if index < len(copy) else (copy[-1][0], ["(no row)"])
            if [cell.lower() for cell in source_row[1]] != [cell.lower() for cell in copy_row[1]]:
                mismatch(PERFORMANCE, copy_row[0], " | ".join(copy_row[1]),
                         " | ".join(source_row[1]) + f" ({README}:{source_row[0]})", what + ", row " + str(index))

    # The README's ratios against RESULTS.md's newest whole-table run.
    whole = results_whole_table()
    source = table_with(readme_tables, "scenario")
    if whole is None:
        missing(RESULTS, "a whole-table run with an '/ OpenCombine' column")
    elif source is not None:
        date, results_line, rows = whole
        stated_date = re.search(r"whole-table run of (\d{4}-\d{2}-\d{2})", readme_section)
        if not stated_date:
            missing(README, "the date of the performance table's run")
        elif stated_date.group(1) != date:
            mismatch(README, line_of(readme_section, stated_date.start(), readme_offset), stated_date.group(1),
                     f"{date} ({RESULTS}:{results_line})", "date of the newest whole-table run")
        for line, cells in source[1:]:
            name = row_name(cells[0])
            if name not in rows:
                problems.append(f"{README}:{line}: row '{cells[0]}' is not in {RESULTS}:{results_line}'s table")
                continue
            ratio, first = rows[name]
            stated = cells[1].split()[0]
            if stated != ratio:
                mismatch(README, line, stated, f"{ratio} ({RESULTS}:{results_line})", f"ours / OpenCombine, {cells[0]}")
            heap = re.search(r"\((\d+) B\)", cells[1])
            if heap and heap.group(1) != first.replace(",", ""):
                mismatch(README, line, f"{heap.group(1)} B", f"{first} ({RESULTS}:{results_line})", cells[0])

    results = read(RESULTS)
    atomics = list(re.finditer(r"`?subjectToOneSink`?\s+[\d.,]+\s*/\s*[\d.,]+\s+instructions,\s+(\d+)\s*/\s*(\d+)\s+atomic RMW",
                               results))
    floods = list(re.finditer(r"then\s+([\d.]+)\s+MiB\s+flat", results))
    for path, text in ((README, readme), (PERFORMANCE, article)):
        stated = re.search(r"subject\s+send\s+to\s+one\s+sink\s+makes\s+(\d+)", text, re.I)
        if not atomics:
            missing(RESULTS, "a callgrind count of subjectToOneSink's atomic RMW")
        elif not stated:
            missing(path, "the atomic read-modify-writes of a subject send to one sink")
        elif stated.group(1) != atomics[-1].group(2):
            mismatch(path, line_of(text, stated.start()), stated.group(1),
                     f"{atomics[-1].group(2)} ({RESULTS}:{line_of(results, atomics[-1].start())})",
                     "atomic read-modify-writes per subject send to one sink")
        flood = re.search(r"holds\s+([\d.]+)\s+MiB", text)
        if not floods:
            missing(RESULTS, "a Flood run ('then X MiB flat')")
        elif not flood:
            missing(path, "the Flood program's memory")
        elif flood.group(1) != floods[-1].group(1):
            mismatch(path, line_of(text, flood.start()), f"{flood.group(1)} MiB",
                     f"{floods[-1].group(1)} MiB ({RESULTS}:{line_of(results, floods[-1].start())})", "Flood's memory")


# ---- marbles and known issues


def check_marbles():
    output = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "check-marble-pages.py")],
                            capture_output=True, text=True).stdout
    pages = re.search(r"(\d+) operator pages show their marble diagram", output)
    if not pages:
        problems.append(f"scripts/check-marble-pages.py printed no count: {output[:200]}")
        return
    pages = int(pages.group(1))
    pictures = len(glob.glob(os.path.join(ROOT, "Sources", "*", "*.docc", "Resources", "marble-*.svg")))
    pattern = re.compile(r"\(([\d,]+)\s+pages,\s+(?:from\s+([\d,]+)\s+runs|([\d,]+)\s+pictures)\)")
    found = False
    for path, text, offset in documents():
        for match in pattern.finditer(text):
            found |= path == README
            line = line_of(text, match.start(), offset)
            if number(match.group(1)) != pages:
                mismatch(path, line, f"{match.group(1)} pages", f"{pages} (scripts/check-marble-pages.py)",
                         "operator pages with a marble diagram")
            runs = number(match.group(2) or match.group(3))
            if runs != pictures:
                mismatch(path, line, f"{runs} diagrams", f"{pictures} marble-*.svg in Sources/*/*.docc/Resources",
                         "marble diagrams drawn")
    if not found:
        missing(README, "the marble figures ('N pages, from M runs')")


def check_known_issues():
    calls = 0
    for path in glob.glob(os.path.join(ROOT, "Tests", "**", "*.swift"), recursive=True):
        with open(path, encoding="utf-8") as file:
            source = re.sub(r"//[^\n]*", "", file.read())  # not what a comment mentions
        calls += len(re.findall(r"\breportedIssues\s*\{", source))
        calls += len(re.findall(r"\bwithKnownIssue\s*[({]", source))
        calls -= len(re.findall(r"func\s+reportedIssues\b[^{]*\{\s*[^\n]*\n\s*withKnownIssue\s*\{", source))
    readme = read(README)
    stated = re.search(r"with\s+(\d+)\s+known\s+issues", readme)
    if not stated:
        missing(README, "the known issues of `swift test`")
    else:
        line = line_of(readme, stated.start())
        if int(stated.group(1)) != calls:
            mismatch(README, line, stated.group(1), f"{calls} calls of reportedIssues/withKnownIssue in Tests",
                     "known issues of swift test")
        again = re.search(r"those\s+(\d+)\s+are\s+expected", readme)
        if again and int(again.group(1)) != calls:
            mismatch(README, line_of(readme, again.start()), again.group(1), calls, "known issues of swift test")
        paragraph = readme[stated.start(): readme.find("\n\n", stated.start())]
        named = re.findall(r"`(Tests/[\w/.+-]+\.swift)`", paragraph)
        if not named:
            missing(README, "the files of the known issues")
        for path in named:
            if not os.path.isfile(os.path.join(ROOT, path)):
                problems.append(f"{README}:{line}: {path} does not exist (the known issues' tests)")
            for sibling in re.findall(r"`(\w+\.swift)`", paragraph):
                if not os.path.isfile(os.path.join(ROOT, os.path.dirname(path), sibling)):
                    problems.append(f"{README}:{line}: {sibling} is not beside {path}")


def readme_part(pattern, what):
    """The README and the match of `pattern` in it (None, reported, when it has none)."""
    readme = read(README)
    match = re.search(pattern, readme, re.S)
    if not match:
        missing(README, what)
    return readme, match


def check_setup():
    readme, block = readme_part(r"## Set-up on a fresh machine.*?```sh\n(.*?)```", "the set-up block")
    if not block:
        return
    commands = [line.split("#")[0].strip() for line in block.group(1).splitlines() if line.split("#")[0].strip()]
    line = line_of(readme, block.start(1))
    if len(commands) != 2:
        mismatch(README, line, f"{len(commands)} set-up commands", 2, "the set-up block")
        return
    tests = [command for command in commands if command.startswith("swift test")]
    run_script = read(".ci/run")
    if not tests or not re.search(r"^\s*scripts/watchdog\.sh \d+ " + re.escape(tests[0]) + r"\s*$", run_script, re.M):
        problems.append(f"{README}:{line}: .ci/run does not run the set-up's test command ({tests[:1]})")
    traits = {re.search(r"--traits \S+", command).group(0) if "--traits" in command else "" for command in commands}
    if len(traits) != 1:
        problems.append(f"{README}:{line}: the set-up commands name different traits ({sorted(traits)}): "
                        "the second rebuilds every module")
    landing_path = "docs/SiteLanding.docc/SiteLanding.md"
    landing = read(landing_path)
    for command in commands:
        if not re.search(r"^" + re.escape(command) + r"(\s|$)", landing, re.M):
            problems.append(f"{landing_path}: the README's set-up command `{command}` is not on the landing page")


# ---- trace costs

TRACE = "Sources/CombineExtras/Tracing/CombineTrace.swift"
FIGURE = re.compile(r"\d[\d,.]*(?:–\d[\d,.]*)?\s*(?:ns|µs|bytes|instructions|atomic operations)")


def check_trace_costs():
    _, section = readme_part(r"### What tracing and logging cost\n(.*?)\n#", "the section 'What tracing and logging cost'")
    if not section:
        return
    table = section.group(1)
    source = read(TRACE)
    measured = re.search(r"/// Measured on .*?\n(?!\s*///)", source, re.S)
    if not measured:
        missing(TRACE, "the paragraph 'Measured on ...' of its documentation comment")
        return
    stated = 0
    for match in FIGURE.finditer(source, measured.start(), measured.end()):
        stated += 1
        if match.group(0) not in table:
            mismatch(TRACE, line_of(source, match.start()), match.group(0),
                     f"not in {README}'s 'What tracing and logging cost'", "a cost of tracing")
    if stated == 0:
        missing(TRACE, "the costs of tracing")


def main():
    arguments = sys.argv[1:]
    results = None
    if "--conformance-results" in arguments:
        results = arguments[arguments.index("--conformance-results") + 1]
    elif arguments:
        print(__doc__)
        return 2
    counts, listed, run = check_conformance(results)
    check_performance()
    check_marbles()
    check_known_issues()
    check_trace_costs()
    check_setup()
    by_kind = ", ".join(f"{counts[kind]} {kind}" for kind in KINDS)
    print(f"check-figures: conformance {listed} known differences ({by_kind})"
          + (f", run {run[0]:,} of {run[1]:,} passed" if run else " (no conformance run given)")
          + "; performance, marble, known-issue, trace-cost and set-up figures checked")
    if problems:
        for problem in problems:
            print(f"  {problem}")
        print(f"check-figures: FAIL: {len(problems)} figures differ from their sources")
        return 1
    print("check-figures: every figure checked matches its source")
    return 0


if __name__ == "__main__":
    sys.exit(main())
