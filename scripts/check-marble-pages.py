#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks that every operator's documentation shows its marble diagram.

    scripts/check-marble-pages.py            prints the count; exits 1 listing the pages without one

Every operator page (scripts/operator_pages.py) of Sources/Combine and Sources/CombineExtras: its
doc comment must hold a line `![...](marble-NAME)` whose picture `marble-NAME.svg` is in the DocC
catalog of its module (written by `swift run marble-diagrams`), unless EXCLUDED says why it has
none.
"""
import os
import sys

from operator_pages import ROOT, pages

MODULES = ("Combine", "CombineExtras")

# Pages without a diagram, by name and argument labels, and why.
SUBSCRIBER = "a subscriber, not an operator: nothing is published to draw"
TASKS = "its values come from Swift tasks, off the test scheduler's clock: a run has no fixed picture"
EXCLUDED = {
    "receive(subscriber:)": "the `Publisher` requirement, not an operator",
    "subscribe(_:)": SUBSCRIBER,
    "sink(receiveCompletion:receiveValue:)": SUBSCRIBER,
    "sink(receiveValue:)": SUBSCRIBER,
    "assign(to:)": SUBSCRIBER,
    "assign(to:on:)": SUBSCRIBER,
    "assign(to:on:ownership:)": SUBSCRIBER,
    "asyncMap(_:)": TASKS,
    "asyncMap(maxConcurrent:ordering:_:)": TASKS,
    "tryAsyncMap(_:)": TASKS,
    "tryAsyncMap(maxConcurrent:ordering:_:)": TASKS,
    "asyncMapLatest(_:)": TASKS,
}


def main():
    missing, drawn, excluded = [], 0, 0
    for module in MODULES:
        resources = os.path.join(ROOT, "Sources", module, f"{module}.docc", "Resources")
        for path, line, page, diagram in pages(module):
            where = f"{os.path.relpath(path, ROOT)}:{line} {page}"
            if diagram is None:
                if page in EXCLUDED:
                    excluded += 1
                else:
                    missing.append(f"{where}: no marble diagram in its documentation")
            elif not os.path.exists(os.path.join(resources, f"marble-{diagram}.svg")):
                missing.append(f"{where}: marble-{diagram}.svg is not in {module}.docc/Resources")
            else:
                drawn += 1
    print(f"check-marble-pages: {drawn} operator pages show their marble diagram; {excluded} have none by design "
          f"({', '.join(sorted(set(EXCLUDED)))})")
    if missing:
        print("\n".join(missing))
        sys.exit(1)


if __name__ == "__main__":
    main()
