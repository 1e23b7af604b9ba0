#!/usr/bin/env bash
# Run R: ST_Intersection's and ST_Clip's crossover on the tiled US counties
# and states (small rows) from 0.15 to 10 M vertices, GPU pipeline against
# the CPU engine on all 16 cores, and AUTO, twice each, interleaved.
cd "$(dirname "$0")/.."
mkdir -p /opt/gdal-rt
[ -f /opt/gdal-rt/env.sh ] || tar xJf .device/gdal-rt.tar.xz -C /opt/gdal-rt
[ -d .device/build ] || tar xJf .device/build.tar.xz -C .device
. /opt/gdal-rt/env.sh
dp=$PWD/.device/build/gdalplugins
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; cat .device/build/COMMIT; date -u +%FT%TZ
for V in 100000 600000 1200000 2500000 5000000; do
  python3 bench/workloads/generate.py --scale tiled --out /tmp/xr/$V --tiled-vertices $V \
    --only tiled_counties_x_states > /tmp/xr-gen.log 2>&1 || tail -3 /tmp/xr-gen.log
  f=$(ls /tmp/xr/$V/tiled_*.gpkg | head -1)
  rows=$(python3 - /tmp/xr/$V/manifest.json <<'PY'
import json, sys
w = json.load(open(sys.argv[1]))["workloads"][0]
print(w["input_features"] + w["method_features"], w["input_vertices"] + w["method_vertices"])
PY
)
  for op in "ST_Intersection(counties, states)" "ST_Clip(counties, states)"; do
    for r in 1 2; do for m in GPU CPU AUTO; do
      rm -f /tmp/xr.gpkg; t0=$(date +%s.%N)
      GDAL_DRIVER_PATH=$dp ogr2ogr -f GPKG -lco SPATIAL_INDEX=NO /tmp/xr.gpkg "VSGPU:$f" -dialect VSGPU -sql "SELECT * FROM $op" \
        --config VSGPU_EXECUTION_MODE $m --config CPL_DEBUG VSGPU > /tmp/xr.log 2>&1 || echo "failed $op $m"
      wall=$(awk "BEGIN{print $(date +%s.%N)-$t0}")
      echo "xover ${op%%(*} rows_vertices=${rows// /,} mode=$m run=$r wall=$wall $(grep -o 'selected [A-Z]*' /tmp/xr.log | head -1 | tr ' ' '=')"
    done; done
  done
done
date -u +%FT%TZ
