#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Makes the git repository that stands in for OpenCombine (Compatibility/OpenCombine): a copy of
# that package whose dependency on swift-combine names LOCATION, committed and tagged 0.14.0 (what
# packages that depend on OpenCombine ask for: `from: "0.14.0"` and lower). With --set-mirror it
# also points the package in the current folder at it (`swift package config set-mirror`);
# without, it prints that line.
#
#   scripts/opencombine-stand-in.sh [--set-mirror] DESTINATION [LOCATION]
#
# Run it from your package's folder. LOCATION is swift-combine as your Package.swift reaches it:
# for `.package(path: "../swift-combine")`, that folder (relative to the current folder, or
# absolute; the default: this checkout's folder); for `.package(url: URL, ...)`, the same URL. It
# must be the same location, or SwiftPM sees two packages named swift-combine. DESTINATION may be
# relative too. A stand-in this script made earlier at DESTINATION is reused when it names the
# same LOCATION and remade otherwise; any other non-empty DESTINATION is an error. The commit is
# the same byte for byte each time for the same LOCATION, so remaking the stand-in does not change
# what SwiftPM recorded for version 0.14.0.
set -euo pipefail
set_mirror=0
if [ "${1:-}" = --set-mirror ]; then
    set_mirror=1
    shift
fi
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: $0 [--set-mirror] DESTINATION [LOCATION]" >&2
    exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
destination=$1
location=${2:-$root}
case "$location" in
    *://*) url=$location ;;
    *)
        if [ ! -d "$location" ]; then
            echo "error: LOCATION '$location' is not a folder (from $PWD) nor a URL" >&2
            exit 1
        fi
        url="file://$(cd "$location" && pwd)"
        ;;
esac
# The location a stand-in was made for, kept beside its git data (not in its commit).
marker=.git/swift-combine-stand-in-location
made_here() { [ -f "$destination/$marker" ]; }
print_mirror_line() {
    echo "in your package's folder, run once:"
    echo "  swift package config set-mirror --original https://github.com/OpenCombine/OpenCombine.git --mirror file://$1"
}
if made_here && [ "$(cat "$destination/$marker")" = "$url" ]; then
    reused=1
else
    reused=0
    if made_here; then
        rm -rf "$destination"
    elif [ -e "$destination" ] && [ -n "$(ls -A "$destination")" ]; then
        echo "error: $destination exists, is not empty and is not a stand-in made by this script; remove it or name another folder" >&2
        exit 1
    fi
fi
if [ $reused = 0 ]; then
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
    echo "$url" >"$destination/$marker"
fi
destination_path=$(cd "$destination" && pwd)
if [ $reused = 1 ]; then
    echo "reused the OpenCombine stand-in at $destination_path (version 0.14.0, swift-combine at $url)"
else
    echo "made the OpenCombine stand-in at $destination_path (version 0.14.0, swift-combine at $url)"
fi
if [ $set_mirror = 1 ]; then
    swift package config set-mirror --original https://github.com/OpenCombine/OpenCombine.git \
        --mirror "file://$destination_path"
    echo "mirrored https://github.com/OpenCombine/OpenCombine.git to it for the package in $PWD"
else
    print_mirror_line "$destination_path"
fi
