"""The benchmark workloads (bench/workloads/generate.py) and the C measuring
tools (bench/tools: vsgbench_measure, vsgbench_algebra).

The generator writes GeoPackages with sqlite3 alone (the GPU host has no
GDAL Python bindings), so GDAL itself checks here what it wrote: the files
open, hold the counts the manifest promises, have a working R-tree index and
valid polygons, and the tessellations are coverages of their square. Two
runs with the same seed give the same bytes. The tools run on the generated
files and are checked against GDAL's Python API (through ctest, whose
environment gives VSGPU_BUILD_DIR; skipped with the reason otherwise).
"""
import hashlib
import json
import os
import pathlib
import subprocess
import sys

import pytest
from osgeo import ogr

pytest.importorskip("numpy", reason="the workload generators need numpy")
pytest.importorskip("scipy", reason="the workload generators need scipy "
                    "(apt-get install python3-scipy)")

REPO = pathlib.Path(__file__).resolve().parents[2]
GENERATE = REPO / "bench" / "workloads" / "generate.py"
SIDE = 100000.0           # the square of the generated workloads
SMOKE_VERTICES = 5000     # the smoke scale's budget (input + method)
SYNTHETIC = ["overlay", "clip_rect", "clip_layer", "dissolve_coverage",
             "dissolve_overlap"]
KEYS = {"name", "op", "input", "method", "rect", "group_by", "group_expr",
        "input_features", "input_vertices", "method_features",
        "method_vertices", "description"}


def _generate(out, scale="smoke", seed=None, only=None, tiled_vertices=None):
    cmd = [sys.executable, str(GENERATE), "--scale", scale, "--out", str(out),
           "--quiet"]
    if seed is not None:
        cmd += ["--seed", str(seed)]
    if only:
        cmd += ["--only", only]
    if tiled_vertices:
        cmd += ["--tiled-vertices", str(tiled_vertices)]
    subprocess.run(cmd, check=True, timeout=300)
    with open(os.path.join(out, "manifest.json")) as f:
        return json.load(f)


