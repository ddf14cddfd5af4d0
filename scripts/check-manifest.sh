#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Checks that Package.swift means the same on every host and keeps our `Combine` off Apple's
# platforms:
# 1. The manifest is evaluated twice: as this host answers, and with every host question
#    (`canImport(Darwin)`, `os(macOS)`, ...) answered as a Mac answers. Both must declare the
#    same products and targets with the same dependencies and conditions. (A control manifest
#    that does ask the host is put through the same comparison first, to show it would fail.)
# 2. Every dependency on the `Combine` target carries one platform condition that leaves out all
#    of Apple's platforms, and the `Combine` product reaches our module only through one.
# 3. A stand-in for a Mac: a copy of the package whose condition lists another platform than
#    this machine's, and whose `Combine` target cannot compile, and a client written exactly as
#    the README's "Using it" shows. The client must build and run: the product leaves our
#    `Combine` out where the condition does.
# 4. The `Combine` target's build-tool plugin is applied when the manifest is read on Linux and
#    not when it is read as a Mac reads it.
# The README's client against the real package is built and run by scripts/check-install.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Copies a package's manifest into $2 with its folders linked, answering host questions as a
# Mac would, and prints its dump.
dump_as_mac() {
    local source=$1 destination=$2
    mkdir -p "$destination"
    for entry in "$source"/*; do
        [ "$(basename "$entry")" = Package.swift ] || ln -s "$entry" "$destination/"
    done
    python3 - "$source/Package.swift" "$destination/Package.swift" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
answers = {
    r'canImport\((Darwin|Combine|ObjectiveC)\)': 'true',
    r'canImport\((Glibc|Musl|Android|WinSDK|WASILibc|Bionic)\)': 'false',
    r'os\((macOS|OSX)\)': 'true',
    r'os\((Linux|Windows|Android|WASI|FreeBSD|OpenBSD|iOS|tvOS|watchOS|visionOS)\)': 'false',
}
for question, answer in answers.items():
    text = re.sub(question, answer, text)
open(sys.argv[2], 'w').write(text)
PY
    (cd "$destination" && swift package dump-package)
}

# Prints what differs between two dumps' products and targets (nothing when they agree).
compare_dumps() {
    python3 - "$1" "$2" <<'PY'
import json, sys
def shape(path):
    dump = json.load(open(path))
    products = sorted((p['name'], json.dumps(p['type'], sort_keys=True), tuple(p['targets'])) for p in dump['products'])
    targets = sorted(
        (t['name'], t['type'], t.get('path'), json.dumps(t['dependencies'], sort_keys=True)) for t in dump['targets'])
    return products, targets
here, mac = shape(sys.argv[1]), shape(sys.argv[2])
for kind, ours, theirs in (('products', here[0], mac[0]), ('targets', here[1], mac[1])):
    for entry in sorted(set(ours) ^ set(theirs)):
        side = 'only on this host' if entry in ours else 'only on a Mac'
        print(f'{kind}: {side}: {entry}')
PY
}

echo "== the comparison tells a host-dependent manifest apart (control)"
mkdir -p "$work/control/Sources/Shared" "$work/control/Sources/OnlyHere"
echo 'public let shared = 1' >"$work/control/Sources/Shared/Shared.swift"
echo 'public let onlyHere = 1' >"$work/control/Sources/OnlyHere/OnlyHere.swift"
cat >"$work/control/Package.swift" <<'SWIFT'
// swift-tools-version: 6.2
import PackageDescription
#if canImport(Darwin)
let extra: [Product] = []
#else
let extra: [Product] = [.library(name: "OnlyHere", targets: ["OnlyHere"])]
#endif
let package = Package(
    name: "control",
    products: extra + [.library(name: "Shared", targets: ["Shared"])],
    targets: [.target(name: "Shared"), .target(name: "OnlyHere")])
SWIFT
(cd "$work/control" && swift package dump-package) >"$work/control-here.json"
dump_as_mac "$work/control" "$work/control-mac" >"$work/control-mac.json"
if [ -z "$(compare_dumps "$work/control-here.json" "$work/control-mac.json")" ]; then
    echo "FAIL: the comparison did not see the control manifest's host-dependent product"
    exit 1
fi
echo "the control's host-dependent product is seen"

echo "== Package.swift evaluated as this host and as a Mac declares the same package"
swift package dump-package >"$work/here.json"
dump_as_mac "$root" "$work/mac" >"$work/mac.json"
differences=$(compare_dumps "$work/here.json" "$work/mac.json")
if [ -n "$differences" ]; then
    echo "FAIL: Package.swift declares a different package on a Mac host:"
    echo "$differences"
    exit 1
fi
python3 - "$work/mac.json" <<'PY'
import json, sys
dump = json.load(open(sys.argv[1]))
print('products on both:', ', '.join(p['name'] for p in dump['products']))
PY

echo "== our Combine is depended on only off Apple's platforms"
python3 - "$work/here.json" <<'PY'
import json, sys
dump = json.load(open(sys.argv[1]))
apple = {'macos', 'maccatalyst', 'ios', 'tvos', 'watchos', 'visionos', 'driverkit'}
targets = {target['name']: target for target in dump['targets']}
lists = set()
for target in dump['targets']:
    for dependency in target['dependencies']:
        kind, value = next(iter(dependency.items()))
        if kind not in ('target', 'byName') or value[0] != 'Combine':
            continue
        platforms = (value[-1] or {}).get('platformNames')
        if not platforms:
            sys.exit(f"FAIL: {target['name']} depends on Combine on every platform (Apple's would be shadowed)")
        if apple & set(platforms):
            sys.exit(f"FAIL: {target['name']} depends on our Combine on {sorted(apple & set(platforms))}")
        lists.add(tuple(sorted(platforms)))
if len(lists) != 1:
    sys.exit(f'FAIL: the targets depend on Combine under different platform lists: {sorted(lists)}')
product = next(p for p in dump['products'] if p['name'] == 'Combine')
if 'Combine' in product['targets']:
    sys.exit('FAIL: the Combine product contains the Combine target itself: it is built on every platform')
for name in product['targets']:
    if not any(next(iter(d.values()))[0] == 'Combine' for d in targets[name]['dependencies']):
        sys.exit(f'FAIL: the Combine product\'s target {name} does not bring our Combine')
print('every dependency on Combine (the product\'s included) is for:', ', '.join(next(iter(lists))))
PY

echo "== a client written as the README shows skips our Combine where the condition leaves it out"
# Another platform than this machine's stands in for Apple's.
case "$(uname -s)" in Linux) elsewhere=.macOS ;; *) elsewhere=.linux ;; esac
standin="$work/stand-in/swift-combine"
mkdir -p "$standin/Sources/Combine"
for entry in "$root"/*; do
    case "$(basename "$entry")" in Package.swift | Sources) ;; *) ln -s "$entry" "$standin/" ;; esac
done
for entry in "$root"/Sources/*; do
    [ "$(basename "$entry")" = Combine ] || ln -s "$entry" "$standin/Sources/"
done
echo '#error("the stand-in Combine target was built")' >"$standin/Sources/Combine/StandIn.swift"
python3 - "$root/Package.swift" "$standin/Package.swift" "$elsewhere" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
text, count = re.subn(r'(let combinePlatforms: \[Platform\] = )\[[^\]]*\]', r'\1[' + sys.argv[3] + ']', text)
assert count == 1, 'Package.swift no longer declares combinePlatforms'
open(sys.argv[2], 'w').write(text)
PY
mkdir -p "$work/stand-in/MyService/Sources/MyService"
python3 - "$root/README.md" "$work/stand-in/MyService/Package.swift" <<'PY'
import re, sys
section = open(sys.argv[1]).read().split('## Using it', 1)[1]
open(sys.argv[2], 'w').write(re.search(r'```swift\n(.*?)```', section, re.S).group(1))
PY
echo 'print("built without the stand-in Combine")' >"$work/stand-in/MyService/Sources/MyService/main.swift"
full=$(cd "$work/stand-in/MyService" && swift run -q MyService 2>&1) || true
output=$(echo "$full" | tail -1)
if [ "$output" != "built without the stand-in Combine" ]; then
    echo "FAIL: the README's client built our Combine on a platform the condition leaves out:"
    echo "$full" | grep -m3 "error:" || echo "$full" | tail -5
    exit 1
fi
echo "the README's client builds without our Combine on $elsewhere: $output"
# SwiftPM runs a target's build-tool plugins even where the target is left out of the build: the
# stand-in client above ran EarlyCombineModule's. So the manifest applies that plugin only when it
# is read on Linux (`earlyModule`), and a Mac, Xcode included, never sees it applied.
echo "== the EarlyCombineModule plugin is applied on a Linux host only"
python3 - "$work/here.json" "$work/mac.json" <<'PY'
import json, sys
def usages(path):
    target = next(t for t in json.load(open(path))['targets'] if t['name'] == 'Combine')
    return [usage['plugin'][0] for usage in target.get('pluginUsages') or []]
here, mac = usages(sys.argv[1]), usages(sys.argv[2])
if here != ['EarlyCombineModule']:
    sys.exit(f'FAIL: on this host the Combine target applies {here}, not EarlyCombineModule')
if mac:
    sys.exit(f'FAIL: read as a Mac reads it, the Combine target applies {mac}')
print('Combine applies EarlyCombineModule here and no plugin on a Mac')
PY
