#!/usr/bin/env bash
# Where a GPU statement's fixed cost goes, on the GPU host (carried .device,
# see gpu-host-prepare.sh). Prints: persistence mode; the parts of CUDA's
# fixed cost (the driver's start, the primary context, the warm-up, the
# statement's context, and the exit each way: VSGPU_GPU_FAST_EXIT's held
# context, the runtime's teardown, no exit handler at all); and one small
# ST_ClipByRect through ogr2ogr in CPU and GPU modes with GDAL's debug
# messages time-stamped (CPL_TIMESTAMP), 3 runs each.
set -u
mkdir -p /opt/gdal-rt
[ -x /opt/gdal-rt/bin/ogr2ogr ] || tar xJf .device/gdal-rt.tar.xz -C /opt/gdal-rt
[ -d .device/build ] || tar xJf .device/build.tar.xz -C .device
. /opt/gdal-rt/env.sh
export GDAL_DRIVER_PATH=$PWD/.device/build/gdalplugins
nvidia-smi --query-gpu=name,driver_version,persistence_mode --format=csv
# The parts of CUDA's fixed cost in one process (bench/tools/vsgbench_cuda_start.c),
# each way of exiting, with no memory and with 4 GiB used: 3 runs each, interleaved
for r in 1 2 3; do
  for bytes in 0 4294967296; do
    for mode in teardown hold quick reset own; do
      t0=$(date +%s.%N)
      out=$(.device/build/bench/vsgbench_cuda_start $mode $bytes 2>&1)
      t1=$(date +%s.%N)
      python3 - "$mode" "$bytes" "$t0" "$t1" "$out" <<'PY'
import sys
mode, nbytes, t0, t1, out = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
parts, start, end = [], None, None
for line in out.splitlines():
    f = line.split()
    if f[:1] == ["part"]: parts.append("%s %s" % (f[1], f[2]))
    elif f[:1] == ["start"]: start = float(f[1])
    elif f[:1] == ["end"]: end = float(f[1])
if start is None or end is None:
    print("probe %s %d GiB failed: %s" % (mode, nbytes >> 30, out.strip()[:200]))
else:
    print("probe %-8s %d GiB: load %.3f | %s | exit %.3f | wall %.3f"
          % (mode, nbytes >> 30, start - t0, " ".join(parts), t1 - end, t1 - t0))
PY
    done
  done
done
sql="SELECT * FROM ST_ClipByRect(counties, -80, 35, -75, 40)"
for mode in CPU GPU CPU GPU CPU GPU; do
  rm -f /tmp/s.gpkg
  s=$(date +%s.%N)
  ogr2ogr -f GPKG /tmp/s.gpkg VSGPU:data/us_atlas_counties_10m.gpkg -dialect VSGPU -sql "$sql" \
    --config VSGPU_EXECUTION_MODE $mode --debug ON --config CPL_TIMESTAMP ON > /tmp/s.log 2>&1
  e=$(date +%s.%N)
  echo "== $mode: $(awk "BEGIN{printf \"%.3f\", $e - $s}") s end to end"
  grep -E "VSGPU|GDAL: GDALClose|GPKG: .*(Opening|Closing)" /tmp/s.log | cut -c1-160 | head -14
done
