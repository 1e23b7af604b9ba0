"""The GPU pipeline through the driver, on the backend the suite was asked
for (VSGPU_TEST_GPU_BACKEND: HOST in CI, CUDA on a GPU host): what it
reports, how it counts, and its failure rule (docs/fallback.md): in AUTO a
GPU failure re-runs the rows on the CPU engine, with one warning; in GPU
mode it fails the statement.

The results themselves are compared with the CPU engine's for every
statement of the suite by vsgpu_util.run_vsgpu (the cross-check)."""

import importlib.util
import json
import math
import pathlib

import pytest
from osgeo import gdal, ogr

import vsgpu_util as vu

pytestmark = pytest.mark.skipif(vu.TEST_GPU_BACKEND == "NONE",
                                reason="VSGPU_TEST_GPU_BACKEND=NONE")

BACKEND = "HOST" if vu.TEST_GPU_BACKEND == "HOST" else "CUDA"

STATEMENTS = {
    "ST_Intersection": "SELECT * FROM ST_Intersection(counties, states)",
    "ST_Clip": "SELECT * FROM ST_Clip(counties, states)",
    "ST_ClipByRect": "SELECT * FROM ST_ClipByRect(counties, -80, 35, -75, 40)",
}


def gpu_config(mode="GPU", **extra):
    cfg = {"VSGPU_EXECUTION_MODE": mode, "VSGPU_GPU_BACKEND": BACKEND}
    cfg.update(extra)
    return cfg


@pytest.mark.parametrize("op", sorted(STATEMENTS))
def test_pipeline_runs_and_reports(counties_gpkg, op, tmp_path):
    trace = tmp_path / "trace.json"
    res = vu.run_vsgpu(counties_gpkg, STATEMENTS[op],
                       config=gpu_config(VSGPU_PROFILE=str(trace)))
    assert res["features"], res["errors"].errors
    md = res["metadata"]
    assert md["SELECTED_RUNTIME"] == "GPU"
    assert int(md["GPU_ROWS"]) > 0
    assert md["GPU_DEVICE"]
    # counties has invalid polygons: ST_ClipByRect hands those that meet the
    # rectangle to the CPU engine, counted and named
    if op == "ST_ClipByRect":
        assert int(md["GPU_ROWS_RERUN_ON_CPU"]) >= int(md["INVALID_REPAIRED"]) > 0
        assert any("re-run on the CPU engine" in m for m in res["errors"].warnings)
    # the pool's statistics, in the metadata and in the trace
    assert int(md["GPU_POOL_PEAK_BYTES"]) > 0
    assert int(md["GPU_POOL_ALLOCATIONS"]) > 0
    assert int(md["GPU_POOL_RETRIES"]) == 0
    assert int(md["GPU_BYTES_H2D"]) > 0 and int(md["GPU_BYTES_D2H"]) > 0
    t = json.loads(trace.read_text())
    assert t["statement"]["GPU_POOL_PEAK_BYTES"] == md["GPU_POOL_PEAK_BYTES"]
    stages = {s["stage"]: s for s in t["stages"]}
    # an overlay whose batch the validity screen decoded (by default on
    # CUDA) gathers it on the device from that decode instead of copying it
    # up again (pipeline/screened.c)
    gathered = "columnar_gather" in stages
    if op != "ST_ClipByRect" and BACKEND == "CUDA":
        assert gathered and "h2d" not in stages, sorted(stages)
    want = ["to_columnar", "bounds", "d2h"] + ([] if gathered else ["h2d"])
    want += ["rect_clip"] if op == "ST_ClipByRect" else ["candidates", "classify", "method_h2d"]
    for name in want:
        assert name in stages, (name, sorted(stages))
    if not gathered:
        assert stages["h2d"]["bytes_h2d"] > 0
    assert stages["d2h"]["bytes_d2h"] > 0
    dev = "GPU" if BACKEND == "CUDA" else "CPU"
    assert stages["bounds"]["device"] == dev


