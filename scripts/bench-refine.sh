#!/usr/bin/env bash
# Intersection on real, skewed data at scale (issue 11): scripts/bench-tiled.sh
# with counties x states; engines copy, cpu-all, gpu and gpu-refine
# (VSGPU_GPU_REFINE=YES) by default.
#
#   bash scripts/bench-refine.sh [N] [engines] [out dir]
exec bash "$(dirname "$0")/bench-tiled.sh" intersection "$@"
