#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the user's service in Compatibility/Neighbours as a user would, with nothing but plain
# commands: a copy of this checkout (as ../swift-combine) beside unmodified GRDB.swift,
# combine-schedulers (default traits, so with OpenCombine), Yams, XMLCoder, Hummingbird and
# swift-dependencies from the package mirror. Each of these starts from a build folder that has
# never built the configuration:
#   1. `swift build`, then runs its programs and checks every line they print;
#   2. an incremental `swift build` after touching one of swift-combine's sources: it must compile
#      no third-party target (our module's interface reaches them only through the shared module
#      folder, and they did not declare a dependency on it);
#   3. `swift build -c release`, and the program again;
#   4. `swift test` in a build folder of its own;
#   5. with `--build-system swiftbuild`, a smaller package (Yams beside swift-combine).
# It checks that every source file of GRDB, Yams, XMLCoder and combine-schedulers was compiled
# with our `Combine` loaded (their dependency files list it), and that the interface the
# EarlyCombineModule plugin wrote ahead of the build declares the same ABI as the one the real
# compile wrote (swift-api-digester).
#
# Then the OpenCombine stand-in: Compatibility/OpenCombineCode, code written for OpenCombine, with
# the mirror set by scripts/opencombine-stand-in.sh itself.
#
#   scripts/check-neighbours.sh [--keep]   # --keep: leave the work folder and print its path
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$(mktemp -d)
if [ "${1:-}" = --keep ]; then
    echo "work folder: $work"
else
    trap 'rm -rf "$work"' EXIT
fi

# A copy of this checkout's files (committed and not yet committed, no build folders), so that
# touching one of them changes nothing here.
mkdir "$work/swift-combine"
git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - | tar -xf - -C "$work/swift-combine"
# A clone is a git repository, which the OpenCombine stand-in's dependency on it needs.
git -C "$work/swift-combine" init -q
git -C "$work/swift-combine" add -A
git -C "$work/swift-combine" -c user.name=check -c user.email=check@localhost -c commit.gpgsign=false \
    commit -q -m "this checkout's files"
cp -R "$root/Compatibility/Neighbours" "$work/Neighbours"
rm -rf "$work/Neighbours/.build" "$work/Neighbours/.swiftpm" "$work/Neighbours/Package.resolved"
cd "$work/Neighbours"
log="$work/build.log"

# Prints the distinct error lines of a failed build and fails the run.
fail_build() {
    grep -E "error:" "$log" | grep -v "^ " | sort | uniq -c | sort -rn | head -8
    echo "FAIL: $1"
    exit 1
}

# Runs a product without building it and compares what it prints with what it must print.
check_output() {
    local configuration=$1 product=$2 expected=$3 output
    output=$(swift run -q -c "$configuration" --skip-build "$product" 2>&1) || true
    if [ "$output" != "$expected" ]; then
        echo "FAIL: $product ($configuration) printed:"
        echo "$output"
        echo "and should have printed:"
        echo "$expected"
        exit 1
    fi
    echo "$output"
}

expected_lines='GRDB: [] [ada] [ada,grace]
combine-schedulers: debounce [] then [2], immediate delay [3]
coders: YAML ["(1,2)"], XML ["(3,4)"]
swift-dependencies mainQueue: after 1 s [], after 2 s [1]
Hummingbird: hello from a Future'

# The third-party targets whose Combine code sits behind `#if canImport(Combine)`.
third_party=(GRDB Yams XMLCoder CombineSchedulers)

# Every dependency file of each third-party target lists our Combine module: each of its files
# was compiled with `canImport(Combine)` true.
check_dependency_files() {
    local folder=$1 target missing
    for target in "${third_party[@]}"; do
        [ -d "$folder/$target.build" ] || { echo "FAIL: no $folder/$target.build"; exit 1; }
        missing=$(find "$folder/$target.build" -name '*.d' -exec grep -L "Modules/Combine.swiftmodule" {} +) || true
        if [ -n "$missing" ]; then
            echo "FAIL: these files of $target were compiled without our Combine:"
            echo "$missing"
            exit 1
        fi
    done
    echo "every source file of ${third_party[*]} was compiled with our Combine ($(basename "$folder"))"
}

