"""Every error class of the dialect, as a user meets it: ogrinfo / ogr2ogr
subprocesses, checking the exit code and the message.

* syntax error: CE_Failure with the position
* unknown layer, unknown field: CE_Failure naming it
* a statement that is not a VSGPU form: with SQL_FALLBACK=YES a read-only
  SELECT runs with the SQLite dialect and one warning;
  VSGPU_SQL_FALLBACK=NO (or -oo SQL_FALLBACK=NO, the default): an error
* EXECUTION_MODE=GPU where the GPU cannot run: CE_Failure, no result
"""

import os
import re
import shutil
import tempfile

import pytest
from osgeo import ogr

import vsgpu_util as vu

pytestmark = pytest.mark.usefixtures("vsgpu_driver_registered")

NO_GPU = {"CUDA_VISIBLE_DEVICES": ""}


@pytest.fixture(scope="module")
def small_gpkg(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("errors") / "small.gpkg")
    vu.create_gpkg(path, {
        "parcels": dict(geom_type=ogr.wkbPolygon, fields=[("pid", ogr.OFTInteger), ("use", ogr.OFTString)],
                        rows=[("POLYGON((0 0,0 10,10 10,10 0,0 0))", {"pid": 1, "use": "res"}),
                              ("POLYGON((10 0,10 10,20 10,20 0,10 0))", {"pid": 2, "use": "com"})]),
        "zones": dict(geom_type=ogr.wkbPolygon, fields=[("zone", ogr.OFTString)],
                      rows=[("POLYGON((5 5,5 15,15 15,15 5,5 5))", {"zone": "R1"})]),
    })
    return path


def _ogr2ogr(run_cli, path, sql, config=None, oo=(), env=None):
    """ogr2ogr as users run it (ogrinfo of GDAL 3.6 exits with 0 when
    ExecuteSQL fails, so exit codes are checked through ogr2ogr)."""
    out = os.path.join(tempfile.mkdtemp(prefix="vsgpu_err_"), "out.gpkg")
    args = ["ogr2ogr", "-dialect", "VSGPU", "-sql", sql]
    for o in oo:
        args += ["-oo", o]
    try:
        return run_cli(args + [out, "VSGPU:" + path], config=config, env=env)
    finally:
        shutil.rmtree(os.path.dirname(out), ignore_errors=True)


def _ogrinfo(run_cli, path, sql, config=None, oo=(), env=None):
    args = ["ogrinfo", "-ro", "-q", "-dialect", "VSGPU", "-sql", sql]
    for o in oo:
        args += ["-oo", o]
    return run_cli(args + ["VSGPU:" + path], config=config, env=env)


def _errors(stderr):
    return [l for l in stderr.splitlines() if l.startswith("ERROR")]


SYNTAX_CASES = [
    # (statement, 0-based offset of the offending token)
    ("SELECT * FROM ST_Intersection(parcels, zones", len("SELECT * FROM ST_Intersection(parcels, zones")),
    ("SELECT * FROM ST_Intersection(parcels zones)", len("SELECT * FROM ST_Intersection(parcels ")),
    ("SELECT * FROM ST_ClipByRect(parcels, 0, 0, 1)", len("SELECT * FROM ST_ClipByRect(parcels, 0, 0, 1")),
    ("SELECT use, ST_Union(geom) AS geom FROM parcels GROUP use",
     len("SELECT use, ST_Union(geom) AS geom FROM parcels GROUP ")),
]


@pytest.mark.parametrize("sql,pos", SYNTAX_CASES, ids=["unclosed", "missing_comma", "clipbyrect_args", "group_without_by"])
def test_syntax_error_with_position(run_cli, small_gpkg, sql, pos):
    p = _ogr2ogr(run_cli, small_gpkg, sql)
    assert p.returncode != 0
    errs = _errors(p.stderr)
    assert errs, p.stderr
    msg = " ".join(errs)
    assert re.search(r"syntax", msg, re.I), msg
    # The position, as a 0-based offset or a 1-based column (line 1).
    numbers = {int(n) for n in re.findall(r"\d+", msg)}
    assert pos in numbers or pos + 1 in numbers, "position %d not in %r" % (pos, msg)


