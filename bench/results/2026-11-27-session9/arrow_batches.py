"""How long GDAL's Arrow stream of a GeoPackage layer takes to read, by
MAX_FEATURES_IN_BATCH (best of N runs). The development VM's figures of
docs/benchmarks.md (2026-11-27, "Overlay rows left unparsed, Arrow batches
of 2 MiB, ..."):

    python3 bench/workloads/generate.py --scale tiled --out /tmp/wln \
        --tiled-vertices 10000000 --only tiled_nybb_x_grid
    python3 bench/workloads/generate.py --scale tiled --out /tmp/wlc \
        --tiled-vertices 10000000 --only tiled_counties_x_states
    python3 arrow_batches.py /tmp/wln/tiled_nybb_12x12.gpkg nybb 3 1 5 20 50 100 720 65536
    python3 arrow_batches.py /tmp/wlc/tiled_counties_11x11.gpkg counties 2 256 1024 4096 16384 65536
"""
import sys
import time

from osgeo import ogr

path, layer, reps = sys.argv[1], sys.argv[2], int(sys.argv[3])
for rows in (int(a) for a in sys.argv[4:]):
    best, batches = float("inf"), 0
    for _ in range(reps):
        ds = ogr.Open(path)
        lyr = ds.GetLayer(layer)
        t = time.time()
        stream = lyr.GetArrowStream(["MAX_FEATURES_IN_BATCH=%d" % rows])
        batches = 0
        while stream.GetNextRecordBatch() is not None:
            batches += 1
        best = min(best, time.time() - t)
        ds = None
    print("MAX_FEATURES_IN_BATCH %d: %d batches, %.3f s" % (rows, batches, best))
