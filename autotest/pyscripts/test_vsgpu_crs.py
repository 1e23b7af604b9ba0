"""Layers in different coordinate reference systems (docs/semantics.md,
"Coordinate systems"): by default an error naming both CRSs, as PostGIS
does for mixed SRIDs; CRS_MISMATCH=REPROJECT reprojects the method layer
to the input's CRS with PROJ; CRS_MISMATCH=IGNORE computes with the
coordinates as they are. A layer without a CRS is no mismatch, but is named
in one warning."""

import os

import pytest
from osgeo import gdal, ogr, osr

import vsgpu_util as vu


def _srs(epsg):
    s = osr.SpatialReference()
    s.ImportFromEPSG(epsg)
    s.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    return s


def _write(path, layers):
    """layers: {name: (epsg or None, [wkt, ...])} into one GeoPackage."""
    ds = ogr.GetDriverByName("GPKG").CreateDataSource(path)
    for name, (epsg, wkts) in layers.items():
        lyr = ds.CreateLayer(name, _srs(epsg) if epsg else None, ogr.wkbPolygon)
        lyr.CreateField(ogr.FieldDefn("id", ogr.OFTInteger))
        for i, wkt in enumerate(wkts):
            f = ogr.Feature(lyr.GetLayerDefn())
            f.SetField("id", i)
            f.SetGeometry(ogr.CreateGeometryFromWkt(wkt))
            lyr.CreateFeature(f)
    ds = None


# Small squares near (10 E, 50 N) in WGS 84, a method square around them in
# Web Mercator (EPSG:3857) covering part of them.
INPUT_4326 = ["POLYGON((10 50,10.2 50,10.2 50.2,10 50.2,10 50))",
              "POLYGON((10.3 50,10.5 50,10.5 50.2,10.3 50.2,10.3 50))"]


def _method_3857():
    ct = osr.CoordinateTransformation(_srs(4326), _srs(3857))
    g = ogr.CreateGeometryFromWkt("POLYGON((10.1 49.9,10.4 49.9,10.4 50.3,10.1 50.3,10.1 49.9))")
    g.Transform(ct)
    return [g.ExportToWkt()]


@pytest.fixture
def mixed(tmp_path):
    path = str(tmp_path / "mixed.gpkg")
    _write(path, {"a4326": (4326, INPUT_4326), "d3857": (3857, _method_3857()),
                  "d4326": (4326, ["POLYGON((10.1 49.9,10.4 49.9,10.4 50.3,10.1 50.3,10.1 49.9))"]),
                  "nocrs": (None, ["POLYGON((10.1 49.9,10.4 49.9,10.4 50.3,10.1 50.3,10.1 49.9))"])})
    return path


@pytest.mark.parametrize("op", ["ST_Clip", "ST_Intersection"])
def test_mismatch_is_an_error_naming_both(mixed, op):
    res = vu.run_vsgpu(mixed, "SELECT * FROM %s(a4326, d3857)" % op)
    assert res["features"] is None
    msg = " ".join(res["errors"].failures)
    assert "EPSG:4326" in msg and "EPSG:3857" in msg, msg
    assert "CRS_MISMATCH=REPROJECT" in msg


def test_join_form_checks_too(mixed):
    res = vu.run_vsgpu(mixed, "SELECT a.id, ST_Intersection(a.geom, d.geom) AS geom "
                              "FROM a4326 a JOIN d3857 d ON ST_Intersects(a.geom, d.geom)")
    assert res["features"] is None
    assert any("EPSG:3857" in m for m in res["errors"].failures)


@pytest.mark.parametrize("how", ["statement", "open", "config"])
def test_reproject_equals_reprojecting_first(mixed, how):
    sql = "SELECT * FROM ST_Intersection(a4326, d3857)"
    oo, cfg = None, None
    if how == "statement":
        sql = "SELECT * FROM ST_Intersection(a4326, d3857, 'CRS_MISMATCH=REPROJECT')"
    elif how == "open":
        oo = ["CRS_MISMATCH=REPROJECT"]
    else:
        cfg = {"VSGPU_CRS_MISMATCH": "REPROJECT"}
    got = vu.run_vsgpu(mixed, sql, open_options=oo, config=cfg)
    assert got["features"] is not None, got["errors"]
    assert not got["errors"].failures
    # the reference: the method layer reprojected by GDAL beforehand
    ref = vu.run_vsgpu(mixed, "SELECT * FROM ST_Intersection(a4326, d4326)")
    assert len(got["features"]) == len(ref["features"]) == 2
    areas_got = sorted(_areas(got))
    areas_ref = sorted(_areas(ref))
    for a, b in zip(areas_got, areas_ref):
        assert a == pytest.approx(b, rel=1e-9)
    assert got["srs"] is not None and got["srs"].IsSame(_srs(4326))
    assert got["metadata"].get("REPROJECTION_FAILED") == "0"


