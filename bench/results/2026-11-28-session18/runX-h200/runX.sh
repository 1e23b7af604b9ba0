#!/usr/bin/env bash
# Run X: the large rows with the screen by ring order: the NYC boroughs
# tiled to 10 M vertices dissolved by tile, and the rectangle clips of the
# boroughs and of the counties, build 4357911 against f82f51c built with
# CUDA, twice each, with their copy floors (the GPU wall against the floor,
# issue 13).
cd "$(dirname "$0")/.."
BASE_PLUGIN=.device/base-f82f.so.xz BASE=f82f51c RUN=X WLS="nybb_union" RECTS=1 TESTS=0 \
  RUNS=2 CMPS="gpu-new cpu-new gpu-base" STEPS="nybb_union" bash scripts/gpu-host-ab.sh
