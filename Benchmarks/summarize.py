# SPDX-License-Identifier: Apache-2.0
"""Turns package-benchmark's markdown output into one table: per scenario the median time
and mallocs per operation of each variant, and the ratios ours/OpenCombine and
ours/baseline, with their geometric means."""

import math
import re
import sys

UNITS = {"ns": 1.0, "μs": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9, "K": 1e3, "M": 1e6, "G": 1e9}


def parse(path):
    results = {}  # (scenario, variant) -> {metric: median}
    current = None
    for line in open(path, encoding="utf-8"):
        heading = re.match(r"^### (.+) \| (\w+) \| (\d+)\s*$", line)
        if heading:
            scenario, variant, operations = heading.group(1), heading.group(2), int(heading.group(3))
            current = results.setdefault((scenario, variant), {"operations": operations})
            continue
        row = re.match(r"^\|\s*([^|]+?)\s*\|\s*([^|]+?)\s*\|\s*([^|]+?)\s*\|\s*([^|]+?)\s*\|", line)
        if current is None or not row or row.group(1).startswith(("Metric", ":")):
            continue
        label, median = row.group(1), row.group(4)
        unit = re.search(r"\(([^()]+)\)\s*\*?$", label)
        scale = UNITS.get(unit.group(1), 1.0) if unit else 1.0
        try:
            value = float(median) * scale
        except ValueError:
            continue
        if label.startswith("Time"):
            current["time"] = value
        elif label.startswith("Malloc (total)"):
            current["mallocs"] = value
        elif label.startswith("Malloc (bytes"):
            current["bytes"] = value
        elif label.startswith("peak backlog"):
            current["peak"] = value
        elif label.startswith("stop ns"):
            current["time"] = value
    return results


def main(path):
    results = parse(path)
    scenarios = []
    for scenario, _ in results:
        if scenario not in scenarios:
            scenarios.append(scenario)

    def per_op(scenario, variant, key):
        entry = results.get((scenario, variant))
        if not entry or key not in entry:
            return None
        return entry[key] / entry["operations"]

    def fmt(value, digits=1):
        return "n/a" if value is None else f"{value:,.{digits}f}"

    header = ("scenario", "ours ns/op", "OpenCombine ns/op", "baseline ns/op", "ours mallocs/op",
              "OpenCombine mallocs/op", "ours/OpenCombine", "ours/baseline", "ours peak backlog")

    def peak(scenario):
        entry = results.get((scenario, "ours"))
        return "" if not entry or "peak" not in entry else fmt(entry["peak"], 0)
    rows = []
    vs_open, vs_base = [], []
    for scenario in scenarios:
        if scenario.startswith("heap bytes"):
            ours = per_op(scenario, "ours", "bytes")
            other = per_op(scenario, "OpenCombine", "bytes")
            base = per_op(scenario, "baseline", "bytes")
            ratio = ours / other if ours and other else None
            rows.append((scenario + " (bytes)", fmt(ours, 0), fmt(other, 0), fmt(base, 0),
                         fmt(per_op(scenario, "ours", "mallocs"), 2), fmt(per_op(scenario, "OpenCombine", "mallocs"), 2),
                         fmt(ratio, 2), fmt(ours / base if ours and base else None, 2), ""))
            continue
        ours = per_op(scenario, "ours", "time")
        other = per_op(scenario, "OpenCombine", "time")
        base = per_op(scenario, "baseline", "time")
        ratio_open = ours / other if ours and other else None
        ratio_base = ours / base if ours and base else None
        if ratio_open:
            vs_open.append(ratio_open)
        if ratio_base:
            vs_base.append(ratio_base)
        rows.append((scenario, fmt(ours), fmt(other), fmt(base), fmt(per_op(scenario, "ours", "mallocs"), 2),
                     fmt(per_op(scenario, "OpenCombine", "mallocs"), 2), fmt(ratio_open, 2), fmt(ratio_base, 2),
                     peak(scenario)))

    def geomean(values):
        return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None

    rows.append(("geometric mean (time)", "", "", "", "", "", fmt(geomean(vs_open), 2), fmt(geomean(vs_base), 2), ""))
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]
    print("| " + " | ".join(h.ljust(w) for h, w in zip(header, widths)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for row in rows:
        print("| " + " | ".join(str(c).ljust(w) for c, w in zip(row, widths)) + " |")


if __name__ == "__main__":
    main(sys.argv[1])
