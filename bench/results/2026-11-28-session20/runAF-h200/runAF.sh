#!/usr/bin/env bash
# Run AF: this session's final build (run AE's, and the pairs whose
# intersection is one of their rows whole gathered from the input) against
# 37fa94b (the last stop's head) built with CUDA: the C stage tests and a
# pytest subset on CUDA; the intersection, the clip of the counties by the
# states and of the states by the counties, the counties by (tile, state)
# and the overlapping counties, GPU once each way, answers compared with
# the base CPU engine's, step profiles.
cd "$(dirname "$0")/.."
BASE_PLUGIN=.device/base-37fa.so.xz BASE=37fa94b RUN=AF WLS="intersection counties_clip states_clip by_state13 overlap" \
  RUNS=1 CMPS="gpu-new gpu-base" STEPS="intersection counties_clip states_clip overlap" bash scripts/gpu-host-ab.sh
