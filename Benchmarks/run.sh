#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs every benchmark scenario in three variants — this library, OpenCombine 0.14.0 and a
# hand-written baseline — in one process, and prints one table of medians and ratios.
#
#   Benchmarks/run.sh             all scenarios (each variant of a row runs for up to 3 seconds)
#   Benchmarks/run.sh 'zip.*'     the rows whose whole name ("scenario | variant | operations")
#                                 matches a regular expression: 'subject' alone matches nothing,
#                                 '.*subject.*' every row naming a subject
set -euo pipefail
cd "$(dirname "$0")"

filter="${1:-.*}"
output=$(mktemp)
# The scenario code inlines the library: make sure it is recompiled after library changes.
# (An incremental release build can keep a stale copy of a library module's inlinable code in
# the modules above it, seen here after changes to the engine's inlinable functions: for a
# comparison across library changes, build from a clean `.build` — remove
# `.build/x86_64-unknown-linux-gnu/release` — rather than trust this.)
touch Scenarios/Ours/Scenarios.swift
errors=$(mktemp)
if ! swift build -c release >"$errors" 2>&1; then
    cat "$errors"
    echo "run.sh: the release build failed" >&2
    exit 1
fi
if ! swift package --disable-sandbox benchmark --filter "$filter" --format markdown 2>"$errors" >"$output"; then
    tail -40 "$errors"
    echo "run.sh: the benchmark run failed (its output is above)" >&2
    exit 1
fi
if ! grep -q '^### ' "$output"; then
    echo "run.sh: no benchmark matches '$filter' (it must match the whole name, \"scenario | variant | operations\":" \
        "try '.*$filter.*')" >&2
    exit 1
fi
python3 summarize.py "$output"
