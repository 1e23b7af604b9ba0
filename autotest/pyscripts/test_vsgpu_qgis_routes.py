"""The routes QGIS takes, tested without QGIS (docs/usage.md, "QGIS"):
the DIALECT=VSGPU open option, under which ExecuteSQL with no dialect runs
VSGPU statements and forwards everything else unchanged, and the .vsgpu
descriptor that file dialogs list and open."""

import os

import pytest
from osgeo import gdal, ogr

import vsgpu_util as vu

pytestmark = pytest.mark.usefixtures("vsgpu_driver_registered")

DISSOLVE = "SELECT substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM counties GROUP BY st"
N_STATES = 56


def open_dialect(path, extra=()):
    return vu.open_vsgpu(path, ["DIALECT=VSGPU"] + list(extra))


def states_of(features):
    """(number of features, number with a NULL or empty geometry)."""
    bad = [f for f in features if f.geom is None or f.geom.IsEmpty()]
    return len(features), len(bad)


def rows(lyr):
    return [(f.fid, list(f.fields.items()),
             bytes(f.geom.ExportToIsoWkb()) if f.geom is not None else None)
            for f in vu.read_features(lyr)]


def vsgpu_warnings(errs):
    return [m for m in errs.warnings if m.startswith("VSGPU")]


# ---- the option --------------------------------------------------------


def test_dialect_option_declared():
    xml = gdal.GetDriverByName("VSGPU").GetMetadataItem(gdal.DMD_OPENOPTIONLIST)
    assert "name='DIALECT'" in xml
    assert "<Value>VSGPU</Value>" in xml and "<Value>NONE</Value>" in xml


def test_bad_dialect_value_fails_the_open(nc_gpkg):
    with vu.ErrorCollector() as errs:
        ds = vu.open_vsgpu(nc_gpkg, ["DIALECT=SQLITE"])
    assert ds is None
    assert any("DIALECT" in m and "SQLITE" in m for m in errs.failures), errs.errors


@pytest.mark.parametrize("value", ["NONE", "none"])
def test_dialect_none_is_todays_behaviour(nc_gpkg, value):
    ds = vu.open_vsgpu(nc_gpkg, ["DIALECT=" + value])
    assert ds is not None
    with vu.ErrorCollector() as errs:
        with vu.sql_result(ds, "SELECT ST_Union(geom) AS geom FROM nc", None) as lyr:
            # OGR SQL of the GPKG has no ST_Union: not run as VSGPU
            assert lyr is None or lyr.GetMetadata("VSGPU") in (None, {})
    assert not vsgpu_warnings(errs), errs.errors
    ds = None


def test_dissolve_with_no_dialect_runs_as_vsgpu(counties_gpkg):
    explicit = vu.run_vsgpu(counties_gpkg, DISSOLVE)
    ds = open_dialect(counties_gpkg)
    for dialect in (None, ""):
        with vu.ErrorCollector() as errs:
            with vu.sql_result(ds, DISSOLVE, dialect) as lyr:
                assert lyr is not None, errs.errors
                feats = vu.read_features(lyr)
                assert lyr.GetMetadata("VSGPU")["OPERATION"] == "ST_Union"
        assert states_of(feats) == (N_STATES, 0)
        vu.assert_same_features(feats, explicit["features"], label="DIALECT=VSGPU")
        # The same statement, the same reports: the one CPU fallback
        # warning when the CPU runs (and the counter summary), no other.
        assert errs.warnings == explicit["errors"].warnings
        assert not errs.failures, errs.errors
        fallback = [m for m in errs.warnings if vu.FALLBACK_RE.search(m)]
        assert len(fallback) <= 1
    ds = None


