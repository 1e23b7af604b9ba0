#!/usr/bin/env bash
# Configures and builds VSGPU into ${VSGPU_BUILD_DIR:-build}. Extra arguments go
# to cmake's configure step (e.g. -DVSGPU_CUDA=OFF).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${VSGPU_BUILD_DIR:-$here/build}
bash "$here/scripts/install-deps.sh"
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
cmake --build "$build" -j"$jobs"
echo "Built $build/gdalplugins/ogr_VSGPU.so"
