#!/usr/bin/env python3
"""Prints one SHA-256 per statement of the result layer (FIDs, fields, ISO
WKB, and the VSGPU metadata counters), so that two builds can be compared
byte for byte:

    GDAL_DRIVER_PATH=old/gdalplugins python3 output_digest.py > old.txt
    GDAL_DRIVER_PATH=new/gdalplugins python3 output_digest.py > new.txt
    diff old.txt new.txt

Every statement runs on the CPU engine and on the GPU pipeline's host
backend (VSGPU_EXECUTION_MODE=GPU, VSGPU_GPU_BACKEND=HOST), with 1 and 4
threads and two batch sizes. Used to check that a restructure changes no
output (issue 10)."""
import hashlib
import os
import sys

from osgeo import gdal, ogr

gdal.UseExceptions()
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DATA = os.path.join(ROOT, "data")

STATEMENTS = [
    ("us_atlas_counties_10m.gpkg", "SELECT * FROM ST_Intersection(counties, states)"),
    ("us_atlas_counties_10m.gpkg", "SELECT * FROM ST_Clip(counties, states)"),
    ("us_atlas_counties_10m.gpkg", "SELECT * FROM ST_ClipByRect(counties, -100, 30, -90, 40)"),
    ("us_atlas_counties_10m.gpkg", "SELECT * FROM ST_ClipByRect(counties, -180, -90, 180, 90, 'PROMOTE_TO_MULTI=YES')"),
    ("us_atlas_counties_10m.gpkg", "SELECT substr(id, 1, 2) AS st, COUNT(*) AS n, ST_Union(geom) AS geom FROM counties GROUP BY st"),
    ("us_atlas_counties_10m.gpkg", "SELECT c.name AS county, s.name AS state, ST_Intersection(c.geom, s.geom) AS geom "
                                   "FROM counties c JOIN states s ON ST_Intersects(c.geom, s.geom) WHERE s.name = 'Texas'"),
    ("nc.gpkg", "SELECT * FROM ST_ClipByRect(nc, -80, 35, -78, 36)"),
    ("nc.gpkg", "SELECT ST_Union(geom) AS geom FROM nc"),
    ("r_spdata.gpkg", "SELECT * FROM ST_Intersection(NY8_utm18, NY8_bna_utm18, 'PROMOTE_TO_MULTI=YES')"),
    ("r_spdata.gpkg", "SELECT * FROM ST_Clip(NY8_utm18, NY8_bna_utm18, 'KEEP_LOWER_DIMENSION_GEOMETRIES=YES')"),
    ("nybb.gpkg", "SELECT * FROM ST_ClipByRect(nybb, 980000, 180000, 1010000, 230000)"),
]
COUNTERS = ("INPUT_FEATURES", "OUTPUT_FEATURES", "INVALID_REPAIRED", "INVALID_SKIPPED",
            "NULL_GEOMETRIES", "EMPTY_GEOMETRIES", "GPU_ROWS", "GPU_ROWS_RERUN_ON_CPU",
            "CANDIDATE_PAIRS", "CONTAINED_SHORTCUTS", "LOWER_DIMENSION_DROPPED")


def digest(path, sql):
    ds = gdal.OpenEx("VSGPU:" + path, gdal.OF_VECTOR)
    lyr = ds.ExecuteSQL(sql, dialect="VSGPU")
    h = hashlib.sha256()
    n = 0
    for f in lyr:
        n += 1
        h.update(str(f.GetFID()).encode())
        for i in range(f.GetFieldCount()):
            h.update(repr(f.GetField(i)).encode())
        g = f.GetGeometryRef()
        h.update(bytes(g.ExportToIsoWkb()) if g is not None else b"NULL")
    md = lyr.GetMetadata("VSGPU") or {}
    for k in COUNTERS:
        h.update(("%s=%s;" % (k, md.get(k, ""))).encode())
    ds.ReleaseResultSet(lyr)
    return n, h.hexdigest()[:16]


def main():
    modes = [("CPU", None), ("GPU", "HOST")]
    for name, sql in STATEMENTS:
        path = os.path.join(DATA, name)
        if not os.path.exists(path):
            continue
        for mode, backend in modes:
            for threads in ("1", "4"):
                for batch in ("16384", "37"):
                    gdal.SetConfigOption("VSGPU_EXECUTION_MODE", mode)
                    gdal.SetConfigOption("VSGPU_GPU_BACKEND", backend)
                    gdal.SetConfigOption("VSGPU_NUM_THREADS", threads)
                    gdal.SetConfigOption("VSGPU_BATCH_SIZE", batch)
                    try:
                        n, d = digest(path, sql)
                    except Exception as e:  # an error is an output too
                        n, d = -1, str(e)[:60]
                    print("%s|%s|%s|%s|%s|%d|%s" % (name, sql[:60], mode, threads, batch, n, d))
                    sys.stdout.flush()


if __name__ == "__main__":
    main()
