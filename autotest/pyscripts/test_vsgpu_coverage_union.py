"""Dissolve's exact coverage union (algorithms/stages/union/coverage.c),
against GEOS.

Every polygon group goes first to the coverage union, which settles the
groups that provably are coverages from their boundary segments and hands
the rest to GEOS; VSGPU_COVERAGE_UNION=NO makes GEOS union every group.
Oracles:

* GEOS: the same statement with VSGPU_COVERAGE_UNION=NO, group for group
  (same keys, same order, relative symmetric difference <= 1e-9, valid
  MultiPolygons, never NULL where GEOS is not);
* the `states` layer for the counties by state (test_vsgpu_dissolve.py
  holds that at 1e-12);
* GEOS's union of the two operands of every polygon case of the GEOS XML
  suite, dissolved as one group: coverage or not, the answer is GEOS's.

On the GPU pipeline (VSGPU_EXECUTION_MODE=GPU; the HOST backend in CI, CUDA
on the GPU host) the same element code runs, and the groups it does not
settle go on to the overlap union (stages/union/overlap.c) before GEOS:
the output equals the CPU engine's group for group (the overlap union's
rings may start elsewhere than GEOS's), and GPU_GROUPS /
GPU_GROUPS_RERUN_ON_CPU count the groups.
"""

import math
import os
import uuid

import pytest
from osgeo import gdal, ogr

import geos_xml
import vsgpu_util as vu

pytestmark = pytest.mark.usefixtures("vsgpu_driver_registered")

BACKEND = os.environ.get("VSGPU_TEST_GPU_BACKEND", "HOST")
REL_TOL = 1e-9
GEOS_ONLY = {"VSGPU_COVERAGE_UNION": "NO"}
GPU = {"VSGPU_EXECUTION_MODE": "GPU", "VSGPU_GPU_BACKEND": BACKEND}

STATEMENTS = {
    "states": ("counties_gpkg",
               "SELECT substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM counties GROUP BY st"),
    "nation": ("counties_gpkg", "SELECT ST_Union(geom) AS geom FROM counties"),
    "nc_fips": ("nc_gpkg",
                "SELECT substr(FIPS, 1, 4) AS k, ST_Union(geom) AS geom FROM nc GROUP BY k"),
    "nybb": ("nybb_gpkg", "SELECT ST_Union(geom) AS geom FROM nybb"),
}


def _path(request, fixture):
    return request.getfixturevalue(fixture)


def _keys(f):
    return tuple(sorted(f.fields.items()))


def _agree(got, ref, label):
    assert got["features"] is not None, got["errors"].errors
    assert ref["features"] is not None, ref["errors"].errors
    assert [_keys(f) for f in got["features"]] == [_keys(f) for f in ref["features"]], label
    for a, b in zip(got["features"], ref["features"]):
        if b.geom is None:
            assert a.geom is None, "%s %s: NULL in GEOS, not here" % (label, _keys(a))
            continue
        assert a.geom is not None, "%s %s: NULL" % (label, _keys(a))
        assert ogr.GT_Flatten(a.geom.GetGeometryType()) == ogr.wkbMultiPolygon, label
        assert vu.quiet(a.geom.IsValid), "%s %s: invalid" % (label, _keys(a))
        area = max(b.geom.GetArea(), 1e-300)
        d = vu.Canon.symdiff_area(a.geom, b.geom) / area
        assert d <= REL_TOL, "%s %s: relative symmetric difference %g" % (label, _keys(a), d)


@pytest.mark.parametrize("name", sorted(STATEMENTS))
def test_equals_geos(request, name):
    fixture, sql = STATEMENTS[name]
    path = _path(request, fixture)
    got = vu.run_vsgpu(path, sql)
    ref = vu.run_vsgpu(path, sql, config=GEOS_ONLY)
    _agree(got, ref, name)


def _profile_rows(tmp_path, path, sql, config):
    trace = tmp_path / ("trace-%s.json" % uuid.uuid4().hex)
    cfg = dict(config)
    cfg["VSGPU_PROFILE"] = str(trace)
    res = vu.run_vsgpu(path, sql, config=cfg)
    import json
    stages = json.loads(trace.read_text())["stages"]
    return res, {s["stage"]: s for s in stages}


OLD_WAY = {"VSGPU_REPAIR_CLUSTERS": "NO"}


