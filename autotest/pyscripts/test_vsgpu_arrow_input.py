"""Dissolve reads its input, and intersection and clip their method layer,
through the layer's Arrow stream where the driver offers a fast one
(driver/ogrvsgpuarrowsource.cpp); the feature path (VSGPU_ARROW_INPUT=NO)
is the reference. Both must give the same result
row for row: the same features (fields and geometry bytes), warnings,
failures and metadata, on every layer of data/ and on the bad-input files
of the suite (corrupt blobs, NULL, empty, curves, Z, M, non-finite
coordinates, unclosed rings), and under INVALID=ERROR the same error.
"""

import math
import uuid

import pytest
from osgeo import gdal, ogr

import bad_inputs
import vsgpu_util as vu

pytestmark = pytest.mark.usefixtures("vsgpu_driver_registered")

ARROW_TAKEN = "read through its Arrow stream"
CLOSED = [(0.0, 0.0), (0.0, 10.0), (10.0, 10.0), (10.0, 0.0), (0.0, 0.0)]
UNCLOSED = CLOSED[:-1]
CLEAN = [(20.0, 20.0), (20.0, 30.0), (30.0, 30.0), (30.0, 20.0), (20.0, 20.0)]
VOLATILE = ("ELAPSED_S", "COMPLETE")


def _run(path, sql, arrow, config=None):
    cfg = dict(config or {})
    cfg["VSGPU_ARROW_INPUT"] = "YES" if arrow else "NO"
    cfg["CPL_DEBUG"] = "VSGPU"
    cfg["VSGPU_EXECUTION_MODE"] = cfg.get("VSGPU_EXECUTION_MODE", "CPU")
    return vu.run_vsgpu(path, sql, config=cfg)


def _messages(res, cls):
    return [m for c, _, m in res["errors"].errors if c == cls]


def _same(path, sql, config=None):
    """Runs sql both ways; asserts the same result. Returns whether the
    Arrow path was taken."""
    feat = _run(path, sql, False, config)
    arrow = _run(path, sql, True, config)
    assert (feat["features"] is None) == (arrow["features"] is None), (
        feat["errors"].errors, arrow["errors"].errors)
    assert _messages(arrow, gdal.CE_Failure) == _messages(feat, gdal.CE_Failure)
    assert arrow["errors"].warnings == feat["errors"].warnings
    if feat["features"] is not None:
        assert len(arrow["features"]) == len(feat["features"])
        for a, b in zip(arrow["features"], feat["features"]):
            assert a.fields == b.fields
            wa = a.geom.ExportToIsoWkb() if a.geom is not None else None
            wb = b.geom.ExportToIsoWkb() if b.geom is not None else None
            assert wa == wb, (a.fields, b.fields)
        ma = {k: v for k, v in arrow["metadata"].items()
              if k not in VOLATILE and not k.startswith("TIME_")}
        mb = {k: v for k, v in feat["metadata"].items()
              if k not in VOLATILE and not k.startswith("TIME_")}
        assert ma == mb
    assert not any(ARROW_TAKEN in m for m in _messages(feat, gdal.CE_Debug))
    return any(ARROW_TAKEN in m for m in _messages(arrow, gdal.CE_Debug))


def _layers(data_dir):
    out = []
    for p in sorted(data_dir.glob("*.gpkg")):
        ds = ogr.Open(str(p))
        for i in range(ds.GetLayerCount()):
            lyr = ds.GetLayer(i)
            if ogr.GT_Flatten(lyr.GetGeomType()) in (ogr.wkbPolygon, ogr.wkbMultiPolygon):
                defn = lyr.GetLayerDefn()
                key = next((defn.GetFieldDefn(k).GetName() for k in range(defn.GetFieldCount())
                            if defn.GetFieldDefn(k).GetType() == ogr.OFTString), None)
                out.append((str(p), lyr.GetName(), key))
    return out


def test_every_polygon_layer_of_data(data_dir):
    taken = 0
    layers = _layers(data_dir)
    assert len(layers) >= 5
    for path, name, key in layers:
        taken += _same(path, 'SELECT ST_Union(geom) AS geom FROM "%s"' % name)
        if key:
            taken += _same(path, 'SELECT substr("%s", 1, 2) AS k, ST_Union(geom) AS geom '
                                 'FROM "%s" GROUP BY k' % (key, name))
    # GeoPackage layers with plain fields take the Arrow path
    assert taken >= 4, taken


@pytest.mark.parametrize("op", ["ST_Intersection", "ST_Clip"])
def test_overlay_method_layer(counties_gpkg, op):
    assert _same(counties_gpkg, "SELECT * FROM %s(counties, states)" % op)


