#!/usr/bin/env bash
# Run U: the refine's equal segments without orientations (every backend):
# the C stage tests and pytest on CUDA, the intersection's answers against
# 960ed47's CPU engine (a CPU-only plugin), one step profile.
cd "$(dirname "$0")/.."
BASE_PLUGIN=.device/base-960e.so.xz BASE=960ed47 RUN=U WLS="intersection" \
  RUNS=1 CMPS="gpu-new cpu-new" STEPS="intersection" bash scripts/gpu-host-ab.sh
