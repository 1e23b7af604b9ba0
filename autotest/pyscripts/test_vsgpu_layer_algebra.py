"""GDAL's own layer-algebra expectations for Intersection and Clip, asked
through the VSGPU dialect.

The cases are those of GDAL's autotest/ogr/ogr_layer_algebra.py (two
rectangles against one, a layer against a copy of itself, polygons and lines
that only touch), re-expressed as statements. The oracle is
OGRLayer.Intersection / OGRLayer.Clip run by GDAL on the same layers, seen
through the contract's documented differences (docs/semantics.md: lower
dimension parts dropped by default, Multi promotion by the declared type).
"""

import random

import pytest
from osgeo import ogr

import vsgpu_util as vu

pytestmark = pytest.mark.usefixtures("vsgpu_driver_registered")

A_ROWS = [
    ("POLYGON((1 2, 1 3, 3 3, 3 2, 1 2))", {"a_id": 1}),
    ("POLYGON((5 2, 5 3, 7 3, 7 2, 5 2))", {"a_id": 2}),
]
B_ROWS = [("POLYGON((2 1, 2 4, 6 4, 6 1, 2 1))", {"b_name": "first"})]
D_ROWS = [
    ("POLYGON((1 2, 1 3, 3 3, 3 2, 1 2))",),
    ("POLYGON((3 2, 3 3, 4 3, 4 2, 3 2))",),
]


@pytest.fixture(scope="module")
def algebra_gpkg():
    path = "/vsimem/vsgpu_layer_algebra.gpkg"
    srs = vu.srs_from_epsg(32631)
    vu.create_gpkg(path, {
        "lyr_a": dict(geom_type=ogr.wkbPolygon, fields=[("a_id", ogr.OFTInteger)], rows=A_ROWS, srs=srs),
        "lyr_b": dict(geom_type=ogr.wkbPolygon, fields=[("b_name", ogr.OFTString)], rows=B_ROWS, srs=srs),
        "lyr_d1": dict(geom_type=ogr.wkbPolygon, rows=D_ROWS, srs=srs),
        "lyr_d2": dict(geom_type=ogr.wkbPolygon, rows=D_ROWS, srs=srs),
        "lyr_empty": dict(geom_type=ogr.wkbPolygon, fields=[("e_val", ogr.OFTReal)], srs=srs),
        # Same field names on both sides: the collision rules.
        "parcels": dict(geom_type=ogr.wkbPolygon,
                        fields=[("id", ogr.OFTInteger), ("name", ogr.OFTString), ("area_ha", ogr.OFTReal)],
                        rows=[("POLYGON((0 0,0 10,10 10,10 0,0 0))", {"id": 1, "name": "p1", "area_ha": 1.5}),
                              ("POLYGON((10 0,10 10,20 10,20 0,10 0))", {"id": 2, "name": "p2", "area_ha": 2.5})],
                        srs=srs),
        "zones": dict(geom_type=ogr.wkbPolygon,
                      fields=[("id", ogr.OFTInteger), ("zone", ogr.OFTString), ("name", ogr.OFTString)],
                      rows=[("POLYGON((5 5,5 15,15 15,15 5,5 5))", {"id": 10, "zone": "R1", "name": "z1"}),
                            ("POLYGON((-5 -5,-5 3,25 3,25 -5,-5 -5))", {"id": 20, "zone": "C2", "name": "z2"})],
                      srs=srs),
        # The KEEP_LOWER_DIMENSION_GEOMETRIES case: features that only touch.
        "touch_1": dict(rows=[("POLYGON((140 360,140 480,220 480,220 360,140 360))",),
                              ("LINESTRING(0 0,1 0)",)], srs=srs),
        "touch_2": dict(rows=[("POLYGON((220 260,220 360,300 360,300 260,220 260))",),
                              ("LINESTRING(1 0,2 0)",)], srs=srs),
    })
    yield path
    ogr.GetDriverByName("GPKG").DeleteDataSource(path)