def test_overlay_method_layer_bad_blobs(tmp_path):
    blobs = [b"XXXXXXXXXXXXXXXXXX", None,
             bad_inputs.gpkg_blob(bad_inputs.wkb_polygon([CLOSED])),
             bad_inputs.gpkg_blob(bad_inputs.wkb_polygon([CLEAN]))]
    path = _blobs_file(tmp_path, blobs)
    ds = ogr.Open(path, 1)
    vu.write_layer(ds, "a", ogr.wkbPolygon, [("s", ogr.OFTString)],
                   [("POLYGON((-5 -5,-5 50,50 50,50 -5,-5 -5))", {"s": "x"})])
    ds = None
    assert _same(path, "SELECT * FROM ST_Intersection(a, inp)")


def test_counties_take_the_arrow_path_on_the_gpu_pipeline_too(counties_gpkg):
    sql = "SELECT substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM counties GROUP BY st"
    assert _same(counties_gpkg, sql, {"VSGPU_EXECUTION_MODE": "GPU", "VSGPU_GPU_BACKEND": "HOST"})


def _blobs_file(tmp_path, blobs, geom_type=ogr.wkbPolygon):
    return bad_inputs.write_gpkg_with_blobs(str(tmp_path / ("b%s.gpkg" % uuid.uuid4().hex)),
                                            "inp", blobs, geom_type)


BAD = {
    "truncated": lambda: [bad_inputs.gpkg_blob(bad_inputs.wkb_polygon([CLOSED]))[:30]],
    "garbage": lambda: [b"XXXXXXXXXXXXXXXXXX"],
    "huge_ring_count": lambda: [bad_inputs.gpkg_blob(b"\x01\x03\x00\x00\x00\xff\xff\xff\x7f")],
    "null": lambda: [None],
    "nan": lambda: [bad_inputs.gpkg_blob(bad_inputs.wkb_polygon(
        [[(0.0, 0.0), (0.0, math.nan), (10.0, 10.0), (10.0, 0.0), (0.0, 0.0)]]))],
    "unclosed": lambda: [bad_inputs.gpkg_blob(bad_inputs.wkb_polygon([UNCLOSED]))],
    "big_endian": lambda: [bad_inputs.gpkg_blob(bad_inputs.wkb_polygon([CLOSED], ">"))],
}


@pytest.mark.parametrize("kind", sorted(BAD))
@pytest.mark.parametrize("policy", ["REPAIR", "SKIP", "ERROR"])
def test_bad_blobs(tmp_path, kind, policy):
    blobs = BAD[kind]() + [bad_inputs.gpkg_blob(bad_inputs.wkb_polygon([CLEAN]))]
    path = _blobs_file(tmp_path, blobs)
    assert _same(path, "SELECT n, ST_Union(geom) AS geom FROM inp GROUP BY n",
                 {"VSGPU_INVALID": policy})


@pytest.mark.parametrize("wkt", [
    "POLYGON EMPTY",
    "CURVEPOLYGON(CIRCULARSTRING(0 0,10 10,20 0,10 -10,0 0))",
    "POLYGON Z((0 0 1,0 10 1,10 10 1,10 0 1,0 0 1))",
    "POLYGON M((0 0 1,0 10 1,10 10 1,10 0 1,0 0 1))",
    "MULTIPOLYGON(((0 0,0 10,10 10,10 0,0 0)),((20 20,20 30,30 30,30 20,20 20)))",
    "POLYGON((0 0,10 10,10 0,0 10,0 0))",
], ids=["empty", "curve", "z", "m", "multi", "bowtie"])
def test_other_geometries(vsimem_dir, wkt):
    path = vsimem_dir + "/o.gpkg"
    vu.create_gpkg(path, {"inp": dict(geom_type=ogr.wkbUnknown, fields=[("s", ogr.OFTString)],
                                      rows=[(wkt, {"s": "a"}), (None, {"s": None}),
                                            ("POLYGON((20 20,20 30,30 30,30 20,20 20))",
                                             {"s": "a"})])})
    assert _same(path, "SELECT s, ST_Union(geom) AS geom FROM inp GROUP BY s")


def test_fields_of_every_type_read_as_features(vsimem_dir):
    """A date field is not one the Arrow reader decodes: the feature path
    reads the layer, and the answer is the same."""
    path = vsimem_dir + "/d.gpkg"
    vu.create_gpkg(path, {"inp": dict(geom_type=ogr.wkbPolygon,
                                      fields=[("d", ogr.OFTDate), ("r", ogr.OFTReal)],
                                      rows=[("POLYGON((0 0,0 1,1 1,1 0,0 0))",
                                             {"d": "2024-01-02", "r": 1.5})])})
    assert not _same(path, "SELECT d, ST_Union(geom) AS geom FROM inp GROUP BY d")


