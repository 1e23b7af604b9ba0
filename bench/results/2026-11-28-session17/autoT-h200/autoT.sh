#!/usr/bin/env bash
# Run T: what AUTO takes for ST_Union with the 120,000-row crossover: the
# buffers at 10 M vertices (323,000 rows), the counties by state at 2.5 M
# (116,280 rows) and 4.4 M (206,720 rows); AUTO, GPU and CPU twice each.
cd "$(dirname "$0")/.."
mkdir -p /opt/gdal-rt
[ -f /opt/gdal-rt/env.sh ] || tar xJf .device/gdal-rt.tar.xz -C /opt/gdal-rt
[ -d .device/build ] || tar xJf .device/build.tar.xz -C .device
. /opt/gdal-rt/env.sh
dp=$PWD/.device/build/gdalplugins
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; cat .device/build/COMMIT; date -u +%FT%TZ
python3 bench/workloads/generate.py --scale tiled --out /tmp/t/b --only tiled_buffers > /dev/null 2>&1
python3 bench/workloads/generate.py --scale tiled --out /tmp/t/c25 --tiled-vertices 2000000 --only tiled_counties_by_state > /dev/null 2>&1
python3 bench/workloads/generate.py --scale tiled --out /tmp/t/c44 --tiled-vertices 4000000 --only tiled_counties_by_state > /dev/null 2>&1
for spec in "b buffers" "c25 counties" "c44 counties"; do
  set -- $spec; f=$(ls /tmp/t/$1/tiled_*.gpkg | head -1)
  sql="SELECT tile, substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM $2 GROUP BY tile, st"
  for r in 1 2; do for m in AUTO GPU CPU; do
    rm -f /tmp/t.gpkg; t0=$(date +%s.%N)
    GDAL_DRIVER_PATH=$dp ogr2ogr -f GPKG -lco SPATIAL_INDEX=NO /tmp/t.gpkg "VSGPU:$f" -dialect VSGPU -sql "$sql" \
      --config VSGPU_EXECUTION_MODE $m --config CPL_DEBUG VSGPU > /tmp/t.log 2>&1 || echo "failed $1 $m"
    echo "auto $1 $(basename $f) mode=$m run=$r wall=$(awk "BEGIN{print $(date +%s.%N)-$t0}") $(grep -o 'selected [A-Z]*[^:]*' /tmp/t.log | head -1) | $(grep -o 'rows to read[^"]*' /tmp/t.log | head -1)"
  done; done
done
date -u +%FT%TZ