@pytest.fixture(scope="module")
def grid_gpkg():
    """Seeded random squares: several method features per input feature."""
    rng = random.Random(20240611)
    path = "/vsimem/vsgpu_layer_algebra_grid.gpkg"

    def squares(n, prefix):
        rows = []
        for i in range(n):
            x, y, s = rng.uniform(0, 100), rng.uniform(0, 100), rng.uniform(5, 30)
            rows.append(("POLYGON((%r %r,%r %r,%r %r,%r %r,%r %r))" % (
                x, y, x, y + s, x + s, y + s, x + s, y, x, y), {"k": "%s%03d" % (prefix, i), "v": i * 1.25}))
        return rows

    fields = [("k", ogr.OFTString), ("v", ogr.OFTReal)]
    vu.create_gpkg(path, {
        "sq_in": dict(geom_type=ogr.wkbPolygon, fields=fields, rows=squares(60, "i")),
        "sq_method": dict(geom_type=ogr.wkbPolygon, fields=fields, rows=squares(45, "m")),
    })
    yield path
    ogr.GetDriverByName("GPKG").DeleteDataSource(path)


def oracle(path, op, input_name, method_name, options=(), dim=2, keep_lower=False, promote=False):
    """OGRLayer.<op> on the same layers, then the contract's view of it."""
    ds = ogr.Open(path)
    opts = [o for o in options if not o.startswith("KEEP_LOWER_DIMENSION_GEOMETRIES")]
    opts.append("KEEP_LOWER_DIMENSION_GEOMETRIES=YES")
    feats, names = vu.gdal_layer_algebra(op, ds.GetLayer(input_name), ds.GetLayer(method_name), opts)
    out = []
    for f in feats:
        g = f.geom if keep_lower else vu.contract_geometry(f.geom, dim, promote)
        if g is not None:
            out.append(vu.Feature(f.fid, f.fields, g))
    return out, names


def field_types(res):
    return [(s[0], s[1]) for s in res["schema"]]


def oracle_field_types(path, names, input_name, method_name):
    """Field types of the oracle's output, matched by position."""
    ds = ogr.Open(path)
    types = []
    for lname in (input_name, method_name):
        if lname is None:
            continue
        defn = ds.GetLayer(lname).GetLayerDefn()
        types += [defn.GetFieldDefn(i).GetType() for i in range(defn.GetFieldCount())]
    return list(zip(names, types[: len(names)]))


###############################################################################
# Intersection


def test_intersection_two_rectangles_match_gdal(algebra_gpkg):
    res = vu.run_vsgpu(algebra_gpkg, "SELECT * FROM ST_Intersection(lyr_a, lyr_b)")
    assert res["features"] is not None, res["errors"]
    expected, names = oracle(algebra_gpkg, "Intersection", "lyr_a", "lyr_b")
    assert len(expected) == 2
    assert field_types(res) == oracle_field_types(algebra_gpkg, names, "lyr_a", "lyr_b")
    vu.assert_same_features(res["features"], expected, label="lyr_a x lyr_b")


def test_intersection_layer_type_and_crs(algebra_gpkg):
    res = vu.run_vsgpu(algebra_gpkg, "SELECT * FROM ST_Intersection(lyr_a, lyr_b)")
    assert res["geom_type"] == ogr.wkbPolygon
    assert res["srs"] is not None
    assert res["srs"].GetAuthorityCode(None) == "32631"
    assert [f.fid for f in res["features"]] == list(range(len(res["features"])))


def test_intersection_promote_to_multi_statement_option(algebra_gpkg):
    res = vu.run_vsgpu(algebra_gpkg,
                       "SELECT * FROM ST_Intersection(lyr_a, lyr_b, 'PROMOTE_TO_MULTI=YES')")
    expected, _ = oracle(algebra_gpkg, "Intersection", "lyr_a", "lyr_b",
                         ["PROMOTE_TO_MULTI=YES"], promote=True)
    assert res["geom_type"] == ogr.wkbMultiPolygon
    assert all(f.geom.GetGeometryType() == ogr.wkbMultiPolygon for f in expected)
    vu.assert_same_features(res["features"], expected, label="promoted")


def test_intersection_promote_to_multi_open_option(algebra_gpkg):
    res = vu.run_vsgpu(algebra_gpkg, "SELECT * FROM ST_Intersection(lyr_a, lyr_b)",
                       open_options=["PROMOTE_TO_MULTI=YES"])
    expected, _ = oracle(algebra_gpkg, "Intersection", "lyr_a", "lyr_b",
                         ["PROMOTE_TO_MULTI=YES"], promote=True)
    assert res["geom_type"] == ogr.wkbMultiPolygon
    vu.assert_same_features(res["features"], expected, label="promoted by -oo")


