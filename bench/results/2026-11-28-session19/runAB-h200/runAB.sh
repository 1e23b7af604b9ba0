#!/usr/bin/env bash
# Run AB: the dissolves of run AA's build against 0b259bf: the counties by
# (tile, state) 13 x 13, the overlapping counties, the buffers; GPU twice
# each way, the CPU engine once, answers compared, step profiles. No tests
# (run AA ran them).
cd "$(dirname "$0")/.."
BASE_PLUGIN=.device/base-0b25.so.xz BASE=0b259bf RUN=AB WLS="by_state13 overlap buffers" TESTS=0 \
  RUNS=2 CMPS="gpu-new cpu-new gpu-base" STEPS="by_state13 overlap buffers" bash scripts/gpu-host-ab.sh
