"""Helpers shared by the VSGPU tests: building layers, running statements,
reading results, the oracles (GEOS and GDAL's layer algebra through OGR)
and the canonicaliser. Imported by conftest.py after GDAL_DRIVER_PATH is set.
"""

import collections
import contextlib
import math
import os
import re
import subprocess

from osgeo import gdal, ogr, osr

VSGPU_CONFIG_KEYS = (
    "VSGPU_INVALID",
    "VSGPU_EXECUTION_MODE",
    "VSGPU_NUM_THREADS",
    "VSGPU_BATCH_SIZE",
    "VSGPU_SQL_FALLBACK",
    "VSGPU_PROFILE",
    "VSGPU_GPU_BACKEND",
    "VSGPU_GPU_POOL_LIMIT",
    "VSGPU_GPU_OOM_SAFETY",
    "VSGPU_GPU_MANAGED_MEMORY",
    "VSGPU_NVTX",
    "VSGPU_GPU_MIN_ROWS",
    "VSGPU_PROGRESS",
)

# Every statement run through run_vsgpu() whose operation has a GPU pipeline
# is run a second time on it, and the two results must agree
# (docs/testing.md, "Both backends"). VSGPU_TEST_GPU_BACKEND picks where the
# GPU pipeline runs: HOST (default: its host backend, what CI without a GPU
# has), CUDA (a GPU host), or NONE (no second run). conftest.py reads it
# before it clears the VSGPU_* environment.
GPU_PIPELINE_OPS = ("ST_ClipByRect", "ST_Intersection", "ST_Clip")
TEST_GPU_BACKEND = os.environ.get("VSGPU_TEST_GPU_BACKEND", "HOST").upper()
CROSS_CHECKS = collections.Counter()

# Counters that say how the work was done, not what came out: they may
# differ between the CPU engine and the GPU pipeline.
_HOW_COUNTERS = ("CANDIDATE_PAIRS", "CONTAINED_SHORTCUTS", "GPU_ROWS",
                 "GPU_ROWS_RERUN_ON_CPU")

# The counters of the result layer's VSGPU metadata domain (docs/semantics.md).
COUNTERS = (
    "INVALID_REPAIRED",
    "INVALID_SKIPPED",
    "RINGS_CLOSED",
    "NONFINITE_SKIPPED",
    "CORRUPT_SKIPPED",
    "UNSUPPORTED_SKIPPED",
    "NULL_GEOMETRIES",
    "EMPTY_GEOMETRIES",
    "CURVES_LINEARIZED",
    "FAILURES_SKIPPED",
    "LOWER_DIMENSION_DROPPED",
    "TYPE_SKIPPED",
)

# How the counter warning may name a counter: its key, or words saying it.
COUNTER_WORDS = {
    "INVALID_REPAIRED": r"invalid\b.*\brepaired",
    "INVALID_SKIPPED": r"invalid\b.*\bskipped",
    "RINGS_CLOSED": r"ring.*\bclosed",
    "NONFINITE_SKIPPED": r"(nan|infinite|non-?finite)",
    "CORRUPT_SKIPPED": r"(corrupt|unreadable)",
    "UNSUPPORTED_SKIPPED": r"unsupported type",
    "NULL_GEOMETRIES": r"\bnull\b",
    "EMPTY_GEOMETRIES": r"\bempty\b",
    "CURVES_LINEARIZED": r"(curve|lineari[sz])",
    "FAILURES_SKIPPED": r"fail",
    "LOWER_DIMENSION_DROPPED": r"(lower|dimension)",
    "TYPE_SKIPPED": r"type",
}

FALLBACK_RE = re.compile(r"VSGPU: (ST_\w+) runs on the CPU engine: (.+)")


def counter_warnings(errors):
    """The statement's counter warnings: VSGPU warnings other than the
    fallback warning (docs/semantics.md: one per statement)."""
    return [m for m in errors.warnings if m.startswith("VSGPU:") and not FALLBACK_RE.search(m)]


def names_counter(message, counter, value):
    """True when a warning names the counter (key or words) and its value."""
    named = counter in message or re.search(COUNTER_WORDS[counter], message, re.I)
    return bool(named) and re.search(r"\b%d\b" % value, message) is not None


