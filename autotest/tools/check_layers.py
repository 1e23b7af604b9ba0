#!/usr/bin/env python3
"""The dependency rules of docs/architecture.md, checked on the sources.

Reads every #include "..." of algorithms/, cuda/ and driver/, maps each file
to its part (a folder of algorithms/, cuda, driver, or the engine's public
headers), and fails when:
  * the parts' include graph has a cycle that is not on KNOWN_CYCLES;
  * the bottom target (base/, elements/) includes anything above it;
  * cuda/ includes anything but the bottom target and itself;
  * the engine's public headers include anything but the bottom target;
  * driver/ includes anything of algorithms/ but the public headers;
  * the CPU engine (overlay/, dissolve/) includes the GPU pipeline (pipeline/,
    stages/, exec/, columnar/) beyond KNOWN_PIPELINE_USES.
The KNOWN_* lists are what the restructure (issue 10) has still to remove:
they may shrink, never grow (an entry no longer seen fails too, so the list
stays honest).
"""
import os
import re
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
PUBLIC = {"algorithms/vsgpu_engine.h", "algorithms/vsgpu_dispatch.h"}
BOTTOM = {"base", "elements"}
PIPELINE = {"pipeline", "stages", "exec", "columnar"}
CPU_ENGINE = {"overlay", "dissolve"}

# Cycles between parts still to be broken (sorted part names of one cycle).
KNOWN_CYCLES = set()
# (CPU engine part, pipeline part) includes still to be removed.
KNOWN_PIPELINE_USES = {
    # the method index keeps a columnar copy of the method layer for the
    # GPU pipeline (overlay/method_index.h)
    ("overlay", "columnar"),
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def part_of(rel):
    if rel in PUBLIC:
        return "public"
    top, _, rest = rel.partition("/")
    if top == "algorithms":
        sub = rest.split("/")
        return sub[0] if len(sub) > 1 else "engine"
    return top  # cuda, driver


def sources():
    for top in ("algorithms", "cuda", "driver"):
        for d, _, files in os.walk(os.path.join(ROOT, top)):
            for f in files:
                if f.endswith((".c", ".h", ".cu", ".cuh", ".cpp")):
                    yield os.path.relpath(os.path.join(d, f), ROOT)


def resolve(rel, inc, all_files):
    here = os.path.dirname(rel)
    for cand in (os.path.normpath(os.path.join(here, inc)), "algorithms/" + inc,
                 "cuda/" + inc, "driver/" + inc, "driver/dialect/" + inc):
        if cand in all_files:
            return cand
    return None


def main():
    files = set(sources())
    edges = {}
    problems = []
    for rel in sorted(files):
        text = open(os.path.join(ROOT, rel), errors="replace").read()
        for inc in INCLUDE.findall(text):
            target = resolve(rel, inc, files)
            if target is None:
                continue
            a, b = part_of(rel), part_of(target)
            if a == b:
                continue
            edges.setdefault(a, set()).add(b)
            where = "%s includes %s" % (rel, target)
            if a in BOTTOM and b not in BOTTOM:
                problems.append("bottom target reaches up: " + where)
            if a == "cuda" and b not in BOTTOM:
                problems.append("cuda/ beyond the bottom target: " + where)
            if a == "public" and b not in BOTTOM:
                problems.append("public header beyond the bottom target: " + where)
            if a == "driver" and rel.startswith("driver/") and b not in (
                    "public", "dialect", "driver") and not target.startswith("driver/"):
                problems.append("driver/ past the engine's public headers: " + where)
    # the CPU engine and the pipeline
    seen_uses = set()
    for a in CPU_ENGINE:
        for b in edges.get(a, ()):
            if b in PIPELINE:
                seen_uses.add((a, b))
                if (a, b) not in KNOWN_PIPELINE_USES:
                    problems.append("the CPU engine's %s/ includes the pipeline's %s/" % (a, b))
    for use in sorted(KNOWN_PIPELINE_USES - seen_uses):
        problems.append("KNOWN_PIPELINE_USES lists %s, which is gone: remove it" % (use,))
    # cycles of two or more parts (Tarjan's strongly connected components)
    index, low, stack, on, comps = {}, {}, [], set(), []

    def strong(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(tuple(sorted(comp)))

    for v in sorted(edges):
        if v not in index:
            strong(v)
    known_parts = set(p for c in KNOWN_CYCLES for p in c)
    for comp in comps:
        if not set(comp) <= known_parts or not any(set(c) <= set(comp) for c in KNOWN_CYCLES):
            problems.append("include cycle among parts: " + " <-> ".join(comp))
    in_cycles = set(p for comp in comps for p in comp)
    for c in sorted(KNOWN_CYCLES):
        if not set(c) <= in_cycles:
            problems.append("KNOWN_CYCLES lists %s, which is gone: remove it" % (c,))
    for p in problems:
        print("layers: " + p)
    print("layers: %d parts, %d dependencies, %d problems" % (
        len(set(edges) | set(b for v in edges.values() for b in v)),
        sum(len(v) for v in edges.values()), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