@pytest.mark.parametrize("sql", [
    "SELECT * FROM ST_Intersection(nosuchlayer, zones)",
    "SELECT * FROM ST_Clip(parcels, nosuchlayer)",
    "SELECT * FROM ST_ClipByRect(nosuchlayer, 0, 0, 1, 1)",
    "SELECT use, ST_Union(geom) AS geom FROM nosuchlayer GROUP BY use",
    "SELECT a.use, ST_Intersection(a.geom, b.geom) AS geom FROM parcels a JOIN nosuchlayer b "
    "ON ST_Intersects(a.geom, b.geom)",
])
def test_unknown_layer(run_cli, small_gpkg, sql):
    p = _ogr2ogr(run_cli, small_gpkg, sql)
    assert p.returncode != 0
    assert any("nosuchlayer" in e for e in _errors(p.stderr)), p.stderr


def test_unknown_dataset_in_layer_reference(run_cli, small_gpkg):
    p = _ogr2ogr(run_cli, small_gpkg, "SELECT * FROM ST_Clip(parcels, '/nonexistent/x.gpkg'.zones)")
    assert p.returncode != 0
    assert any("/nonexistent/x.gpkg" in e for e in _errors(p.stderr)), p.stderr


@pytest.mark.parametrize("sql", [
    "SELECT nosuchfield, ST_Union(geom) AS geom FROM parcels GROUP BY nosuchfield",
    "SELECT use, ST_Union(geom) AS geom FROM parcels WHERE nosuchfield = 1 GROUP BY use",
    "SELECT a.nosuchfield, b.zone, ST_Intersection(a.geom, b.geom) AS geom FROM parcels a JOIN zones b "
    "ON ST_Intersects(a.geom, b.geom)",
    "SELECT a.use, ST_Intersection(a.geom, b.geom) AS geom FROM parcels a JOIN zones b "
    "ON ST_Intersects(a.geom, b.geom) WHERE b.nosuchfield = 'x'",
])
def test_unknown_field(run_cli, small_gpkg, sql):
    p = _ogr2ogr(run_cli, small_gpkg, sql)
    assert p.returncode != 0
    assert any("nosuchfield" in e for e in _errors(p.stderr)), p.stderr


def test_ogrinfo_shows_the_syntax_error(run_cli, small_gpkg):
    sql, pos = SYNTAX_CASES[1]
    p = _ogrinfo(run_cli, small_gpkg, sql)
    errs = _errors(p.stderr)
    assert len(errs) == 1 and re.search(r"syntax", errs[0], re.I), p.stderr
    assert "zones" in errs[0]
    assert p.stdout.strip() == ""


def test_non_vsgpu_statement_is_an_error_by_default(run_cli, small_gpkg):
    """SQL_FALLBACK is NO by default: the error names -dialect SQLite."""
    sql = "SELECT use, COUNT(*) AS n FROM parcels GROUP BY use ORDER BY use"
    p = _ogr2ogr(run_cli, small_gpkg, sql)
    assert p.returncode != 0
    errs = _errors(p.stderr)
    assert errs and "-dialect SQLite" in " ".join(errs), p.stderr


