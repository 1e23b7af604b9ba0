#!/usr/bin/env bash
# Run AA: this session's build against 0b259bf (the last stop's head)
# built with CUDA: the C stage tests and pytest on CUDA; the intersection
# and the clip of the tiled counties by the states (10 M vertices), GPU
# twice each way, the CPU engine once, answers compared, the copy floor,
# step profiles; the new batches' sizes as the debug log names them.
cd "$(dirname "$0")/.."
BASE_PLUGIN=.device/base-0b25.so.xz BASE=0b259bf RUN=AA WLS="intersection counties_clip" \
  RUNS=2 CMPS="gpu-new cpu-new gpu-base" STEPS="intersection counties_clip" bash scripts/gpu-host-ab.sh
for t in gpu-base-1 gpu-new-1; do
  for wl in intersection counties_clip; do
    echo "$wl $t batches: $(grep -o 'batch of [0-9]*' /tmp/ab/run-$wl-$t.log | awk '{printf "%s ", $3}')"
  done
done | tee $OUT/batches.log
