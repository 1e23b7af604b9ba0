#!/usr/bin/env bash
# Run O: the CPU engine's union with 16-byte slots, side-by-side keys and
# the host backend's block cache (85a9fa4+) against 960ed47's engine (a
# CPU-only plugin: base rows are the CPU engine's). The GPU runs the same
# element code: its C stage tests, pytest and answers on CUDA.
cd "$(dirname "$0")/.."
here=$PWD
mkdir -p .device/build && tar xJf .device/build.tar.xz -C .device
.device/build/bench/vsgbench_pinned 16 64 256 > $OUT/pinned.log 2>&1; cat $OUT/pinned.log
BASE_PLUGIN=.device/base-960e.so.xz BASE=960ed47 RUN=O WLS="nybb_union by_state13 overlap" \
  RUNS=1 CMPS="gpu-new cpu-new" STEPS="" bash scripts/gpu-host-ab.sh
. /opt/gdal-rt/env.sh
( . /opt/py-rt/env.sh; cd autotest && VSGPU_TEST_GPU_BACKEND=CUDA VSGPU_BUILD_DIR=$here/.device/build \
  timeout 240 python3 -m pytest -q -p no:cacheprovider pyscripts/test_vsgpu_coverage_union.py \
  pyscripts/test_vsgpu_dissolve.py pyscripts/test_vsgpu_gpu_pipeline.py pyscripts/test_vsgpu_valid_screen.py \
  pyscripts/test_vsgpu_real_data.py -rs 2>&1 | tail -8 ) > $OUT/pytest.log 2>&1
cat $OUT/pytest.log
# the CPU engine's union: boroughs and counties, 1 and 16 threads, base and new, twice
declare -A SRC=([nybb]=$(ls /tmp/ab/wln/tiled_nybb_*.gpkg | head -1) [cty]=$(ls /tmp/ab/wl13/tiled_*.gpkg | head -1))
declare -A SQL=([nybb]="SELECT tile, ST_Union(geom) AS geom FROM nybb GROUP BY tile"
  [cty]="SELECT tile, substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM counties GROUP BY tile, st")
for wl in nybb cty; do for r in 1 2; do for t in 1 16; do for b in base new; do
  dp=$PWD/.device/build/gdalplugins; [ $b = base ] && dp=/tmp/base/gdalplugins
  rm -f /tmp/o-c.gpkg; t0=$(date +%s.%N)
  GDAL_DRIVER_PATH=$dp ogr2ogr -f GPKG -lco SPATIAL_INDEX=NO /tmp/o-c.gpkg "VSGPU:${SRC[$wl]}" -dialect VSGPU -sql "${SQL[$wl]}" \
    --config VSGPU_EXECUTION_MODE CPU --config VSGPU_NUM_THREADS $t --config VSGPU_PROFILE /tmp/pc.json > /dev/null 2>&1
  wall=$(awk "BEGIN{print $(date +%s.%N)-$t0}")
  python3 -c "
import json; d=json.load(open('/tmp/pc.json')); s={}
for x in d['stages']: s[x['stage']]=s.get(x['stage'],0)+x['elapsed_s']
print('cpu-union $wl $b threads=$t run=$r wall %.3f'%$wall, ' '.join('%s %.3f'%(k,s[k]) for k in ('read_input','group_union','coverage_segments','coverage_link','candidates','coverage_noding','coverage_rings','coverage_nesting','coverage_output') if k in s), 'total %.3f'%d['total_s'])"
done; done; done; done > $OUT/cpu-union.log 2>&1
cat $OUT/cpu-union.log
