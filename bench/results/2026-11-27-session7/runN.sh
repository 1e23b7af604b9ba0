#!/usr/bin/env bash
# Run N (2026-11-27 session 7): the carried build (the dissolve's repairs'
# neighbour search on the engine's pool over a tree of the marked rows'
# boxes only; the groups' Morton sorts one pool task each) against the
# plugin of the chunked probe (6e10c66's code, .device/base-plugin.so.xz),
# interleaved on one machine. The four coverage and overlap dissolves:
# GPU mode three times each way, the CPU engine (all cores) twice each
# way; every answer compared with the base CPU engine's. Logs under $OUT.
cd "$(dirname "$0")/.."
here=$PWD
mkdir -p /opt/gdal-rt /opt/py-rt /tmp/base/gdalplugins
[ -f /opt/gdal-rt/env.sh ] || tar xJf .device/gdal-rt.tar.xz -C /opt/gdal-rt
[ -x /opt/py-rt/bin/python3 ] || tar xJf .device/py-rt.tar.xz -C /opt/py-rt
rm -rf .device/build; tar xJf .device/build.tar.xz -C .device
xz -dc .device/base-plugin.so.xz > /tmp/base/gdalplugins/ogr_VSGPU.so
. /opt/gdal-rt/env.sh
new=$here/.device/build/gdalplugins
base=/tmp/base/gdalplugins
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; echo "new $(cat .device/build/COMMIT) base 6e10c66's code (run N)"; date -u +%FT%TZ; } > "$OUT/machine-ab.txt"
w=/tmp/ab; mkdir -p $w/tr
python3 bench/workloads/generate.py --scale tiled --out $w/wl --tiled-vertices 10000000 --only tiled_counties_x_states > $w/gen.log 2>&1
python3 bench/workloads/generate.py --scale tiled --out $w/wlo --tiled-vertices 10000000 --only tiled_overlap >> $w/gen.log 2>&1
python3 bench/workloads/generate.py --scale tiled --out $w/wl13 --tiled-vertices 10000000 --only tiled_counties_by_state >> $w/gen.log 2>&1
declare -A SRC=([by_state]=$(ls $w/wl/tiled_*.gpkg | head -1) [nation]=$(ls $w/wl/tiled_*.gpkg | head -1)
  [by_state13]=$(ls $w/wl13/tiled_*.gpkg | head -1) [overlap]=$(ls $w/wlo/tiled_*.gpkg | head -1))
declare -A SQL=(
  [by_state]="SELECT tile, substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM counties GROUP BY tile, st"
  [overlap]="SELECT tile, substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM overlap GROUP BY tile, st"
  [nation]="SELECT tile, ST_Union(geom) AS geom FROM counties GROUP BY tile"
  [by_state13]="SELECT tile, substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM counties GROUP BY tile, st")
one() {   # wl eng dir tag cfg...
  local wl=$1 eng=$2 dp=$3 tag=$4; shift 4
  rm -f $w/o-$wl-$eng.gpkg
  local t0=$(date +%s.%N)
  GDAL_DRIVER_PATH=$dp ogr2ogr -f GPKG $w/o-$wl-$eng.gpkg "VSGPU:${SRC[$wl]}" -dialect VSGPU -sql "${SQL[$wl]}" "$@" \
    --config VSGPU_PROFILE $w/tr/t-$wl-$tag.json > $w/run.log 2>&1 || { echo "$wl $eng failed"; tail -5 $w/run.log; }
  echo "$wl $tag wall_s=$(awk "BEGIN{print $(date +%s.%N)-$t0}")"
}
{
for wl in by_state nation by_state13 overlap; do
  for r in 1 2 3; do
    one $wl gpu-base $base gpu-base-$r --config VSGPU_EXECUTION_MODE GPU
    one $wl gpu-new $new gpu-new-$r --config VSGPU_EXECUTION_MODE GPU
  done
  for r in 1 2; do
    one $wl cpu-base $base cpu-base-$r --config VSGPU_EXECUTION_MODE CPU
    one $wl cpu-new $new cpu-new-$r --config VSGPU_EXECUTION_MODE CPU
  done
  for e in gpu-new cpu-new gpu-base; do
    echo "$wl $e against cpu-base:"; .device/cmp-py bench/tools/compare_gpkg.py $w/o-$wl-$e.gpkg $w/o-$wl-cpu-base.gpkg
  done
done
python3 - $w/tr <<'PY'
import glob, json, os, sys
for path in sorted(glob.glob(os.path.join(sys.argv[1], "t-*.json"))):
    t = json.load(open(path))
    d = {}
    for s in t["stages"]:
        d[s["stage"]] = d.get(s["stage"], 0) + s["elapsed_s"]
    print(os.path.basename(path), "total %.3f s" % t["total_s"], "  ".join("%s %.3f" % (k, d[k]) for k in ("plan", "repair_clusters", "parse_deferred", "aside_probes", "group_union") if k in d))
PY
} > "$OUT/ab.log" 2>&1
date -u +%FT%TZ >> "$OUT/machine-ab.txt"
grep -E "wall_s|compare|failed|^t-" "$OUT/ab.log"