def test_intersection_statement_option_wins_over_open_option(algebra_gpkg):
    res = vu.run_vsgpu(algebra_gpkg,
                       "SELECT * FROM ST_Intersection(lyr_a, lyr_b, 'PROMOTE_TO_MULTI=NO')",
                       open_options=["PROMOTE_TO_MULTI=YES"])
    expected, _ = oracle(algebra_gpkg, "Intersection", "lyr_a", "lyr_b")
    assert res["geom_type"] == ogr.wkbPolygon
    vu.assert_same_features(res["features"], expected, label="statement wins")


def test_intersection_with_itself_keeps_the_polygons(algebra_gpkg):
    # GDAL: D1.Intersection(D2, KEEP_LOWER_DIMENSION_GEOMETRIES=NO) is D1.
    res = vu.run_vsgpu(algebra_gpkg, "SELECT * FROM ST_Intersection(lyr_d1, lyr_d2)")
    expected, _ = oracle(algebra_gpkg, "Intersection", "lyr_d1", "lyr_d2")
    d1 = vu.layer_features(algebra_gpkg, "lyr_d1")
    assert len(expected) == len(d1) == 2
    vu.assert_same_features(res["features"], expected, label="d1 x d2")
    for got, src in zip(res["features"], d1):
        assert vu.Canon.exact_equal(got.geom, src.geom)
    # The two touching pairs give lines: dropped and counted.
    assert res["metadata"].get("LOWER_DIMENSION_DROPPED") == "2", res["metadata"]


def test_intersection_with_itself_keep_lower_dimension(algebra_gpkg):
    res = vu.run_vsgpu(algebra_gpkg,
                       "SELECT * FROM ST_Intersection(lyr_d1, lyr_d2, 'KEEP_LOWER_DIMENSION_GEOMETRIES=YES')")
    expected, _ = oracle(algebra_gpkg, "Intersection", "lyr_d1", "lyr_d2", keep_lower=True)
    assert len(expected) == 4
    assert res["geom_type"] == ogr.wkbUnknown
    vu.assert_same_features(res["features"], expected, label="d1 x d2 keep lower")


@pytest.mark.parametrize("keep,count", [("NO", 0), ("YES", 2)])
def test_intersection_keep_lower_dimension_geometries(algebra_gpkg, keep, count):
    sql = "SELECT * FROM ST_Intersection(touch_1, touch_2, 'KEEP_LOWER_DIMENSION_GEOMETRIES=%s')" % keep
    res = vu.run_vsgpu(algebra_gpkg, sql)
    expected, _ = oracle(algebra_gpkg, "Intersection", "touch_1", "touch_2", keep_lower=True)
    assert len(expected) == 2  # GDAL keeps the two touch points
    assert all(vu.max_dimension(f.geom) == 0 for f in expected)
    if keep == "YES":
        vu.assert_same_features(res["features"], expected, label="keep lower")
    assert len(res["features"]) == count


def test_intersection_keep_lower_dimension_open_option(algebra_gpkg):
    res = vu.run_vsgpu(algebra_gpkg, "SELECT * FROM ST_Intersection(touch_1, touch_2)",
                       open_options=["KEEP_LOWER_DIMENSION_GEOMETRIES=YES"])
    expected, _ = oracle(algebra_gpkg, "Intersection", "touch_1", "touch_2", keep_lower=True)
    vu.assert_same_features(res["features"], expected, label="keep lower -oo")


@pytest.mark.parametrize("options", [
    [],
    ["INPUT_PREFIX=in_"],
    ["METHOD_PREFIX=m_"],
    ["INPUT_PREFIX=in_", "METHOD_PREFIX=m_"],
], ids=["collisions", "input_prefix", "method_prefix", "both_prefixes"])
def test_intersection_field_names(algebra_gpkg, options):
    opts = "".join(", '%s'" % o for o in options)
    res = vu.run_vsgpu(algebra_gpkg, "SELECT * FROM ST_Intersection(parcels, zones%s)" % opts)
    expected, names = oracle(algebra_gpkg, "Intersection", "parcels", "zones", options)
    assert res["features"] is not None, res["errors"]
    assert vu.field_names_of(res) == names
    if not options:
        assert names == ["input_id", "input_name", "area_ha", "method_id", "zone", "method_name"]
    assert field_types(res) == oracle_field_types(algebra_gpkg, names, "parcels", "zones")
    vu.assert_same_features(res["features"], expected, label="parcels x zones %s" % options)


def test_intersection_prefix_open_options(algebra_gpkg):
    res = vu.run_vsgpu(algebra_gpkg, "SELECT * FROM ST_Intersection(parcels, zones)",
                       open_options=["INPUT_PREFIX=in_", "METHOD_PREFIX=m_"])
    _, names = oracle(algebra_gpkg, "Intersection", "parcels", "zones",
                      ["INPUT_PREFIX=in_", "METHOD_PREFIX=m_"])
    assert vu.field_names_of(res) == names


