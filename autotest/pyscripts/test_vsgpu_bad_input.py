"""Every bad-input case of the contract (docs/semantics.md, "Bad input").

Each case is a small file made by hand (bad_inputs.py writes the bytes OGR's
writers would refuse), intersected with a clean method layer. The oracle is
GEOS through OGR on the repaired input: GEOSMakeValid (STRUCTURE) for invalid
polygons, the ring closed by repeating its first point, the curve linearised
with OGR's default step. Counters come from the result layer's VSGPU
metadata domain; the counter warning is the one CE_Warning per statement that
names every non-zero counter.
"""

import math
import os
import re
import struct

import pytest
from osgeo import gdal, ogr

import bad_inputs
import vsgpu_util as vu

pytestmark = pytest.mark.usefixtures("vsgpu_driver_registered")

METHOD_WKT = "POLYGON((-100 -100,-100 100,100 100,100 -100,-100 -100))"
CLEAN_WKT = "POLYGON((20 20,20 30,30 30,30 20,20 20))"
BOWTIE_WKT = "POLYGON((0 0,10 10,10 0,0 10,0 0))"
SELF_TOUCH_WKT = "POLYGON((0 0,10 0,5 5,10 10,0 10,5 5,0 0))"
SQL = "SELECT * FROM ST_Intersection(inp, method)"


def _add_method(path):
    ds = ogr.Open(path, update=1)
    vu.write_layer(ds, "method", ogr.wkbPolygon, [("m", ogr.OFTString)],
                   [(METHOD_WKT, {"m": "big"})])
    ds = None
    return path


def _polygon_case(vsimem_dir, wkts, geom_type=ogr.wkbPolygon):
    path = vsimem_dir + "/case.gpkg"
    rows = [(w, {"n": i}) for i, w in enumerate(wkts)]
    vu.create_gpkg(path, {
        "inp": dict(geom_type=geom_type, fields=[("n", ogr.OFTInteger)], rows=rows),
        "method": dict(geom_type=ogr.wkbPolygon, fields=[("m", ogr.OFTString)], rows=[(METHOD_WKT, {"m": "big"})]),
    })
    return path


def _expected(input_geoms):
    """[(n, geometry)] of GEOS's intersection of repaired inputs with the method."""
    method = ogr.CreateGeometryFromWkt(METHOD_WKT)
    out = []
    for n, g in input_geoms:
        r = vu.contract_geometry(g.Intersection(method), vu.max_dimension(g), False)
        if r is not None:
            out.append((n, r))
    return out


def _assert_matches(res, expected):
    got = [(f.fields["n"], f.geom) for f in res["features"]]
    assert [n for n, _ in got] == [n for n, _ in expected], (got, expected)
    for (n, g), (_, e) in zip(got, expected):
        assert vu.Canon.rel_symdiff(g, e) <= 1e-9, "n=%d: %s vs %s" % (n, g.ExportToWkt(), e.ExportToWkt())


def _counter(res, name):
    return int(res["metadata"].get(name, "0"))


def _assert_counted(res, **counters):
    for name, value in counters.items():
        assert _counter(res, name) == value, "%s=%s, expected %d; metadata %r" % (
            name, res["metadata"].get(name), value, res["metadata"])
    warnings = vu.counter_warnings(res["errors"])
    assert len(warnings) == 1, "expected one counter warning, got %r" % res["errors"].errors
    for name, value in counters.items():
        if value:
            assert vu.names_counter(warnings[0], name, value), "%s=%d not named in %r" % (
                name, value, warnings[0])


def _make_valid(wkt):
    return ogr.CreateGeometryFromWkt(wkt).MakeValid(["METHOD=STRUCTURE"])


###############################################################################
# Invalid polygons: the INVALID policy


