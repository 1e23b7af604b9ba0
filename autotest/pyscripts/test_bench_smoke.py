"""The benchmark rail (bench/rail.py) at smoke scale, end to end, and the
parts of it that decide what a row says: the child timeout, the comparison
with the reference, the GPU "not available" reason, the copy floor and the
"x floor" and "GPU % wall" columns.

The end-to-end test runs scripts/bench-smoke.sh with the build that ctest
names in VSGPU_BUILD_DIR (plugin and bench tools); it is skipped, with the
reason, when that is unset or the build has no bench tools.
"""
import importlib.util
import json
import os
import pathlib
import subprocess
import sys
import time

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))

from rail import engines, measure, report, runner  # noqa: E402

GDAL_ENGINES = ("gdal-algebra", "sqlite", "ogr2ogr-clipsrc")


# --------------------------------------------------------------------------
# the parts


def test_child_past_its_limit_is_killed_and_recorded_as_timeout(tmp_path):
    t0 = time.monotonic()
    r = runner.run_child(["sleep", "30"], dict(os.environ), 0.5,
                         str(tmp_path / "o"), str(tmp_path / "e"))
    assert r["timed_out"] and r["rc"] is None
    assert 0.5 <= r["wall_s"] < 5 and time.monotonic() - t0 < 5


def test_child_exit_code_time_and_memory_are_recorded(tmp_path):
    r = runner.run_child([sys.executable, "-c", "import sys; b = bytearray(64 << 20); sys.exit(3)"],
                         dict(os.environ), 30, str(tmp_path / "o"), str(tmp_path / "e"))
    assert not r["timed_out"] and r["rc"] == 3
    assert r["maxrss_kib"] >= 64 * 1024      # the child's peak, not the rail's
    assert r["wall_s"] > 0


def test_budget_shortens_the_limit_and_says_so():
    b = runner.Budget(5.0)
    limit, cut = b.limit(120.0)
    assert cut and limit <= 5.0
    assert runner.Budget(0).limit(120.0) == (120.0, False)


def _lay(path, layer):
    return {"path": path, "layer": layer, "geom": "geom", "fid": "fid", "fields": [],
            "rtree": None}


def test_geos_only_engine_is_the_all_threads_cpu_engine_without_coverage_union():
    geos = engines.BY_KEY["vsgpu-cpu-all-geos"]
    assert geos.ops == ("dissolve",) and not geos.reference_ok and not geos.floor
    assert geos.key in engines.VSGPU_KEYS
    w = {"op": "dissolve", "input": _lay("/d/w.gpkg", "counties"), "method": None,
         "key_expr": "tile", "key_field": "tile"}
    ctx = {"ogr2ogr": "ogr2ogr", "plugin_dir": "/p"}
    a, _ = geos.build(ctx, w, "/o/out.gpkg", None)
    b, _ = engines.BY_KEY["vsgpu-cpu-all"].build(ctx, w, "/o/out.gpkg", None)
    assert a == b + ["--config", "VSGPU_COVERAGE_UNION", "NO"]


def test_copy_engine_copies_what_the_operation_reads(tmp_path):
    ctx = {"ogr2ogr": "ogr2ogr"}
    copy = engines.BY_KEY["copy"]
    assert copy.floor and not copy.reference_ok
    assert all(copy.runs(op) for op in engines.ALL_OPS)
    assert engines.ENGINES[-1] is copy
    # Overlay, one file: one process copying both layers.
    w = {"op": "intersection", "input": _lay("/d/w.gpkg", "tess_a"),
         "method": _lay("/d/w.gpkg", "tess_b")}
    argv, env = copy.build(ctx, w, "/o/out.gpkg", None)
    assert env == {}
    assert argv == ["ogr2ogr", "-f", "GPKG", "/o/out.gpkg", "/d/w.gpkg", "tess_a", "tess_b",
                    "-lco", "SPATIAL_INDEX=NO"]
    # Overlay, two files: still one process, reading a VRT of both layers
    # written beside the output.
    w["op"], w["method"] = "clip", _lay("/d/a&b.gpkg", "grid")
    out = str(tmp_path / "out.gpkg")
    argv, _ = copy.build(ctx, w, out, None)
    vrt = str(tmp_path / "inputs.vrt")
    assert argv == ["ogr2ogr", "-f", "GPKG", out, vrt, "-lco", "SPATIAL_INDEX=NO"]
    import xml.etree.ElementTree as ET
    layers = ET.parse(vrt).getroot().findall("OGRVRTLayer")
    assert [(e.get("name"), e.findtext("SrcDataSource"), e.findtext("SrcLayer"))
            for e in layers] == [("tess_a", "/d/w.gpkg", "tess_a"),
                                 ("grid", "/d/a&b.gpkg", "grid")]
    # The same layer name in both files: named input and method.
    w["method"] = _lay("/d/other.gpkg", "tess_a")
    copy.build(ctx, w, out, None)
    assert [e.get("name") for e in ET.parse(vrt).getroot()] == ["input", "method"]
    # Rectangle clip and dissolve: the input layer, as the result layer.
    for op in ("clip_rect", "dissolve"):
        w = {"op": op, "input": _lay("/d/w.gpkg", "cells"), "method": None}
        argv, _ = copy.build(ctx, w, "/o/out.gpkg", None)
        assert argv == ["ogr2ogr", "-f", "GPKG", "/o/out.gpkg", "/d/w.gpkg", "cells",
                        "-nln", "result", "-lco", "SPATIAL_INDEX=NO"]


