#!/usr/bin/env bash
# Run P: dense overlaps (tiled_buffers) on the GPU and the CPU engine; the
# coverage noding's skip of marked groups (every backend) against
# 960ed47's engine (a CPU-only plugin: base rows are the CPU engine's).
cd "$(dirname "$0")/.."
here=$PWD
BASE_PLUGIN=.device/base-960e.so.xz BASE=960ed47 RUN=P WLS="buffers overlap nybb_union by_state13" \
  RUNS=2 CMPS="gpu-new cpu-new" STEPS="buffers overlap" bash scripts/gpu-host-ab.sh
. /opt/gdal-rt/env.sh
( . /opt/py-rt/env.sh; cd autotest && VSGPU_TEST_GPU_BACKEND=CUDA VSGPU_BUILD_DIR=$here/.device/build \
  timeout 200 python3 -m pytest -q -p no:cacheprovider pyscripts/test_vsgpu_coverage_union.py \
  pyscripts/test_vsgpu_dissolve.py pyscripts/test_vsgpu_valid_screen.py -rs 2>&1 | tail -4 ) > $OUT/pytest.log 2>&1
cat $OUT/pytest.log
# the buffers: AUTO's choice, GEOS alone on the CPU engine, and the CPU engine at 16 threads, base and new
src=$(ls /tmp/ab/wlb/tiled_*.gpkg | head -1)
sql="SELECT tile, substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM buffers GROUP BY tile, st"
for r in 1 2; do for v in "new AUTO YES" "new CPU YES" "base CPU YES" "new CPU NO" "new GPU YES"; do
  set -- $v; dp=$PWD/.device/build/gdalplugins; [ $1 = base ] && dp=/tmp/base/gdalplugins
  rm -f /tmp/o-b.gpkg; t0=$(date +%s.%N)
  GDAL_DRIVER_PATH=$dp ogr2ogr -f GPKG -lco SPATIAL_INDEX=NO /tmp/o-b.gpkg "VSGPU:$src" -dialect VSGPU -sql "$sql" \
    --config VSGPU_EXECUTION_MODE $2 --config VSGPU_COVERAGE_UNION $3 --config VSGPU_PROFILE /tmp/pb.json --config CPL_DEBUG VSGPU > /tmp/b.log 2>&1
  wall=$(awk "BEGIN{print $(date +%s.%N)-$t0}")
  sel=$(grep -o "selected [A-Z]*" /tmp/b.log | head -1)
  python3 -c "
import json; d=json.load(open('/tmp/pb.json')); s={}
for x in d['stages']: s[x['stage']]=s.get(x['stage'],0)+x['elapsed_s']
print('buffers $1 mode=$2 coverage_union=$3 run=$r wall %.3f ($sel)'%$wall, ' '.join('%s %.3f'%(k,v) for k,v in s.items() if v>=0.01))"
done; done > $OUT/buffers.log 2>&1
cat $OUT/buffers.log
