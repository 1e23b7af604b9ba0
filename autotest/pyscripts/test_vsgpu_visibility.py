"""Fallback visibility (docs/semantics.md "Visibility", docs/fallback.md):
one CE_Warning per statement naming the operation and the reason when AUTO
runs on the CPU, none in CPU mode; the result layer's VSGPU metadata domain;
CPLDebug per stage; the VSGPU_PROFILE trace.

The subprocess tests hide every CUDA device (CUDA_VISIBLE_DEVICES=""), so the
CPU path and its reason are certain on any host.
"""

import json
import re

import pytest
from osgeo import gdal, ogr

import vsgpu_util as vu

pytestmark = pytest.mark.usefixtures("vsgpu_driver_registered")

NO_GPU = {"CUDA_VISIBLE_DEVICES": ""}
FALLBACK_RE = vu.FALLBACK_RE

# NY8_bna_utm18 (Clarke 1866, bound to WGS 84) and NY8_utm18 (EPSG:32618)
# differ in datum: statements over both say CRS_MISMATCH=IGNORE, as GDAL's
# own layer algebra does (docs/semantics.md, "Coordinate systems").
STATEMENTS = {
    "ST_Intersection": "SELECT * FROM ST_Intersection(NY8_bna_utm18, NY8_utm18, 'CRS_MISMATCH=IGNORE')",
    "ST_Clip": "SELECT * FROM ST_Clip(NY8_bna_utm18, NY8_utm18, 'CRS_MISMATCH=IGNORE')",
    "ST_ClipByRect": "SELECT * FROM ST_ClipByRect(NY8_utm18, 400000, 4700000, 450000, 4750000)",
    "ST_Union": "SELECT AREANAME, ST_Union(geom) AS geom FROM NY8_utm18 GROUP BY AREANAME",
}


def _fallback_warnings(stderr):
    return [l for l in stderr.splitlines() if l.startswith("Warning") and FALLBACK_RE.search(l)]


@pytest.mark.parametrize("op", sorted(STATEMENTS))
def test_auto_on_cpu_warns_once(tmp_path, run_cli, spdata_gpkg, op):
    out = str(tmp_path / "out.gpkg")
    p = run_cli(["ogr2ogr", "-dialect", "VSGPU", "-sql", STATEMENTS[op], out, "VSGPU:" + spdata_gpkg],
                env=NO_GPU)
    assert p.returncode == 0, p.stderr
    w = _fallback_warnings(p.stderr)
    # Where AUTO would not take the GPU pipeline on any host (no measured
    # crossover), that is a policy: no warning, the reason in the metadata.
    reason = vu.run_vsgpu(spdata_gpkg, STATEMENTS[op],
                          config={"VSGPU_GPU_BACKEND": "CUDA"})["metadata"]["FALLBACK_REASON"]
    if "crossover" in reason:
        assert w == [], p.stderr
        return
    assert len(w) == 1, p.stderr
    m = FALLBACK_RE.search(w[0])
    assert m.group(1) == op
    assert m.group(2).strip()


def test_cpu_mode_is_silent(tmp_path, run_cli, spdata_gpkg):
    out = str(tmp_path / "out.gpkg")
    p = run_cli(["ogr2ogr", "-dialect", "VSGPU", "-sql", STATEMENTS["ST_Intersection"], out,
                 "VSGPU:" + spdata_gpkg], config={"VSGPU_EXECUTION_MODE": "CPU"}, env=NO_GPU)
    assert p.returncode == 0, p.stderr
    assert _fallback_warnings(p.stderr) == []
    assert "runs on the CPU engine" not in p.stderr


def test_one_warning_per_statement_in_process(spdata_gpkg):
    """Two statements on one dataset: one warning each, from AUTO; the
    reason is the same as FALLBACK_REASON."""
    with vu.ErrorCollector() as errs:
        ds = vu.open_vsgpu(spdata_gpkg)
        reasons = []
        for sql in (STATEMENTS["ST_Intersection"], STATEMENTS["ST_Clip"]):
            with vu.sql_result(ds, sql) as lyr:
                assert lyr is not None
                vu.read_features(lyr)
                md = lyr.GetMetadata("VSGPU")
                reasons.append((md.get("SELECTED_RUNTIME"), md.get("FALLBACK_REASON")))
        ds = None
    fallback = [m for m in errs.warnings if FALLBACK_RE.search(m)]
    for runtime, reason in reasons:
        if runtime and runtime.upper() == "CPU":
            assert reason
    # Below the GPU crossover AUTO picks the CPU engine as a matter of
    # policy, not as a fallback: FALLBACK_REASON says so, no warning.
    n_cpu = sum(1 for r, why in reasons
                if r and r.upper() == "CPU" and "crossover" not in (why or ""))
    assert len(fallback) == n_cpu, errs.errors
    for m in fallback:
        assert FALLBACK_RE.search(m).group(2).strip() in [r for _, r in reasons]


