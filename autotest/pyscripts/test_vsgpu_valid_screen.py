"""The GPU pipeline's validity screen (algorithms/pipeline/screen.c): rows
the valid_screen stage proves valid skip GEOS's IsValid in the reader; every
other row is checked by GEOS as before.

The oracle is the same statement without the screen
(VSGPU_VALID_SCREEN=NO): the same features, byte for byte, the same
VSGPU metadata and the same warnings and errors, under every invalid
policy. By default (AUTO) the screen runs on a CUDA device and takes only
large rows; VSGPU_VALID_SCREEN=YES takes every row, on the HOST backend
too, which is how CI runs it. What it lets
through is counted by the trace (stage valid_screen, rows_out): the plain
valid polygons of the hand-made layer exactly, and almost all of the real
counties.
"""

import json
import os
import uuid

import pytest
from osgeo import ogr

import vsgpu_util as vu

pytestmark = pytest.mark.usefixtures("vsgpu_driver_registered")

BACKEND = os.environ.get("VSGPU_TEST_GPU_BACKEND", "HOST")
GPU = {"VSGPU_EXECUTION_MODE": "GPU", "VSGPU_GPU_BACKEND": BACKEND}

METHOD_WKT = "POLYGON((-100 -100,-100 100,100 100,100 -100,-100 -100))"

# GEOS rejects each of these; the screen must send each to GEOS.
INVALID = [
    "POLYGON((0 0,2 2,2 0,0 2,0 0))",                                   # bow-tie
    "POLYGON((0 0,4 0,4 4,2 4,2 6,2 4,0 4,0 0))",                       # spike
    "POLYGON((0 0,4 0,4 4,2 4,3 2,1 2,2 4,0 4,0 0))",                   # ring touches itself
    "POLYGON((0 0,4 0,4 4,0 4,0 0),(5 5,6 5,6 6,5 6,5 5))",             # hole outside
    "POLYGON((0 0,4 0,4 4,0 4,0 0),(3 1,5 1,5 2,3 2,3 1))",             # hole across
    "POLYGON((0 0,10 0,10 10,0 10,0 0),(1 1,9 1,9 9,1 9,1 1),(2 2,3 2,3 3,2 3,2 2))",
    "POLYGON((0 0,4 0,4 4,0 4,0 0),(2 0,4 2,2 4,1 2,2 0))",             # interior cut
    "POLYGON((0 0,4 0,4 4,0 4,0 0),(0 1,2 1,2 2,0 2,0 1))",             # hole on an edge
    "MULTIPOLYGON(((0 0,2 0,2 2,0 2,0 0)),((1 1,3 1,3 3,1 3,1 1)))",    # parts overlap
    "MULTIPOLYGON(((0 0,4 0,4 4,0 4,0 0)),((1 1,2 1,2 2,1 2,1 1)))",    # part in part
    "MULTIPOLYGON(((0 0,2 0,2 2,0 2,0 0)),((2 0,4 0,4 2,2 2,2 0)))",    # shared edge
    "MULTIPOLYGON(((0 0,4 0,4 4,0 4,0 0)),"
    "((10 0,14 0,14 4,10 4,10 0),(1 1,2 1,2 2,1 2,1 1)))",              # hole in the other part
]
# Valid, but with rings that touch: GEOS decides them.
TOUCHING = [
    "POLYGON((0 0,4 0,4 4,0 4,0 0),(2 0,3 1,1 1,2 0))",
    "MULTIPOLYGON(((0 0,1 0,1 1,0 1,0 0)),((1 1,2 1,2 2,1 2,1 1)))",
]
# Valid, rings apart: let through.
PLAIN = [
    "POLYGON((20 20,20 30,30 30,30 20,20 20))",
    "POLYGON((0 0,10 0,10 10,0 10,0 0),(1 1,2 1,2 2,1 2,1 1),(5 5,5 6,6 6,6 5,5 5))",
    "POLYGON((0 0,4 0,4 0,4 4,0 4,0 4,0 0))",
    "MULTIPOLYGON(((0 0,10 0,10 10,0 10,0 0),(2 2,8 2,8 8,2 8,2 2)),((4 4,6 4,6 6,4 6,4 4)))",
    "MULTIPOLYGON(((0 0,1 0,1 1,0 1,0 0)),((5 5,9 5,9 9,5 9,5 5),(6 6,7 6,7 7,6 7,6 6)))",
    "MULTIPOLYGON(((30 30,31 30,31 31,30 31,30 30)))",
]
OTHER = [None, "POLYGON EMPTY", "POLYGON Z((0 0 1,4 0 1,4 4 1,0 4 1,0 0 1))"]