@pytest.mark.parametrize("wkt", [BOWTIE_WKT, SELF_TOUCH_WKT], ids=["bowtie", "self_touching_ring"])
def test_invalid_polygon_repaired_by_default(vsimem_dir, wkt):
    assert not vu.quiet(ogr.CreateGeometryFromWkt(wkt).IsValid)
    path = _polygon_case(vsimem_dir, [CLEAN_WKT, wkt])
    res = vu.run_vsgpu(path, SQL)
    _assert_matches(res, _expected([(0, ogr.CreateGeometryFromWkt(CLEAN_WKT)), (1, _make_valid(wkt))]))
    _assert_counted(res, INVALID_REPAIRED=1)
    assert res["metadata"].get("COMPLETE") == "YES"
    for f in res["features"]:
        assert vu.quiet(f.geom.IsValid)


def test_clip_by_rect_reads_only_what_meets_the_rectangle(vsimem_dir):
    # A rectangle clip does not read (validate, repair) inputs whose envelope
    # misses the rectangle: they take part in nothing. The bow-tie far away
    # is therefore not counted; the same bow-tie inside is repaired.
    near = ogr.CreateGeometryFromWkt(BOWTIE_WKT)
    far_wkt = "POLYGON ((100 100,110 110,110 100,100 110,100 100))"
    assert not vu.quiet(ogr.CreateGeometryFromWkt(far_wkt).IsValid)
    path = _polygon_case(vsimem_dir, [CLEAN_WKT, far_wkt, BOWTIE_WKT])
    env = near.GetEnvelope()
    rect = (env[0] - 1, env[2] - 1, env[1] + 1, env[3] + 1)
    res = vu.run_vsgpu(path, "SELECT * FROM ST_ClipByRect(inp, %r, %r, %r, %r)" % rect)
    assert 1 not in [f.fields["n"] for f in res["features"]]
    assert 2 in [f.fields["n"] for f in res["features"]]
    _assert_counted(res, INVALID_REPAIRED=1)


@pytest.mark.parametrize("how", ["statement", "open_option", "config"])
def test_invalid_polygon_skip(vsimem_dir, how):
    path = _polygon_case(vsimem_dir, [CLEAN_WKT, BOWTIE_WKT, CLEAN_WKT])
    sql, oo, cfg = SQL, None, None
    if how == "statement":
        sql = "SELECT * FROM ST_Intersection(inp, method, 'INVALID=SKIP')"
    elif how == "open_option":
        oo = ["INVALID=SKIP"]
    else:
        cfg = {"VSGPU_INVALID": "SKIP"}
    res = vu.run_vsgpu(path, sql, open_options=oo, config=cfg)
    clean = ogr.CreateGeometryFromWkt(CLEAN_WKT)
    _assert_matches(res, _expected([(0, clean), (2, clean)]))
    _assert_counted(res, INVALID_SKIPPED=1)
    assert _counter(res, "INVALID_REPAIRED") == 0


def test_invalid_policy_open_option_wins_over_config(vsimem_dir):
    path = _polygon_case(vsimem_dir, [CLEAN_WKT, BOWTIE_WKT])
    res = vu.run_vsgpu(path, SQL, open_options=["INVALID=REPAIR"], config={"VSGPU_INVALID": "SKIP"})
    assert _counter(res, "INVALID_REPAIRED") == 1
    assert len(res["features"]) == 2


@pytest.mark.parametrize("how", ["statement", "config"])
def test_invalid_polygon_error(vsimem_dir, how):
    path = _polygon_case(vsimem_dir, [CLEAN_WKT, BOWTIE_WKT])
    sql, cfg = SQL, None
    if how == "statement":
        sql = "SELECT * FROM ST_Intersection(inp, method, 'INVALID=ERROR')"
    else:
        cfg = {"VSGPU_INVALID": "ERROR"}
    res = vu.run_vsgpu(path, sql, config=cfg)
    failures = res["errors"].failures
    assert failures, "INVALID=ERROR on a bow-tie gave no CE_Failure: %r" % res["errors"].errors
    # The message names the layer and the FID of the invalid feature (fid 2).
    assert any("inp" in m and re.search(r"\b2\b", m) for m in failures), failures
    # The statement stops: the bow-tie's pair is never produced.
    assert res["features"] is None or len(res["features"]) < 2