def test_metadata_domain(spdata_gpkg):
    res = vu.run_vsgpu(spdata_gpkg, STATEMENTS["ST_Intersection"], config={"VSGPU_EXECUTION_MODE": "CPU"})
    md = res["metadata"]
    missing = [k for k in vu.REQUIRED_METADATA_KEYS if k not in md]
    assert not missing, "missing VSGPU metadata keys %s in %r" % (missing, md)
    assert "INTERSECTION" in md["OPERATION"].upper()
    assert md["REQUESTED_MODE"].upper() == "CPU"
    assert md["SELECTED_RUNTIME"].upper() == "CPU"
    ds = ogr.Open(spdata_gpkg)
    assert md["INPUT_FEATURES"] == str(ds.GetLayer("NY8_bna_utm18").GetFeatureCount())
    assert md["METHOD_FEATURES"] == str(ds.GetLayer("NY8_utm18").GetFeatureCount())
    assert md["OUTPUT_FEATURES"] == str(len(res["features"]))
    assert int(md["CANDIDATE_PAIRS"]) >= len(res["features"])
    assert md["GPU_ROWS_RERUN_ON_CPU"] == "0"
    assert float(md["ELAPSED_S"]) >= 0
    assert md["COMPLETE"] == "YES"
    assert any(k.startswith("TIME_") and k.endswith("_S") for k in md), md


def test_metadata_requested_mode_auto(spdata_gpkg):
    res = vu.run_vsgpu(spdata_gpkg, STATEMENTS["ST_Clip"])
    md = res["metadata"]
    assert md.get("REQUESTED_MODE", "").upper() == "AUTO"
    assert md.get("SELECTED_RUNTIME", "").upper() in ("CPU", "GPU")
    if md.get("SELECTED_RUNTIME", "").upper() == "CPU":
        assert md.get("FALLBACK_REASON")


def test_metadata_complete_only_after_last_feature(spdata_gpkg):
    ds = vu.open_vsgpu(spdata_gpkg)
    with vu.ErrorCollector():
        with vu.sql_result(ds, STATEMENTS["ST_Intersection"]) as lyr:
            assert lyr.GetNextFeature() is not None
            assert lyr.GetMetadataItem("COMPLETE", "VSGPU") != "YES"
            n = 1
            while lyr.GetNextFeature() is not None:
                n += 1
            assert lyr.GetMetadataItem("COMPLETE", "VSGPU") == "YES"
            assert lyr.GetMetadataItem("OUTPUT_FEATURES", "VSGPU") == str(n)
    ds = None


def test_ogrinfo_mdd_vsgpu(run_cli, spdata_gpkg):
    p = run_cli(["ogrinfo", "-ro", "-q", "-mdd", "VSGPU", "-dialect", "VSGPU", "-sql",
                 STATEMENTS["ST_Clip"], "VSGPU:" + spdata_gpkg], env=NO_GPU)
    assert p.returncode == 0, p.stderr
    assert "Metadata (VSGPU):" in p.stdout, p.stdout[:2000]
    for k in ("OPERATION", "REQUESTED_MODE", "SELECTED_RUNTIME", "FALLBACK_REASON", "THREADS"):
        assert re.search(r"^\s+%s=" % k, p.stdout, re.M), k


def test_ogrinfo_mdd_vsgpu_counts_whole_statement(run_cli, spdata_gpkg):
    # ogrinfo prints metadata before it reads features: the counts must
    # still be those of the whole statement, equal to a full read's.
    p = run_cli(["ogrinfo", "-ro", "-q", "-mdd", "VSGPU", "-dialect", "VSGPU", "-sql",
                 STATEMENTS["ST_Intersection"], "VSGPU:" + spdata_gpkg], env=NO_GPU)
    assert p.returncode == 0, p.stderr
    md = dict(re.findall(r"^\s+([A-Z_]+)=(.*)$", p.stdout, re.M))
    assert md.get("COMPLETE") == "YES", p.stdout[:2000]
    res = vu.run_vsgpu(spdata_gpkg, STATEMENTS["ST_Intersection"])
    assert md["OUTPUT_FEATURES"] == str(len(res["features"]))
    assert md["INPUT_FEATURES"] == res["metadata"]["INPUT_FEATURES"]
    # ... and the features printed after the metadata are all there.
    assert p.stdout.count("OGRFeature(") == len(res["features"])