STATEMENTS = {
    "intersection": "SELECT * FROM ST_Intersection(inp, method)",
    "clip": "SELECT * FROM ST_Clip(inp, method)",
    "dissolve": "SELECT k, ST_Union(geom) AS geom FROM inp GROUP BY k",
    "clip_by_rect": "SELECT * FROM ST_ClipByRect(inp, -5, -5, 12, 12)",
}


@pytest.fixture()
def cases(vsimem_dir):
    path = vsimem_dir + "/screen.gpkg"
    wkts = INVALID + TOUCHING + PLAIN + OTHER
    rows = [(w, {"n": i, "k": i % 3}) for i, w in enumerate(wkts)]
    vu.create_gpkg(path, {
        "inp": dict(geom_type=ogr.wkbUnknown, fields=[("n", ogr.OFTInteger), ("k", ogr.OFTInteger)],
                    rows=rows),
        "method": dict(geom_type=ogr.wkbPolygon, fields=[("m", ogr.OFTString)],
                       rows=[(METHOD_WKT, {"m": "big"})]),
    })
    return path


def _run_stages(tmp_path, path, sql, screen, config=None):
    trace = tmp_path / ("trace-%s.json" % uuid.uuid4().hex)
    cfg = dict(GPU)
    cfg.update(config or {})
    cfg["VSGPU_VALID_SCREEN"] = screen
    cfg["VSGPU_PROFILE"] = str(trace)
    res = vu.run_vsgpu(path, sql, config=cfg)
    stages = json.loads(trace.read_text())["stages"] if trace.exists() else []
    return res, stages


def _run(tmp_path, path, sql, screen, config=None):
    res, stages = _run_stages(tmp_path, path, sql, screen, config)
    return res, [s for s in stages if s["stage"] == "valid_screen"]


def _same(got, ref, label, counters=True):
    assert (got["features"] is None) == (ref["features"] is None), label
    if ref["features"] is not None:
        assert len(got["features"]) == len(ref["features"]), label
        for a, b in zip(got["features"], ref["features"]):
            assert a.fields == b.fields, label
            assert (a.geom is None) == (b.geom is None), label
            if b.geom is not None:
                assert a.geom.ExportToIsoWkb() == b.geom.ExportToIsoWkb(), (
                    "%s %r: %s vs %s" % (label, a.fields, a.geom.ExportToWkt(),
                                        b.geom.ExportToWkt()))
    assert got["errors"].errors == ref["errors"].errors, label
    if not counters:
        return
    # times and the GPU pool's figures differ (the screen uses the pool,
    # and opens it before a statement that fails in its reader would)
    skip = ("TIME_", "ELAPSED_S", "GPU_BYTES_", "GPU_POOL_", "GPU_DEVICE")
    ma = {k: v for k, v in got["metadata"].items() if not k.startswith(skip)}
    mb = {k: v for k, v in ref["metadata"].items() if not k.startswith(skip)}
    assert ma == mb, label


