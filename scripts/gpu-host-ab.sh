#!/usr/bin/env bash
# The A/B run on the GPU host: the carried build (.device/build.tar.xz,
# scripts/gpu-host-prepare.sh) against a base plugin
# (.device/base-plugin.so.xz, or BASE_PLUGIN: a stripped ogr_VSGPU.so of
# the BASE commit, xz-compressed), interleaved on one machine, every ogr2ogr writing
# without an R-tree, on real layers tiled to 10 M vertices (the
# generator runs there). BASE names the base's commit and RUN the run,
# for the record (machine-ab.txt). Builds nothing. Use:
#   BASE=<commit> RUN=<name> WLS="by_state13 nybb_union overlap intersection" \
#     (or buffers: tiled_buffers, circles dissolved by state)
#     RUNS=2 STEPS="intersection" bash scripts/gpu-host-ab.sh
# (run through the device tool, carrying .device; logs under $OUT).
# First the C stage tests on CUDA (device bit for bit the host's); then
# WLS: GPU mode twice each way, the CPU engine once each way, answers
# compared with the base CPU engine's; the copy floor twice; the step
# profiles (STEPS; ":noscreen" with VSGPU_VALID_SCREEN=NO), base and new,
# their JSON kept; pytest on CUDA (TESTS=0: neither test set, for a
# second run in one call); STAMPS: workloads whose GPU, CPU and copy runs
# are timed once more with GDAL's timestamped debug messages; EXITS:
# workloads whose GPU and CPU runs are timed for their start and exit;
# NEWCFG: more ogr2ogr arguments for the new build's GPU runs and step
# profiles (NEWCFG="--config VSGPU_GPU_POOL_RESERVE 4G").
# Logs, traces under $OUT.
cd "$(dirname "$0")/.."
here=$PWD
mkdir -p /opt/gdal-rt /opt/py-rt /tmp/base/gdalplugins
[ -f /opt/gdal-rt/env.sh ] || tar xJf .device/gdal-rt.tar.xz -C /opt/gdal-rt
[ -x /opt/py-rt/bin/python3 ] || tar xJf .device/py-rt.tar.xz -C /opt/py-rt
[ -d .device/build ] || tar xJf .device/build.tar.xz -C .device
xz -dc "${BASE_PLUGIN:-.device/base-plugin.so.xz}" > /tmp/base/gdalplugins/ogr_VSGPU.so
. /opt/gdal-rt/env.sh
TAG=${TAG:-1}
new=$here/.device/build/gdalplugins
base=/tmp/base/gdalplugins
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; echo "new $(cat .device/build/COMMIT) base ${BASE:-unnamed} (run ${RUN:-unnamed})"; date -u +%FT%TZ; } > "$OUT/machine-ab.txt"
runs=${RUNS:-2}
read -r -a newcfg <<< "${NEWCFG:-}"
WLS=${WLS:-"by_state13 nybb_union overlap intersection"}
# the generated workloads stay for a second call in the same machine
w=/tmp/ab; mkdir -p $w; rm -rf $w/tr $w/o-*.gpkg $w/steps-*; mkdir -p $w/tr
if [ "${TESTS:-1}" = 1 ]; then
for tp in test_stage_candidates test_stage_coverage test_stage_valid_screen test_stage_overlap test_stage_refine test_gpu_stages; do
  echo "== $tp"; (cd autotest && $here/.device/build/autotest/$tp 2>&1 | grep -v "^ok " | tail -6)
done > "$OUT/ctests.log" 2>&1
cat "$OUT/ctests.log"
fi
gen() { [ -d $w/$1 ] || python3 bench/workloads/generate.py --scale tiled --out $w/$1 --tiled-vertices 10000000 --only $2 >> $w/gen.log 2>&1; }
gen wl tiled_counties_x_states
case " $WLS ${EXITS:-} ${STAMPS:-} ${STEPS:-} " in *" overlap "*) gen wlo tiled_overlap;; esac
case " $WLS ${EXITS:-} ${STAMPS:-} ${STEPS:-} " in *" nybb_union "*) gen wln tiled_nybb_x_grid;; esac
case " $WLS ${EXITS:-} ${STAMPS:-} ${STEPS:-} " in *" by_state13 "*) gen wl13 tiled_counties_by_state;; esac
case " $WLS ${EXITS:-} ${STAMPS:-} ${STEPS:-} " in *" buffers "*) gen wlb tiled_buffers;; esac
declare -A SRC=([by_state]=$(ls $w/wl/tiled_*.gpkg | head -1) [nation]=$(ls $w/wl/tiled_*.gpkg | head -1)
  [states_clip]=$(ls $w/wl/tiled_*.gpkg | head -1) [intersection]=$(ls $w/wl/tiled_*.gpkg | head -1)
  [counties_clip]=$(ls $w/wl/tiled_*.gpkg | head -1)
  [by_state13]=$(ls $w/wl13/tiled_*.gpkg | head -1)
  [overlap]=$(ls $w/wlo/tiled_*.gpkg | head -1) [nybb_union]=$(ls $w/wln/tiled_nybb_*.gpkg | head -1)
  [buffers]=$(ls $w/wlb/tiled_*.gpkg 2>/dev/null | head -1))
