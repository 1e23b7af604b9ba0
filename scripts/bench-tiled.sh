#!/usr/bin/env bash
# The operations on real, skewed data at scale: the US counties and states
# tiled into k x k translated copies (bench/workloads/tiled.py, >= N
# vertices, default 10 M), through ogr2ogr into a GeoPackage, best of $RUNS (default 2),
# with a stage trace per run. OP picks the workloads:
#   dissolve      by_state  GROUP BY tile, state (2744 groups at 10 M:
#                           coverages, and a few states per copy whose
#                           counties overlap: the overlap union on the GPU,
#                           GEOS on the CPU engine)
#                 nation    GROUP BY tile (one nation-sized group per copy)
#                 overlap   GROUP BY tile, state on the counties plus a copy
#                           of them shifted by 30 % of a county (members
#                           overlap: the GPU's overlap union, GEOS on CPU)
#   intersection  counties_x_states  SELECT * FROM ST_Intersection(counties, states)
#   clip          counties_clip_states  SELECT * FROM ST_Clip(counties, states)
#                 states_clip_counties  SELECT * FROM ST_Clip(states, counties)
#                           (each state cut by its ~60 counties: the pieces'
#                           union is the heavy part)
#   skewed        nybb_x_grid   SELECT * FROM ST_Intersection(nybb, grid): the
#                           NYC boroughs (5 polygons of up to 30,000 vertices
#                           per copy) against a 10 x 10 grid over each copy
#                 world_x_grid  SELECT * FROM ST_Intersection(world, grid): the
#                           world's countries against a 24 x 24 grid
#                 nybb_clip_rect  SELECT * FROM ST_ClipByRect(nybb, <rect>):
#                           a rectangle over the central ~60 % of the copies
# Engines:
#   cpu-1       the CPU engine on 1 thread (cpu-<n>: on n threads)
#   cpu-all     the CPU engine on all cores
#   geos-all    the CPU engine on all cores with VSGPU_COVERAGE_UNION=NO
#               (GEOS's coverage and unary unions only)
#   gpu         VSGPU_EXECUTION_MODE=GPU (the coverage and overlap unions on the device;
#               for intersection the GPU filter, GEOS refines)
#   gpu-refine  the same with VSGPU_GPU_REFINE=YES: the exact GPU refine
#               (and for clip the union of the pieces on the device),
#               GEOS only for the pairs it hands back; its answer is
#               compared with cpu-all's feature by feature
#               (bench/tools/compare_gpkg.py, CMP_PYTHON: a python with osgeo)
#   <engine>-1t the engine with VSGPU_READ_AHEAD=NO: one thread reads,
#               computes and hands out (before read-ahead, 2026-11-25)
#   copy        a plain ogr2ogr copy of the input layer (the I/O floor)
#   copy-out    a plain ogr2ogr copy of cpu-all's answer (the cost of writing
#               the answer; list it after cpu-all)
# Needs ogr2ogr with the plugin on GDAL_DRIVER_PATH and python3 with numpy.
# scripts/bench-dissolve.sh and scripts/bench-refine.sh call it.
#
#   bash scripts/bench-tiled.sh OP [N] [engines] [out dir]
set -u
py=${PYTHON:-python3}
op=${1:?dissolve, intersection or clip}
n=${2:-10000000}
runs=${RUNS:-2}
case $op in
  dissolve) workloads="by_state nation overlap"; def="copy cpu-1 cpu-all geos-all gpu" ;;
  intersection) workloads="counties_x_states"; def="copy cpu-all gpu gpu-refine" ;;
  clip) workloads="counties_clip_states states_clip_counties"; def="copy cpu-all gpu gpu-refine" ;;
  skewed) workloads="nybb_x_grid world_x_grid nybb_clip_rect"; def="copy cpu-all gpu-refine" ;;
  *) echo "bench-tiled.sh: unknown operation $op" >&2; exit 2 ;;
esac
workloads=${WORKLOADS:-$workloads}   # WORKLOADS: some of the operation's workloads
engines=${3:-$def}
out=${4:-${OUT:-/tmp/vsgpu-$op}}
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
here=$(cd "$(dirname "$0")/.." && pwd)
only=tiled_counties_x_states
[ "$op" = skewed ] && only=$(printf 'tiled_%s,' $workloads | sed 's/,$//')
"$py" "$here/bench/workloads/generate.py" --scale tiled --out "$work/wl" --tiled-vertices "$n" \
  --only $only > "$work/gen.log" 2>&1 || { cat "$work/gen.log"; exit 1; }
src=$(ls "$work"/wl/tiled_*.gpkg | head -1)
if [[ " $workloads " == *" overlap "* ]]; then   # its own k: twice the vertices per copy
  "$py" "$here/bench/workloads/generate.py" --scale tiled --out "$work/wlo" --tiled-vertices "$n" \
    --only tiled_overlap > "$work/gen.log" 2>&1 || { cat "$work/gen.log"; exit 1; }
fi
for f in "$work"/wl/tiled_*.gpkg; do
  echo "source $f ($("$py" - "$f" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
