#!/usr/bin/env bash
# The benchmark rail at smoke scale, on any machine: the generated smoke
# workloads (~5k vertices each) and the real-data group (data/, one run
# each), every engine the build has, checked against the reference. Seconds
# to a minute. Needs a build with the plugin and the bench tools
# (${VSGPU_BUILD_DIR:-build}; scripts/build.sh makes one) and a python3 with
# numpy and scipy (the generator); matplotlib, when there, adds the plots.
#
#   bash scripts/bench-smoke.sh [rail.py arguments, e.g. --out DIR --no-plots]
#
# Output (default <build>/bench-smoke): rail.json, rail.md, plots/.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${VSGPU_BUILD_DIR:-$here/build}
if [ -z "${VSGPU_PYTHON:-}" ]; then
  # the system python has numpy/scipy on Debian; a pyenv one on PATH may not
  if [ -x /usr/bin/python3 ]; then VSGPU_PYTHON=/usr/bin/python3; else VSGPU_PYTHON=python3; fi
fi
for f in "$build/gdalplugins/ogr_VSGPU.so" "$build/bench/vsgbench_measure" "$build/bench/vsgbench_algebra"; do
  [ -e "$f" ] || { echo "bench-smoke: $f is missing: build first (bash scripts/build.sh)" >&2; exit 2; }
done
data=$(mktemp -d "${TMPDIR:-/tmp}/vsgpu-smoke-XXXXXX")
trap 'rm -rf "$data"' EXIT
"$VSGPU_PYTHON" "$here/bench/rail.py" --build "$build" --scale smoke,real \
  --data-dir "$data" --repeat smoke=3,real=1 --timeout 60 --out "$build/bench-smoke" "$@"
