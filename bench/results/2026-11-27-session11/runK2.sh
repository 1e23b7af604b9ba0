#!/usr/bin/env bash
# Run K2 (2026-11-27 session 11): where the refine's segment-pair tests and
# label rounds spend their time. ncu (clock control off) on the refine's
# step kernels VSG_REF_CP_COUNT (14), VSG_REF_CP_FILL (15) and
# VSG_REF_PROP_ROUND (25) inside ogr2ogr, GPU mode: ST_Intersection(counties,
# states) and the overlapping counties dissolved by (tile, state), both
# tiled to 2.5 M vertices. Logs under $OUT.
cd "$(dirname "$0")/.."
here=$PWD
mkdir -p /opt/gdal-rt
[ -f /opt/gdal-rt/env.sh ] || tar xJf .device/gdal-rt.tar.xz -C /opt/gdal-rt
[ -d .device/build ] || tar xJf .device/build.tar.xz -C .device
. /opt/gdal-rt/env.sh
export GDAL_DRIVER_PATH=$here/.device/build/gdalplugins
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1 || ls /usr/local/cuda/bin/ncu)
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; echo "build $(cat .device/build/COMMIT) (run K2) ncu $NCU"; date -u +%FT%TZ; } > "$OUT/machine.txt" 2>&1
w=/tmp/k2; mkdir -p $w
python3 bench/workloads/generate.py --scale tiled --out $w/wl --tiled-vertices 2500000 --only tiled_counties_x_states,tiled_overlap > $w/gen.log 2>&1
SI=$(ls $w/wl/tiled_counties_6x6.gpkg); SO=$(ls $w/wl/tiled_counties_5x5.gpkg)
INT="SELECT * FROM ST_Intersection(counties, states)"
OVL="SELECT tile, substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM overlap GROUP BY tile, st"
SECS="--section SpeedOfLight --section MemoryWorkloadAnalysis --section LaunchStats --section Occupancy --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis --section InstructionStats"
K='regex:vsg_ref_ctx, ref_item, \(int\)(14|15|25)>'
timeout 250 $NCU --clock-control none --target-processes all --kernel-name-base demangled --kernel-name "$K" \
  --launch-count 8 $SECS \
  ogr2ogr -f GPKG $w/o1.gpkg "VSGPU:$SI" -dialect VSGPU -sql "$INT" --config VSGPU_EXECUTION_MODE GPU > $OUT/ncu-int.txt 2>&1
timeout 250 $NCU --clock-control none --target-processes all --kernel-name-base demangled --kernel-name "$K" \
  --launch-count 8 $SECS \
  ogr2ogr -f GPKG $w/o2.gpkg "VSGPU:$SO" -dialect VSGPU -sql "$OVL" --config VSGPU_EXECUTION_MODE GPU > $OUT/ncu-ovl.txt 2>&1
date -u +%FT%TZ >> "$OUT/machine.txt"
for f in $OUT/ncu-int.txt $OUT/ncu-ovl.txt; do
  echo "== $f"; grep -E "ref_item, \(int\)[0-9]+>|Duration|Compute \(SM\) Throughput|Memory Throughput|L1/TEX Hit|L2 Hit|Achieved Occupancy|Registers Per|Avg. Active Threads|Warp Cycles Per Issued|Stall|One or More Eligible|Executed Ipc A" $f | head -120
done