declare -A LYR=([by_state]=counties [nation]=counties [by_state13]=counties [overlap]=overlap [nybb_union]=nybb
  [buffers]=buffers)
declare -A SQL=(
  [by_state]="SELECT tile, substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM counties GROUP BY tile, st"
  [overlap]="SELECT tile, substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM overlap GROUP BY tile, st"
  [buffers]="SELECT tile, substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM buffers GROUP BY tile, st"
  [nation]="SELECT tile, ST_Union(geom) AS geom FROM counties GROUP BY tile"
  [by_state13]="SELECT tile, substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM counties GROUP BY tile, st"
  [nybb_union]="SELECT tile, ST_Union(geom) AS geom FROM nybb GROUP BY tile"
  [states_clip]="SELECT * FROM ST_Clip(states, counties)"
  [intersection]="SELECT * FROM ST_Intersection(counties, states)"
  [counties_clip]="SELECT * FROM ST_Clip(counties, states)")
one() {   # wl eng dir tag cfg...
  local wl=$1 eng=$2 dp=$3 tag=$4; shift 4
  rm -f $w/o-$wl-$eng.gpkg
  local t0=$(date +%s.%N)
  GDAL_DRIVER_PATH=$dp ogr2ogr -f GPKG -lco SPATIAL_INDEX=NO $w/o-$wl-$eng.gpkg "VSGPU:${SRC[$wl]}" -dialect VSGPU -sql "${SQL[$wl]}" "$@" \
    --config VSGPU_PROFILE $w/tr/t-$wl-$tag.json --config CPL_DEBUG VSGPU > $w/run-$wl-$tag.log 2>&1 || { echo "$wl $eng failed"; tail -5 $w/run-$wl-$tag.log; }
  echo "$wl $tag wall_s=$(awk "BEGIN{print $(date +%s.%N)-$t0}")"
  grep -h "Arrow stream\|its stream read" $w/run-$wl-$tag.log | head -3
}
# copy_floor wl out [VAR=value ...]: the copy floor's ogr2ogr, the
# statement's input layer (for the counties' overlays the method layer
# too) into out, under the given environment
copy_floor() {
  local wl=$1 out=$2; shift 2
  if [ -z "${LYR[$wl]:-}" ]; then env "$@" ogr2ogr -f GPKG $out ${SRC[$wl]} states counties -lco SPATIAL_INDEX=NO
  else env "$@" ogr2ogr -f GPKG $out ${SRC[$wl]} ${LYR[$wl]} -nln result -lco SPATIAL_INDEX=NO; fi
}
{
for wl in $WLS; do
  g=(--config VSGPU_EXECUTION_MODE GPU)
  for r in $(seq 1 $runs); do
    one $wl gpu-base $base gpu-base-$r "${g[@]}"
    one $wl gpu-new $new gpu-new-$r "${g[@]}" "${newcfg[@]}"
  done
  one $wl cpu-base $base cpu-base --config VSGPU_EXECUTION_MODE CPU
  one $wl cpu-new $new cpu-new --config VSGPU_EXECUTION_MODE CPU
  for e in ${CMPS:-gpu-new cpu-new gpu-base}; do
    echo "$wl $e against cpu-base:"; .device/cmp-py bench/tools/compare_gpkg.py $w/o-$wl-$e.gpkg $w/o-$wl-cpu-base.gpkg
  done
  # the copy floor: the statement's input layer (and for the clip its method layer too)
  for r in 1 2; do
    rm -f $w/copy.gpkg; t0=$(date +%s.%N)
    copy_floor $wl $w/copy.gpkg
    echo "$wl copy-$r wall_s=$(awk "BEGIN{print $(date +%s.%N)-$t0}")"
  done
done
# the rectangle clips: GPU twice each way, the CPU engine once (new), the copy floor twice
[ "${RECTS:-0}" = 1 ] && python3 bench/workloads/generate.py --scale tiled --out $w/wlr --tiled-vertices 10000000 --only tiled_nybb_clip_rect,tiled_counties_clip_rect >> $w/gen.log 2>&1
[ "${RECTS:-0}" = 1 ] && python3 - $w/wlr/manifest.json > $w/rects.txt <<'PY'
import json, sys
for w in json.load(open(sys.argv[1]))["workloads"]:
    if w.get("rect"):
        print(w["name"], w["input"]["path"], w["input"]["layer"], " ".join(repr(v) for v in w["rect"]))
PY
while read -r name f lyr x0 y0 x1 y1; do
  SRC[$name]=$f; LYR[$name]=$lyr; SQL[$name]="SELECT * FROM ST_ClipByRect($lyr, $x0, $y0, $x1, $y1)"
  for r in 1 2; do
    one $name gpu-base $base rgpub-$r --config VSGPU_EXECUTION_MODE GPU
    one $name gpu-new $new rgpu-$r --config VSGPU_EXECUTION_MODE GPU
  done
  one $name cpu-new $new rcpu --config VSGPU_EXECUTION_MODE CPU
  one $name auto-new $new rauto
  for e in gpu-new gpu-base; do
    echo "$name $e against cpu-new:"; .device/cmp-py bench/tools/compare_gpkg.py $w/o-$name-$e.gpkg $w/o-$name-cpu-new.gpkg
  done
  for r in 1 2; do
    rm -f $w/copy.gpkg; t0=$(date +%s.%N)
    copy_floor $name $w/copy.gpkg
    echo "$name copy-$r wall_s=$(awk "BEGIN{print $(date +%s.%N)-$t0}")"
  done
done < <([ "${RECTS:-0}" = 1 ] && cat $w/rects.txt)
python3 - $w/tr <<'PY'
import glob, json, os, sys
for path in sorted(glob.glob(os.path.join(sys.argv[1], "t-*.json"))):
    t = json.load(open(path))
    d = {}
    for s in t["stages"]:
        d[s["stage"]] = d.get(s["stage"], 0) + s["elapsed_s"]
    print(os.path.basename(path), "total %.3f s" % t["total_s"], "  ".join("%s %.3f" % (k, d[k]) for k in ("ogr_read_input", "ogr_read_method", "group_keys", "read_input", "valid_screen", "plan", "repair_clusters", "group_union", "build_features", "prebuild_features", "read_ahead_wait") if k in d))
PY
# STAMPS: one run each of the new build's GPU and CPU engines and of the
# copy, with GDAL's timestamped debug messages: where the wall time goes
# outside the trace (process start, opening, closing the output, exit)
for wl in ${STAMPS:-}; do
  for eng in gpu cpu copy; do
    rm -f $w/o-stamps.gpkg; t0=$(date +%s.%N)
    if [ $eng = copy ]; then
      copy_floor $wl $w/o-stamps.gpkg GDAL_DRIVER_PATH=$new CPL_DEBUG=ON CPL_TIMESTAMP=ON > $w/stamps.log 2>&1
    else
      GDAL_DRIVER_PATH=$new CPL_DEBUG=ON CPL_TIMESTAMP=ON ogr2ogr -f GPKG -lco SPATIAL_INDEX=NO $w/o-stamps.gpkg "VSGPU:${SRC[$wl]}" -dialect VSGPU -sql "${SQL[$wl]}" \
        --config VSGPU_EXECUTION_MODE ${eng^^} > $w/stamps.log 2>&1
    fi
    t1=$(date +%s.%N)
    echo "== stamps $wl $eng wall_s=$(awk "BEGIN{print $t1-$t0}") started $t0 ended $t1"
    grep -v -E "GPKG: (Filter|ResetStatement|finalize)|^\s*$" $w/stamps.log | cut -c1-200 | head -80
  done
done
# EXITS: the new build's GPU statement and its CPU engine's, interleaved,
# 3 times each: the wall, the process's start (to GDAL's first timestamped
# message) and its exit (from GDALDestroy's message to the process's end)
for wl in ${EXITS:-}; do
  for r in 1 2 3; do
    for fx in GPU CPU; do
      rm -f $w/o-exit.gpkg; t0=$(date +%s.%N)
      GDAL_DRIVER_PATH=$new CPL_DEBUG=ON CPL_TIMESTAMP=ON ogr2ogr -f GPKG -lco SPATIAL_INDEX=NO $w/o-exit.gpkg "VSGPU:${SRC[$wl]}" -dialect VSGPU -sql "${SQL[$wl]}" \
        --config VSGPU_EXECUTION_MODE $fx > $w/exit.log 2>&1 || echo "$wl exit run failed"
      t1=$(date +%s.%N)
      python3 - "$wl" "$fx" "$t0" "$t1" $w/exit.log <<'PY'
import re, sys, time
wl, fx, t0, t1, log = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
def stamp(line):   # "[Sat Nov 28 03:22:26 2026].5067, ..." -> seconds since the epoch
    m = re.match(r"\[(\w+ \w+ +\d+ [\d:]+ \d+)\](\.\d+)", line)
    return time.mktime(time.strptime(m.group(1), "%a %b %d %H:%M:%S %Y")) + float(m.group(2)) if m else None
lines = open(log, errors="replace").read().splitlines()
first = next((stamp(l) for l in lines if stamp(l)), None)
last = next((stamp(l) for l in reversed(lines) if "GDALDestroy" in l), None)
if first is None or last is None:
    print("exit %s %s wall_s=%.3f (no stamps)" % (wl, fx, t1 - t0))
else:
    print("exit %s %s wall_s=%.3f start_s=%.3f exit_s=%.3f" % (wl, fx, t1 - t0, first - t0, t1 - last))
PY
    done
  done
done
# the timelines of the traces that have spans (builds from ec40698 on)
for f in $w/tr/t-*gpu-new-1.json $w/tr/t-*rgpu-1.json; do
  [ -f "$f" ] && { echo "== spans of $(basename $f)"; python3 bench/tools/spans.py $f; }
done
} > "$OUT/ab-$TAG.log" 2>&1
date -u +%FT%TZ >> "$OUT/machine-ab.txt"
tar czf "$OUT/traces-$TAG.tar.gz" -C $w tr
rm -rf $w/tr; mkdir -p $w/tr
grep -E "wall_s|compare|failed|^t-|Arrow" "$OUT/ab-$TAG.log" | grep -v "^VSGPU: layer .*record batches)$" | head -150
# The step profiles, base and new, once each (":noscreen": the screen off)
for spec in ${STEPS:-by_state13 by_state13:noscreen overlap nybb_union intersection}; do
  wl=${spec%%:*}; extra=(); [ "$spec" != "$wl" ] && extra=(--config VSGPU_VALID_SCREEN NO)
  tag=${spec/:/-}
  for b in base new; do
    dp=$new; more=("${newcfg[@]}"); [ $b = base ] && { dp=$base; more=(); }
    rm -f $w/o-steps.gpkg; t0=$(date +%s.%N)
    GDAL_DRIVER_PATH=$dp ogr2ogr -f GPKG -lco SPATIAL_INDEX=NO $w/o-steps.gpkg "VSGPU:${SRC[$wl]}" -dialect VSGPU -sql "${SQL[$wl]}" \
      --config VSGPU_EXECUTION_MODE GPU --config VSGPU_PROFILE_STEPS YES "${extra[@]}" "${more[@]}" \
      --config VSGPU_PROFILE $w/tr/steps-$tag-$b.json > $w/steps-$tag-$b.log 2>&1 || echo "$spec steps failed"
    echo "$spec steps-$b wall_s=$(awk "BEGIN{print $(date +%s.%N)-$t0}")"
  done