def _row(engine, median, check="ok", trace=None, scale="s", workload="w", status="ok"):
    return {"scale": scale, "workload": workload, "engine": engine, "label": engine,
            "status": status, "median_s": median, "trace": trace,
            "check": {"status": check, "text": check, "mismatches": [], "notes": []}}


def test_x_floor_and_gpu_share_of_each_row():
    floor = _row("copy", 0.5, check="floor")
    ref = _row("vsgpu-cpu-1", 2.0, check="reference", trace={"gpu_stage_s": 0.0})
    gpu = _row("vsgpu-gpu", 1.0, trace={"gpu_stage_s": 0.25})
    wrong = _row("sqlite", 0.6, check="mismatch")
    failed = _row("gdal-algebra", None, status="timeout", check="unchecked")
    res = {"runs": [ref, gpu, wrong, failed, floor]}
    report.annotate(res)
    assert ref["x_floor"] == 4.0 and gpu["x_floor"] == 2.0 and floor["x_floor"] == 1.0
    assert wrong["x_floor"] is None and failed["x_floor"] is None   # no ratio for these
    assert gpu["gpu_stage_share"] == 0.25 and ref["gpu_stage_share"] == 0.0
    assert floor["gpu_stage_share"] is None and wrong["gpu_stage_share"] is None
    assert all(r["floor_s"] == 0.5 for r in res["runs"])
    # A copy that did not copy everything is no floor.
    floor["check"]["status"] = "short copy"
    report.annotate(res)
    assert ref["x_floor"] is None and ref["floor_s"] is None


def test_copy_row_is_checked_by_its_count_not_against_the_reference():
    ref = _row("vsgpu-cpu-1", 1.0)
    ref["output"] = _m(100.0)
    cp = _row("copy", 0.2)
    cp["output"] = {"features": 30, "layers": {"a": 20, "b": 10}, "expected_features": 30}
    measure.check_workload([ref, cp], "vsgpu-cpu-1", {"op": "intersection"}, 1e-6)
    assert cp["check"]["status"] == "floor" and "30 features copied" in cp["check"]["text"]
    cp["output"]["features"] = 29
    measure.check_workload([ref, cp], "vsgpu-cpu-1", {"op": "intersection"}, 1e-6)
    assert cp["check"]["status"] == "short copy" and "29 of 30" in cp["check"]["text"]


def _m(area, polys=2, nulls=0, groups=None, others=0):
    m = {"features": polys + nulls + others, "null_geometries": nulls, "empty_geometries": 0,
         "vertices": 10, "total_area": area, "invalid": 0,
         "geometry_types": {"Polygon": polys, **({"LineString": others} if others else {})}}
    if groups is not None:
        m["groups"] = groups
    return m


def test_compare_passes_an_equal_answer_within_tolerance():
    assert measure.compare(_m(100.0), _m(100.0 * (1 + 5e-7)), "intersection", 1e-6) == ([], [])


