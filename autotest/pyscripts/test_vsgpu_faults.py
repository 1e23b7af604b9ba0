"""Fault injection (test builds, algorithms/core/fault.h): one real statement
per operation is first run without faults, counting the events of each
kind (VSGPU_FAULT_COUNT), then again for a sample of n with
VSGPU_FAULT=<kind>:<n>, each in its own ogr2ogr process, with one thread
(the n-th event is then always the same one).

Every run must end in one of two ways (docs/robustness.md):
  * a clear error: ogr2ogr exits with 1 (never a signal) and its error
    names the failure (the injected GPU or GEOS failure, or "out of
    memory");
  * in AUTO, for a failure of the GPU pipeline: a visible re-run on the
    CPU engine (the summary warning says "re-run on the CPU engine") and
    the output identical, byte for byte, to the CPU engine's.
A run that succeeds without a warning must give exactly the fault-free
output (an allocation whose failure only costs time, e.g. a prepared
geometry's cache); or, for a GEOS failure inside a dissolve group's
coverage attempt, which sends the group to the unary union as any failed
attempt does, the same geometries (symmetric difference 0) in another
vertex order.

Under the sanitizer run (scripts/test-sanitizers.sh) the child processes
run with leak checking on and any sanitizer report fails the test.

VSGPU_TEST_FAULT_SAMPLES=all sweeps every n (an hour on 2 cores), VSGPU_TEST_FAULT_SAMPLES=<k>
k evenly spread n of each kind; the default is a bounded sample (SAMPLE).
"""

import concurrent.futures
import itertools
import os
import pathlib
import re
import uuid

import pytest
from osgeo import gdal, ogr

import vsgpu_util as vu

DATA = pathlib.Path(__file__).resolve().parents[2] / "data"
NC = str(DATA / "nc.gpkg")
SPDATA = str(DATA / "r_spdata.gpkg")

# (dataset, statement): small real layers, each with GEOS overlays to fail
# (sids has the geometries of nc: the intersection's refine overlays them;
# a clip of nc by sids would be settled by containment alone, so the clip
# takes the two NY8 layers, which differ by their digitising).
STATEMENTS = {
    "intersection": (NC, "SELECT * FROM ST_Intersection(nc, '%s'.sids, "
                         "'CRS_MISMATCH=IGNORE')" % SPDATA),
    "clip": (SPDATA, "SELECT * FROM ST_Clip(NY8_utm18, NY8_bna_utm18, 'CRS_MISMATCH=IGNORE')"),
    "clip_by_rect": (NC, "SELECT * FROM ST_ClipByRect(nc, -80, 35, -77, 36.5)"),
    "dissolve": (NC, "SELECT substr(FIPS, 1, 4) AS k, ST_Union(geom) AS geom FROM nc GROUP BY 1"),
    # five counties against themselves: every host allocation, the
    # prepared-geometry cache's included (its failure must not change what
    # the containment tests answer)
    "intersection_small": (NC, "SELECT * FROM ST_Intersection(nc, '%s'.sids, "
                               "'CRS_MISMATCH=IGNORE') WHERE nc.CNTY_ID < 1835 AND "
                               "sids.CNTY_ID < 1835" % SPDATA),
    # two groups of more than one chunk with repaired members: GEOS's
    # coverage phase (probes, whole-group attempts, repaired-members union),
    # so run with VSGPU_COVERAGE_UNION=NO (GEOS_ONLY below)
    "dissolve_coverage": (SPDATA, "SELECT substr(AREANAME, 1, 4) AS k, ST_Union(geom) AS geom "
                                  "FROM NY8_utm18 WHERE AREANAME LIKE 'NA%' OR "
                                  "AREANAME LIKE 'Syra%' GROUP BY 1"),
}
# The GPU pipeline's exact refine of intersection and clip (the default)
# leaves GEOS nothing to do on these statements: "intersection" and "clip"
# run with VSGPU_GPU_REFINE=NO to sweep GEOS's refine paths, and these two
# sweep the refine's own allocations and launches.
GPU_REFINE_ON = {"intersection_gpu_refine", "clip_gpu_refine"}
STATEMENTS["intersection_gpu_refine"] = STATEMENTS["intersection"]
STATEMENTS["clip_gpu_refine"] = STATEMENTS["clip"]
# Several input batches (BATCH_SIZE=10): batch k+1 is read and computed on
# the read-ahead thread while batch k is written, so a failure there must
# still be the statement's clear error or its visible re-run, with no batch
# lost or written twice (the output compared byte for byte).
BATCHED = {"intersection_batches", "clip_batches"}
STATEMENTS["intersection_batches"] = STATEMENTS["intersection"]
STATEMENTS["clip_batches"] = STATEMENTS["clip"]
GPU_REFINE_ON |= BATCHED
# Operations swept over every n (few events, each a different path).
SWEEP_ALL = {"dissolve_coverage", "intersection_small"}
HAS_PIPELINE = {"intersection", "intersection_small", "clip", "clip_by_rect", "dissolve"} | GPU_REFINE_ON
# Statements run with the exact coverage union off: their point is GEOS's
# own union paths, which the coverage union would otherwise settle first.
GEOS_ONLY = {"dissolve_coverage"}
KINDS = ("host_alloc", "dev_alloc", "gpu_call", "geos")
GPU_KINDS = ("dev_alloc", "gpu_call")