def test_non_vsgpu_statement_falls_back_to_sqlite(run_cli, small_gpkg):
    sql = "SELECT use, COUNT(*) AS n FROM parcels GROUP BY use ORDER BY use"
    p = _ogrinfo(run_cli, small_gpkg, sql, oo=["SQL_FALLBACK=YES"])
    assert p.returncode == 0, p.stderr
    warnings = [l for l in p.stderr.splitlines() if l.startswith("Warning")]
    assert len(warnings) == 1, p.stderr
    assert re.search(r"sqlite", warnings[0], re.I), warnings[0]
    # The SQLite dialect's answer.
    ref = run_cli(["ogrinfo", "-ro", "-q", "-dialect", "SQLite", "-sql", sql, small_gpkg])
    assert ref.returncode == 0
    assert re.findall(r"n \(\w+\) = (\d+)", p.stdout) == re.findall(r"n \(\w+\) = (\d+)", ref.stdout) == ["1", "1"]


@pytest.mark.parametrize("how", ["config", "open_option"])
def test_non_vsgpu_statement_without_fallback_is_an_error(run_cli, small_gpkg, how):
    sql = "SELECT use, COUNT(*) AS n FROM parcels GROUP BY use"
    if how == "config":
        p = _ogr2ogr(run_cli, small_gpkg, sql, config={"VSGPU_SQL_FALLBACK": "NO"})
        q = _ogrinfo(run_cli, small_gpkg, sql, config={"VSGPU_SQL_FALLBACK": "NO"})
    else:
        p = _ogr2ogr(run_cli, small_gpkg, sql, oo=["SQL_FALLBACK=NO"])
        q = _ogrinfo(run_cli, small_gpkg, sql, oo=["SQL_FALLBACK=NO"])
    assert p.returncode != 0
    assert _errors(p.stderr), p.stderr
    assert _errors(q.stderr), q.stderr
    assert "n (Integer" not in q.stdout


@pytest.mark.parametrize("how", ["config", "open_option"])
@pytest.mark.parametrize("sql", [
    "SELECT * FROM ST_Intersection(parcels, zones)",
    "SELECT use, ST_Union(geom) AS geom FROM parcels GROUP BY use",
], ids=["intersection", "dissolve"])
def test_gpu_mode_without_gpu_fails(tmp_path, run_cli, small_gpkg, how, sql):
    out = tmp_path / "out.gpkg"
    args = ["ogr2ogr", "-dialect", "VSGPU", "-sql", sql, str(out), "VSGPU:" + small_gpkg]
    if how == "config":
        p = run_cli(args, config={"VSGPU_EXECUTION_MODE": "GPU"}, env=NO_GPU)
    else:
        p = run_cli(args + ["-oo", "EXECUTION_MODE=GPU"], env=NO_GPU)
    assert p.returncode != 0, p.stderr
    errs = _errors(p.stderr)
    assert any("GPU" in e for e in errs), p.stderr
    op = "ST_Intersection" if "ST_Intersection" in sql else "ST_Union"
    assert any(op in e for e in errs), p.stderr
    # No result: no layer with features was written.
    if out.exists():
        ds = ogr.Open(str(out))
        assert ds is None or all(ds.GetLayer(i).GetFeatureCount() == 0 for i in range(ds.GetLayerCount()))


@pytest.mark.parametrize("rect", ["0, 0, 0, 10", "0, 5, 20, 5", "20, 0, 0, 10", "0, 10, 20, 0"])
def test_empty_or_inverted_rectangle_fails_before_reading(run_cli, small_gpkg, rect):
    """A zero-width or inverted rectangle is refused when the statement is
    bound: ogrinfo prints no 'Feature Count: 0' and ogr2ogr fails."""
    sql = "SELECT * FROM ST_ClipByRect(parcels, %s)" % rect
    p = _ogr2ogr(run_cli, small_gpkg, sql)
    assert p.returncode != 0
    errs = _errors(p.stderr)
    # inverted: the parser says so, with the position; empty: the binder
    assert errs and "ST_ClipByRect" in errs[0] and ("xmin" in errs[0] or "ymin" in errs[0]), p.stderr
    q = run_cli(["ogrinfo", "-ro", "-dialect", "VSGPU", "-sql", sql, "VSGPU:" + small_gpkg])
    assert "Feature Count" not in q.stdout
    assert _errors(q.stderr)
