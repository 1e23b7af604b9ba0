#!/usr/bin/python3
"""VSGPU CPU-engine benchmark: VSGPU (1 thread and ALL_CPUS) against GDAL's
OGRLayer.Intersection/Clip, GDAL's SQLite dialect and ogr2ogr -clipsrc, on
the same workloads, in one run, on one machine.

    /usr/bin/python3 bench/cpu_bench.py [--quick] [--repeat 3] [--data DIR]

Run it with the system python (python3-gdal). See bench/README.md.
"""
import argparse
import datetime
import json
import os
import platform
import shlex
import socket
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def _default_plugin_dir():
    for d in ("build-bench", "build"):
        p = os.path.join(REPO, d, "gdalplugins")
        if os.path.exists(os.path.join(p, "ogr_VSGPU.so")):
            return p
    return os.path.join(REPO, "build", "gdalplugins")


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true",
                    help="small subsets, 1 timed repeat: a smoke check (< 1 min)")
    ap.add_argument("--repeat", type=int, default=None,
                    help="timed repeats per engine, best is reported (default 3; 1 with --quick)")
    ap.add_argument("--sqlite-dissolve-repeat", type=int, default=1,
                    help="timed repeats of the SQLite ST_Union dissolve (default 1)")
    ap.add_argument("--no-warmup", action="store_true",
                    help="skip the untimed warm-up run of each engine")
    ap.add_argument("--data", default=None,
                    help="folder with the .gpkg files (default: data/ of the repo)")
    ap.add_argument("--plugin-dir", default=None,
                    help="folder holding ogr_VSGPU.so (default: build-bench/gdalplugins "
                         "or build/gdalplugins of the repo)")
    ap.add_argument("--out", default=None,
                    help="results folder (default bench/results/<date>-<host>)")
    ap.add_argument("--only", default=None,
                    help="comma-separated workload names to run")
    ap.add_argument("--area-rtol", type=float, default=1e-6,
                    help="relative total-area difference flagged as a mismatch")
    ap.add_argument("--require-vsgpu", action="store_true",
                    help="fail when the VSGPU plugin does not load (default: skip its rows)")
    a = ap.parse_args(argv)
    if a.repeat is None:
        a.repeat = 1 if a.quick else 3
    return a


ARGS = parse_args(sys.argv[1:])
PLUGIN_DIR = os.path.abspath(ARGS.plugin_dir or _default_plugin_dir())
# GDAL registers its drivers (plugins included) when osgeo is imported
os.environ["GDAL_DRIVER_PATH"] = PLUGIN_DIR
sys.path.insert(0, HERE)

from osgeo import gdal, ogr  # noqa: E402

import _engines as E  # noqa: E402
import _report  # noqa: E402
import _workloads  # noqa: E402
from _stats import summarize_layer  # noqa: E402

gdal.UseExceptions()


class Capture:
    """Collects GDAL errors/warnings (error handler) and what GEOS or
    SpatiaLite write straight to stderr (fd 2) during one engine call."""

    def __enter__(self):
        self.msgs = []
        gdal.PushErrorHandler(self._handler)
        sys.stderr.flush()
        self._tmp = tempfile.TemporaryFile(mode="w+b")
        self._saved = os.dup(2)
        os.dup2(self._tmp.fileno(), 2)
        return self

    def _handler(self, cls, num, msg):
        self.msgs.append(("warning" if cls == gdal.CE_Warning else
                          "failure" if cls >= gdal.CE_Failure else "debug", msg))

    def __exit__(self, *exc):
        sys.stderr.flush()
        os.dup2(self._saved, 2)
        os.close(self._saved)
        gdal.PopErrorHandler()
        self._tmp.seek(0)
        self.stderr = [l for l in self._tmp.read().decode("utf-8", "replace").splitlines()
                       if l.strip()]
        self._tmp.close()
        return False

    def summary(self):
        fail = [m for c, m in self.msgs if c == "failure"]
        warn = [m for c, m in self.msgs if c == "warning"]
        return {"gdal_failures": len(fail), "gdal_warnings": len(warn),
                "messages_head": (fail + warn)[:3],
                "stderr_lines": len(self.stderr), "stderr_head": self.stderr[:3]}


