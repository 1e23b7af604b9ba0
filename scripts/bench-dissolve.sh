#!/usr/bin/env bash
# Dissolve on real, skewed data at scale (issue 12): scripts/bench-tiled.sh
# with the dissolve workloads (by state, one nation per copy).
#
#   bash scripts/bench-dissolve.sh [N] [engines] [out dir]
exec bash "$(dirname "$0")/bench-tiled.sh" dissolve "$@"
