#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Generates the DocC documentation of the library modules into .build/docs/<Module>/ (extension
# members included: the symbol graphs have extension blocks), and one site of the four in
# .build/docs/site; fails on any DocC warning (in the internal documentation too), any public
# symbol without a documentation comment or without a page in the site, or any operator without
# its Parameters, Returns and example.
#
#   scripts/docs.sh                 # Combine, CombineTesting, CombineExtras, CombineLogging
#   scripts/docs.sh Combine         # one module
#
# The symbol graphs come from the compiler; `docc` ships with the toolchain.
# Every module's catalog is `Sources/<Module>/<Module>.docc`. The coverage figures printed at the
# end are from scripts/doc-coverage.py.
set -euo pipefail
cd "$(dirname "$0")/.."

modules=("$@")
if [ ${#modules[@]} -eq 0 ]; then
    modules=(Combine CombineTesting CombineExtras CombineLogging)
fi
# The compiler's symbol graphs of every module, from the package's own build (`swift package
# dump-symbol-graph` builds what is missing, in the same build directory as `swift build`).
# (With the trait `Logging`, as `.ci/run` builds, so that the build directory is reused.)
graphs=$(swift package --traits Logging dump-symbol-graph --skip-synthesized-members --emit-extension-block-symbols | sed -n 's/^Files written to //p')
if [ -z "$graphs" ] || [ ! -d "$graphs" ]; then
    echo "FAIL: no symbol graphs"
    exit 1
fi
# The site's path on its web server: DOCS_HOSTING_BASE_PATH=swift-combine serves it under
# /swift-combine/ (default: at the server's root).
hosting_base_path="${DOCS_HOSTING_BASE_PATH:-}"
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
    # CombineTesting and CombineExtras link to Combine's pages (built first).
    dependency=()
    if [ "$module" != Combine ] && [ -d .build/docs/Combine ]; then dependency=(--dependency .build/docs/Combine); fi
    if ! "$docc" convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$dir" \
        --fallback-display-name "$module" --fallback-bundle-identifier "swift-combine.$module" \
        --enable-parameters-and-returns-validation --emit-digest \
        --enable-experimental-external-link-support "${dependency[@]}" \
        --hosting-base-path "$hosting_base_path" \
        --warnings-as-errors --output-path "$out" >"$log" 2>&1; then
        cat "$log"
        echo "FAIL: DocC reported $(grep -c "^\(warning\|error\):" "$log" || true) problem(s) in $module"
        status=1
    fi
    rm -f "$log"
    # Combine's topic groups (Combine.md's generated part, Publisher.md) are written by
    # scripts/docc-topics.py from these symbol graphs: the committed pages must be what it writes.
    if [ "$module" = Combine ] && [ -f "$out/linkable-entities.json" ]; then
        cp -R "Sources/Combine/Combine.docc" "$work/topics.docc"
        python3 scripts/docc-topics.py "$dir" "$out/linkable-entities.json" "$work/topics.docc"
        for page in Combine.md Publisher.md; do
            if ! cmp -s "$work/topics.docc/$page" "Sources/Combine/Combine.docc/$page"; then
                { diff "Sources/Combine/Combine.docc/$page" "$work/topics.docc/$page" || true; } | head -20
                echo "FAIL: Sources/Combine/Combine.docc/$page is not what scripts/docc-topics.py writes (run it)"
                status=1
            fi
        done
    fi
    if ! python3 scripts/doc-coverage.py "$dir" --module "$module" --pages "$out/linkable-entities.json" \
        --fail-on-missing; then
        python3 scripts/doc-coverage.py "$dir" --module "$module" --pages "$out/linkable-entities.json" --list |
            grep "^undocumented:\|^operator gaps:\|^no page:"
        echo "FAIL: public symbols without documentation, or operators without Parameters/Returns/example, in $module"
        status=1
    fi
done
# One site of the four modules, as a user hosts it: `.build/docs/site`, a landing page linking
# each module's documentation (python3 -m http.server --directory .build/docs/site, then
# http://localhost:8000/documentation/combine).
if [ $status -eq 0 ] && [ ${#modules[@]} -eq 4 ]; then
    rm -rf .build/docs/site
    for module in "${modules[@]}"; do cp -R ".build/docs/$module" "$work/$module.doccarchive"; done
    if "$docc" merge "$work/Combine.doccarchive" "$work/CombineTesting.doccarchive" "$work/CombineExtras.doccarchive" \
        "$work/CombineLogging.doccarchive" \
        --synthesized-landing-page-name swift-combine --output-path .build/docs/site >"$work/merge.log" 2>&1; then
        echo "== one site of the four modules: .build/docs/site"
    else
        cat "$work/merge.log"
        echo "FAIL: docc merge"
        status=1
    fi
fi
# The internal documentation's links too: every module's symbol graph at every access level
# (the engines, `CombineSynchronization`), converted without a catalog; any DocC warning there
# (a link to a symbol that was renamed or removed, a parameter left undocumented) fails.
if [ ${#modules[@]} -eq 4 ]; then
    echo "== internal documentation links"
    internal=$(swift package --traits Logging dump-symbol-graph --minimum-access-level private --skip-synthesized-members |
        sed -n 's/^Files written to //p')
    for module in CombineSynchronization "${modules[@]}"; do
        dir="$work/internal-$module"
        mkdir -p "$dir"
        cp "$internal/$module.symbols.json" "$dir/"
        cp "$internal/$module"@*.symbols.json "$dir/" 2>/dev/null || true
        # A catalog holding only the module's resources (the marble diagrams its comments show).
        mkdir -p "$dir/Internal.docc"
        if [ -d "Sources/$module/$module.docc/Resources" ]; then
            cp -R "Sources/$module/$module.docc/Resources" "$dir/Internal.docc/"
        fi
        if ! "$docc" convert "$dir/Internal.docc" --additional-symbol-graph-dir "$dir" --fallback-display-name "$module" \
            --fallback-bundle-identifier "swift-combine.internal.$module" --output-path "$dir/out" \
            --warnings-as-errors >"$work/internal.log" 2>&1; then
            grep -A2 "^\(warning\|error\):" "$work/internal.log" | head -40
            echo "FAIL: DocC reported problems in $module's internal documentation"
            status=1
        fi
    done
fi
exit $status
