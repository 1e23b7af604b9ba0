#!/usr/bin/env bash
# Run AC: this session's later build (shared edges' ends flagged without
# their nodes, the refine's few rays without a join, the CPU engine's
# coverage union cancelling by a sort) against 0b259bf built with CUDA:
# the C stage tests and pytest on CUDA; the intersection and the
# overlapping counties, GPU once each way, the CPU engine once, answers,
# step profiles; then the CPU engine's coverage dissolves (the boroughs
# 12 x 12 and the counties by (tile, state) 13 x 13) on 1 and 16 threads,
# base and new, interleaved, twice.
cd "$(dirname "$0")/.."
here=$PWD
BASE_PLUGIN=.device/base-0b25.so.xz BASE=0b259bf RUN=AC WLS="intersection overlap nybb_union" \
  RUNS=1 CMPS="gpu-new cpu-new gpu-base" STEPS="intersection overlap" bash scripts/gpu-host-ab.sh
. /opt/gdal-rt/env.sh
w=/tmp/ab
[ -d $w/wl13 ] || python3 bench/workloads/generate.py --scale tiled --out $w/wl13 --tiled-vertices 10000000 --only tiled_counties_by_state >> $w/gen.log 2>&1
declare -A F=([nybb]=$(ls $w/wln/tiled_nybb_*.gpkg | head -1) [cty]=$(ls $w/wl13/tiled_*.gpkg | head -1))
declare -A Q=([nybb]="SELECT tile, ST_Union(geom) AS geom FROM nybb GROUP BY tile"
  [cty]="SELECT tile, substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM counties GROUP BY tile, st")
{
for r in 1 2; do for wl in nybb cty; do for t in 1 16; do for b in base new; do
  dp=$here/.device/build/gdalplugins; [ $b = base ] && dp=/tmp/base/gdalplugins
  rm -f /tmp/o-cpu.gpkg; t0=$(date +%s.%N)
  GDAL_DRIVER_PATH=$dp ogr2ogr -f GPKG -lco SPATIAL_INDEX=NO /tmp/o-cpu.gpkg "VSGPU:${F[$wl]}" -dialect VSGPU -sql "${Q[$wl]}" \
    --config VSGPU_EXECUTION_MODE CPU --config VSGPU_NUM_THREADS $t --config VSGPU_PROFILE /tmp/cpu.json > /dev/null 2>&1 || echo "$wl $t $b failed"
  t1=$(date +%s.%N)
  python3 - "$wl" "$t" "$b" "$r" "$(awk "BEGIN{print $t1-$t0}")" <<'PY'
import json, sys
d = json.load(open("/tmp/cpu.json")); s = {}
for x in d["stages"]:
    s[x["stage"]] = s.get(x["stage"], 0) + x["elapsed_s"]
print("cpu %s threads=%s %s run=%s wall_s=%s group_union %.3f coverage_segments %.3f" % (
    sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], s.get("group_union", 0), s.get("coverage_segments", 0)))
PY
done; done; done; done
} > $OUT/cpu.log 2>&1
cat $OUT/cpu.log