def test_invalid_polygon_error_ogr2ogr(tmp_path, run_cli):
    src = str(tmp_path / "in.gpkg")
    _polygon_case_disk(src, [CLEAN_WKT, BOWTIE_WKT])
    out = str(tmp_path / "out.gpkg")
    p = run_cli(["ogr2ogr", "-dialect", "VSGPU", "-sql", SQL, out, "VSGPU:" + src],
                config={"VSGPU_INVALID": "ERROR"})
    assert "ERROR" in p.stderr and "inp" in p.stderr, p.stderr


def _polygon_case_disk(path, wkts):
    rows = [(w, {"n": i}) for i, w in enumerate(wkts)]
    vu.create_gpkg(path, {
        "inp": dict(geom_type=ogr.wkbPolygon, fields=[("n", ogr.OFTInteger)], rows=rows),
        "method": dict(geom_type=ogr.wkbPolygon, fields=[("m", ogr.OFTString)], rows=[(METHOD_WKT, {"m": "big"})]),
    })
    return path


###############################################################################
# Broken files: unclosed rings, non-finite coordinates, corrupt blobs

UNCLOSED = [(0.0, 0.0), (0.0, 10.0), (10.0, 10.0), (10.0, 0.0)]
CLOSED = UNCLOSED + [UNCLOSED[0]]
CLEAN_RING = [(20.0, 20.0), (20.0, 30.0), (30.0, 30.0), (30.0, 20.0), (20.0, 20.0)]


def _ring_geom(ring):
    return ogr.CreateGeometryFromWkt("POLYGON((%s))" % ",".join("%r %r" % p for p in ring))


def test_unclosed_ring_shapefile(tmp_path):
    shp = bad_inputs.write_polygon_shapefile(str(tmp_path / "inp"), [([UNCLOSED], 0), ([CLEAN_RING], 1)])
    _add_method_shapefile(tmp_path)
    res = vu.run_vsgpu(str(tmp_path), "SELECT * FROM ST_Intersection(inp, method)")
    assert os.path.exists(shp)
    _assert_matches(res, _expected([(0, _ring_geom(CLOSED)), (1, _ring_geom(CLEAN_RING))]))
    _assert_counted(res, RINGS_CLOSED=1)


def _add_method_shapefile(tmp_path):
    ds = ogr.GetDriverByName("ESRI Shapefile").CreateDataSource(str(tmp_path / "method.shp"))
    vu.write_layer(ds, "method", ogr.wkbPolygon, [("m", ogr.OFTString)], [(METHOD_WKT, {"m": "big"})])
    ds = None


def test_unclosed_ring_wkb(vsimem_dir, tmp_path):
    path = str(tmp_path / "blobs.gpkg")
    bad_inputs.write_gpkg_with_blobs(path, "inp", [
        bad_inputs.gpkg_blob(bad_inputs.wkb_polygon([UNCLOSED])),
        bad_inputs.gpkg_blob(bad_inputs.wkb_polygon([CLEAN_RING])),
    ])
    _add_method(path)
    res = vu.run_vsgpu(path, SQL)
    _assert_matches(res, _expected([(0, _ring_geom(CLOSED)), (1, _ring_geom(CLEAN_RING))]))
    _assert_counted(res, RINGS_CLOSED=1)


def _nonfinite_blobs(value):
    ring = [(0.0, 0.0), (0.0, value), (10.0, 10.0), (10.0, 0.0), (0.0, 0.0)]
    return [
        bad_inputs.gpkg_blob(bad_inputs.wkb_polygon([ring])),
        bad_inputs.gpkg_blob(bad_inputs.wkb_polygon([CLEAN_RING])),
    ]


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf], ids=["nan", "inf", "-inf"])
@pytest.mark.parametrize("policy", ["REPAIR", "SKIP"])
def test_nonfinite_coordinates_dropped(tmp_path, value, policy):
    path = bad_inputs.write_gpkg_with_blobs(str(tmp_path / "nf.gpkg"), "inp", _nonfinite_blobs(value))
    _add_method(path)
    res = vu.run_vsgpu(path, SQL, config={"VSGPU_INVALID": policy})
    _assert_matches(res, _expected([(1, _ring_geom(CLEAN_RING))]))
    _assert_counted(res, NONFINITE_SKIPPED=1)