def test_compare_names_what_is_wrong():
    mism, _ = measure.compare(_m(100.0), _m(99.7), "intersection", 1e-6)
    assert mism == ["area -0.3%"]
    mism, _ = measure.compare(_m(100.0, polys=3), _m(100.0, polys=2, nulls=1), "intersection", 1e-6)
    assert "1 NULL geometry" in mism and any("polygonal" in x for x in mism)
    ref = _m(10.0, groups={"a": 4.0, "b": 6.0})
    mism, _ = measure.compare(ref, _m(4.0, polys=1, nulls=1, groups={"a": 4.0, "b": 0.0}),
                              "dissolve", 1e-6)
    assert "1 NULL group" in mism
    assert any(x.startswith("1 group areas off") for x in mism)
    mism, _ = measure.compare(ref, _m(10.0, groups={"a": 4.0, "c": 6.0}), "dissolve", 1e-6)
    assert "1 groups missing" in mism and "1 extra groups" in mism


def test_compare_notes_lower_dimension_pieces_without_failing():
    mism, notes = measure.compare(_m(100.0), _m(100.0, others=5), "intersection", 1e-6)
    assert mism == [] and notes == ["5 non-polygon features"]


def test_gpu_unavailable_reason_is_read_from_the_error():
    err = ("ERROR 1: VSGPU: VSGPU_EXECUTION_MODE=GPU but ST_Union cannot run on the GPU: "
           "no GPU kernel for ST_Union in this build (device: NVIDIA H200)\n")
    assert engines.gpu_unavailable_reason(err).startswith("no GPU kernel for ST_Union")
    assert engines.gpu_unavailable_reason("ERROR 1: out of memory\n") is None


def test_sql_of_each_engine():
    w = {"op": "dissolve", "input": {"layer": "counties", "geom": "geom", "path": "/x.gpkg"},
         "method": None, "key_expr": "substr(id, 1, 2)", "key_field": "st"}
    assert engines.vsgpu_sql(w) == ("SELECT substr(id, 1, 2) AS st, ST_Union(geom) AS geom "
                                    "FROM counties GROUP BY 1")
    # tiled dissolves: leading key columns (tile), each copy's groups its own
    w2 = dict(w, key_lead=["tile"])
    assert engines.vsgpu_sql(w2) == ("SELECT tile, substr(id, 1, 2) AS st, ST_Union(geom) AS geom "
                                     "FROM counties GROUP BY 1, 2")
    assert engines.sqlite_sql(w2) == engines.vsgpu_sql(w2)
    li = {"layer": "a b", "geom": "geom", "fid": "fid", "fields": ["id"], "rtree": "rtree_a b_geom",
          "path": "/x.gpkg"}
    lm = dict(li, layer="m", rtree="rtree_m_geom", path="/y.gpkg")
    w = {"op": "intersection", "input": li, "method": lm}
    assert engines.vsgpu_sql(w) == "SELECT * FROM ST_Intersection(\"a b\", '/y.gpkg'.m, 'CRS_MISMATCH=IGNORE')"
    with pytest.raises(engines.NotApplicable):
        engines.sqlite_sql(w)
    lm["path"] = "/x.gpkg"
    sql = engines.sqlite_sql(w)
    assert '"input_id"' in sql and '"method_id"' in sql and '"rtree_m_geom"' in sql


# --------------------------------------------------------------------------
# the whole rail at smoke scale


@pytest.fixture(scope="module")
def smoke(tmp_path_factory):
    build = os.environ.get("VSGPU_BUILD_DIR")
    if not build:
        pytest.skip("VSGPU_BUILD_DIR is not set (ctest sets it): no build to run the rail with")
    if "libasan" in os.environ.get("LD_PRELOAD", ""):
        # the rail's children are the statements the other tests run, and
        # GDAL's own overlays under the sanitizers took 106 s of CI's
        # sanitizer run (2026-11-27): the main run covers the rail
        pytest.skip("the rail at smoke scale runs in the main run, not under the sanitizers")
    for tool in ("vsgbench_measure", "vsgbench_algebra"):
        if not os.access(os.path.join(build, "bench", tool), os.X_OK):
            pytest.skip("%s/bench/%s is missing: this build has no bench tools "
                        "(VSGPU_BUILD_BENCH=OFF?)" % (build, tool))
    if subprocess.run([sys.executable, "-c", "import scipy.spatial"],
                      capture_output=True).returncode != 0:
        pytest.skip("the workload generators need scipy (apt-get install python3-scipy); "
                    "the GPU host's carried Python has none: the rail runs there with "
                    "the host's python3 (scripts/bench-gpu-host.sh)")
    out = tmp_path_factory.mktemp("rail")
    env = dict(os.environ, VSGPU_BUILD_DIR=build, VSGPU_PYTHON=sys.executable)
    p = subprocess.run(["bash", str(REPO / "scripts" / "bench-smoke.sh"), "--out", str(out)],
                       env=env, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-3000:]
    with open(out / "rail.json") as f:
        res = json.load(f)
    return out, res