def test_counties_settled_with_the_repairs_joined_to_their_neighbours(tmp_path, counties_gpkg):
    """The counties are a coverage but for 22 counties the reader repairs
    (MakeValid); the repairs that move an edge (no longer fitting their
    neighbours) are each unioned by GEOS with their same-state neighbours
    first (stage repair_clusters, dissolve/clusters.h), and the coverage
    union then settles all 56 states whole: no probe, no merge, nothing in
    GEOS's merge tree (stages union and merge)."""
    res, stages = _profile_rows(tmp_path, counties_gpkg, STATEMENTS["states"][1], {})
    assert "group_union" in stages and stages["group_union"]["device"] == "CPU"
    assert stages["group_union"]["rows_out"] == 56, stages
    assert stages["repair_clusters"]["rows_out"] >= 4, stages      # clusters
    assert stages["repair_clusters"]["rows_in"] > stages["repair_clusters"]["rows_out"], stages
    assert "aside_probes" not in stages and "merge_aside" not in stages, stages
    assert all(stages[s]["rows_in"] == 0 for s in ("union", "merge") if s in stages), stages
    assert all(f.geom is not None for f in res["features"])
    assert int(res["metadata"]["COVERAGE_UNION_GROUPS"]) >= 56


def test_counties_settled_with_the_repaired_counties_aside(tmp_path, counties_gpkg):
    """VSGPU_REPAIR_CLUSTERS=NO, the way before clusters (and the way of a
    group the clusters do not settle): the coverage union settles every
    state with the repairs that do not fit set aside (and, where that
    leaves a hole it cannot prove, their neighbours too); GEOS merges them
    into the outline (stage merge_aside). None is lost, none goes to the
    merge tree (stages union and merge)."""
    res, stages = _profile_rows(tmp_path, counties_gpkg, STATEMENTS["states"][1], OLD_WAY)
    assert "group_union" in stages and stages["group_union"]["device"] == "CPU"
    settled = stages["group_union"]["rows_out"]
    assert settled == 56, settled
    assert "repair_clusters" not in stages, stages
    assert 4 <= stages["merge_aside"]["rows_out"] <= stages["merge_aside"]["rows_in"], stages
    assert all(stages[s]["rows_in"] == 0 for s in ("union", "merge") if s in stages), stages
    assert all(f.geom is not None for f in res["features"])
    assert int(res["metadata"]["COVERAGE_UNION_GROUPS"]) >= settled
    # GEOS only: no group_union stage at all
    _, stages = _profile_rows(tmp_path, counties_gpkg, STATEMENTS["states"][1], GEOS_ONLY)
    assert "group_union" not in stages


@pytest.mark.parametrize("statement", ["states", "nation"])
def test_members_aside_equal_geos(tmp_path, counties_gpkg, statement):
    """Members aside, the answer is GEOS's group for group too (clusters:
    test_equals_geos)."""
    sql = STATEMENTS[statement][1]
    ref = vu.run_vsgpu(counties_gpkg, sql, config=GEOS_ONLY)
    _agree(vu.run_vsgpu(counties_gpkg, sql, config=OLD_WAY), ref, statement + ", members aside")


def test_nation_settled_with_the_repaired_counties_joined(tmp_path, counties_gpkg):
    """Counties into one nation: the group has 22 repaired members; the
    ones that do not fit are joined to their neighbours (clusters) and the
    coverage union settles the nation whole: no probe, no merge."""
    _, stages = _profile_rows(tmp_path, counties_gpkg, STATEMENTS["nation"][1], {})
    assert stages["group_union"]["rows_out"] == 1, stages
    assert stages["repair_clusters"]["rows_out"] >= 1, stages
    assert "aside_probes" not in stages and "merge_aside" not in stages, stages
    assert all(stages[s]["rows_in"] == 0 for s in ("chunk_union", "merge") if s in stages), stages


def test_nation_settled_with_the_repaired_counties_aside(tmp_path, counties_gpkg):
    """VSGPU_REPAIR_CLUSTERS=NO: the nation goes straight to the pass that
    sets the repairs and their neighbours aside; the coverage union settles
    the rest, GEOS merges the members set aside."""
    _, stages = _profile_rows(tmp_path, counties_gpkg, STATEMENTS["nation"][1], OLD_WAY)
    assert stages["group_union"]["rows_out"] == 1, stages
    assert stages["merge_aside"]["rows_out"] == 1, stages
    assert all(stages[s]["rows_in"] == 0 for s in ("chunk_union", "merge") if s in stages), stages


def _translated(g, dx, dy):
    """g (a MultiPolygon), every vertex moved by (dx, dy), in place."""
    for i in range(g.GetGeometryCount()):
        poly = g.GetGeometryRef(i)
        for j in range(poly.GetGeometryCount()):
            ring = poly.GetGeometryRef(j)
            for n, (x, y) in enumerate(ring.GetPoints()):
                ring.SetPoint_2D(n, x + dx, y + dy)
    return g


