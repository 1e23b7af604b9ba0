"""Geometries the source driver cannot read (issue 9, defect 1): counted as
unreadable (UNREADABLE_GEOMETRIES) and named in the warning, or under
INVALID=ERROR the statement's error naming the FID; never reported as
NULL. A NULL geometry stays NULL only where the source holds NULL."""

import os
import shutil
import sqlite3
import subprocess

import pytest
from osgeo import gdal, ogr

import vsgpu_util as vu

SQL = "SELECT * FROM ST_ClipByRect(nc, -85, 33, -75, 37, 'INVALID=%s')"


@pytest.fixture
def corrupt_gpkg(tmp_path, nc_gpkg):
    """nc with four geometry blobs broken (truncated, a bare GP header,
    random bytes, an unknown WKB type) and one set to NULL."""
    path = str(tmp_path / "c.gpkg")
    shutil.copy(nc_gpkg, path)
    c = sqlite3.connect(path)
    for (name,) in c.execute("SELECT name FROM sqlite_master WHERE type='trigger'").fetchall():
        c.execute('DROP TRIGGER "%s"' % name)
    rows = c.execute("SELECT fid, geom FROM nc ORDER BY fid LIMIT 5").fetchall()
    c.execute("UPDATE nc SET geom=? WHERE fid=?", (rows[0][1][:len(rows[0][1]) // 2], rows[0][0]))
    c.execute("UPDATE nc SET geom=? WHERE fid=?", (b"GP", rows[1][0]))
    c.execute("UPDATE nc SET geom=? WHERE fid=?", (b"\x13\x37" * 20, rows[2][0]))
    b = bytearray(rows[3][1])
    env = (b[3] >> 1) & 7
    b[8 + [0, 32, 48, 48, 64][env] + 1] = 99
    c.execute("UPDATE nc SET geom=? WHERE fid=?", (bytes(b), rows[3][0]))
    c.execute("UPDATE nc SET geom=NULL WHERE fid=?", (rows[4][0],))
    c.commit()
    c.close()
    return path


def test_corrupt_blobs_are_unreadable_not_null(corrupt_gpkg):
    res = vu.run_vsgpu(corrupt_gpkg, SQL % "REPAIR")
    assert res["features"] is not None
    md = res["metadata"]
    assert md["UNREADABLE_GEOMETRIES"] == "4"
    assert md["NULL_GEOMETRIES"] == "1"        # the one the source holds
    assert md["INPUT_FEATURES"] == "100"
    assert any("could not read" in m for m in res["errors"].warnings)


def test_corrupt_blobs_fail_under_invalid_error(run_cli, corrupt_gpkg, tmp_path):
    out = str(tmp_path / "o.gpkg")
    p = run_cli(["ogr2ogr", out, "VSGPU:" + corrupt_gpkg, "-dialect", "VSGPU", "-sql",
                 SQL % "ERROR"])
    assert p.returncode != 0
    msg = [l for l in p.stderr.splitlines() if "VSGPU" in l and "ERROR" in l]
    assert msg and "feature 1 of layer 'nc'" in msg[0] and "could not read" in msg[0], p.stderr


@pytest.fixture
def truncated_shp(tmp_path, nc_gpkg):
    d = str(tmp_path / "shp")
    gdal.VectorTranslate(d, nc_gpkg, format="ESRI Shapefile", layers=["nc"])
    shp = os.path.join(d, "nc.shp")
    size = os.path.getsize(shp)
    with open(shp, "r+b") as f:
        f.truncate(int(size * 0.6))
    return shp


def test_truncated_shapefile_is_not_null(truncated_shp):
    res = vu.run_vsgpu(truncated_shp, SQL % "REPAIR")
    assert res["features"] is not None
    md = res["metadata"]
    assert int(md["UNREADABLE_GEOMETRIES"]) > 0
    assert md["NULL_GEOMETRIES"] == "0"
    assert int(md["UNREADABLE_GEOMETRIES"]) + int(md["OUTPUT_FEATURES"]) <= 100


def test_truncated_shapefile_fails_under_invalid_error(run_cli, truncated_shp, tmp_path):
    out = str(tmp_path / "o.gpkg")
    p = run_cli(["ogr2ogr", out, "VSGPU:" + truncated_shp, "-dialect", "VSGPU", "-sql",
                 SQL % "ERROR"])
    assert p.returncode != 0
    assert "could not read its geometry" in p.stderr
