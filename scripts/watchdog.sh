#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs a test command with a time limit, for CI: `scripts/watchdog.sh MINUTES command…`.
#
# The command's output streams through as usual and its exit status is returned. If it is still
# running after MINUTES, the script prints which tests started and never finished (from the
# "◇ Test … started." and "✔/✘ Test …" lines Swift Testing prints), the backtraces of every
# thread of the test process (gdb, when installed), then stops the command and fails. A hung
# test then costs minutes and leaves evidence, instead of running CI into its time limit with a
# log that says nothing about the cause.
set -uo pipefail

if [ $# -lt 2 ]; then
    echo "usage: $0 MINUTES command…" >&2
    exit 2
fi
minutes=$1
shift

log=$(mktemp)
setsid "$@" >"$log" 2>&1 &
pid=$!
tail -n +1 -f --pid="$pid" "$log" &
tailer=$!

deadline=$((SECONDS + minutes * ${WATCHDOG_SECONDS_PER_MINUTE:-60}))
while kill -0 "$pid" 2>/dev/null; do
    if [ "$SECONDS" -ge "$deadline" ]; then
        break
    fi
    sleep 2
done

if ! kill -0 "$pid" 2>/dev/null; then
    wait "$pid"
    status=$?
    wait "$tailer" 2>/dev/null
    rm -f "$log"
    exit "$status"
fi

kill "$tailer" 2>/dev/null
echo
echo "== watchdog: still running after $minutes minutes: $*"
echo "== tests started and not finished (name: how many)"
python3 - "$log" <<'EOF'
import re, sys
from collections import Counter

started, finished = Counter(), Counter()
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    match = re.match(r"^\S+ Test (.+?) started\.$", line.rstrip())
    if match:
        started[match.group(1)] += 1
        continue
    match = re.match(r"^\S+ Test (.+?)(?: with \d+ test cases?)? (?:passed|failed|skipped)", line)
    if match:
        finished[match.group(1)] += 1
for name, count in sorted((started - finished).items()):
    print(f"{name}: {count}")
EOF
if command -v gdb >/dev/null; then
    for test_pid in $(pgrep -s "$pid" -f '\.xctest' || true); do
        echo "== threads of process $test_pid"
        timeout 120 gdb -p "$test_pid" -batch -ex "thread apply all bt 30" 2>/dev/null | grep -E "^(Thread|#)" | head -2000
    done
else
    echo "(gdb is not installed: no backtraces)"
fi
kill -TERM -- "-$pid" 2>/dev/null
sleep 5
kill -KILL -- "-$pid" 2>/dev/null
rm -f "$log"
exit 1
