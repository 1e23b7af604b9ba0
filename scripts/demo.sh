#!/usr/bin/env bash
# The main job on the data shipped in data/: an intersection, a clip and a
# dissolve through `ogr2ogr -dialect VSGPU`, then what came out. Builds first
# if needed.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${VSGPU_BUILD_DIR:-$here/build}
[ -f "$build/gdalplugins/ogr_VSGPU.so" ] || VSGPU_BUILD_DIR=$build bash "$here/scripts/build.sh"
export GDAL_DRIVER_PATH=$build/gdalplugins
out=${VSGPU_DEMO_OUT:-$(mktemp -d)}
data=$here/data

run() {  # run <output name> <source> <sql>
  echo
  echo "== $3"
  rm -f "$out/$1.gpkg"
  ogr2ogr -f GPKG "$out/$1.gpkg" -nln "$1" -dialect VSGPU -sql "$3" "VSGPU:$2"
  ogrinfo -ro -so -al "$out/$1.gpkg" | sed -n '/^Layer name/,/^Layer SRS/p;/^[A-Za-z_]*: /p' | grep -v '^Layer SRS' | head -20
}

run intersection "$data/r_spdata.gpkg" \
  "SELECT * FROM ST_Intersection(NY8_utm18, NY8_bna_utm18)"
run clip "$data/us_atlas_counties_10m.gpkg" \
  "SELECT * FROM ST_Clip(counties, states)"
run clip_rect "$data/us_atlas_counties_10m.gpkg" \
  "SELECT * FROM ST_ClipByRect(counties, -80, 35, -75, 40)"
run dissolve "$data/us_atlas_counties_10m.gpkg" \
  "SELECT substr(id, 1, 2) AS state, COUNT(*) AS counties, ST_Union(geom) AS geom FROM counties GROUP BY state"
echo
echo "Outputs in $out"