def engines_for(w, vsgpu_ok):
    """(id, label, kind, callable, is_reference, is_time_reference) per engine
    for a workload. The reference is what outputs are checked against; the
    time reference of the same kind (in process / ogr2ogr process) is what
    × vs ref divides."""
    op = w["op"]
    ncpu = os.cpu_count()
    lst = []
    if vsgpu_ok:
        lst.append(("vsgpu_1", "VSGPU CPU, 1 thread", "inproc",
                    lambda: E.run_vsgpu(w, 1), False))
        lst.append(("vsgpu_all", "VSGPU CPU, ALL_CPUS (%d)" % ncpu, "inproc",
                    lambda: E.run_vsgpu(w, "ALL_CPUS"), False))
    if op == "intersection":
        lst.append(("ogr_layer", "OGRLayer.Intersection", "inproc",
                    lambda: E.run_ogr_layer(w), True))
        lst.append(("sqlite", "SQLite ST_Intersection join (R-tree)", "inproc",
                    lambda: E.run_sqlite(w), False))
    elif op == "clip":
        lst.append(("ogr_layer", "OGRLayer.Clip", "inproc",
                    lambda: E.run_ogr_layer(w), True))
    elif op == "dissolve":
        lst.append(("sqlite", "SQLite ST_Union GROUP BY", "inproc",
                    lambda: E.run_sqlite(w), True))
    elif op == "rectclip":
        lst.append(("ogr_layer_rect", "OGRLayer.Clip by a rectangle layer", "inproc",
                    lambda: E.run_ogr_rect_clip(w), False, True))
        if vsgpu_ok:
            lst.append(("ogr2ogr_vsgpu", "ogr2ogr VSGPU ST_ClipByRect (ALL_CPUS)", "subproc",
                        lambda: E.run_ogr2ogr_vsgpu(w, PLUGIN_DIR), False))
        lst.append(("ogr2ogr_clipsrc", "ogr2ogr -clipsrc", "subproc",
                    lambda: E.run_ogr2ogr_clipsrc(w), True))
    return [e if len(e) == 6 else e + (e[4],) for e in lst]


def _stats_key(st):
    return (st.features, st.null, st.empty, st.non_areal, st.areal, round(st.area, 9))


def run_engine(w, eid, label, kind, fn, repeats, warmup):
    """Warm up once, then time `repeats` runs; returns the result row."""
    row = {"workload": w["name"], "engine": eid, "label": label, "times_s": [],
           "error": None}
    runs = ([False] if warmup else []) + [True] * repeats
    keys = set()
    st = extra = cap = None
    for timed in runs:
        try:
            with Capture() as cap:
                t0 = time.perf_counter()
                res = fn()
                if kind == "subproc":
                    dt = time.perf_counter() - t0
                    st, extra = E.summarize_ogr2ogr(res, w)
                else:
                    st, extra = res
                    dt = time.perf_counter() - t0
        except Exception as e:  # keep going: one broken engine is a row
            row["error"] = "%s: %s" % (type(e).__name__, str(e)[:500])
            if cap is not None and getattr(cap, "msgs", None):
                row["error"] += " | " + "; ".join(m for _, m in cap.msgs[:2])
            break
        keys.add(_stats_key(st))
        if timed:
            row["times_s"].append(dt)
    if st is not None and not row["error"]:
        row.update(st.as_dict())
        row["extra"] = extra
        row["diagnostics"] = cap.summary()
        row["deterministic"] = len(keys) == 1
    if row["times_s"]:
        row["best_s"] = min(row["times_s"])
        row["median_s"] = statistics.median(row["times_s"])
        row["vertices_per_s"] = w["vertices"] / row["best_s"] if row["best_s"] > 0 else None
    return row


def ogr_strict_probe(w):
    """OGRLayer.Intersection/Clip without SKIP_FAILURES: does GDAL stop?"""
    with Capture() as cap:
        try:
            st, extra = E.run_ogr_layer(w, strict=True)
            rc = extra["ogr_rc"]
            n = st.features
        except Exception as e:
            rc, n = "exception", None
            cap.msgs.append(("failure", str(e)))
    fail = [m for c, m in cap.msgs if c == "failure"]
    return {"rc": rc, "features_before_stop": n if rc else None,
            "first_error": fail[0] if fail else None}


def prefilter_check(w):
    """Pair count of the R-tree pre-filtered join vs the plain join on a
    small part of the input (they must be equal)."""
    res = {"where": w["prefilter_check"]}
    for pf in (True, False):
        sql = E.sqlite_join_sql(w, prefilter=pf, count_only=True, where=w["prefilter_check"])
        with Capture():
            t0 = time.perf_counter()
            n = E.sqlite_scalar(w["path"], sql)
            dt = time.perf_counter() - t0
        res["prefilter" if pf else "plain"] = {"pairs": n, "s": dt, "sql": sql}
    res["equal"] = res["prefilter"]["pairs"] == res["plain"]["pairs"]
    return res


