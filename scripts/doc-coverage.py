#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Documentation coverage of the public API, from the compiler's symbol graphs.

Usage: doc-coverage.py SYMBOL_GRAPH_DIR [--module Combine] [--pages LINKABLE_ENTITIES] [--fail-on-missing] [--list]

Counts every public symbol the module declares (its own source locations; synthesised and
inherited members excluded) with and without a documentation comment, and for the operators
(methods in extensions of `Publisher` returning a publisher) whether the comment has a
Parameters section (when the method takes parameters), a Returns line and a code example.
With --fail-on-missing it exits 1 when any public symbol has no documentation comment, or an
operator's comment lacks its Parameters section, its Returns line or its example.
"""
import json, os, re, sys, glob

args = sys.argv[1:]
directory = args[0]
module = args[args.index('--module') + 1] if '--module' in args else 'Combine'
symbols = {}
for path in glob.glob(os.path.join(directory, module + '.symbols.json')) + \
        glob.glob(os.path.join(directory, module + '@*.symbols.json')):
    graph = json.load(open(path))
    for s in graph['symbols']:
        if s.get('accessLevel') != 'public' or '::SYNTHESIZED::' in s['identifier']['precise']:
            continue
        loc = s.get('location', {}).get('uri', '')
        if '/Sources/' not in loc:
            continue
        symbols[s['identifier']['precise']] = s

def text(s):
    doc = s.get('docComment')
    return '\n'.join(l['text'] for l in doc['lines']) if doc else ''

def is_operator(s):
    if s['kind']['identifier'] != 'swift.method':
        return False
    path = s['pathComponents']
    decl = ''.join(f['spelling'] for f in s.get('declarationFragments', []))
    return len(path) == 2 and path[0] in ('Publisher', 'ConnectablePublisher') and '->' in decl

def takes_parameters(s):
    params = s.get('functionSignature', {}).get('parameters', [])
    return len(params) > 0

# Extension blocks (`--emit-extension-block-symbols`: an extension of a type from another module,
# such as `extension DispatchQueue`) are the pages that group their members; the members are
# counted, the blocks need no comment of their own.
blocks = {k: s for k, s in symbols.items() if s['kind']['identifier'] == 'swift.extension'}
symbols = {k: s for k, s in symbols.items() if k not in blocks}
missing = [s for s in symbols.values() if not text(s).strip()]
operators = [s for s in symbols.values() if is_operator(s)]
def has_params(t): return re.search(r'^\s*- Parameters?\b', t, re.M) is not None
def has_returns(t): return re.search(r'^\s*- Returns:', t, re.M) is not None
def has_example(t): return '```' in t
need_params = [s for s in operators if takes_parameters(s)]
print(f'module {module}: {len(symbols)} public symbols declared in Sources, '
      f'{len(symbols) - len(missing)} documented ({len(missing)} without a comment); '
      f'{len(blocks)} extensions of other modules\' types')
# With --pages LINKABLE_ENTITIES (the digest `docc convert --emit-digest` writes beside the
# site): every public symbol must have a page in the site built from these same symbol graphs.
# (Extension blocks are left out: DocC makes one page of all the blocks that extend a type,
# under an identifier of its own.)
without_page = []
if '--pages' in args:
    entities = json.load(open(args[args.index('--pages') + 1]))
    paged = {e.get('usr') for e in entities if e.get('usr')}
    without_page = [s for k, s in symbols.items() if k not in paged]
    print(f'pages: {len(symbols) - len(without_page)} of {len(symbols)} public symbols have a page in the site')
print(f'operators (methods on Publisher returning a publisher): {len(operators)}')
print(f'  with Parameters text: {sum(has_params(text(s)) for s in need_params)} of {len(need_params)} that take parameters')
print(f'  with Returns text: {sum(has_returns(text(s)) for s in operators)} of {len(operators)}')
print(f'  with a code example: {sum(has_example(text(s)) for s in operators)} of {len(operators)}')
lines = sorted(len([l for l in text(s).split(chr(10)) if l.strip()]) for s in operators)
if lines:
    print(f'  median comment length: {lines[len(lines) // 2]} lines')
for s in without_page:
    print('no page:', '.'.join(s['pathComponents']), s['location']['uri'].split('/Sources/')[1])
if '--list' in args:
    for s in sorted(missing, key=lambda s: s['location']['uri']):
        print('undocumented:', '.'.join(s['pathComponents']), s['location']['uri'].split('/Sources/')[1])
    for s in sorted(operators, key=lambda s: s['location']['uri']):
        t = text(s)
        gaps = [n for n, ok in (('Parameters', has_params(t) or not takes_parameters(s)), ('Returns', has_returns(t)),
                                ('example', has_example(t))) if not ok]
        if gaps:
            print('operator gaps:', '.'.join(s['pathComponents']), ','.join(gaps), s['location']['uri'].split('/Sources/')[1])
def complete(s):
    t = text(s)
    return (has_params(t) or not takes_parameters(s)) and has_returns(t) and has_example(t)
if '--fail-on-missing' in args and (missing or without_page or not all(complete(s) for s in operators)):
    sys.exit(1)
