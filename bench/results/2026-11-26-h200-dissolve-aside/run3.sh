#!/usr/bin/env bash
# A/B of the dissolve merges on one machine: the carried build (new) and the
# plugin of the commit before (base-plugin.so.xz), GPU mode, beside the CPU
# engine on all cores; runs interleaved, best of $RUNS; the new GPU answers
# against the CPU engine's. Logs under $OUT.
cd "$(dirname "$0")/.."
here=$PWD
mkdir -p /opt/gdal-rt /opt/py-rt /tmp/base/gdalplugins
[ -f /opt/gdal-rt/env.sh ] || tar xJf .device/gdal-rt.tar.xz -C /opt/gdal-rt
[ -x /opt/py-rt/bin/python3 ] || tar xJf .device/py-rt.tar.xz -C /opt/py-rt
[ -d .device/build ] || tar xJf .device/build.tar.xz -C .device
xz -dc .device/base-plugin.so.xz > /tmp/base/gdalplugins/ogr_VSGPU.so
. /opt/gdal-rt/env.sh
new=$here/.device/build/gdalplugins
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; echo "new $(cat .device/build/COMMIT)"; date -u +%FT%TZ; } > "$OUT/machine-ab.txt"
runs=${RUNS:-3}
w=/tmp/ab; mkdir -p $w
python3 bench/workloads/generate.py --scale tiled --out $w/wl --tiled-vertices 10000000 --only tiled_counties_x_states > $w/gen.log 2>&1
[[ " ${WLS:-overlap} " == *" overlap "* ]] && python3 bench/workloads/generate.py --scale tiled --out $w/wlo --tiled-vertices 10000000 --only tiled_overlap >> $w/gen.log 2>&1
src=$(ls $w/wl/tiled_*.gpkg | head -1); osrc=$(ls $w/wlo/tiled_counties_*.gpkg | head -1)
declare -A SQL=(
  [by_state]="SELECT tile, substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM counties GROUP BY tile, st"
  [nation]="SELECT tile, ST_Union(geom) AS geom FROM counties GROUP BY tile"
  [overlap]="SELECT tile, substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM overlap GROUP BY tile, st")
{
for wl in ${WLS:-by_state nation overlap}; do
  s=$src; [ $wl = overlap ] && s=$osrc
  declare -A best=()
  for r in $(seq 1 $runs); do
    for eng in cpu-all gpu-base gpu-new auto-new; do
      case $eng in
        cpu-all) dp=$new; cfg=(--config VSGPU_EXECUTION_MODE CPU) ;;
        gpu-base) dp=/tmp/base/gdalplugins; cfg=(--config VSGPU_EXECUTION_MODE GPU) ;;
        gpu-new) dp=$new; cfg=(--config VSGPU_EXECUTION_MODE GPU) ;;
        auto-new) dp=$new; cfg=(--config VSGPU_EXECUTION_MODE AUTO) ;;
      esac
      rm -f $w/o-$eng.gpkg
      t0=$(date +%s.%N)
      GDAL_DRIVER_PATH=$dp ogr2ogr -f GPKG $w/o-$eng.gpkg "VSGPU:$s" -dialect VSGPU -sql "${SQL[$wl]}" "${cfg[@]}" \
        --config VSGPU_PROFILE $w/t-$wl-$eng-$r.json > $w/run.log 2>&1 || { echo "$wl $eng failed"; cat $w/run.log; }
      t=$(awk "BEGIN{print $(date +%s.%N)-$t0}")
      echo "$wl $eng run $r wall_s=$t"
      b=${best[$eng]:-999}; best[$eng]=$(awk "BEGIN{print ($t<$b)?$t:$b}")
    done
  done
  for eng in cpu-all gpu-base gpu-new auto-new; do echo "$wl $eng best_wall_s=${best[$eng]}"; done
  echo "$wl gpu-new against cpu-all:"; .device/cmp-py bench/tools/compare_gpkg.py $w/o-gpu-new.gpkg $w/o-cpu-all.gpkg
  echo "$wl gpu-base against cpu-all:"; .device/cmp-py bench/tools/compare_gpkg.py $w/o-gpu-base.gpkg $w/o-cpu-all.gpkg
  echo "$wl auto-new against cpu-all:"; .device/cmp-py bench/tools/compare_gpkg.py $w/o-auto-new.gpkg $w/o-cpu-all.gpkg
  python3 - $w $wl $runs <<'PY'
import json, sys
w, wl, r = sys.argv[1:]
for eng in ("cpu-all", "gpu-base", "gpu-new", "auto-new"):
    t = json.load(open("%s/t-%s-%s-%s.json" % (w, wl, eng, r)))
    print("  trace %s %s total %.3f s" % (wl, eng, t["total_s"]))
    for s in t["stages"]:
        if s["elapsed_s"] >= 0.003:
            print("    %-20s %-4s %8.3f s  in %d out %d" % (s["stage"], s["device"], s["elapsed_s"], s["rows_in"], s["rows_out"]))
PY
done
} > "$OUT/ab.log" 2>&1
[ -f "$OUT/startup.log" ] || bash scripts/gpu-host-startup.sh > "$OUT/startup.log" 2>&1
date -u +%FT%TZ >> "$OUT/machine-ab.txt"
grep -E "best_wall|compare" "$OUT/ab.log"
