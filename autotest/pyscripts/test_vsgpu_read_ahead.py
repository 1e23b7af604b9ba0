"""Read-ahead (READ_AHEAD, docs/architecture.md#threads-and-determinism):
intersection and clip read and compute input batch k+1 on a helper thread
while batch k is handed out. These tests check what a user must not see:

* the same features (FIDs, fields, geometries, order) and the same
  metadata with read-ahead on and off, for any batch size, on the CPU
  engine and on the GPU pipeline;
* the same messages in the same order, on the caller's own error handler:
  the source driver's errors for unreadable geometries in later batches,
  the summary warning, and the debug lines of each batch;
* a stream stopped part way (ResetReading, the result set released, the
  dataset closed, GetMetadata mid-stream) neither hangs, crashes nor loses
  or repeats a feature.

The fault sweep of multi-batch statements (test_vsgpu_faults.py,
"*_batches") checks that a failure on the helper thread is the statement's
clear error, or its visible re-run, never a batch lost or written twice.
"""

import shutil
import sqlite3

import pytest
from osgeo import gdal, ogr

import vsgpu_util as vu

pytestmark = pytest.mark.usefixtures("vsgpu_driver_registered")

STATEMENTS = {
    "intersection": "SELECT * FROM ST_Intersection(nc, nc)",
    "clip": "SELECT * FROM ST_Clip(nc, nc)",
    "clip_rect": "SELECT * FROM ST_ClipByRect(nc, -80, 35, -77, 36.5)",
}
# the GPU pipeline on the backend the suite tests (HOST in CI, CUDA on the
# GPU host: there the helper thread drives the device)
ENGINES = {
    "cpu": {"VSGPU_EXECUTION_MODE": "CPU"},
    "gpu": {"VSGPU_EXECUTION_MODE": "GPU",
            "VSGPU_GPU_BACKEND": "HOST" if vu.TEST_GPU_BACKEND == "HOST" else "CUDA"},
}


def _config(engine, batch, read_ahead, **extra):
    cfg = dict(ENGINES[engine], VSGPU_BATCH_SIZE=str(batch),
               VSGPU_READ_AHEAD="YES" if read_ahead else "NO")
    cfg.update(extra)
    return cfg


def _fingerprint(res):
    return [(f.fid, tuple(f.fields.items()), f.geom.ExportToIsoWkb() if f.geom else None)
            for f in res["features"]]


def _counts(md):
    """The metadata that counts and names things (the times aside)."""
    return {k: v for k, v in md.items() if not (k.startswith("TIME_") or k == "ELAPSED_S")}


@pytest.mark.parametrize("engine", sorted(ENGINES))
@pytest.mark.parametrize("op", sorted(STATEMENTS))
def test_read_ahead_gives_what_one_thread_gives(nc_gpkg, op, engine):
    sql = STATEMENTS[op]
    base = vu.run_vsgpu(nc_gpkg, sql, config=_config(engine, 5000, False))
    assert base["features"], base["errors"].errors
    for batch in (7, 33, 5000):
        one = base if batch == 5000 else vu.run_vsgpu(nc_gpkg, sql,
                                                      config=_config(engine, batch, False))
        res = vu.run_vsgpu(nc_gpkg, sql, config=_config(engine, batch, True))
        assert _fingerprint(res) == _fingerprint(base), (op, engine, batch)
        # the same counts as one thread with the same batches (the GPU's
        # bytes and pool figures depend on the batch size, not the thread)
        assert _counts(res["metadata"]) == _counts(one["metadata"]), (op, engine, batch)
        assert res["metadata"]["INPUT_FEATURES"] == "100"