def _digest(path):
    return hashlib.sha256(pathlib.Path(path).read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def smoke(tmp_path_factory):
    out = tmp_path_factory.mktemp("smoke")
    return out, _generate(out)


@pytest.fixture(scope="module")
def real(tmp_path_factory):
    out = tmp_path_factory.mktemp("real")
    return out, _generate(out, scale="real")


def _layers(w):
    yield "input", w["input"]
    if w["method"]:
        yield "method", w["method"]


def _open_layer(ref):
    ds = ogr.Open(ref["path"])
    assert ds is not None, ref["path"]
    lyr = ds.GetLayerByName(ref["layer"])
    assert lyr is not None, ref
    return ds, lyr


def _vertices(g):
    n = g.GetGeometryCount()
    if n == 0:
        return g.GetPointCount()
    return sum(_vertices(g.GetGeometryRef(i)) for i in range(n))


def _counts(ref):
    ds, lyr = _open_layer(ref)
    nf = nv = 0
    for f in lyr:
        nf += 1
        g = f.GetGeometryRef()
        nv += _vertices(g) if g is not None else 0
    return nf, nv


###############################################################################
# the manifest and the files


def test_manifest_lists_every_workload_with_the_contract_keys(smoke):
    out, m = smoke
    assert m["scale"] == "smoke" and m["seed"] == 42
    assert [w["name"] for w in m["workloads"]] == SYNTHETIC
    ops = {w["name"]: w["op"] for w in m["workloads"]}
    assert ops == {"overlay": "intersection", "clip_rect": "clip_rect",
                   "clip_layer": "clip", "dissolve_coverage": "dissolve",
                   "dissolve_overlap": "dissolve"}
    for w in m["workloads"]:
        assert set(w) == KEYS, w["name"]
        assert w["input"]["path"] == str(out / (w["name"] + ".gpkg"))
        assert (w["method"] is not None) == (w["op"] in ("intersection", "clip"))
        assert (w["rect"] is not None) == (w["op"] == "clip_rect")
        assert (w["group_by"] is not None) == (w["op"] == "dissolve")


def test_manifest_counts_are_what_gdal_reads(smoke):
    _, m = smoke
    for w in m["workloads"]:
        for role, ref in _layers(w):
            assert _counts(ref) == (w[role + "_features"], w[role + "_vertices"]), \
                (w["name"], role)


def test_smoke_scale_is_about_its_vertex_budget(smoke):
    _, m = smoke
    for w in m["workloads"]:
        total = w["input_vertices"] + w["method_vertices"]
        assert 0.8 * SMOKE_VERTICES <= total <= 1.2 * SMOKE_VERTICES, (w["name"], total)


def test_every_layer_has_a_working_spatial_index(smoke):
    _, m = smoke
    for w in m["workloads"]:
        for _, ref in _layers(w):
            ds, lyr = _open_layer(ref)
            sql = "SELECT HasSpatialIndex('%s', 'geom')" % ref["layer"]
            res = ds.ExecuteSQL(sql)
            assert res.GetNextFeature().GetField(0) == 1, (w["name"], ref)
            ds.ReleaseResultSet(res)
            # the R-tree holds every feature's envelope: a direct query finds
            # (at least: its float32 boxes round outwards) what a brute-force
            # envelope test finds, and GDAL's spatial filter, which uses it,
            # returns exactly the features that intersect the rectangle
            xmin, xmax, ymin, ymax = lyr.GetExtent()
            qx0 = xmin + 0.3 * (xmax - xmin)
            qx1 = xmin + 0.45 * (xmax - xmin)
            qy0 = ymin + 0.5 * (ymax - ymin)
            qy1 = ymin + 0.7 * (ymax - ymin)
            rect = ogr.CreateGeometryFromWkt(
                "POLYGON ((%r %r,%r %r,%r %r,%r %r,%r %r))"
                % (qx0, qy0, qx1, qy0, qx1, qy1, qx0, qy1, qx0, qy0))
            by_envelope, by_geometry = set(), set()
            for f in lyr:
                g = f.GetGeometryRef()
                e = g.GetEnvelope()
                if e[0] <= qx1 and e[1] >= qx0 and e[2] <= qy1 and e[3] >= qy0:
                    by_envelope.add(f.GetFID())
                    if g.Intersects(rect):
                        by_geometry.add(f.GetFID())
            res = ds.ExecuteSQL(
                'SELECT id FROM "rtree_%s_geom" WHERE maxx >= %r AND minx <= %r '
                'AND maxy >= %r AND miny <= %r' % (ref["layer"], qx0, qx1, qy0, qy1))
            from_rtree = {f.GetField(0) for f in res}
            ds.ReleaseResultSet(res)
            assert by_envelope and from_rtree >= by_envelope, (w["name"], ref["layer"])
            assert len(from_rtree) <= len(by_envelope) + 2
            lyr.SetSpatialFilter(rect)
            got = {f.GetFID() for f in lyr}
            lyr.SetSpatialFilter(None)
            assert by_geometry and got == by_geometry, (w["name"], ref["layer"])


def test_geometries_are_valid_polygons(smoke):
    _, m = smoke
    for w in m["workloads"]:
        for _, ref in _layers(w):
            ds, lyr = _open_layer(ref)
            for f in lyr:
                g = f.GetGeometryRef()
                assert g is not None and not g.IsEmpty()
                assert g.GetGeometryType() == ogr.wkbPolygon
                assert g.IsValid(), (w["name"], ref["layer"], f.GetFID())


def _union_of_layer(ref):
    ds, lyr = _open_layer(ref)
    coll = ogr.Geometry(ogr.wkbMultiPolygon)
    total = 0.0
    for f in lyr:
        g = f.GetGeometryRef()
        total += g.GetArea()
        coll.AddGeometry(g)
    return coll.UnionCascaded(), total


def test_tessellations_are_coverages_of_the_square(smoke):
    _, m = smoke
    w = {w["name"]: w for w in m["workloads"]}
    for name, role in (("overlay", "input"), ("overlay", "method"),
                       ("clip_rect", "input"), ("clip_layer", "input"),
                       ("dissolve_coverage", "input")):
        union, total = _union_of_layer(w[name][role])
        # no overlap: the areas add up to the square; no gap: the union is
        # the square, one polygon without holes
        assert total == pytest.approx(SIDE * SIDE, rel=1e-12), (name, role)
        assert union.GetGeometryType() == ogr.wkbPolygon, (name, role)
        assert union.GetGeometryCount() == 1, (name, role)
        assert union.GetArea() == pytest.approx(SIDE * SIDE, rel=1e-12)


def test_dissolve_workloads_have_several_groups_of_several_members(smoke):
    _, m = smoke
    for w in m["workloads"]:
        if w["op"] != "dissolve":
            continue
        ds, lyr = _open_layer(w["input"])
        groups = {}
        for f in lyr:
            k = f.GetField(w["group_by"])
            groups[k] = groups.get(k, 0) + 1
        assert len(groups) >= 2, w["name"]
        assert max(groups.values()) >= 5, w["name"]


def test_clip_layer_method_is_few_large_concave_overlapping_polygons(smoke):
    _, m = smoke
    w = next(w for w in m["workloads"] if w["name"] == "clip_layer")
    ds, lyr = _open_layer(w["method"])
    geoms = [f.GetGeometryRef().Clone() for f in lyr]
    assert 4 <= len(geoms) <= 8
    assert any(g.GetGeometryCount() > 1 for g in geoms)          # a hole
    assert all(g.ConvexHull().GetArea() > g.GetArea() * 1.01 for g in geoms)
    assert any(a.Intersection(b).GetArea() > 0
               for i, a in enumerate(geoms) for b in geoms[i + 1:])   # overlaps
    square = ogr.CreateGeometryFromWkt(
        "POLYGON ((0 0,%g 0,%g %g,0 %g,0 0))" % (SIDE, SIDE, SIDE, SIDE))
    union = ogr.Geometry(ogr.wkbMultiPolygon)
    for g in geoms:
        union.AddGeometry(g)
    covered = union.UnionCascaded().Intersection(square).GetArea()
    assert 0 < covered < 0.99 * SIDE * SIDE                       # gaps


###############################################################################
# determinism


def test_same_seed_same_bytes(smoke, tmp_path):
    out, m = smoke
    again = _generate(tmp_path)
    assert [w["name"] for w in again["workloads"]] == [w["name"] for w in m["workloads"]]
    for name in SYNTHETIC:
        assert _digest(out / (name + ".gpkg")) == _digest(tmp_path / (name + ".gpkg")), name


def test_only_gives_the_same_file_and_another_seed_another(smoke, tmp_path):
    out, _ = smoke
    one = _generate(tmp_path / "only", only="clip_layer")
    assert [w["name"] for w in one["workloads"]] == ["clip_layer"]
    assert _digest(out / "clip_layer.gpkg") == _digest(tmp_path / "only" / "clip_layer.gpkg")
    _generate(tmp_path / "seed7", seed=7, only="clip_layer")
    assert _digest(out / "clip_layer.gpkg") != _digest(tmp_path / "seed7" / "clip_layer.gpkg")


###############################################################################
# the real-data group


def test_real_workloads_use_data_in_place_with_counts_gdal_agrees_with(real):
    out, m = real
    assert m["scale"] == "real"
    names = [w["name"] for w in m["workloads"]]
    assert "real_counties_x_states" in names and "real_counties_dissolve_states" in names
    data = str(REPO / "data")
    for w in m["workloads"]:
        assert set(w) == KEYS, w["name"]
        assert w["input"]["path"].startswith(data + os.sep), w["name"]
        for role, ref in _layers(w):
            assert os.path.exists(ref["path"])
            assert _counts(ref) == (w[role + "_features"], w[role + "_vertices"]), \
                (w["name"], role)
    grid = next(w for w in m["workloads"] if w["name"] == "real_nybb_x_grid")
    assert grid["method"]["path"] == str(out / "real_nybb_grid.gpkg")
    # the grid is in the boroughs' CRS
    nds, nybb = _open_layer(grid["input"])
    gds, glyr = _open_layer(grid["method"])
    assert glyr.GetSpatialRef().IsSame(nybb.GetSpatialRef())
    assert gds.ExecuteSQL("SELECT HasSpatialIndex('grid', 'geom')").GetNextFeature().GetField(0) == 1


###############################################################################
# the tiled group: real layers of data/ tiled k x k to a vertex target

TILED_VERTICES = 150000   # k = 2 everywhere: fast, and every copy offset seen
TILED = ["tiled_counties_x_states", "tiled_counties_clip_states",
         "tiled_nybb_x_grid", "tiled_world_x_grid", "tiled_nybb_clip_rect",
         "tiled_counties_clip_rect",
         "tiled_counties_by_state", "tiled_counties_nation", "tiled_overlap",
         "tiled_buffers"]


@pytest.fixture(scope="module")
def tiled(tmp_path_factory):
    out = tmp_path_factory.mktemp("tiled")
    return out, _generate(out, scale="tiled", tiled_vertices=TILED_VERTICES)


def _tiled_module():
    sys.path.insert(0, str(GENERATE.parent))
    try:
        import tiled as mod
    finally:
        sys.path.pop(0)
    return mod


def test_tiled_manifest_counts_crs_and_target(tiled):
    out, m = tiled
    assert m["scale"] == "tiled" and m["tiled_vertices"] == TILED_VERTICES
    assert [w["name"] for w in m["workloads"]] == TILED
    ops = {w["name"]: w["op"] for w in m["workloads"]}
    assert ops == {"tiled_counties_x_states": "intersection",
                   "tiled_counties_clip_states": "clip",
                   "tiled_nybb_x_grid": "intersection",
                   "tiled_world_x_grid": "intersection",
                   "tiled_nybb_clip_rect": "clip_rect",
                   "tiled_counties_clip_rect": "clip_rect",
                   "tiled_counties_by_state": "dissolve",
                   "tiled_counties_nation": "dissolve",
                   "tiled_overlap": "dissolve",
                   "tiled_buffers": "dissolve"}
    keys = {w["name"]: ([] if w["op"] != "dissolve" else w["group_lead"])
            + [w["group_expr"] or w["group_by"]] for w in m["workloads"]}
    assert keys["tiled_counties_by_state"] == ["tile", "substr(id, 1, 2)"]
    assert keys["tiled_counties_nation"] == ["tile"]
    assert keys["tiled_overlap"] == ["tile", "substr(id, 1, 2)"]
    assert keys["tiled_buffers"] == ["tile", "substr(id, 1, 2)"]
    for w in m["workloads"]:
        assert set(w) == KEYS | {"group_lead"}, w["name"]
        assert w["input"]["path"].startswith(str(out) + os.sep)
        assert (w["rect"] is not None) == (w["op"] == "clip_rect")
        assert w["input_vertices"] + w["method_vertices"] >= TILED_VERTICES
        slayer = {"overlap": "counties", "buffers": "counties"}.get(w["input"]["layer"],
                                                                   w["input"]["layer"])
        src = {"counties": "us_atlas_counties_10m.gpkg", "nybb": "nybb.gpkg",
               "world": "shared/r_spdata_more.gpkg"}[slayer]
        sds, slyr = _open_layer({"path": str(REPO / "data" / src), "layer": slayer})
        for role, ref in _layers(w):
            assert _counts(ref) == (w[role + "_features"], w[role + "_vertices"]), \
                (w["name"], role)
            ds, lyr = _open_layer(ref)
            assert lyr.GetSpatialRef().IsSame(slyr.GetSpatialRef()), (w["name"], role)
            res = ds.ExecuteSQL("SELECT HasSpatialIndex('%s', 'geom')" % ref["layer"])
            assert res.GetNextFeature().GetField(0) == 1
            ds.ReleaseResultSet(res)
    # the two counties workloads share one file, as do the two nybb ones
    w = {w["name"]: w for w in m["workloads"]}
    assert w["tiled_counties_x_states"]["input"] == w["tiled_counties_clip_states"]["input"]
    assert w["tiled_nybb_x_grid"]["input"] == w["tiled_nybb_clip_rect"]["input"]
    # the coverage dissolves read the overlays' counties (same source and k)
    assert w["tiled_counties_by_state"]["input"] == w["tiled_counties_clip_rect"]["input"]
    assert w["tiled_counties_nation"]["input"] == w["tiled_counties_clip_rect"]["input"]


def test_tiled_overlap_is_the_counties_and_their_translated_copy(tiled):
    _, m = tiled
    w = next(w for w in m["workloads"] if w["name"] == "tiled_overlap")
    assert w["input"]["layer"] == "overlap"
    c = next(w for w in m["workloads"] if w["name"] == "tiled_counties_by_state")
    ds, lyr = _open_layer(w["input"])
    feats = [(f.GetField("id"), f.GetField("tile"), f.GetField("shifted"),
              f.GetGeometryRef().Clone()) for f in lyr]
    cds, clyr = _open_layer(c["input"])
    n = 3230                              # counties of one copy
    k2 = len(feats) // (2 * n)
    assert len(feats) == 2 * n * k2 and k2 >= 1
    first = feats[:2 * n]
    assert all(t == 0 for _, t, _, _ in first)
    assert [s for _, _, s, _ in first] == [0] * n + [1] * n
    assert [i for i, _, _, _ in first[:n]] == [i for i, _, _, _ in first[n:]]
    # set 0 is the counties; set 1 the same shapes translated by (d, d),
    # d a fraction of a typical county size: the two sets overlap
    src = [f.GetGeometryRef().Clone() for f in clyr if f.GetField("tile") == 0]
    assert all(a.ExportToIsoWkb() == b.ExportToIsoWkb()
               for a, (_, _, _, b) in zip(src, first[:n]))
    e0, e1 = first[0][3].GetEnvelope(), first[n][3].GetEnvelope()
    d = e1[0] - e0[0]
    assert d > 0 and e1[2] - e0[2] == pytest.approx(d)
    # (a few source counties are invalid: GEOS answers None for those)
    inter = [a.Intersection(b) for (_, _, _, a), (_, _, _, b) in zip(first[:n], first[n:])]
    overlapping = sum(1 for g in inter if g is not None and g.GetArea() > 0)
    assert overlapping > 0.9 * n


def test_tiled_buffers_are_circles_around_the_counties_that_overlap_densely(tiled):
    _, m = tiled
    w = next(w for w in m["workloads"] if w["name"] == "tiled_buffers")
    assert w["input"]["layer"] == "buffers"
    c = next(w for w in m["workloads"] if w["name"] == "tiled_counties_by_state")
    ds, lyr = _open_layer(w["input"])
    buf = [(f.GetField("id"), f.GetField("tile"), f.GetGeometryRef().Clone()) for f in lyr]
    cds, clyr = _open_layer(c["input"])
    cty = [(f.GetField("id"), f.GetGeometryRef().Clone()) for f in clyr
           if f.GetField("tile") == 0]
    n = len(cty)
    assert len(buf) == n * (len(buf) // n) and len(buf) >= n
    first = buf[:n]
    # one 32-gon per county, same ids, around the centre of the county's box
    assert [i for i, _, _ in first] == [i for i, _ in cty]
    radii = set()
    for (_, _, b), (_, g) in zip(first, cty):
        assert b.IsValid() and b.GetGeometryRef(0).GetGeometryRef(0).GetPointCount() == 33
        e, ce = b.GetEnvelope(), g.GetEnvelope()
        assert (e[0] + e[1]) / 2 == pytest.approx((ce[0] + ce[1]) / 2, abs=1e-9)
        assert (e[2] + e[3]) / 2 == pytest.approx((ce[2] + ce[3]) / 2, abs=1e-9)
        radii.add(round((e[1] - e[0]) / 2, 9))
    assert len(radii) == 1
    # dense: a circle meets several others of its state on average
    by_state = {}
    for i, _, b in first:
        by_state.setdefault(i[:2], []).append(b)
    meets = sum(1 for bs in by_state.values() for a in bs for b in bs
                if a is not b and a.Intersects(b))
    assert meets > 3 * n


def test_tiled_copies_are_the_source_translated(tiled):
    _, m = tiled
    w = next(w for w in m["workloads"] if w["name"] == "tiled_counties_x_states")
    sds, src = _open_layer({"path": str(REPO / "data" / "us_atlas_counties_10m.gpkg"),
                            "layer": "counties"})
    geoms = [(f.GetField("id"), f.GetGeometryRef().Clone()) for f in src
             if f.GetGeometryRef() is not None and not f.GetGeometryRef().IsEmpty()]
    assert len(geoms) == 3230            # one empty county is left out
    ds, lyr = _open_layer(w["input"])
    feats = [(f.GetField("id"), f.GetField("tile"), f.GetGeometryRef().Clone())
             for f in lyr]
    n, k2 = len(geoms), len(feats) // len(geoms)
    assert len(feats) == n * k2 and k2 == 4
    for c in range(k2):
        copy = feats[c * n:(c + 1) * n]
        assert all(t == c for _, t, _ in copy)
        assert [i for i, _, _ in copy] == [i for i, _ in geoms]
        area = sum(g.GetArea() for _, _, g in copy)
        assert area == pytest.approx(sum(g.GetArea() for _, g in geoms), rel=1e-12)
    # copy 0 is the source itself, bit for bit (rings as the source has them)
    assert all(a.ExportToIsoWkb() == b.ExportToIsoWkb()
               for (_, a), (_, _, b) in zip(geoms, feats[:n]))
    # copies do not touch: copy 1 (x) and copy 2 (y) lie beyond copy 0
    e0 = [g.GetEnvelope() for _, _, g in feats[:n]]
    x1 = min(g.GetEnvelope()[0] for _, _, g in feats[n:2 * n])
    y2 = min(g.GetEnvelope()[2] for _, _, g in feats[2 * n:3 * n])
    assert x1 > max(e[1] for e in e0) and y2 > max(e[3] for e in e0)


def test_tiled_clip_rect_is_the_central_part_of_the_extent(tiled):
    _, m = tiled
    for w in m["workloads"]:
        if w["op"] != "clip_rect":
            continue
        ds, lyr = _open_layer(w["input"])
        xmin, xmax, ymin, ymax = lyr.GetExtent()
        r = w["rect"]
        assert (r[2] - r[0]) / (xmax - xmin) == pytest.approx(0.6, abs=0.01)
        assert (r[3] - r[1]) / (ymax - ymin) == pytest.approx(0.6, abs=0.01)
        assert (r[0] + r[2]) / 2 == pytest.approx((xmin + xmax) / 2, rel=1e-2)


def test_tiled_only_gives_the_same_file(tiled, tmp_path):
    out, m = tiled
    one = _generate(tmp_path, scale="tiled", only="tiled_nybb_clip_rect",
                    tiled_vertices=TILED_VERTICES)
    (w,) = one["workloads"]
    path = w["input"]["path"]
    assert _digest(path) == _digest(out / os.path.basename(path))


def test_tiled_wkb_reader_byte_orders_and_dimensions():
    mod = _tiled_module()
    wkts = ["POLYGON ((0 0,4 0,4 4,0 4,0 0),(1 1,1 2,2 2,1 1))",
            "POLYGON Z ((0 0 1,4 0 2,4 4 3,0 0 1))",
            "POLYGON M ((0 0 1,4 0 2,4 4 3,0 0 1))",
            "MULTIPOLYGON ZM (((0 0 1 2,4 0 2 3,4 4 3 4,0 0 1 2)),"
            "((5 5 0 0,6 5 0 0,6 6 0 0,5 5 0 0)))",
            "MULTIPOLYGON (EMPTY,((5 5,6 5,6 6,5 5)))"]
    for wkt in wkts:
        g = ogr.CreateGeometryFromWkt(wkt)
        want = []
        polys = [g] if ogr.GT_Flatten(g.GetGeometryType()) == ogr.wkbPolygon \
            else [g.GetGeometryRef(i) for i in range(g.GetGeometryCount())]
        for p in polys:
            if p.IsEmpty():
                continue
            want.append([[pt[:2] for pt in p.GetGeometryRef(r).GetPoints()]
                         for r in range(p.GetGeometryCount())])
        for order in (ogr.wkbNDR, ogr.wkbXDR):
            blob = b"GP\x00\x01" + b"\x00" * 4 + bytes(g.ExportToIsoWkb(order))
            got = [[[tuple(xy) for xy in ring.tolist()] for ring in part]
                   for part in mod.blob_parts(blob)]
            assert got == want, (wkt, order)
    assert mod.blob_parts(None) == []
    assert mod.blob_parts(b"GP\x00\x11" + b"\x00" * 4 +
                          bytes(ogr.CreateGeometryFromWkt("POLYGON EMPTY").ExportToIsoWkb())) == []
    with pytest.raises(ValueError):
        mod.blob_parts(b"GP\x00\x01" + b"\x00" * 4 +
                       bytes(ogr.CreateGeometryFromWkt("POINT (1 2)").ExportToIsoWkb()))


###############################################################################
# the C tools


@pytest.fixture(scope="module")
def tools():
    build = os.environ.get("VSGPU_BUILD_DIR")
    if not build:
        pytest.skip("VSGPU_BUILD_DIR is not set (ctest sets it): cannot find "
                    "the bench tools")
    paths = {t: os.path.join(build, "bench", t)
             for t in ("vsgbench_measure", "vsgbench_algebra")}
    missing = [p for p in paths.values() if not os.access(p, os.X_OK)]
    if missing:
        pytest.skip("bench tools not built (VSGPU_BUILD_BENCH=OFF?): %s" % ", ".join(missing))
    return paths


def _run_json(cmd, expect_rc=0):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert p.returncode == expect_rc, (cmd, p.returncode, p.stderr)
    return json.loads(p.stdout) if p.stdout.strip() else None


def test_measure_agrees_with_gdal(smoke, tools):
    _, m = smoke
    for w in m["workloads"]:
        for role, ref in _layers(w):
            cmd = [tools["vsgbench_measure"], ref["path"], ref["layer"]]
            if role == "input" and w["group_by"]:
                cmd += ["--group", w["group_by"]]
            got = _run_json(cmd)
            ds, lyr = _open_layer(ref)
            area = length = 0.0
            groups = {}
            for f in lyr:
                g = f.GetGeometryRef()
                area += g.GetArea()
                for i in range(g.GetGeometryCount()):
                    length += g.GetGeometryRef(i).Length()
                if "groups" in got:
                    k = f.GetFieldAsString(w["group_by"])
                    groups[k] = groups.get(k, 0.0) + g.GetArea()
            assert got["features"] == w[role + "_features"]
            assert got["vertices"] == w[role + "_vertices"]
            assert got["null_geometries"] == 0 and got["empty_geometries"] == 0
            assert got["invalid"] == 0
            assert got["geometry_types"] == {"POLYGON": got["features"]}
            assert got["total_area"] == pytest.approx(area, rel=1e-12)
            assert got["total_length"] == pytest.approx(length, rel=1e-12)
            if "groups" in got:
                assert set(got["groups"]) == set(groups)
                for k, v in groups.items():
                    assert got["groups"][k] == pytest.approx(v, rel=1e-12), k


def test_measure_counts_invalid_and_empty_real_counties(tools, counties_gpkg):
    got = _run_json([tools["vsgbench_measure"], counties_gpkg, "counties"])
    ds = ogr.Open(counties_gpkg)
    invalid = empty = 0
    for f in ds.GetLayerByName("counties"):
        g = f.GetGeometryRef()
        if g is None:
            continue
        if g.IsEmpty():
            empty += 1
        elif not g.IsValid():
            invalid += 1
    assert invalid > 0
    assert (got["invalid"], got["empty_geometries"]) == (invalid, empty)


def test_algebra_intersection_of_two_coverages_covers_the_square(smoke, tools, tmp_path):
    _, m = smoke
    w = next(w for w in m["workloads"] if w["name"] == "overlay")
    out = str(tmp_path / "x.gpkg")
    res = _run_json([tools["vsgbench_algebra"], "intersection",
                     w["input"]["path"], w["input"]["layer"],
                     w["method"]["path"], w["method"]["layer"], out])
    assert res["error"] is None and res["wall_s"] > 0
    got = _run_json([tools["vsgbench_measure"], out, "result"])
    assert got["features"] == res["features"]
    assert res["features"] >= max(w["input_features"], w["method_features"])
    assert got["total_area"] == pytest.approx(SIDE * SIDE, rel=1e-9)
    assert got["null_geometries"] == 0


def test_algebra_clip_matches_gdal_python(smoke, tools, tmp_path):
    _, m = smoke
    w = next(w for w in m["workloads"] if w["name"] == "clip_layer")
    out = str(tmp_path / "c.gpkg")
    res = _run_json([tools["vsgbench_algebra"], "clip",
                     w["input"]["path"], w["input"]["layer"],
                     w["method"]["path"], w["method"]["layer"], out,
                     "--skip-failures"])
    assert res["error"] is None
    got = _run_json([tools["vsgbench_measure"], out, "result"])
    # the same operation through the Python bindings, into memory
    ads, a = _open_layer(w["input"])
    bds, b = _open_layer(w["method"])
    mem = ogr.GetDriverByName("Memory").CreateDataSource("")
    r = mem.CreateLayer("r", None, ogr.wkbMultiPolygon)
    assert a.Clip(b, r, ["PROMOTE_TO_MULTI=YES",
                         "KEEP_LOWER_DIMENSION_GEOMETRIES=NO"]) == 0
    area = sum(f.GetGeometryRef().GetArea() for f in r)
    assert res["features"] == r.GetFeatureCount() > 0
    assert got["total_area"] == pytest.approx(area, rel=1e-12)


def test_algebra_reports_errors_as_json(smoke, tools, tmp_path):
    _, m = smoke
    w = m["workloads"][0]
    res = _run_json([tools["vsgbench_algebra"], "intersection",
                     w["input"]["path"], "no_such_layer",
                     w["input"]["path"], w["input"]["layer"],
                     str(tmp_path / "e.gpkg")], expect_rc=1)
    assert res["features"] == 0 and "not found" in res["error"]
    p = subprocess.run([tools["vsgbench_measure"], w["input"]["path"],
                        w["input"]["layer"], "--group", "no_such_field"],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 1 and "no_such_field" in p.stderr