# Keys every result layer reports in its VSGPU metadata domain.
REQUIRED_METADATA_KEYS = (
    "OPERATION",
    "REQUESTED_MODE",
    "SELECTED_RUNTIME",
    "FALLBACK_REASON",
    "THREADS",
    "INPUT_FEATURES",
    "METHOD_FEATURES",
    "OUTPUT_FEATURES",
    "CANDIDATE_PAIRS",
    "CONTAINED_SHORTCUTS",
    "COVERAGE_UNION_GROUPS",
    "UNARY_UNION_GROUPS",
    "GPU_ROWS_RERUN_ON_CPU",
    "ELAPSED_S",
    "COMPLETE",
)


###############################################################################
# Files


def rm_vsimem(path):
    """Removes a /vsimem/ tree."""
    entries = gdal.ReadDir(path) or []
    for e in entries:
        if e in (".", ".."):
            continue
        p = path + "/" + e
        st = gdal.VSIStatL(p)
        if st is not None and st.IsDirectory():
            rm_vsimem(p)
        else:
            gdal.Unlink(p)
    gdal.Rmdir(path)


def srs_from_epsg(code):
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(code)
    srs.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    return srs


def write_layer(ds, name, geom_type=ogr.wkbUnknown, fields=(), rows=(), srs=None,
                options=None):
    """Creates layer `name` in an open dataset.

    fields: sequence of (name, OFT type); rows: sequence of (wkt_or_geom_or_None,
    {field: value}) or (geom,) tuples. Returns the layer."""
    lyr = ds.CreateLayer(name, srs=srs, geom_type=geom_type, options=options or [])
    assert lyr is not None, "cannot create layer %s" % name
    for fname, ftype in fields:
        assert lyr.CreateField(ogr.FieldDefn(fname, ftype)) == 0
    for row in rows:
        geom = row[0]
        values = row[1] if len(row) > 1 else {}
        f = ogr.Feature(lyr.GetLayerDefn())
        for k, v in values.items():
            if v is None:
                f.SetFieldNull(k)
            else:
                f.SetField(k, v)
        if isinstance(geom, str):
            g = ogr.CreateGeometryFromWkt(geom)
            assert g is not None, geom
            f.SetGeometryDirectly(g)
        elif geom is not None:
            f.SetGeometry(geom)
        assert lyr.CreateFeature(f) == 0
    return lyr


def create_gpkg(path, layers):
    """Writes a GeoPackage. layers: {name: dict(geom_type=, fields=, rows=, srs=)}.
    Returns path."""
    drv = ogr.GetDriverByName("GPKG")
    if gdal.VSIStatL(path) is not None:
        drv.DeleteDataSource(path)
    ds = drv.CreateDataSource(path)
    assert ds is not None, path
    for name, spec in layers.items():
        write_layer(ds, name, **spec)
    ds = None
    return path


###############################################################################
# Errors


class ErrorCollector:
    """Collects GDAL errors raised inside the block instead of printing them.

        with ErrorCollector() as errs:
            ...
        errs.warnings, errs.failures, errs.messages(gdal.CE_Warning)
    """

    def __init__(self):
        self.errors = []

    def _handler(self, err_class, err_no, msg):
        self.errors.append((err_class, err_no, msg))

    def __enter__(self):
        gdal.PushErrorHandler(self._handler)
        return self

    def __exit__(self, *exc):
        gdal.PopErrorHandler()
        return False

    def messages(self, err_class=None):
        return [m for c, _, m in self.errors if err_class is None or c == err_class]

    @property
    def warnings(self):
        return self.messages(gdal.CE_Warning)

    @property
    def failures(self):
        return [m for c, _, m in self.errors if c in (gdal.CE_Failure, gdal.CE_Fatal)]

    def __repr__(self):
        return "ErrorCollector(%r)" % (self.errors,)


###############################################################################
# Running statements


def open_vsgpu(path, open_options=None, update=False):
    flags = gdal.OF_VECTOR | (gdal.OF_UPDATE if update else 0)
    return gdal.OpenEx("VSGPU:" + str(path), flags, open_options=list(open_options or []))


@contextlib.contextmanager
def sql_result(ds, sql, dialect="VSGPU", spatial_filter=None):
    """ExecuteSQL as a context manager: the result set is released on exit."""
    lyr = ds.ExecuteSQL(sql, spatial_filter, dialect)
    try:
        yield lyr
    finally:
        if lyr is not None:
            ds.ReleaseResultSet(lyr)


Feature = collections.namedtuple("Feature", "fid fields geom")


