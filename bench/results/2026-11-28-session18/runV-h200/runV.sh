#!/usr/bin/env bash
# Run V: the refine's and the arrangement's rows test only the other
# chunk's segments that meet their own chunk's box (cp_cols), and the
# validity screen links, keeps and rings its segments by input ring order
# (LINK_RING, SEG_KEEP, RING_ORDER; every backend), against f82f51c
# built with CUDA: the C stage tests and pytest on CUDA, the answers, the
# step profiles of the coverage and overlap unions, the buffers and the
# intersection, base and new.
cd "$(dirname "$0")/.."
BASE_PLUGIN=.device/base-f82f.so.xz BASE=f82f51c RUN=V WLS="by_state13 overlap buffers intersection" \
  RUNS=2 CMPS="gpu-new cpu-new gpu-base" STEPS="by_state13 overlap buffers intersection" \
  bash scripts/gpu-host-ab.sh