def _batches(run_cli, path, sql, cfg):
    p = run_cli(["ogrinfo", "-ro", "-q", "--debug", "ON", "-dialect", "VSGPU", "-sql", sql,
                 "VSGPU:" + path], config=cfg)
    assert p.returncode == 0, p.stderr
    return [int(line.split(": batch of ")[1].split()[0])
            for line in p.stderr.splitlines() if ": batch of " in line]


def test_gpu_pipeline_takes_larger_batches(run_cli, tmp_path):
    """Unless BATCH_SIZE is given, the GPU pipeline reads 131072 features a
    batch (its cost per batch is fixed: docs/gpu-stages.md), with read-ahead
    a first batch 8 times smaller (the writer starts sooner), the CPU
    engine 16384; BATCH_SIZE given is obeyed by both, and the output is the
    same for any batch size."""
    path = str(tmp_path / "many.gpkg")
    vu.create_gpkg(path, {
        "cells": dict(fields=[("k", ogr.OFTInteger)], rows=_grid_rows(0, 0, 200, 100, 1.0)),
        "half": dict(fields=[("h", ogr.OFTInteger)],
                     rows=[("POLYGON((-1 -1,100.5 -1,100.5 101,-1 101,-1 -1))", {"h": 1})]),
    })
    sql = "SELECT * FROM ST_Intersection(cells, half)"
    assert _batches(run_cli, path, sql, gpu_config()) == [16384, 3616]
    assert _batches(run_cli, path, sql, gpu_config(VSGPU_READ_AHEAD="NO")) == [20000]
    assert _batches(run_cli, path, sql, {"VSGPU_EXECUTION_MODE": "CPU"}) == [16384, 3616]
    assert _batches(run_cli, path, sql, gpu_config(VSGPU_BATCH_SIZE="5000")) == [5000] * 4
    one = vu.run_vsgpu(path, sql, config=gpu_config(VSGPU_READ_AHEAD="NO"))
    many = vu.run_vsgpu(path, sql, config=gpu_config(VSGPU_BATCH_SIZE="5000"))
    fp = [[(f.fid, tuple(f.fields.items()), f.geom.ExportToIsoWkb() if f.geom else None)
           for f in r["features"]] for r in (one, many)]
    assert len(fp[0]) == 10100 and fp[0] == fp[1]


@pytest.mark.parametrize("steps", [False, True])
def test_profile_steps(counties_gpkg, tmp_path, steps):
    """VSGPU_PROFILE_STEPS=YES adds the trace's "steps": every step of the
    stages, named "<stage>: <step>", its time and calls; the stages and
    their total do not change meaning. Without it there are no steps."""
    trace = tmp_path / "trace.json"
    cfg = gpu_config(VSGPU_PROFILE=str(trace))
    if steps:
        cfg["VSGPU_PROFILE_STEPS"] = "YES"
    res = vu.run_vsgpu(counties_gpkg, STATEMENTS["ST_Intersection"], config=cfg)
    assert res["features"], res["errors"].errors
    t = json.loads(trace.read_text())
    assert math.isclose(t["total_s"], sum(s["elapsed_s"] for s in t["stages"]), rel_tol=1e-6)
    if not steps:
        assert "steps" not in t
        return
    by_name = {s["step"]: s for s in t["steps"]}
    dev = "GPU" if BACKEND == "CUDA" else "CPU"
    for s in t["steps"]:
        assert s["device"] == dev and s["calls"] >= 1 and s["elapsed_s"] >= 0, s
        assert ": " in s["step"], s
    stage_names = {s["stage"] for s in t["stages"]}
    where = {n.split(": ")[0] for n in by_name}
    # a step is in a stage, or between stages (named after the one before)
    assert {w[len("(after "):-1] if w.startswith("(after ") else w for w in where} \
        <= stage_names | {"start"}, sorted(by_name)
    # the candidate join's launches, a sort, and the refine's numbered steps
    assert "candidates: candidates probe" in by_name, sorted(by_name)
    assert "candidates: sort" in by_name
    assert any(n.startswith("refine_nodes: overlay_refine ") for n in by_name), sorted(by_name)
    # the steps' time is the device's time between marks: within the stages'
    assert sum(s["elapsed_s"] for s in t["steps"]) > 0