def read_features(lyr):
    """All features of a layer as Feature(fid, OrderedDict fields, geometry clone)."""
    out = []
    defn = lyr.GetLayerDefn()
    names = [defn.GetFieldDefn(i).GetName() for i in range(defn.GetFieldCount())]
    lyr.ResetReading()
    for f in lyr:
        fields = collections.OrderedDict()
        for i, n in enumerate(names):
            fields[n] = f.GetField(i) if f.IsFieldSetAndNotNull(i) else None
        g = f.GetGeometryRef()
        out.append(Feature(f.GetFID(), fields, g.Clone() if g is not None else None))
    return out


def schema(lyr):
    """[(name, type, subtype, width)] of a layer definition."""
    defn = lyr.GetLayerDefn()
    return [
        (d.GetName(), d.GetType(), d.GetSubType(), d.GetWidth())
        for d in (defn.GetFieldDefn(i) for i in range(defn.GetFieldCount()))
    ]


def field_names(lyr):
    return [s[0] for s in schema(lyr)]


def run_vsgpu(path, sql, open_options=None, config=None):
    """Opens VSGPU:path, runs sql, reads the whole result.

    Returns dict(features, schema, geom_type, metadata, errors, srs)
    (features None when ExecuteSQL returned no layer)."""
    saved = {}
    for k, v in (config or {}).items():
        saved[k] = gdal.GetConfigOption(k)
        gdal.SetConfigOption(k, v)
    try:
        with ErrorCollector() as errs:
            ds = open_vsgpu(path, open_options)
            assert ds is not None, "cannot open VSGPU:%s: %s" % (path, errs.errors)
            with sql_result(ds, sql) as lyr:
                if lyr is None:
                    res = dict(features=None, schema=None, geom_type=None,
                               metadata={}, srs=None)
                else:
                    feats = read_features(lyr)
                    res = dict(
                        features=feats,
                        schema=schema(lyr),
                        geom_type=lyr.GetGeomType(),
                        metadata=lyr.GetMetadata("VSGPU") or {},
                        srs=lyr.GetSpatialRef().Clone() if lyr.GetSpatialRef() else None,
                    )
            ds = None
    finally:
        for k, v in saved.items():
            gdal.SetConfigOption(k, v)
    res["errors"] = errs
    if _wants_cross_check(res, sql, open_options, config):
        _cross_check(res, path, sql, open_options, config)
    return res


def _mode_given(sql, open_options, config):
    text = (sql or "").upper()
    return ("VSGPU_EXECUTION_MODE" in (config or {})
            or any(str(o).upper().startswith("EXECUTION_MODE=") for o in (open_options or []))
            or "EXECUTION_MODE=" in text)


def _wants_cross_check(res, sql, open_options, config):
    if TEST_GPU_BACKEND == "NONE" or res["features"] is None:
        return False
    if res["metadata"].get("OPERATION") not in GPU_PIPELINE_OPS:
        return False
    return not _mode_given(sql, open_options, config)


def _cross_check(cpu, path, sql, open_options, config):
    """Runs the statement again on the GPU pipeline and asserts that it
    agrees with the CPU engine's result."""
    cfg = dict(config or {})
    cfg["VSGPU_EXECUTION_MODE"] = "GPU"
    cfg["VSGPU_GPU_BACKEND"] = "HOST" if TEST_GPU_BACKEND == "HOST" else "CUDA"
    # intersection also through the GPU refine of the undecided pairs
    # (GEOS refines only those it hands back): every intersection statement
    # of the suite checks it against the CPU engine
    cfg.setdefault("VSGPU_GPU_REFINE", "YES")
    gpu = run_vsgpu(path, sql, open_options, cfg)
    op = cpu["metadata"].get("OPERATION")
    label = "%s on the GPU pipeline (%s backend)" % (op, cfg["VSGPU_GPU_BACKEND"])
    md = gpu["metadata"]
    assert gpu["features"] is not None, "%s failed: %s" % (label, gpu["errors"].errors)
    assert md.get("SELECTED_RUNTIME") == "GPU", "%s: runtime %s" % (label, md.get("SELECTED_RUNTIME"))
    assert gpu["schema"] == cpu["schema"], label
    assert gpu["geom_type"] == cpu["geom_type"], label
    assert_same_features(gpu["features"], cpu["features"], label=label)
    for k, v in cpu["metadata"].items():
        if k in COUNTERS or k in ("INPUT_FEATURES", "METHOD_FEATURES", "OUTPUT_FEATURES"):
            assert md.get(k) == v, "%s: %s=%s, CPU engine %s" % (label, k, md.get(k), v)
    CROSS_CHECKS[op] += 1


