"""Result layers served as Arrow record batches (OGRLayer::GetArrowStream).

The fast path (driver/ogrvsgpuarrow.cpp) builds record batches from the
engine's results: the geometry column is the engine's WKB, the attribute
columns come from the source features. Every test reads the same statement
through GetNextFeature and compares value by value; the raw C structures
are checked too (ctypes), since numpy conversion would hide a bad offset or
a wrong null count. GDAL's own default stream on the same layer (forced by
an attribute filter that every row passes) is the second reference.
"""

import ctypes
import datetime

import pytest
from osgeo import gdal, ogr

import vsgpu_util as vu

pytest.importorskip("numpy")
pytest.importorskip("osgeo.gdal_array")

GDAL_NUM = int(gdal.VersionInfo("VERSION_NUM"))


###############################################################################
# Data: a SQLite source with every OGR field type the SQLite driver keeps
# (all but the Float32 subtype), a GeoPackage one for Float32.

FIELDS = [
    ("b", ogr.OFTInteger, ogr.OFSTBoolean),
    ("i16", ogr.OFTInteger, ogr.OFSTInt16),
    ("i", ogr.OFTInteger, ogr.OFSTNone),
    ("i64", ogr.OFTInteger64, ogr.OFSTNone),
    ("r", ogr.OFTReal, ogr.OFSTNone),
    ("s", ogr.OFTString, ogr.OFSTNone),
    ("d", ogr.OFTDate, ogr.OFSTNone),
    ("dt", ogr.OFTDateTime, ogr.OFSTNone),
    ("tm", ogr.OFTTime, ogr.OFSTNone),
    ("bin", ogr.OFTBinary, ogr.OFSTNone),
    ("il", ogr.OFTIntegerList, ogr.OFSTNone),
]


def _square(x0, y0, size=1.0):
    return "POLYGON((%r %r,%r %r,%r %r,%r %r,%r %r))" % (
        x0, y0, x0 + size, y0, x0 + size, y0 + size, x0, y0 + size, x0, y0)


def _values(k, old_dates):
    """Row k of the input layer; every third row has every field null."""
    if k % 3 == 2:
        return {}
    year = 1961 + k if old_dates else 1990 + k
    return {
        "b": k % 2,
        "i16": -300 + k,
        "i": 100000 * k - 7,
        "i64": 2 ** 40 + k,
        "r": k * 1.25 - 3.5,
        "s": "n\u00e9 %d" % k if k != 4 else "",
        "d": "%04d/%02d/%02d" % (year, 1 + k % 12, 1 + k),
        "dt": "%04d/%02d/%02d %02d:%02d:%06.3f" % (year, 12 - k % 12, 2 + k, k % 24, 7 * k % 60,
                                                  (11.25 * k) % 60),
        "tm": "%02d:%02d:%02d" % (k % 24, 3 * k % 60, 59 - k),
        "bin": bytes(range(k, k + 3 + k % 2)),
        "il": [k, -k],
    }