@pytest.mark.parametrize("screen", ["AUTO", "YES"])
@pytest.mark.parametrize("op", sorted(STATEMENTS))
def test_out_of_memory_in_auto_reruns_on_cpu(counties_gpkg, op, screen):
    """A pool too small for the first allocation: every row of the
    statement goes to the CPU engine, counted, with the reason in the one
    warning; the result is the CPU engine's. Where the validity screen runs
    first (on CUDA by default; YES: on the HOST backend too), its failure
    ends GPU use for the statement, and the rows the candidate search then
    leaves to the CPU engine are counted just the same."""
    cpu = vu.run_vsgpu(counties_gpkg, STATEMENTS[op], config={"VSGPU_EXECUTION_MODE": "CPU"})
    res = vu.run_vsgpu(counties_gpkg, STATEMENTS[op],
                       config=gpu_config("AUTO", VSGPU_GPU_POOL_LIMIT="1K",
                                         VSGPU_GPU_MIN_ROWS="0", VSGPU_VALID_SCREEN=screen))
    assert res["features"] is not None, res["errors"].errors
    md = res["metadata"]
    assert md["SELECTED_RUNTIME"] == "GPU"
    assert int(md["GPU_ROWS_RERUN_ON_CPU"]) == int(md["INPUT_FEATURES"]) > 0
    assert int(md["GPU_ROWS"]) == 0
    warnings = [m for m in res["errors"].warnings if "re-run on the CPU engine" in m]
    assert len(warnings) == 1, res["errors"].errors
    assert "memory" in warnings[0].lower()
    assert "GPU_NOTE" in md and "failed" in md["GPU_NOTE"]
    vu.assert_same_features(res["features"], cpu["features"], label=op)


@pytest.mark.parametrize("op", sorted(STATEMENTS))
def test_out_of_memory_in_gpu_mode_fails(counties_gpkg, op):
    with vu.ErrorCollector() as errs:
        ds = vu.open_vsgpu(counties_gpkg)
        gdal.SetConfigOption("VSGPU_EXECUTION_MODE", "GPU")
        gdal.SetConfigOption("VSGPU_GPU_BACKEND", BACKEND)
        gdal.SetConfigOption("VSGPU_GPU_POOL_LIMIT", "1K")
        try:
            lyr = ds.ExecuteSQL(STATEMENTS[op], dialect="VSGPU")
            n = 0
            if lyr is not None:
                for _ in lyr:
                    n += 1
                ds.ReleaseResultSet(lyr)
        finally:
            for k in ("VSGPU_EXECUTION_MODE", "VSGPU_GPU_BACKEND", "VSGPU_GPU_POOL_LIMIT"):
                gdal.SetConfigOption(k, None)
        ds = None
    assert n == 0
    fails = errs.failures
    assert fails, errs.errors
    assert any("GPU" in m and ("memory" in m.lower() or "limit" in m.lower()) for m in fails), fails


@pytest.mark.parametrize("option,value,ok", [
    ("VSGPU_GPU_POOL_LIMIT", "lots", False), ("VSGPU_GPU_POOL_LIMIT", "-1", False),
    ("VSGPU_GPU_POOL_LIMIT", "12Q", False), ("VSGPU_GPU_POOL_LIMIT", "0", True),
    ("VSGPU_GPU_POOL_LIMIT", "64K", True), ("VSGPU_GPU_POOL_LIMIT", "1.5G", True),
    ("VSGPU_GPU_MIN_BYTES", "MEASURED", True), ("VSGPU_GPU_MIN_BYTES", "0", True),
    ("VSGPU_GPU_MIN_BYTES", "48M", True), ("VSGPU_GPU_MIN_BYTES", "12Q", False),
    ("VSGPU_GPU_MIN_BYTES", "lots", False)])
