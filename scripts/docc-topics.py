#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the topic groups of the Combine documentation from the source layout.

Usage: docc-topics.py SYMBOL_GRAPH_DIR LINKABLE_ENTITIES_JSON CATALOG_DIR

The operators of `Publisher` are grouped by the family folder their source file is in
(`Sources/Combine/Operators/<Family>/`), the types by their folder, so that the documentation's
groups follow the tree: adding an operator file to a family puts it in that group. It rewrites
the generated part of `<CATALOG>/Combine.md` (after the "<!-- topics -->" marker) and
`<CATALOG>/Publisher.md`. `docc convert --emit-digest` writes the linkable entities.
"""
import glob, json, os, re, sys

graphs, entities_path, catalog = sys.argv[1:4]
location = {}
for path in glob.glob(os.path.join(graphs, 'Combine*.symbols.json')):
    for s in json.load(open(path))['symbols']:
        uri = s.get('location', {}).get('uri', '')
        if '/Sources/Combine/' in uri and s.get('accessLevel') == 'public':
            location[s['identifier']['precise']] = uri.split('/Sources/Combine/')[1]

FAMILIES = [
    ('Mapping', 'Mapping elements'), ('Filtering', 'Filtering elements'),
    ('Reducing', 'Reducing, matching and counting elements'), ('Sequence', 'Applying sequence operations'),
    ('Combining', 'Combining publishers'), ('Flattening', 'Flattening nested publishers'),
    ('ErrorHandling', 'Handling errors'), ('Time', 'Controlling timing'),
    ('Scheduling', 'Scheduling and buffering'), ('Multicasting', 'Multicasting and connecting'),
    ('Debugging', 'Debugging'), ('Coding', 'Encoding and decoding'),
]
AREAS = [
    ('Core/', 'Publishers and subscribers', None), ('Publishers/', 'Convenience publishers', None),
    ('Subjects/', 'Subjects', None), ('Subscribers/', 'Subscribers', None),
    ('Schedulers/', 'Schedulers', None), ('Foundation/', 'Foundation integration', None),
    ('Observation/', 'Observable objects', None), ('Concurrency/', 'Swift concurrency', None),
]

entities = json.load(open(entities_path))
def link(e):
    return e['referenceURL'].split('/documentation/Combine/')[1]

types, methods = {}, {}
for e in entities:
    if not e['referenceURL'].startswith('doc://') or '/documentation/Combine/' not in e['referenceURL']:
        continue
    where = location.get(e.get('usr', ''))
    if not where:
        continue
    rel = link(e)
    depth = rel.count('/')
    kind = e['kind']
    if kind.endswith(('.class', '.structure', '.enumeration', '.protocol', '.typealias')) and (
            depth == 0 or (depth == 1 and rel.startswith(('Publishers/', 'Subscribers/', 'Subscriptions/')))):
        types.setdefault(where.split('/')[0] + '/' + (where.split('/')[1] + '/' if where.startswith('Operators/') else ''), []).append(rel)
    if kind.endswith('.instanceMethod') and rel.startswith(('Publisher/', 'ConnectablePublisher/')) and depth == 1:
        methods.setdefault(where, []).append(rel)

def block(title, links):
    return '### ' + title + '\n\n' + '\n'.join('- ``' + l + '``' for l in sorted(set(links), key=str.lower)) + '\n'

landing = os.path.join(catalog, 'Combine.md')
text = open(landing).read()
head = text.split('<!-- topics -->')[0] + '<!-- topics -->\n'
out = []
for prefix, title, _ in AREAS:
    links = [l for k, v in types.items() if k.startswith(prefix) for l in v]
    if links:
        out.append(block(title, links))
for folder, title in FAMILIES:
    links = types.get('Operators/' + folder + '/', [])
    if links:
        out.append(block('Operator types: ' + title.lower(), links))
open(landing, 'w').write(head + '\n' + '\n'.join(out))

page = ['# ``Combine/Publisher``', '',
        'The operators, grouped by what they do. Each returns a publisher type of its own, listed',
        'under the same group on the framework\'s page.', '', '## Topics', '']
for folder, title in FAMILIES:
    links = [l for where, v in methods.items() if where.startswith('Operators/' + folder + '/') for l in v]
    if links:
        page.append(block(title, links))
rest = [l for where, v in methods.items() if not where.startswith('Operators/') for l in v]
if rest:
    page.append(block('Subscribing and type erasure', rest))
open(os.path.join(catalog, 'Publisher.md'), 'w').write('\n'.join(page))
