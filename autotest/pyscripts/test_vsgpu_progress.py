"""Progress of VSGPU statements (docs/usage.md, "Progress").

ogr2ogr cannot show the progress of a VSGPU result (it needs a fast
feature count, which a result has only once computed), so the result layer
reports it itself under PROGRESS=YES / VSGPU_PROGRESS=YES, through
GDALTermProgress: "0...10...20...30...40...50...60...70...80...90...100 - done."
on stdout. These tests check

* the ogr2ogr way (a subprocess, as a user types it) for an intersection, a
  rectangle clip and a dissolve on the real data: the line parses, its
  values increase and end at 100 / "done"; without the option stdout stays
  empty; the output is the same with and without progress;
* that the progress follows the work, read through the open option in this
  process: it moves while features are read and says "done" only after the
  last one;
* the option's declaration and its errors.

(The C++ API, OGRVSGPUResultLayer::SetProgress, has no Python binding; the
engine's dissolve progress is tested in autotest/c/test_engine_progress.c.)
"""

import ctypes
import re

import pytest
from osgeo import gdal

import vsgpu_util as vu

pytestmark = pytest.mark.usefixtures("vsgpu_driver_registered")

# (name, dataset fixture, statement)
STATEMENTS = [
    ("counties_intersection", "counties_gpkg", "SELECT * FROM ST_Intersection(counties, states)"),
    ("counties_clip_rect", "counties_gpkg", "SELECT * FROM ST_ClipByRect(counties, -100, 30, -90, 40)"),
    ("counties_dissolve", "counties_gpkg",
     "SELECT substr(id, 1, 2) AS st, COUNT(*) AS n, ST_Union(geom) AS geom FROM counties GROUP BY st"),
    ("nc_intersection", "nc_gpkg", "SELECT * FROM ST_Intersection(nc, nc)"),
    ("nc_clip_rect", "nc_gpkg", "SELECT * FROM ST_ClipByRect(nc, -80, 35, -78, 36)"),
    ("nc_dissolve", "nc_gpkg", "SELECT ST_Union(geom) AS geom FROM nc"),
]

TERM_PROGRESS_RE = re.compile(r"^0(?:\.\.\.\d+|\.|\d+)*")
DONE_LINE = "0...10...20...30...40...50...60...70...80...90...100 - done."

_libc = ctypes.CDLL(None)


def flush_c_stdout():
    """GDALTermProgress does not flush after its last " - done.\\n"."""
    _libc.fflush(None)


def ticks(text):
    """The values GDALTermProgress printed, in order: a number is its
    value, each dot the previous value plus 2.5 (40 ticks make 100)."""
    values = []
    for tok in re.findall(r"\d+|\.", text):
        if tok == ".":
            values.append((values[-1] if values else 0) + 2.5)
        else:
            values.append(float(tok))
    return values


def assert_one_progress_line(stdout):
    lines = [ln for ln in stdout.splitlines() if ln.strip()]
    assert len(lines) == 1, "expected one progress line, got %r" % stdout
    line = lines[0]
    assert TERM_PROGRESS_RE.match(line), line
    values = ticks(line.replace(" - done.", ""))
    assert values[0] == 0
    assert all(b > a for a, b in zip(values, values[1:])), values
    assert values[-1] == 100, values
    assert line.endswith("100 - done."), line
    assert line == DONE_LINE


def _ogr2ogr(run_cli, tmp_path, src, sql, name, config=None):
    out = str(tmp_path / ("%s.gpkg" % name))
    p = run_cli(["ogr2ogr", "-f", "GPKG", out, "VSGPU:" + src, "-dialect", "VSGPU", "-sql", sql],
                config=config)
    assert p.returncode == 0, p.stderr
    return p, out


def _same_layers(a_path, b_path):
    a = vu.layer_features(a_path, "SELECT")
    b = vu.layer_features(b_path, "SELECT")
    assert len(a) == len(b) > 0
    for fa, fb in zip(a, b):
        assert fa.fid == fb.fid
        assert list(fa.fields.items()) == list(fb.fields.items())
        assert (fa.geom is None) == (fb.geom is None)
        if fa.geom is not None:
            assert fa.geom.ExportToIsoWkb() == fb.geom.ExportToIsoWkb()


