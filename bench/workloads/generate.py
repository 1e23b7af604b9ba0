#!/usr/bin/env python3
"""Writes the benchmark workloads of one scale and their manifest.

    python3 bench/workloads/generate.py --scale {smoke,small,medium,large,real,tiled}
        --out DIR [--seed 42] [--only NAME,...] [--jobs N] [--tiled-vertices N]

Generated scales write DIR/<workload>.gpkg (GeoPackages written with sqlite3,
R-tree included) and DIR/manifest.json; "real" writes only the manifest
(its inputs are the files in data/, used in place) plus the grid one of them
needs. "tiled" writes translated copies of layers of data/, tiled k x k
until each workload has --tiled-vertices input + method vertices (default
$VSGPU_TILED_VERTICES, else 10 M; see tiled.py), one file per source and k.
Needs numpy and scipy, no GDAL: it runs on the GPU host, whose Python has no
GDAL bindings. Same seed and scale (and tiled target), same bytes.

Manifest: {"scale", "seed", "workloads": [{"name", "op", "input": {"path",
"layer"}, "method": {"path", "layer"} | null, "rect": [xmin, ymin, xmax,
ymax] | null, "group_by": field | null, "group_expr": SQL | null,
"input_features", "input_vertices", "method_features", "method_vertices",
"description"}]}. Paths are absolute. "group_expr" is set only where the
group key is an expression (the real counties -> states dissolve); the
output field that holds it is then named "group_by". The tiled scale's
manifest also has "tiled_vertices", the target it was made for, and its
workloads "group_lead": the plain columns that lead a dissolve's key
(["tile"]: each copy's groups its own; [] otherwise).
"""
import argparse
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import realdata  # noqa: E402
import synthetic  # noqa: E402
import tiled  # noqa: E402

SCALES = ("smoke", "small", "medium", "large", "real", "tiled")


def _one(args):
    """One job: [(entry, seconds)]. A job is one workload, or at the tiled
    scale one file (its workloads share it, and its time)."""
    scale, seed, out, job = args
    t0 = time.monotonic()
    if scale == "tiled":
        entries = tiled.generate_file(job, out)
    elif scale == "real":
        entries = [realdata.workload(job, out)]
    else:
        entries = [synthetic.WORKLOADS[job](scale, seed, out)]
    dt = time.monotonic() - t0
    return [(e, dt) for e in entries]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scale", required=True, choices=SCALES)
    ap.add_argument("--out", required=True, help="output folder (created)")
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--only", default="",
                    help="comma-separated workload names (default: all of the scale)")
    ap.add_argument("--jobs", type=int, default=0,
                    help="workloads (at the tiled scale: files) generated at once "
                    "(default: one per workload, at most the CPU count)")
    ap.add_argument("--tiled-vertices", type=int, default=None,
                    help="tiled scale: input + method vertices each workload reaches "
                    "at least (default $%s, else %d)"
                    % (tiled.ENV_VERTICES, tiled.DEFAULT_VERTICES))
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args(argv)

    names = {"real": realdata.NAMES, "tiled": tiled.NAMES}.get(
        a.scale, list(synthetic.WORKLOADS))
    if a.only:
        wanted = [n.strip() for n in a.only.split(",") if n.strip()]
        unknown = [n for n in wanted if n not in names]
        if unknown:
            ap.error("unknown workload(s) for scale %s: %s (known: %s)"
                     % (a.scale, ", ".join(unknown), ", ".join(names)))
        names = [n for n in names if n in wanted]
    os.makedirs(a.out, exist_ok=True)
    out = os.path.abspath(a.out)

    t0 = time.monotonic()
    extra = {}
    if a.scale == "tiled":
        target = tiled.target_vertices(a.tiled_vertices)
        extra["tiled_vertices"] = target
        jobs = [(a.scale, a.seed, out, j) for j in tiled.plan(names, target)]
    else:
        jobs = [(a.scale, a.seed, out, n) for n in names]
    workers = a.jobs or min(len(jobs), os.cpu_count() or 1)
    if workers > 1 and len(jobs) > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            results = [r for rs in pool.map(_one, jobs) for r in rs]
    else:
        results = [r for j in jobs for r in _one(j)]
    rank = {n: i for i, n in enumerate(names)}
    results.sort(key=lambda r: rank[r[0]["name"]])

    manifest = dict({"scale": a.scale, "seed": a.seed}, **extra)
    manifest["workloads"] = [e for e, _ in results]
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    if not a.quiet:
        for e, dt in results:
            print("%-32s %-12s %9d + %9d vertices  %6.2f s"
                  % (e["name"], e["op"], e["input_vertices"], e["method_vertices"], dt))
        print("scale %s, seed %d: %d workloads in %.1f s -> %s"
              % (a.scale, a.seed, len(results), time.monotonic() - t0,
                 os.path.join(out, "manifest.json")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