@pytest.mark.parametrize("policy", ["REPAIR", "SKIP", "ERROR"])
@pytest.mark.parametrize("op", sorted(STATEMENTS))
def test_same_answer_as_geos_alone(tmp_path, cases, op, policy):
    sql, cfg = STATEMENTS[op], {"VSGPU_INVALID": policy}
    got, stages = _run_stages(tmp_path, cases, sql, "YES", cfg)
    ref, ref_stages = _run_stages(tmp_path, cases, sql, "NO", cfg)
    screened = _stage(stages, "valid_screen")
    none = _stage(ref_stages, "valid_screen")
    # a statement that fails reports the same error; its counters are
    # those of the rows read before it stopped, which depend on the threads
    _same(got, ref, "%s %s" % (op, policy), counters=policy != "ERROR")
    assert not none
    if policy == "ERROR":
        assert got["errors"].failures, got["errors"].errors
        return
    assert screened, "no valid_screen stage"
    rows_in = sum(s["rows_in"] for s in screened)
    rows_out = sum(s["rows_out"] for s in screened)
    if op == "clip_by_rect":
        # the GPU rectangle clip screens its batch itself, every row, and
        # GEOS's validate then checks only the rows that can meet the
        # rectangle and did not pass: not the four plain polygons inside
        # it. The rows it hands to the CPU engine are read there, and
        # screened again; none of those passes.
        assert rows_in == len(INVALID + TOUCHING + PLAIN + OTHER) + len(INVALID) + 1, screened
        assert rows_out == len(PLAIN) + 2, screened
        checked = sum(s["rows_out"] for s in _stage(stages, "validate"))
        ref_checked = sum(s["rows_out"] for s in _stage(ref_stages, "validate"))
        assert (checked, ref_checked) == (15, 19)
        return
    # every row read (the method's too for the intersection), and exactly
    # the plain valid polygons of inp let through (null and empty rows
    # come out 0: the reader settles them first)
    n_inp = len(INVALID + TOUCHING + PLAIN + OTHER)
    null_or_empty = 2
    extra = 1 if op in ("intersection", "clip") else 0   # the method square
    assert rows_in == n_inp + extra, screened
    assert rows_out == len(PLAIN) + null_or_empty + extra, screened


def test_default_screens_large_rows_on_cuda(tmp_path, counties_gpkg, nybb_gpkg):
    """AUTO screens only on CUDA. Where the reader leaves what passes
    unparsed (an overlay's input and method layers, a dissolve's members),
    rows of every size are screened once they add up to 1 MiB: the
    counties, not the states (254 KB); elsewhere only rows of at least 16
    KiB of WKB: the boroughs (about 15,000 vertices each)."""
    sql = "SELECT * FROM ST_Intersection(counties, states)"
    _, screened = _run(tmp_path, counties_gpkg, sql, "AUTO")
    rows_in = sum(s["rows_in"] for s in screened)
    if BACKEND == "CUDA":
        # every county; no state
        assert rows_in == 3231, screened
    else:
        assert not screened, screened
    sql = "SELECT substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM counties GROUP BY st"
    _, screened = _run(tmp_path, counties_gpkg, sql, "AUTO")
    if BACKEND == "CUDA":
        assert [s["rows_in"] for s in screened] == [3231], screened
    else:
        assert not screened, screened
    got, screened = _run(tmp_path, nybb_gpkg, "SELECT ST_Union(geom) AS geom FROM nybb", "AUTO")
    ref, _ = _run(tmp_path, nybb_gpkg, "SELECT ST_Union(geom) AS geom FROM nybb", "NO")
    _same(got, ref, "nybb")
    if BACKEND == "CUDA":
        # 5 boroughs: under 1 MiB of WKB, but large rows
        assert [(s["rows_in"], s["rows_out"]) for s in screened] == [(5, 5)], screened
    else:
        assert not screened, screened


def _stage(stages, name):
    return [s for s in stages if s["stage"] == name]


