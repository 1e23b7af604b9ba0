#!/usr/bin/env bash
# Run I (2026-11-27 session 6): the carried build with its defaults (the
# validity screen in AUTO: a dissolve screens rows of every size and its
# reader leaves what passes unparsed) against the same build with
# VSGPU_VALID_SCREEN=NO (base), on one machine, runs interleaved. GPU
# pipeline only; the step profile on for the new one once, off for the walls:
#   by_state:     counties dissolved by (tile, state) at 10 M
#   nation:       the counties dissolved by tile (one nation per copy)
#   by_state13:   by (tile, state) on the rail's tiled_counties_by_state (13 x 13, 11.5 M)
#   overlap:      the overlapping counties by (tile, state) at 10 M
#   nybb_union:   the tiled boroughs dissolved by tile
# and the CPU engine on all cores once each, for the answers. Logs under $OUT.
cd "$(dirname "$0")/.."
here=$PWD
mkdir -p /opt/gdal-rt /opt/py-rt
[ -f /opt/gdal-rt/env.sh ] || tar xJf .device/gdal-rt.tar.xz -C /opt/gdal-rt
[ -x /opt/py-rt/bin/python3 ] || tar xJf .device/py-rt.tar.xz -C /opt/py-rt
[ -d .device/build ] || tar xJf .device/build.tar.xz -C .device
. /opt/gdal-rt/env.sh
new=$here/.device/build/gdalplugins
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; echo "new $(cat .device/build/COMMIT) base: the same with VSGPU_VALID_SCREEN=NO (run I)"; date -u +%FT%TZ; } > "$OUT/machine-ab.txt"
runs=${RUNS:-2}
WLS=${WLS:-"by_state nation by_state13 overlap nybb_union"}
w=/tmp/ab; mkdir -p $w/tr
python3 bench/workloads/generate.py --scale tiled --out $w/wl --tiled-vertices 10000000 --only tiled_counties_x_states > $w/gen.log 2>&1
python3 bench/workloads/generate.py --scale tiled --out $w/wlo --tiled-vertices 10000000 --only tiled_overlap >> $w/gen.log 2>&1
python3 bench/workloads/generate.py --scale tiled --out $w/wln --tiled-vertices 10000000 --only tiled_nybb_x_grid >> $w/gen.log 2>&1
python3 bench/workloads/generate.py --scale tiled --out $w/wl13 --tiled-vertices 10000000 --only tiled_counties_by_state >> $w/gen.log 2>&1
declare -A SRC=([by_state]=$(ls $w/wl/tiled_*.gpkg | head -1) [nation]=$(ls $w/wl/tiled_*.gpkg | head -1)
  [by_state13]=$(ls $w/wl13/tiled_*.gpkg | head -1)
  [overlap]=$(ls $w/wlo/tiled_*.gpkg | head -1) [nybb_union]=$(ls $w/wln/tiled_nybb_*.gpkg | head -1))
declare -A SQL=(
  [by_state]="SELECT tile, substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM counties GROUP BY tile, st"
  [overlap]="SELECT tile, substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM overlap GROUP BY tile, st"
  [nation]="SELECT tile, ST_Union(geom) AS geom FROM counties GROUP BY tile"
  [by_state13]="SELECT tile, substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM counties GROUP BY tile, st"
  [nybb_union]="SELECT tile, ST_Union(geom) AS geom FROM nybb GROUP BY tile")
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
  one $wl gpu-new $new steps-new "${g[@]}" --config VSGPU_PROFILE_STEPS YES
  for r in $(seq 1 $runs); do
    for b in base new; do
      sc=AUTO; [ $b = base ] && sc=NO
      one $wl gpu-$b $new wall-$b-$r "${g[@]}" --config VSGPU_VALID_SCREEN $sc
    done
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
    d, r = {}, {}
    for s in t["stages"]:
        d[s["stage"]] = d.get(s["stage"], 0) + s["elapsed_s"]
        if s["stage"] in ("valid_screen", "parse_deferred"):
            r[s["stage"]] = (s["rows_in"], s["rows_out"])
    print(os.path.basename(path), "total %.3f s" % t["total_s"], r)
    print("    " + "  ".join("%s %.3f" % (k, v) for k, v in d.items() if v >= 0.003))
PY
} > "$OUT/ab.log" 2>&1
for wl in $WLS; do
  python3 bench/tools/steps.py --top 400 $w/tr/t-$wl-steps-new.json > "$w/steps-$wl-new.txt" 2>&1
done
tar czf "$OUT/steps.tar.gz" -C $w $(cd $w && ls steps-*.txt) gen.log
date -u +%FT%TZ >> "$OUT/machine-ab.txt"
grep -E "wall_s|compare|failed" "$OUT/ab.log"
grep -E "^t-.*(wall|steps)" "$OUT/ab.log"