def test_byte_options_are_parsed(counties_gpkg, option, value, ok):
    gdal.SetConfigOption(option, value)
    try:
        with vu.ErrorCollector() as errs:
            ds = vu.open_vsgpu(counties_gpkg)
            lyr = ds.ExecuteSQL(STATEMENTS["ST_ClipByRect"], dialect="VSGPU") if ds else None
            if lyr is not None:
                ds.ReleaseResultSet(lyr)
            ds = None
    finally:
        gdal.SetConfigOption(option, None)
    bad = [m for m in errs.failures if option in m]
    assert (not bad) == ok, errs.errors


@pytest.mark.parametrize("op", sorted(STATEMENTS))
def test_auto_takes_the_pipeline_from_gpu_min_rows(counties_gpkg, op):
    """Without a measured crossover AUTO keeps the CPU engine, silently,
    and says why; VSGPU_GPU_MIN_ROWS moves the crossover."""
    res = vu.run_vsgpu(counties_gpkg, STATEMENTS[op], config={"VSGPU_GPU_BACKEND": "CUDA"})
    md = res["metadata"]
    assert md["SELECTED_RUNTIME"] == "CPU"
    if "no CUDA engine" in md["FALLBACK_REASON"]:
        pytest.skip("this build has no CUDA engine: no crossover to move")
    assert "crossover" in md["FALLBACK_REASON"]
    assert not [m for m in res["errors"].warnings if vu.FALLBACK_RE.search(m)]
    res = vu.run_vsgpu(counties_gpkg, STATEMENTS[op],
                       config=gpu_config("AUTO", VSGPU_GPU_MIN_ROWS="0"))
    assert res["metadata"]["SELECTED_RUNTIME"] == "GPU", res["errors"].errors
    res = vu.run_vsgpu(counties_gpkg, STATEMENTS[op],
                       config={"VSGPU_GPU_BACKEND": "CUDA", "VSGPU_GPU_MIN_ROWS": "1000000"})
    assert res["metadata"]["SELECTED_RUNTIME"] == "CPU"
    assert "below the GPU crossover of 1000000 rows" in res["metadata"]["FALLBACK_REASON"]


def test_auto_takes_the_pipeline_for_large_rows(nybb_gpkg, counties_gpkg):
    """Below the rows' crossover AUTO still takes the GPU pipeline where the
    input's rows are large (16 KiB of WKB or more on average, sized from its
    first rows) and add up to VSGPU_GPU_MIN_BYTES (48 MiB, measured): the
    five boroughs (about 15,000 vertices each, 1.2 MB) from 1 MB, not from
    100 MB; the counties' small rows never (the rows' crossover alone); and
    VSGPU_GPU_MIN_ROWS alone turns the rule off. Where no device answers
    (CI), AUTO's wish for the GPU shows as the visible fallback."""
    nybb = "SELECT ST_Union(geom) AS geom FROM nybb"
    cuda = {"VSGPU_GPU_BACKEND": "CUDA"}
    res = vu.run_vsgpu(nybb_gpkg, nybb, config=dict(cuda, VSGPU_GPU_MIN_BYTES="100M"))
    md = res["metadata"]
    if "no CUDA engine" in md["FALLBACK_REASON"]:
        pytest.skip("this build has no CUDA engine: no crossover")
    assert md["SELECTED_RUNTIME"] == "CPU"
    assert ("about 1" in md["FALLBACK_REASON"] and
            "bytes of large rows, below its crossover of 104857600 bytes" in md["FALLBACK_REASON"]), md
    assert not [m for m in res["errors"].warnings if vu.FALLBACK_RE.search(m)]
    ref = vu.run_vsgpu(nybb_gpkg, nybb, config={"VSGPU_EXECUTION_MODE": "CPU"})

    res = vu.run_vsgpu(nybb_gpkg, nybb, config=dict(cuda, VSGPU_GPU_MIN_BYTES="1M"))
    md = res["metadata"]
    if md["SELECTED_RUNTIME"] == "CPU":
        # no device here: AUTO asked for the GPU, and says it could not
        assert "crossover" not in md["FALLBACK_REASON"], md
        assert [m for m in res["errors"].warnings if vu.FALLBACK_RE.search(m)], res["errors"].errors
    assert len(res["features"]) == len(ref["features"]) == 1
    assert res["features"][0].geom.Equals(ref["features"][0].geom)

    by_state = "SELECT substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM counties GROUP BY st"
    res = vu.run_vsgpu(counties_gpkg, by_state, config=dict(cuda, VSGPU_GPU_MIN_BYTES="1"))
    md = res["metadata"]
    assert md["SELECTED_RUNTIME"] == "CPU"
    assert md["FALLBACK_REASON"].endswith("below the GPU crossover of 120000 rows for ST_Union"), md

    res = vu.run_vsgpu(nybb_gpkg, nybb, config=dict(cuda, VSGPU_GPU_MIN_ROWS="1000000"))
    md = res["metadata"]
    assert md["SELECTED_RUNTIME"] == "CPU"
    assert md["FALLBACK_REASON"].endswith("below the GPU crossover of 1000000 rows for ST_Union"), md


