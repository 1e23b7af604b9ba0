#!/usr/bin/env bash
# Issue 9, defect 5: one polygon of N vertices (default 2,000,000) through
# ST_ClipByRect and ST_Intersection (against a 10 x 10 grid of squares),
# each against the time of a plain ogr2ogr copy of the same layer, on this
# machine, in one run. Needs ogr2ogr with the VSGPU plugin on
# GDAL_DRIVER_PATH and python3 (no GDAL bindings: the polygon is written
# as GeoJSON and converted by ogr2ogr). Prints one line per run and the
# ratios; best of 3 each.
#
#   bash scripts/bench-huge-polygon.sh [N] [modes (default CPU)]
set -u
n=${1:-2000000}
modes=${2:-CPU}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$n" "$work" <<'PY'
import json, math, sys
n, work = int(sys.argv[1]), sys.argv[2]
ring = []
for k in range(n):
    t = 2 * math.pi * k / n
    r = 1000 + 50 * math.sin(997 * t)          # a wavy circle: 997 lobes
    ring.append([r * math.cos(t), r * math.sin(t)])
ring.append(ring[0])
with open(work + "/big.geojson", "w") as f:
    json.dump({"type": "FeatureCollection", "features": [{"type": "Feature",
               "properties": {"id": 1}, "geometry": {"type": "Polygon",
                                                     "coordinates": [ring]}}]}, f)
cells = []
for i in range(10):
    for j in range(10):
        x, y = -1100 + 220 * i, -1100 + 220 * j
        cells.append({"type": "Feature", "properties": {"cell": 10 * i + j},
                      "geometry": {"type": "Polygon", "coordinates": [[[x, y], [x + 200, y],
                                   [x + 200, y + 200], [x, y + 200], [x, y]]]}})
with open(work + "/m.geojson", "w") as f:
    json.dump({"type": "FeatureCollection", "features": cells}, f)
PY
ogr2ogr --config OGR_GEOJSON_MAX_OBJ_SIZE 0 -f GPKG "$work/big.gpkg" "$work/big.geojson" -nln big -a_srs EPSG:3857 || exit 1
ogr2ogr -f GPKG -update "$work/big.gpkg" "$work/m.geojson" -nln m -a_srs EPSG:3857 || exit 1

best() {   # best of 3 wall seconds of "$@", output removed each time
  local b=999999 s e t
  for r in 1 2 3; do
    rm -f "$work/o.gpkg"
    s=$(date +%s.%N)
    "$@" > "$work/log" 2>&1 || { echo "FAILED: $*" >&2; cat "$work/log" >&2; echo err; return; }
    e=$(date +%s.%N)
    t=$(awk "BEGIN{print $e - $s}")
    b=$(awk "BEGIN{print ($t < $b) ? $t : $b}")
  done
  echo "$b"
}
echo "polygon of $n vertices; $(nproc) cores; $(ogr2ogr --version)"
copy=$(best ogr2ogr -f GPKG "$work/o.gpkg" "$work/big.gpkg" big)
echo "copy                       $copy s"
for mode in $modes; do
  for op in "ST_ClipByRect(big, -500, -500, 500, 1200)" "ST_Intersection(big, m)" "ST_Clip(big, m)"; do
    t=$(best ogr2ogr -f GPKG "$work/o.gpkg" "VSGPU:$work/big.gpkg" -dialect VSGPU \
        -sql "SELECT * FROM $op" -nlt PROMOTE_TO_MULTI --config VSGPU_EXECUTION_MODE "$mode")
    echo "$mode $op  $t s  ratio $(awk "BEGIN{printf \"%.2f\", $t / $copy}")"
  done
done
