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

# The version form (`from: "0.1.0"`): a throw-away clone of this commit, tagged in a temporary
# folder with the version the Unreleased changes will get (SwiftPM takes the highest tag the
# requirement allows, so the client builds this commit, not the older 0.1.0), depended on by
# `url:` as a package on a git server is.
# (Its folder is named swift-combine: SwiftPM names a package by the last part of its URL.)
git clone -q "$root" "$work/server/swift-combine"
git -C "$work/server/swift-combine" tag -f 0.2.0 >/dev/null
mkdir -p "$work/VersionedClient/Sources/VersionedClient"
cp "$work/MyService/Sources/MyService/main.swift" "$work/VersionedClient/Sources/VersionedClient/main.swift"
python3 - "$work/MyService/Package.swift" "$work/VersionedClient/Package.swift" "$work/server/swift-combine" <<'PY'
import sys
manifest = open(sys.argv[1]).read()
path_line = '.package(path: "../swift-combine")'
assert path_line in manifest, "the README's manifest no longer has " + path_line
manifest = manifest.replace(path_line, f'.package(url: "file://{sys.argv[3]}", from: "0.1.0")')
open(sys.argv[2], 'w').write(manifest.replace('"MyService"', '"VersionedClient"'))
PY
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
