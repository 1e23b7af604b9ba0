"""The VSGPU_PROFILE trace file (issue 9, defect 6): a file that cannot be
written is named with the real cause, and the JSON is valid UTF-8 whatever
bytes the SQL text holds."""

import json
import os
import subprocess

from osgeo import gdal

import vsgpu_util as vu


def _run(nc_gpkg, sql, profile):
    with vu.ErrorCollector() as errs:
        gdal.SetConfigOption("VSGPU_PROFILE", profile)
        try:
            ds = gdal.OpenEx("VSGPU:" + nc_gpkg, gdal.OF_VECTOR)
            lyr = ds.ExecuteSQL(sql, dialect="VSGPU")
            assert lyr is not None, errs.errors
            n = sum(1 for _ in lyr)
            ds.ReleaseResultSet(lyr)
            ds = None
        finally:
            gdal.SetConfigOption("VSGPU_PROFILE", None)
    return n, errs


def test_unwritable_profile_names_the_cause(tmp_path, nc_gpkg):
    path = str(tmp_path / "no" / "such" / "dir" / "trace.json")
    n, errs = _run(nc_gpkg, "SELECT * FROM ST_ClipByRect(nc, -80, 35, -78, 36)", path)
    assert n > 0
    msgs = [m for m in errs.warnings if "profile" in m]
    assert len(msgs) == 1, errs.errors
    assert path in msgs[0] and "No such file or directory" in msgs[0], msgs[0]
    assert "INVALID_ARG" not in msgs[0]


def test_profile_is_valid_utf8_json_with_bytes_from_the_sql(tmp_path, nc_gpkg):
    """Raw bytes in the SQL (a Latin-1 'e acute' 0xE9 and a lone 0xFF, not
    UTF-8) reach the trace as U+FFFD; real UTF-8 stays as it is. The
    statement goes through ogrinfo's argv, as bytes."""
    path = str(tmp_path / "trace.json")
    sql = (b"SELECT * FROM ST_ClipByRect(nc, -80, 35, -78, 36) WHERE NAME <> 'caf\xe9\xff "
           + "\u00fc".encode("utf-8") + b"'")
    env = dict(os.environ)
    p = subprocess.run([b"ogrinfo", b"-ro", b"-q", b"--config", b"VSGPU_PROFILE", path.encode(),
                        b"-dialect", b"VSGPU", b"-sql", sql, b"VSGPU:" + nc_gpkg.encode()],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert p.returncode == 0, p.stderr
    raw = open(path, "rb").read()
    raw.decode("utf-8")                       # strict: raises if invalid
    doc = json.loads(raw.decode("utf-8"))
    text = doc["statement"]["SQL"]
    assert text.count("\ufffd") == 2 and "\u00fc" in text, text
