#!/usr/bin/env bash
# Builds the libFuzzer targets of autotest/fuzz with clang (ASan + UBSan) in
# build-fuzz/ and runs each for a while on its seed corpus; fails if any
# target finds a crash, a sanitizer report, a failed invariant, a leak or
# a timeout. docs/testing.md ("Fuzzing") says how to read the findings.
#
#   scripts/fuzz.sh [seconds-per-target] [target ...]
#
# seconds-per-target: 60 by default. Targets: parser wkb columnar options
# sqlguard (all by default). VSGPU_FUZZ_JOBS targets run at once (default:
# the number of cores). Inputs the fuzzers find are kept in
# build-fuzz/fuzz-corpus/<target> and reused by the next run; crashing
# inputs go to build-fuzz/fuzz-artifacts/<target>/ and the logs to
# build-fuzz/fuzz-logs/<target>.log.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-60}
[ $# -gt 0 ] && shift
build=${VSGPU_FUZZ_BUILD_DIR:-$here/build-fuzz}
jobs=${VSGPU_FUZZ_JOBS:-$(nproc 2>/dev/null || echo 2)}
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(parser wkb columnar options sqlguard)

bash "$here/scripts/install-deps.sh" fuzz

echo "== fuzz build ($build)"
cmake -S "$here" -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVSGPU_CUDA=OFF -DVSGPU_BUILD_FUZZERS=ON \
  -DVSGPU_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" --target fuzzers -j"$jobs" >/dev/null

max_len() {
  case $1 in
    parser|sqlguard) echo 4096 ;;
    wkb|columnar) echo 16384 ;;
    options) echo 1024 ;;
    *) echo 4096 ;;
  esac
}

run_target() {
  local t=$1 bin="$build/autotest/fuzz/fuzz_$1"
  local work="$build/fuzz-corpus/$t" art="$build/fuzz-artifacts/$t"
  rm -rf "$art"
  mkdir -p "$work" "$art" "$build/fuzz-logs"
  local seeds=()
  for d in "$here/autotest/fuzz/corpus/$t" "$here/autotest/fuzz/regressions/$t"; do
    [ -d "$d" ] && seeds+=("$d")
  done
  # The first directory receives what the fuzzer finds; the committed
  # seeds and regressions are read only (and replayed first).
  "$bin" -max_total_time="$secs" -max_len="$(max_len "$t")" -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$art/" \
    "$work" "${seeds[@]}" >"$build/fuzz-logs/$t.log" 2>&1
}

echo "== fuzzing ${targets[*]}: ${secs} s each, $jobs at once"
declare -A pids
failed=()
running=0
for t in "${targets[@]}"; do
  [ -x "$build/autotest/fuzz/fuzz_$t" ] || { echo "no fuzz target '$t'" >&2; exit 2; }
  if [ "$running" -ge "$jobs" ]; then
    wait -n || true
    running=$((running - 1))
  fi
  run_target "$t" &
  pids[$t]=$!
  running=$((running + 1))
done
for t in "${targets[@]}"; do
  if wait "${pids[$t]}"; then
    execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$build/fuzz-logs/$t.log" | grep -o '[0-9]*$' || true)
    cov=$(grep -o 'cov: [0-9]*' "$build/fuzz-logs/$t.log" | tail -1 || true)
    echo "  $t: ok (${execs:-?} runs, $cov)"
  else
    failed+=("$t")
    echo "  $t: FAILED"
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  for t in "${failed[@]}"; do
    echo "==== $t ($build/fuzz-logs/$t.log)"
    grep -E -A30 "ERROR: |runtime error|invariant failed|deadly signal|timeout after" \
      "$build/fuzz-logs/$t.log" | head -60 || tail -40 "$build/fuzz-logs/$t.log"
    ls "$build/fuzz-artifacts/$t"/* 2>/dev/null | sed 's/^/  input: /'
  done
  echo "fuzzing found problems in: ${failed[*]} (reproduce: build-fuzz/autotest/fuzz/fuzz_<target> <input>)" >&2
  exit 1
fi
