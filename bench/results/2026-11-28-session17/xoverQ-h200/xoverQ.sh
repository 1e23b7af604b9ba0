#!/usr/bin/env bash
# Run Q: ST_Union's crossover on layers of small rows: the tiled counties by
# (tile, state) (a coverage) and tiled_buffers (dense overlaps) from 0.25 to
# 4 M vertices, GPU pipeline against the CPU engine on all 16 cores, and
# AUTO, twice each, interleaved.
cd "$(dirname "$0")/.."
mkdir -p /opt/gdal-rt /opt/py-rt
[ -f /opt/gdal-rt/env.sh ] || tar xJf .device/gdal-rt.tar.xz -C /opt/gdal-rt
[ -d .device/build ] || tar xJf .device/build.tar.xz -C .device
. /opt/gdal-rt/env.sh
dp=$PWD/.device/build/gdalplugins
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; cat .device/build/COMMIT; date -u +%FT%TZ
for V in 250000 500000 1000000 2000000 4000000 7000000; do
  python3 bench/workloads/generate.py --scale tiled --out /tmp/xq/$V --tiled-vertices $V \
    --only tiled_counties_by_state,tiled_buffers > /tmp/xq-gen.log 2>&1 || tail -3 /tmp/xq-gen.log
done
for V in 250000 500000 1000000 2000000 4000000 7000000; do
  python3 - /tmp/xq/$V/manifest.json <<'PY' > /tmp/xq/$V/wl.txt
import json, sys
for w in json.load(open(sys.argv[1]))["workloads"]:
    print(w["name"], w["input"]["path"], w["input"]["layer"], w["input_features"], w["input_vertices"])
PY
  while read -r name f lyr rows verts; do
    sql="SELECT tile, substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM $lyr GROUP BY tile, st"
    for r in 1 2; do for m in GPU CPU AUTO; do
      rm -f /tmp/xq.gpkg; t0=$(date +%s.%N)
      GDAL_DRIVER_PATH=$dp ogr2ogr -f GPKG -lco SPATIAL_INDEX=NO /tmp/xq.gpkg "VSGPU:$f" -dialect VSGPU -sql "$sql" \
        --config VSGPU_EXECUTION_MODE $m --config CPL_DEBUG VSGPU > /tmp/xq.log 2>&1 || echo "failed $name $m"
      wall=$(awk "BEGIN{print $(date +%s.%N)-$t0}")
      echo "xover $name rows=$rows vertices=$verts mode=$m run=$r wall=$wall $(grep -o 'selected [A-Z]*' /tmp/xq.log | head -1 | tr ' ' '=')"
    done; done
  done < /tmp/xq/$V/wl.txt
done
date -u +%FT%TZ
