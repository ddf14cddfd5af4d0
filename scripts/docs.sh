#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Generates the DocC documentation of the library modules into .build/docs/<Module>/ (extension
# members included: the symbol graphs have extension blocks), and one site of the four in
# .build/docs/site (its landing page's overview from docs/SiteLanding.docc); fails on any DocC
# warning (in the internal documentation too), any public symbol without a documentation comment
# or without a page in the site, any operator without its Parameters, Returns and example, or any
# link of the site to a page it does not have (scripts/check-site-links.py).
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
# In a build directory whose tests were never built, SwiftPM also tries the test-runner modules
# (`swift_combinePackageTests`), reports that it cannot load them, and exits non-zero after
# writing every other graph: what fails here is a graph missing for a module documented below.
# symbol_graphs MODULE... -- DUMP-OPTIONS: prints the folder of the graphs.
symbol_graphs() {
    local wanted=() dump_log folder module
    while [ "$1" != -- ]; do wanted+=("$1"); shift; done
    shift
    dump_log=$(mktemp)
    swift package --traits Logging dump-symbol-graph "$@" >"$dump_log" 2>&1 || true
    folder=$(sed -n 's/^Files written to //p' "$dump_log")
    for module in "${wanted[@]}"; do
        if [ -z "$folder" ] || [ ! -f "$folder/$module.symbols.json" ]; then
            grep -v "^Current visible modules:\|^[A-Za-z_0-9.]*$" "$dump_log" | tail -40 >&2
            echo "FAIL: no symbol graph of $module (swift package dump-symbol-graph $*)" >&2
            rm -f "$dump_log"
            return 1
        fi
    done
    rm -f "$dump_log"
    echo "$folder"
}
graphs=$(symbol_graphs "${modules[@]}" -- --skip-synthesized-members --emit-extension-block-symbols)
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
# One site of the four modules, as a user hosts it: `.build/docs/site`, a landing page with an
# overview (docs/SiteLanding.docc: what the package is, the set-up lines, how to depend on it, the
# first articles) above a card for each module's documentation (python3 -m http.server
# --directory .build/docs/site, then http://localhost:8000/documentation/).
if [ $status -eq 0 ] && [ ${#modules[@]} -eq 4 ]; then
    rm -rf .build/docs/site
    for module in "${modules[@]}"; do cp -R ".build/docs/$module" "$work/$module.doccarchive"; done
    # The landing page's text, converted against the four archives so that DocC resolves and
    # checks its links (`docc merge` writes the page itself, with no text of its own).
    landing=()
    for module in "${modules[@]}"; do landing+=(--dependency ".build/docs/$module"); done
    if ! "$docc" convert docs/SiteLanding.docc --fallback-display-name swift-combine \
        --fallback-bundle-identifier swift-combine.SiteLanding --enable-experimental-external-link-support \
        "${landing[@]}" --hosting-base-path "$hosting_base_path" --warnings-as-errors \
        --output-path "$work/landing" >"$work/landing.log" 2>&1; then
        cat "$work/landing.log"
        echo "FAIL: DocC reported problems in docs/SiteLanding.docc"
        status=1
    elif "$docc" merge "$work/Combine.doccarchive" "$work/CombineTesting.doccarchive" "$work/CombineExtras.doccarchive" \
        "$work/CombineLogging.doccarchive" \
        --synthesized-landing-page-name swift-combine --output-path .build/docs/site >"$work/merge.log" 2>&1; then
        echo "== one site of the four modules: .build/docs/site"
        python3 scripts/site-landing.py .build/docs/site "$work/landing" || status=1
        # Every link a page of the site makes to another of its pages (or to its images) lands
        # on one the site has.
        python3 scripts/check-site-links.py .build/docs/site || status=1
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
    internal=$(symbol_graphs CombineSynchronization "${modules[@]}" -- --minimum-access-level private --skip-synthesized-members)
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
