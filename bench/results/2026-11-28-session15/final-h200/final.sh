#!/usr/bin/env bash
# The final build on the GPU host: AUTO's choice on large rows of the
# input and of the method layer (the tiled NYC boroughs and their grid at
# 4 and 10 M vertices), and pytest on CUDA for the dispatch and the
# validity screen. Logs under $OUT.
cd "$(dirname "$0")/.."
here=$PWD
mkdir -p /opt/gdal-rt /opt/py-rt
[ -f /opt/gdal-rt/env.sh ] || tar xJf .device/gdal-rt.tar.xz -C /opt/gdal-rt
[ -x /opt/py-rt/bin/python3 ] || tar xJf .device/py-rt.tar.xz -C /opt/py-rt
[ -d .device/build ] || tar xJf .device/build.tar.xz -C .device
. /opt/gdal-rt/env.sh
w=/tmp/fin; rm -rf $w; mkdir -p $w
dp=$here/.device/build/gdalplugins
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; cat .device/build/COMMIT; date -u +%FT%TZ
for n in 4000000 10000000; do
  python3 bench/workloads/generate.py --scale tiled --out $w/$n --tiled-vertices $n --only tiled_nybb_x_grid > $w/gen-$n.log 2>&1
  f=$(ls $w/$n/tiled_nybb_*.gpkg | head -1)
  for q in "SELECT * FROM ST_Intersection(grid, nybb)" "SELECT * FROM ST_Clip(grid, nybb)" \
           "SELECT * FROM ST_Clip(nybb, grid)" "SELECT tile, ST_Union(geom) AS geom FROM nybb GROUP BY tile"; do
    for eng in AUTO CPU; do
      rm -f $w/o.gpkg; t0=$(date +%s.%N)
      GDAL_DRIVER_PATH=$dp ogr2ogr -f GPKG -lco SPATIAL_INDEX=NO $w/o.gpkg "VSGPU:$f" -dialect VSGPU -sql "$q" \
        --config VSGPU_EXECUTION_MODE $eng --config CPL_DEBUG VSGPU > $w/run.log 2>&1 || { echo "failed"; tail -3 $w/run.log; }
      echo "$n $eng wall_s=$(awk "BEGIN{print $(date +%s.%N)-$t0}") $(grep -o "dispatch: .*" $w/run.log | head -1 | cut -c1-200)"
    done
  done
done
( . /opt/py-rt/env.sh; cd autotest && VSGPU_TEST_GPU_BACKEND=CUDA VSGPU_BUILD_DIR=$here/.device/build GDAL_DRIVER_PATH=$dp \
    timeout 200 python3 -m pytest -q -p no:cacheprovider pyscripts/test_vsgpu_gpu_pipeline.py pyscripts/test_vsgpu_valid_screen.py -rs 2>&1 | tail -6 )
date -u +%FT%TZ
} > $OUT/final.log 2>&1
cat $OUT/final.log
