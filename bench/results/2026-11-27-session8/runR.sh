#!/usr/bin/env bash
# Run R (2026-11-27 session 8): GDAL's own OGRLayer::Intersection
# (vsgbench_algebra, --skip-failures, at most 300 s) on the counties and
# states tiled to 10 M vertices, beside the GPU pipeline (the carried
# build, twice) and the copy floor (twice), one machine: issue 13's
# ">= 50x GDAL's own path where it is compute-bound". Logs under $OUT.
cd "$(dirname "$0")/.."
mkdir -p /opt/gdal-rt
[ -f /opt/gdal-rt/env.sh ] || tar xJf .device/gdal-rt.tar.xz -C /opt/gdal-rt
[ -d .device/build ] || tar xJf .device/build.tar.xz -C .device
. /opt/gdal-rt/env.sh
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; echo "build $(cat .device/build/COMMIT) (run R)"; date -u +%FT%TZ; } > "$OUT/machine.txt"
w=/tmp/r; mkdir -p $w
[ -d $w/wl ] || python3 bench/workloads/generate.py --scale tiled --out $w/wl --tiled-vertices 10000000 --only tiled_counties_x_states > $w/gen.log 2>&1
f=$(ls $w/wl/tiled_*.gpkg | head -1)
t() { local t0=$(date +%s.%N); "$@" > $w/last.log 2>&1; local rc=$?; echo "rc=$rc wall_s=$(awk "BEGIN{print $(date +%s.%N)-$t0}")"; tail -2 $w/last.log; }
{
for r in 1 2; do
  rm -f $w/g.gpkg; echo "gpu-$r $(t env GDAL_DRIVER_PATH=.device/build/gdalplugins ogr2ogr -f GPKG -lco SPATIAL_INDEX=NO $w/g.gpkg VSGPU:$f -dialect VSGPU -sql 'SELECT * FROM ST_Intersection(counties, states)' --config VSGPU_EXECUTION_MODE GPU)"
  rm -f $w/c.gpkg; echo "copy-$r $(t ogr2ogr -f GPKG $w/c.gpkg $f states counties -lco SPATIAL_INDEX=NO)"
done
rm -f $w/a.gpkg; echo "gdal-intersection $(t timeout 300 .device/build/bench/vsgbench_algebra intersection $f counties $f states $w/a.gpkg --skip-failures)"
ls -la $w/a.gpkg 2>/dev/null
date -u +%FT%TZ >> "$OUT/machine.txt"
} > "$OUT/r.log" 2>&1
cat "$OUT/r.log"
