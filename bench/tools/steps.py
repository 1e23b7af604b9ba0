#!/usr/bin/env python3
"""Print the step records of a VSGPU trace (VSGPU_PROFILE with
VSGPU_PROFILE_STEPS=YES), slowest first, with numbered steps named.

The refine, coverage-union (and validity-screen) and overlap-union stages run their steps
through one launcher each and number them by an enum
(elements/overlay/refine_steps.h, elements/union/coverage_steps.h,
elements/union/arrange.h); the trace names such a step
"<stage>: <launcher> <number>", and this tool reads the enums to print
the step's name beside it.

    python3 bench/tools/steps.py trace.json [--top N]
"""
import argparse
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ENUMS = {
    "overlay_refine": "algorithms/elements/overlay/refine_steps.h",
    "coverage_union": "algorithms/elements/union/coverage_steps.h",
    "valid_screen": "algorithms/elements/union/coverage_steps.h",   # the same steps
    "arrange": "algorithms/elements/union/arrange.h",
}


def enum_names(path):
    """The names of the first anonymous enum of a header, by value."""
    text = open(os.path.join(ROOT, path)).read()
    m = re.search(r"\benum\s*\{(.*?)\}", text, re.S)
    names, v = {}, 0
    if not m:
        return names
    body = re.sub(r"/\*.*?\*/", "", m.group(1), flags=re.S)
    for item in body.split(","):
        item = item.strip()
        if not item:
            continue
        if "=" in item:
            name, val = (t.strip() for t in item.split("=", 1))
            try:
                v = int(val, 0)
            except ValueError:
                v = names_rev(names).get(val, v)
        else:
            name = item
        names[v] = name
        v += 1
    return names


def names_rev(names):
    return {n: k for k, n in names.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("trace")
    ap.add_argument("--top", type=int, default=40)
    a = ap.parse_args()
    t = json.load(open(a.trace))
    steps = t.get("steps", [])
    if not steps:
        sys.exit("no steps in %s: run with VSGPU_PROFILE_STEPS=YES" % a.trace)
    tables = {k: enum_names(p) for k, p in ENUMS.items()}
    total = sum(s["elapsed_s"] for s in steps)
    print("%d steps, %.4f s in all (stages: %.4f s)" % (len(steps), total, t.get("total_s", 0)))
    for s in sorted(steps, key=lambda s: -s["elapsed_s"])[: a.top]:
        name = s["step"]
        m = re.match(r"(.*): (\w+) (\d+)$", name)
        if m and m.group(2) in tables:
            name += "  (" + tables[m.group(2)].get(int(m.group(3)), "?") + ")"
        print("%9.4f %5.1f%% %7d  %s" % (s["elapsed_s"], 100 * s["elapsed_s"] / total if total else 0,
                                          s["calls"], name))


if __name__ == "__main__":
    main()
