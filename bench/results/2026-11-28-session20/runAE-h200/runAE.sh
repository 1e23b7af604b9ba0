#!/usr/bin/env bash
# Run AE: this session's build (the boundary's noding left out for exact
# pairs of screened rows; no rings for groups already marked; the refine's
# items from the pairs; the clip's one-piece rows without the union)
# against 37fa94b (the last stop's head) built with CUDA: the C stage tests
# and a pytest subset on CUDA; the intersection, the clip, the counties by
# (tile, state) and the overlapping counties, GPU once each way, answers
# compared with the base CPU engine's, step profiles.
cd "$(dirname "$0")/.."
BASE_PLUGIN=.device/base-37fa.so.xz BASE=37fa94b RUN=AE WLS="intersection counties_clip by_state13 overlap" \
  RUNS=1 CMPS="gpu-new gpu-base" STEPS="intersection counties_clip by_state13 overlap" bash scripts/gpu-host-ab.sh
