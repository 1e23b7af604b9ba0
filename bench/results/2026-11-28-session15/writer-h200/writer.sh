#!/usr/bin/env bash
# Where the GPU intersection's writer time goes: the statement with its
# default threads, with fewer engine threads, with the prebuild on one
# thread; the copy of its input layer and the copy of its own output
# (the floor of writing that output). Logs under $OUT.
cd "$(dirname "$0")/.."
mkdir -p /opt/gdal-rt
[ -f /opt/gdal-rt/env.sh ] || tar xJf .device/gdal-rt.tar.xz -C /opt/gdal-rt
[ -d .device/build ] || tar xJf .device/build.tar.xz -C .device
. /opt/gdal-rt/env.sh
w=/tmp/wr; rm -rf $w; mkdir -p $w
python3 bench/workloads/generate.py --scale tiled --out $w/wl --tiled-vertices 10000000 --only tiled_counties_x_states > $w/gen.log 2>&1
src=$(ls $w/wl/tiled_*.gpkg | head -1)
dp=$PWD/.device/build/gdalplugins
Q="SELECT * FROM ST_Intersection(counties, states)"
one() { local tag=$1; shift; rm -f $w/o.gpkg; local t0=$(date +%s.%N)
  env "$@" GDAL_DRIVER_PATH=$dp ogr2ogr -f GPKG -lco SPATIAL_INDEX=NO $w/o.gpkg "VSGPU:$src" -dialect VSGPU -sql "$Q" \
    --config VSGPU_EXECUTION_MODE GPU --config VSGPU_PROFILE $w/t-$tag.json > $w/$tag.log 2>&1 || tail -3 $w/$tag.log
  echo "$tag wall_s=$(awk "BEGIN{print $(date +%s.%N)-$t0}")"; }
cp1() { local tag=$1 f=$2 l=$3; rm -f $w/c.gpkg; local t0=$(date +%s.%N)
  GDAL_DRIVER_PATH=$dp ogr2ogr -f GPKG -lco SPATIAL_INDEX=NO $w/c.gpkg $f $l -nln result > /dev/null 2>&1
  echo "$tag wall_s=$(awk "BEGIN{print $(date +%s.%N)-$t0}")"; }
{
nproc; nvidia-smi --query-gpu=name --format=csv,noheader; which perf valgrind 2>&1 | head -2
for r in 1 2; do
  one default-$r X=1
  one threads8-$r VSGPU_NUM_THREADS=8
  one prebuild1-$r VSGPU_PREBUILD_THREADS=1
  one arena2-$r MALLOC_ARENA_MAX=2
  cp1 copy-input-$r $src counties
done
one keep X=1; cp $w/o.gpkg $w/out.gpkg
for r in 1 2; do cp1 copy-output-$r $w/out.gpkg SELECT; done
} > $OUT/writer.log 2>&1
cat $OUT/writer.log
