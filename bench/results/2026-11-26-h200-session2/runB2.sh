#!/usr/bin/env bash
# Run B2 (2026-11-26 session 2): the carried build (new) against the plugin
# of 3af7a37 (base, the last stop's final commit), on one machine, runs
# interleaved: (1) ST_Intersection(counties, states) at 10 M, GPU refine,
# step profile on (the labels' early end); (2) the coverage dissolves at
# 10 M on one thread (the CPU engine per core: candidates' one-pass join,
# the WKB batch without reallocation copies); (3) the CPU engine on all
# cores and the GPU pipeline (new). Logs under $OUT.
cd "$(dirname "$0")/.."
here=$PWD
mkdir -p /opt/gdal-rt /opt/py-rt /tmp/base/gdalplugins
[ -f /opt/gdal-rt/env.sh ] || tar xJf .device/gdal-rt.tar.xz -C /opt/gdal-rt
[ -x /opt/py-rt/bin/python3 ] || tar xJf .device/py-rt.tar.xz -C /opt/py-rt
[ -d .device/build ] || tar xJf .device/build.tar.xz -C .device
xz -dc .device/base-plugin.so.xz > /tmp/base/gdalplugins/ogr_VSGPU.so
. /opt/gdal-rt/env.sh
new=$here/.device/build/gdalplugins
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; echo "new $(cat .device/build/COMMIT) base 3af7a37"; date -u +%FT%TZ; } > "$OUT/machine-ab.txt"
runs=${RUNS:-2}
w=/tmp/ab; mkdir -p $w/tr
python3 bench/workloads/generate.py --scale tiled --out $w/wl --tiled-vertices 10000000 --only tiled_counties_x_states > $w/gen.log 2>&1
src=$(ls $w/wl/tiled_*.gpkg | head -1)
declare -A SQL=(
  [intersection]="SELECT * FROM ST_Intersection(counties, states)"
  [by_state]="SELECT tile, substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM counties GROUP BY tile, st"
  [nation]="SELECT tile, ST_Union(geom) AS geom FROM counties GROUP BY tile")
one() {   # wl eng dir run cfg...
  local wl=$1 eng=$2 dp=$3 r=$4; shift 4
  rm -f $w/o-$wl-$eng.gpkg
  local t0=$(date +%s.%N)
  GDAL_DRIVER_PATH=$dp ogr2ogr -f GPKG $w/o-$wl-$eng.gpkg "VSGPU:$src" -dialect VSGPU -sql "${SQL[$wl]}" "$@" \
    --config VSGPU_PROFILE $w/tr/t-$wl-$eng-$r.json > $w/run.log 2>&1 || { echo "$wl $eng failed"; tail -5 $w/run.log; }
  echo "$wl $eng run $r wall_s=$(awk "BEGIN{print $(date +%s.%N)-$t0}")"
}
[[ " ${WLS:-by_state nation overlap} " == *" overlap "* ]] && python3 bench/workloads/generate.py --scale tiled --out $w/wlo --tiled-vertices 10000000 --only tiled_overlap >> $w/gen.log 2>&1
osrc=$(ls $w/wlo/tiled_counties_*.gpkg 2>/dev/null | head -1)
SQL[overlap]="SELECT tile, substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM overlap GROUP BY tile, st"
{
for wl in ${WLS:-by_state nation overlap}; do
  s0=$src; [ $wl = overlap ] && src=$osrc
  if [ $wl != overlap ]; then
    for b in base new; do
      dp=$new; [ $b = base ] && dp=/tmp/base/gdalplugins
      one $wl cpu1-$b $dp 1 --config VSGPU_EXECUTION_MODE CPU --config VSGPU_NUM_THREADS 1
    done
  fi
  for r in $(seq 1 $runs); do
    for b in base new; do
      dp=$new; [ $b = base ] && dp=/tmp/base/gdalplugins
      one $wl cpuall-$b $dp $r --config VSGPU_EXECUTION_MODE CPU
      one $wl gpu-$b $dp $r --config VSGPU_EXECUTION_MODE GPU
    done
  done
  [ $wl = by_state ] && one $wl gpusteps-new $new 1 --config VSGPU_EXECUTION_MODE GPU --config VSGPU_PROFILE_STEPS YES
  for e in gpu-new gpu-base cpu1-new cpu1-base cpuall-base; do
    [ -f $w/o-$wl-$e.gpkg ] && { echo "$wl $e against cpuall-new:"; .device/cmp-py bench/tools/compare_gpkg.py $w/o-$wl-$e.gpkg $w/o-$wl-cpuall-new.gpkg; }
  done
  src=$s0
done
if [ -z "$SKIP_INTERSECTION" ]; then
  for r in $(seq 1 $runs); do
    for b in base new; do
      dp=$new; [ $b = base ] && dp=/tmp/base/gdalplugins
      one intersection gpu-$b $dp $r --config VSGPU_EXECUTION_MODE GPU --config VSGPU_GPU_REFINE YES --config VSGPU_PROFILE_STEPS YES
    done
  done
  one intersection cpu-all $new 1 --config VSGPU_EXECUTION_MODE CPU
  echo "intersection gpu-new against cpu-all:"; .device/cmp-py bench/tools/compare_gpkg.py $w/o-intersection-gpu-new.gpkg $w/o-intersection-cpu-all.gpkg
fi
python3 - $w/tr <<'PY'
import glob, json, os, sys
for path in sorted(glob.glob(os.path.join(sys.argv[1], "t-*.json"))):
    t = json.load(open(path))
    d = {}
    for s in t["stages"]:
        d[s["stage"]] = d.get(s["stage"], 0) + s["elapsed_s"]
    print(os.path.basename(path), "total %.3f s" % t["total_s"])
    print("    " + "  ".join("%s %.3f" % (k, v) for k, v in d.items() if v >= 0.003))
PY
} > "$OUT/ab.log" 2>&1
for e in base new; do
  [ -f $w/tr/t-intersection-gpu-$e-1.json ] && python3 bench/tools/steps.py $w/tr/t-intersection-gpu-$e-1.json > "$OUT/steps-intersection-$e.txt" 2>&1
done
[ -f $w/tr/t-by_state-gpusteps-new-1.json ] && python3 bench/tools/steps.py $w/tr/t-by_state-gpusteps-new-1.json > "$OUT/steps-dissolve-by_state.txt" 2>&1
date -u +%FT%TZ >> "$OUT/machine-ab.txt"
grep -E "wall_s|compare" "$OUT/ab.log"
