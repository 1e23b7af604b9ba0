"""What a statement given with -dialect VSGPU can change (issue 9, defect 2;
docs/semantics.md, "Statements the dialect does not take"): nothing. A
statement the dialect does not take is an error by default; with
SQL_FALLBACK=YES one read-only SELECT runs with the SQLite dialect on a
read-only handle; anything that writes is always an error."""

import shutil

import pytest
from osgeo import gdal, ogr

import vsgpu_util as vu

WRITES = [
    ("DELETE FROM nc", "DELETE"),
    ("PRAGMA writable_schema=1", "SELECT"),
    ("UPDATE nc SET NAME = 'x'", "SELECT"),
    ("SELECT 1; DELETE FROM nc", "DELETE"),
    ("SELECT load_extension('x')", "load_extension"),
    ("WITH t AS (SELECT 1) INSERT INTO nc(NAME) SELECT 'x' FROM t", "INSERT"),
    ("ATTACH DATABASE '/tmp/x.db' AS x", "SELECT"),
]


@pytest.fixture
def nc_copy(tmp_path, nc_gpkg):
    path = str(tmp_path / "nc.gpkg")
    shutil.copy(nc_gpkg, path)
    return path


def _count(path):
    ds = ogr.Open(path)
    n = ds.GetLayer("nc").GetFeatureCount()
    ds = None
    return n


def _exec(path, sql, open_options=()):
    with vu.ErrorCollector() as errs:
        ds = gdal.OpenEx("VSGPU:" + path, gdal.OF_VECTOR | gdal.OF_UPDATE,
                         open_options=list(open_options))
        assert ds is not None
        lyr = ds.ExecuteSQL(sql, dialect="VSGPU")
        rows = None
        if lyr is not None:
            rows = [f for f in lyr]
            ds.ReleaseResultSet(lyr)
        ds = None
    return rows, errs


@pytest.mark.parametrize("fallback", [None, "NO", "YES"])
@pytest.mark.parametrize("sql,word", WRITES, ids=[w[0][:20] for w in WRITES])
def test_writes_are_refused_and_change_nothing(nc_copy, sql, word, fallback):
    before = _count(nc_copy)
    oo = ["SQL_FALLBACK=" + fallback] if fallback else []
    rows, errs = _exec(nc_copy, sql, oo)
    assert rows is None
    msg = " ".join(errs.failures)
    assert msg, errs.errors
    # Refused as a VSGPU syntax error (the parser's), or by the rule:
    # naming -dialect SQLite (no fallback) or the writing word (fallback).
    if "syntax error" not in msg:
        assert (word in msg) if fallback == "YES" else ("-dialect SQLite" in msg), msg
    assert _count(nc_copy) == before


def test_select_runs_read_only_with_the_fallback(nc_copy):
    rows, errs = _exec(nc_copy, "SELECT NAME FROM nc WHERE NAME LIKE 'A%' ORDER BY NAME",
                       ["SQL_FALLBACK=YES"])
    assert rows is not None and [r.GetField(0) for r in rows][:2] == ["Alamance", "Alexander"]
    warns = [m for m in errs.warnings if "SQLite" in m]
    assert len(warns) == 1 and "read-only" in warns[0]
    assert not errs.failures


def test_select_without_the_fallback_is_an_error(nc_copy):
    rows, errs = _exec(nc_copy, "SELECT NAME FROM nc")
    assert rows is None
    assert any("-dialect SQLite" in m for m in errs.failures)


def test_words_in_strings_and_comments_do_not_count(nc_copy):
    rows, errs = _exec(nc_copy, "SELECT 'DELETE' AS a /* DROP */ FROM nc -- PRAGMA\n LIMIT 1",
                       ["SQL_FALLBACK=YES"])
    assert rows is not None and len(rows) == 1, errs.errors
    assert rows[0].GetField(0) == "DELETE"


# ---- what 'path'.layer may reach (METHOD_SOURCES) ------------------------

def _run(path, sql, open_options=()):
    with vu.ErrorCollector() as errs:
        ds = gdal.OpenEx("VSGPU:" + path, gdal.OF_VECTOR, open_options=list(open_options))
        lyr = ds.ExecuteSQL(sql, dialect="VSGPU")
        n = None
        if lyr is not None:
            n = sum(1 for _ in lyr)
            ds.ReleaseResultSet(lyr)
        ds = None
    return n, errs


@pytest.mark.parametrize("source", [
    "/vsicurl/http://127.0.0.1:9/x.gpkg",
    "/vsizip//vsicurl/http://127.0.0.1:9/x.zip/x.gpkg",
    "/vsis3/bucket/x.gpkg",
    "PG:dbname=nothere host=127.0.0.1 port=9",
    "WFS:http://127.0.0.1:9/wfs",
])
def test_remote_and_connection_sources_are_refused(nc_gpkg, source):
    n, errs = _run(nc_gpkg, "SELECT * FROM ST_Intersection(nc, '%s'.x)" % source)
    assert n is None
    msg = " ".join(errs.failures)
    assert "METHOD_SOURCES=ANY" in msg and "refused" in msg, errs.errors


def test_vrt_method_source_is_refused_by_default(tmp_path, nc_gpkg):
    vrt = str(tmp_path / "m.vrt")
    with open(vrt, "w") as f:
        f.write('<OGRVRTDataSource><OGRVRTLayer name="m"><SrcDataSource>%s</SrcDataSource>'
                '<SrcLayer>nc</SrcLayer></OGRVRTLayer></OGRVRTDataSource>' % nc_gpkg)
    sql = "SELECT * FROM ST_Intersection(nc, '%s'.m)" % vrt
    n, errs = _run(nc_gpkg, sql)
    assert n is None and any("METHOD_SOURCES=ANY" in m for m in errs.failures), errs.errors
    n, errs = _run(nc_gpkg, sql, ["METHOD_SOURCES=ANY"])
    assert n is not None and n >= 100, errs.errors


def test_gdalg_method_source_is_refused(tmp_path, nc_gpkg):
    g = str(tmp_path / "m.gdalg.json")
    with open(g, "w") as f:
        f.write('{"type": "gdal_streamed_alg", "command_line": "gdal vector pipeline read %s ! '
                'write --of stream streamed_dataset"}' % nc_gpkg)
    n, errs = _run(nc_gpkg, "SELECT * FROM ST_Intersection(nc, '%s'.nc)" % g)
    assert n is None and errs.failures


def test_local_gpkg_method_source_works(tmp_path, nc_gpkg):
    other = str(tmp_path / "other.gpkg")
    shutil.copy(nc_gpkg, other)
    n, errs = _run(nc_gpkg, "SELECT * FROM ST_Clip(nc, '%s'.nc)" % other)
    assert n == 100, errs.errors


def test_method_sources_is_not_a_statement_option(nc_gpkg):
    """A statement cannot lift its own restriction."""
    n, errs = _run(nc_gpkg, "SELECT * FROM ST_Intersection(nc, '/vsicurl/http://127.0.0.1:9/x'.x, "
                            "'METHOD_SOURCES=ANY')")
    assert n is None and errs.failures