def test_nonfinite_coordinates_error(tmp_path):
    path = bad_inputs.write_gpkg_with_blobs(str(tmp_path / "nf.gpkg"), "inp", _nonfinite_blobs(math.nan))
    _add_method(path)
    res = vu.run_vsgpu(path, SQL, config={"VSGPU_INVALID": "ERROR"})
    assert res["errors"].failures, res["errors"].errors
    assert res["features"] is None or len(res["features"]) < 2


@pytest.mark.parametrize("blob", [
    bad_inputs.gpkg_blob(bad_inputs.wkb_polygon([CLOSED]))[:30],
    b"XXXXXXXXXXXXXXXXXX",
    bad_inputs.gpkg_blob(b"\x01\x03\x00\x00\x00\xff\xff\xff\x7f"),
], ids=["truncated", "garbage", "huge_ring_count"])
def test_corrupt_geometry_blob(tmp_path, blob):
    path = bad_inputs.write_gpkg_with_blobs(str(tmp_path / "corrupt.gpkg"), "inp", [
        blob, bad_inputs.gpkg_blob(bad_inputs.wkb_polygon([CLEAN_RING]))])
    _add_method(path)
    res = vu.run_vsgpu(path, SQL)
    assert res["features"] is not None, res["errors"].errors
    _assert_matches(res, _expected([(1, _ring_geom(CLEAN_RING))]))
    # GDAL's GeoPackage reader raises a CE_Failure and hands out the feature
    # without geometry: the plugin counts it as unreadable, never as NULL.
    assert _counter(res, "UNREADABLE_GEOMETRIES") == 1, res["metadata"]
    assert _counter(res, "NULL_GEOMETRIES") == 0, res["metadata"]
    assert res["metadata"].get("COMPLETE") == "YES"


###############################################################################
# Null, empty, curves, Z, M, huge coordinates


def test_null_and_empty_geometries(vsimem_dir):
    path = vsimem_dir + "/ne.gpkg"
    vu.create_gpkg(path, {
        "inp": dict(geom_type=ogr.wkbPolygon, fields=[("n", ogr.OFTInteger)], rows=[
            (None, {"n": 0}),
            (ogr.Geometry(ogr.wkbPolygon), {"n": 1}),
            (CLEAN_WKT, {"n": 2}),
        ]),
        "method": dict(geom_type=ogr.wkbPolygon, fields=[("m", ogr.OFTString)], rows=[
            (METHOD_WKT, {"m": "big"}), (None, {"m": "null"}), (ogr.Geometry(ogr.wkbPolygon), {"m": "empty"})]),
    })
    res = vu.run_vsgpu(path, SQL)
    _assert_matches(res, _expected([(2, ogr.CreateGeometryFromWkt(CLEAN_WKT))]))
    assert [f.fields["m"] for f in res["features"]] == ["big"]
    # One null and one empty on each side.
    _assert_counted(res, NULL_GEOMETRIES=2, EMPTY_GEOMETRIES=2)


def test_null_and_empty_stay_apart_in_clip(vsimem_dir):
    path = vsimem_dir + "/ne.gpkg"
    vu.create_gpkg(path, {
        "inp": dict(geom_type=ogr.wkbPolygon, fields=[("n", ogr.OFTInteger)], rows=[
            (None, {"n": 0}), (ogr.Geometry(ogr.wkbPolygon), {"n": 1}), (CLEAN_WKT, {"n": 2})]),
        "method": dict(geom_type=ogr.wkbPolygon, rows=[(METHOD_WKT,)]),
    })
    res = vu.run_vsgpu(path, "SELECT * FROM ST_Clip(inp, method)")
    assert [f.fields["n"] for f in res["features"]] == [2]
    assert _counter(res, "NULL_GEOMETRIES") == 1
    assert _counter(res, "EMPTY_GEOMETRIES") == 1