# The interface written ahead of the build and the real compile's declare the same ABI.
check_early_interface() {
    local configuration=$1 folder=$2 early
    early=$(find "$work/Neighbours/.build/plugins/outputs" -type d -path "*/emitted/$configuration" | head -1)
    [ -n "$early" ] || { echo "FAIL: the plugin wrote no interface for $configuration"; exit 1; }
    for module in CombineSynchronization Combine; do
        digest "$early" "$module" >"$work/early.json"
        digest "$folder/Modules" "$module" >"$work/real.json"
        if ! cmp -s "$work/early.json" "$work/real.json"; then
            echo "FAIL: the $configuration interface of $module written ahead of the build differs from the real one:"
            diff "$work/early.json" "$work/real.json" | head -20
            exit 1
        fi
    done
    echo "the interface written ahead of the $configuration build has the real one's ABI"
}

# The ABI of a module (its public and @usableFromInline declarations), without locations.
digest() {
    local folder=$1 module=$2 copy
    copy=$(mktemp -d)
    cp "$folder/CombineSynchronization.swiftmodule" "$folder/Combine.swiftmodule" "$copy/"
    swift-api-digester -dump-sdk -abi -module "$module" -I "$copy" -target "$triple" -o "$copy/abi.json" \
        -module-cache-path "$copy/cache" >/dev/null 2>&1 || { echo "digest of $module failed"; return; }
    python3 - "$copy/abi.json" <<'PY'
import json, sys
def strip(node):
    if isinstance(node, dict):
        # (The order of a declaration's attributes is not part of its ABI.)
        return {key: sorted(value) if key == 'declAttributes' else strip(value)
                for key, value in node.items() if key not in ('declLoc', 'tool_arguments')}
    return [strip(value) for value in node] if isinstance(node, list) else node
print(json.dumps(strip(json.load(open(sys.argv[1]))), indent=1, sort_keys=True))
PY
    rm -rf "$copy"
}

triple=$(swiftc -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["unversionedTriple"])')

echo "== swift build (from clean)"
start=$SECONDS
swift build >"$log" 2>&1 || fail_build "the service did not build in one plain swift build"
echo "built in $((SECONDS - start)) s"
check_output debug Neighbours "$expected_lines"
check_output debug ListsGRDB "ListsGRDB: 6"
check_dependency_files "$work/Neighbours/.build/$triple/debug"
check_early_interface debug "$work/Neighbours/.build/$triple/debug"

echo "== swift build after touching one of swift-combine's sources"
touch "$work/swift-combine/Sources/Combine/Publishers/Just.swift"
start=$SECONDS
swift build >"$log" 2>&1 || fail_build "the incremental build failed"
compiled=$(sed -n 's/^\[[0-9]*\/[0-9]*\] Compiling \([^ ]*\) .*/\1/p' "$log" | sort -u | tr '\n' ' ')
echo "rebuilt in $((SECONDS - start)) s; compiled: $compiled"
# A third-party target that loads our module must not be recompiled. (swift-dependencies'
# `Dependencies`, which does not load it, recompiles on some builds by itself, a no-op build too:
# it is named, not failed.)
for target in $compiled; do
    case $target in
        Combine | NeighbourChecks | Neighbours | ListsGRDB | plugin) continue ;;
    esac
    if grep -q -s -l "Modules/Combine.swiftmodule" "$work/Neighbours/.build/$triple/debug/$target.build/"*.d; then
        echo "FAIL: touching swift-combine's Just.swift recompiled $target, which loads our Combine"
        exit 1
    fi
    echo "recompiled by itself, without loading our Combine: $target"