def _make_source(path, drv_name, n=12, old_dates=True, float32=False):
    drv = ogr.GetDriverByName(drv_name)
    if gdal.VSIStatL(path) is not None:
        drv.DeleteDataSource(path)
    ds = drv.CreateDataSource(path)
    inp = ds.CreateLayer("inp", geom_type=ogr.wkbPolygon)
    fields = FIELDS if not float32 else [("f32", ogr.OFTReal, ogr.OFSTFloat32),
                                         ("i", ogr.OFTInteger, ogr.OFSTNone)]
    for name, t, st in fields:
        fd = ogr.FieldDefn(name, t)
        fd.SetSubType(st)
        assert inp.CreateField(fd) == 0
    defn = inp.GetLayerDefn()
    for k in range(n):
        f = ogr.Feature(defn)
        vals = _values(k, old_dates) if not float32 else (
            {} if k % 3 == 2 else {"f32": k * 0.5 + 0.25, "i": k})
        for name, v in vals.items():
            if name not in [x[0] for x in fields]:
                continue
            if name == "bin":
                f.SetFieldBinaryFromHexString(name, v.hex())
            elif name == "il":
                f.SetFieldIntegerList(defn.GetFieldIndex(name), v)
            else:
                f.SetField(name, v)
        # a row of unit squares: x = 0.5 k; overlapping neighbours
        f.SetGeometry(ogr.CreateGeometryFromWkt(_square(0.5 * k, 0.0)))
        assert inp.CreateFeature(f) == 0
    meth = ds.CreateLayer("meth", geom_type=ogr.wkbPolygon)
    fd = ogr.FieldDefn("zone", ogr.OFTString)
    assert meth.CreateField(fd) == 0
    fd = ogr.FieldDefn("zn", ogr.OFTInteger)
    assert meth.CreateField(fd) == 0
    for j, wkt in enumerate([_square(0.25, 0.25, 2.0), _square(3.0, -0.5, 1.5),
                             _square(100.0, 100.0)]):
        f = ogr.Feature(meth.GetLayerDefn())
        if j != 1:
            f.SetField("zone", "z%d" % j)
            f.SetField("zn", j)
        f.SetGeometry(ogr.CreateGeometryFromWkt(wkt))
        assert meth.CreateFeature(f) == 0
    far = ds.CreateLayer("far", geom_type=ogr.wkbPolygon)
    f = ogr.Feature(far.GetLayerDefn())
    f.SetGeometry(ogr.CreateGeometryFromWkt(_square(1000.0, 1000.0)))
    assert far.CreateFeature(f) == 0
    # dissolve input: group keys with nulls, null geometries, a group
    # whose geometries are all null
    grp = ds.CreateLayer("grp", geom_type=ogr.wkbPolygon)
    for name, t in (("code", ogr.OFTString), ("k", ogr.OFTInteger)):
        assert grp.CreateField(ogr.FieldDefn(name, t)) == 0
    rows = [("AB1", 1, _square(0, 0)), ("AB2", 1, _square(1, 0)), ("CD1", 2, _square(5, 5)),
            (None, None, _square(9, 9)), ("EF1", 3, None), ("EF2", 3, None),
            ("AB3", None, _square(0, 1))]
    for code, k, wkt in rows:
        f = ogr.Feature(grp.GetLayerDefn())
        if code is not None:
            f.SetField("code", code)
        if k is not None:
            f.SetField("k", k)
        if wkt:
            f.SetGeometry(ogr.CreateGeometryFromWkt(wkt))
        assert grp.CreateFeature(f) == 0
    ds = None
    return path


@pytest.fixture(scope="module")
def src(tmp_path_factory):
    d = tmp_path_factory.mktemp("arrow")
    return {
        "all": _make_source(str(d / "all.sqlite"), "SQLite"),
        "new": _make_source(str(d / "new.sqlite"), "SQLite", old_dates=False),
        "f32": _make_source(str(d / "f32.gpkg"), "GPKG", float32=True),
    }


STATEMENTS = {
    "intersection": "SELECT * FROM ST_Intersection(inp, meth)",
    "intersection_batches": "SELECT * FROM ST_Intersection(inp, meth, 'BATCH_SIZE=2')",
    "clip": "SELECT * FROM ST_Clip(inp, meth)",
    "clip_rect": "SELECT * FROM ST_ClipByRect(inp, 1.2, 0.1, 4.1, 0.9)",
    "join": ("SELECT a.i, a.s, b.zone, ST_Intersection(a.geom, b.geom) AS geom "
             "FROM inp a JOIN meth b ON ST_Intersects(a.geom, b.geom)"),
    "dissolve": ("SELECT substr(code, 1, 2) AS st, COUNT(*), ST_Union(geom) AS geom "
                 "FROM grp GROUP BY st"),
    "dissolve_column": "SELECT k, ST_Union(geom) AS geom FROM grp GROUP BY k",
    "empty": "SELECT * FROM ST_Intersection(inp, far)",
    "empty_rect": "SELECT * FROM ST_ClipByRect(inp, 500, 500, 600, 600)",
}


###############################################################################
# Reading both ways


def _geom_bytes(v):
    if v is None:
        return None
    return bytes(v)


