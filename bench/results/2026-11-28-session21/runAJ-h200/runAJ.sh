#!/usr/bin/env bash
# Run AJ: this session's final code (run AI's, with each row's exact tests
# looping over the columns near its segment) against d62ac80 (the last
# stop's head) built with CUDA: the C stage tests on CUDA (device answers
# identical to the host's) and pytest's GPU subset; the intersection, the
# overlapping counties and the buffers, GPU and CPU engine once each way,
# answers compared with the base CPU engine's; step profiles of those and
# of the counties clipped by the states.
cd "$(dirname "$0")/.."
BASE_PLUGIN=.device/base-d62a.so.xz BASE=d62ac80 RUN=AJ WLS="intersection overlap buffers" \
  RUNS=1 CMPS="gpu-new cpu-new gpu-base" STEPS="intersection counties_clip overlap buffers" bash scripts/gpu-host-ab.sh