def test_curve_polygon_linearized(vsimem_dir):
    curve = "CURVEPOLYGON(CIRCULARSTRING(0 0,10 10,20 0,10 -10,0 0))"
    path = vsimem_dir + "/curve.gpkg"
    vu.create_gpkg(path, {
        "inp": dict(geom_type=ogr.wkbCurvePolygon, fields=[("n", ogr.OFTInteger)],
                    rows=[(curve, {"n": 0}), ("POLYGON((20 20,20 30,30 30,30 20,20 20))", {"n": 1})]),
        "method": dict(geom_type=ogr.wkbPolygon, rows=[("POLYGON((10 -50,10 50,50 50,50 -50,10 -50))",)]),
    })
    res = vu.run_vsgpu(path, SQL)
    method = ogr.CreateGeometryFromWkt("POLYGON((10 -50,10 50,50 50,50 -50,10 -50))")
    lin = ogr.CreateGeometryFromWkt(curve).GetLinearGeometry()
    expected = [(0, lin.Intersection(method)), (1, ogr.CreateGeometryFromWkt(CLEAN_WKT))]
    got = [(f.fields["n"], f.geom) for f in res["features"]]
    assert [n for n, _ in got] == [0, 1]
    for (_, g), (_, e) in zip(got, expected):
        assert not ogr.GT_IsNonLinear(g.GetGeometryType())
        assert vu.Canon.rel_symdiff(g, e) <= 1e-9
    _assert_counted(res, CURVES_LINEARIZED=1)


def test_z_is_kept(vsimem_dir):
    a = "POLYGON Z((0 0 1,0 10 1,10 10 5,10 0 5,0 0 1))"
    b = "POLYGON Z((5 -5 0,5 15 0,15 15 0,15 -5 0,5 -5 0))"
    path = vsimem_dir + "/z.gpkg"
    vu.create_gpkg(path, {
        "inp": dict(geom_type=ogr.wkbPolygon25D, fields=[("n", ogr.OFTInteger)], rows=[(a, {"n": 0})]),
        "method": dict(geom_type=ogr.wkbPolygon25D, rows=[(b,)]),
    })
    res = vu.run_vsgpu(path, SQL)
    assert res["geom_type"] == ogr.wkbPolygon25D
    assert len(res["features"]) == 1
    g = res["features"][0].geom
    assert g.Is3D()
    geos = ogr.CreateGeometryFromWkt(a).Intersection(ogr.CreateGeometryFromWkt(b))
    assert vu.Canon.rel_symdiff(g, geos) <= 1e-12
    # Z where GEOS computes it: the same vertices with the same Z.
    assert vu.Canon.exact_equal(g, geos), (g.ExportToIsoWkt(), geos.ExportToIsoWkt())


def test_m_is_dropped(vsimem_dir):
    a = "POLYGON M((0 0 1,0 10 2,10 10 3,10 0 4,0 0 1))"
    path = vsimem_dir + "/m.gpkg"
    vu.create_gpkg(path, {
        "inp": dict(geom_type=ogr.wkbPolygonM, fields=[("n", ogr.OFTInteger)], rows=[(a, {"n": 0})]),
        "method": dict(geom_type=ogr.wkbPolygon, rows=[("POLYGON((5 -5,5 15,15 15,15 -5,5 -5))",)]),
    })
    res = vu.run_vsgpu(path, SQL)
    assert len(res["features"]) == 1
    g = res["features"][0].geom
    assert not g.IsMeasured()
    assert not ogr.GT_HasM(res["geom_type"])
    e = ogr.CreateGeometryFromWkt("POLYGON((5 0,5 10,10 10,10 0,5 0))")
    assert vu.Canon.rel_symdiff(g, e) <= 1e-12


@pytest.mark.parametrize("scale,offset", [(1.0, 1e9), (1e100, 0.0), (1e-100, 0.0)],
                         ids=["offset_1e9", "huge_1e100", "tiny_1e-100"])
