#!/usr/bin/env bash
cd "$(dirname "$0")/.."
mkdir -p /opt/gdal-rt; [ -f /opt/gdal-rt/env.sh ] || tar xJf .device/gdal-rt.tar.xz -C /opt/gdal-rt
[ -d .device/build ] || tar xJf .device/build.tar.xz -C .device
for r in 1 2 3; do
  for bytes in 0 4294967296; do
    for mode in teardown quick reset own; do
      t0=$(date +%s.%N); out=$(.device/build/bench/vsgbench_cuda_start $mode $bytes 2>&1); t1=$(date +%s.%N)
      echo "$mode $bytes $t0 $t1 $(echo "$out" | tr '\n' ' ')"
    done
  done
done
