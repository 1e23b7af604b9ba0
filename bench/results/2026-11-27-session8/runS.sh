#!/usr/bin/env bash
# Run S (2026-11-27 session 8): the final code's Arrow input on CUDA: the
# pytest files of the Arrow input, read-ahead and GPU pipeline with the
# CUDA backend cross-checks, and ST_Intersection(counties, states) at 10 M
# vertices (GPU, once; the CPU engine, once; answers compared). Logs
# under $OUT.
cd "$(dirname "$0")/.."
mkdir -p /opt/gdal-rt /opt/py-rt
[ -f /opt/gdal-rt/env.sh ] || tar xJf .device/gdal-rt.tar.xz -C /opt/gdal-rt
[ -x /opt/py-rt/bin/python3 ] || tar xJf .device/py-rt.tar.xz -C /opt/py-rt
rm -rf .device/build; tar xJf .device/build.tar.xz -C .device
. /opt/gdal-rt/env.sh
export GDAL_DRIVER_PATH=$PWD/.device/build/gdalplugins
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; echo "build $(cat .device/build/COMMIT) (run S)"; date -u +%FT%TZ; } > "$OUT/machine.txt"
( . /opt/py-rt/env.sh; cd autotest && VSGPU_TEST_GPU_BACKEND=CUDA VSGPU_BUILD_DIR=$PWD/../.device/build \
    timeout 240 python3 -m pytest -q -p no:cacheprovider pyscripts/test_vsgpu_arrow_input.py \
    pyscripts/test_vsgpu_read_ahead.py pyscripts/test_vsgpu_gpu_pipeline.py -rs 2>&1 | tail -8 ) > "$OUT/pytest.log" 2>&1
w=/tmp/s; mkdir -p $w
python3 bench/workloads/generate.py --scale tiled --out $w/wl --tiled-vertices 10000000 --only tiled_counties_x_states > $w/gen.log 2>&1
f=$(ls $w/wl/tiled_*.gpkg | head -1)
for m in GPU CPU; do
  t0=$(date +%s.%N)
  ogr2ogr -f GPKG -lco SPATIAL_INDEX=NO $w/o-$m.gpkg VSGPU:$f -dialect VSGPU -sql "SELECT * FROM ST_Intersection(counties, states)" \
    --config VSGPU_EXECUTION_MODE $m --config CPL_DEBUG VSGPU > $w/$m.log 2>&1
  echo "intersection $m rc=$? wall_s=$(awk "BEGIN{print $(date +%s.%N)-$t0}")"; grep -h "batch after batch" $w/$m.log | head -1
done > "$OUT/s.log" 2>&1
.device/cmp-py bench/tools/compare_gpkg.py $w/o-GPU.gpkg $w/o-CPU.gpkg >> "$OUT/s.log" 2>&1
date -u +%FT%TZ >> "$OUT/machine.txt"
cat "$OUT/pytest.log" "$OUT/s.log"
