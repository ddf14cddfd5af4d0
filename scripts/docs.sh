#!/usr/bin/env bash
# Generates the DocC documentation of the library modules into .build/docs/<Module>/ and fails
# on any DocC warning or any public symbol without a documentation comment.
#
#   scripts/docs.sh                 # Combine, CombineTesting, CombineExtras
#   scripts/docs.sh Combine         # one module
#
# The symbol graphs come from the compiler (`-emit-symbol-graph`, built in its own scratch
# directory so that the flags do not invalidate the main build); `docc` ships with the toolchain.
# Every module's catalog is `Sources/<Module>/<Module>.docc`. The coverage figures printed at the
# end are from scripts/doc-coverage.py.
set -euo pipefail
cd "$(dirname "$0")/.."

modules=("$@")
if [ ${#modules[@]} -eq 0 ]; then
    modules=(Combine CombineTesting CombineExtras)
fi
scratch=.build-docs
graphs="$scratch/symbol-graphs"
rm -rf "$graphs"
mkdir -p "$graphs"

for module in "${modules[@]}"; do
    swift build --scratch-path "$scratch" --target "$module" \
        -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs/all" >/dev/null
done

docc=$(command -v docc || true)
if [ -z "$docc" ]; then
    docc="$(dirname "$(readlink -f "$(command -v swift)")")/docc"
fi

status=0
for module in "${modules[@]}"; do
    echo "== $module"
    dir="$graphs/$module"
    mkdir -p "$dir"
    cp "$graphs/all/$module.symbols.json" "$dir/"
    cp "$graphs/all/$module"@*.symbols.json "$dir/" 2>/dev/null || true
    out=".build/docs/$module"
    rm -rf "$out"
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
        python3 scripts/doc-coverage.py "$dir" --module "$module" --list | grep "^undocumented:"
        echo "FAIL: public symbols without documentation in $module"
        status=1
    fi
done
exit $status
