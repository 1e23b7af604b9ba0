#!/usr/bin/env bash
# Prepares, on this (GPU-less) machine, everything a run on the GPU host
# needs, in the ignored folder .device/ (carried by the device tool):
#   .device/build.tar.xz  a CUDA-enabled build's products (sm_90 + PTX), laid
#                       out like a build directory: gdalplugins/ogr_VSGPU.so,
#                       the C test programs in autotest/, the bench tools in
#                       bench/; the host scripts unpack it to .device/build
#   .device/gdal-rt.tar.xz   GDAL 3.6 runtime (../shared/tools/gdal-runtime-bundle)
#   .device/py-rt.tar.xz     Python 3.11 + osgeo + pytest (make-py-runtime.sh)
# Then run scripts/gpu-host-check.sh (validation) or
# scripts/bench-gpu-host.sh (benchmark rail) there.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${VSGPU_BUILD_DIR:-$here/build-gpu}
# The GPU host is a Hopper: sm_90 and its PTX keep the carried build small
# (the carried tree is limited to 64 MiB); CI builds every architecture.
arch=${VSGPU_DEVICE_ARCH:-90}
bundle_tool=${GDAL_RUNTIME_BUNDLE:-$here/../shared/tools/gdal-runtime-bundle}
VSGPU_BUILD_DIR=$build bash "$here/scripts/build.sh" -DVSGPU_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES="$arch"
dev=$here/.device
rm -rf "$dev/build" "$dev/vsgpu"
mkdir -p "$dev/build/gdalplugins" "$dev/build/autotest" "$dev/build/bench"
cp "$build/gdalplugins/ogr_VSGPU.so" "$dev/build/gdalplugins/"
for t in "$build"/autotest/test_*; do
  case "$t" in *sanitized*) ;; *) [ -x "$t" ] && cp "$t" "$dev/build/autotest/" ;; esac
done
for t in "$build"/bench/vsgbench_*; do [ -x "$t" ] && cp "$t" "$dev/build/bench/"; done
if [ ! -f "$dev/gdal-rt.tar.xz" ]; then
  "$bundle_tool" "$dev/gdal-rt.tar.xz"
  # xz -9e saves ~0.7 MB, which the 64 MiB carry limit needs
  xz -dc "$dev/gdal-rt.tar.xz" | xz -9e -T2 > "$dev/gdal-rt.tar.xz.tmp" && mv "$dev/gdal-rt.tar.xz.tmp" "$dev/gdal-rt.tar.xz"
fi
# without NumPy (2.4 MiB): the carry limit needs it; the Arrow tests then skip there
[ -f "$dev/py-rt.tar.xz" ] || bash "$here/scripts/make-py-runtime.sh" --no-numpy
git -C "$here" rev-parse HEAD > "$dev/build/COMMIT"
git -C "$here" status --porcelain | grep -v '^??' > "$dev/build/DIRTY" || true
# the plugin too: its debug information is 2.4 MiB of the carry, compressed
strip --strip-unneeded "$dev"/build/gdalplugins/ogr_VSGPU.so "$dev"/build/autotest/test_* \
  "$dev"/build/bench/vsgbench_* 2>/dev/null || true
# One compressed file: the carried tree (tracked files + .device) must stay
# under 64 MiB. The host scripts unpack it to .device/build.
XZ_OPT=-9e tar -C "$dev" -cJf "$dev/build.tar.xz" build && rm -rf "$dev/build"
du -sh "$dev" "$dev"/*
echo "carried: $(( ( $(git -C "$here" ls-files -z | xargs -0 du -cb | tail -1 | cut -f1) + $(du -sb "$dev" | cut -f1) ) / 1048576 )) MiB of 64"