def _rows(res, **kw):
    return [r for r in res["runs"] if all(r[k] == v for k, v in kw.items())]


def test_smoke_has_one_row_per_engine_and_workload(smoke):
    _, res = smoke
    scales = {w["scale"] for w in res["workloads"]}
    assert scales == {"smoke", "real"}
    for w in res["workloads"]:
        for key in res["settings"]["engines"]:
            n = len(_rows(res, scale=w["scale"], workload=w["name"], engine=key))
            assert n == (1 if engines.BY_KEY[key].runs(w["op"]) else 0), (w["name"], key)
        assert w["vertices_total"] > 0


def test_smoke_reference_rows_are_timed_traced_and_measured(smoke):
    _, res = smoke
    assert res["settings"]["reference"] == "vsgpu-cpu-1"
    for r in _rows(res, engine="vsgpu-cpu-1"):
        assert r["status"] == "ok", (r["workload"], r["reason"])
        assert r["check"]["status"] == "reference"
        assert 0 < r["min_s"] <= r["median_s"] and r["throughput_vps"] > 0
        assert r["peak_rss_mib"] > 0
        assert r["trace"] and r["trace"]["stages"], r["workload"]
        assert r["output"]["features"] > 0


def test_smoke_other_cpu_engines_match_the_reference(smoke):
    _, res = smoke
    for r in _rows(res, engine="vsgpu-cpu-all"):
        assert r["check"]["status"] == "ok", (r["workload"], r["check"]["text"])
    # The generated workloads are valid tessellations and buffers: GDAL's
    # engines must give the reference's answer on them.
    for r in res["runs"]:
        if r["scale"] == "smoke" and r["engine"] in GDAL_ENGINES:
            assert r["status"] == "ok", (r["workload"], r["engine"], r["reason"])
            assert r["check"]["status"] == "ok", (r["workload"], r["engine"], r["check"]["text"])


def test_smoke_wrong_answers_are_never_ok(smoke):
    _, res = smoke
    rtol = res["settings"]["rtol"]
    for w in res["workloads"]:
        rows = _rows(res, scale=w["scale"], workload=w["name"])
        ref = next(r for r in rows if r["engine"] == "vsgpu-cpu-1")["output"]
        for r in rows:
            o = r["output"]
            if r["status"] != "ok" or r is ref or not o or "error" in o:
                continue
            if r["engine"] == engines.FLOOR_KEY:     # no answer: checked by its count
                assert r["check"]["status"] in ("floor", "short copy"), r["check"]
                continue
            if o["null_geometries"] > 0:
                assert r["check"]["status"] == "mismatch", (w["name"], r["engine"])
                assert "MISMATCH" in r["check"]["text"] and "NULL" in r["check"]["text"]
            if r["check"]["status"] == "ok":
                assert abs(o["total_area"] - ref["total_area"]) <= rtol * abs(ref["total_area"])
                assert "vs ref" not in r["check"]["text"]


def test_smoke_copy_floor_on_every_workload(smoke):
    _, res = smoke
    assert res["settings"]["engines"][-1] == engines.FLOOR_KEY
    for w in res["workloads"]:
        (cp,) = _rows(res, scale=w["scale"], workload=w["name"], engine=engines.FLOOR_KEY)
        assert cp["status"] == "ok", (w["name"], cp["reason"])
        assert cp["check"]["status"] == "floor", (w["name"], cp["check"]["text"])
        want = w["input_features"] + (w["method_features"] if w["op"] in ("intersection", "clip")
                                      else 0)
        assert cp["output"]["features"] == want, (w["name"], cp["output"])
        assert len(cp["runs"]) == res["settings"]["repeats"][w["scale"]]
        assert cp["x_floor"] == 1.0 and cp["trace"] is None and cp["gpu_stage_share"] is None
        for r in _rows(res, scale=w["scale"], workload=w["name"]):
            assert r["floor_s"] == cp["median_s"]
            if r["status"] == "ok" and r["check"]["status"] in ("ok", "reference"):
                assert abs(r["x_floor"] - r["median_s"] / cp["median_s"]) < 1e-12
            if r["engine"] in engines.VSGPU_KEYS and r["status"] == "ok":
                assert r["gpu_stage_share"] is not None and 0 <= r["gpu_stage_share"] <= 1
                if r["engine"] != "vsgpu-gpu":
                    assert r["gpu_stage_share"] == 0