@pytest.mark.parametrize("coverage", ["YES", "NO"])
def test_dissolve_parses_only_what_geos_unions(tmp_path, counties_gpkg, coverage):
    """A dissolve's reader leaves the members the screen proves valid
    unparsed: GEOS parses only the neighbours of repaired members (before
    the group union, which may union those with GEOS) and the members of
    the groups the group union does not settle (all of them when the
    coverage union is off). The answer, counters and warnings are those
    of the statement without the screen."""
    sql = "SELECT substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM counties GROUP BY st"
    cfg = {"VSGPU_COVERAGE_UNION": coverage}
    trace = tmp_path / "trace.json"
    cfg.update(GPU, VSGPU_VALID_SCREEN="YES", VSGPU_PROFILE=str(trace))
    got = vu.run_vsgpu(counties_gpkg, sql, config=cfg)
    stages = json.loads(trace.read_text())["stages"]
    cfg["VSGPU_VALID_SCREEN"] = "NO"
    ref = vu.run_vsgpu(counties_gpkg, sql, config=cfg)
    _same(got, ref, "counties by state, coverage union %s" % coverage)
    screen = _stage(stages, "valid_screen")
    parsed = _stage(stages, "parse_deferred")
    passed = sum(s["rows_out"] for s in screen)
    assert passed > 3000, screen
    # (the trace sums the stage's two calls: rows in, the rows deferred
    # at each; out, those parsed)
    n_parsed = sum(s["rows_out"] for s in parsed)
    if coverage == "YES":
        # the repairs' neighbours only: a few percent
        assert 0 < n_parsed < 0.1 * passed, parsed
    else:
        # every row that passed but the empty one, which the reader settles
        assert n_parsed == passed - 1, parsed


@pytest.mark.parametrize("refine", ["YES", "NO"])
@pytest.mark.parametrize("op", ["Intersection", "Clip"])
def test_method_rows_left_unparsed(tmp_path, counties_gpkg, op, refine):
    """The method layer's rows that the screen proves valid polygons are
    left unparsed (stage method_deferred: rows kept in, rows deferred
    out) and GEOS reads one only where it must work on it: with the GPU
    refine (YES) rarely, without it (NO) every one, on several workers at
    once. The answer, counters and warnings are those of the statement
    without the screen."""
    sql = "SELECT * FROM ST_%s(counties, states)" % op
    cfg = {"VSGPU_GPU_REFINE": refine, "VSGPU_NUM_THREADS": "4"}
    got, _ = _run(tmp_path, counties_gpkg, sql, "YES", cfg)
    ref, _ = _run(tmp_path, counties_gpkg, sql, "NO", cfg)
    _same(got, ref, "%s, refine %s" % (op, refine))
    trace = sorted(tmp_path.glob("trace-*.json"), key=lambda p: p.stat().st_mtime)
    stages = [json.loads(p.read_text())["stages"] for p in trace]
    deferred = [_stage(s, "method_deferred") for s in stages]
    assert [sum(d["rows_out"] for d in ds) for ds in deferred] == [56, 0], deferred
    assert deferred[0][0]["rows_in"] == 56, deferred


@pytest.mark.parametrize("name,sql", [
    ("states", "SELECT substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM counties GROUP BY st"),
    ("intersection", "SELECT * FROM ST_Intersection(counties, states)"),
    ("clip_by_rect", "SELECT * FROM ST_ClipByRect(counties, -100, 30, -80, 45)"),
])
def test_real_counties(tmp_path, counties_gpkg, name, sql):
    got, screened = _run(tmp_path, counties_gpkg, sql, "YES")
    ref, _ = _run(tmp_path, counties_gpkg, sql, "NO")
    _same(got, ref, name)
    rows_in = sum(s["rows_in"] for s in screened)
    rows_out = sum(s["rows_out"] for s in screened)
    repaired = int(ref["metadata"].get("INVALID_REPAIRED", "0"))
    assert repaired > 0
    # everything but the invalid counties and a few whose rings touch
    assert rows_out <= rows_in - repaired
    assert rows_out >= 0.97 * rows_in, screened