def test_intersection_skip_failures_accepted(algebra_gpkg):
    sql = "SELECT * FROM ST_Intersection(parcels, zones, 'SKIP_FAILURES=YES')"
    res = vu.run_vsgpu(algebra_gpkg, sql)
    expected, _ = oracle(algebra_gpkg, "Intersection", "parcels", "zones", ["SKIP_FAILURES=YES"])
    vu.assert_same_features(res["features"], expected, label="skip failures")
    assert res["metadata"].get("FAILURES_SKIPPED", "0") == "0"


def test_intersection_empty_method_layer(algebra_gpkg):
    res = vu.run_vsgpu(algebra_gpkg, "SELECT * FROM ST_Intersection(lyr_a, lyr_empty)")
    expected, names = oracle(algebra_gpkg, "Intersection", "lyr_a", "lyr_empty")
    assert expected == []
    assert res["features"] == []
    assert vu.field_names_of(res) == names == ["a_id", "e_val"]


def test_intersection_empty_input_layer(algebra_gpkg):
    res = vu.run_vsgpu(algebra_gpkg, "SELECT * FROM ST_Intersection(lyr_empty, lyr_b)")
    _, names = oracle(algebra_gpkg, "Intersection", "lyr_empty", "lyr_b")
    assert res["features"] == []
    assert vu.field_names_of(res) == names


def test_intersection_order_many_pairs(grid_gpkg):
    """Input order, then method order within an input feature (as GDAL)."""
    res = vu.run_vsgpu(grid_gpkg, "SELECT * FROM ST_Intersection(sq_in, sq_method)")
    expected, _ = oracle(grid_gpkg, "Intersection", "sq_in", "sq_method")
    assert len(expected) > 60
    vu.assert_same_features(res["features"], expected, label="squares")
    assert [f.fid for f in res["features"]] == list(range(len(expected)))


###############################################################################
# Clip


def test_clip_matches_gdal(algebra_gpkg):
    res = vu.run_vsgpu(algebra_gpkg, "SELECT * FROM ST_Clip(lyr_a, lyr_b)")
    expected, names = oracle(algebra_gpkg, "Clip", "lyr_a", "lyr_b")
    assert len(expected) == 2
    assert vu.field_names_of(res) == names == ["a_id"]
    assert field_types(res) == [("a_id", ogr.OFTInteger)]
    assert res["geom_type"] == ogr.wkbPolygon
    vu.assert_same_features(res["features"], expected, label="clip")


def test_clip_promote_to_multi(algebra_gpkg):
    res = vu.run_vsgpu(algebra_gpkg, "SELECT * FROM ST_Clip(lyr_a, lyr_b, 'PROMOTE_TO_MULTI=YES')")
    expected, _ = oracle(algebra_gpkg, "Clip", "lyr_a", "lyr_b", ["PROMOTE_TO_MULTI=YES"], promote=True)
    assert res["geom_type"] == ogr.wkbMultiPolygon
    vu.assert_same_features(res["features"], expected, label="clip promoted")


def test_clip_with_itself(algebra_gpkg):
    res = vu.run_vsgpu(algebra_gpkg, "SELECT * FROM ST_Clip(lyr_d1, lyr_d2)")
    expected, _ = oracle(algebra_gpkg, "Clip", "lyr_d1", "lyr_d2")
    vu.assert_same_features(res["features"], expected, label="clip d1 by d2")
    d1 = vu.layer_features(algebra_gpkg, "lyr_d1")
    assert len(res["features"]) == len(d1)


def test_clip_keeps_input_schema_with_collisions(algebra_gpkg):
    res = vu.run_vsgpu(algebra_gpkg, "SELECT * FROM ST_Clip(parcels, zones)")
    expected, names = oracle(algebra_gpkg, "Clip", "parcels", "zones")
    assert vu.field_names_of(res) == names == ["id", "name", "area_ha"]
    vu.assert_same_features(res["features"], expected, label="clip parcels")


def test_clip_by_empty_layer(algebra_gpkg):
    res = vu.run_vsgpu(algebra_gpkg, "SELECT * FROM ST_Clip(lyr_a, lyr_empty)")
    expected, _ = oracle(algebra_gpkg, "Clip", "lyr_a", "lyr_empty")
    assert expected == [] and res["features"] == []


