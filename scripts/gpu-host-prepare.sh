#!/usr/bin/env bash
# Prepares, on this (GPU-less) machine, what a run on the GPU host needs, in
# the ignored folder .device/: the plugin and the C test programs from a
# CUDA-enabled build (sm_75..sm_90 + PTX, cudart static), and the GDAL
# runtime bundle (../shared/tools/gdal-runtime-bundle), since the GPU host
# has no GDAL. Then carry .device and run scripts/gpu-host-check.sh there.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${VSGPU_BUILD_DIR:-$here/build-gpu}
bundle_tool=${GDAL_RUNTIME_BUNDLE:-$here/../shared/tools/gdal-runtime-bundle}
VSGPU_BUILD_DIR=$build bash "$here/scripts/build.sh" -DVSGPU_CUDA=ON
mkdir -p "$here/.device/vsgpu"
cp "$build/gdalplugins/ogr_VSGPU.so" "$here/.device/vsgpu/"
for t in "$build"/autotest/test_*; do
  case "$t" in *sanitized*) ;; *) cp "$t" "$here/.device/vsgpu/" ;; esac
done
[ -f "$here/.device/gdal-rt.tar.xz" ] || "$bundle_tool" "$here/.device/gdal-rt.tar.xz"
git -C "$here" rev-parse HEAD > "$here/.device/vsgpu/COMMIT"
du -sh "$here/.device"
