#!/usr/bin/env bash
# The quick probe on the GPU host: the start-up timeline; pytest's dispatch,
# fault and dissolve tests on CUDA; the two coverage dissolves at 10 M, the
# carried build (new) against the commit before (base), GPU mode, beside the
# CPU engine and AUTO (new). Logs under $OUT.
cd "$(dirname "$0")/.."
mkdir -p /opt/gdal-rt /opt/py-rt
[ -f /opt/gdal-rt/env.sh ] || tar xJf .device/gdal-rt.tar.xz -C /opt/gdal-rt
[ -x /opt/py-rt/bin/python3 ] || tar xJf .device/py-rt.tar.xz -C /opt/py-rt
[ -d .device/build ] || tar xJf .device/build.tar.xz -C .device
bash scripts/gpu-host-startup.sh > "$OUT/startup.log" 2>&1
( . /opt/gdal-rt/env.sh; . /opt/py-rt/env.sh
  cd autotest && VSGPU_TEST_GPU_BACKEND=CUDA VSGPU_BUILD_DIR=$PWD/../.device/build \
    timeout 120 python3 -m pytest -q -p no:cacheprovider pyscripts -k "does_not_open or dispatch or coverage_union" -rs 2>&1 | tail -15 ) > "$OUT/pytest.log"
RUNS=${RUNS:-2} bash .device/run3.sh
