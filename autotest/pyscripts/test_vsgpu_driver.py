"""The VSGPU driver: registration, metadata, the VSGPU: prefix, forwarding
to the wrapped dataset and dialect routing."""

import os

import pytest
from osgeo import gdal, ogr

import vsgpu_util as vu

pytestmark = pytest.mark.usefixtures("vsgpu_driver_registered")

OPEN_OPTIONS = ("SKIP_FAILURES", "PROMOTE_TO_MULTI", "KEEP_LOWER_DIMENSION_GEOMETRIES", "INPUT_PREFIX",
                "METHOD_PREFIX", "INVALID", "EXECUTION_MODE", "NUM_THREADS", "BATCH_SIZE", "SQL_FALLBACK")


def test_driver_registered_from_plugin_dir(plugin_dir):
    drv = gdal.GetDriverByName("VSGPU")
    assert drv is not None
    assert plugin_dir and os.path.isfile(os.path.join(plugin_dir, "ogr_VSGPU.so"))


def test_driver_metadata():
    drv = gdal.GetDriverByName("VSGPU")
    md = drv.GetMetadata()
    assert md.get(gdal.DCAP_VECTOR) == "YES"
    assert md.get(gdal.DMD_LONGNAME)
    assert md.get(gdal.DCAP_RASTER) != "YES"


def test_driver_declares_open_options():
    xml = gdal.GetDriverByName("VSGPU").GetMetadataItem(gdal.DMD_OPENOPTIONLIST)
    assert xml, "no DMD_OPENOPTIONLIST"
    for name in OPEN_OPTIONS:
        assert "name='%s'" % name in xml or 'name="%s"' % name in xml, name


def test_open_forwards_layers(nc_gpkg, spdata_gpkg):
    for path in (nc_gpkg, spdata_gpkg):
        src = ogr.Open(path)
        ds = vu.open_vsgpu(path)
        assert ds is not None
        assert ds.GetDriver().ShortName == "VSGPU"
        assert ds.GetLayerCount() == src.GetLayerCount()
        for i in range(src.GetLayerCount()):
            a, b = src.GetLayer(i), ds.GetLayer(i)
            assert a.GetName() == b.GetName()
            assert a.GetGeomType() == b.GetGeomType()
            assert vu.schema(a) == vu.schema(b)
            assert a.GetFeatureCount() == b.GetFeatureCount()
        la = src.GetLayerByName("nc" if path == nc_gpkg else "sids")
        lb = ds.GetLayerByName(la.GetName())
        fa, fb = vu.read_features(la), vu.read_features(lb)
        assert [(f.fid, list(f.fields.items()), f.geom.ExportToIsoWkb()) for f in fa] == \
               [(f.fid, list(f.fields.items()), f.geom.ExportToIsoWkb()) for f in fb]
        ds = None


def test_identify_needs_the_prefix(nc_gpkg):
    with vu.ErrorCollector():
        ds = gdal.OpenEx(nc_gpkg, gdal.OF_VECTOR, allowed_drivers=["VSGPU"])
    assert ds is None
    ds = gdal.OpenEx(nc_gpkg, gdal.OF_VECTOR)
    assert ds.GetDriver().ShortName == "GPKG"


def test_open_missing_source_fails():
    with vu.ErrorCollector() as errs:
        ds = vu.open_vsgpu("/nonexistent/vsgpu/none.gpkg")
    assert ds is None
    assert errs.failures, errs.errors


def test_ogrsql_dialect_forwarded(nc_gpkg):
    src = ogr.Open(nc_gpkg)
    ds = vu.open_vsgpu(nc_gpkg)
    sql = "SELECT NAME, BIR74 FROM nc WHERE BIR74 > 10000 ORDER BY NAME"
    for dialect in ("", "OGRSQL", "SQLITE"):
        with vu.sql_result(src, sql, dialect) as a, vu.sql_result(ds, sql, dialect) as b:
            assert a is not None and b is not None
            fa = [list(f.fields.items()) for f in vu.read_features(a)]
            fb = [list(f.fields.items()) for f in vu.read_features(b)]
            assert fa == fb and len(fa) > 0
    ds = None


