#!/usr/bin/env python3
"""Writes the hand-made broken inputs of the bad-input tests into a folder,
for trying them by hand with ogrinfo / ogr2ogr:

    /usr/bin/python3 autotest/tools/make_bad_inputs.py /tmp/bad
    ogr2ogr -dialect VSGPU -sql "SELECT * FROM ST_Intersection(inp, method)" \
        /tmp/out.gpkg VSGPU:/tmp/bad/blobs.gpkg

Deterministic: the same bytes on every run. The builders live in
autotest/pyscripts/bad_inputs.py (shared with the tests).
"""

import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "pyscripts"))

from osgeo import ogr  # noqa: E402

import bad_inputs  # noqa: E402

UNCLOSED = [(0.0, 0.0), (0.0, 10.0), (10.0, 10.0), (10.0, 0.0)]
CLEAN = [(20.0, 20.0), (20.0, 30.0), (30.0, 30.0), (30.0, 20.0), (20.0, 20.0)]
BOWTIE = [(0.0, 0.0), (10.0, 10.0), (10.0, 0.0), (0.0, 10.0), (0.0, 0.0)]
METHOD = "POLYGON((-100 -100,-100 100,100 100,100 -100,-100 -100))"


def main(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    shp_dir = os.path.join(out_dir, "shapefiles")
    os.makedirs(shp_dir, exist_ok=True)
    bad_inputs.write_polygon_shapefile(os.path.join(shp_dir, "inp"), [([UNCLOSED], 0), ([CLEAN], 1)])
    ds = ogr.GetDriverByName("ESRI Shapefile").CreateDataSource(os.path.join(shp_dir, "method.shp"))
    lyr = ds.CreateLayer("method", geom_type=ogr.wkbPolygon)
    f = ogr.Feature(lyr.GetLayerDefn())
    f.SetGeometry(ogr.CreateGeometryFromWkt(METHOD))
    lyr.CreateFeature(f)
    ds = None

    path = os.path.join(out_dir, "blobs.gpkg")
    if os.path.exists(path):
        os.remove(path)
    nan_ring = [(0.0, 0.0), (0.0, math.nan), (10.0, 10.0), (10.0, 0.0), (0.0, 0.0)]
    inf_ring = [(0.0, 0.0), (0.0, math.inf), (10.0, 10.0), (10.0, 0.0), (0.0, 0.0)]
    blobs = [
        bad_inputs.gpkg_blob(bad_inputs.wkb_polygon([CLEAN])),      # n=0 clean
        bad_inputs.gpkg_blob(bad_inputs.wkb_polygon([UNCLOSED])),   # n=1 unclosed ring
        bad_inputs.gpkg_blob(bad_inputs.wkb_polygon([BOWTIE])),     # n=2 bow-tie
        bad_inputs.gpkg_blob(bad_inputs.wkb_polygon([nan_ring])),   # n=3 NaN
        bad_inputs.gpkg_blob(bad_inputs.wkb_polygon([inf_ring])),   # n=4 infinite
        bad_inputs.gpkg_blob(bad_inputs.wkb_polygon([CLEAN]))[:30],  # n=5 truncated WKB
        b"XXXXXXXXXXXXXXXXXX",                                      # n=6 garbage
        None,                                                       # n=7 null
    ]
    bad_inputs.write_gpkg_with_blobs(path, "inp", blobs)
    ds = ogr.Open(path, update=1)
    lyr = ds.CreateLayer("method", geom_type=ogr.wkbPolygon)
    f = ogr.Feature(lyr.GetLayerDefn())
    f.SetGeometry(ogr.CreateGeometryFromWkt(METHOD))
    lyr.CreateFeature(f)
    ds = None
    print("wrote %s and %s" % (shp_dir, path))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