def test_filters_read_as_features(counties_gpkg):
    sql = ("SELECT substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM counties "
           "WHERE id LIKE '06%' GROUP BY st")
    assert not _same(counties_gpkg, sql)


@pytest.mark.parametrize("keys,group", [("i", "i"), ("s", "s"), ("r", "r"), ("i, s", "i, s"),
                                        ("substr(s, 1, 2) AS p", "p"), ("s, r", "s, r")])
def test_group_keys_from_each_groups_first_row(vsimem_dir, keys, group):
    """Each group's key fields come from its first row: the Arrow reader
    keeps the fields of each distinct key's first row only (and every
    row's where a key is a column of reals, whose NaN compares equal to
    every number), the feature path every row's. Many rows a group, keys
    of every kind, NULL keys, integer and real keys that compare equal."""
    rows = []
    for n in range(120):
        x, y = n % 12, n // 12
        wkt = "POLYGON((%d %d,%d %d,%d %d,%d %d,%d %d))" % (
            x, y, x, y + 1, x + 1, y + 1, x + 1, y, x, y)
        rows.append((wkt, {"i": None if n % 17 == 0 else n % 4,
                           "s": None if n % 13 == 0 else "k%d-%d" % (n % 3, n % 2),
                           "r": None if n % 11 == 0 else float(n % 5) / 2}))
    path = vsimem_dir + "/keys.gpkg"
    vu.create_gpkg(path, {"t": dict(geom_type=ogr.wkbPolygon,
                                    fields=[("i", ogr.OFTInteger), ("s", ogr.OFTString),
                                            ("r", ogr.OFTReal)], rows=rows)})
    sql = "SELECT %s, ST_Union(geom) AS geom, count(*) AS n FROM t GROUP BY %s" % (keys, group)
    assert _same(path, sql)
    res = _run(path, sql, True)
    assert res["features"] is not None, res["errors"].errors
    assert sum(f.fields["n"] for f in res["features"]) == 120


def test_many_record_batches_held_at_once(counties_gpkg):
    """The reader borrows each plain geometry's WKB from its record batch
    and holds every batch until the statement is done: with 100 rows a
    batch (VSGPU_ARROW_BATCH_ROWS), 33 batches of counties, the answer is
    the feature path's and the one-batch read's."""
    sql = "SELECT substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM counties GROUP BY st"
    assert _same(counties_gpkg, sql, {"VSGPU_ARROW_BATCH_ROWS": "100"})
    small = _run(counties_gpkg, sql, True, {"VSGPU_ARROW_BATCH_ROWS": "100"})
    whole = _run(counties_gpkg, sql, True)
    said = " ".join(_messages(small, gdal.CE_Debug))
    assert "read through its Arrow stream (33 record batches)" in said, said[-500:]
    assert len(small["features"]) == len(whole["features"]) == 56
    for a, b in zip(small["features"], whole["features"]):
        assert a.fields == b.fields and a.geom.ExportToIsoWkb() == b.geom.ExportToIsoWkb()


