#!/usr/bin/env bash
# Run AD: the session's final build (classify's chunk tables and join
# handed to the refine; per-coordinate steps in blocks of 64) against
# 0b259bf built with CUDA: the C stage tests and pytest on CUDA; the
# intersection, the clip, the counties by (tile, state) and the
# overlapping counties, GPU once each way, the CPU engine once each way,
# answers compared, step profiles.
cd "$(dirname "$0")/.."
BASE_PLUGIN=.device/base-0b25.so.xz BASE=0b259bf RUN=AD WLS="intersection counties_clip by_state13 overlap" \
  RUNS=1 CMPS="gpu-new cpu-new gpu-base" STEPS="intersection counties_clip by_state13 overlap" bash scripts/gpu-host-ab.sh
