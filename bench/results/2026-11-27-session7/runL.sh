#!/usr/bin/env bash
# Run L (2026-11-27 session 7): the carried build (the candidate join's
# balanced walk: equal chunks of candidates per thread) against the plugin
# of 25c19db (.device/base-plugin.so.xz), on one machine, runs
# interleaved, GPU pipeline, defaults otherwise. Each statement once each
# way with the step profile (the device times), then twice each way
# without (the walls):
#   by_state, nation, by_state13, overlap, nybb_union (dissolves; input
#   through the Arrow stream) and intersection (counties x states at 10 M:
#   the method layer through the Arrow stream)
# and the CPU engine on all cores once each, for the answers. Logs under $OUT.
cd "$(dirname "$0")/.."
here=$PWD
mkdir -p /opt/gdal-rt /opt/py-rt /tmp/base/gdalplugins
[ -f /opt/gdal-rt/env.sh ] || tar xJf .device/gdal-rt.tar.xz -C /opt/gdal-rt
[ -x /opt/py-rt/bin/python3 ] || tar xJf .device/py-rt.tar.xz -C /opt/py-rt
[ -d .device/build ] || tar xJf .device/build.tar.xz -C .device
xz -dc .device/base-plugin.so.xz > /tmp/base/gdalplugins/ogr_VSGPU.so
. /opt/gdal-rt/env.sh
new=$here/.device/build/gdalplugins
base=/tmp/base/gdalplugins
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; echo "new $(cat .device/build/COMMIT) base 25c19db (run L)"; date -u +%FT%TZ; } > "$OUT/machine-ab.txt"
runs=${RUNS:-2}
WLS=${WLS:-"by_state nation by_state13 overlap nybb_union intersection"}
w=/tmp/ab; mkdir -p $w/tr
python3 bench/workloads/generate.py --scale tiled --out $w/wl --tiled-vertices 10000000 --only tiled_counties_x_states > $w/gen.log 2>&1
python3 bench/workloads/generate.py --scale tiled --out $w/wlo --tiled-vertices 10000000 --only tiled_overlap >> $w/gen.log 2>&1
python3 bench/workloads/generate.py --scale tiled --out $w/wln --tiled-vertices 10000000 --only tiled_nybb_x_grid >> $w/gen.log 2>&1
python3 bench/workloads/generate.py --scale tiled --out $w/wl13 --tiled-vertices 10000000 --only tiled_counties_by_state >> $w/gen.log 2>&1
declare -A SRC=([by_state]=$(ls $w/wl/tiled_*.gpkg | head -1) [nation]=$(ls $w/wl/tiled_*.gpkg | head -1)
  [intersection]=$(ls $w/wl/tiled_*.gpkg | head -1)
  [by_state13]=$(ls $w/wl13/tiled_*.gpkg | head -1)
  [overlap]=$(ls $w/wlo/tiled_*.gpkg | head -1) [nybb_union]=$(ls $w/wln/tiled_nybb_*.gpkg | head -1))
declare -A SQL=(
  [by_state]="SELECT tile, substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM counties GROUP BY tile, st"
  [overlap]="SELECT tile, substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM overlap GROUP BY tile, st"
  [nation]="SELECT tile, ST_Union(geom) AS geom FROM counties GROUP BY tile"
  [by_state13]="SELECT tile, substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM counties GROUP BY tile, st"
  [nybb_union]="SELECT tile, ST_Union(geom) AS geom FROM nybb GROUP BY tile"
  [intersection]="SELECT * FROM ST_Intersection(counties, states)")
one() {   # wl eng dir tag cfg...
  local wl=$1 eng=$2 dp=$3 tag=$4; shift 4
  rm -f $w/o-$wl-$eng.gpkg
  local t0=$(date +%s.%N)
  GDAL_DRIVER_PATH=$dp ogr2ogr -f GPKG $w/o-$wl-$eng.gpkg "VSGPU:${SRC[$wl]}" -dialect VSGPU -sql "${SQL[$wl]}" "$@" \
    --config VSGPU_PROFILE $w/tr/t-$wl-$tag.json > $w/run.log 2>&1 || { echo "$wl $eng failed"; tail -5 $w/run.log; }
  echo "$wl $tag wall_s=$(awk "BEGIN{print $(date +%s.%N)-$t0}")"
}
{
for wl in $WLS; do
  g=(--config VSGPU_EXECUTION_MODE GPU)
  one $wl gpu-base $base steps-base "${g[@]}" --config VSGPU_PROFILE_STEPS YES
  one $wl gpu-new $new steps-new "${g[@]}" --config VSGPU_PROFILE_STEPS YES
  for r in $(seq 1 $runs); do
    one $wl gpu-base $base wall-base-$r "${g[@]}"
    one $wl gpu-new $new wall-new-$r "${g[@]}"
  done
  one $wl cpu-all $new cpu-all --config VSGPU_EXECUTION_MODE CPU
  for e in gpu-new gpu-base; do
    echo "$wl $e against cpu-all:"; .device/cmp-py bench/tools/compare_gpkg.py $w/o-$wl-$e.gpkg $w/o-$wl-cpu-all.gpkg
  done
done
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
for wl in $WLS; do for b in base new; do
  python3 bench/tools/steps.py --top 400 $w/tr/t-$wl-steps-$b.json > "$w/steps-$wl-$b.txt" 2>&1
done; done
tar czf "$OUT/steps.tar.gz" -C $w $(cd $w && ls steps-*.txt) gen.log
date -u +%FT%TZ >> "$OUT/machine-ab.txt"
for wl in $WLS; do for b in base new; do
  echo "== $wl $b: $(head -1 $w/steps-$wl-$b.txt)"
  grep -E "candidates" $w/steps-$wl-$b.txt | head -6
  awk 'NR>1{t=$1; if ($0~/upload|download|host, until|set-up/) io+=t; else if ($0~/candidates:/) c+=t; else o+=t} END{printf "resident %.4f s (candidates %.4f, the rest %.4f), copies and gaps %.4f\n", c+o, c, o, io}' $w/steps-$wl-$b.txt
done; done
grep -E "wall_s|compare|failed" "$OUT/ab.log"
grep -A1 -E "^t-.*wall" "$OUT/ab.log" | grep -v "^--" | paste - - | awk '{printf "%s %s ", $1, $3; for (i=5;i<=NF;i++) if ($i ~ /ogr_read_input|ogr_read_method|group_keys|build_features/) printf "%s %s ", $i, $(i+1); print ""}'
