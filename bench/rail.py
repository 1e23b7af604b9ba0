#!/usr/bin/env python3
"""The benchmark rail: VSGPU's engines (CPU at 1 thread and at all threads,
GPU when it can run) against GDAL's OGRLayer::Intersection/Clip, its SQLite
dialect and ogr2ogr -clipsrc, on generated workloads at several scales, on
one machine, in one run; every answer measured and compared with the
reference (VSGPU CPU, 1 thread) while it is timed. A plain ogr2ogr copy of
each workload's inputs (engine "copy") is the I/O floor every row's time is
also given as a multiple of.

    python3 bench/rail.py --build build --scale smoke,small
    python3 bench/rail.py --manifest DIR/manifest.json --plugin-dir P --tools-dir T

Writes rail.json (everything), rail.md (the tables) and plots/*.png (when
matplotlib imports) under --out. Needs no GDAL Python bindings: the engines
and the measuring tool are child processes. docs/benchmarks.md explains the
table and the plots.
"""
import argparse
import datetime
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from rail import engines, gpkg, machine, manifest, measure, report, runner, trace  # noqa: E402

REPO_ROOT = manifest.REPO_ROOT
# "real" is the scale-free group of workloads on the files in data/;
# "tiled" tiles layers of data/ up to --tiled-vertices (10 M by default).
SCALES = ("smoke", "real", "small", "medium", "large", "tiled")
DEFAULT_REPEATS = {"smoke": 3, "real": 3, "small": 3, "medium": 3, "large": 1,
                   "tiled": 1}


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    src = ap.add_argument_group("workloads")
    src.add_argument("--scale", default="",
                     help="comma list of %s: generate (or reuse) workloads under "
                          "--data-dir/<scale>" % ",".join(SCALES))
    src.add_argument("--manifest", action="append", default=[],
                     help="a workloads manifest.json (repeatable); its scale is its own")
    src.add_argument("--data-dir", default=os.path.join(tempfile.gettempdir(), "vsgpu-rail-workloads"),
                     help="where --scale workloads are generated (default %(default)s)")
    src.add_argument("--seed", type=int, default=42, help="generator seed (default 42)")
    src.add_argument("--regenerate", action="store_true",
                     help="generate even when DIR/<scale>/manifest.json exists")
    src.add_argument("--workloads", default="", help="comma list of workload names (default all)")
    src.add_argument("--tiled-vertices", type=int, default=None,
                     help="scale tiled: input + method vertices per workload (default "
                          "$VSGPU_TILED_VERTICES, else 10000000); a reused manifest made "
                          "for another target is regenerated")
    eng = ap.add_argument_group("engines")
    eng.add_argument("--engines", default="",
                     help="comma list of %s (default all); KEY@OP[+OP...] runs KEY only on "
                          "those operations (vsgpu-cpu-1@dissolve)" % ",".join(
                              e.key for e in engines.ENGINES))
    eng.add_argument("--reference", default="vsgpu-cpu-1",
                     help="engine whose answer the others are compared with (default "
                          "%(default)s; vsgpu-cpu-all when it is not run)")
    eng.add_argument("--build", help="build directory: plugin in <build>/gdalplugins, "
                                     "tools in <build>/bench")
    eng.add_argument("--plugin-dir", help="folder holding ogr_VSGPU.so (GDAL_DRIVER_PATH)")
    eng.add_argument("--tools-dir", help="folder holding vsgbench_algebra and vsgbench_measure")
    run = ap.add_argument_group("timing")
    run.add_argument("--timeout", type=float, default=120.0,
                     help="seconds per engine run (default %(default)s): longer is recorded "
                          "as 'timeout > N s'")
    run.add_argument("--repeat", default="",
                     help="runs per engine: N, or per scale 'small=3,large=1' "
                          "(default: 1 at large and tiled, 3 below)")
    run.add_argument("--budget-s", type=float, default=0.0,
                     help="seconds for the whole rail, generation included; runs that "
                          "do not fit are recorded as cut or skipped (default: no limit)")
    run.add_argument("--rtol", type=float, default=1e-6,
                     help="relative area tolerance of the correctness check (default %(default)s)")
    run.add_argument("--measure-timeout", type=float, default=300.0)
    out = ap.add_argument_group("output")
    out.add_argument("--out", help="output folder (default bench/results/<date>-<host>-rail)")
    out.add_argument("--work", help="folder for engine outputs (default: a temporary one, removed)")
    out.add_argument("--keep-outputs", action="store_true", help="keep every engine's output file")
    out.add_argument("--no-plots", action="store_true")
    out.add_argument("--commit-file", help="file holding the VSGPU commit (else git rev-parse)")
    out.add_argument("--merge", nargs="+", metavar="RAIL_JSON",
                     help="run nothing: merge the rail.json of several runs on one machine "
                          "(e.g. small,medium and large) into one report and one set of plots")
    return ap.parse_args(argv)


