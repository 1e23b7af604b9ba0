#!/usr/bin/env bash
# The whole test suite again on a build with AddressSanitizer and
# UndefinedBehaviorSanitizer: the C tests (leak checking on), then the
# autotest suite with the sanitizer runtimes preloaded into Python, so the
# plugin is checked inside a host process as QGIS would load it, and in
# every ogr2ogr/ogrinfo the tests start. Any report fails the run.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${VSGPU_ASAN_BUILD_DIR:-$here/build-asan}
bash "$here/scripts/install-deps.sh"
san="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
cmake -S "$here" -B "$build" -DVSGPU_CUDA=OFF -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_C_FLAGS="$san" -DCMAKE_CXX_FLAGS="$san" \
  -DCMAKE_MODULE_LINKER_FLAGS="$san" -DCMAKE_EXE_LINKER_FLAGS="$san" >/dev/null
cmake --build "$build" -j"$(nproc 2>/dev/null || echo 2)"

for t in "$build"/autotest/test_*; do
  echo "== $(basename "$t")"
  ASAN_OPTIONS=detect_leaks=1 "$t" 2>&1 | tail -1
done

preload="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)"
# Two pytest processes side by side, as ctest runs the suite: the fault
# sweeps (two children at a time) and the rest (mostly one process at a
# time), each with its own base folder and log.
faults="$here/autotest/pyscripts/test_vsgpu_faults.py"
log_main=$(mktemp)
log_faults=$(mktemp)
run_pytest() {   # log, pytest arguments...
  local log=$1
  shift
  # Python itself leaks by design at exit: leak checking off in the host.
  LD_PRELOAD="$preload" ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 \
    GDAL_DRIVER_PATH="$build/gdalplugins" VSGPU_BUILD_DIR="$build" \
    /usr/bin/python3 -m pytest -q -s -p no:cacheprovider "$@" > "$log" 2>&1 || true
}
run_pytest "$log_faults" --basetemp="$build/pytest-faults" "$faults" &
faults_pid=$!
run_pytest "$log_main" --basetemp="$build/pytest-main" --ignore="$faults" "$here/autotest/pyscripts"
wait "$faults_pid"
ok=1
for log in "$log_main" "$log_faults"; do
  tail -3 "$log"
  if grep -qE "runtime error|ERROR: AddressSanitizer|ERROR: LeakSanitizer" "$log"; then
    echo "sanitizer reports:"; grep -E -A5 "runtime error|ERROR: (Address|Leak)Sanitizer" "$log" | head -60
    ok=0
  fi
  if ! grep -qE "[0-9]+ passed" "$log" || grep -qE "[0-9]+ failed|[0-9]+ error" "$log"; then
    grep -E "^(FAILED|ERROR) " "$log" | head -20
    ok=0
  fi
done
[ "$ok" = 1 ]
