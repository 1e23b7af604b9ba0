#!/usr/bin/env bash
# Run AK: this session's first code (e46472d: the refine's NODE_INFO, the
# arrangement's EV_ORDER, the pool reserve off by default) against 1fbb452
# (the last stop's head) built with CUDA, in two calls.
# Call 1 (runAK.sh 1): what growing the pool costs (vsgbench_pool, 3 runs
# each way, interleaved); the C stage tests on CUDA and pytest's GPU
# subset; the intersection, the overlapping counties and the buffers, GPU
# and CPU engine once each way, answers compared with the base CPU
# engine's; step profiles of those and of the counties clipped by the
# states.
# Call 2 (runAK.sh 2): the same GPU runs and profiles with a 4 GiB pool
# reserve (VSGPU_GPU_POOL_RESERVE) on the new build.
cd "$(dirname "$0")/.."
[ -d .device/build ] || tar xJf .device/build.tar.xz -C .device
if [ "${1:-1}" = 1 ]; then
  { for r in 1 2 3; do for res in 0 4294967296; do
      echo "== reserve $res run $r"; .device/build/bench/vsgbench_pool $res
    done; done; } > "$OUT/pool.log" 2>&1
  cat "$OUT/pool.log"
  BASE_PLUGIN=.device/base-1fbb.so.xz BASE=1fbb452 RUN=AK WLS="intersection overlap buffers" \
    RUNS=1 CMPS="gpu-new cpu-new gpu-base" STEPS="intersection counties_clip overlap buffers" bash scripts/gpu-host-ab.sh
else
  BASE_PLUGIN=.device/base-1fbb.so.xz BASE=1fbb452 RUN=AK TAG=2 TESTS=0 WLS="intersection overlap buffers" \
    NEWCFG="--config VSGPU_GPU_POOL_RESERVE 4G" RUNS=1 CMPS="gpu-new" \
    STEPS="intersection counties_clip overlap buffers" bash scripts/gpu-host-ab.sh
fi
