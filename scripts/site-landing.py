#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Gives the merged DocC site's landing page an overview.

    scripts/site-landing.py SITE LANDING_ARCHIVE

`docc merge` synthesises the landing page of a site of several archives (`SITE/data/
documentation.json`, what `/documentation/` shows) with a title and one card per module, and no
text: it has no option for an overview. LANDING_ARCHIVE is `docs/SiteLanding.docc` converted by
`docc convert` against the modules' archives (so DocC has resolved and checked its links); this
copies its abstract and its content (the overview) onto the landing page, adds the references
that content names, and titles the module cards "Modules". The module cards and everything else
on the page are left as `docc merge` wrote them.
"""
import glob
import json
import os
import sys


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    site, archive = sys.argv[1:]
    landing_path = os.path.join(site, "data", "documentation.json")
    articles = glob.glob(os.path.join(archive, "data", "documentation", "*.json"))
    if not os.path.isfile(landing_path) or len(articles) != 1:
        print(f"site-landing: FAIL: expected {landing_path} and one root page in {archive}/data/documentation "
              f"(found {len(articles)})")
        return 1
    with open(landing_path, encoding="utf-8") as file:
        landing = json.load(file)
    with open(articles[0], encoding="utf-8") as file:
        overview = json.load(file)
    if not overview.get("abstract") or not overview.get("primaryContentSections"):
        print(f"site-landing: FAIL: {articles[0]} has no abstract or no content")
        return 1
    landing["abstract"] = overview["abstract"]
    landing["primaryContentSections"] = overview["primaryContentSections"]
    references = landing.setdefault("references", {})
    own = overview.get("identifier", {}).get("url")
    for identifier, reference in overview.get("references", {}).items():
        if identifier != own:
            references.setdefault(identifier, reference)
    for section in landing.get("topicSections", []):
        section.setdefault("title", "Modules")
    with open(landing_path, "w", encoding="utf-8") as file:
        json.dump(landing, file, ensure_ascii=False)
    print(f"site-landing: the landing page has the overview of {os.path.relpath(articles[0], archive)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
