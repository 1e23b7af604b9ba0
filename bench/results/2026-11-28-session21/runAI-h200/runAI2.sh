#!/usr/bin/env bash
# Run AI, second call: the last build against d62ac80 (the last stop's
# head) built with CUDA on the counties by (tile, state), the overlapping
# counties and the buffers (GPU and CPU engine once each way, answers
# compared) with step profiles of those and the intersection; then the
# features built ahead or not: the GPU intersection and clip of the
# counties by the states three times each with VSGPU_PREBUILD_THREADS
# unset and 0, interleaved, and the CPU engine's intersection twice each.
cd "$(dirname "$0")/.."
BASE_PLUGIN=.device/base-d62a.so.xz BASE=d62ac80 RUN=AI WLS="by_state13 overlap buffers" \
  RUNS=1 CMPS="gpu-new cpu-new gpu-base" TESTS=0 STEPS="intersection by_state13 overlap buffers" \
  bash scripts/gpu-host-ab.sh > "$OUT/ab-console.log" 2>&1
grep -E "wall_s|compare" "$OUT/ab-1.log" | head -40
. /opt/gdal-rt/env.sh
new=$PWD/.device/build/gdalplugins
src=$(ls /tmp/ab/wl/tiled_*.gpkg | head -1)
{
for r in 1 2 3; do
  for op in ST_Intersection ST_Clip; do
    for pb in unset 0; do
      cfg=(); [ $pb = 0 ] && cfg=(--config VSGPU_PREBUILD_THREADS 0)
      rm -f /tmp/pb.gpkg; t0=$(date +%s.%N)
      GDAL_DRIVER_PATH=$new ogr2ogr -f GPKG -lco SPATIAL_INDEX=NO /tmp/pb.gpkg "VSGPU:$src" -dialect VSGPU \
        -sql "SELECT * FROM $op(counties, states)" --config VSGPU_EXECUTION_MODE GPU "${cfg[@]}" \
        --config VSGPU_PROFILE /tmp/pb.json > /tmp/pb.log 2>&1 || echo "$op $pb failed"
      t1=$(date +%s.%N)
      python3 - "$op" "$pb" "$r" "$t0" "$t1" <<'PY'
import json, sys
op, pb, r, t0, t1 = sys.argv[1:6]
d = {}
for s in json.load(open("/tmp/pb.json"))["stages"]:
    d[s["stage"]] = d.get(s["stage"], 0) + s["elapsed_s"]
print("gpu %s prebuild=%s run %s wall_s=%.3f build_features %.3f prebuild_features %.3f read_ahead_wait %.3f"
      % (op, pb, r, float(t1) - float(t0), d.get("build_features", 0), d.get("prebuild_features", 0),
         d.get("read_ahead_wait", 0)))
PY
    done
  done
done
for r in 1 2; do
  for pb in unset 0; do
    cfg=(); [ $pb = 0 ] && cfg=(--config VSGPU_PREBUILD_THREADS 0)
    rm -f /tmp/pb.gpkg; t0=$(date +%s.%N)
    GDAL_DRIVER_PATH=$new ogr2ogr -f GPKG -lco SPATIAL_INDEX=NO /tmp/pb.gpkg "VSGPU:$src" -dialect VSGPU \
      -sql "SELECT * FROM ST_Intersection(counties, states)" --config VSGPU_EXECUTION_MODE CPU "${cfg[@]}" > /tmp/pb.log 2>&1 || echo "cpu $pb failed"
    echo "cpu ST_Intersection prebuild=$pb run $r wall_s=$(awk "BEGIN{print $(date +%s.%N)-$t0}")"
  done
done
} > "$OUT/prebuild.log" 2>&1
cat "$OUT/prebuild.log"; grep -A1 "^== steps" "$OUT/ab-1.log"
