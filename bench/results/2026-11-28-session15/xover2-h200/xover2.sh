#!/usr/bin/env bash
# The large rows' crossover for ST_Clip, and for large rows on the method
# side: the tiled NYC boroughs and their grid, ogr2ogr end to end into a
# GeoPackage, CPU engine (16 threads) against the GPU pipeline, twice
# each, interleaved. Logs under $OUT.
cd "$(dirname "$0")/.."
mkdir -p /opt/gdal-rt
[ -f /opt/gdal-rt/env.sh ] || tar xJf .device/gdal-rt.tar.xz -C /opt/gdal-rt
[ -d .device/build ] || tar xJf .device/build.tar.xz -C .device
. /opt/gdal-rt/env.sh
w=/tmp/xo2; rm -rf $w; mkdir -p $w
dp=$PWD/.device/build/gdalplugins
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; cat .device/build/COMMIT; date -u +%FT%TZ
echo "vertices rows op engine run wall_s"
for n in 1000000 2000000 4000000 10000000; do
  python3 bench/workloads/generate.py --scale tiled --out $w/$n --tiled-vertices $n --only tiled_nybb_x_grid > $w/gen-$n.log 2>&1
  f=$(ls $w/$n/tiled_nybb_*.gpkg | head -1)
  rows=$(ogrinfo -so $f nybb | awk '/Feature Count/{print $3}')
  for op in clip grid_x_nybb grid_clip_nybb; do
    case $op in
      clip) q="SELECT * FROM ST_Clip(nybb, grid)";;
      grid_x_nybb) q="SELECT * FROM ST_Intersection(grid, nybb)";;
      grid_clip_nybb) q="SELECT * FROM ST_Clip(grid, nybb)";;
    esac
    for r in 1 2; do for eng in CPU GPU AUTO; do
      rm -f $w/o.gpkg; t0=$(date +%s.%N)
      GDAL_DRIVER_PATH=$dp ogr2ogr -f GPKG -lco SPATIAL_INDEX=NO $w/o.gpkg "VSGPU:$f" -dialect VSGPU -sql "$q" \
        --config VSGPU_EXECUTION_MODE $eng --config CPL_DEBUG VSGPU > $w/run.log 2>&1 || { echo "failed $n $op $eng"; tail -3 $w/run.log; }
      sel=$(grep -o "selected [A-Z]*" $w/run.log | head -1)
      echo "$n $rows $op $eng $r $(awk "BEGIN{print $(date +%s.%N)-$t0}") $sel"
    done; done
  done
done
date -u +%FT%TZ
} > $OUT/xover2.log 2>&1
cat $OUT/xover2.log