def test_clip_order_many_features(grid_gpkg):
    res = vu.run_vsgpu(grid_gpkg, "SELECT * FROM ST_Clip(sq_in, sq_method)")
    expected, _ = oracle(grid_gpkg, "Clip", "sq_in", "sq_method")
    assert len(expected) > 10
    vu.assert_same_features(res["features"], expected, label="clip squares")


###############################################################################
# ClipByRect and the join form (same semantics, other spellings)


def test_clip_by_rect_matches_geos(grid_gpkg):
    xmin, ymin, xmax, ymax = 20.5, 10.25, 70.0, 55.5
    res = vu.run_vsgpu(grid_gpkg, "SELECT * FROM ST_ClipByRect(sq_in, %r, %r, %r, %r)" % (xmin, ymin, xmax, ymax))
    rect = ogr.CreateGeometryFromWkt("POLYGON((%r %r,%r %r,%r %r,%r %r,%r %r))" % (
        xmin, ymin, xmin, ymax, xmax, ymax, xmax, ymin, xmin, ymin))
    expected = []
    for f in vu.layer_features(grid_gpkg, "sq_in"):
        g = vu.contract_geometry(f.geom.Intersection(rect), 2, False)
        if g is not None:
            expected.append(vu.Feature(f.fid, f.fields, g))
    assert 0 < len(expected) < 60
    assert vu.field_names_of(res) == ["k", "v"]
    vu.assert_same_features(res["features"], expected, label="clip by rect")


def test_join_form_matches_intersection(algebra_gpkg):
    sql = ("SELECT a.name, b.zone, ST_Intersection(a.geom, b.geom) AS geom "
           "FROM parcels a JOIN zones b ON ST_Intersects(a.geom, b.geom)")
    res = vu.run_vsgpu(algebra_gpkg, sql)
    assert res["features"] is not None, res["errors"]
    assert vu.field_names_of(res) == ["name", "zone"]
    full, names = oracle(algebra_gpkg, "Intersection", "parcels", "zones")
    expected = [vu.Feature(f.fid, {"name": f.fields["input_name"], "zone": f.fields["zone"]}, f.geom)
                for f in full]
    vu.assert_same_features(res["features"], expected, label="join")


def test_join_form_where(algebra_gpkg):
    sql = ("SELECT a.id AS parcel, b.zone, ST_Intersection(a.geom, b.geom) AS geom "
           "FROM parcels a JOIN zones b ON ST_Intersects(a.geom, b.geom) WHERE b.zone = 'R1'")
    res = vu.run_vsgpu(algebra_gpkg, sql)
    assert vu.field_names_of(res) == ["parcel", "zone"]
    full, _ = oracle(algebra_gpkg, "Intersection", "parcels", "zones")
    expected = [vu.Feature(f.fid, {"parcel": f.fields["input_id"], "zone": f.fields["zone"]}, f.geom)
                for f in full if f.fields["zone"] == "R1"]
    assert len(expected) == 2
    vu.assert_same_features(res["features"], expected, label="join where")


def test_join_form_duplicate_column_is_an_error(algebra_gpkg):
    sql = ("SELECT a.name, b.name, ST_Intersection(a.geom, b.geom) AS geom "
           "FROM parcels a JOIN zones b ON ST_Intersects(a.geom, b.geom)")
    res = vu.run_vsgpu(algebra_gpkg, sql)
    assert res["features"] is None
    assert any("duplicate output column 'name'" in m for m in res["errors"].failures), res["errors"]


def test_points_against_polygons_give_points(algebra_gpkg, vsimem_dir):
    path = vu.create_gpkg(vsimem_dir + "/pts.gpkg", {
        "pts": dict(geom_type=ogr.wkbPoint, fields=[("n", ogr.OFTInteger)],
                    rows=[("POINT(3 3)", {"n": 1}), ("POINT(50 50)", {"n": 2}), ("POINT(2.5 2.5)", {"n": 3})]),
        "polys": dict(geom_type=ogr.wkbPolygon, rows=B_ROWS, fields=[("b_name", ogr.OFTString)]),
    })
    res = vu.run_vsgpu(path, "SELECT * FROM ST_Intersection(pts, polys)")
    expected, names = oracle(path, "Intersection", "pts", "polys", dim=0)
    assert res["geom_type"] == ogr.wkbPoint
    assert vu.field_names_of(res) == names
    vu.assert_same_features(res["features"], expected, label="points x polygons")
    assert [f.fields["n"] for f in res["features"]] == [1, 3]