@pytest.mark.parametrize("sql", [
    "SELECT * FROM counties WHERE id LIKE '06%'",
    "SELECT COUNT(*) FROM counties",
    "SELECT name, id FROM counties WHERE id > '50' ORDER BY name",
    # half read by the VSGPU parser (an empty IN list is a syntax error
    # there), valid SQLite: forwarded, not an error
    "SELECT id FROM counties WHERE id IN ()",
])
def test_other_statements_go_to_the_wrapped_source_unchanged(counties_gpkg, sql):
    src = ogr.Open(counties_gpkg)
    ds = open_dialect(counties_gpkg)
    for dialect in (None, ""):
        with vu.ErrorCollector() as errs:
            with vu.sql_result(src, sql, dialect) as a, vu.sql_result(ds, sql, dialect) as b:
                assert a is not None and b is not None
                assert b.GetMetadata("VSGPU") in (None, {})
                assert vu.schema(a) == vu.schema(b)
                assert rows(a) == rows(b)
        assert not errs.errors, errs.errors
    ds = None


def test_without_the_option_the_dissolve_goes_to_sqlite(counties_gpkg):
    """Today's behaviour, kept: GPKG's SQLite answers (with NULL states)."""
    src = ogr.Open(counties_gpkg)
    ds = vu.open_vsgpu(counties_gpkg)
    with vu.ErrorCollector():
        with vu.sql_result(src, DISSOLVE, None) as a, vu.sql_result(ds, DISSOLVE, None) as b:
            assert b.GetMetadata("VSGPU") in (None, {})
            fa, fb = vu.read_features(a), vu.read_features(b)
    assert [list(f.fields.items()) for f in fa] == [list(f.fields.items()) for f in fb]
    assert [f.geom is None for f in fa] == [f.geom is None for f in fb]
    ds = None


def test_syntax_error_of_a_vsgpu_construct_is_reported(counties_gpkg):
    ds = open_dialect(counties_gpkg)
    for sql in ("SELECT * FROM ST_Clip(counties states)",
                "SELECT ST_Union(geom) AS geom FROM counties GROUP BY 1"):
        with vu.ErrorCollector() as errs:
            with vu.sql_result(ds, sql, None) as lyr:
                assert lyr is None
        assert any("VSGPU SQL syntax error" in m for m in errs.failures), errs.errors
    ds = None


def test_explicit_dialects_unchanged_under_the_option(nc_gpkg):
    ds = open_dialect(nc_gpkg)
    sql = "SELECT NAME FROM nc WHERE BIR74 > 10000"
    # -dialect VSGPU keeps its own rule: a statement it does not take is an
    # error (SQL_FALLBACK=NO, the default) ...
    with vu.ErrorCollector() as errs:
        with vu.sql_result(ds, sql, "VSGPU") as lyr:
            assert lyr is None
    assert any("-dialect SQLite" in m for m in errs.failures)
    # ... or, with SQL_FALLBACK=YES, the read-only SQLite fallback with its
    # one warning
    ds_fb = gdal.OpenEx("VSGPU:" + nc_gpkg, gdal.OF_VECTOR,
                        open_options=["DIALECT=VSGPU", "SQL_FALLBACK=YES"])
    with vu.ErrorCollector() as errs:
        with vu.sql_result(ds_fb, sql, "VSGPU") as lyr:
            assert lyr is not None and lyr.GetFeatureCount() > 0
    assert len(vsgpu_warnings(errs)) == 1 and "SQLite dialect" in errs.warnings[0]
    ds_fb = None
    # other dialects go to the wrapped dataset as before
    for dialect in ("OGRSQL", "SQLITE"):
        with vu.ErrorCollector() as errs:
            with vu.sql_result(ds, "SELECT ST_Union(geom) AS geom FROM nc", dialect) as lyr:
                assert lyr is None or lyr.GetMetadata("VSGPU") in (None, {})
    ds = None


def test_attribute_filter_untouched(counties_gpkg):
    src = ogr.Open(counties_gpkg)
    ds = open_dialect(counties_gpkg)
    a, b = src.GetLayerByName("counties"), ds.GetLayerByName("counties")
    for lyr in (a, b):
        assert lyr.SetAttributeFilter("id LIKE '06%'") == 0
    assert a.GetFeatureCount() == b.GetFeatureCount() == 58
    assert rows(a) == rows(b)
    ds = None