def oracle_row(w):
    """Untimed expected answer: a layer of the file (dissolve), or GDAL on
    inputs repaired as VSGPU's INVALID=REPAIR does (overlays)."""
    o = w.get("oracle")
    row = {"workload": w["name"], "engine": "oracle", "times_s": [], "error": None}
    with Capture() as cap:
        try:
            if o:
                ds = gdal.OpenEx(w["path"], gdal.OF_VECTOR)
                lyr = ds.GetLayerByName(o["layer"])
                if o.get("where"):
                    lyr.SetAttributeFilter(o["where"])
                st = summarize_layer(lyr)
                ds = None
                row["label"] = "oracle: layer '%s'%s" % (
                    o["layer"], " where " + o["where"] if o.get("where") else "")
                if o.get("as_one"):
                    # The layer is a coverage of the expected single feature
                    # (the states of the nation): one feature, its area.
                    st.features = st.areal = 1
                    row["label"] += ", as one feature"
            elif w["op"] in ("intersection", "clip", "rectclip"):
                st, extra = E.run_repaired_oracle(w)
                row["extra"] = extra
                row["label"] = "oracle: OGRLayer.%s on MakeValid(STRUCTURE)-repaired input" % (
                    "Intersection" if w["op"] == "intersection" else "Clip")
            else:
                return None
        except Exception as e:
            row["label"] = "oracle"
            row["error"] = "%s: %s" % (type(e).__name__, str(e)[:300])
            return row
    row.update(st.as_dict())
    row["diagnostics"] = cap.summary()
    return row


def check_rows(w, rows, rtol):
    """Compare each row's output to the reference row and to the oracle."""
    ref = next((r for r in rows if r.get("is_reference") and not r["error"]), None)
    ora = next((r for r in rows if r["engine"] == "oracle" and not r["error"]), None)
    tref = {r["kind"]: r for r in rows
            if r.get("is_time_reference") and not r["error"] and r.get("best_s")}

    def diff(r, base):
        issues = []
        if r["areal"] != base["areal"]:
            issues.append("count %d vs %d" % (r["areal"], base["areal"]))
        den = abs(base["area"]) or 1.0
        rel = (r["area"] - base["area"]) / den
        if abs(rel) > rtol:
            issues.append("area %+.3g" % rel)
        return rel, issues

    for r in rows:
        r["issues"] = []
        if r["error"]:
            r["check"] = "ERROR"
            continue
        if r["engine"] == "oracle":
            d = r.get("diagnostics") or {}
            r["check"] = "oracle" + (" (%d GEOS failures skipped)" % d["gdal_failures"]
                                     if d.get("gdal_failures") else "")
            continue
        hard = []
        if r["null"]:
            hard.append("%d NULL geometr%s" % (r["null"], "y" if r["null"] == 1 else "ies"))
        if r.get("deterministic") is False:
            hard.append("output differs between repeats")
        vs_ref = vs_ora = None
        if ref is not None and r is not ref:
            r["area_rel_vs_ref"], vs_ref = diff(r, ref)
        t = tref.get(r.get("kind"))
        if t is not None and t is not r and r.get("best_s"):
            r["speedup_vs_ref"] = t["best_s"] / r["best_s"]
            r["time_reference"] = t["engine"]
        if ora is not None:
            r["area_rel_vs_oracle"], vs_ora = diff(r, ora)
        r["matches_ref"] = None if vs_ref is None else not vs_ref
        r["matches_oracle"] = None if vs_ora is None else not vs_ora
        parts = []
        if r is ref:
            parts.append("reference")
        if vs_ref:
            parts.append("≠ ref (%s)" % ", ".join(vs_ref))
        elif vs_ref is not None:
            parts.append("= ref")
        if vs_ora:
            parts.append("≠ oracle (%s)" % ", ".join(vs_ora))
        elif vs_ora is not None:
            parts.append("= oracle")
        bad = hard or vs_ora or (vs_ora is None and vs_ref)
        r["issues"] = hard + ["ref: " + x for x in (vs_ref or [])] + \
            ["oracle: " + x for x in (vs_ora or [])]
        r["check"] = ("**MISMATCH**: " if bad else "ok: ") + "; ".join(hard + parts)