t = c.execute("SELECT table_name FROM gpkg_contents ORDER BY table_name").fetchall()
print(", ".join("%s %d" % (n, c.execute('SELECT count(*) FROM "%s"' % n).fetchone()[0]) for (n,) in t))
PY
))"
done
# the rectangle of nybb_clip_rect, from the manifest
rect=$("$py" - "$work/wl/manifest.json" <<'PY'
import json, sys
w = [w for w in json.load(open(sys.argv[1]))["workloads"] if w["rect"]]
print(", ".join("%r" % v for v in w[0]["rect"]) if w else "0, 0, 0, 0")
PY
)
declare -A SQL=(
  [by_state]="SELECT tile, substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM counties GROUP BY tile, st"
  [nation]="SELECT tile, ST_Union(geom) AS geom FROM counties GROUP BY tile"
  [overlap]="SELECT tile, substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM overlap GROUP BY tile, st"
  [counties_x_states]="SELECT * FROM ST_Intersection(counties, states)"
  [counties_clip_states]="SELECT * FROM ST_Clip(counties, states)"
  [states_clip_counties]="SELECT * FROM ST_Clip(states, counties)"
  [nybb_x_grid]="SELECT * FROM ST_Intersection(nybb, grid)"
  [world_x_grid]="SELECT * FROM ST_Intersection(world, grid)"
  [nybb_clip_rect]="SELECT * FROM ST_ClipByRect(nybb, $rect)"
)
# the input layer of each workload (the copy engine copies it)
declare -A INPUT=([overlap]=overlap [nybb_x_grid]=nybb [world_x_grid]=world [nybb_clip_rect]=nybb)
for w in $workloads; do
  wsrc=$src
  [ "$w" = overlap ] && wsrc=$(ls "$work"/wlo/tiled_counties_*.gpkg | head -1)
  case $w in
    nybb_*) wsrc=$(ls "$work"/wl/tiled_nybb_*.gpkg | head -1) ;;
    world_*) wsrc=$(ls "$work"/wl/tiled_world_*.gpkg | head -1) ;;
  esac
  lin=${INPUT[$w]:-counties}
  for eng in $engines; do
    best=999
    for r in $(seq 1 "$runs"); do
      rm -f "$work/o.gpkg"
      cfg=()
      case $eng in *-1t) cfg=(--config VSGPU_READ_AHEAD NO) ;; esac
      case ${eng%-1t} in
        cpu-[0-9]*) base=${eng%-1t}; cfg+=(--config VSGPU_EXECUTION_MODE CPU --config VSGPU_NUM_THREADS ${base#cpu-}) ;;
        cpu-all) cfg+=(--config VSGPU_EXECUTION_MODE CPU) ;;
        geos-all) cfg+=(--config VSGPU_EXECUTION_MODE CPU --config VSGPU_COVERAGE_UNION NO) ;;
        gpu) cfg+=(--config VSGPU_EXECUTION_MODE GPU --config VSGPU_GPU_REFINE NO) ;;
        gpu-refine) cfg+=(--config VSGPU_EXECUTION_MODE GPU --config VSGPU_GPU_REFINE YES) ;;
      esac
      s=$(date +%s.%N)
      if [ $eng = copy ]; then
        ogr2ogr -f GPKG "$work/o.gpkg" "$wsrc" "$lin" > "$work/run.log" 2>&1
      elif [ $eng = copy-out ]; then
        ogr2ogr -f GPKG "$work/o.gpkg" "$work/o-cpu-all.gpkg" > "$work/run.log" 2>&1
      else
        ogr2ogr -f GPKG "$work/o.gpkg" "VSGPU:$wsrc" -dialect VSGPU -sql "${SQL[$w]}" "${cfg[@]}" \
          --config VSGPU_PROFILE "$out/trace-$w-$eng-$r.json" > "$work/run.log" 2>&1
      fi
      rc=$?
      e=$(date +%s.%N)
      [ $rc = 0 ] || { echo "$w $eng: rc=$rc"; sed 's/^/    /' "$work/run.log" | tail -5; best=err; break; }
      best=$(awk "BEGIN{t=$e-$s; print (t<$best)?t:$best}")
    done
    feats=$("$py" - "$work/o.gpkg" <<'PY'
import sqlite3, sys
try:
    c = sqlite3.connect(sys.argv[1])
    t = c.execute("SELECT table_name FROM gpkg_contents").fetchone()[0]
    print(c.execute('SELECT count(*) FROM "%s"' % t).fetchone()[0])
except Exception as e:
    print("?")
PY
)
    echo "$w $eng wall_s=$best features=$feats"
    cp "$work/o.gpkg" "$work/o-$eng.gpkg" 2>/dev/null
    sed 's/^/    /' "$work/run.log" | grep -v "^    $" | tail -3
  done
  # the GPU engines' answers against the CPU engine's, feature by feature
  for g in gpu gpu-refine gpu-refine-1t cpu-all-1t; do
    if [ -f "$work/o-$g.gpkg" ] && [ -f "$work/o-cpu-all.gpkg" ]; then
      echo "$w $g against cpu-all:"
      "${CMP_PYTHON:-$py}" "$here/bench/tools/compare_gpkg.py" "$work/o-$g.gpkg" \
        "$work/o-cpu-all.gpkg" || true
    fi
  done
  rm -f "$work"/o-*.gpkg
done
# the stage times of the last run of each engine (the trace's own figures)
"$py" - "$out" "$runs" <<'PY'
import glob, json, os, sys
for path in sorted(glob.glob(os.path.join(sys.argv[1], "trace-*-%s.json" % sys.argv[2]))):
    t = json.load(open(path))
    st = [s for s in t["stages"] if s["elapsed_s"] >= 0.005]
    print(os.path.basename(path), "total %.3f s" % t["total_s"])
    for s in st:
        print("    %-20s %-4s %8.3f s  in %d out %d" % (s["stage"], s["device"], s["elapsed_s"],
                                                     s["rows_in"], s["rows_out"]))
PY
