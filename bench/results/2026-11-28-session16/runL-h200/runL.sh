#!/usr/bin/env bash
# Run L: CUDA's fixed cost part by part, VSGPU_GPU_FAST_EXIT on real
# statements, and the intersection in one batch against the default batches.
cd "$(dirname "$0")/.."
bash scripts/gpu-host-startup.sh > $OUT/startup.log 2>&1
grep "^probe\|^==" $OUT/startup.log | head -40
BASE_PLUGIN=.device/base-6e45.so.xz BASE=6e45926 RUN=L WLS=" " TESTS=0 STEPS=" " \
  EXITS="nybb_union intersection" bash scripts/gpu-host-ab.sh > /dev/null 2>&1
grep "^exit" $OUT/ab-1.log
. /opt/gdal-rt/env.sh
src=$(ls /tmp/ab/wl/tiled_*.gpkg | head -1)
new=$PWD/.device/build/gdalplugins
sql="SELECT * FROM ST_Intersection(counties, states)"
for r in 1 2; do
  for bs in default 524288; do
    extra=(); [ $bs != default ] && extra=(--config VSGPU_BATCH_SIZE $bs)
    rm -f /tmp/o-b.gpkg; t0=$(date +%s.%N)
    GDAL_DRIVER_PATH=$new ogr2ogr -f GPKG -lco SPATIAL_INDEX=NO /tmp/o-b.gpkg "VSGPU:$src" -dialect VSGPU -sql "$sql" \
      --config VSGPU_EXECUTION_MODE GPU "${extra[@]}" --config VSGPU_PROFILE /tmp/tb-$bs-$r.json > /tmp/b.log 2>&1 || echo failed
    echo "batch $bs run $r wall_s=$(awk "BEGIN{print $(date +%s.%N)-$t0}")"
  done
done
for bs in default 524288; do
  extra=(); [ $bs != default ] && extra=(--config VSGPU_BATCH_SIZE $bs)
  rm -f /tmp/o-b.gpkg
  GDAL_DRIVER_PATH=$new ogr2ogr -f GPKG -lco SPATIAL_INDEX=NO /tmp/o-b.gpkg "VSGPU:$src" -dialect VSGPU -sql "$sql" \
    --config VSGPU_EXECUTION_MODE GPU "${extra[@]}" --config VSGPU_PROFILE_STEPS YES --config VSGPU_PROFILE /tmp/steps-$bs.json > /tmp/b.log 2>&1 || echo failed
  python3 bench/tools/steps.py --top 400 /tmp/steps-$bs.json > $OUT/steps-batch-$bs.txt 2>&1
  echo "== steps batch $bs: $(head -1 $OUT/steps-batch-$bs.txt)"
  awk 'NR>1{t=$1; if ($0~/upload|download|host, until|set-up/) io+=t; else if ($0~/candidates:/) c+=t; else o+=t} END{printf "resident %.4f s (candidates %.4f, the rest %.4f), copies and gaps %.4f\n", c+o, c, o, io}' $OUT/steps-batch-$bs.txt
done
tar czf $OUT/tb.tar.gz -C /tmp $(cd /tmp && ls tb-*.json steps-*.json)
