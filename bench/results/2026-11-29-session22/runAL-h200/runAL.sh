#!/usr/bin/env bash
# Run AL, two calls.
# Call 1 (runAL.sh 1): this session's second code (the records of node
# entries packed in end order and moved by the sort's permutation, the
# classify's rows skipped where their segment misses the other chunk)
# against 1fbb452 (the last stop's head) built with CUDA: the C stage
# tests on CUDA and pytest's GPU subset; the intersection, the
# overlapping counties and the buffers, GPU and CPU engine once each way,
# answers compared with the base CPU engine's; step profiles of those and
# of the counties clipped by the states.
# Call 2 (runAL.sh 2): the same build against itself, without and with a
# 4 GiB pool reserve (VSGPU_GPU_POOL_RESERVE), step profiles of the
# intersection and the buffers interleaved, three rounds.
cd "$(dirname "$0")/.."
[ -d .device/build ] || tar xJf .device/build.tar.xz -C .device
if [ "${1:-1}" = 1 ]; then
  BASE_PLUGIN=.device/base-1fbb.so.xz BASE=1fbb452 RUN=AL WLS="intersection overlap buffers" \
    RUNS=1 CMPS="gpu-new cpu-new gpu-base" STEPS="intersection counties_clip overlap buffers" bash scripts/gpu-host-ab.sh
else
  for r in 1 2 3; do
    BASE_PLUGIN=.device/self.so.xz BASE="$(cat .device/build/COMMIT) without the reserve" RUN=AL TAG=r$r TESTS=0 WLS=" " \
      NEWCFG="--config VSGPU_GPU_POOL_RESERVE 4G" STEPS="intersection buffers" bash scripts/gpu-host-ab.sh
  done
fi
