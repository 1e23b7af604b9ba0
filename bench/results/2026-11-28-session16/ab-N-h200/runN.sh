#!/usr/bin/env bash
# Run N: the coverage union's noding by chunks, link from R's order, PIP
# per pair (CPU engine) against a8f1ca1's plugin (14788dd's engine).
cd "$(dirname "$0")/.."
BASE_PLUGIN=.device/base-a8f1.so.xz BASE=a8f1ca1 RUN=N WLS="nybb_union by_state13 overlap intersection" \
  RUNS=1 STEPS="nybb_union" bash scripts/gpu-host-ab.sh
. /opt/gdal-rt/env.sh
# the CPU engine's union on the boroughs, 1 and 16 threads, base and new, twice
src=$(ls /tmp/ab/wln/tiled_nybb_*.gpkg | head -1)
for r in 1 2; do for t in 1 16; do for b in base new; do
  dp=$PWD/.device/build/gdalplugins; [ $b = base ] && dp=/tmp/base/gdalplugins
  rm -f /tmp/o-c.gpkg
  GDAL_DRIVER_PATH=$dp ogr2ogr -f GPKG -lco SPATIAL_INDEX=NO /tmp/o-c.gpkg "VSGPU:$src" -dialect VSGPU -sql "SELECT tile, ST_Union(geom) AS geom FROM nybb GROUP BY tile" \
    --config VSGPU_EXECUTION_MODE CPU --config VSGPU_NUM_THREADS $t --config VSGPU_PROFILE /tmp/pc.json > /dev/null 2>&1
  python3 -c "
import json; d=json.load(open('/tmp/pc.json')); s={}
for x in d['stages']: s[x['stage']]=s.get(x['stage'],0)+x['elapsed_s']
print('cpu-union $b threads=$t run=$r', ' '.join('%s %.3f'%(k,s[k]) for k in ('group_union','coverage_segments','coverage_link','candidates','coverage_noding','coverage_rings','coverage_nesting') if k in s), 'total %.3f'%d['total_s'])"
done; done; done > $OUT/cpu-union.log 2>&1
cat $OUT/cpu-union.log