def machine_info(data_dirs):
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = None
    try:
        with open("/proc/meminfo") as f:
            mem = int(f.readline().split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        spatialite = E.sqlite_scalar(
            _workloads.find_file(data_dirs, _workloads.COUNTIES),
            "SELECT spatialite_version() || ' (GEOS ' || geos_version() || ')'")
    except Exception as e:
        spatialite = "unavailable: %s" % e
    git = {}
    try:
        git["commit"] = subprocess.run(["git", "-C", REPO, "rev-parse", "HEAD"],
                                       capture_output=True, text=True).stdout.strip()
        git["dirty"] = bool(subprocess.run(["git", "-C", REPO, "status", "--porcelain",
                                            "--untracked-files=no"],
                                           capture_output=True, text=True).stdout.strip())
    except OSError:
        pass
    return {
        "host": socket.gethostname(),
        "cpu_model": cpu,
        "cpu_count": os.cpu_count(),
        "cpus_usable": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None,
        "mem_total_bytes": mem,
        "os": platform.platform(),
        "python": platform.python_version(),
        "gdal": gdal.VersionInfo("RELEASE_NAME"),
        "geos": "%d.%d.%d" % (ogr.GetGEOSVersionMajor(), ogr.GetGEOSVersionMinor(),
                              ogr.GetGEOSVersionMicro()),
        "spatialite": spatialite,
        "vsgpu_git": git,
        "loadavg_start": os.getloadavg(),
    }


def main():
    started = datetime.datetime.now(datetime.timezone.utc)
    data_dirs = ([os.path.abspath(ARGS.data)] if ARGS.data
                 else _workloads.default_data_dirs(REPO))
    command = " ".join(shlex.quote(c) for c in [sys.executable] + sys.argv)
    vsgpu_ok = gdal.GetDriverByName("VSGPU") is not None
    if not vsgpu_ok and ARGS.require_vsgpu:
        sys.exit("VSGPU driver not loaded from %s" % PLUGIN_DIR)
    if not vsgpu_ok:
        print("note: VSGPU driver not loaded from %s: its rows are skipped" % PLUGIN_DIR)
    info = machine_info(data_dirs)
    host = info["host"].split(".")[0]
    out_dir = ARGS.out or os.path.join(HERE, "results", "%s-%s" % (started.strftime("%Y-%m-%d"), host))
    os.makedirs(out_dir, exist_ok=True)
    stem = "cpu_bench-quick" if ARGS.quick else "cpu_bench"

    only = set(ARGS.only.split(",")) if ARGS.only else None
    results, notes = [], {}
    with tempfile.TemporaryDirectory(prefix="vsgpu-bench-data-") as work:
        wls = _workloads.prepare(_workloads.definitions(), data_dirs, work, ARGS.quick, only)
        for w in wls:
            print("== %s (%s, %s: %d + %d features, %d vertices)" % (
                w["name"], w["op"], w["source"], w["input_features"], w["method_features"],
                w["vertices"]), flush=True)
            rows = []
            wnotes = notes.setdefault(w["name"], {})
            if w["op"] in ("intersection", "clip"):
                wnotes["ogr_without_skip_failures"] = ogr_strict_probe(w)
            if w["op"] == "intersection" and w.get("prefilter_check"):
                wnotes["sqlite_prefilter_check"] = prefilter_check(w)
            for eid, label, kind, fn, is_ref, is_tref in engines_for(w, vsgpu_ok):
                reps = ARGS.repeat
                if eid == "sqlite" and w["op"] == "dissolve":
                    reps = min(reps, ARGS.sqlite_dissolve_repeat)
                row = run_engine(w, eid, label, kind, fn, reps, not ARGS.no_warmup)
                row["is_reference"] = is_ref
                row["is_time_reference"] = is_tref
                row["kind"] = kind
                row["vertices"] = w["vertices"]
                rows.append(row)
                print("   %-42s %s" % (label, _report.short(row)), flush=True)
            o = oracle_row(w)
            if o is not None:
                rows.append(o)
            check_rows(w, rows, ARGS.area_rtol)
            results += rows
    info["loadavg_end"] = os.getloadavg()
    doc = {
        "benchmark": "VSGPU CPU engine vs GDAL (bench/cpu_bench.py)",
        "date_utc": started.isoformat(timespec="seconds"),
        "duration_s": (datetime.datetime.now(datetime.timezone.utc) - started).total_seconds(),
        "command": command,
        "cwd": os.getcwd(),
        "mode": "quick" if ARGS.quick else "full",
        "repeat": ARGS.repeat,
        "sqlite_dissolve_repeat": ARGS.sqlite_dissolve_repeat,
        "warmup": not ARGS.no_warmup,
        "area_rtol": ARGS.area_rtol,
        "data_dirs": data_dirs,
        "plugin_dir": PLUGIN_DIR,
        "vsgpu_loaded": vsgpu_ok,
        "machine": info,
        "workloads": [{k: v for k, v in w.items() if k not in ("input_fields", "method_fields")}
                      for w in wls],
        "notes": notes,
        "results": results,
    }
    md = _report.markdown(doc)
    with open(os.path.join(out_dir, stem + ".json"), "w") as f:
        json.dump(doc, f, indent=1, default=str)
    with open(os.path.join(out_dir, stem + ".md"), "w") as f:
        f.write(md)
    print()
    print(md)
    print("written: %s/%s.{json,md}" % (out_dir, stem))


if __name__ == "__main__":
    main()
