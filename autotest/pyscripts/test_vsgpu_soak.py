"""Soak: one process runs every operation 1,000 times in all (intersection,
clip, clip by rectangle, dissolve, the join form; the overlays on the CPU
engine and on the GPU pipeline's host backend), with the thread count
rising and falling (1, 2, 4, 8, 4, 2, 1, ...), each execution through a
freshly opened VSGPU: dataset, the way QGIS reopens its layers.

Checks (docs/robustness.md, "Soak"):
  * every execution of a statement gives the same output digest (fields and
    ISO WKB of every feature, in order) whatever the thread count;
  * memory stays flat: VmRSS after the warm-up (one round of every
    statement at every thread count, so that the allocator's per-thread
    arenas and GDAL's caches exist) and at the end differ by less than
    RSS_BOUND_MB. 1,000 executions make a leak of 20 KB an execution a
    20 MB growth; a flat process moves by a few MB (the allocator's
    free-list fragmentation);
  * open file descriptors: the same count after the warm-up and at the end.
Under the sanitizer run (libasan preloaded) the memory bound is not
checked: AddressSanitizer keeps freed blocks in its quarantine (up to
256 MB) and maps shadow memory, so VmRSS says nothing there; the outputs
and descriptors still are, over 400 executions.

Small layers (the first 30 counties of nc against the same rows of sids)
keep the whole run under about a minute on 2 cores.
"""

import hashlib
import itertools
import os
import pathlib
import time

from osgeo import gdal, ogr

import vsgpu_util as vu

DATA = pathlib.Path(__file__).resolve().parents[2] / "data"

EXECUTIONS = 1000
RSS_BOUND_MB = 20
THREAD_CYCLE = (1, 2, 4, 8, 4, 2)   # repeated: 1, 2, 4, 8, 4, 2, 1, 2, ...
ROWS = 30
UNDER_ASAN = "libasan" in os.environ.get("LD_PRELOAD", "")
if UNDER_ASAN:
    EXECUTIONS = 400   # CI time: outputs and descriptors are checked, not RSS

STATEMENTS = {
    "intersection": "SELECT * FROM ST_Intersection(a, b)",
    "clip": "SELECT * FROM ST_Clip(a, b)",
    "clip_by_rect": "SELECT * FROM ST_ClipByRect(a, -80.5, 35.5, -78, 36.6)",
    "dissolve": "SELECT substr(FIPS, 1, 4) AS k, ST_Union(geom) AS geom FROM a GROUP BY 1",
    "join": "SELECT a.NAME, b.FIPS AS bfips, ST_Intersection(a.geom, b.geom) AS geom "
            "FROM a JOIN b ON ST_Intersects(a.geom, b.geom)",
}
# The overlays run twice: on the CPU engine and on the GPU pipeline (host
# backend); the dissolve has no pipeline.
RUNS = [(op, "CPU") for op in sorted(STATEMENTS)] + \
       [(op, "GPU") for op in sorted(STATEMENTS) if op != "dissolve"]


def make_layers(path):
    src_a = ogr.Open(str(DATA / "nc.gpkg"))
    src_b = ogr.Open(str(DATA / "r_spdata.gpkg"))
    drv = ogr.GetDriverByName("GPKG")
    ds = drv.CreateDataSource(path)
    for name, src, lname in (("a", src_a, "nc"), ("b", src_b, "sids")):
        lyr = src.GetLayerByName(lname)
        out = ds.CreateLayer(name, srs=src_a.GetLayer(0).GetSpatialRef(),
                             geom_type=ogr.wkbMultiPolygon)
        defn = lyr.GetLayerDefn()
        for i in range(defn.GetFieldCount()):
            out.CreateField(defn.GetFieldDefn(i))
        out.StartTransaction()
        for k, f in enumerate(lyr):
            if k >= ROWS:
                break
            g = ogr.Feature(out.GetLayerDefn())
            g.SetFrom(f)
            out.CreateFeature(g)
        out.CommitTransaction()
    ds = None


def config_for(mode, threads):
    cfg = {"VSGPU_NUM_THREADS": str(threads), "VSGPU_EXECUTION_MODE": mode}
    if mode == "GPU":
        cfg["VSGPU_GPU_BACKEND"] = "HOST"
    return cfg


def execute(path, op, mode, threads):
    """One execution: open, run, read every feature, release, close.
    Returns the digest of the output."""
    cfg = config_for(mode, threads)
    for k, v in cfg.items():
        gdal.SetConfigOption(k, v)
    try:
        ds = gdal.OpenEx("VSGPU:" + path, gdal.OF_VECTOR)
        lyr = ds.ExecuteSQL(STATEMENTS[op], dialect="VSGPU")
        assert lyr is not None, (op, mode, threads, gdal.GetLastErrorMsg())
        h = hashlib.sha256()
        n = 0
        for f in lyr:
            n += 1
            h.update(repr([f.GetField(i) for i in range(f.GetFieldCount())]).encode())
            g = f.GetGeometryRef()
            h.update(g.ExportToIsoWkb() if g is not None else b"null")
        md = lyr.GetMetadata("VSGPU")
        assert md.get("THREADS") == str(threads), md.get("THREADS")
        assert md.get("SELECTED_RUNTIME") == mode, md
        ds.ReleaseResultSet(lyr)
        ds = None
    finally:
        for k in cfg:
            gdal.SetConfigOption(k, None)
    assert n > 0, (op, mode)
    return h.hexdigest()


def rss_kb():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def open_fds():
    return len(os.listdir("/proc/self/fd"))


def test_soak_outputs_memory_and_descriptors(tmp_path):
    path = str(tmp_path / "soak.gpkg")
    make_layers(path)
    digests = {}
    done = 0
    t0 = time.time()
    gdal.PushErrorHandler("CPLQuietErrorHandler")   # the summary warnings
    try:
        # warm-up: every statement at every thread count
        for threads in sorted(set(THREAD_CYCLE)):
            for op, mode in RUNS:
                d = execute(path, op, mode, threads)
                assert digests.setdefault((op, mode), d) == d, (op, mode, threads)
                done += 1
        rss0, fds0 = rss_kb(), open_fds()
        threads_seq = itertools.cycle(THREAD_CYCLE)
        while done < EXECUTIONS:
            threads = next(threads_seq)
            for op, mode in RUNS:
                if done >= EXECUTIONS:
                    break
                d = execute(path, op, mode, threads)
                assert d == digests[(op, mode)], "%s %s, %d threads: output changed after %d " \
                    "executions" % (op, mode, threads, done)
                done += 1
        rss1, fds1 = rss_kb(), open_fds()
    finally:
        gdal.PopErrorHandler()
    elapsed = time.time() - t0
    print("\nsoak: %d executions in %.1f s; VmRSS %d -> %d kB; fds %d -> %d"
          % (done, elapsed, rss0, rss1, fds0, fds1))
    assert done == EXECUTIONS
    if not UNDER_ASAN:
        assert rss1 - rss0 < RSS_BOUND_MB * 1024, "VmRSS grew by %d kB" % (rss1 - rss0)
    assert fds1 == fds0, "open file descriptors %d -> %d" % (fds0, fds1)
