#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds and runs a package written exactly as README.md's "Using it" section shows, against
# this checkout placed where the README says (`../swift-combine` next to the new package):
# the install lines in the README are checked, not just written.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

ln -s "$root" "$work/swift-combine"
mkdir -p "$work/MyService/Sources/MyService"
# The first ```swift block after the "## Using it" heading is the user's Package.swift.
python3 - "$root/README.md" "$work/MyService/Package.swift" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
section = text.split('## Using it', 1)[1]
block = re.search(r'```swift\n(.*?)```', section, re.S).group(1)
open(sys.argv[2], 'w').write(block)
PY
cat >"$work/MyService/Sources/MyService/main.swift" <<'SWIFT'
import Combine

var received: [Int] = []
let cancellable = [1, 2, 3].publisher
    .map { $0 * 10 }
    .sink { received.append($0) }
print(received, String(reflecting: Just<Int>.self))
SWIFT
output=$(cd "$work/MyService" && swift run -q MyService 2>&1 | tail -1) || true
expected="[10, 20, 30] Combine.Just<Swift.Int>"
if [ "$output" != "$expected" ]; then
    echo "FAIL: the README's package did not build and run as written: got '$output'"
    exit 1
fi
echo "the README's install lines build and run: $output"

# The README's two other forms: by branch (`branch: "main"`, how to depend on it from a git server
# today: the repository has no tags) against an untagged clone of this commit, and by version
# (`from:`, for when a release is tagged) against a clone tagged in a temporary folder with the
# version the Unreleased changes will get (SwiftPM takes the highest tag the requirement allows,
# so the client builds this commit), each depended on by `url:` as a package on a git server is.
# (The clones' folders are named swift-combine: SwiftPM names a package by the last part of its URL.)
python3 - "$root/README.md" <<'PY'
import sys
readme = open(sys.argv[1]).read()
for line in ('.package(url: "<the repository\'s URL>", branch: "main")',
             '.package(url: "<the repository\'s URL>", from: "<that version>")'):
    assert line in readme, "README.md no longer shows " + line
PY
# Writes the client $1 whose manifest is the README's with the path line replaced by $2.
write_client() {
    mkdir -p "$work/$1/Sources/$1"
    cp "$work/MyService/Sources/MyService/main.swift" "$work/$1/Sources/$1/main.swift"
    python3 - "$work/MyService/Package.swift" "$work/$1/Package.swift" "$2" "$1" <<'PY'
import sys
manifest = open(sys.argv[1]).read()
path_line = '.package(path: "../swift-combine")'
assert path_line in manifest, "the README's manifest no longer has " + path_line
manifest = manifest.replace(path_line, sys.argv[3])
open(sys.argv[2], 'w').write(manifest.replace('"MyService"', f'"{sys.argv[4]}"'))
PY
}
git clone -q "$root" "$work/branch-server/swift-combine"
git -C "$work/branch-server/swift-combine" checkout -q -B main
if [ -n "$(git -C "$work/branch-server/swift-combine" tag)" ]; then
    git -C "$work/branch-server/swift-combine" tag | xargs git -C "$work/branch-server/swift-combine" tag -d >/dev/null
fi
write_client BranchClient ".package(url: \"file://$work/branch-server/swift-combine\", branch: \"main\")"
output=$(cd "$work/BranchClient" && swift run -q BranchClient 2>&1 | tail -1) || true
if [ "$output" != "$expected" ]; then
    echo "FAIL: a client depending on an untagged clone by branch: \"main\" did not build and run: got '$output'"
    exit 1
fi
echo "a client depending on an untagged clone by branch builds and runs: $output"

git clone -q "$root" "$work/server/swift-combine"
git -C "$work/server/swift-combine" tag -f 0.2.0 >/dev/null
write_client VersionedClient ".package(url: \"file://$work/server/swift-combine\", from: \"0.1.0\")"
output=$(cd "$work/VersionedClient" && swift run -q VersionedClient 2>&1 | tail -1) || true
if [ "$output" != "$expected" ]; then
    echo "FAIL: a client depending on the package by version (from: \"0.1.0\") did not build and run: got '$output'"
    exit 1
fi
resolved=$(cd "$work/VersionedClient" && swift package show-dependencies 2>/dev/null | grep -o "swift-combine<[^>]*>" | head -1) || true
echo "a client depending on it by version builds and runs: $output ($resolved)"

# swift-log comes only with the trait `Logging`: the README's client (no trait) must not have
# fetched it, and a client written as the README's "Logging through swift-log" section shows
# (the trait on the package line, the CombineLogging product, swift-log for `Logger`) builds and
# logs through it.
if [ -e "$work/MyService/.build/checkouts/swift-log" ]; then
    echo "FAIL: a client without the Logging trait fetched swift-log"
    exit 1
fi
echo "a client without the Logging trait fetches no swift-log"
mkdir -p "$work/LoggingClient/Sources/LoggingClient"
python3 - "$root/README.md" "$work/LoggingClient/Package.swift" <<'PY'
import re, sys
section = open(sys.argv[1]).read().split('## Logging through swift-log', 1)[1]
blocks = re.findall(r'```swift\n(.*?)```', section, re.S)
package_line = next(line.strip() for line in blocks[0].splitlines() if line.strip().startswith('.package('))
product_line = next(line.strip() for line in blocks[0].splitlines() if line.strip().startswith('.product('))
open(sys.argv[2], 'w').write(f'''// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "LoggingClient",
    dependencies: [
        {package_line.rstrip(',')},
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
    ],
    targets: [
        .executableTarget(
            name: "LoggingClient",
            dependencies: [
                .product(name: "Combine", package: "swift-combine"),
                {product_line.split("//")[0].strip().rstrip(",")},
                .product(name: "Logging", package: "swift-log"),
            ])
    ]
)
''')
PY
cat >"$work/LoggingClient/Sources/LoggingClient/main.swift" <<'SWIFT'
import Combine
import CombineLogging
import Logging

let logger = Logger(label: "check")
_ = [7].publisher.log("numbers", to: logger, level: .info).sink { _ in }
SWIFT
output=$(cd "$work/LoggingClient" && swift run -q LoggingClient 2>&1) || true
if ! grep -q "combine.event=value.*numbers: receive value: (7)" <<<"$output"; then
    echo "FAIL: the README's CombineLogging client did not build and log: got '$(tail -5 <<<"$output")'"
    exit 1
fi
echo "the README's CombineLogging client builds and logs: $(grep "receive value" <<<"$output" | head -1)"