# NY8_bna_utm18 (Clarke 1866, bound to WGS 84) and NY8_utm18 (EPSG:32618)
# differ in datum: statements over both say CRS_MISMATCH=IGNORE, as GDAL's
# own layer algebra does (docs/semantics.md, "Coordinate systems").
def test_vsgpu_dialect_result_through_ogr2ogr(tmp_path, run_cli, spdata_gpkg):
    """The command users type, compared with the in-process result."""
    out = str(tmp_path / "out.gpkg")
    sql = "SELECT * FROM ST_Intersection(NY8_bna_utm18, NY8_utm18, 'CRS_MISMATCH=IGNORE')"
    p = run_cli(["ogr2ogr", "-dialect", "VSGPU", "-sql", sql, "-nln", "result", out, "VSGPU:" + spdata_gpkg])
    assert p.returncode == 0, p.stderr
    ds = ogr.Open(out)
    written = vu.read_features(ds.GetLayer("result"))
    res = vu.run_vsgpu(spdata_gpkg, sql)
    assert len(written) == len(res["features"]) > 0
    assert vu.schema(ds.GetLayer("result")) == res["schema"]
    for w, r in zip(written, res["features"]):
        assert list(w.fields.values()) == list(r.fields.values())
        assert vu.Canon.symdiff_area(w.geom, r.geom) == 0.0


def test_src_open_options_forwarded(tmp_path):
    csv = tmp_path / "pts.csv"
    csv.write_text("id,where_wkt\n1,\"POLYGON((0 0,0 1,1 1,1 0,0 0))\"\n2,\"POLYGON((5 5,5 6,6 6,6 5,5 5))\"\n")
    plain = vu.open_vsgpu(str(csv))
    assert plain.GetLayer(0).GetGeomType() == ogr.wkbNone
    plain = None
    ds = vu.open_vsgpu(str(csv), ["SRC_GEOM_POSSIBLE_NAMES=where_wkt"])
    lyr = ds.GetLayer(0)
    assert lyr.GetGeomType() != ogr.wkbNone
    feats = vu.read_features(lyr)
    assert feats[0].geom is not None and feats[0].geom.GetArea() == 1.0
    ds = None


def test_spatial_filter_of_execute_sql(spdata_gpkg):
    """The filter ogr2ogr -spat hands to ExecuteSQL: a subset of the
    unfiltered result that keeps every feature lying inside the filter."""
    sql = "SELECT * FROM ST_Intersection(NY8_bna_utm18, NY8_utm18, 'CRS_MISMATCH=IGNORE')"
    full = vu.run_vsgpu(spdata_gpkg, sql)["features"]
    rect = ogr.CreateGeometryFromWkt("POLYGON((400000 4700000,400000 4750000,450000 4750000,450000 4700000,"
                                     "400000 4700000))")
    ds = vu.open_vsgpu(spdata_gpkg)
    with vu.ErrorCollector():
        with vu.sql_result(ds, sql, spatial_filter=rect) as lyr:
            part = vu.read_features(lyr)
    ds = None
    key = lambda f: (tuple(f.fields.values()), bytes(f.geom.ExportToIsoWkb()))
    full_keys = [key(f) for f in full]
    part_keys = [key(f) for f in part]
    assert 0 < len(part_keys) < len(full_keys)
    assert set(part_keys) <= set(full_keys)
    inside = [key(f) for f in full if f.geom.Within(rect)]
    assert inside and set(inside) <= set(part_keys)


def test_cross_dataset_layer_reference(nc_gpkg, spdata_gpkg):
    res = vu.run_vsgpu(nc_gpkg, "SELECT * FROM ST_Clip(nc, '%s'.sids)" % spdata_gpkg)
    assert res["features"] is not None and len(res["features"]) == 100