# Runs per (operation, kind, mode): all n when there are at most this many.
SAMPLE = {"host_alloc": 16, "dev_alloc": 10, "gpu_call": 10, "geos": 12}

# Runs with 4 threads per (operation, kind, mode).
THREADED_SAMPLE = 3

# Child processes at once (each runs one thread).
WORKERS = 2

UNDER_ASAN = "libasan" in os.environ.get("LD_PRELOAD", "")
if UNDER_ASAN:
    # each child is about three times slower under the sanitizers: half the
    # sample (and no sweep over every n: the main run has them) keeps the
    # sanitizer run's share of CI time near two minutes
    SAMPLE = {k: (v + 1) // 2 for k, v in SAMPLE.items()}
    THREADED_SAMPLE = 1


def config(mode, threads=1):
    cfg = {"VSGPU_NUM_THREADS": str(threads)}
    if mode == "CPU":
        cfg["VSGPU_EXECUTION_MODE"] = "CPU"
    else:
        # the validity screen too, which by default runs only on CUDA
        cfg.update({"VSGPU_EXECUTION_MODE": mode, "VSGPU_GPU_BACKEND": "HOST",
                    "VSGPU_GPU_MIN_ROWS": "0", "VSGPU_VALID_SCREEN": "YES"})
    return cfg


def run(plugin_dir, tmp, op, mode, fault=None, count_file=None, threads=1, extra=None):
    """One ogr2ogr run: (return code, stderr, output bytes or None);
    extra: more configuration options."""
    out = tmp / ("out-%s-%s-%s-%d-%s.geojson" % (op, mode, (fault or "none").replace(":", "_"),
                                                  threads, uuid.uuid4().hex[:8]))
    if out.exists():
        out.unlink()
    env = {}
    if fault:
        env["VSGPU_FAULT"] = fault
    if count_file:
        env["VSGPU_FAULT_COUNT"] = str(count_file)
    if UNDER_ASAN:
        env["ASAN_OPTIONS"] = "detect_leaks=1"
    path, sql = STATEMENTS[op]
    cfg = config(mode, threads)
    if op in GEOS_ONLY:
        cfg["VSGPU_COVERAGE_UNION"] = "NO"
    cfg["VSGPU_GPU_REFINE"] = "YES" if op in GPU_REFINE_ON else "NO"
    if op in BATCHED:
        cfg["VSGPU_BATCH_SIZE"] = "10"
    cfg.update(extra or {})
    p = vu.run_cli(["ogr2ogr", "-f", "GeoJSON", out, "VSGPU:" + path, "-dialect", "VSGPU",
                    "-sql", sql], plugin_dir, config=cfg, env=env)
    data = out.read_bytes() if p.returncode == 0 and out.exists() else None
    return p.returncode, p.stderr, data


def counts(plugin_dir, tmp, op, mode):
    f = tmp / ("count-%s-%s.txt" % (op, mode))
    rc, err, data = run(plugin_dir, tmp, op, mode, count_file=f)
    assert rc == 0 and data, err
    n = {}
    for line in f.read_text().splitlines():
        k, v = line.split()
        n[k] = int(v)
    return n, data


# VSGPU_TEST_FAULT_SAMPLES: "all", or k runs per (operation, kind, mode),
# the sweeps over every n included, and at most k of the threaded ones.
# The Debian roots' runs take k = 2 (scripts/debian-root.sh): the fault
# paths are the engine's, swept in full by the main run and under the
# sanitizers; there they check that the hooks and rules hold on that GDAL
# and GEOS, at a quarter of the time.
WANTED = os.environ.get("VSGPU_TEST_FAULT_SAMPLES", "").lower()
if WANTED.isdigit() and int(WANTED) > 1:
    THREADED_SAMPLE = min(THREADED_SAMPLE, int(WANTED))


def sample(total, size, threaded=False):
    if WANTED.isdigit() and int(WANTED) > 1 and not threaded:
        size = int(WANTED)
    if WANTED == "all" or total <= size:
        return list(range(1, total + 1))
    if size == 1:
        return [(total + 1) // 2]
    # evenly spread, first and last included
    return sorted({1 + round(i * (total - 1) / (size - 1)) for i in range(size)})


def no_sanitizer_report(err):
    return not any(s in err for s in ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer",
                                      "runtime error:"))


def clear_error(err, kind):
    """The error ogr2ogr prints names the failure."""
    errors = [ln for ln in err.splitlines() if ln.startswith("ERROR")]
    if not errors:
        return False
    text = " ".join(errors).lower()
    return "injected" in text or "out of memory" in text


def geometries(data):
    path = "/vsimem/faults-%s.geojson" % uuid.uuid4().hex
    gdal.FileFromMemBuffer(path, data)
    try:
        ds = ogr.Open(path)
        feats = [(f.GetField(0), f.GetGeometryRef().Clone()) for f in ds.GetLayer(0)]
        ds = None
    finally:
        gdal.Unlink(path)
    return feats


def same_geometries(a, b):
    fa, fb = geometries(a), geometries(b)
    return len(fa) == len(fb) and all(
        ka == kb and ga.SymDifference(gb).GetArea() == 0
        for (ka, ga), (kb, gb) in itertools.zip_longest(fa, fb))


def check(outcome, kind, mode, reference, cpu_reference):
    """'error', 'rerun', 'same' or 'same geometry'; fails the test on
    anything else."""
    rc, err, data, label = outcome
    assert rc >= 0, "%s: killed by signal %d\n%s" % (label, -rc, err[-3000:])
    assert no_sanitizer_report(err), "%s: sanitizer report\n%s" % (label, err[-6000:])
    if rc != 0:
        assert rc == 1, "%s: exit code %d\n%s" % (label, rc, err[-3000:])
        assert clear_error(err, kind), "%s: the error does not name the failure\n%s" % (
            label, err[-3000:])
        return "error"
    if "re-run on the CPU engine" in err:
        assert mode == "AUTO", "%s: a re-run outside AUTO\n%s" % (label, err[-3000:])
        if label.split()[0] in BATCHED:
            # the failed batch re-run, the others the pipeline's: feature by
            # feature (a line each), one or the other, none lost or repeated
            got, gpu, cpu = (d.splitlines() for d in (data, reference, cpu_reference))
            assert len(got) == len(gpu) == len(cpu), "%s: features lost or repeated" % label
            assert all(g in (a, b) for g, a, b in zip(got, gpu, cpu)), \
                "%s: a feature is neither the pipeline's nor the CPU engine's" % label
            return "rerun"
        assert data == cpu_reference, "%s: the re-run differs from the CPU engine" % label
        return "rerun"
    if data != reference and kind == "geos" and label.startswith("dissolve"):
        assert same_geometries(data, reference), "%s: a different union" % label
        return "same geometry"
    assert data == reference, "%s: succeeded with a different output\n%s" % (label, err[-3000:])
    return "same"


def plan(op):
    """(mode, kinds) pairs swept for an operation: AUTO with the pipeline on
    the host backend; GPU mode for the pipeline's own kinds. The rectangle
    clip's pipeline settles every row of this statement without GEOS, so
    its CPU engine is swept too."""
    if op == "clip_by_rect":
        return [("AUTO", ("host_alloc", "dev_alloc", "gpu_call")), ("GPU", GPU_KINDS),
                ("CPU", ("host_alloc", "geos"))]
    if op == "intersection_small":
        return [("AUTO", ("host_alloc",))]
    if op == "intersection_batches":
        return [("AUTO", ("host_alloc", "dev_alloc", "gpu_call")), ("GPU", GPU_KINDS),
                ("CPU", ("host_alloc", "geos"))]
    if op in GPU_REFINE_ON:
        return [("AUTO", ("host_alloc", "dev_alloc", "gpu_call")), ("GPU", GPU_KINDS)]
    if op in HAS_PIPELINE:
        return [("AUTO", KINDS), ("GPU", GPU_KINDS)]
    return [("AUTO", ("host_alloc", "geos"))]


@pytest.mark.parametrize("op", sorted(STATEMENTS))
def test_fault_sweep(plugin_dir, tmp_path, op):
    _, cpu_reference = counts(plugin_dir, tmp_path, op, "CPU")
    jobs, outcomes = [], {}
    for mode, kinds in plan(op):
        n_events, reference = counts(plugin_dir, tmp_path, op, mode)
        if mode != "CPU" and op in HAS_PIPELINE:
            assert n_events["dev_alloc"] > 0 and n_events["gpu_call"] > 0, n_events
        for kind in kinds:
            if kind == "geos" and op == "dissolve" and n_events[kind] == 0:
                # the coverage union settled every group: no GEOS union to
                # fail (dissolve_coverage sweeps GEOS's union paths)
                continue
            assert n_events[kind] > 0, (op, mode, kind, n_events)
            size = n_events[kind] if op in SWEEP_ALL and not UNDER_ASAN else SAMPLE[kind]
            for n in sample(n_events[kind], size):
                jobs.append((mode, kind, n, 1, reference))
            # a few with several threads: the n-th event is then one of
            # several (or none, if the run makes fewer), the rules the same
            for n in sample(n_events[kind], THREADED_SAMPLE, threaded=True):
                jobs.append((mode, kind, n, 4, reference))
    print("\n%s: %d runs" % (op, len(jobs)))

    def one(job):
        mode, kind, n, threads, reference = job
        fault = "%s:%d" % (kind, n)
        rc, err, data = run(plugin_dir, tmp_path, op, mode, fault=fault, threads=threads)
        label = "%s %s VSGPU_FAULT=%s, %d threads" % (op, mode, fault, threads)
        return check((rc, err, data, label), kind, mode, reference, cpu_reference), job

    with concurrent.futures.ThreadPoolExecutor(max_workers=WORKERS) as pool:
        for result, (mode, kind, n, _, _) in pool.map(one, jobs):
            outcomes.setdefault((mode, kind), {}).setdefault(result, 0)
            outcomes[(mode, kind)][result] += 1
    for (mode, kind), o in sorted(outcomes.items()):
        print("  %s %-10s %s" % (mode, kind, o))
        if mode == "GPU":
            # strict mode: every GPU failure fails the statement
            assert set(o) == {"error"}, (mode, kind, o)
        elif kind in GPU_KINDS:
            # AUTO: every GPU failure is re-run on the CPU engine, visibly
            assert set(o) == {"rerun"}, (mode, kind, o)
        elif kind == "geos":
            assert "error" in o, (mode, kind, o)


def test_fault_syntax_is_checked(plugin_dir, tmp_path):
    """A VSGPU_FAULT the hook does not understand injects nothing."""
    _, reference = counts(plugin_dir, tmp_path, "clip_by_rect", "AUTO")
    for bad in ("gpu_call", "gpu_call:0", "gpu_call:x", "nothing:1", "gpu_call:1x"):
        rc, err, data = run(plugin_dir, tmp_path, "clip_by_rect", "AUTO", fault=bad)
        assert rc == 0 and data == reference, (bad, err)


@pytest.mark.parametrize("op", ["dissolve", "intersection"])
def test_device_that_does_not_open(plugin_dir, tmp_path, op):
    """The dispatch's probe answers from the driver's presence without
    starting it (cuda/runtime_probe.cu), so a device can still fail to open
    when the statement opens it: the first gpu_call event is that open.
    AUTO runs every row on the CPU engine and says so; GPU mode fails the
    statement naming the failure."""
    _, cpu_reference = counts(plugin_dir, tmp_path, op, "CPU")
    rc, err, data = run(plugin_dir, tmp_path, op, "AUTO", fault="gpu_call:1")
    assert rc == 0, err
    assert "every row re-run on the CPU engine (cannot open the GPU: injected" in err, err
    assert data == cpu_reference
    rc, err, data = run(plugin_dir, tmp_path, op, "GPU", fault="gpu_call:1")
    assert rc == 1 and "cannot open the GPU: injected fault" in err, err


def rows_rerun(err):
    """The rows the summary warning says were re-run on the CPU engine."""
    m = re.search(r"(\d+) rows re-run on the CPU engine", err)
    return int(m.group(1)) if m else None


def test_batches_after_a_fault_are_counted(plugin_dir, tmp_path):
    """A failure in the rectangle clip's first batch ends GPU use for the
    statement: every later batch runs on the CPU engine and is counted in
    the re-run rows, whether the failure was a launch (a kernel fault) or
    the pool (too small for any batch): every row the statement read."""
    batches = {"VSGPU_BATCH_SIZE": "10"}
    rc, err, every = run(plugin_dir, tmp_path, "clip_by_rect", "AUTO",
                         extra=dict(batches, VSGPU_GPU_POOL_LIMIT="1K"))
    assert rc == 0 and every, err
    expected = rows_rerun(err)
    assert expected == ogr.Open(NC).GetLayer(0).GetFeatureCount(), err
    # the first event is the device's opening; the second a launch of batch 1
    rc, err, data = run(plugin_dir, tmp_path, "clip_by_rect", "AUTO", fault="gpu_call:2",
                        extra=batches)
    assert rc == 0 and data == every, err
    assert "injected" in err, err
    assert rows_rerun(err) == expected, err