def test_metadata_domain_listed_only_after_a_complete_read(spdata_gpkg):
    # ogr2ogr copies every listed domain when it creates its output layer,
    # before reading: an unfinished statement must not list VSGPU.
    ds = vu.open_vsgpu(spdata_gpkg)
    with vu.ErrorCollector():
        with vu.sql_result(ds, STATEMENTS["ST_ClipByRect"]) as lyr:
            assert "VSGPU" not in (lyr.GetMetadataDomainList() or [])
            while lyr.GetNextFeature() is not None:
                pass
            assert "VSGPU" in lyr.GetMetadataDomainList()
    ds = None


def test_cpl_debug_per_stage(tmp_path, run_cli, spdata_gpkg):
    out = str(tmp_path / "out.gpkg")
    p = run_cli(["ogr2ogr", "-dialect", "VSGPU", "-sql", STATEMENTS["ST_Intersection"], out,
                 "VSGPU:" + spdata_gpkg], config={"CPL_DEBUG": "VSGPU"}, env=NO_GPU)
    assert p.returncode == 0, p.stderr
    debug = [l for l in p.stderr.splitlines() if l.startswith("VSGPU:")]
    assert len(debug) >= 2, p.stderr[:3000]


###############################################################################
# The profile trace (docs/profiling.md)

STAGE_KEYS = {
    "stage": str,
    "device": str,
    "elapsed_s": (int, float),
    "rows_in": int,
    "rows_out": int,
    "bytes_h2d": int,
    "bytes_d2h": int,
    "pool_peak_bytes": int,
}


def _check_trace(trace, sql):
    assert isinstance(trace, dict)
    assert "version" in trace
    # "statement": the SQL text, or an object carrying it with the decision.
    st = trace["statement"]
    if isinstance(st, dict):
        assert st.get("SQL") == sql, st
        assert st.get("OPERATION") and st["OPERATION"] in sql, st
    else:
        assert st == sql
    assert isinstance(trace["stages"], list) and trace["stages"]
    assert isinstance(trace["total_s"], (int, float)) and trace["total_s"] >= 0
    for st in trace["stages"]:
        for k, t in STAGE_KEYS.items():
            assert k in st, "stage %r lacks %s" % (st, k)
            assert isinstance(st[k], t) and not isinstance(st[k], bool), "stage %r: %s" % (st, k)
        assert st["stage"]
        assert st["elapsed_s"] >= 0
        assert st["elapsed_s"] <= trace["total_s"] + 1e-3
        for k in ("rows_in", "rows_out", "bytes_h2d", "bytes_d2h", "pool_peak_bytes"):
            assert st[k] >= 0


@pytest.mark.parametrize("op", ["ST_Intersection", "ST_Union"])
def test_profile_trace_schema(tmp_path, run_cli, spdata_gpkg, op):
    trace_path = tmp_path / "trace.json"
    out = str(tmp_path / "out.gpkg")
    sql = STATEMENTS[op]
    p = run_cli(["ogr2ogr", "-dialect", "VSGPU", "-sql", sql, out, "VSGPU:" + spdata_gpkg],
                config={"VSGPU_PROFILE": str(trace_path), "VSGPU_EXECUTION_MODE": "CPU"}, env=NO_GPU)
    assert p.returncode == 0, p.stderr
    assert trace_path.exists(), "VSGPU_PROFILE wrote no file"
    trace = json.loads(trace_path.read_text())
    _check_trace(trace, sql)
    for st in trace["stages"]:
        assert st["device"].upper() == "CPU"
        assert st["bytes_h2d"] == 0 and st["bytes_d2h"] == 0
    stage_names = [st["stage"] for st in trace["stages"]]
    assert len(stage_names) >= 2, stage_names


def test_profile_trace_in_process(tmp_path, spdata_gpkg, config_options):
    trace_path = tmp_path / "trace_inproc.json"
    config_options({"VSGPU_PROFILE": str(trace_path)})
    res = vu.run_vsgpu(spdata_gpkg, STATEMENTS["ST_Clip"])
    gdal.SetConfigOption("VSGPU_PROFILE", None)
    assert res["features"]
    assert trace_path.exists()
    _check_trace(json.loads(trace_path.read_text()), STATEMENTS["ST_Clip"])
