#!/usr/bin/env bash
# GPU validation. Runs on the GPU host, from the repository root, with
# .device/ carried (see gpu-host-prepare.sh). Builds nothing. Writes under
# $OUT:
#   machine.txt    GPU, driver, CPU, commit
#   ctests.log     every C test program: the engine, the parser, the CUDA
#                  runtime (tiers, limits, errors) and every stage on the
#                  CUDA backend against the host backend
#   autotest.log   the pytest suite; every statement with a GPU pipeline is
#                  run again with VSGPU_EXECUTION_MODE=GPU on the CUDA
#                  backend and must agree with the CPU engine
#   modes.log      each operation in AUTO, GPU and CPU modes via ogr2ogr
#   crossover.log  CPU engine (all cores) against the GPU pipeline by input
#                  size, for the dispatch crossover constants
# Exit status: 0 when everything passed.
set -u
here=$PWD
out=${OUT:-/tmp/vsgpu-out}
mkdir -p "$out" /opt/gdal-rt /opt/py-rt
tar xJf .device/gdal-rt.tar.xz -C /opt/gdal-rt
[ -d .device/build ] || tar xJf .device/build.tar.xz -C .device
[ -f .device/py-rt.tar.xz ] && tar xJf .device/py-rt.tar.xz -C /opt/py-rt
. /opt/gdal-rt/env.sh
build=$here/.device/build
export GDAL_DRIVER_PATH=$build/gdalplugins
work=$(mktemp -d)
fail=0

{
  date -u +%FT%TZ
  echo "commit $(cat "$build/COMMIT")"; [ -s "$build/DIRTY" ] && { echo "uncommitted changes:"; cat "$build/DIRTY"; }
  nvidia-smi --query-gpu=name,driver_version,memory.total,pcie.link.gen.max,pcie.link.width.max --format=csv
  lscpu | grep -E "Model name|^CPU\(s\)"
  ogrinfo --version
  ogrinfo --formats | grep -i vsgpu
} > "$out/machine.txt" 2>&1

# ---- C tests -------------------------------------------------------------
for t in "$build"/autotest/test_*; do
  s=$(date +%s.%N)
  args=(); case "$t" in *test_columnar_gdal) args=("$here/data" "$here/data/shared") ;; esac
  if (cd autotest && "$t" "${args[@]}") > "$work/t.log" 2>&1; then r=PASS; else r=FAIL; fail=1; fi
  e=$(date +%s.%N)
  echo "$r $(basename "$t") ($(awk "BEGIN{printf \"%.1f\", $e - $s}") s)"
  if [ $r = FAIL ] || grep -q -E "^(skip|device|[0-9]+ stars)" "$work/t.log"; then sed 's/^/    /' "$work/t.log" | tail -40; fi
done > "$out/ctests.log" 2>&1

# ---- the autotest suite, cross-checked on the CUDA backend ---------------
if [ -x /opt/py-rt/bin/python3 ]; then
  ( . /opt/py-rt/env.sh
    cd autotest && VSGPU_TEST_GPU_BACKEND=CUDA VSGPU_BUILD_DIR=$build \
      timeout 300 python3 -m pytest -q -p no:cacheprovider pyscripts --maxfail=25 -rs 2>&1 ) > "$out/autotest.log"
  tail -3 "$out/autotest.log" | grep -q -E "passed" && ! tail -3 "$out/autotest.log" | grep -q -E "failed|error" || fail=1
else
  echo "no Python runtime carried (.device/py-rt.tar.xz)" > "$out/autotest.log"; fail=1
fi

# ---- modes through ogr2ogr -------------------------------------------------
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
      s=$(date +%s.%N)
      ogr2ogr -f GeoJSON "$work/$op-$mode.json" "$src" -dialect VSGPU -sql "${SQL[$op]}" \
        --config VSGPU_EXECUTION_MODE $mode --config VSGPU_PROFILE "$out/trace-$op-$mode.json" > "$work/m.log" 2>&1
      rc=$?
      e=$(date +%s.%N)
      echo "$op $mode rc=$rc features=$(grep -c '"type": "Feature"' "$work/$op-$mode.json" 2>/dev/null) wall_s=$(awk "BEGIN{printf \"%.3f\", $e - $s}")"
      sed 's/^/    /' "$work/m.log"
    done
    n_cpu=$(grep -c '"type": "Feature"' "$work/$op-CPU.json")
    n_gpu=$(grep -c '"type": "Feature"' "$work/$op-GPU.json" 2>/dev/null || echo 0)
    if [ "$n_cpu" = "$n_gpu" ]; then echo "$op: GPU and CPU give $n_cpu features"
    else echo "$op: GPU gives $n_gpu features, CPU $n_cpu"; fail=1; fi
  done
} > "$out/modes.log" 2>&1

# ---- crossover: the same statement on growing inputs -------------------------
# Medium-scale workloads (bench/workloads), cut to the first N rows with
# WHERE fid <= N; ogr2ogr end to end to GPKG, best of 3, CPU engine on
# all cores against the GPU pipeline.
if python3 bench/workloads/generate.py --scale medium --out "$work/wl" --only clip_rect,overlay > "$work/gen.log" 2>&1; then
  eval "$(python3 - "$work/wl/manifest.json" <<'PY'
import json, sys
m = {w["name"]: w for w in json.load(open(sys.argv[1]))["workloads"]}
c, o = m["clip_rect"], m["overlay"]
print("CR_PATH=%s CR_LAYER=%s CR_RECT='%s'" % (c["input"]["path"], c["input"]["layer"],
      ", ".join(repr(v) for v in c["rect"])))
print("OV_PATH=%s OV_A=%s OV_B=%s" % (o["input"]["path"], o["input"]["layer"], o["method"]["layer"]))
PY
)"
  {
    echo "op rows CPU_s GPU_s (ogr2ogr end to end to GPKG, best of 3; CPU engine on $(nproc) threads)"
    for op in clip_rect overlay; do
      for n in 250 1000 2000 4000 8000 16000 64000; do
        if [ $op = clip_rect ]; then f=$CR_PATH; q="SELECT * FROM ST_ClipByRect($CR_LAYER, $CR_RECT) WHERE fid <= $n"
        else f=$OV_PATH; q="SELECT * FROM ST_Intersection($OV_A, $OV_B) WHERE $OV_A.fid <= $n"; fi
        line="$op $n"
        for mode in CPU GPU; do
          best=999
          for r in 1 2 3; do
            s=$(date +%s.%N)
            rm -f "$work/x.gpkg"
            ogr2ogr -f GPKG "$work/x.gpkg" "VSGPU:$f" -dialect VSGPU -sql "$q" \
              --config VSGPU_EXECUTION_MODE $mode >/dev/null 2>&1 || { best=err; break; }
            e=$(date +%s.%N)
            best=$(awk "BEGIN{t=$e-$s; print (t<$best)?t:$best}")
          done
          line="$line $mode=$best"
        done
        echo "$line"
      done
    done
  } > "$out/crossover.log" 2>&1
else
  cp "$work/gen.log" "$out/crossover.log"
fi

cat "$out/machine.txt" "$out/ctests.log" "$out/modes.log" "$out/crossover.log" 2>/dev/null
tail -5 "$out/autotest.log"
echo "overall: $([ $fail = 0 ] && echo PASS || echo FAIL)"
exit $fail