@pytest.mark.parametrize("name,dataset,sql", STATEMENTS, ids=[s[0] for s in STATEMENTS])
def test_ogr2ogr_config_option_prints_progress(request, run_cli, tmp_path, name, dataset, sql):
    src = request.getfixturevalue(dataset)
    with_p, with_out = _ogr2ogr(run_cli, tmp_path, src, sql, name + "_progress",
                                config={"VSGPU_PROGRESS": "YES"})
    assert_one_progress_line(with_p.stdout)
    # The progress goes to stdout, the statement's warnings stay on stderr.
    assert "VSGPU" not in with_p.stdout

    without_p, without_out = _ogr2ogr(run_cli, tmp_path, src, sql, name + "_plain")
    assert without_p.stdout == ""
    _same_layers(with_out, without_out)


def test_ogr2ogr_small_batches_same_line(run_cli, tmp_path, counties_gpkg):
    """Many batches: many reports, still one line from 0 to 100."""
    sql = STATEMENTS[0][2]
    p, out = _ogr2ogr(run_cli, tmp_path, counties_gpkg, sql, "batches",
                      config={"VSGPU_PROGRESS": "YES", "VSGPU_BATCH_SIZE": "97"})
    assert_one_progress_line(p.stdout)
    _, plain = _ogr2ogr(run_cli, tmp_path, counties_gpkg, sql, "batches_plain")
    _same_layers(out, plain)


def test_ogr2ogr_open_option_prints_progress(run_cli, tmp_path, nc_gpkg):
    out = str(tmp_path / "oo.gpkg")
    p = run_cli(["ogr2ogr", "-oo", "PROGRESS=YES", out, "VSGPU:" + nc_gpkg, "-dialect", "VSGPU",
                 "-sql", "SELECT ST_Union(geom) AS geom FROM nc"])
    assert p.returncode == 0, p.stderr
    assert_one_progress_line(p.stdout)


def test_ogr2ogr_option_off_prints_nothing(run_cli, tmp_path, nc_gpkg):
    out = str(tmp_path / "off.gpkg")
    p = run_cli(["ogr2ogr", out, "VSGPU:" + nc_gpkg, "-dialect", "VSGPU",
                 "-sql", "SELECT * FROM ST_ClipByRect(nc, -80, 35, -78, 36)"],
                config={"VSGPU_PROGRESS": "NO"})
    assert p.returncode == 0, p.stderr
    assert p.stdout == ""


###############################################################################
# Following the work, in this process (open option PROGRESS=YES)


def _read_watching(capfd, ds, sql):
    """Reads the result feature by feature; returns the features and, per
    feature, the progress printed so far (the value last printed, and
    whether it said done)."""
    seen = []
    printed = ""
    with vu.sql_result(ds, sql) as lyr:
        assert lyr is not None
        capfd.readouterr()
        feats = []
        while True:
            f = lyr.GetNextFeature()
            flush_c_stdout()
            printed += capfd.readouterr().out
            values = ticks(printed.replace(" - done.", ""))
            seen.append((values[-1] if values else None, "done" in printed))
            if f is None:
                break
            feats.append(f)
    return feats, seen, printed


