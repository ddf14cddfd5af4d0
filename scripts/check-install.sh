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
output=$(cd "$work/MyService" && swift run -q MyService 2>&1 | tail -1)
expected="[10, 20, 30] Combine.Just<Swift.Int>"
if [ "$output" != "$expected" ]; then
    echo "FAIL: the README's package did not build and run as written: got '$output'"
    exit 1
fi
echo "the README's install lines build and run: $output"