def test_ogr2ogr_with_the_open_option(tmp_path, run_cli, counties_gpkg):
    out = str(tmp_path / "states.gpkg")
    p = run_cli(["ogr2ogr", "-oo", "DIALECT=VSGPU", "-sql", DISSOLVE, "-nln", "states", out,
                 "VSGPU:" + counties_gpkg])
    assert p.returncode == 0, p.stderr
    assert "ERROR" not in p.stderr, p.stderr
    assert states_of(vu.layer_features(out, "states")) == (N_STATES, 0)


def test_vector_translate_with_the_open_option(tmp_path, counties_gpkg):
    out = str(tmp_path / "states.gpkg")
    ds = open_dialect(counties_gpkg)
    with vu.ErrorCollector() as errs:
        res = gdal.VectorTranslate(out, ds, SQLStatement=DISSOLVE, layerName="states")
    assert res is not None, errs.errors
    res = None
    ds = None
    assert states_of(vu.layer_features(out, "states")) == (N_STATES, 0)


# ---- the .vsgpu descriptor -----------------------------------------------


def write_descriptor(folder, name, lines):
    path = os.path.join(str(folder), name)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


def test_driver_declares_the_extension():
    drv = gdal.GetDriverByName("VSGPU")
    assert drv.GetMetadataItem(gdal.DMD_EXTENSIONS) == "vsgpu"
    assert drv.GetMetadataItem(gdal.DMD_LONGNAME)


def test_descriptor_opens_and_lists_the_layers(tmp_path, counties_gpkg):
    rel = os.path.relpath(counties_gpkg, str(tmp_path))
    path = write_descriptor(tmp_path, "counties.vsgpu", ["# VSGPU descriptor", "SOURCE=" + rel])
    ds = gdal.OpenEx(path, gdal.OF_VECTOR)
    assert ds is not None and ds.GetDriver().ShortName == "VSGPU"
    src = ogr.Open(counties_gpkg)
    assert [ds.GetLayer(i).GetName() for i in range(ds.GetLayerCount())] == \
           [src.GetLayer(i).GetName() for i in range(src.GetLayerCount())]
    files = ds.GetFileList()
    assert files[0] == path and any(f.endswith("us_atlas_counties_10m.gpkg") for f in files)
    ds = None


def test_descriptor_options_apply(tmp_path, counties_gpkg, run_cli):
    path = write_descriptor(tmp_path, "states.vsgpu", [
        "SOURCE=" + counties_gpkg,  # absolute
        "DIALECT=VSGPU",
        "  NUM_THREADS = 2  ",
        "",
        "# a comment",
    ])
    ds = gdal.OpenEx(path, gdal.OF_VECTOR)
    with vu.ErrorCollector():
        with vu.sql_result(ds, DISSOLVE, None) as lyr:
            assert states_of(vu.read_features(lyr)) == (N_STATES, 0)
            assert lyr.GetMetadata("VSGPU")["THREADS"] == "2"
    ds = None
    # open options given at open time win over the file's
    ds = gdal.OpenEx(path, gdal.OF_VECTOR, open_options=["NUM_THREADS=1"])
    with vu.ErrorCollector():
        with vu.sql_result(ds, DISSOLVE, None) as lyr:
            assert lyr.GetMetadata("VSGPU")["THREADS"] == "1"
    ds = None
    # the file is all QGIS and ogr2ogr need
    out = str(tmp_path / "out.gpkg")
    p = run_cli(["ogr2ogr", "-sql", DISSOLVE, "-nln", "states", out, path])
    assert p.returncode == 0 and "ERROR" not in p.stderr, p.stderr
    assert states_of(vu.layer_features(out, "states")) == (N_STATES, 0)


def test_descriptor_src_options_reach_the_source(tmp_path):
    (tmp_path / "pts.csv").write_text(
        "id,where_wkt\n1,\"POLYGON((0 0,0 1,1 1,1 0,0 0))\"\n")
    path = write_descriptor(tmp_path, "pts.vsgpu", ["SOURCE=pts.csv",
                                                    "SRC_GEOM_POSSIBLE_NAMES=where_wkt"])
    ds = gdal.OpenEx(path, gdal.OF_VECTOR)
    assert ds.GetLayer(0).GetGeomType() != ogr.wkbNone
    ds = None


