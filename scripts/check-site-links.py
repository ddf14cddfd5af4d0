#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks that every page of the built DocC site links only to pages and files the site has.

    scripts/check-site-links.py [SITE]        SITE: .build/docs/site unless given

A DocC site is an app shell that draws each page from its render JSON: `data/documentation.json`
(the landing page) and `data/documentation/**/*.json`, whose `references` give the address
(`url`) of every page, image and download the page links to, and `index/index.json`, the
navigation tree (a `path` per node). This reads all of them and resolves each address that
stays inside the site:

- `/documentation/...` and `/tutorials/...` must have their render JSON (`data/<path>.json`,
  lower case, as DocC writes it), and, when the site is built for static hosting (it has a
  `documentation/` folder), their `index.html`;
- any other site address (`/images/...`, `/downloads/...`) must be a file of the site;
- every reference a page's content, topics, relationships or See Also name must be in its
  `references`.

Addresses to other sites (`https://...`) are not followed. A fragment (`#name`) is dropped
before the page is looked up. Prints the number of links checked; on any broken one, lists
each (the page that links, the address, the title it shows) and exits 1.
"""
import json
import os
import sys
from urllib.parse import unquote, urlsplit


def render_files(site):
    """The site's render JSON files, as (site address, path)."""
    data = os.path.join(site, "data")
    landing = os.path.join(data, "documentation.json")
    if os.path.isfile(landing):
        yield "/documentation", landing
    for kind in ("documentation", "tutorials"):
        root = os.path.join(data, kind)
        for folder, _, files in os.walk(root):
            for name in sorted(files):
                if name.endswith(".json"):
                    path = os.path.join(folder, name)
                    address = "/" + os.path.relpath(path, data)[: -len(".json")]
                    yield address, path


def page_exists(site, path, static):
    """Whether the site has the page at `path` (`/documentation/...`)."""
    path = path.rstrip("/").lower()
    if not os.path.isfile(os.path.join(site, "data", path.lstrip("/") + ".json")):
        return False
    return not static or os.path.isfile(os.path.join(site, path.lstrip("/"), "index.html"))


def resolves(site, url, static, base):
    """Whether a site address resolves; None when it leaves the site."""
    parts = urlsplit(url)
    if parts.scheme or parts.netloc:
        return None
    path = unquote(parts.path)
    if not path:
        return True  # a fragment of the same page
    if base and path.startswith(base + "/"):
        path = path[len(base):]
    if path.split("/")[1] in ("documentation", "tutorials"):
        return page_exists(site, path, static)
    return os.path.isfile(os.path.join(site, path.lstrip("/")))


def urls_of(reference):
    """The addresses one entry of `references` names."""
    if isinstance(reference.get("url"), str):
        yield reference["url"]
    for variant in reference.get("variants", []) or []:
        if isinstance(variant, dict) and isinstance(variant.get("url"), str):
            yield variant["url"]


def named_identifiers(node):
    """Every reference identifier a page's sections name (content, topics, See Also...)."""
    if isinstance(node, dict):
        if node.get("type") in ("reference", "image", "video", "links") and isinstance(node.get("identifier"), str):
            yield node["identifier"]
        for key, value in node.items():
            if key == "references":
                continue
            if key in ("identifiers", "items") and isinstance(value, list):
                yield from (item for item in value if isinstance(item, str))
            yield from named_identifiers(value)
    elif isinstance(node, list):
        for item in node:
            yield from named_identifiers(item)


def index_paths(node):
    if isinstance(node, dict):
        if isinstance(node.get("path"), str):
            yield node["path"], node.get("title", "")
        for value in node.values():
            yield from index_paths(value)
    elif isinstance(node, list):
        for item in node:
            yield from index_paths(item)


def main():
    arguments = sys.argv[1:]
    site = arguments[0] if arguments else os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(__file__))),
                                                         ".build", "docs", "site")
    base = "/" + os.environ.get("DOCS_HOSTING_BASE_PATH", "").strip("/") if os.environ.get("DOCS_HOSTING_BASE_PATH") else ""
    if not os.path.isdir(os.path.join(site, "data")):
        print(f"check-site-links: FAIL: {site} has no data folder (build it with scripts/docs.sh)")
        return 1
    static = os.path.isdir(os.path.join(site, "documentation"))
    broken = []  # (page, url, title)
    checked = pages = 0
    for address, path in render_files(site):
        pages += 1
        with open(path, encoding="utf-8") as file:
            node = json.load(file)
        references = node.get("references", {}) or {}
        for identifier, reference in references.items():
            for url in urls_of(reference):
                found = resolves(site, url, static, base)
                if found is None:
                    continue
                checked += 1
                if not found:
                    broken.append((address, url, reference.get("title", identifier)))
        for identifier in set(named_identifiers({k: v for k, v in node.items() if k != "references"})):
            checked += 1
            if identifier not in references:
                broken.append((address, f"(reference {identifier}, not in the page's references)", ""))
    index = os.path.join(site, "index", "index.json")
    if os.path.isfile(index):
        with open(index, encoding="utf-8") as file:
            for url, title in index_paths(json.load(file)):
                found = resolves(site, url, static, base)
                if found is None:
                    continue
                checked += 1
                if not found:
                    broken.append(("index/index.json", url, title))
    else:
        broken.append(("index/index.json", "(missing)", ""))
    if pages == 0:
        broken.append(("data/", "(no pages)", ""))
    targets = sorted({url for _, url, _ in broken})
    print(f"check-site-links: {checked} links of {pages} pages and the navigation index checked; "
          f"{len(broken)} broken, to {len(targets)} addresses")
    if broken:
        for page, url, title in sorted(broken):
            print(f"  {page} -> {url}" + (f"  ({title})" if title else ""))
        print("check-site-links: FAIL: links to pages the site does not have")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