def _norm_arrow(name, v, fd):
    """A value from GetArrowStreamAsNumPy as a Python value."""
    import numpy

    if v is None or v is numpy.ma.masked:
        return None
    if fd is None:  # geometry
        return _geom_bytes(v)
    t = fd.GetType()
    if t == ogr.OFTString:
        return bytes(v).decode("utf-8")
    if t == ogr.OFTBinary:
        return bytes(v)
    if t == ogr.OFTDate:
        return numpy.datetime64(v, "D").astype(object)
    if t == ogr.OFTDateTime:
        return numpy.datetime64(v, "ms").astype(object)
    if t == ogr.OFTTime:
        return v
    if t == ogr.OFTReal:
        return float(v)
    return int(v)


def _norm_feature(f, i, fd):
    """A field of a feature read by GetNextFeature, in the Arrow form."""
    if not f.IsFieldSetAndNotNull(i):
        return None
    t = fd.GetType()
    if t in (ogr.OFTDate, ogr.OFTDateTime, ogr.OFTTime):
        y, mo, d, h, mi, s, _tz = f.GetFieldAsDateTime(i)
        ms = int(s * 1000 + 0.5)
        if t == ogr.OFTDate:
            return datetime.date(y, mo, d)
        if t == ogr.OFTTime:
            return datetime.time(h, mi, ms // 1000, (ms % 1000) * 1000)
        return datetime.datetime(y, mo, d, h, mi, int(s), (ms % 1000) * 1000)
    if t == ogr.OFTBinary:
        return bytes(f.GetFieldAsBinary(i))
    if t == ogr.OFTReal:
        if fd.GetSubType() == ogr.OFSTFloat32:
            import numpy
            return float(numpy.float32(f.GetFieldAsDouble(i)))
        return f.GetFieldAsDouble(i)
    if t == ogr.OFTString:
        return f.GetFieldAsString(i)
    return f.GetFieldAsInteger64(i)


def read_by_features(lyr, include_fid=True):
    defn = lyr.GetLayerDefn()
    rows = []
    lyr.ResetReading()
    for f in lyr:
        row = {}
        if include_fid:
            row["OGC_FID"] = f.GetFID()
        for i in range(defn.GetFieldCount()):
            fd = defn.GetFieldDefn(i)
            if fd.IsIgnored():
                continue
            row[fd.GetName()] = _norm_feature(f, i, fd)
        g = f.GetGeometryRef()
        row[_geom_name(lyr)] = bytes(g.ExportToIsoWkb()) if g is not None else None
        rows.append(row)
    return rows


def _geom_name(lyr):
    return lyr.GetGeometryColumn() or "wkb_geometry"


def read_by_arrow(lyr, options=()):
    """Rows and batch lengths of GetArrowStreamAsNumPy, from the start: a
    stream reads on from the layer's position from GDAL 3.8 (docs/usage.md),
    so the layer is rewound first."""
    lyr.ResetReading()
    defn = lyr.GetLayerDefn()
    fds = {defn.GetFieldDefn(i).GetName(): defn.GetFieldDefn(i)
           for i in range(defn.GetFieldCount())}
    rows, lengths = [], []
    stream = lyr.GetArrowStreamAsNumPy(options=list(options) + ["USE_MASKED_ARRAYS=YES"])
    for batch in stream:
        n = None
        for name, col in batch.items():
            n = len(col) if n is None else n
            assert len(col) == n, "column %s: %d rows, not %d" % (name, len(col), n)
        lengths.append(n)
        for r in range(n):
            row = {}
            for name, col in batch.items():
                import numpy
                v = col[r]
                if isinstance(col, numpy.ma.MaskedArray) and numpy.ma.getmaskarray(col)[r]:
                    v = None
                row[name] = _norm_arrow(name, v, fds.get(name)) if name != "OGC_FID" else int(v)
            rows.append(row)
    return rows, lengths


def _md(lyr):
    md = dict(lyr.GetMetadata("VSGPU") or {})
    return {k: v for k, v in md.items() if k != "ELAPSED_S" and not k.startswith("TIME_")}


@pytest.fixture()
def vsgpu_ds():
    opened = []

    def _open(path):
        ds = vu.open_vsgpu(path)
        assert ds is not None
        opened.append(ds)
        return ds

    yield _open
    opened.clear()


###############################################################################
# ctypes view of the C structures, to check what numpy does not show


class ArrowSchema(ctypes.Structure):
    pass


ArrowSchema._fields_ = [
    ("format", ctypes.c_char_p), ("name", ctypes.c_char_p), ("metadata", ctypes.c_void_p),
    ("flags", ctypes.c_int64), ("n_children", ctypes.c_int64),
    ("children", ctypes.POINTER(ctypes.POINTER(ArrowSchema))),
    ("dictionary", ctypes.c_void_p), ("release", ctypes.c_void_p),
    ("private_data", ctypes.c_void_p)]


class ArrowArray(ctypes.Structure):
    pass


ArrowArray._fields_ = [
    ("length", ctypes.c_int64), ("null_count", ctypes.c_int64), ("offset", ctypes.c_int64),
    ("n_buffers", ctypes.c_int64), ("n_children", ctypes.c_int64),
    ("buffers", ctypes.POINTER(ctypes.c_void_p)),
    ("children", ctypes.POINTER(ctypes.POINTER(ArrowArray))),
    ("dictionary", ctypes.c_void_p), ("release", ctypes.c_void_p),
    ("private_data", ctypes.c_void_p)]

N_BUFFERS = {"b": 2, "s": 2, "i": 2, "l": 2, "f": 2, "g": 2, "u": 3, "z": 3,
             "tdD": 2, "ttm": 2, "tsm:": 2}


def _schema_columns(schema_obj):
    s = ArrowSchema.from_address(schema_obj._getPtr())
    assert s.format == b"+s"
    return [(s.children[i].contents.name.decode(), s.children[i].contents.format.decode(),
             s.children[i].contents.flags) for i in range(s.n_children)]


def check_raw_batch(array_obj, columns):
    """Checks one struct array against its schema; returns its length."""
    a = ArrowArray.from_address(array_obj._getPtr())
    assert a.n_children == len(columns)
    assert a.null_count == 0 and a.offset == 0
    for k, (name, fmt, flags) in enumerate(columns):
        c = a.children[k].contents
        assert c.length == a.length, name
        assert c.offset == 0 and c.n_children == 0, name
        nbuf = N_BUFFERS.get(fmt, 2 if fmt.startswith("w:") else None)
        assert c.n_buffers == nbuf, (name, fmt, c.n_buffers)
        validity = c.buffers[0]
        if c.null_count:
            assert validity, "%s: nulls but no validity bitmap" % name
            assert flags & 2, "%s: nulls in a NOT NULL column" % name
        if validity:
            bits = ctypes.string_at(validity, (c.length + 7) // 8)
            unset = sum(1 for r in range(c.length) if not (bits[r // 8] >> (r % 8)) & 1)
            assert unset == c.null_count, (name, unset, c.null_count)
        if nbuf == 3:
            offs = (ctypes.c_int32 * (c.length + 1)).from_address(c.buffers[1])
            assert offs[0] == 0, name
            assert all(offs[r] <= offs[r + 1] for r in range(c.length)), name
            assert c.buffers[2], "%s: no data buffer" % name
    return a.length


def raw_read(lyr, options=()):
    """Reads a stream through its C structures: (columns, batch lengths)."""
    stream = lyr.GetArrowStream(list(options))
    assert stream is not None
    columns = _schema_columns(stream.GetSchema())
    lengths = []
    while True:
        batch = stream.GetNextRecordBatch()
        if batch is None:
            break
        lengths.append(check_raw_batch(batch, columns))
    stream = None
    return columns, lengths


###############################################################################
# Tests


def _prepare(lyr):
    """Ignores the IntegerList column (left to GDAL's default stream, see
    test_arrow_list_field_falls_back) so that the fast path is taken."""
    if lyr.GetLayerDefn().GetFieldIndex("il") >= 0:
        assert lyr.TestCapability(ogr.OLCFastGetArrowStream) == 0
        assert lyr.SetIgnoredFields(["il"]) == 0
    assert lyr.TestCapability(ogr.OLCFastGetArrowStream) == 1


@pytest.mark.parametrize("stmt", sorted(STATEMENTS))
@pytest.mark.parametrize("batch", [1, 1000])
@pytest.mark.parametrize("include_fid", [True, False])
def test_arrow_matches_features(src, vsgpu_ds, stmt, batch, include_fid):
    # one result layer read by GetNextFeature, another by the Arrow stream:
    # the summary warning is emitted once per result layer
    ds = vsgpu_ds(src["all"])
    with vu.sql_result(ds, STATEMENTS[stmt]) as lyr:
        _prepare(lyr)
        with vu.ErrorCollector() as errs:
            expected = read_by_features(lyr, include_fid)
        md_features = _md(lyr)
    with vu.sql_result(ds, STATEMENTS[stmt]) as lyr:
        _prepare(lyr)
        opts = ["MAX_FEATURES_IN_BATCH=%d" % batch,
                "INCLUDE_FID=%s" % ("YES" if include_fid else "NO")]
        with vu.ErrorCollector() as errs_arrow:
            got, lengths = read_by_arrow(lyr, opts)
        md_arrow = _md(lyr)
        feature_count = lyr.GetFeatureCount()
    assert not errs_arrow.failures and not errs.failures
    assert got == expected
    assert all(1 <= n <= batch for n in lengths)
    if batch == 1:
        assert lengths == [1] * len(expected)
    assert sum(lengths) == len(expected)
    if expected:
        assert ("OGC_FID" in got[0]) == include_fid
    # the same counts and metadata whichever way the layer was read
    assert md_arrow == md_features
    assert md_arrow["COMPLETE"] == "YES"
    assert int(md_arrow["OUTPUT_FEATURES"]) == len(expected)
    assert feature_count == len(expected)
    # and the same end-of-stream warning
    assert vu.counter_warnings(errs_arrow) == vu.counter_warnings(errs)


@pytest.mark.parametrize("stmt", sorted(STATEMENTS))
def test_arrow_raw_structures_and_gdal_default(src, vsgpu_ds, stmt):
    """The C arrays are well formed, and the fast path gives what GDAL's own
    stream gives on the same layer (dates after 1970: GDAL 3.6 rounds days
    before 1970 towards zero, the fast path rounds down)."""
    ds = vsgpu_ds(src["new"])
    with vu.sql_result(ds, STATEMENTS[stmt]) as lyr:
        if lyr.GetLayerDefn().GetFieldIndex("il") >= 0:
            lyr.SetIgnoredFields(["il"])
        assert lyr.TestCapability(ogr.OLCFastGetArrowStream) == 1
        cols_fast, len_fast = raw_read(lyr, ["MAX_FEATURES_IN_BATCH=3"])
        fast, _ = read_by_arrow(lyr, ["MAX_FEATURES_IN_BATCH=3"])
        # an attribute filter that every row passes sends the stream to
        # GDAL's default implementation
        assert lyr.SetAttributeFilter("1 = 1") == 0
        assert lyr.TestCapability(ogr.OLCFastGetArrowStream) == 0
        cols_default, len_default = raw_read(lyr, ["MAX_FEATURES_IN_BATCH=3"])
        default, _ = read_by_arrow(lyr, ["MAX_FEATURES_IN_BATCH=3"])
        assert cols_fast == cols_default
        assert fast == default
        assert sum(len_fast) == sum(len_default) == len(fast)
        assert lyr.SetAttributeFilter(None) == 0


def test_arrow_float32(src, vsgpu_ds):
    ds = vsgpu_ds(src["f32"])
    with vu.sql_result(ds, STATEMENTS["intersection"]) as lyr:
        defn = lyr.GetLayerDefn()
        assert defn.GetFieldDefn(defn.GetFieldIndex("f32")).GetSubType() == ogr.OFSTFloat32
        assert lyr.TestCapability(ogr.OLCFastGetArrowStream) == 1
        expected = read_by_features(lyr)
        cols, _ = raw_read(lyr)
        assert ("f32", "f", 2) in cols
        got, _ = read_by_arrow(lyr)
        assert got == expected
        assert any(r["f32"] is None for r in got) and any(r["f32"] for r in got)


def test_arrow_list_field_falls_back(src, vsgpu_ds):
    """A list column is left to GDAL's default stream: the capability says
    so, and the stream still gives the rows (lists included)."""
    ds = vsgpu_ds(src["all"])
    with vu.sql_result(ds, STATEMENTS["clip"]) as lyr:
        assert lyr.TestCapability(ogr.OLCFastGetArrowStream) == 0
        n = len(read_by_features(lyr))
        lyr.ResetReading()
        stream = lyr.GetArrowStreamAsNumPy(["USE_MASKED_ARRAYS=YES"])
        batches = list(stream)
        stream = None
        assert sum(len(b["il"]) for b in batches) == n
        assert _md(lyr)["OUTPUT_FEATURES"] == str(n)


def test_arrow_nulls_and_null_geometry(src, vsgpu_ds):
    ds = vsgpu_ds(src["all"])
    with vu.sql_result(ds, STATEMENTS["dissolve"]) as lyr:
        got, _ = read_by_arrow(lyr)
    keys = [r["st"] for r in got]
    # NULL key first, then the substr groups in order
    assert keys == [None, "AB", "CD", "EF"]
    by_key = {r["st"]: r for r in got}
    assert [by_key[k]["count"] for k in keys] == [1, 3, 1, 2]
    # the EF group has only null geometries: a null geometry row
    assert by_key["EF"]["geom"] is None
    assert by_key["AB"]["geom"] is not None
    assert ogr.CreateGeometryFromWkb(by_key["AB"]["geom"]).GetArea() == pytest.approx(3.0)
    ds2 = vsgpu_ds(src["all"])
    with vu.sql_result(ds2, STATEMENTS["intersection"]) as lyr:
        lyr.SetIgnoredFields(["il"])
        got, _ = read_by_arrow(lyr)
    # rows whose source fields are all null keep their nulls, and null
    # method fields stay null
    assert any(r["s"] is None and r["b"] is None and r["dt"] is None for r in got)
    assert any(r["s"] == "" for r in got)
    assert any(r["zone"] is None for r in got)
    assert any(r["d"] is not None and r["d"].year < 1970 for r in got)


def test_arrow_empty_result(src, vsgpu_ds):
    ds = vsgpu_ds(src["all"])
    with vu.sql_result(ds, STATEMENTS["empty"]) as lyr:
        lyr.SetIgnoredFields(["il"])
        cols, lengths = raw_read(lyr)
        assert lengths == []
        assert [c[0] for c in cols][0] == "OGC_FID"
        md = _md(lyr)
        assert md["COMPLETE"] == "YES"
        assert md["OUTPUT_FEATURES"] == "0"
        assert int(md["INPUT_FEATURES"]) == 12


def gdal_stream_rewinds(path):
    """Whether this GDAL's own layers (the GeoPackage driver's) rewind when
    a stream opens: they do before GDAL 3.8, and read on from the current
    position from 3.8."""
    ds = gdal.OpenEx(path, gdal.OF_VECTOR)
    lyr = ds.GetLayer(0)
    total = lyr.GetFeatureCount()
    assert total >= 2
    lyr.ResetReading()
    lyr.GetNextFeature()
    stream = lyr.GetArrowStream()
    rows = 0
    while True:
        batch = stream.GetNextRecordBatch()
        if batch is None:
            break
        rows += batch.GetLength()
    stream = None
    assert rows in (total, total - 1)
    return rows == total


def test_arrow_stream_rules(src, vsgpu_ds):
    """One stream at a time (GDAL's rule); a stream starts where GDAL's own
    layers start on this GDAL (at the beginning before 3.8, at the current
    position from 3.8); a GetNextFeature during a stream reads the same
    cursor."""
    rewinds = gdal_stream_rewinds(src["all"])
    assert rewinds == (GDAL_NUM < 3080000)
    ds = vsgpu_ds(src["all"])
    with vu.sql_result(ds, STATEMENTS["intersection"]) as lyr:
        lyr.SetIgnoredFields(["il"])
        expected = read_by_features(lyr)
        n = len(expected)
        assert n >= 6
        # half read by GetNextFeature, then a stream
        lyr.ResetReading()
        for _ in range(3):
            assert lyr.GetNextFeature() is not None
        stream = lyr.GetArrowStreamAsNumPy(options=["USE_MASKED_ARRAYS=YES"])
        fids = [int(v) for batch in stream for v in batch["OGC_FID"]]
        stream = None
        assert fids == [r["OGC_FID"] for r in (expected if rewinds else expected[3:])]
        got, _ = read_by_arrow(lyr)
        assert got == expected
        # a second stream while one is open is refused
        s1 = lyr.GetArrowStream(["MAX_FEATURES_IN_BATCH=2"])
        with vu.ErrorCollector() as errs:
            s2 = lyr.GetArrowStream()
        assert s2 is None
        assert errs.failures
        b = s1.GetNextRecordBatch()
        assert b is not None and b.GetLength() == 2
        # the feature cursor is the stream's: the next feature is row 2
        f = lyr.GetNextFeature()
        assert f.GetFID() == expected[2]["OGC_FID"]
        b = None
        s1 = None
        # after the stream, ResetReading gives everything again
        assert read_by_features(lyr) == expected


@pytest.mark.skipif(GDAL_NUM >= 3080000, reason="GDAL >= 3.8 encodes GeoArrow itself")
def test_arrow_geometry_encoding_other_than_wkb_fails(src, vsgpu_ds):
    ds = vsgpu_ds(src["all"])
    with vu.sql_result(ds, STATEMENTS["clip"]) as lyr:
        lyr.SetIgnoredFields(["il"])
        with vu.ErrorCollector() as errs:
            s = lyr.GetArrowStream(["GEOMETRY_ENCODING=GEOARROW"])
        assert s is None
        assert any("GEOMETRY_ENCODING" in m for m in errs.failures)
        s = lyr.GetArrowStream(["GEOMETRY_ENCODING=WKB"])
        assert s is not None
        s = None


def test_arrow_with_spatial_filter_uses_default(src, vsgpu_ds):
    # dates after 1970: GDAL 3.6's default stream is a day off before 1970
    ds = vsgpu_ds(src["new"])
    with vu.sql_result(ds, STATEMENTS["clip"]) as lyr:
        lyr.SetIgnoredFields(["il"])
        lyr.SetSpatialFilterRect(0, 0, 1.0, 1.0)
        assert lyr.TestCapability(ogr.OLCFastGetArrowStream) == 0
        expected = read_by_features(lyr)
        got, _ = read_by_arrow(lyr)
        assert got == expected
        assert 0 < len(got)
        lyr.SetSpatialFilter(None)
        assert lyr.TestCapability(ogr.OLCFastGetArrowStream) == 1
        assert len(read_by_arrow(lyr)[0]) > len(got)


def test_arrow_fast_path_taken(src, vsgpu_ds, config_options):
    """The debug trace says which way a stream is served (the capability
    is what callers see; this checks the capability tells the truth)."""
    config_options({"CPL_DEBUG": "VSGPU"})
    ds = vsgpu_ds(src["all"])
    with vu.sql_result(ds, STATEMENTS["intersection"]) as lyr:
        cases = [(None, False), (["il"], True)]
        for ignored, fast in cases:
            if ignored:
                lyr.SetIgnoredFields(ignored)
            assert lyr.TestCapability(ogr.OLCFastGetArrowStream) == int(fast)
            with vu.ErrorCollector() as errs:
                s = lyr.GetArrowStream()
                assert s is not None
                s = None
            said = [m for m in errs.messages() if "Arrow stream" in m]
            assert len(said) == 1, errs.errors
            assert ("built from the engine's results" in said[0]) == fast, said
            if not fast:
                assert "'il'" in said[0]