def _csv(s):
    return [x.strip() for x in s.split(",") if x.strip()]


def repeats_for(spec):
    """{scale: repeats} from '3' or 'small=3,large=1' over the defaults."""
    reps = dict(DEFAULT_REPEATS)
    for item in _csv(spec):
        if "=" in item:
            k, v = item.split("=", 1)
            reps[k.strip()] = int(v)
        else:
            reps = {k: int(item) for k in reps}
    return reps


log = manifest.log


# --------------------------------------------------------------------------
# one engine on one workload


def run_one(ctx, eng, w, args, budget, reps, skip_reason):
    """Run, time, trace and measure one engine on one workload."""
    rec = {"scale": w["scale"], "workload": w["name"], "op": w["op"],
           "engine": eng.key, "label": eng.label_for(w["op"]), "status": None, "reason": None,
           "command": None, "env": None, "runs": [], "median_s": None, "min_s": None,
           "throughput_vps": None, "peak_rss_mib": None, "trace": None, "traces": [],
           "gpu_floor": None, "output": None, "tool_output": None,
           "check": {"status": "unchecked", "mismatches": [], "notes": [], "text": ""},
           "stderr_head": [], "stderr_tail": []}
    if skip_reason:
        rec["status"], rec["reason"] = "skipped", skip_reason
        return rec
    wdir = os.path.join(ctx["work"], w["scale"], w["name"], eng.key)
    os.makedirs(wdir, exist_ok=True)
    out = os.path.join(wdir, "out.gpkg")
    tpath = os.path.join(wdir, "trace.json") if eng.key in engines.VSGPU_KEYS else None
    try:
        argv, env_over = eng.build(ctx, w, out, tpath)
    except engines.NotApplicable as e:
        rec["status"], rec["reason"] = "n/a", str(e)
        return rec
    rec["command"] = " ".join(shlex.quote(a) for a in argv)
    vrt = [a for a in argv if a.endswith(".vrt")] if eng.floor else []
    if vrt:
        # The two-file copy reads a VRT the temporary work folder loses.
        with open(vrt[0]) as f:
            rec["copy_vrt"] = f.read()
    rec["env"] = env_over
    env = engines.child_env(env_over)

    def on_success(i, stdout):
        if tpath:
            t = trace.load(tpath)
            rec["traces"].append(trace.summarize(t) if t else None)
        if i == 0:
            if eng.key == "gdal-algebra":
                try:
                    rec["tool_output"] = json.loads(stdout.strip().splitlines()[-1])
                except (ValueError, IndexError):
                    rec["tool_output"] = {"unparsed": stdout[-500:]}
            rec["output"] = (_copy_output(w, out) if eng.floor
                             else _measure_output(ctx, w, out, args))
            if not args.keep_outputs and os.path.exists(out):
                os.unlink(out)

    log("%s %s %s" % (w["scale"], w["name"], eng.key))
    runs, _, stderr, stop = runner.run_repeats(
        argv, env, reps, args.timeout, budget, wdir, out, tpath, on_success)
    rec["runs"] = runs
    lines = [ln for ln in stderr.splitlines() if ln.strip()]
    rec["stderr_head"], rec["stderr_tail"] = lines[:5], lines[-10:]
    ok = [r["wall_s"] for r in runs if not r["timed_out"] and r["rc"] == 0]
    last = runs[-1] if runs else None
    if last is None:
        rec["status"], rec["reason"] = "skipped", "time budget spent"
    elif last["timed_out"]:
        rec["status"] = "cut" if last["cut_by_budget"] else "timeout"
        rec["reason"] = ("time budget spent after %.0f s" % last["limit_s"] if last["cut_by_budget"]
                         else "timeout > %g s" % args.timeout)
    elif last["rc"] != 0:
        why = engines.gpu_unavailable_reason(stderr) if eng.key == "vsgpu-gpu" else None
        if why:
            rec["status"], rec["reason"] = "n/a", why
        else:
            rec["status"] = "error"
            rec["reason"] = "%s: %s" % (_exit_text(last["rc"]), (lines[-1] if lines else "")[:300])
    else:
        rec["status"] = "ok"
    if ok and rec["status"] != "ok":
        rec["reason"] += " (after %d good runs)" % len(ok)
    if ok:
        rec["median_s"], rec["min_s"] = runner.median_min(ok)
        if w["vertices_total"]:
            rec["throughput_vps"] = w["vertices_total"] / rec["median_s"]
        rec["peak_rss_mib"] = max(r["maxrss_kib"] for r in runs) / 1024.0
        rec["trace"] = _median_trace(runs, rec["traces"])
        if rec["trace"] and eng.key == "vsgpu-gpu":
            rec["gpu_floor"] = trace.floor(rec["trace"], (ctx["gpus"] or [None])[0])
    if stop == "budget" and rec["status"] == "ok" and len(ok) < reps:
        rec["reason"] = "%d of %d runs: time budget" % (len(ok), reps)
    return rec