def test_extreme_finite_coordinates(vsimem_dir, scale, offset):
    def sq(x0, y0, s):
        pts = [(x0, y0), (x0, y0 + s), (x0 + s, y0 + s), (x0 + s, y0), (x0, y0)]
        return "POLYGON((%s))" % ",".join("%r %r" % (offset + x * scale, offset + y * scale) for x, y in pts)
    a, b = sq(0, 0, 10), sq(3.3, 4.1, 10)
    path = vsimem_dir + "/big.gpkg"
    vu.create_gpkg(path, {
        "inp": dict(geom_type=ogr.wkbPolygon, fields=[("n", ogr.OFTInteger)], rows=[(a, {"n": 0})]),
        "method": dict(geom_type=ogr.wkbPolygon, rows=[(b,)]),
    })
    res = vu.run_vsgpu(path, SQL)
    geos = ogr.CreateGeometryFromWkt(a).Intersection(ogr.CreateGeometryFromWkt(b))
    assert len(res["features"]) == 1
    assert vu.Canon.rel_symdiff(res["features"][0].geom, geos) <= 1e-9


###############################################################################
# Layers that are not polygons, empty layers


def test_lines_against_polygons_give_lines(vsimem_dir):
    path = vsimem_dir + "/lines.gpkg"
    lines = ["LINESTRING(-200 0,200 0)", "LINESTRING(500 500,600 600)", "LINESTRING(0 -150,0 150,50 150)"]
    vu.create_gpkg(path, {
        "inp": dict(geom_type=ogr.wkbLineString, fields=[("n", ogr.OFTInteger)],
                    rows=[(w, {"n": i}) for i, w in enumerate(lines)]),
        "method": dict(geom_type=ogr.wkbPolygon, fields=[("m", ogr.OFTString)], rows=[(METHOD_WKT, {"m": "big"})]),
    })
    res = vu.run_vsgpu(path, SQL)
    assert res["geom_type"] == ogr.wkbLineString
    method = ogr.CreateGeometryFromWkt(METHOD_WKT)
    expected = [(i, ogr.CreateGeometryFromWkt(w).Intersection(method)) for i, w in enumerate(lines)
                if not ogr.CreateGeometryFromWkt(w).Intersection(method).IsEmpty()]
    got = [(f.fields["n"], f.geom) for f in res["features"]]
    assert [n for n, _ in got] == [n for n, _ in expected] == [0, 2]
    for (_, g), (_, e) in zip(got, expected):
        assert vu.Canon.topo_equal_lower(g, e, 1)


def test_polygons_against_lines_give_lines(vsimem_dir):
    path = vsimem_dir + "/lines2.gpkg"
    vu.create_gpkg(path, {
        "inp": dict(geom_type=ogr.wkbPolygon, fields=[("n", ogr.OFTInteger)], rows=[(METHOD_WKT, {"n": 0})]),
        "method": dict(geom_type=ogr.wkbLineString, rows=[("LINESTRING(-200 0,200 0)",)]),
    })
    res = vu.run_vsgpu(path, SQL)
    assert res["geom_type"] == ogr.wkbLineString
    assert len(res["features"]) == 1
    e = ogr.CreateGeometryFromWkt("LINESTRING(-100 0,100 0)")
    assert vu.Canon.topo_equal_lower(res["features"][0].geom, e, 1)


@pytest.mark.parametrize("sql", [
    "SELECT * FROM ST_Intersection(empty_poly, method)",
    "SELECT * FROM ST_Intersection(method, empty_poly)",
    "SELECT * FROM ST_Clip(empty_poly, method)",
    "SELECT * FROM ST_ClipByRect(empty_poly, 0, 0, 1, 1)",
    "SELECT k, ST_Union(geom) AS geom FROM empty_poly GROUP BY k",
])
def test_empty_layer(vsimem_dir, sql):
    path = vsimem_dir + "/empty.gpkg"
    vu.create_gpkg(path, {
        "empty_poly": dict(geom_type=ogr.wkbPolygon, fields=[("k", ogr.OFTString)]),
        "method": dict(geom_type=ogr.wkbPolygon, fields=[("m", ogr.OFTString)], rows=[(METHOD_WKT, {"m": "big"})]),
    })
    res = vu.run_vsgpu(path, sql)
    assert res["features"] == [], res["errors"].errors
    assert res["schema"] is not None
    assert not res["errors"].failures