@pytest.mark.parametrize("op,measured", [("Intersection", 48 << 20), ("Clip", 24 << 20)])
def test_large_rows_of_both_layers_add_up(nybb_gpkg, op, measured):
    """The overlays size the method layer's rows too, and the large rows of
    both layers add up: the boroughs against themselves are 2.4 MB of large
    rows, so 2 MB takes the GPU where each layer's 1.2 MB would not. Each
    operation has its own measured crossover (clip 24 MiB, intersection 48
    MiB)."""
    sql = "SELECT * FROM ST_%s(nybb, nybb)" % op
    cuda = {"VSGPU_GPU_BACKEND": "CUDA"}
    res = vu.run_vsgpu(nybb_gpkg, sql, config=cuda)
    md = res["metadata"]
    if "no CUDA engine" in md["FALLBACK_REASON"]:
        pytest.skip("this build has no CUDA engine: no crossover")
    assert md["SELECTED_RUNTIME"] == "CPU"
    assert "below its crossover of %d bytes" % measured in md["FALLBACK_REASON"], md
    res = vu.run_vsgpu(nybb_gpkg, sql, config=dict(cuda, VSGPU_GPU_MIN_BYTES="2M"))
    md = res["metadata"]
    if md["SELECTED_RUNTIME"] == "CPU":
        assert "crossover" not in md["FALLBACK_REASON"], md
        assert [m for m in res["errors"].warnings if vu.FALLBACK_RE.search(m)], res["errors"].errors


