#!/usr/bin/env bash
# Run K (2026-11-27 session 7): where the candidate join's probe spends its
# time. ncu (clock control off) on the first probe launches of two
# statements, GPU mode: the counties dissolved by (tile, state) (13 x 13,
# 11.5 M; the validity screen's segment self-join) and
# ST_Intersection(counties, states) at 10 M (GPU refine). Logs under $OUT.
cd "$(dirname "$0")/.."
here=$PWD
mkdir -p /opt/gdal-rt
[ -f /opt/gdal-rt/env.sh ] || tar xJf .device/gdal-rt.tar.xz -C /opt/gdal-rt
[ -d .device/build ] || tar xJf .device/build.tar.xz -C .device
. /opt/gdal-rt/env.sh
new=$here/.device/build/gdalplugins; export GDAL_DRIVER_PATH=$new
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; echo "build $(cat .device/build/COMMIT) (run K)"; date -u +%FT%TZ; which ncu; } > "$OUT/machine.txt" 2>&1
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1 || ls /usr/local/cuda/bin/ncu)
echo "ncu: $NCU" >> "$OUT/machine.txt"
w=/tmp/k; mkdir -p $w
python3 bench/workloads/generate.py --scale tiled --out $w/wl --tiled-vertices 10000000 --only tiled_counties_x_states > $w/gen.log 2>&1
python3 bench/workloads/generate.py --scale tiled --out $w/wl13 --tiled-vertices 10000000 --only tiled_counties_by_state >> $w/gen.log 2>&1
S13=$(ls $w/wl13/tiled_*.gpkg | head -1); SI=$(ls $w/wl/tiled_*.gpkg | head -1)
DIS="SELECT tile, substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM counties GROUP BY tile, st"
INT="SELECT * FROM ST_Intersection(counties, states)"
SECS="--section SpeedOfLight --section MemoryWorkloadAnalysis --section LaunchStats --section Occupancy --section WarpStateStats --section SchedulerStats"
# 1. the dissolve: every probe launch's duration (basic), then full sections on the largest
timeout 200 $NCU --clock-control none --target-processes all --kernel-name regex:'probe|b_fill|cell_starts|blocks' \
  --launch-count 40 --section SpeedOfLight --section LaunchStats \
  ogr2ogr -f GPKG $w/o1.gpkg "VSGPU:$S13" -dialect VSGPU -sql "$DIS" --config VSGPU_EXECUTION_MODE GPU > $OUT/ncu-dis-list.txt 2>&1
timeout 200 $NCU --clock-control none --target-processes all --kernel-name regex:'probe' \
  --launch-count 4 $SECS --import-source no \
  ogr2ogr -f GPKG $w/o2.gpkg "VSGPU:$S13" -dialect VSGPU -sql "$DIS" --config VSGPU_EXECUTION_MODE GPU > $OUT/ncu-dis-probe.txt 2>&1
# 2. the intersection: every probe and the refine's chunk-pair kernels, basic
timeout 200 $NCU --clock-control none --target-processes all --kernel-name regex:'probe' \
  --launch-count 60 --section SpeedOfLight --section LaunchStats \
  ogr2ogr -f GPKG $w/o3.gpkg "VSGPU:$SI" -dialect VSGPU -sql "$INT" --config VSGPU_EXECUTION_MODE GPU --config VSGPU_GPU_REFINE YES > $OUT/ncu-int-list.txt 2>&1
date -u +%FT%TZ >> "$OUT/machine.txt"
grep -E "probe|Duration|Grid Size|Memory Throughput|Compute \(SM\) Throughput" $OUT/ncu-dis-list.txt | head -60
