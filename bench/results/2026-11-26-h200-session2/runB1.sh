#!/usr/bin/env bash
# Run B1: the GPU validation (scripts/gpu-host-check.sh) on the carried build
cd "$(dirname "$0")/.."
bash scripts/gpu-host-check.sh > "$OUT/check.out" 2>&1; echo "check rc=$?" >> "$OUT/check.out"
tail -5 "$OUT/check.out"