def test_unsupported_rows_are_counted_not_lost(vsimem_dir):
    """GeometryCollections, nulls and empties on both sides go through the
    pipeline: the collections are searched on the CPU (counted), nothing is
    lost, and the result is the CPU engine's."""
    path = vsimem_dir + "/mixed.gpkg"
    sq = lambda x, y, d: "POLYGON((%g %g,%g %g,%g %g,%g %g,%g %g))" % (
        x, y, x + d, y, x + d, y + d, x, y + d, x, y)
    inputs = [(i, sq(i % 10, i // 10, 1.5)) for i in range(100)]
    inputs += [(100, "GEOMETRYCOLLECTION(%s, POINT(3 3))" % sq(2, 2, 2)),
               (101, None), (102, "POLYGON EMPTY")]
    methods = [(0, sq(1, 1, 5)), (1, "GEOMETRYCOLLECTION(%s)" % sq(6, 6, 3)), (2, None)]
    vu.create_gpkg(path, {
        "a": dict(fields=[("id", ogr.OFTInteger)], rows=[(g, {"id": i}) for i, g in inputs]),
        "b": dict(fields=[("k", ogr.OFTInteger)], rows=[(g, {"k": k}) for k, g in methods]),
    })
    sql = "SELECT * FROM ST_Intersection(a, b)"
    cpu = vu.run_vsgpu(path, sql, config={"VSGPU_EXECUTION_MODE": "CPU"})
    gpu = vu.run_vsgpu(path, sql, config=gpu_config())
    assert gpu["features"] is not None, gpu["errors"].errors
    vu.assert_same_features(gpu["features"], cpu["features"], label="mixed")
    md = gpu["metadata"]
    # one input collection and one method collection matched on the CPU
    assert int(md["GPU_ROWS_RERUN_ON_CPU"]) == 2
    for k in ("NULL_GEOMETRIES", "EMPTY_GEOMETRIES"):
        assert md[k] == cpu["metadata"][k]


def test_gpu_refine_counts_and_warns_what_it_hands_back(vsimem_dir):
    """VSGPU_GPU_REFINE=YES: the pairs the GPU refine settles are counted in
    GPU_PAIRS, among them a part of b inside a's hole (a ring with no node,
    labelled by a ray count); a pair it cannot settle (here: b's edge
    crosses a's at an angle of 1e-8, too flat to round the crossing
    safely) goes to GEOS, is counted in GPU_PAIRS_RERUN_ON_CPU and named in
    the one warning; the result is the CPU engine's."""
    path = vsimem_dir + "/refine.gpkg"
    a = ("POLYGON((0 0,10 0,10 10,0 10,0 0),(3 3,7 3,7 7,3 7,3 3))", 0)
    a2 = ("POLYGON((20 0,30 0,30 10,20 10,20 0))", 1)
    b = ("MULTIPOLYGON(((-5 -5,2 -5,2 2,-5 2,-5 -5)),((4 4,6 4,6 6,4 6,4 4)))", 0)
    b2 = ("POLYGON((25 5,35 5,35 15,25 15,25 5))", 1)
    b3 = ("POLYGON((-1 -0.0000001,11 0.0000001,11 5,-1 5,-1 -0.0000001))", 2)
    vu.create_gpkg(path, {
        "a": dict(fields=[("id", ogr.OFTInteger)], rows=[(g, {"id": i}) for g, i in (a, a2)]),
        "b": dict(fields=[("k", ogr.OFTInteger)],
                  rows=[(g, {"k": k}) for g, k in (b, b2, b3)]),
    })
    sql = "SELECT * FROM ST_Intersection(a, b)"
    cpu = vu.run_vsgpu(path, sql, config={"VSGPU_EXECUTION_MODE": "CPU"})
    gpu = vu.run_vsgpu(path, sql, config=gpu_config(VSGPU_GPU_REFINE="YES"))
    assert gpu["features"] is not None, gpu["errors"].errors
    vu.assert_same_features(gpu["features"], cpu["features"], label="refine")
    md = gpu["metadata"]
    assert int(md["GPU_PAIRS"]) == 2
    assert int(md["GPU_PAIRS_RERUN_ON_CPU"]) == 1
    assert int(md["GPU_ROWS_RERUN_ON_CPU"]) == 1
    warned = [m for m in gpu["errors"].warnings if "GPU refine" in m]
    assert len(warned) == 1, gpu["errors"].warnings
    # the default is YES; NO leaves every undecided pair to GEOS
    dflt = vu.run_vsgpu(path, sql, config=gpu_config())
    assert int(dflt["metadata"]["GPU_PAIRS"]) == 2
    off = vu.run_vsgpu(path, sql, config=gpu_config(VSGPU_GPU_REFINE="NO"))
    vu.assert_same_features(off["features"], cpu["features"], label="refine off")
    assert int(off["metadata"]["GPU_PAIRS"]) == 0
    assert int(off["metadata"]["GPU_PAIRS_RERUN_ON_CPU"]) == 0


def _comb(teeth):
    """A comb whose teeth cross the line y = 0 between x = 0 and 100, each
    one twice: 2 * teeth nodes on the one segment of a square's side. Its
    ring runs from right to left, against the side's direction, so that
    the nodes are found in the reverse of their order along the side."""
    w = 100.0 / teeth
    pts = [(0.1, 5.0)]
    for t in range(teeth):
        x = t * w
        pts += [(x + 0.25 * w, 5.0), (x + 0.25 * w, -3.0), (x + 0.75 * w, -3.0),
                (x + 0.75 * w, 5.0)]
    pts += [(99.9, 5.0), (99.9, 8.0), (0.1, 8.0), (0.1, 5.0)]
    return "POLYGON((%s))" % ",".join("%r %r" % (100.0 - x, y) for x, y in pts)


@pytest.mark.parametrize("teeth", [6, 40])
def test_gpu_refine_orders_many_nodes_on_one_segment(vsimem_dir, tmp_path, teeth):
    """The refine orders the nodes on each segment: one thread orders a
    segment's nodes when they are at most 32 (elements/overlay/
    refine_steps.h, EV_ORDER), and a segment with more sends every node
    through a sort by position (the step VSG_REF_EV_POS in the trace). A
    square whose bottom side a comb crosses 12 or 80 times: each way the
    answer is the CPU engine's, and the trace shows which way ran."""
    path = vsimem_dir + "/comb.gpkg"
    vu.create_gpkg(path, {
        "a": dict(fields=[("id", ogr.OFTInteger)],
                  rows=[("POLYGON((0 0,100 0,100 50,0 50,0 0))", {"id": 1})]),
        "b": dict(fields=[("k", ogr.OFTInteger)], rows=[(_comb(teeth), {"k": 1})]),
    })
    sql = "SELECT * FROM ST_Intersection(a, b)"
    trace = tmp_path / "trace.json"
    cpu = vu.run_vsgpu(path, sql, config={"VSGPU_EXECUTION_MODE": "CPU"})
    gpu = vu.run_vsgpu(path, sql, config=gpu_config(VSGPU_PROFILE=str(trace),
                                                    VSGPU_PROFILE_STEPS="YES"))
    assert gpu["features"] is not None, gpu["errors"].errors
    vu.assert_same_features(gpu["features"], cpu["features"], label="comb %d" % teeth)
    md = gpu["metadata"]
    assert int(md["GPU_PAIRS"]) == 1 and int(md["GPU_PAIRS_RERUN_ON_CPU"]) == 0, md
    steps = {s["step"] for s in json.loads(trace.read_text())["steps"]}
    pos = "refine_nodes: overlay_refine %d" % _ref_step("VSG_REF_EV_POS")
    order = "refine_nodes: overlay_refine %d" % _ref_step("VSG_REF_EV_ORDER")
    assert order in steps, sorted(steps)
    assert (pos in steps) == (2 * teeth > 32), sorted(steps)


def _ref_step(name):
    """The number of a refine step, from its enum (bench/tools/steps.py reads
    the enums the same way to name the trace's steps)."""
    root = pathlib.Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location("steps", root / "bench/tools/steps.py")
    steps = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(steps)
    names = steps.enum_names(steps.ENUMS["overlay_refine"])
    return {v: k for k, v in names.items()}[name]


def _grid_rows(x0, y0, nx, ny, step):
    rows = []
    for i in range(nx):
        for j in range(ny):
            x, y = x0 + i * step, y0 + j * step
            rows.append(("POLYGON((%r %r,%r %r,%r %r,%r %r,%r %r))"
                         % (x, y, x + step, y, x + step, y + step, x, y + step, x, y),
                         {"k": len(rows)}))
    return rows


def test_gpu_refine_clip_unions_pieces_of_a_coverage(vsimem_dir):
    """ST_Clip with VSGPU_GPU_REFINE=YES: each input's pieces (one per
    method polygon that crosses it or lies inside it) are refined and then
    unioned on the GPU pipeline. The methods here form a coverage (a grid,
    its cells sharing edges), so the pieces of an input meet at bit-equal
    nodes and their union is settled without GEOS: a star, a polygon with
    a hole and a polygon inside one cell, cut by up to 16 cells. The
    answer is the CPU engine's."""
    path = vsimem_dir + "/clip_grid.gpkg"
    star = "POLYGON((%s))" % ",".join(
        "%r %r" % (5 + (4.3 if k % 2 == 0 else 1.7) * math.cos(math.pi * k / 7),
                   5 + (4.3 if k % 2 == 0 else 1.7) * math.sin(math.pi * k / 7))
        for k in list(range(14)) + [0])
    inputs = [
        (star, {"id": 0}),
        ("POLYGON((0.5 0.5,9.5 0.5,9.5 9.5,0.5 9.5,0.5 0.5),(3.3 3.3,6.6 3.3,6.6 6.6,3.3 6.6,3.3 3.3))",
         {"id": 1}),
        ("POLYGON((2.6 2.6,2.9 2.6,2.9 2.9,2.6 2.9,2.6 2.6))", {"id": 2}),
        ("POLYGON((20 20,21 20,21 21,20 20))", {"id": 3}),
    ]
    vu.create_gpkg(path, {
        "a": dict(fields=[("id", ogr.OFTInteger)], rows=inputs),
        "grid": dict(fields=[("k", ogr.OFTInteger)], rows=_grid_rows(0, 0, 4, 4, 2.5)),
    })
    sql = "SELECT * FROM ST_Clip(a, grid)"
    cpu = vu.run_vsgpu(path, sql, config={"VSGPU_EXECUTION_MODE": "CPU"})
    gpu = vu.run_vsgpu(path, sql, config=gpu_config(VSGPU_GPU_REFINE="YES"))
    assert gpu["features"] is not None, gpu["errors"].errors
    assert len(cpu["features"]) == 3
    vu.assert_same_features(gpu["features"], cpu["features"], label="clip by a grid")
    md = gpu["metadata"]
    # every cell cuts the holed square; the star reaches some of them
    assert 16 < int(md["GPU_PAIRS"]) <= 32, md
    assert int(md["GPU_PAIRS_RERUN_ON_CPU"]) == 0
    assert int(md["GPU_ROWS_RERUN_ON_CPU"]) == 0
    assert not [m for m in gpu["errors"].warnings if "GPU refine" in m]


def test_gpu_refine_clip_hands_back_overlapping_methods(vsimem_dir):
    """Method polygons that overlap give pieces that overlap: their union
    is not a coverage, so the row goes to GEOS whole, counted in
    GPU_PAIRS_RERUN_ON_CPU and GPU_ROWS_RERUN_ON_CPU and named in the
    warning; a row cut by one method polygon only is settled."""
    path = vsimem_dir + "/clip_overlap.gpkg"
    inputs = [("POLYGON((0 0,10 0,10 10,0 10,0 0))", {"id": 0}),
              ("POLYGON((20 0,30 0,30 10,20 10,20 0))", {"id": 1})]
    methods = [("POLYGON((-1 2,6 2,6 8,-1 8,-1 2))", {"k": 0}),
               ("POLYGON((4 -1,11 -1,11 5,4 5,4 -1))", {"k": 1}),
               ("POLYGON((25 5,35 5,35 15,25 15,25 5))", {"k": 2})]
    vu.create_gpkg(path, {
        "a": dict(fields=[("id", ogr.OFTInteger)], rows=inputs),
        "b": dict(fields=[("k", ogr.OFTInteger)], rows=methods),
    })
    sql = "SELECT * FROM ST_Clip(a, b)"
    cpu = vu.run_vsgpu(path, sql, config={"VSGPU_EXECUTION_MODE": "CPU"})
    gpu = vu.run_vsgpu(path, sql, config=gpu_config(VSGPU_GPU_REFINE="YES"))
    assert gpu["features"] is not None, gpu["errors"].errors
    vu.assert_same_features(gpu["features"], cpu["features"], label="clip, overlapping methods")
    md = gpu["metadata"]
    assert int(md["GPU_PAIRS"]) == 1
    assert int(md["GPU_PAIRS_RERUN_ON_CPU"]) == 2
    assert int(md["GPU_ROWS_RERUN_ON_CPU"]) == 1
    warned = [m for m in gpu["errors"].warnings if "GPU refine" in m]
    assert len(warned) == 1, gpu["errors"].warnings