def test_overlay_progress_follows_input_consumed(capfd, counties_gpkg):
    ds = vu.open_vsgpu(counties_gpkg, ["PROGRESS=YES", "BATCH_SIZE=64"])
    feats, seen, printed = _read_watching(capfd, ds, STATEMENTS[0][2])
    ds = None
    assert len(feats) > 1000
    assert printed.strip() == DONE_LINE
    # Before the last feature the progress is not done, and it grows
    # while the features are read: many distinct values, in order.
    assert all(not done for _, done in seen[:-1])
    assert seen[-1] == (100, True)
    values = [v for v, _ in seen[:-1]]
    assert values[0] is not None and values[0] < 10
    assert all(b >= a for a, b in zip(values, values[1:]))
    assert len(set(values)) >= 30
    half = values[len(values) // 2]
    assert 20 <= half <= 80, half


def test_dissolve_progress_phases(capfd, counties_gpkg):
    ds = vu.open_vsgpu(counties_gpkg, ["PROGRESS=YES"])
    feats, seen, printed = _read_watching(capfd, ds, STATEMENTS[2][2])
    ds = None
    assert len(feats) == 56
    assert printed.strip() == DONE_LINE
    # The first feature comes after the read and the union (up to 90%);
    # writing the groups moves it on; done only at the end.
    first, first_done = seen[0]
    assert 90 <= first < 100 and not first_done
    values = [v for v, _ in seen]
    assert all(b >= a for a, b in zip(values, values[1:]))
    assert seen[-2][1] is False and seen[-1] == (100, True)


def test_progress_does_not_change_results(capfd, counties_gpkg, nc_gpkg):
    for path, sql in ((counties_gpkg, STATEMENTS[1][2]), (nc_gpkg, STATEMENTS[5][2])):
        plain = vu.run_vsgpu(path, sql)
        with_p = vu.run_vsgpu(path, sql, open_options=["PROGRESS=YES"])
        flush_c_stdout()
        out = capfd.readouterr().out
        assert DONE_LINE in out
        assert vu.field_names_of(plain) == vu.field_names_of(with_p)
        assert [(f.fid, list(f.fields.items()), f.geom.ExportToIsoWkb()) for f in plain["features"]] == \
               [(f.fid, list(f.fields.items()), f.geom.ExportToIsoWkb()) for f in with_p["features"]]
        md_a = {k: v for k, v in plain["metadata"].items() if not k.startswith("TIME_") and k != "ELAPSED_S"}
        md_b = {k: v for k, v in with_p["metadata"].items() if not k.startswith("TIME_") and k != "ELAPSED_S"}
        assert md_a == md_b


def test_reset_reading_restarts_progress(capfd, nc_gpkg):
    ds = vu.open_vsgpu(nc_gpkg, ["PROGRESS=YES"])
    with vu.sql_result(ds, STATEMENTS[4][2]) as lyr:
        capfd.readouterr()
        n1 = len(vu.read_features(lyr))
        n2 = len(vu.read_features(lyr))   # ResetReading: the statement runs again
        flush_c_stdout()
        out = capfd.readouterr().out
    ds = None
    assert n1 == n2 > 0
    assert out.count(DONE_LINE) == 2, out


def test_arrow_stream_reports_progress(capfd, nc_gpkg):
    # GetArrowStreamAsNumPy needs NumPy (the GPU host's carried Python has none)
    pytest.importorskip("numpy")
    pytest.importorskip("osgeo.gdal_array")
    ds = vu.open_vsgpu(nc_gpkg, ["PROGRESS=YES"])
    with vu.sql_result(ds, STATEMENTS[3][2]) as lyr:
        capfd.readouterr()
        rows = 0
        for batch in lyr.GetArrowStreamAsNumPy(["MAX_FEATURES_IN_BATCH=7"]):
            rows += len(batch["geom"])
        flush_c_stdout()
        out = capfd.readouterr().out
        assert rows == lyr.GetFeatureCount()
    ds = None
    assert out.strip() == DONE_LINE


def test_without_option_nothing_printed(capfd, nc_gpkg):
    capfd.readouterr()
    vu.run_vsgpu(nc_gpkg, STATEMENTS[5][2])
    flush_c_stdout()
    assert capfd.readouterr().out == ""


###############################################################################
# The option


def test_progress_open_option_declared():
    xml = gdal.GetDriverByName("VSGPU").GetMetadataItem(gdal.DMD_OPENOPTIONLIST)
    assert "name='PROGRESS' type='boolean'" in xml
    assert "VSGPU_PROGRESS" in xml


def test_progress_invalid_value_names_the_option(nc_gpkg):
    with vu.ErrorCollector() as errs:
        ds = vu.open_vsgpu(nc_gpkg, ["PROGRESS=MAYBE"])
    assert ds is None
    assert any("open option PROGRESS" in m and "MAYBE" in m for m in errs.failures), errs.errors


def test_progress_is_not_a_statement_option(nc_gpkg):
    res = vu.run_vsgpu(nc_gpkg, "SELECT * FROM ST_ClipByRect(nc, -80, 35, -78, 36, 'PROGRESS=YES')")
    assert res["features"] is None
    assert any("unknown statement option 'PROGRESS=YES'" in m for m in res["errors"].failures)


def test_config_option_in_process(capfd, config_options, nc_gpkg):
    config_options({"VSGPU_PROGRESS": "YES"})
    capfd.readouterr()
    res = vu.run_vsgpu(nc_gpkg, STATEMENTS[5][2])
    flush_c_stdout()
    assert res["features"] is not None
    assert capfd.readouterr().out.strip() == DONE_LINE
