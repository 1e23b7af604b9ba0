#!/usr/bin/env bash
# Where a GPU statement's fixed cost goes, on the GPU host (carried .device,
# see gpu-host-prepare.sh). Prints: persistence mode; the CUDA driver's own
# start-up (cuInit, primary context) timed through libcuda with ctypes; and
# one small ST_ClipByRect through ogr2ogr in CPU and GPU modes with GDAL's
# debug messages time-stamped (CPL_TIMESTAMP), 3 runs each.
set -u
mkdir -p /opt/gdal-rt
[ -x /opt/gdal-rt/bin/ogr2ogr ] || tar xJf .device/gdal-rt.tar.xz -C /opt/gdal-rt
[ -d .device/build ] || tar xJf .device/build.tar.xz -C .device
. /opt/gdal-rt/env.sh
export GDAL_DRIVER_PATH=$PWD/.device/build/gdalplugins
nvidia-smi --query-gpu=name,driver_version,persistence_mode --format=csv
for i in 1 2 3; do
python3 - <<'PY'
import ctypes, time
t0 = time.perf_counter(); cu = ctypes.CDLL("libcuda.so.1"); t1 = time.perf_counter()
rc = cu.cuInit(0); t2 = time.perf_counter()
dev = ctypes.c_int(); cu.cuDeviceGet(ctypes.byref(dev), 0)
ctx = ctypes.c_void_p(); rc2 = cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev); t3 = time.perf_counter()
rc3 = cu.cuDevicePrimaryCtxRelease(dev); t4 = time.perf_counter()
print("libcuda: dlopen %.3f s, cuInit %.3f s (rc %d), primary context %.3f s (rc %d), release %.3f s"
      % (t1 - t0, t2 - t1, rc, t3 - t2, rc2, t4 - t3))
PY
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