done >> "$OUT/ab-$TAG.log" 2>&1
for f in $(ls $w/tr/steps-*.json 2>/dev/null); do
  b=$(basename $f .json)
  python3 bench/tools/steps.py --top 400 $f > $w/$b.txt 2>&1
  echo "== $b: $(head -1 $w/$b.txt)"
  awk 'NR>1{t=$1; if ($0~/upload|download|host, until|set-up/) io+=t; else if ($0~/candidates:/) c+=t; else o+=t} END{printf "resident %.4f s (candidates %.4f, the rest %.4f), copies and gaps %.4f\n", c+o, c, o, io}' $w/$b.txt
  grep -E "candidates probe|refine_nodes|refine_labels" $w/$b.txt | head -6
done >> "$OUT/ab-$TAG.log" 2>&1
ls $w/steps-*.txt > /dev/null 2>&1 && tar czf "$OUT/steps-$TAG.tar.gz" -C $w $(cd $w && ls steps-*.txt steps-*.log) tr
if [ "${TESTS:-1}" = 1 ]; then
( . /opt/py-rt/env.sh; cd autotest && VSGPU_TEST_GPU_BACKEND=CUDA VSGPU_BUILD_DIR=$here/.device/build GDAL_DRIVER_PATH=$new \
    timeout 300 python3 -m pytest -q -p no:cacheprovider pyscripts/test_vsgpu_valid_screen.py \
    pyscripts/test_vsgpu_gpu_pipeline.py pyscripts/test_vsgpu_coverage_union.py pyscripts/test_vsgpu_dissolve.py \
    pyscripts/test_vsgpu_read_ahead.py -rs 2>&1 | tail -8 ) > "$OUT/pytest.log" 2>&1
fi
date -u +%FT%TZ >> "$OUT/machine-ab.txt"
cat "$OUT/pytest.log"; grep -A1 "^== steps" "$OUT/ab-$TAG.log"