def test_smoke_gpu_row_runs_or_says_why(smoke):
    _, res = smoke
    for r in _rows(res, engine="vsgpu-gpu"):
        assert r["status"] in ("ok", "n/a"), (r["workload"], r["status"], r["reason"])
        if r["status"] == "n/a":
            assert r["reason"] and ("CUDA" in r["reason"] or "GPU" in r["reason"]), r["reason"]
        else:
            assert r["check"]["status"] == "ok", (r["workload"], r["check"]["text"])


def test_smoke_markdown_and_plots_are_written(smoke):
    out, res = smoke
    md = (out / "rail.md").read_text()
    assert "## Scale smoke" in md and "## Scale real" in md
    assert "| vs ref | × floor |" in md and "| GPU % wall |" in md
    assert md.count("| ogr2ogr copy (I/O floor) |") == len(res["workloads"])
    assert md.count("| (floor) |") == len(res["workloads"])
    for w in res["workloads"]:
        assert "| %s (%s) |" % (w["name"], w["op"]) in md
    has_mismatch = any(r["check"]["status"] == "mismatch" for r in res["runs"])
    assert ("MISMATCH" in md) == has_mismatch
    assert res["machine"]["cpu_model"] and res["machine"]["logical_cpus"] >= 1
    assert all(r["command"] for r in res["runs"] if r["status"] == "ok")
    if importlib.util.find_spec("matplotlib") is not None:
        assert res["plots"], res.get("plots_skipped")
        for p in res["plots"]:
            assert (out / p).stat().st_size > 1000


# --------------------------------------------------------------------------
# the GPU rows' floor (no GPU needed: a trace and a bandwidth table)


def test_gpu_memory_bandwidth_by_name():
    from rail import machine
    assert machine.gpu_memory_tbps("NVIDIA H200") == 4.8
    assert machine.gpu_memory_tbps("NVIDIA H100 80GB HBM3") == 3.35
    assert machine.gpu_memory_tbps("NVIDIA H100 PCIe") == 2.0
    assert machine.gpu_memory_tbps("NVIDIA A100-SXM4-40GB") == 1.555
    assert machine.gpu_memory_tbps("NVIDIA A10") == 0.6
    assert machine.gpu_memory_tbps("Imaginary GPU 9000") is None
    assert 50 < machine.link_gbps(5, 16) < 60


def test_gpu_floor_from_the_trace_bytes():
    from rail import trace
    t = {"version": 1, "statement": {"SELECTED_RUNTIME": "GPU"}, "total_s": 0.5, "stages": [
        {"stage": "h2d", "device": "GPU", "elapsed_s": 0.3, "rows_in": 1, "rows_out": 1,
         "bytes_h2d": 40_000_000_000, "bytes_d2h": 0, "pool_peak_bytes": 7 << 30},
        {"stage": "refine", "device": "CPU", "elapsed_s": 0.1, "rows_in": 1, "rows_out": 1,
         "bytes_h2d": 0, "bytes_d2h": 0, "pool_peak_bytes": 0},
        {"stage": "d2h", "device": "GPU", "elapsed_s": 0.1, "rows_in": 1, "rows_out": 1,
         "bytes_h2d": 0, "bytes_d2h": 15_000_000_000, "pool_peak_bytes": 1 << 30}]}
    s = trace.summarize(t)
    assert s["bytes_h2d"] + s["bytes_d2h"] == 55_000_000_000
    assert s["pool_peak_bytes"] == 7 << 30 and abs(s["gpu_stage_s"] - 0.4) < 1e-12
    f = trace.floor(s, {"link_gbps": 55.0, "memory_tbps": 4.8})
    assert abs(f["link_floor_s"] - 1.0) < 1e-12
    assert abs(f["memory_floor_s"] - 55e9 / 4.8e12) < 1e-15
    assert trace.floor(s, None)["link_floor_s"] is None
