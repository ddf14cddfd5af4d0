# SPDX-License-Identifier: Apache-2.0
"""The operator pages of a module, read from its sources: shared by scripts/check-marble-pages.py
and scripts/generate-specialised-diagrams.py.

An operator page is a public method declared in an extension of a publisher type (`Publisher`,
`ConnectablePublisher`, `Publishers.*`, `Just`, `Optional.Publisher`, `Result.Publisher`, a
`Collection` of publishers, `AnyPublisher`), named by its name and argument labels, such as
`prefix(while:)`.
"""
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PUBLISHER_TYPE = re.compile(r"^extension\s+(Publisher|ConnectablePublisher|Publishers(\.\w+)?|Just|Optional\.Publisher|"
                            r"Result\.Publisher|Collection|AnyPublisher)\b")


def labels(source, start):
    """The argument labels of the parameter list that opens at `start`."""
    depth, index, parts, current = 1, start, [], ""
    while depth:
        character = source[index]
        if character in "([<":
            depth += 1
        elif character in ")]>" and source[index - 1] != "-":
            depth -= 1
        if depth == 1 and character == ",":
            parts.append(current)
            current = ""
        elif depth >= 1:
            current += character
        index += 1
    parts.append(current)
    return "".join(re.match(r"\s*(\w+)", part).group(1) + ":" for part in parts if part.strip())


def pages(module):
    """(file, line, page, diagram name or None) for every operator page of `module`."""
    found = []
    for folder, _, files in sorted(os.walk(os.path.join(ROOT, "Sources", module))):
        for name in sorted(files):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(folder, name)
            source = open(path).read()
            lines = source.split("\n")
            extension = None
            offset = 0
            for number, line in enumerate(lines):
                if line.startswith("extension"):
                    extension = PUBLISHER_TYPE.match(line)
                match = re.match(r"^    (?:@[\w()]+\s+)*public\s+(?:static\s+)?func\s+`?(\w+)`?\s*(<[^(]*>)?\s*\(", line)
                if extension and match:
                    page = f"{match.group(1)}({labels(source, offset + match.end())})"
                    comment = []
                    above = number - 1
                    while above >= 0 and lines[above].strip().startswith(("///", "@")):
                        comment.append(lines[above])
                        above -= 1
                    diagram = re.search(r"\]\(marble-([\w-]+)\)", "\n".join(comment))
                    found.append((path, number + 1, page, diagram.group(1) if diagram else None))
                offset += len(line) + 1
    return found
