#!/usr/bin/env bash
# Run AH: this session's build (the orientation's shortcut at a shared
# point, the read-ahead's features finished by several runs when the
# writer waits, the coverage union's area test) against d62ac80 (the last
# stop's head) built with CUDA: the intersection, the clip of the counties
# by the states, the counties by (tile, state), the overlapping counties
# and the buffers, GPU twice each way (walls: the writer's thread), answers
# compared with the base CPU engine's, step profiles. No tests (run AI).
cd "$(dirname "$0")/.."
BASE_PLUGIN=.device/base-d62a.so.xz BASE=d62ac80 RUN=AH WLS="intersection counties_clip by_state13 overlap buffers" \
  RUNS=2 CMPS="gpu-new gpu-base" TESTS=0 STEPS="intersection by_state13 overlap buffers" bash scripts/gpu-host-ab.sh