def test_record_batches_of_about_2_mib(tmp_path):
    """By default the reader asks for record batches of about 2 MiB, sized
    from the first rows (GDAL's GeoPackage stream reads one batch of many
    large rows slowly): 40 rows of 16,000 vertices (256 KB of WKB each)
    come in batches of 8 rows, the same answer as the feature path; rows
    of a few hundred bytes come in one batch."""
    path = str(tmp_path / "large_rows.gpkg")
    n_v = 16000
    rows = []
    for i in range(40):
        cx, cy = 3.0 * (i % 8), 3.0 * (i // 8)
        ring = ["%.12f %.12f" % (cx + math.cos(2 * math.pi * k / n_v),
                                 cy + math.sin(2 * math.pi * k / n_v)) for k in range(n_v)]
        ring.append(ring[0])
        rows.append(("POLYGON((%s))" % ",".join(ring), {"k": "g%d" % (i % 4)}))
    vu.create_gpkg(path, {"t": dict(geom_type=ogr.wkbPolygon, fields=[("k", ogr.OFTString)],
                                    rows=rows)})
    sql = "SELECT k, ST_Union(geom) AS geom FROM t GROUP BY k"
    assert _same(path, sql)
    said = " ".join(_messages(_run(path, sql, True), gdal.CE_Debug))
    assert "read through its Arrow stream (5 record batches)" in said, said[-500:]
    small = str(tmp_path / "small_rows.gpkg")
    vu.create_gpkg(small, {"t": dict(geom_type=ogr.wkbPolygon, fields=[("k", ogr.OFTString)],
                                     rows=[("POLYGON((%d 0,%d 1,%d 1,%d 0,%d 0))"
                                            % (i, i, i + 1, i + 1, i), {"k": "g%d" % (i % 4)})
                                           for i in range(500)])})
    said = " ".join(_messages(_run(small, sql, True), gdal.CE_Debug))
    assert "read through its Arrow stream (1 record batches)" in said, said[-500:]


# ---- the overlays' input, batch after batch -----------------------------------

@pytest.mark.parametrize("batch", ["7", "100000"])
@pytest.mark.parametrize("sql", ["SELECT * FROM ST_Intersection(counties, states)",
                                 "SELECT * FROM ST_Clip(counties, states)",
                                 "SELECT * FROM ST_ClipByRect(counties, -80, 35, -75, 40)"],
                         ids=["intersection", "clip", "clip_rect"])
def test_overlay_input_batch_after_batch(counties_gpkg, sql, batch):
    """An overlay reads its input through the Arrow stream in its own
    batches (BATCH_SIZE), which cut across the stream's record batches of
    100 rows: the same features, messages and metadata as the feature
    path."""
    cfg = {"VSGPU_BATCH_SIZE": batch, "VSGPU_ARROW_BATCH_ROWS": "100"}
    assert _same(counties_gpkg, sql, cfg)
    res = _run(counties_gpkg, sql, True, cfg)
    said = " ".join(_messages(res, gdal.CE_Debug))
    assert "layer 'counties' read through its Arrow stream, batch after batch" in said


@pytest.mark.parametrize("policy", ["REPAIR", "SKIP", "ERROR"])
def test_overlay_input_bad_blobs_in_later_batches(tmp_path, policy):
    """Bad rows of the input in several batches of 3 rows and record
    batches of 4: each is read again as a feature at the end of its batch,
    as the feature path reads it in place."""
    blobs = [bad_inputs.gpkg_blob(bad_inputs.wkb_polygon(
        [[(x, 0.0), (x, 1.0), (x + 1.0, 1.0), (x + 1.0, 0.0), (x, 0.0)]])) for x in range(20)]
    for i, kind in ((2, "null"), (7, "garbage"), (11, "big_endian"), (13, "unclosed"),
                    (17, "truncated")):
        blobs[i] = BAD[kind]()[0]
    path = _blobs_file(tmp_path, blobs)
    ds = ogr.Open(path, 1)
    vu.write_layer(ds, "a", ogr.wkbPolygon, [("s", ogr.OFTString)],
                   [("POLYGON((-5 -5,-5 50,50 50,50 -5,-5 -5))", {"s": "x"})])
    ds = None
    cfg = {"VSGPU_INVALID": policy, "VSGPU_BATCH_SIZE": "3", "VSGPU_ARROW_BATCH_ROWS": "4"}
    for sql in ("SELECT * FROM ST_Intersection(inp, a)", "SELECT * FROM ST_Clip(inp, a)",
                "SELECT * FROM ST_ClipByRect(inp, 0.5, -1, 30, 2)"):
        assert _same(path, sql, cfg), sql


def test_overlay_input_read_as_features_where_its_dataset_cannot_open_again(counties_gpkg):
    """Batch after batch, the rows the stream does not give are read through
    a second handle of the dataset, opened when the statement starts; a
    source opened with source open options (SRC_*) would not open the same
    way again, so its input is read as features, with the same answer."""
    sql = "SELECT * FROM ST_Intersection(counties, states)"
    cfg = {"VSGPU_ARROW_INPUT": "YES", "CPL_DEBUG": "VSGPU", "VSGPU_EXECUTION_MODE": "CPU"}
    plain = vu.run_vsgpu(counties_gpkg, sql, config=cfg)
    opts = vu.run_vsgpu(counties_gpkg, sql, open_options=["SRC_LIST_ALL_TABLES=NO"], config=cfg)
    assert "batch after batch" in " ".join(_messages(plain, gdal.CE_Debug))
    assert "batch after batch" not in " ".join(_messages(opts, gdal.CE_Debug))
    assert len(plain["features"]) == len(opts["features"]) > 0
    for a, b in zip(plain["features"], opts["features"]):
        assert a.fields == b.fields and a.geom.ExportToIsoWkb() == b.geom.ExportToIsoWkb()
