#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds, from clean, a package that depends on this checkout and on a neighbour package that
# does not: the neighbour's target reaches `Combine` only through `#if canImport(Combine)`, as
# GRDB's and combine-schedulers' do. It must load our module (no C module of ours may be
# required to load it) and use it. `swift build --target Combine` first: a target that does not
# depend on `Combine` sees it only if it was built before (SwiftPM puts every module in one
# folder on every target's search path).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

ln -s "$root" "$work/swift-combine"
mkdir -p "$work/Neighbour/Sources/Neighbour" "$work/App/Sources/App"
cat >"$work/Neighbour/Package.swift" <<'SWIFT'
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Neighbour",
    products: [.library(name: "Neighbour", targets: ["Neighbour"])],
    targets: [.target(name: "Neighbour")]
)
SWIFT
cat >"$work/Neighbour/Sources/Neighbour/Neighbour.swift" <<'SWIFT'
#if canImport(Combine)
import Combine

public func whatTheNeighbourSees() -> String {
    var seen: [String] = []
    let cancellable = [1, 2, 3].publisher.map { "\($0 * 7)" }.sink { seen.append($0) }
    cancellable.cancel()
    return "Combine: " + seen.joined(separator: ",")
}
#else
public func whatTheNeighbourSees() -> String { "no Combine" }
#endif
SWIFT
cat >"$work/App/Package.swift" <<'SWIFT'
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "App",
    dependencies: [.package(path: "../swift-combine"), .package(path: "../Neighbour")],
    targets: [
        .executableTarget(
            name: "App",
            dependencies: [.product(name: "Combine", package: "swift-combine"), "Neighbour"])
    ]
)
SWIFT
cat >"$work/App/Sources/App/main.swift" <<'SWIFT'
import Combine
import Neighbour

print(whatTheNeighbourSees())
SWIFT
cd "$work/App"
if ! swift build --target Combine >"$work/build.log" 2>&1 || ! swift build >>"$work/build.log" 2>&1; then
    grep -E "error" "$work/build.log" | sort | uniq -c | head -5
    echo "FAIL: a package that reaches Combine through canImport(Combine) did not build beside it"
    exit 1
fi
output=$(swift run -q App 2>&1 | tail -1)
if [ "$output" != "Combine: 7,14,21" ]; then
    echo "FAIL: the neighbour package printed '$output', not 'Combine: 7,14,21'"
    exit 1
fi
echo "a neighbour reaching Combine through canImport(Combine) loads and uses it: $output"