def _areas(res):
    return [f.geom.GetArea() if f.geom is not None else 0.0 for f in res["features"]]


def test_ignore_keeps_the_coordinates(mixed):
    res = vu.run_vsgpu(mixed, "SELECT * FROM ST_Intersection(a4326, d3857, 'CRS_MISMATCH=IGNORE')")
    assert res["features"] is not None
    assert not res["errors"].failures
    assert len(res["features"]) == 0   # degrees against metres: nothing meets


def test_missing_crs_warns_once_and_runs(mixed):
    res = vu.run_vsgpu(mixed, "SELECT * FROM ST_Intersection(a4326, nocrs)")
    assert res["features"] is not None and len(res["features"]) == 2
    warns = [m for m in res["errors"].warnings if "has no CRS" in m]
    assert len(warns) == 1 and "nocrs" in warns[0] and "EPSG:4326" in warns[0]


def test_same_crs_says_nothing(mixed):
    res = vu.run_vsgpu(mixed, "SELECT * FROM ST_Intersection(a4326, d4326)")
    assert res["features"] is not None
    assert not [m for m in res["errors"].warnings if "CRS" in m]


def test_bad_value_names_the_option(mixed):
    res = vu.run_vsgpu(mixed, "SELECT * FROM ST_Intersection(a4326, d3857, 'CRS_MISMATCH=FIX')")
    assert res["features"] is None
    assert any("CRS_MISMATCH" in m for m in res["errors"].failures)


def test_nad27_against_nad83_fails(nc_gpkg, counties_gpkg):
    """The issue's case: nc (NAD27) against the US atlas states (NAD83)."""
    res = vu.run_vsgpu(nc_gpkg, "SELECT * FROM ST_Intersection(nc, '%s'.states)" % counties_gpkg)
    assert res["features"] is None
    msg = " ".join(res["errors"].failures)
    assert "nc" in msg and "states" in msg and "CRS_MISMATCH" in msg, msg


def test_reprojection_failure_counted_or_error(tmp_path):
    """A method geometry PROJ cannot transform (latitude beyond 90) is
    counted and named, or under INVALID=ERROR the statement's error."""
    path = str(tmp_path / "bad.gpkg")
    _write(path, {"a": (3857, ["POLYGON((0 0,100000 0,100000 100000,0 100000,0 0))"]),
                  "m": (4326, ["POLYGON((0 0,1 0,1 1,0 1,0 0))",
                               "POLYGON((0 95,1 95,1 96,0 96,0 95))"])})
    res = vu.run_vsgpu(path, "SELECT * FROM ST_Intersection(a, m, 'CRS_MISMATCH=REPROJECT')")
    assert res["features"] is not None
    assert res["metadata"].get("REPROJECTION_FAILED") == "1"
    assert any("could not be reprojected" in m for m in res["errors"].warnings)
    res = vu.run_vsgpu(path, "SELECT * FROM ST_Intersection(a, m, 'CRS_MISMATCH=REPROJECT', 'INVALID=ERROR')")
    lyr_ok = res["features"] is not None and not res["errors"].failures
    assert not lyr_ok
    assert any("cannot be reprojected" in m for m in res["errors"].failures)


def test_open_option_list_is_valid_xml(nc_gpkg):
    """The driver's open-option list is XML that GDAL parses (an apostrophe
    in a description once broke it: "Could not parse open option list")."""
    import xml.etree.ElementTree as ET
    xml = gdal.GetDriverByName("VSGPU").GetMetadataItem("DMD_OPENOPTIONLIST")
    root = ET.fromstring(xml)
    names = [o.get("name") for o in root.findall("Option")]
    assert "CRS_MISMATCH" in names
    crs = [o for o in root.findall("Option") if o.get("name") == "CRS_MISMATCH"][0]
    assert [v.text for v in crs.findall("Value")] == ["ERROR", "REPROJECT", "IGNORE"]
    with vu.ErrorCollector() as errs:
        ds = gdal.OpenEx("VSGPU:" + str(nc_gpkg), gdal.OF_VECTOR,
                         open_options=["CRS_MISMATCH=IGNORE"])
    assert ds is not None
    assert not [m for m in errs.warnings if "open option" in m.lower()]
    ds = None
