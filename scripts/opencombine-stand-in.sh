#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Makes the git repository that stands in for OpenCombine (Compatibility/OpenCombine): a copy of
# that package whose dependency on swift-combine names LOCATION, committed and tagged 0.14.0 (what
# packages that depend on OpenCombine ask for: `from: "0.14.0"` and lower), then prints the line
# that points a package's OpenCombine at it.
#
#   scripts/opencombine-stand-in.sh DESTINATION [LOCATION]
#
# LOCATION is swift-combine as your Package.swift reaches it: for `.package(path: "../swift-combine")`,
# that folder's absolute path (the default: this checkout's folder, as reached from where the script
# runs); for `.package(url: URL, ...)`, the same URL. It must be the same location, or SwiftPM sees
# two packages named swift-combine. The commit is the same byte for byte each time for the same
# LOCATION, so remaking the stand-in does not change what SwiftPM recorded for version 0.14.0.
set -euo pipefail
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: $0 DESTINATION [LOCATION]" >&2
    exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
destination=$1
location=${2:-$root}
if [ -e "$destination" ] && [ -n "$(ls -A "$destination")" ]; then
    echo "error: $destination exists and is not empty; remove it or name another folder" >&2
    exit 1
fi
case "$location" in
    /*) url="file://$location" ;;
    *://*) url=$location ;;
    *) echo "error: LOCATION must be an absolute path or a URL, not '$location'" >&2; exit 1 ;;
esac
mkdir -p "$destination"
cp -R "$root/Compatibility/OpenCombine/." "$destination/"
rm -rf "$destination/.build" "$destination/Package.resolved"
python3 - "$destination/Package.swift" "$url" <<'PY'
import sys
path, url = sys.argv[1], sys.argv[2]
manifest = open(path).read()
line = '.package(path: "../swift-combine")'
assert manifest.count(line) == 1, "Compatibility/OpenCombine/Package.swift no longer has " + line
open(path, 'w').write(manifest.replace(line, f'.package(url: "{url}", from: "0.1.0")'))
PY
export GIT_AUTHOR_NAME="swift-combine" GIT_AUTHOR_EMAIL="swift-combine@localhost" \
    GIT_COMMITTER_NAME="swift-combine" GIT_COMMITTER_EMAIL="swift-combine@localhost" \
    GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" GIT_COMMITTER_DATE="2026-01-01T00:00:00Z"
git -C "$destination" init -q
git -C "$destination" add -A
git -C "$destination" -c commit.gpgsign=false commit -q -m "OpenCombine stand-in: re-exports swift-combine's Combine"
git -C "$destination" -c tag.gpgsign=false tag 0.14.0
destination_path=$(cd "$destination" && pwd)
echo "made the OpenCombine stand-in at $destination_path (version 0.14.0, swift-combine at $url)"
echo "in your package's folder, run once:"
echo "  swift package config set-mirror --original https://github.com/OpenCombine/OpenCombine.git --mirror file://$destination_path"