def cli_env(plugin_dir, config=None, env=None):
    e = {k: v for k, v in os.environ.items() if not k.startswith("VSGPU_") or k == "VSGPU_BUILD_DIR"}
    if plugin_dir:
        e["GDAL_DRIVER_PATH"] = plugin_dir
    e.update(env or {})
    return e


def run_cli(args, plugin_dir, config=None, env=None, timeout=300):
    """Runs a GDAL utility. config: {KEY: VALUE} passed as --config KEY VALUE
    right after the program name, as a user types it."""
    args = [str(a) for a in args]
    cmd = [args[0]]
    for k, v in (config or {}).items():
        cmd += ["--config", k, str(v)]
    cmd += args[1:]
    return subprocess.run(cmd, env=cli_env(plugin_dir, config, env), capture_output=True,
                          text=True, timeout=timeout)


###############################################################################
# Geometry: the canonicaliser


def _parts(g):
    """Flattened non-collection parts of a geometry (curves linearised)."""
    if g is None:
        return []
    if g.IsEmpty():
        return []
    t = ogr.GT_Flatten(g.GetGeometryType())
    if t in (ogr.wkbGeometryCollection, ogr.wkbMultiPolygon, ogr.wkbMultiLineString,
             ogr.wkbMultiPoint, ogr.wkbMultiSurface, ogr.wkbMultiCurve):
        out = []
        for i in range(g.GetGeometryCount()):
            out += _parts(g.GetGeometryRef(i))
        return out
    if ogr.GT_IsNonLinear(t):
        g = g.GetLinearGeometry()
    return [g]


def dimension_of(g):
    return {ogr.wkbPoint: 0, ogr.wkbLineString: 1, ogr.wkbPolygon: 2}[
        ogr.GT_Flatten(g.GetGeometryType())]


def parts_of_dimension(g, dim):
    """MultiPoint/MultiLineString/MultiPolygon of the parts of dimension dim."""
    mtype = {0: ogr.wkbMultiPoint, 1: ogr.wkbMultiLineString, 2: ogr.wkbMultiPolygon}[dim]
    m = ogr.Geometry(mtype)
    for p in _parts(g):
        if dimension_of(p) == dim:
            m.AddGeometry(p)
    return m


def polygonal(g):
    return parts_of_dimension(g, 2)


def max_dimension(g):
    parts = _parts(g)
    return max((dimension_of(p) for p in parts), default=-1)


def area(g):
    return polygonal(g).GetArea() if g is not None else 0.0


class Canon:
    """Canonical forms and distances used by every comparison of the suite."""

    @staticmethod
    def normalized(g):
        """OGR's Normalize() (GEOSNormalize): rings start at their smallest
        point, shells clockwise, parts sorted. Returns a new geometry."""
        return g.Normalize()

    @staticmethod
    def wkt(g):
        return None if g is None else Canon.normalized(g).ExportToIsoWkt()

    @staticmethod
    def exact_equal(a, b):
        """Exact coordinate equality after normalisation (XMLTester rule)."""
        return Canon.normalized(a).Equals(Canon.normalized(b))

    @staticmethod
    def symdiff_area(a, b):
        """Area of the symmetric difference of the polygonal parts."""
        pa = polygonal(a).UnionCascaded() if not polygonal(a).IsEmpty() else None
        pb = polygonal(b).UnionCascaded() if not polygonal(b).IsEmpty() else None
        if pa is None and pb is None:
            return 0.0
        if pa is None:
            return pb.GetArea()
        if pb is None:
            return pa.GetArea()
        d = pa.SymDifference(pb)
        assert d is not None, "GEOS could not compute a symmetric difference"
        return d.GetArea()

    @staticmethod
    def rel_symdiff(a, b):
        """Area of the symmetric difference relative to the larger area."""
        ref = max(area(a), area(b))
        d = Canon.symdiff_area(a, b)
        if ref == 0:
            return 0.0 if d == 0 else math.inf
        return d / ref

    @staticmethod
    def topo_equal_lower(a, b, dim):
        """Topological equality of the parts of dimension dim (0 or 1)."""
        pa = parts_of_dimension(a, dim)
        pb = parts_of_dimension(b, dim)
        if pa.IsEmpty() or pb.IsEmpty():
            return pa.IsEmpty() and pb.IsEmpty()
        d = pa.SymDifference(pb)
        return d is not None and d.IsEmpty()


###############################################################################
# Oracles


