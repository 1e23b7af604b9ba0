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
  echo "== ogr2ogr -dialect VSGPU -sql \"$3\""
  rm -f "$out/$1.gpkg"
  ogr2ogr -f GPKG "$out/$1.gpkg" -nln "$1" -dialect VSGPU -sql "$3" "VSGPU:$2"
  # What came out, checked with GDAL's SQLite dialect on the output file.
  ogrinfo -ro -q "$out/$1.gpkg" -dialect SQLITE -sql \
    "SELECT COUNT(*) AS features, SUM(geom IS NULL) AS null_geometries,
            SUM(ST_IsValid(geom)) AS valid_geometries, SUM(ST_Area(geom)) AS total_area
     FROM \"$1\"" | grep -E '^  [a-z_]+ \(' | sed 's/^  /   /'
  echo "   fields: $(ogrinfo -ro -so "$out/$1.gpkg" "$1" | sed -n '/^Geometry Column/,$p' | tail -n +2 | cut -d: -f1 | tr '\n' ' ')"
}

run intersection "$data/r_spdata.gpkg" \
  "SELECT * FROM ST_Intersection(NY8_utm18, NY8_bna_utm18, 'CRS_MISMATCH=REPROJECT')"
run clip "$data/us_atlas_counties_10m.gpkg" \
  "SELECT * FROM ST_Clip(counties, states)"
run clip_rect "$data/us_atlas_counties_10m.gpkg" \
  "SELECT * FROM ST_ClipByRect(counties, -80, 35, -75, 40)"
run dissolve "$data/us_atlas_counties_10m.gpkg" \
  "SELECT substr(id, 1, 2) AS state, COUNT(*) AS counties, ST_Union(geom) AS geom FROM counties GROUP BY state"
echo
echo "== the same dissolve with GDAL's SQLite dialect, for comparison"
ogr2ogr -f GPKG "$out/dissolve_sqlite.gpkg" -nln dissolve_sqlite -dialect SQLITE \
  -sql "SELECT substr(id, 1, 2) AS state, ST_Union(geom) AS geom FROM counties GROUP BY 1" \
  "$data/us_atlas_counties_10m.gpkg" 2>/dev/null
ogrinfo -ro -q "$out/dissolve_sqlite.gpkg" -dialect SQLITE -sql \
  "SELECT COUNT(*) AS features, SUM(geom IS NULL) AS null_geometries,
          group_concat(CASE WHEN geom IS NULL THEN state END) AS null_states
   FROM dissolve_sqlite" | grep -E '^  [a-z_]+ \(' | sed 's/^  /   /'
echo
echo "Outputs in $out"
