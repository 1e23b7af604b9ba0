#!/usr/bin/env bash
# Run S: the CPU engine's overlap union (groups up to 2^14 vertices, one
# a call; dense groups to GEOS) against 960ed47's engine (a CPU-only
# plugin); the GPU's answers and tests on the same build.
cd "$(dirname "$0")/.."
here=$PWD
BASE_PLUGIN=.device/base-960e.so.xz BASE=960ed47 RUN=S WLS="buffers overlap by_state13" \
  RUNS=1 CMPS="gpu-new cpu-new" STEPS=" " bash scripts/gpu-host-ab.sh
. /opt/gdal-rt/env.sh
( . /opt/py-rt/env.sh; cd autotest && VSGPU_TEST_GPU_BACKEND=CUDA VSGPU_BUILD_DIR=$here/.device/build \
  timeout 200 python3 -m pytest -q -p no:cacheprovider pyscripts/test_vsgpu_coverage_union.py \
  pyscripts/test_vsgpu_dissolve.py pyscripts/test_vsgpu_valid_screen.py -rs 2>&1 | tail -4 ) > $OUT/pytest.log 2>&1
cat $OUT/pytest.log
declare -A SRC=([buffers]=$(ls /tmp/ab/wlb/tiled_*.gpkg | head -1) [overlap]=$(ls /tmp/ab/wlo/tiled_*.gpkg | head -1))
for r in 1 2; do for wl in buffers overlap; do for b in base new; do
  dp=$PWD/.device/build/gdalplugins; [ $b = base ] && dp=/tmp/base/gdalplugins
  sql="SELECT tile, substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM $wl GROUP BY tile, st"
  rm -f /tmp/o-s.gpkg; t0=$(date +%s.%N)
  GDAL_DRIVER_PATH=$dp ogr2ogr -f GPKG -lco SPATIAL_INDEX=NO /tmp/o-s.gpkg "VSGPU:${SRC[$wl]}" -dialect VSGPU -sql "$sql" \
    --config VSGPU_EXECUTION_MODE CPU --config VSGPU_PROFILE /tmp/ps.json > /dev/null 2>&1
  wall=$(awk "BEGIN{print $(date +%s.%N)-$t0}")
  python3 -c "
import json; d=json.load(open('/tmp/ps.json')); s={}
for x in d['stages']: s[x['stage']]=s.get(x['stage'],0)+x['elapsed_s']
print('cpu $wl $b run=$r wall %.3f'%$wall, ' '.join('%s %.3f'%(k,s[k]) for k in ('read_input','group_union','chunk_union','union','merge','arrange_nodes','arrange_labels') if k in s))"
done; done; done > $OUT/cpu.log 2>&1
cat $OUT/cpu.log
