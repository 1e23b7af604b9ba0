cd /src/_work_main/.device/wt
export GDAL_DRIVER_PATH=/root/build-_work_main/gdalplugins
gdal-config --version 2>/dev/null || ogrinfo --version
t() { local s=$(date +%s.%N); "$@" > /tmp/t.log 2>&1 || tail -2 /tmp/t.log; echo "$(awk "BEGIN{print $(date +%s.%N)-$s}") s: $TAG"; }
for i in 1 2 3; do
rm -f /tmp/c.gpkg; TAG="copy input (counties)"; t ogr2ogr -f GPKG -lco SPATIAL_INDEX=NO /tmp/c.gpkg tiled_counties_5x5.gpkg counties -nln result
rm -f /tmp/c.gpkg; TAG="copy of the intersection's answer"; t ogr2ogr -f GPKG -lco SPATIAL_INDEX=NO /tmp/c.gpkg res.gpkg result
rm -f /tmp/c.gpkg; TAG="rect clip keeping all, CPU engine"; t ogr2ogr -f GPKG -lco SPATIAL_INDEX=NO /tmp/c.gpkg VSGPU:tiled_counties_5x5.gpkg -dialect VSGPU -sql "SELECT * FROM ST_ClipByRect(counties, -1e9, -1e9, 1e9, 1e9)" --config VSGPU_EXECUTION_MODE CPU
rm -f /tmp/c.gpkg; TAG="same, no Arrow writer (OGR2OGR_USE_ARROW_API=NO)"; t ogr2ogr -f GPKG -lco SPATIAL_INDEX=NO /tmp/c.gpkg VSGPU:tiled_counties_5x5.gpkg -dialect VSGPU -sql "SELECT * FROM ST_ClipByRect(counties, -1e9, -1e9, 1e9, 1e9)" --config VSGPU_EXECUTION_MODE CPU --config OGR2OGR_USE_ARROW_API NO
rm -f /tmp/c.gpkg; TAG="copy input, no Arrow (OGR2OGR_USE_ARROW_API=NO)"; t ogr2ogr -f GPKG -lco SPATIAL_INDEX=NO /tmp/c.gpkg tiled_counties_5x5.gpkg counties -nln result --config OGR2OGR_USE_ARROW_API NO
done
