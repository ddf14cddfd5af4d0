#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Generates the DocC documentation of the library modules into .build/docs/<Module>/ and fails
# on any DocC warning, any public symbol without a documentation comment, or any operator
# without its Parameters, Returns and example.
#
#   scripts/docs.sh                 # Combine, CombineTesting, CombineExtras
#   scripts/docs.sh Combine         # one module
#
# The symbol graphs come from the compiler; `docc` ships with the toolchain.
# Every module's catalog is `Sources/<Module>/<Module>.docc`. The coverage figures printed at the
# end are from scripts/doc-coverage.py.
set -euo pipefail
cd "$(dirname "$0")/.."

modules=("$@")
if [ ${#modules[@]} -eq 0 ]; then
    modules=(Combine CombineTesting CombineExtras)
fi
# The compiler's symbol graphs of every module, from the package's own build (`swift package
# dump-symbol-graph` builds what is missing, in the same build directory as `swift build`).
graphs=$(swift package dump-symbol-graph --skip-synthesized-members | sed -n 's/^Files written to //p')
if [ -z "$graphs" ] || [ ! -d "$graphs" ]; then
    echo "FAIL: no symbol graphs"
    exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

docc=$(command -v docc || true)
if [ -z "$docc" ]; then
    docc="$(dirname "$(readlink -f "$(command -v swift)")")/docc"
fi

status=0
for module in "${modules[@]}"; do
    echo "== $module"
    dir="$work/$module"
    mkdir -p "$dir"
    cp "$graphs/$module.symbols.json" "$dir/"
    cp "$graphs/$module"@*.symbols.json "$dir/" 2>/dev/null || true
    out=".build/docs/$module"
    rm -rf "$out"
    mkdir -p .build/docs
    log=$(mktemp)
    if ! "$docc" convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$dir" \
        --fallback-display-name "$module" --fallback-bundle-identifier "swift-combine.$module" \
        --enable-parameters-and-returns-validation \
        --warnings-as-errors --output-path "$out" >"$log" 2>&1; then
        cat "$log"
        echo "FAIL: DocC reported $(grep -c "^\(warning\|error\):" "$log" || true) problem(s) in $module"
        status=1
    fi
    rm -f "$log"
    if ! python3 scripts/doc-coverage.py "$dir" --module "$module" --fail-on-missing; then
        python3 scripts/doc-coverage.py "$dir" --module "$module" --list | grep "^undocumented:\|^operator gaps:"
        echo "FAIL: public symbols without documentation, or operators without Parameters/Returns/example, in $module"
        status=1
    fi
done
exit $status
