#!/usr/bin/env bash
# Run AM, two calls, this session's last code (dc1edfd: the pool reserve
# on by default, 56-bit node keys, the refine's NODE_INFO, the
# arrangement's EV_ORDER).
# Call 1 (runAM.sh 1): the whole validation, scripts/gpu-host-check.sh.
# Call 2 (runAM.sh 2): step profiles against 1fbb452 (the last stop's
# head) built with CUDA: the intersection, the counties clipped by the
# states, the overlapping counties and the buffers, base and new, twice.
cd "$(dirname "$0")/.."
[ -d .device/build ] || tar xJf .device/build.tar.xz -C .device
if [ "${1:-1}" = 1 ]; then
  OUT=$OUT/check bash scripts/gpu-host-check.sh
else
  for r in 1 2; do
    BASE_PLUGIN=.device/base-1fbb.so.xz BASE=1fbb452 RUN=AM TAG=s$r TESTS=0 WLS=" " \
      STEPS="intersection counties_clip overlap buffers" bash scripts/gpu-host-ab.sh
  done
fi
