#!/usr/bin/env bash
# Run A (2026-11-26 session 2): what a CUDA process pays at exit, by variant
# (exit_cost: plain, retain, quick, reset); the small statement's timeline;
# the CPU engine's dissolve per core (one thread) at 10 M on this host's Xeon.
cd "$(dirname "$0")/.."
mkdir -p /opt/gdal-rt /opt/py-rt
[ -f /opt/gdal-rt/env.sh ] || tar xJf .device/gdal-rt.tar.xz -C /opt/gdal-rt
[ -x /opt/py-rt/bin/python3 ] || tar xJf .device/py-rt.tar.xz -C /opt/py-rt
[ -d .device/build ] || tar xJf .device/build.tar.xz -C .device
{ nvidia-smi --query-gpu=name,driver_version,persistence_mode --format=csv,noheader; nproc; cat .device/build/COMMIT; date -u +%FT%TZ; } > "$OUT/machine.txt"
{
for r in 1 2 3 4 5; do
  for v in plain retain quick retain-quick reset; do
    line=$(.device/exit_cost $v); e=$(date +%s.%N)
    end=$(echo "$line" | awk '{print $NF}')
    echo "$line exit $(awk "BEGIN{printf \"%.3f\", $e - $end}")"
  done
done
} > "$OUT/exit.log" 2>&1
bash scripts/gpu-host-startup.sh > "$OUT/startup.log" 2>&1
. /opt/gdal-rt/env.sh
export GDAL_DRIVER_PATH=$PWD/.device/build/gdalplugins
RUNS=1 WORKLOADS="by_state nation" PYTHON=python3 CMP_PYTHON=$PWD/.device/cmp-py \
  bash scripts/bench-dissolve.sh 10000000 "cpu-1 cpu-all" /tmp/traces > "$OUT/dissolve.log" 2>&1
date -u +%FT%TZ >> "$OUT/machine.txt"
cat "$OUT/exit.log"; tail -40 "$OUT/dissolve.log"
