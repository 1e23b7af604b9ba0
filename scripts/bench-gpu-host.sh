#!/usr/bin/env bash
# The benchmark rail on the GPU host. Runs from the repository root with the
# ignored folder .device/ carried (scripts/gpu-host-prepare.sh makes it):
#   .device/gdal-rt.tar.xz          GDAL 3.6 tools and libraries (the host has no GDAL)
#   .device/build/gdalplugins/ogr_VSGPU.so   the CUDA-enabled plugin (and .device/build/COMMIT)
#   .device/build/bench/vsgbench_algebra  GDAL's OGRLayer::Intersection/Clip, timed
#   .device/build/bench/vsgbench_measure  the output measure of the correctness check
# Builds nothing. Generates the workloads into /tmp, runs bench/rail.py with
# the host's python3 (numpy, scipy, matplotlib; no GDAL bindings needed) and
# writes rail.json, rail.md, rail.log and plots.tar (plots/ and the workload
# manifests) under $OUT.
#
#   bash scripts/bench-gpu-host.sh small,medium   # + the real-data group; default
#   bash scripts/bench-gpu-host.sh large
#   bash scripts/bench-gpu-host.sh tiled          # real layers tiled to 10 M vertices
#
# Each call fits in VSGPU_BENCH_BUDGET_S seconds (default 540, for a 10-minute
# device command): the rail gets what is left after unpacking, and runs the
# VSGPU engines on every workload before GDAL's, so the budget cuts GDAL's
# slowest rows first; what was cut is recorded as such, never as a time.
# What is cut by design:
#   small,medium  runs time out at 60 s (recorded "timeout > 60 s"); 3 repeats
#   large         1 repeat; runs time out at 60 s (OGRLayer::Clip of the
#                 clip_layer workload does: "timeout > 60 s"). Measured on the
#                 H200 host (16 cores) with the CPU engines: small,medium+real
#                 in ~125 s, large in ~210 s without and ~265 s with the
#                 1-thread row. VSGPU_BENCH_LARGE_NO_1THREAD=1 drops that row
#                 (reference then: VSGPU CPU on all cores, the same output
#                 byte for byte, as autotest's determinism tests check).
#   tiled         alone (another scale beside it is refused); 1 repeat, 120 s
#                 per run; only the VSGPU engines, CPU on all cores (the
#                 reference) and GPU, and the copy floor: GDAL's rows do not
#                 change with our code. The dissolves (tiled_counties_by_state,
#                 tiled_counties_nation, tiled_overlap) also get the CPU
#                 engine on 1 thread (vsgpu-cpu-1@dissolve: those workloads
#                 only) and vsgpu-cpu-all-geos (dissolve only: GEOS alone,
#                 VSGPU_COVERAGE_UNION=NO, beside the coverage union).
#                 VSGPU_BENCH_TILED_ENGINES=a,b picks others (e.g. add
#                 vsgpu-cpu-1,gdal-algebra,sqlite,ogr2ogr-clipsrc; with
#                 vsgpu-cpu-1 in it, unrestricted, that is the reference;
#                 copy is added when it is not in the list). The vertex target
#                 is VSGPU_TILED_VERTICES (default 10000000), read by the
#                 generator (bench/workloads/tiled.py).
# Every call runs the copy engine (a plain ogr2ogr of each workload's inputs:
# the I/O floor of the "x floor" column), after the VSGPU engines of each
# workload and before GDAL's, so the budget does not cut it.
set -u
t0=$(date +%s)
scales=${1:-small,medium}
out=${OUT:-/tmp/vsgpu-bench-out}
budget=${VSGPU_BENCH_BUDGET_S:-540}
py=${VSGPU_PYTHON:-python3}
export GDAL_RT=${GDAL_RT:-/opt/gdal-rt}
mkdir -p "$out" "$GDAL_RT"
[ -x "$GDAL_RT/bin/ogr2ogr" ] || tar xJf .device/gdal-rt.tar.xz -C "$GDAL_RT"
[ -d .device/build ] || tar xJf .device/build.tar.xz -C .device
. "$GDAL_RT/env.sh"
plugin=$PWD/.device/build/gdalplugins
tools=$PWD/.device/build/bench
for f in "$plugin/ogr_VSGPU.so" "$tools/vsgbench_measure" "$tools/vsgbench_algebra"; do
  [ -e "$f" ] || { echo "bench-gpu-host: $f is missing (run scripts/gpu-host-prepare.sh here first)" | tee "$out/rail.log"; exit 2; }
done
case ",$scales," in
  ,tiled,)
    engines=${VSGPU_BENCH_TILED_ENGINES:-vsgpu-cpu-all,vsgpu-cpu-1@dissolve,vsgpu-cpu-all-geos,vsgpu-gpu,copy}
    ref=vsgpu-cpu-all
    case ",$engines," in *,vsgpu-cpu-1,*) ref=vsgpu-cpu-1 ;; esac
    case ",$engines," in *,copy,*) ;; *) engines="$engines,copy" ;; esac
    args=(--repeat tiled=1 --timeout 120 --engines "$engines" --reference "$ref") ;;
  *,tiled,*)
    echo "bench-gpu-host: run tiled alone (its own device command)" | tee "$out/rail.log"
    exit 2 ;;
  *,large,*)
    args=(--repeat large=1 --timeout 60)
    if [ -n "${VSGPU_BENCH_LARGE_NO_1THREAD:-}" ]; then
      args+=(--engines vsgpu-cpu-all,vsgpu-gpu,gdal-algebra,sqlite,ogr2ogr-clipsrc,copy
             --reference vsgpu-cpu-all)
    fi ;;
  *)
    scales="$scales,real"
    args=(--repeat small=3,real=3,medium=3 --timeout 60) ;;
esac
left=$(( budget - ($(date +%s) - t0) ))
echo "bench-gpu-host: scales $scales, $left s for the rail" | tee "$out/rail.log"
"$py" bench/rail.py --plugin-dir "$plugin" --tools-dir "$tools" \
  --commit-file "$PWD/.device/build/COMMIT" --scale "$scales" --data-dir /tmp/vsgpu-bench-workloads \
  --out "$out" --budget-s "$left" "${args[@]}" 2>&1 | tee -a "$out/rail.log"
rc=${PIPESTATUS[0]}
# At most 8 files come back from the device: the plots and the workload
# manifests travel as one tar (rail.md links plots/ as unpacked beside it).
mkdir -p "$out/manifests"
for m in /tmp/vsgpu-bench-workloads/*/manifest.json; do
  [ -f "$m" ] && cp "$m" "$out/manifests/$(basename "$(dirname "$m")").json"
done
tar -C "$out" -cf "$out/plots.tar" $( [ -d "$out/plots" ] && echo plots ) manifests && rm -rf "$out/plots" "$out/manifests"
echo "bench-gpu-host: done in $(( $(date +%s) - t0 )) s, rail rc=$rc" | tee -a "$out/rail.log"
exit "$rc"