def mem_layer_copy(src_lyr, name, make_valid=False):
    """Copies a layer into a Memory dataset; optionally repairs invalid
    geometries the way the contract does (GEOSMakeValid, METHOD=STRUCTURE).
    Returns (ds, layer, repaired_count)."""
    ds = ogr.GetDriverByName("Memory").CreateDataSource(name)
    lyr = ds.CreateLayer(name, src_lyr.GetSpatialRef(), src_lyr.GetGeomType())
    defn = src_lyr.GetLayerDefn()
    for i in range(defn.GetFieldCount()):
        lyr.CreateField(defn.GetFieldDefn(i))
    repaired = 0
    src_lyr.ResetReading()
    for f in src_lyr:
        g = f.GetGeometryRef()
        if make_valid and g is not None and not g.IsEmpty() and not quiet(g.IsValid):
            g2 = g.MakeValid(["METHOD=STRUCTURE"])
            assert g2 is not None
            f.SetGeometry(g2)
            repaired += 1
        nf = ogr.Feature(lyr.GetLayerDefn())
        nf.SetFrom(f)
        nf.SetFID(f.GetFID())
        lyr.CreateFeature(nf)
    return ds, lyr, repaired


def quiet(fn, *args):
    gdal.PushErrorHandler("CPLQuietErrorHandler")
    try:
        return fn(*args)
    finally:
        gdal.PopErrorHandler()


def gdal_layer_algebra(op, input_lyr, method_lyr, options=()):
    """Runs OGRLayer.<op> (Intersection or Clip) into a Memory layer of
    unknown type (so KEEP_LOWER_DIMENSION_GEOMETRIES is honoured).
    Returns (features, field_names)."""
    ds = ogr.GetDriverByName("Memory").CreateDataSource("oracle")
    out = ds.CreateLayer("out", input_lyr.GetSpatialRef(), ogr.wkbUnknown)
    with ErrorCollector() as errs:
        err = getattr(input_lyr, op)(method_lyr, out, options=list(options))
    assert err == 0, "oracle OGRLayer.%s failed: %s" % (op, errs.errors)
    feats = read_features(out)
    names = field_names(out)
    ds = None
    return feats, names


def contract_geometry(g, dim, promote):
    """The contract's view of an oracle result: keep the parts of dimension
    dim; None if none; Multi when promoted or when there are several parts."""
    parts = parts_of_dimension(g, dim)
    if parts.IsEmpty():
        return None
    if parts.GetGeometryCount() == 1 and not promote:
        return parts.GetGeometryRef(0).Clone()
    return parts


def assert_same_features(actual, expected, rel_tol=1e-9, check_types=True, label=""):
    """Feature lists equal: same length, same order, same field values, same
    geometry type, area of symmetric difference within rel_tol of the area."""
    assert len(actual) == len(expected), "%s: %d features, expected %d" % (
        label, len(actual), len(expected))
    for i, (a, e) in enumerate(zip(actual, expected)):
        assert list(a.fields.values()) == list(e.fields.values()), \
            "%s: feature %d fields %r, expected %r" % (label, i, dict(a.fields), dict(e.fields))
        if e.geom is None:
            assert a.geom is None, "%s: feature %d: geometry, expected null" % (label, i)
            continue
        assert a.geom is not None, "%s: feature %d: null geometry" % (label, i)
        if check_types:
            assert ogr.GT_Flatten(a.geom.GetGeometryType()) == ogr.GT_Flatten(e.geom.GetGeometryType()), \
                "%s: feature %d: %s, expected %s" % (label, i, a.geom.GetGeometryName(),
                                                     e.geom.GetGeometryName())
        ea = area(e.geom)
        d = Canon.symdiff_area(a.geom, e.geom)
        assert d <= rel_tol * max(ea, 1e-300), \
            "%s: feature %d (%r): symmetric difference %g, area %g" % (label, i, dict(e.fields), d, ea)
        for dim in (0, 1):
            if max_dimension(e.geom) <= dim or max_dimension(a.geom) <= dim:
                assert Canon.topo_equal_lower(a.geom, e.geom, dim), \
                    "%s: feature %d: dimension-%d parts differ: %s vs %s" % (
                        label, i, dim, a.geom.ExportToWkt()[:200], e.geom.ExportToWkt()[:200])


def field_names_of(res):
    """Field names of a run_vsgpu() result (None when there was no layer)."""
    return None if res["schema"] is None else [s[0] for s in res["schema"]]


def layer_features(path, layer):
    """read_features() of a layer of a file opened with OGR."""
    ds = ogr.Open(str(path))
    assert ds is not None, path
    lyr = ds.GetLayerByName(layer)
    assert lyr is not None, (path, layer)
    feats = read_features(lyr)
    ds = None
    return feats