done
check_output debug Neighbours "$expected_lines"

echo "== swift build -c release (from clean)"
start=$SECONDS
swift build -c release >"$log" 2>&1 || fail_build "the service did not build in one plain swift build -c release"
echo "built in $((SECONDS - start)) s"
check_output release Neighbours "$expected_lines"
check_dependency_files "$work/Neighbours/.build/$triple/release"
check_early_interface release "$work/Neighbours/.build/$triple/release"

echo "== swift test (from clean, its own build folder)"
start=$SECONDS
swift test --scratch-path .build-test >"$log" 2>&1 || {
    grep -E "error:|✘|failed" "$log" | head -20
    fail_build "the service's tests did not build or pass in one plain swift test"
}
grep -E "Test run with .* passed" "$log"
echo "built and tested in $((SECONDS - start)) s"

echo "== swift build --build-system swiftbuild (from clean): Yams beside swift-combine"
mkdir -p "$work/SwiftBuildClient/Sources/SwiftBuildClient"
cat >"$work/SwiftBuildClient/Package.swift" <<'SWIFT'
// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "SwiftBuildClient",
    dependencies: [
        .package(path: "../swift-combine"), .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        .executableTarget(
            name: "SwiftBuildClient",
            dependencies: [.product(name: "Combine", package: "swift-combine"), .product(name: "Yams", package: "Yams")])
    ]
)
SWIFT
cat >"$work/SwiftBuildClient/Sources/SwiftBuildClient/main.swift" <<'SWIFT'
import Combine
import Foundation
import Yams

struct Point: Decodable { var x: Int }
var decoded: [Int] = []
let cancellable = Just(Data("x: 1\n".utf8)).decode(type: Point.self, decoder: YAMLDecoder())
    .sink(receiveCompletion: { _ in }, receiveValue: { decoded.append($0.x) })
cancellable.cancel()
print("swift-build: YAML \(decoded)")
SWIFT
cd "$work/SwiftBuildClient"
start=$SECONDS
swift build --build-system swiftbuild >"$log" 2>&1 || fail_build "Yams beside swift-combine did not build with swift-build"
echo "built in $((SECONDS - start)) s"
output=$(swift run -q --build-system swiftbuild --skip-build SwiftBuildClient 2>&1) || true
[ "$output" = "swift-build: YAML [1]" ] || { echo "FAIL: SwiftBuildClient printed: $output"; exit 1; }
echo "$output"

echo "== code written for OpenCombine, through the stand-in"
cp -R "$root/Compatibility/OpenCombineCode" "$work/OpenCombineCode"
cd "$work/OpenCombineCode"
stand_in="$work/swift-combine/scripts/opencombine-stand-in.sh"
"$stand_in" --set-mirror ../OpenCombine ../swift-combine >/dev/null
# Run again it reuses its own stand-in; it refuses a folder it did not make.
again=$("$stand_in" --set-mirror ../OpenCombine ../swift-combine)
case $again in
    "reused the OpenCombine stand-in"*) ;;
    *) echo "FAIL: opencombine-stand-in.sh did not reuse its own stand-in: $again"; exit 1 ;;
esac
if "$stand_in" ../Neighbours ../swift-combine >/dev/null 2>&1; then
    echo "FAIL: opencombine-stand-in.sh wrote over a folder it did not make"
    exit 1
fi
grep -q "file://$work/OpenCombine" .swiftpm/configuration/mirrors.json ||
    { echo "FAIL: --set-mirror wrote no mirror"; exit 1; }
echo "opencombine-stand-in.sh: made, reused, refused another folder, set the mirror"
swift build >"$log" 2>&1 || fail_build "code written for OpenCombine did not build against the stand-in"
check_output debug OpenCombineCode 'OpenCombine code: Combine.Just<Swift.Int> ["1", "2"], names [true, true, true, true]'
