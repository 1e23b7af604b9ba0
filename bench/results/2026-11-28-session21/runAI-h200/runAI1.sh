#!/usr/bin/env bash
# Run AI, first call: the whole validation of this session's last build
# (scripts/gpu-host-check.sh: every C test program on CUDA, the pytest
# suite with each GPU statement checked against the CPU engine, the modes
# and the crossover).
cd "$(dirname "$0")/.."
OUT=$OUT/check bash scripts/gpu-host-check.sh > "$OUT/check.log" 2>&1
echo "check rc=$?"; tail -30 "$OUT/check.log"
