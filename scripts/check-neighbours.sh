#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds, from clean and exactly as the article "Using swift-combine with other packages" says,
# the user's package in Compatibility/Neighbours: this checkout (as ../swift-combine) beside
# GRDB.swift, combine-schedulers, swift-dependencies, Yams and XMLCoder from the package mirror,
# with OpenCombine mirrored to the stand-in that scripts/opencombine-stand-in.sh makes. Then runs
# its two programs and checks every line they print.
#
# GRDB's, Yams' and XMLCoder's targets reach our `Combine` only through `#if canImport(Combine)`:
# they load it only if no C module of ours is needed to load it, and see it only if it was built
# before them (hence the recipe's first step, `swift build --target Combine`).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

ln -s "$root" "$work/swift-combine"
cp -R "$root/Compatibility/Neighbours" "$work/Neighbours"
rm -rf "$work/Neighbours/.build" "$work/Neighbours/.swiftpm" "$work/Neighbours/Package.resolved"
"$work/swift-combine/scripts/opencombine-stand-in.sh" "$work/OpenCombine" "$work/swift-combine" >/dev/null
cd "$work/Neighbours"
swift package config set-mirror --original https://github.com/OpenCombine/OpenCombine.git \
    --mirror "file://$work/OpenCombine"

# Prints the distinct error lines of a failed build and fails the run.
fail_build() {
    grep -E "error:" "$work/build.log" | grep -v "^ " | sort | uniq -c | sort -rn | head -8
    echo "FAIL: $1"
    exit 1
}

# Runs a product without building it and compares what it prints with what it must print.
check_output() {
    local product=$1 expected=$2 output
    output=$(swift run -q --skip-build "$product" 2>&1) || true
    if [ "$output" != "$expected" ]; then
        echo "FAIL: $product printed:"
        echo "$output"
        echo "and should have printed:"
        echo "$expected"
        exit 1
    fi
    echo "$output"
}

swift build --target Combine >"$work/build.log" 2>&1 || fail_build "swift-combine's Combine did not build"
swift build --product Neighbours >>"$work/build.log" 2>&1 ||
    fail_build "GRDB, combine-schedulers, Yams and XMLCoder did not build beside swift-combine"
check_output Neighbours "GRDB: [] [ada] [ada,grace]
combine-schedulers: debounce [] then [2], immediate delay [3]
coders: YAML [\"(1,2)\"], XML [\"(3,4)\"]
OpenCombine code: Combine.Just<Swift.Int> [\"1\", \"2\"], names [true, true, true, true]"

# swift-dependencies imports Combine internally in the two files that use its schedulers; the
# flag makes that import public again (the recipe's third step).
swift build --product DependenciesClient -Xswiftc -disable-upcoming-feature -Xswiftc InternalImportsByDefault \
    >>"$work/build.log" 2>&1 || fail_build "swift-dependencies did not build beside swift-combine"
check_output DependenciesClient "swift-dependencies mainQueue: after 1 s [], after 2 s [1]"
