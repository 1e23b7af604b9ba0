"""A GeometryCollection whose polygons overlap (issue 9, defect 3): GEOS
calls it valid, but every overlay of it counts the shared area twice. To
VSGPU it is invalid: REPAIR unions its polygons (counted), SKIP drops it,
ERROR fails naming it; no path outputs an invalid geometry."""

import pytest
from osgeo import ogr

import vsgpu_util as vu

GC = "GEOMETRYCOLLECTION(POLYGON((0 0,3 0,3 3,0 3,0 0)),POLYGON((1 1,4 1,4 4,1 4,1 1)))"
GC_DISJOINT = "GEOMETRYCOLLECTION(POLYGON((0 0,1 0,1 1,0 1,0 0)),POLYGON((2 2,3 2,3 3,2 3,2 2)))"
COVER = "POLYGON((-1 -1,5 -1,5 5,-1 5,-1 -1))"

STATEMENTS = {
    "ST_ClipByRect": "SELECT * FROM ST_ClipByRect(gc, -1, -1, 5, 5%s)",
    "ST_Intersection": "SELECT * FROM ST_Intersection(gc, cover%s)",
    "ST_Clip": "SELECT * FROM ST_Clip(gc, cover%s)",
}


@pytest.fixture
def gc_gpkg(tmp_path):
    path = str(tmp_path / "gc.gpkg")
    return vu.create_gpkg(path, {
        "gc": dict(geom_type=ogr.wkbGeometryCollection, fields=[("id", ogr.OFTInteger)],
                   rows=[(GC, {"id": 1})]),
        "gcok": dict(geom_type=ogr.wkbGeometryCollection, fields=[("id", ogr.OFTInteger)],
                     rows=[(GC_DISJOINT, {"id": 1})]),
        "cover": dict(geom_type=ogr.wkbPolygon, fields=[("c", ogr.OFTInteger)],
                      rows=[(COVER, {"c": 1})]),
    })


def _opt(policy):
    return ", 'INVALID=%s'" % policy


@pytest.mark.parametrize("op", sorted(STATEMENTS))
def test_repair_unions_the_polygons(gc_gpkg, op):
    res = vu.run_vsgpu(gc_gpkg, STATEMENTS[op] % _opt("REPAIR"))
    assert res["features"] is not None and len(res["features"]) == 1, res["errors"]
    g = res["features"][0].geom
    assert g.IsValid()
    assert g.GetArea() == pytest.approx(14.0, rel=1e-12)
    assert res["metadata"]["INVALID_REPAIRED"] == "1"


def test_union_of_the_collection(gc_gpkg):
    res = vu.run_vsgpu(gc_gpkg, "SELECT ST_Union(geom) AS geom FROM gc")
    assert res["features"][0].geom.GetArea() == pytest.approx(14.0, rel=1e-12)
    assert res["features"][0].geom.IsValid()


@pytest.mark.parametrize("op", sorted(STATEMENTS))
def test_skip_drops_it(gc_gpkg, op):
    res = vu.run_vsgpu(gc_gpkg, STATEMENTS[op] % _opt("SKIP"))
    assert res["features"] is not None and len(res["features"]) == 0
    assert res["metadata"]["INVALID_SKIPPED"] == "1"


@pytest.mark.parametrize("op", sorted(STATEMENTS))
def test_error_names_it(gc_gpkg, op):
    res = vu.run_vsgpu(gc_gpkg, STATEMENTS[op] % _opt("ERROR"))
    failed = res["features"] is None or bool(res["errors"].failures)
    assert failed
    assert any("GeometryCollection overlap" in m for m in res["errors"].failures), res["errors"]


def test_disjoint_collection_is_left_alone(gc_gpkg):
    res = vu.run_vsgpu(gc_gpkg, "SELECT * FROM ST_Intersection(gcok, cover)")
    assert len(res["features"]) == 1
    assert res["features"][0].geom.GetArea() == pytest.approx(2.0, rel=1e-12)
    assert res["metadata"]["INVALID_REPAIRED"] == "0"


@pytest.mark.parametrize("policy", ["REPAIR", "SKIP", "ERROR"])
def test_tin_is_an_unsupported_type_not_unreadable(tmp_path, policy):
    """TIN and PolyhedralSurface are well-formed WKB of a type VSGPU does not
    take: counted as unsupported (UNSUPPORTED_SKIPPED), not as corrupt."""
    path = str(tmp_path / "tin.gpkg")
    vu.create_gpkg(path, {
        "t": dict(geom_type=ogr.wkbUnknown, fields=[("id", ogr.OFTInteger)],
                  rows=[("TIN Z (((0 0 0,0 1 0,1 0 0,0 0 0)))", {"id": 1}),
                        ("POLYHEDRALSURFACE Z (((0 0 0,0 1 0,1 1 0,0 0 0)))", {"id": 2}),
                        ("POLYGON((0 0,1 0,1 1,0 1,0 0))", {"id": 3})]),
    })
    res = vu.run_vsgpu(path, "SELECT * FROM ST_ClipByRect(t, -1, -1, 2, 2, 'INVALID=%s')" % policy)
    if policy == "ERROR":
        msg = " ".join(res["errors"].failures)
        assert "unsupported geometry type" in msg and ("TIN" in msg or "PolyhedralSurface" in msg), msg
        return
    assert len(res["features"]) == 1
    assert res["metadata"]["UNSUPPORTED_SKIPPED"] == "2"
    assert res["metadata"]["CORRUPT_SKIPPED"] == "0"
    assert any("unsupported type" in m for m in res["errors"].warnings)