@pytest.mark.parametrize("lines,message", [
    (["SOURCE=x.gpkg", "this is not an option"], "line 2"),
    (["SOURCE=x.gpkg", "COLOUR=blue"], "unknown key 'COLOUR'"),
    (["# VSGPU", "DIALECT=VSGPU"], "no SOURCE"),
    (["SOURCE=a.gpkg", "SOURCE=b.gpkg"], "a second SOURCE"),
    (["SOURCE=other.vsgpu"], "VSGPU dataset itself"),
    (["SOURCE=%(nc)s", "DIALECT=SQLITE"], "DIALECT"),
    (["SOURCE=%(nc)s", "NUM_THREADS=lots"], "NUM_THREADS"),
])
def test_bad_descriptor_fails_with_a_message(tmp_path, nc_gpkg, lines, message):
    path = write_descriptor(tmp_path, "bad.vsgpu", [l % {"nc": nc_gpkg} for l in lines])
    with vu.ErrorCollector() as errs:
        ds = gdal.OpenEx(path, gdal.OF_VECTOR)
    assert ds is None
    assert any(message in m for m in errs.failures), errs.errors


def test_oversized_descriptor_is_refused(tmp_path, nc_gpkg):
    path = write_descriptor(tmp_path, "big.vsgpu", ["SOURCE=" + nc_gpkg] + ["# padding " * 10] * 1000)
    with vu.ErrorCollector() as errs:
        ds = gdal.OpenEx(path, gdal.OF_VECTOR)
    assert ds is None
    assert any("larger than" in m for m in errs.failures), errs.errors


def test_identify_rejects_other_files(tmp_path, nc_gpkg):
    drv = gdal.GetDriverByName("VSGPU")
    cases = [
        write_descriptor(tmp_path, "no_signature.vsgpu", ["DIALECT=VSGPU", "SOURCE=" + nc_gpkg]),
        write_descriptor(tmp_path, "other.txt", ["SOURCE=" + nc_gpkg]),
        nc_gpkg,
    ]
    for path in cases:
        with vu.ErrorCollector():
            ds = gdal.OpenEx(path, gdal.OF_VECTOR, allowed_drivers=["VSGPU"])
        assert ds is None, path
        assert gdal.IdentifyDriverEx(path, allowed_drivers=["VSGPU"]) is None, path
    good = write_descriptor(tmp_path, "good.VSGPU", ["SOURCE=" + nc_gpkg])
    assert gdal.IdentifyDriverEx(good, allowed_drivers=["VSGPU"]).ShortName == drv.ShortName


# ---- what QGIS's OGR provider does around a SELECT subset string ----------


def test_filter_equal_to_the_statement_is_no_filter(counties_gpkg):
    """QGIS sets the subset string it ran as the attribute filter of the
    result layer too; OGR SQL cannot read a SELECT."""
    ds = open_dialect(counties_gpkg)
    with vu.ErrorCollector() as errs:
        with vu.sql_result(ds, DISSOLVE, None) as lyr:
            for text in (DISSOLVE, "  " + DISSOLVE.replace(" FROM", "\n  FROM") + " ;"):
                assert lyr.SetAttributeFilter(text) == 0
                assert states_of(vu.read_features(lyr)) == (N_STATES, 0)
            # any other filter is GDAL's, as before
            assert lyr.SetAttributeFilter("st = '06'") == 0
            assert [f.fields["st"] for f in vu.read_features(lyr)] == ["06"]
    assert not errs.failures, errs.errors
    ds = None


def test_nolock_goes_to_the_wrapped_geopackage(counties_gpkg):
    """QGIS adds NOLOCK=ON to every path ending in .gpkg, VSGPU:x.gpkg too."""
    with vu.ErrorCollector() as errs:
        ds = open_dialect(counties_gpkg, ["NOLOCK=ON"])
    assert ds is not None
    assert not errs.errors, errs.errors
    assert ds.GetLayerByName("counties").GetFeatureCount() == 3231
    ds = None
