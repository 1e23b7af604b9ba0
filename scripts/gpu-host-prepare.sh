#!/usr/bin/env bash
# Prepares, on this (GPU-less) machine, everything a run on the GPU host
# needs, in the ignored folder .device/ (carried by the device tool):
#   .device/build/      a CUDA-enabled build's products, laid out like a
#                       build directory: gdalplugins/ogr_VSGPU.so, the C
#                       test programs in autotest/, the bench tools in bench/
#   .device/gdal-rt.tar.xz   GDAL 3.6 runtime (../shared/tools/gdal-runtime-bundle)
#   .device/py-rt.tar.xz     Python 3.11 + osgeo + pytest (make-py-runtime.sh)
# Then run scripts/gpu-host-check.sh (validation) or
# scripts/bench-gpu-host.sh (benchmark rail) there.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${VSGPU_BUILD_DIR:-$here/build-gpu}
bundle_tool=${GDAL_RUNTIME_BUNDLE:-$here/../shared/tools/gdal-runtime-bundle}
VSGPU_BUILD_DIR=$build bash "$here/scripts/build.sh" -DVSGPU_CUDA=ON
dev=$here/.device
rm -rf "$dev/build" "$dev/vsgpu"
mkdir -p "$dev/build/gdalplugins" "$dev/build/autotest" "$dev/build/bench"
cp "$build/gdalplugins/ogr_VSGPU.so" "$dev/build/gdalplugins/"
for t in "$build"/autotest/test_*; do
  case "$t" in *sanitized*) ;; *) [ -x "$t" ] && cp "$t" "$dev/build/autotest/" ;; esac
done
for t in "$build"/bench/vsgbench_*; do [ -x "$t" ] && cp "$t" "$dev/build/bench/"; done
[ -f "$dev/gdal-rt.tar.xz" ] || "$bundle_tool" "$dev/gdal-rt.tar.xz"
[ -f "$dev/py-rt.tar.xz" ] || bash "$here/scripts/make-py-runtime.sh"
git -C "$here" rev-parse HEAD > "$dev/build/COMMIT"
git -C "$here" status --porcelain | grep -v '^??' > "$dev/build/DIRTY" || true
strip --strip-unneeded "$dev"/build/autotest/test_* "$dev"/build/bench/vsgbench_* 2>/dev/null || true
du -sh "$dev" "$dev"/*
