#!/usr/bin/env bash
# Runs every test: the C unit tests and the pytest autotest suite (ctest runs
# both). Builds first, installing missing packages (see install-deps.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${VSGPU_BUILD_DIR:-$here/build}
VSGPU_BUILD_DIR=$build bash "$here/scripts/build.sh" "$@"
jobs=$(nproc 2>/dev/null || echo 2)
cd "$build"
ctest --output-on-failure -j"$jobs"
