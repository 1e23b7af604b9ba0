#!/usr/bin/env bash
# Runs on the GPU host, from the repository root, with .device/ carried (see
# gpu-host-prepare.sh). Builds nothing. Writes logs under $OUT:
#   machine.txt   GPU, driver, CPU
#   ctests.log    the C unit tests (engine, parser)
#   modes.log     each operation in AUTO, GPU and CPU modes through ogr2ogr:
#                 exit codes and the warning or error that names the reason
#   threads.log   1 thread against all cores: identical outputs, wall times
set -u
out=${OUT:-/tmp/vsgpu-out}
mkdir -p "$out" /opt/gdal-rt
tar xJf .device/gdal-rt.tar.xz -C /opt/gdal-rt
. /opt/gdal-rt/env.sh
export GDAL_DRIVER_PATH=$PWD/.device/vsgpu
work=$(mktemp -d)

{
  date -u +%FT%TZ
  echo "commit $(cat .device/vsgpu/COMMIT)"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
  lscpu | grep -E "Model name|^CPU\(s\)"
  ogrinfo --version
  ogrinfo --formats | grep -i vsgpu
} > "$out/machine.txt" 2>&1

fail=0
for t in .device/vsgpu/test_*; do
  if "$t" > "$work/t.log" 2>&1; then echo "PASS $(basename "$t"): $(tail -1 "$work/t.log")"
  else echo "FAIL $(basename "$t")"; cat "$work/t.log"; fail=1; fi
done > "$out/ctests.log"

declare -A SQL=(
  [intersection]="SELECT * FROM ST_Intersection(counties, states)"
  [clip]="SELECT * FROM ST_Clip(counties, states)"
  [cliprect]="SELECT * FROM ST_ClipByRect(counties, -80, 35, -75, 40)"
  [dissolve]="SELECT substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM counties GROUP BY st"
)
src=VSGPU:data/us_atlas_counties_10m.gpkg
{
  for op in intersection clip cliprect dissolve; do
    for mode in AUTO GPU CPU; do
      ogr2ogr -f GeoJSON "$work/$op-$mode.json" "$src" -dialect VSGPU -sql "${SQL[$op]}" \
        --config VSGPU_EXECUTION_MODE $mode > "$work/m.log" 2>&1
      echo "$op $mode rc=$? features=$(grep -c '"type": "Feature"' "$work/$op-$mode.json" 2>/dev/null)"
      sed 's/^/    /' "$work/m.log"
    done
    cmp -s "$work/$op-AUTO.json" "$work/$op-CPU.json" && echo "$op AUTO output == CPU output" \
      || { echo "$op AUTO output differs from CPU output"; fail=1; }
  done
} > "$out/modes.log" 2>&1

{
  cores=$(nproc)
  for op in intersection clip cliprect dissolve; do
    for t in 1 $cores; do
      s=$(date +%s.%N)
      ogr2ogr -f GeoJSON "$work/$op-t$t.json" "$src" -dialect VSGPU -sql "${SQL[$op]}" \
        --config VSGPU_EXECUTION_MODE CPU --config VSGPU_NUM_THREADS $t 2>/dev/null
      e=$(date +%s.%N)
      echo "$op threads=$t wall_s=$(awk "BEGIN{printf \"%.3f\", $e - $s}")"
    done
    cmp -s "$work/$op-t1.json" "$work/$op-t$cores.json" && echo "$op 1 thread == $cores threads: identical" \
      || { echo "$op 1 thread != $cores threads"; fail=1; }
  done
} > "$out/threads.log" 2>&1

cat "$out/machine.txt" "$out/ctests.log" "$out/modes.log" "$out/threads.log"
exit $fail