def _exit_text(rc):
    if rc < 0:
        try:
            return "killed by %s" % signal.Signals(-rc).name
        except ValueError:
            return "killed by signal %d" % -rc
    return "rc=%d" % rc


def _median_trace(runs, traces):
    """The trace of the run whose wall time is the median one."""
    good = [(r["wall_s"], t) for r, t in zip(runs, traces) if t is not None]
    if not good:
        return None
    good.sort(key=lambda x: x[0])
    return good[(len(good) - 1) // 2][1]


def _copy_output(w, out):
    """What the copy engine wrote, counted with sqlite3 (cheap: no geometry
    is read): features per layer against the workload's input counts."""
    if not os.path.exists(out):
        return {"error": "no output file"}
    try:
        counts = gpkg.feature_counts(out)
    except gpkg.sqlite3.Error as e:
        return {"error": "cannot count the copy: %s" % e}
    sides = ["input_features", "method_features"][:len(engines.copy_layers(w))]
    want = [w[k] for k in sides]
    return {"features": sum(counts.values()), "layers": counts,
            "expected_features": None if None in want else sum(want)}


def _measure_output(ctx, w, out, args):
    if not os.path.exists(out):
        return {"error": "no output file"}
    layer = measure.output_layer(out, engines.RESULT_LAYER)
    try:
        return measure.measure(ctx["tools_dir"], out, layer,
                               w["key_field"] if w["op"] == "dissolve" else None,
                               args.measure_timeout)
    except measure.MeasureError as e:
        return {"error": str(e)}


def write_outputs(result, out_dir, plots_wanted):
    """Plots (when matplotlib imports), rail.json and rail.md."""
    report.annotate(result)
    plots = []
    if plots_wanted:
        try:
            from rail import plots as plots_mod
            plots = plots_mod.write_all(result, os.path.join(out_dir, "plots"))
        except ImportError as e:
            log("no plots: %s" % e)
            result["plots_skipped"] = str(e)
    result["plots"] = [os.path.relpath(p, out_dir) for p in plots]
    with open(os.path.join(out_dir, "rail.json"), "w") as f:
        json.dump(result, f, indent=1, default=str)
    with open(os.path.join(out_dir, "rail.md"), "w") as f:
        f.write(report.markdown(result))
    return plots


def merge(paths, out_dir, plots_wanted):
    """One report from the rail.json of several runs (e.g. the two device
    commands small,medium and large): workloads and rows side by side, so
    the scaling plots span every scale. Machine and settings are the first
    run's; each run's own are kept under "merged_from"."""
    runs = []
    for p in paths:
        with open(p) as f:
            runs.append(json.load(f))
    res = dict(runs[0])
    res["workloads"] = [w for r in runs for w in r["workloads"]]
    res["runs"] = [x for r in runs for x in r["runs"]]
    res["generation"] = [g for r in runs for g in r.get("generation") or []]
    keys = []
    for r in runs:
        keys += [k for k in r["settings"]["engines"] if k not in keys]
    res["settings"] = dict(res["settings"], engines=keys)
    res["elapsed_s"] = sum(r.get("elapsed_s") or 0 for r in runs)
    res["merged_from"] = [{"path": os.path.abspath(p), "date_utc": r["date_utc"],
                           "command": r["command"], "settings": r["settings"],
                           "host": r["machine"]["host"]} for p, r in zip(paths, runs)]
    os.makedirs(out_dir, exist_ok=True)
    write_outputs(res, out_dir, plots_wanted)
    log("merged %d runs into %s" % (len(runs), out_dir))
    return 0


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.merge:
        if not args.out:
            raise SystemExit("--merge needs --out")
        return merge(args.merge, args.out, not args.no_plots)
    t_start = time.perf_counter()
    # What the budget keeps back for the plots and the report.
    budget = runner.Budget(args.budget_s, reserve_s=15.0 if args.budget_s else 0.0)
    date = datetime.datetime.now(datetime.timezone.utc)
    plugin_dir = args.plugin_dir or (os.path.join(args.build, "gdalplugins") if args.build else None)
    tools_dir = args.tools_dir or (os.path.join(args.build, "bench") if args.build else None)
    if not plugin_dir or not tools_dir:
        raise SystemExit("say where the plugin and the tools are: --build, or "
                         "--plugin-dir and --tools-dir")
    plugin_dir, tools_dir = os.path.abspath(plugin_dir), os.path.abspath(tools_dir)
    ogr2ogr = shutil.which("ogr2ogr")
    if ogr2ogr is None:
        raise SystemExit("ogr2ogr is not on PATH")
    for need in ("vsgbench_measure",):
        if not os.access(os.path.join(tools_dir, need), os.X_OK):
            raise SystemExit("%s not found in %s" % (need, tools_dir))
    if not os.path.isfile(os.path.join(plugin_dir, "ogr_VSGPU.so")):
        log("warning: no ogr_VSGPU.so in %s: the VSGPU rows will fail" % plugin_dir)

    sel_keys, only_ops = [], {}
    for item in _csv(args.engines) or [e.key for e in engines.ENGINES]:
        key, _, ops = item.partition("@")
        sel_keys.append(key)
        if ops:
            only_ops[key] = set(ops.split("+"))
            bad = only_ops[key] - set(engines.ALL_OPS)
            if bad:
                raise SystemExit("unknown operation(s) in %s: %s" % (item, ", ".join(sorted(bad))))
    unknown = [k for k in sel_keys if k not in engines.BY_KEY]
    if unknown:
        raise SystemExit("unknown engine(s): %s" % ", ".join(unknown))
    ref_key = args.reference
    if ref_key not in engines.BY_KEY or not engines.BY_KEY[ref_key].reference_ok:
        raise SystemExit("the reference must be vsgpu-cpu-1 or vsgpu-cpu-all")
    if ref_key not in sel_keys or ref_key in only_ops:
        # the reference answers every workload: not one restricted by @
        ref_key = next((k for k in ("vsgpu-cpu-1", "vsgpu-cpu-all")
                        if k in sel_keys and k not in only_ops), None)
        if ref_key is None:
            raise SystemExit("no reference engine: run vsgpu-cpu-1 or vsgpu-cpu-all")
        log("reference: %s (%s is not run)" % (ref_key, args.reference))
    # Table order: the reference, the other VSGPU engines, GDAL's, then the
    # copy floor.
    order = [ref_key] + [k for k in engines.VSGPU_KEYS if k in sel_keys and k != ref_key] + \
            [k for k in sel_keys if k not in engines.VSGPU_KEYS and k != ref_key
             and k != engines.FLOOR_KEY] + \
            [k for k in sel_keys if k == engines.FLOOR_KEY]
    reps = repeats_for(args.repeat)

    out_dir = args.out or os.path.join(
        REPO_ROOT, "bench", "results", "%s-%s-rail" % (date.strftime("%Y-%m-%d"), os.uname().nodename))
    os.makedirs(out_dir, exist_ok=True)
    work = args.work or tempfile.mkdtemp(prefix="vsgpu-rail-")
    mach = machine.describe(REPO_ROOT, args.commit_file)
    ctx = {"ogr2ogr": ogr2ogr, "plugin_dir": plugin_dir, "tools_dir": tools_dir,
           "work": work, "gpus": mach["gpus"]}

    # Untimed warm-up: loads GDAL, its drivers and the plugin once (page
    # cache), and says whether the VSGPU driver registers at all.
    fmt = subprocess.run([ogr2ogr, "--formats"], capture_output=True, text=True,
                         env=engines.child_env({"GDAL_DRIVER_PATH": plugin_dir}))
    mach["vsgpu_driver_registered"] = "VSGPU" in fmt.stdout
    if not mach["vsgpu_driver_registered"]:
        log("warning: ogr2ogr --formats does not list VSGPU: the VSGPU rows will fail")

    only = set(_csv(args.workloads))
    manifests, generation = list(args.manifest), []
    for s in _csv(args.scale):
        if s not in SCALES:
            raise SystemExit("unknown scale %s" % s)
        man, gen = manifest.generate(s, args.data_dir, args.seed, args.regenerate, budget,
                                     tiled_vertices=args.tiled_vertices)
        manifests.append(man)
        if gen:
            generation.append(gen)
    if not manifests:
        raise SystemExit("no workloads: give --scale or --manifest")
    by_scale = []
    for man in manifests:
        scale, ws = manifest.load(man, only, tools_dir)
        by_scale.append((scale, ws))
    by_scale.sort(key=lambda t: SCALES.index(t[0]) if t[0] in SCALES else -1)

    result = {
        "schema": "vsgpu-rail/1",
        "date_utc": date.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "command": [sys.executable] + sys.argv,
        "cwd": os.getcwd(),
        "machine": mach,
        "assumptions": machine.assumptions(),
        "settings": {"engines": order, "reference": ref_key, "timeout_s": args.timeout,
                     "repeats": reps, "rtol": args.rtol, "budget_s": args.budget_s,
                     "plugin_dir": plugin_dir, "tools_dir": tools_dir, "ogr2ogr": ogr2ogr},
        "generation": generation,
        "workloads": [w for _, ws in by_scale for w in ws],
        "runs": [],
    }
    json_path = os.path.join(out_dir, "rail.json")
    md_path = os.path.join(out_dir, "rail.md")

    def save():
        # After every run, so that a run killed from outside (the device
        # command's time limit) still leaves what it measured.
        result["elapsed_s"] = time.perf_counter() - t_start
        report.annotate(result)
        for path, text in ((json_path, json.dumps(result, indent=1, default=str)),
                           (md_path, report.markdown(result))):
            with open(path + ".tmp", "w") as f:
                f.write(text)
            os.replace(path + ".tmp", path)

    # Two passes: the VSGPU engines (and the copy floor, after them on each
    # workload: cheap, and the page cache is as warm for it as for them) on
    # every scale, then GDAL's. When the budget runs out it cuts GDAL's
    # slowest rows, not the rows of the engine under test or its floor.
    # Within a pass, scales run small to large (an engine that timed out on
    # a workload is not run on it again at a larger scale) and workload by
    # workload, so that a cut leaves whole rows behind it.
    first = engines.VSGPU_KEYS + (engines.FLOOR_KEY,)
    passes = [[k for k in order if k in first],
              [k for k in order if k not in first]]
    timed_out_at = {}          # (engine, workload) -> scale where it timed out
    try:
        for keys in passes:
            for scale, ws in by_scale:
                for w in ws:
                    for key in keys:
                        eng = engines.BY_KEY[key]
                        if not eng.runs(w["op"]) or w["op"] not in only_ops.get(key, (w["op"],)):
                            continue
                        skip = None
                        if (key, w["name"]) in timed_out_at:
                            skip = "timed out at scale %s" % timed_out_at[(key, w["name"])]
                        rec = run_one(ctx, eng, w, args, budget, reps.get(scale, 3), skip)
                        if rec["status"] == "timeout":
                            timed_out_at[(key, w["name"])] = scale
                        result["runs"].append(rec)
                        save()
    finally:
        if not args.work and not args.keep_outputs:
            shutil.rmtree(work, ignore_errors=True)
    # Rows in table order (scale, workload, engine), then the check.
    rank = {k: i for i, k in enumerate(order)}
    wrank = {(w["scale"], w["name"]): i for i, w in enumerate(result["workloads"])}
    result["runs"].sort(key=lambda r: (wrank[(r["scale"], r["workload"])], rank[r["engine"]]))
    for w in result["workloads"]:
        recs = [r for r in result["runs"] if r["scale"] == w["scale"] and r["workload"] == w["name"]]
        measure.check_workload(recs, ref_key, w, args.rtol)

    result["machine"]["load_average_end"] = list(os.getloadavg())
    result["elapsed_s"] = time.perf_counter() - t_start
    plots = write_outputs(result, out_dir, not args.no_plots)
    log("wrote %s, %s (%d plots) in %.1f s" % (json_path, md_path, len(plots),
                                               time.perf_counter() - t_start))
    return 0


if __name__ == "__main__":
    sys.exit(main())
