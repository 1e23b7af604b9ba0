#!/usr/bin/env bash
# Run Y: the review's refactor of the screen (one ring-span helper, no
# predecessor check on its ring-order links): the C stage tests and the
# screen's, pipeline's and dissolve's pytest files on CUDA.
cd "$(dirname "$0")/.."
here=$PWD
mkdir -p /opt/gdal-rt /opt/py-rt
[ -f /opt/gdal-rt/env.sh ] || tar xJf .device/gdal-rt.tar.xz -C /opt/gdal-rt
[ -x /opt/py-rt/bin/python3 ] || tar xJf .device/py-rt.tar.xz -C /opt/py-rt
[ -d .device/build ] || tar xJf .device/build.tar.xz -C .device
. /opt/gdal-rt/env.sh
cat .device/build/COMMIT; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u +%FT%TZ
for tp in test_stage_coverage test_stage_valid_screen test_stage_overlap test_stage_refine test_gpu_stages; do
  echo "== $tp"; (cd autotest && $here/.device/build/autotest/$tp 2>&1 | grep -v "^ok " | tail -4)
done
( . /opt/py-rt/env.sh; cd autotest && VSGPU_TEST_GPU_BACKEND=CUDA VSGPU_BUILD_DIR=$here/.device/build GDAL_DRIVER_PATH=$here/.device/build/gdalplugins \
  timeout 300 python3 -m pytest -q -p no:cacheprovider pyscripts/test_vsgpu_valid_screen.py \
  pyscripts/test_vsgpu_gpu_pipeline.py pyscripts/test_vsgpu_dissolve.py -rs 2>&1 | tail -4 )
date -u +%FT%TZ