@pytest.fixture
def late_corrupt_gpkg(tmp_path, nc_gpkg):
    """nc with three geometry blobs broken in the middle of the layer (FIDs
    41, 57, 88): with batches of 10 they are read on the helper thread."""
    path = str(tmp_path / "late.gpkg")
    shutil.copy(nc_gpkg, path)
    c = sqlite3.connect(path)
    for (name,) in c.execute("SELECT name FROM sqlite_master WHERE type='trigger'").fetchall():
        c.execute('DROP TRIGGER "%s"' % name)
    for fid in (41, 57, 88):
        (blob,) = c.execute("SELECT geom FROM nc WHERE fid=?", (fid,)).fetchone()
        c.execute("UPDATE nc SET geom=? WHERE fid=?", (blob[:len(blob) // 2], fid))
    c.commit()
    c.close()
    return path


@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_messages_of_the_helper_reach_the_callers_handler(late_corrupt_gpkg, engine):
    sql = STATEMENTS["clip_rect"]
    runs = {}
    for read_ahead in (False, True):
        res = vu.run_vsgpu(late_corrupt_gpkg, sql,
                           config=_config(engine, 10, read_ahead, CPL_DEBUG="ON"))
        assert res["features"] is not None, res["errors"].errors
        assert res["metadata"]["UNREADABLE_GEOMETRIES"] == "3"
        msgs = [(c, m) for c, _, m in res["errors"].errors
                if c != gdal.CE_Debug or "batch of" in m]
        runs[read_ahead] = (msgs, _fingerprint(res))
    msgs, feats = runs[True]
    assert runs[False] == (msgs, feats)
    # the driver's three errors and the summary warning, on this handler
    assert sum(1 for c, m in msgs
               if c == gdal.CE_Failure and "Unable to read geometry" in m) == 3, msgs
    assert any(c == gdal.CE_Warning and "could not read" in m for c, m in msgs), msgs
    # one debug line per batch of 10, each after the errors of its rows
    batches = [m for c, m in msgs if c == gdal.CE_Debug]
    assert len(batches) == 10 and all("batch of 10 input features" in m for m in batches), batches


def _open_result(path, sql):
    ds = vu.open_vsgpu(path)
    lyr = ds.ExecuteSQL(sql, dialect="VSGPU")
    assert lyr is not None
    return ds, lyr


@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_stream_stopped_part_way(nc_gpkg, engine, config_options):
    sql = STATEMENTS["intersection"]
    full = vu.run_vsgpu(nc_gpkg, sql, config=_config(engine, 6, False))
    expected = _fingerprint(full)
    config_options(_config(engine, 6, True))
    ds, lyr = _open_result(nc_gpkg, sql)
    # part way, then from the start: every feature once, in order
    for _ in range(15):
        assert lyr.GetNextFeature() is not None
    mid = lyr.GetMetadata("VSGPU")
    assert mid["COMPLETE"] == "NO" and 6 <= int(mid["INPUT_FEATURES"]) <= 100, mid
    lyr.ResetReading()
    res = {"features": vu.read_features(lyr)}
    assert _fingerprint(res) == expected
    assert _counts(lyr.GetMetadata("VSGPU")) == _counts(full["metadata"])
    # part way, then the result set released while the helper may run
    lyr.ResetReading()
    for _ in range(20):
        assert lyr.GetNextFeature() is not None
    ds.ReleaseResultSet(lyr)
    # part way, then the dataset closed with the result set still open
    ds, lyr = _open_result(nc_gpkg, sql)
    assert lyr.GetNextFeature() is not None
    ds = None


def test_read_ahead_option(nc_gpkg):
    """READ_AHEAD is a statement option too, checked like the others."""
    sql = "SELECT * FROM ST_ClipByRect(nc, -80, 35, -77, 36.5, 'READ_AHEAD=NO')"
    res = vu.run_vsgpu(nc_gpkg, sql)
    assert len(res["features"]) == 41
    bad = vu.run_vsgpu(nc_gpkg, sql.replace("=NO", "=MAYBE"))
    assert bad["features"] is None
    assert any("READ_AHEAD" in m for m in bad["errors"].failures), bad["errors"].errors


@pytest.mark.parametrize("read_ahead", [False, True])
def test_profile_shows_the_wait(nc_gpkg, tmp_path, read_ahead):
    """With read-ahead the trace says how long the reading thread waited for
    the helper (`read_ahead_wait`, one row per batch waited for: every read
    after the first, here nine batches of 10 and the read that finds the
    end); without it there is no such stage."""
    import json
    trace = tmp_path / "t.json"
    res = vu.run_vsgpu(nc_gpkg, STATEMENTS["intersection"],
                       config=_config("cpu", 10, read_ahead, VSGPU_PROFILE=str(trace)))
    assert len(res["features"]) > 0
    stages = {s["stage"]: s for s in json.loads(trace.read_text())["stages"]}
    if not read_ahead:
        assert "read_ahead_wait" not in stages
        return
    wait = stages["read_ahead_wait"]
    assert wait["rows_in"] == 10 and wait["elapsed_s"] >= 0, wait
    assert stages["ogr_read_input"]["rows_in"] == 100


@pytest.mark.parametrize("threads", ["4", "0"])
@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_features_built_ahead_on_several_threads(nc_gpkg, tmp_path, engine, threads):
    """The helper builds the next batch's features on several threads
    (VSGPU_PREBUILD_THREADS forces four on any batch), each a run of them,
    until the caller waits; the caller builds what they left. With 0 the
    caller builds them all. The features are those of one thread, and
    every one is counted once, by one of the two stages."""
    import json
    sql = STATEMENTS["intersection"]
    base = vu.run_vsgpu(nc_gpkg, sql, config=_config(engine, 20, False))
    trace = tmp_path / "t.json"
    res = vu.run_vsgpu(nc_gpkg, sql, config=_config(engine, 20, True,
                                                    VSGPU_PREBUILD_THREADS=threads,
                                                    VSGPU_PROFILE=str(trace)))
    assert _fingerprint(res) == _fingerprint(base)
    stages = json.loads(trace.read_text())["stages"]
    rows = sum(s["rows_out"] for s in stages
               if s["stage"] in ("build_features", "prebuild_features"))
    assert rows == len(res["features"]), stages
    if threads == "0":
        assert not any(s["stage"] == "prebuild_features" for s in stages), stages


@pytest.mark.parametrize("read_ahead", [False, True])
def test_trace_spans_show_the_threads(nc_gpkg, tmp_path, read_ahead):
    """The trace's spans say when each stage ran and on which thread
    (docs/profiling.md): with read-ahead the input is read on a thread of
    its own (the reader), the engine runs the batches after the first on
    another (the helper), and the reading thread only hands out; without
    it, one thread does everything. Every read is one span, and the spans
    of a stage add up to its record."""
    import json
    trace = tmp_path / "t.json"
    res = vu.run_vsgpu(nc_gpkg, STATEMENTS["intersection"],
                       config=_config("cpu", 10, read_ahead, VSGPU_PROFILE=str(trace)))
    assert len(res["features"]) > 0
    t = json.loads(trace.read_text())
    stages = {s["stage"]: s for s in t["stages"]}
    spans = t["spans"]
    assert t["spans_dropped"] == 0
    for sp in spans:
        assert 0 <= sp["start_s"] <= sp["end_s"], sp
    reads = [sp for sp in spans if sp["stage"] == "ogr_read_input"]
    # ten batches of 10 and the read that finds the end
    assert len(reads) == 11, reads
    assert sum(sp["end_s"] - sp["start_s"] for sp in reads) == \
        pytest.approx(stages["ogr_read_input"]["elapsed_s"], rel=1e-6, abs=1e-9)
    # reads follow one another
    assert all(a["end_s"] <= b["start_s"] for a, b in zip(reads, reads[1:])), reads
    method = [sp for sp in spans if sp["stage"] == "ogr_read_method"]
    assert len(method) == 1 and method[0]["thread"] == 0
    engine = [sp for sp in spans if sp["stage"] == "read_input"]
    assert len(engine) == 10, engine
    if not read_ahead:
        assert {sp["thread"] for sp in spans} == {0}
        return
    reader = {sp["thread"] for sp in reads}
    assert len(reader) == 1 and 0 not in reader, reads
    # the first batch is computed by the reading thread, the rest by the helper
    assert engine[0]["thread"] == 0
    helper = {sp["thread"] for sp in engine[1:]}
    assert len(helper) == 1 and not helper & (reader | {0}), engine
    assert {sp["thread"] for sp in spans if sp["stage"] == "read_ahead_wait"} == {0}


@pytest.fixture(scope="module")
def many_squares_gpkg(tmp_path_factory):
    """60,000 unit squares in a row: more rows than the GPU pipeline's
    first batches hold (docs/architecture.md#threads-and-determinism)."""
    path = str(tmp_path_factory.mktemp("squares") / "squares.gpkg")
    ds = ogr.GetDriverByName("GPKG").CreateDataSource(path)
    lyr = ds.CreateLayer("sq", geom_type=ogr.wkbPolygon)
    lyr.StartTransaction()
    defn = lyr.GetLayerDefn()
    for i in range(60000):
        f = ogr.Feature(defn)
        f.SetGeometryDirectly(ogr.CreateGeometryFromWkt(
            "POLYGON((%d 0,%d 0,%d 1,%d 1,%d 0))" % (i, i + 1, i + 1, i, i)))
        lyr.CreateFeature(f)
    lyr.CommitTransaction()
    ds = None
    return path


def test_gpu_batches_grow_from_an_eighth(many_squares_gpkg):
    """Without BATCH_SIZE the GPU pipeline's batches hold 131,072 rows (or
    64 MB of WKB; up to 4 times that on a device with room for it); with
    read-ahead the first holds an eighth of 131,072 rows, so that writing
    starts sooner, and each next one 4 times the one before (computed
    while the one before is written), up to the full size. The features
    are the same either way."""
    sql = "SELECT * FROM ST_ClipByRect(sq, 0.5, 0, 59999.5, 1)"
    runs = {}
    for read_ahead in (False, True):
        cfg = dict(ENGINES["gpu"], VSGPU_READ_AHEAD="YES" if read_ahead else "NO",
                   CPL_DEBUG="ON")
        res = vu.run_vsgpu(many_squares_gpkg, sql, config=cfg)
        assert res["features"] is not None, res["errors"].errors
        assert res["metadata"]["SELECTED_RUNTIME"] == "GPU", res["metadata"]
        sizes = [int(m.split("batch of ")[1].split()[0]) for c, _, m in res["errors"].errors
                 if c == gdal.CE_Debug and "batch of" in m]
        runs[read_ahead] = (sizes, _fingerprint(res))
    assert runs[False][0] == [60000], runs[False][0]
    assert runs[True][0] == [16384, 60000 - 16384], runs[True][0]
    assert runs[True][1] == runs[False][1]
    assert len(runs[True][1]) == 60000


@pytest.mark.skipif(int(gdal.VersionInfo("VERSION_NUM")) < 3080000,
                    reason="ogr2ogr writes through Arrow batches from GDAL 3.8")
def test_arrow_writer_beside_the_helper(nc_gpkg, tmp_path, plugin_dir):
    """ogr2ogr of GDAL 3.8 and later takes an overlay's rows as Arrow
    batches, on its own thread, while the helper computes the next batch
    and records it in the engine's profile. The rows' building time must
    wait for the helper to be idle (the trace's build_features then has no
    span): it was once recorded at once, two threads grew the trace's
    arrays together, and 4 of 160 such runs aborted with a corrupted heap
    (GDAL 3.10, 2026-11-28). Runs two at a time, so that they contend."""
    import concurrent.futures
    import json
    sql = STATEMENTS["intersection"]
    cfg = dict(ENGINES["gpu"], VSGPU_BATCH_SIZE="10", VSGPU_READ_AHEAD="YES",
               VSGPU_GPU_MIN_ROWS="0")

    def one(i):
        out, trace = tmp_path / ("o%d.geojson" % i), tmp_path / ("t%d.json" % i)
        p = vu.run_cli(["ogr2ogr", "-f", "GeoJSON", out, "VSGPU:" + nc_gpkg, "-dialect",
                        "VSGPU", "-sql", sql], plugin_dir,
                       config=dict(cfg, VSGPU_PROFILE=str(trace)))
        return p, out, trace

    counts = set()
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for p, out, trace in pool.map(one, range(24)):
            assert p.returncode == 0, (p.returncode, p.stderr[-2000:])
            n = len(json.loads(out.read_text())["features"])
            counts.add(n)
            t = json.loads(trace.read_text())
            built = [s for s in t["stages"] if s["stage"] == "build_features"]
            assert built and built[0]["rows_out"] == n, built
            assert not [s for s in t["spans"] if s["stage"] == "build_features"]
    assert len(counts) == 1 and counts.pop() > 0
