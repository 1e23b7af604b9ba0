#!/usr/bin/env bash
# Run V (2026-11-27 session 9): the final code's overlay gather on CUDA
# (a short call: the device time left): pytest on CUDA of the validity
# screen's and the GPU pipeline's files (the counties' intersection with
# the screen on, gathered, against the screen off, byte for byte), and
# test_gpu_stages. Logs under $OUT.
cd "$(dirname "$0")/.."
here=$PWD
mkdir -p /opt/gdal-rt /opt/py-rt
[ -f /opt/gdal-rt/env.sh ] || tar xJf .device/gdal-rt.tar.xz -C /opt/gdal-rt
[ -x /opt/py-rt/bin/python3 ] || tar xJf .device/py-rt.tar.xz -C /opt/py-rt
rm -rf .device/build; tar xJf .device/build.tar.xz -C .device
. /opt/gdal-rt/env.sh
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; echo "build $(cat .device/build/COMMIT) (run V)"; date -u +%FT%TZ; } > "$OUT/machine.txt"
(cd autotest && $here/.device/build/autotest/test_gpu_stages 2>&1 | tail -4) > "$OUT/ctests.log" 2>&1
( . /opt/py-rt/env.sh; cd autotest && VSGPU_TEST_GPU_BACKEND=CUDA VSGPU_BUILD_DIR=$here/.device/build GDAL_DRIVER_PATH=$here/.device/build/gdalplugins \
    timeout 120 python3 -m pytest -q -p no:cacheprovider pyscripts/test_vsgpu_valid_screen.py \
    pyscripts/test_vsgpu_gpu_pipeline.py -rs 2>&1 | tail -6 ) > "$OUT/pytest.log" 2>&1
date -u +%FT%TZ >> "$OUT/machine.txt"
cat "$OUT/ctests.log" "$OUT/pytest.log"