def _tiled(src_path, layer, k):
    """The layer's features in k x k translated copies (offsets 1.02 x the
    layer's extent, as bench/workloads/tiled.py), with a field tile: the
    copies' coordinates round differently, so their repairs differ too."""
    ds = ogr.Open(src_path)
    lyr = ds.GetLayer(layer)
    xmin, xmax, ymin, ymax = lyr.GetExtent()
    dx, dy = 1.02 * (xmax - xmin), 1.02 * (ymax - ymin)
    rows = []
    for t in range(k * k):
        ox, oy = (t % k) * dx, (t // k) * dy
        lyr.ResetReading()
        for f in lyr:
            g = f.GetGeometryRef()
            if g is None or g.IsEmpty():
                continue
            g = _translated(ogr.ForceToMultiPolygon(g.Clone()), ox, oy)
            rows.append((g, {"tile": t, "id": f.GetField("id")}))
    path = "/vsimem/tiled_%s.gpkg" % uuid.uuid4().hex
    vu.create_gpkg(path, {"counties": dict(geom_type=ogr.wkbMultiPolygon,
                                           fields=[("tile", ogr.OFTInteger),
                                                   ("id", ogr.OFTString)],
                                           rows=rows, srs=lyr.GetSpatialRef())})
    return path


def test_gpu_merges_the_members_aside_with_its_unions(tmp_path, counties_gpkg):
    """VSGPU_REPAIR_CLUSTERS=NO (the way of the groups clusters do not
    settle). On the GPU pipeline the members set aside are first merged into
    their group's outline by the GPU's unions (stage merge_union: the
    overlap union nodes each outline with them); GEOS merges only the
    groups it hands back and those with members aside because a probe
    failed (stage merge_aside). Every group the CPU engine merges is merged
    one way or the other, none goes to the merge tree, and the answer is
    the CPU engine's group for group. On 2 x 2 copies of the counties by
    (tile, state), some merges settle on the GPU (the copies' repairs
    differ from the originals': on the counties alone every group with a
    repair that does not fit has a failed probe)."""
    path = _tiled(counties_gpkg, "counties", 2)
    sql = ("SELECT tile, substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM counties "
           "GROUP BY tile, st")
    try:
        res, stages = _profile_rows(tmp_path, path, sql, dict(GPU, **OLD_WAY))
        cpu_res, cpu = _profile_rows(tmp_path, path, sql,
                                     dict(OLD_WAY, VSGPU_EXECUTION_MODE="CPU"))
        # clusters (the default): nothing set aside, nothing merged, on either engine
        new_res, new = _profile_rows(tmp_path, path, sql, GPU)
        new_cpu_res, new_cpu = _profile_rows(tmp_path, path, sql, {"VSGPU_EXECUTION_MODE": "CPU"})
    finally:
        gdal.Unlink(path)
    _agree(res, cpu_res, "tiled counties by (tile, state)")
    _agree(new_res, new_cpu_res, "tiled counties by (tile, state), clusters")
    _agree(new_res, cpu_res, "tiled counties by (tile, state), clusters against aside")
    for st in (new, new_cpu):
        assert st["repair_clusters"]["rows_out"] >= 4, st
        assert not any(k in st for k in ("aside_probes", "merge_union", "merge_aside")), st
    assert "merge_union" not in cpu, cpu   # the CPU engine merges with GEOS
    merges = cpu["merge_aside"]["rows_in"]
    merge = stages["merge_union"]
    assert merge["device"] == "GPU" and merge["rows_out"] >= 1, merge
    geos = stages["merge_aside"]["rows_in"] if "merge_aside" in stages else 0
    assert merge["rows_out"] + geos == merges, (stages, merges)
    assert all(stages[s]["rows_in"] == 0 for s in ("union", "merge") if s in stages), stages


@pytest.mark.parametrize("name", ["states", "nation", "nc_fips"])
def test_gpu_pipeline_same_groups_and_counts(request, tmp_path, name):
    fixture, sql = STATEMENTS[name]
    path = _path(request, fixture)
    out_gpu = tmp_path / "gpu.geojson"
    p = vu.run_cli(["ogr2ogr", "-f", "GeoJSON", str(out_gpu), "VSGPU:" + path, "-dialect",
                    "VSGPU", "-sql", sql], request.getfixturevalue("plugin_dir"), config=GPU)
    assert p.returncode == 0, p.stderr
    cpu = vu.run_vsgpu(path, sql, config={"VSGPU_EXECUTION_MODE": "CPU"})
    res = vu.run_vsgpu(path, sql, config=GPU)
    _agree(res, cpu, name)
    md = res["metadata"]
    assert md["SELECTED_RUNTIME"] == "GPU"
    groups = sum(1 for f in res["features"] if f.geom is not None)
    gpu, back = int(md["GPU_GROUPS"]), int(md["GPU_GROUPS_RERUN_ON_CPU"])
    assert gpu > 0 and gpu + back == groups, md
    if back:
        assert int(md["GPU_ROWS_RERUN_ON_CPU"]) > 0
        assert any("dissolved by GEOS" in w for w in res["errors"].warnings), \
            res["errors"].warnings


def _with_shifted_copies(src_path, layer, shift):
    """Every feature of layer and the same feature translated by shift x its
    own box size on each axis, in one layer of a new GeoPackage: members of
    one group overlap, cross, and share vertices."""
    ds = ogr.Open(src_path)
    lyr = ds.GetLayer(layer)
    rows = []
    for f in lyr:
        g = f.GetGeometryRef()
        if g is None or g.IsEmpty():
            continue
        key = f.GetField("FIPS")[:4]
        rows.append((g.Clone(), {"k": key}))
        env = g.GetEnvelope()
        dx, dy = shift * (env[1] - env[0]), shift * (env[3] - env[2])
        rows.append((_translated(g.Clone(), dx, dy), {"k": key}))
    path = "/vsimem/overlapping_%s.gpkg" % uuid.uuid4().hex
    vu.create_gpkg(path, {"m": dict(geom_type=ogr.wkbMultiPolygon,
                                    fields=[("k", ogr.OFTString)], rows=rows,
                                    srs=lyr.GetSpatialRef())})
    return path


def test_gpu_overlapping_groups_settled_by_the_overlap_union(nc_gpkg):
    """Groups whose members overlap are no coverage: on the GPU pipeline the
    overlap union settles them (GPU_GROUPS), and each equals GEOS's union
    (the CPU engine's answer)."""
    path = _with_shifted_copies(nc_gpkg, "nc", 0.3)
    sql = "SELECT k, ST_Union(geom) AS geom FROM m GROUP BY k"
    try:
        cpu = vu.run_vsgpu(path, sql, config={"VSGPU_EXECUTION_MODE": "CPU"})
        res = vu.run_vsgpu(path, sql, config=GPU)
    finally:
        ogr.GetDriverByName("GPKG").DeleteDataSource(path)
    _agree(res, cpu, "overlapping nc")
    md = res["metadata"]
    groups = len(res["features"])
    gpu, back = int(md["GPU_GROUPS"]), int(md["GPU_GROUPS_RERUN_ON_CPU"])
    assert gpu + back == groups, md
    # the coverage union alone settles none of these (every group's
    # members overlap); the overlap union nearly all
    assert gpu >= 0.9 * groups, md


def test_overlap_batch_halved_when_the_pool_is_short(nc_gpkg):
    """The overlap union takes as many groups a call as the pool holds
    (pipeline/coverage.c); a call the pool cannot hold is halved by groups
    and each half tried again, so a pool three quarters of the one-call
    peak still settles every group on the GPU, within the limit, with
    GEOS's answers (before, the whole call went to GEOS)."""
    path = _with_shifted_copies(nc_gpkg, "nc", 0.3)
    sql = "SELECT k, ST_Union(geom) AS geom FROM m GROUP BY k"
    try:
        cpu = vu.run_vsgpu(path, sql, config={"VSGPU_EXECUTION_MODE": "CPU"})
        free = vu.run_vsgpu(path, sql, config=GPU)
        peak = int(free["metadata"]["GPU_POOL_PEAK_BYTES"])
        limit = peak * 3 // 4
        res = vu.run_vsgpu(path, sql, config=dict(GPU, VSGPU_GPU_POOL_LIMIT=str(limit)))
    finally:
        ogr.GetDriverByName("GPKG").DeleteDataSource(path)
    _agree(free, cpu, "overlapping nc, no limit")
    _agree(res, cpu, "overlapping nc, a pool of %d bytes" % limit)
    groups = len(res["features"])
    for r in (free, res):
        md = r["metadata"]
        assert int(md["GPU_GROUPS"]) == groups and int(md["GPU_GROUPS_RERUN_ON_CPU"]) == 0, md
    assert int(res["metadata"]["GPU_POOL_PEAK_BYTES"]) <= limit, res["metadata"]
    assert not [m for m in res["errors"].warnings if "re-run" in m], res["errors"].warnings


def test_gpu_member_sharing_an_edge_the_same_way(tmp_path):
    """A large member and a small one inside it that share an edge in the
    same direction: the coverage union hands the group on (its rings then
    cost nothing: the rest of the large ring is a chain that ends), and the
    answer is GEOS's union, the large member."""
    k = 20000
    ring = ", ".join("%.17g %.17g" % (1000 * math.cos(2 * math.pi * i / k),
                                      1000 * math.sin(2 * math.pi * i / k)) for i in range(k))
    x1, y1 = 1000 * math.cos(2 * math.pi / k), 1000 * math.sin(2 * math.pi / k)
    rows = [(ogr.CreateGeometryFromWkt("MULTIPOLYGON (((%s, 1000 0)))" % ring), {"k": "a"}),
            (ogr.CreateGeometryFromWkt("MULTIPOLYGON (((1000 0, %.17g %.17g, 0 0, 1000 0)))"
                                       % (x1, y1)), {"k": "a"}),
            (ogr.CreateGeometryFromWkt("MULTIPOLYGON (((2000 0, 2001 0, 2001 1, 2000 1, "
                                       "2000 0)))"), {"k": "b"})]
    path = str(tmp_path / "shared_edge.gpkg")
    vu.create_gpkg(path, {"m": dict(geom_type=ogr.wkbMultiPolygon,
                                    fields=[("k", ogr.OFTString)], rows=rows)})
    sql = "SELECT k, ST_Union(geom) AS geom FROM m GROUP BY k"
    cpu = vu.run_vsgpu(path, sql, config={"VSGPU_EXECUTION_MODE": "CPU"})
    res = vu.run_vsgpu(path, sql, config=dict(GPU, VSGPU_GPU_MIN_ROWS="0"))
    _agree(res, cpu, "shared edge")
    md = res["metadata"]
    assert int(md["GPU_GROUPS"]) + int(md["GPU_GROUPS_RERUN_ON_CPU"]) == 2, md
    assert int(md["GPU_POOL_PEAK_BYTES"]) < 64 << 20, md


@pytest.mark.parametrize("screen", ["NO", "YES"])
def test_gpu_failure_in_auto_counts_every_group(nc_gpkg, screen):
    """A pool too small for the first allocation, in AUTO: the validity
    screen (YES) or the group union (NO) fails, and every row and every
    group of the dissolve goes to the CPU engine, counted, with the reason
    in the one warning; the answer is the CPU engine's."""
    sql = STATEMENTS["nc_fips"][1]
    cpu = vu.run_vsgpu(nc_gpkg, sql, config={"VSGPU_EXECUTION_MODE": "CPU"})
    res = vu.run_vsgpu(nc_gpkg, sql, config=dict(GPU, VSGPU_EXECUTION_MODE="AUTO",
                                                 VSGPU_GPU_MIN_ROWS="0",
                                                 VSGPU_GPU_POOL_LIMIT="1K",
                                                 VSGPU_VALID_SCREEN=screen))
    _agree(res, cpu, "nc_fips, pool of 1K, screen %s" % screen)
    md = res["metadata"]
    assert md["SELECTED_RUNTIME"] == "GPU", md
    assert int(md["GPU_GROUPS"]) == 0, md
    assert int(md["GPU_GROUPS_RERUN_ON_CPU"]) == len(res["features"]) > 1, md
    assert int(md["GPU_ROWS_RERUN_ON_CPU"]) == int(md["INPUT_FEATURES"]) > 0, md
    warnings = [m for m in res["errors"].warnings if "re-run on the CPU engine" in m]
    assert len(warnings) == 1, res["errors"].errors
    assert "failed" in warnings[0], warnings


# ---- the GEOS XML suite's polygon operands, unioned as one group ----------
CASES = [c for c in geos_xml.load_cases() if c.is_intersection]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
@pytest.mark.parametrize("mode", ["CPU", "GPU"])
def test_xml_operands_union(case, mode):
    a = geos_xml.geometry_from_text(case.a)
    b = geos_xml.geometry_from_text(case.b)
    path = "/vsimem/cov_union_%s.gpkg" % uuid.uuid4().hex
    vu.create_gpkg(path, {"ab": dict(rows=[(a, {}), (b, {})])})
    try:
        config = GPU if mode == "GPU" else {"VSGPU_EXECUTION_MODE": "CPU"}
        res = vu.run_vsgpu(path, "SELECT ST_Union(geom) AS geom FROM ab", config=config)
        ref = vu.run_vsgpu(path, "SELECT ST_Union(geom) AS geom FROM ab",
                           config=dict(GEOS_ONLY, VSGPU_EXECUTION_MODE="CPU"))
    finally:
        ogr.GetDriverByName("GPKG").DeleteDataSource(path)
    _agree(res, ref, case.id)
