#!/usr/bin/env bash
# Run W: the validity screen's rows of one ring leave its nesting join
# (every backend), against f82f51c built with CUDA: the C stage tests and
# pytest on CUDA, the answers and step profiles of the counties by state
# and the intersection; then the intersection's batches: the default
# (growing from 16,384 rows) against fixed BATCH_SIZE 131072 and 65536,
# twice each, one step profile each.
cd "$(dirname "$0")/.."
here=$PWD
BASE_PLUGIN=.device/base-f82f.so.xz BASE=f82f51c RUN=W WLS="by_state13 intersection" \
  RUNS=2 CMPS="gpu-new cpu-new" STEPS="by_state13 intersection" bash scripts/gpu-host-ab.sh
. /opt/gdal-rt/env.sh
f=$(ls /tmp/ab/wl/tiled_*.gpkg | head -1)
sql="SELECT * FROM ST_Intersection(counties, states)"
new=$here/.device/build/gdalplugins
{
for r in 1 2; do for bs in default 131072 65536; do
  extra=(); [ $bs != default ] && extra=(--config VSGPU_BATCH_SIZE $bs)
  rm -f /tmp/o-w.gpkg; t0=$(date +%s.%N)
  GDAL_DRIVER_PATH=$new ogr2ogr -f GPKG -lco SPATIAL_INDEX=NO /tmp/o-w.gpkg "VSGPU:$f" -dialect VSGPU -sql "$sql" \
    --config VSGPU_EXECUTION_MODE GPU "${extra[@]}" > /dev/null 2>&1 || echo "batch $bs failed"
  echo "batch $bs run=$r wall_s=$(awk "BEGIN{print $(date +%s.%N)-$t0}")"
done; done
for bs in default 131072 65536; do
  extra=(); [ $bs != default ] && extra=(--config VSGPU_BATCH_SIZE $bs)
  rm -f /tmp/o-w.gpkg
  GDAL_DRIVER_PATH=$new ogr2ogr -f GPKG -lco SPATIAL_INDEX=NO /tmp/o-w.gpkg "VSGPU:$f" -dialect VSGPU -sql "$sql" \
    --config VSGPU_EXECUTION_MODE GPU --config VSGPU_PROFILE_STEPS YES --config VSGPU_PROFILE /tmp/w-$bs.json "${extra[@]}" > /dev/null 2>&1
  python3 bench/tools/steps.py --top 400 /tmp/w-$bs.json > $OUT/steps-batch-$bs.txt 2>&1
  echo "== batch $bs: $(head -1 $OUT/steps-batch-$bs.txt)"
  awk 'NR>1{t=$1; if ($0~/upload|download|host, until|set-up/) io+=t; else o+=t} END{printf "resident %.4f s, copies and gaps %.4f\n", o, io}' $OUT/steps-batch-$bs.txt
done
} > $OUT/batches.log 2>&1
cat $OUT/batches.log
