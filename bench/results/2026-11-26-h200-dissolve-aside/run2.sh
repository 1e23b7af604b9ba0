#!/usr/bin/env bash
# the dissolve rail on the carried build; logs under $OUT, traces in a scratch folder
cd "$(dirname "$0")/.."
mkdir -p /opt/gdal-rt /opt/py-rt
[ -f /opt/gdal-rt/env.sh ] || tar xJf .device/gdal-rt.tar.xz -C /opt/gdal-rt
[ -x /opt/py-rt/bin/python3 ] || tar xJf .device/py-rt.tar.xz -C /opt/py-rt
[ -d .device/build ] || tar xJf .device/build.tar.xz -C .device
. /opt/gdal-rt/env.sh
export GDAL_DRIVER_PATH=$PWD/.device/build/gdalplugins

{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; cat .device/build/COMMIT; date -u +%FT%TZ; } > "$OUT/machine-bench.txt"
RUNS=${RUNS:-2} WORKLOADS=${WL:-"by_state nation overlap"} PYTHON=python3 \
  CMP_PYTHON=$PWD/.device/cmp-py \
  bash scripts/bench-dissolve.sh 10000000 "${ENGS:-copy geos-all cpu-all gpu}" /tmp/traces > "$OUT/dissolve.log" 2>&1
date -u +%FT%TZ >> "$OUT/machine-bench.txt"
tail -60 "$OUT/dissolve.log"
