#!/usr/bin/env bash
# Run Y (2026-11-27 session 10): the hash table's slots in one record
# (7ce0ff7) against 935cd68's plugin on one machine: the coverage and
# screen C tests on CUDA, then the 13 x 13 counties-by-state dissolve's
# step profiles with the screen off and on, base and new, and the two GPU
# answers compared.
cd "$(dirname "$0")/.."
here=$PWD
mkdir -p /opt/gdal-rt /opt/py-rt /tmp/base/gdalplugins
[ -f /opt/gdal-rt/env.sh ] || tar xJf .device/gdal-rt.tar.xz -C /opt/gdal-rt
[ -x /opt/py-rt/bin/python3 ] || tar xJf .device/py-rt.tar.xz -C /opt/py-rt
[ -d .device/build ] || tar xJf .device/build.tar.xz -C .device
xz -dc .device/base-plugin.so.xz > /tmp/base/gdalplugins/ogr_VSGPU.so
. /opt/gdal-rt/env.sh
new=$here/.device/build/gdalplugins; base=/tmp/base/gdalplugins
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; echo "new $(cat .device/build/COMMIT) base 935cd68 (run Y)"; date -u +%FT%TZ; } > "$OUT/machine.txt"
for tp in test_stage_coverage test_stage_valid_screen; do
  echo "== $tp"; (cd autotest && $here/.device/build/autotest/$tp 2>&1 | grep -v "^ok " | tail -4)
done > "$OUT/ctests.log" 2>&1
w=/tmp/ab; rm -rf $w; mkdir -p $w/tr
python3 bench/workloads/generate.py --scale tiled --out $w/wl13 --tiled-vertices 10000000 --only tiled_counties_by_state > $w/gen.log 2>&1
f=$(ls $w/wl13/tiled_*.gpkg | head -1)
sql="SELECT tile, substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM counties GROUP BY tile, st"
for rep in 1 2; do for spec in noscreen screen; do
  for b in base new; do
    dp=$new; [ $b = base ] && dp=$base
    extra=(); [ $spec = noscreen ] && extra=(--config VSGPU_VALID_SCREEN NO)
    t0=$(date +%s.%N); rm -f $w/o-$b.gpkg
    GDAL_DRIVER_PATH=$dp ogr2ogr -f GPKG -lco SPATIAL_INDEX=NO $w/o-$b.gpkg "VSGPU:$f" -dialect VSGPU -sql "$sql" \
      --config VSGPU_EXECUTION_MODE GPU --config VSGPU_PROFILE_STEPS YES "${extra[@]}" \
      --config VSGPU_PROFILE $w/tr/steps-$spec-$b-$rep.json > $w/steps-$spec-$b-$rep.log 2>&1 || echo "$spec $b failed"
    echo "$spec $b $rep wall_s=$(awk "BEGIN{print $(date +%s.%N)-$t0}")"
    python3 bench/tools/steps.py --top 400 $w/tr/steps-$spec-$b-$rep.json > $w/steps-$spec-$b-$rep.txt 2>&1
    awk 'NR>1{t=$1; if ($0~/upload|download|host, until|set-up/) io+=t; else if ($0~/candidates:/) c+=t; else o+=t} END{printf "  resident %.4f s (candidates %.4f, the rest %.4f), copies and gaps %.4f\n", c+o, c, o, io}' $w/steps-$spec-$b-$rep.txt
    grep -E "coverage_segments|screen_segments" $w/steps-$spec-$b-$rep.txt | head -6
  done
done; done > "$OUT/y.log" 2>&1
tar czf "$OUT/steps-Y.tar.gz" -C $w $(cd $w && ls steps-*.txt)
echo "new against base (screen on):" >> "$OUT/y.log"
.device/cmp-py bench/tools/compare_gpkg.py $w/o-new.gpkg $w/o-base.gpkg >> "$OUT/y.log" 2>&1
cat "$OUT/ctests.log" "$OUT/y.log"
