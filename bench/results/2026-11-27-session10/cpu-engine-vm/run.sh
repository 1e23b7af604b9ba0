#!/usr/bin/env bash
# The CPU engine's coverage dissolve, base (935cd68) against new, on this VM.
f=/tmp/wl/tiled_counties_11x11.gpkg
sql="SELECT tile, substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM counties GROUP BY tile, st"
for rep in 1 2 3; do
  for th in 1 2; do
    for b in base new; do
      dp=/tmp/${b}build/gdalplugins
      rm -f o-$b-$th.gpkg
      t0=$(date +%s.%N)
      GDAL_DRIVER_PATH=$dp ogr2ogr -f GPKG -lco SPATIAL_INDEX=NO o-$b-$th.gpkg "VSGPU:$f" -dialect VSGPU -sql "$sql" \
        --config VSGPU_EXECUTION_MODE CPU --config VSGPU_NUM_THREADS $th --config VSGPU_PROFILE t-$b-$th-$rep.json > log-$b-$th-$rep.txt 2>&1 || echo failed
      t1=$(date +%s.%N)
      python3 - t-$b-$th-$rep.json "$b threads=$th rep=$rep wall=$(awk "BEGIN{print $t1-$t0}")" <<'PY'
import json, sys
t = json.load(open(sys.argv[1])); d = {}
for s in t["stages"]:
    d[s["stage"]] = d.get(s["stage"], 0) + s["elapsed_s"]
print(sys.argv[2], "total %.3f" % t["total_s"], " ".join("%s %.3f" % (k, d[k]) for k in ("read_input", "repair_clusters", "group_union", "coverage_union") if k in d))
PY
    done
  done
done
