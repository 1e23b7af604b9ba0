#!/usr/bin/env bash
# The GPU pipeline against the CPU engine (16 threads) on large polygons:
# the NYC boroughs (about 15,000 vertices a row) tiled to growing sizes,
# dissolved by tile and intersected with their grid; ogr2ogr end to end
# into a GeoPackage, each engine twice, interleaved. Logs under $OUT.
cd "$(dirname "$0")/.."
mkdir -p /opt/gdal-rt
[ -f /opt/gdal-rt/env.sh ] || tar xJf .device/gdal-rt.tar.xz -C /opt/gdal-rt
[ -d .device/build ] || tar xJf .device/build.tar.xz -C .device
. /opt/gdal-rt/env.sh
w=/tmp/xo; rm -rf $w; mkdir -p $w
dp=$PWD/.device/build/gdalplugins
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; cat .device/build/COMMIT; date -u +%FT%TZ
echo "vertices rows op engine run wall_s"
for n in 150000 300000 600000 1000000 2000000 4000000 10000000; do
  python3 bench/workloads/generate.py --scale tiled --out $w/$n --tiled-vertices $n --only tiled_nybb_x_grid > $w/gen-$n.log 2>&1
  f=$(ls $w/$n/tiled_nybb_*.gpkg | head -1)
  rows=$(ogrinfo -so $f nybb | awk '/Feature Count/{print $3}')
  for op in union intersection; do
    if [ $op = union ]; then q="SELECT tile, ST_Union(geom) AS geom FROM nybb GROUP BY tile"
    else q="SELECT * FROM ST_Intersection(nybb, grid)"; fi
    for r in 1 2; do for eng in CPU GPU; do
      rm -f $w/o.gpkg; t0=$(date +%s.%N)
      GDAL_DRIVER_PATH=$dp ogr2ogr -f GPKG -lco SPATIAL_INDEX=NO $w/o.gpkg "VSGPU:$f" -dialect VSGPU -sql "$q" \
        --config VSGPU_EXECUTION_MODE $eng > $w/run.log 2>&1 || { echo "failed $n $op $eng"; tail -3 $w/run.log; }
      echo "$n $rows $op $eng $r $(awk "BEGIN{print $(date +%s.%N)-$t0}")"
    done; done
  done
done
date -u +%FT%TZ
} > $OUT/xover.log 2>&1
cat $OUT/xover.log
