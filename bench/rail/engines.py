"""The engines the rail compares, and the exact command line of each.

Every engine is a child process that reads the workload's files and writes
its answer to a GeoPackage, so that all of them carry the same process,
open and write costs (ogr2ogr writes with -lco SPATIAL_INDEX=NO, so the
R-tree build of the output is no one's cost):

  vsgpu-cpu-1     ogr2ogr -dialect VSGPU on VSGPU:<input>, VSGPU_EXECUTION_MODE=CPU,
                  VSGPU_NUM_THREADS=1 (the reference of the correctness check)
  vsgpu-cpu-all   the same with VSGPU_NUM_THREADS=ALL_CPUS
  vsgpu-cpu-all-geos  dissolve only: vsgpu-cpu-all with VSGPU_COVERAGE_UNION=NO,
                  every group unioned by GEOS (the path before the exact
                  coverage union), to measure beside it
  vsgpu-gpu       the same with VSGPU_EXECUTION_MODE=GPU: the statement fails
                  when the GPU cannot run it, and the rail records why
  gdal-algebra    GDAL's OGR_L_Intersection / OGR_L_Clip (OGRLayer::Intersection
                  / Clip) through bench/tools' vsgbench_algebra, SKIP_FAILURES
                  (without it GDAL stops at the first invalid polygon)
  sqlite          GDAL's SQLite dialect on the GeoPackage itself (SpatiaLite
                  functions): the ST_Intersection join pre-filtered by the two
                  GeoPackage R-trees, and ST_Union ... GROUP BY 1
  ogr2ogr-clipsrc ogr2ogr -clipsrc xmin ymin xmax ymax (rectangle clip)
  copy            the I/O floor, no answer: a plain ogr2ogr of the workload's
                  inputs into a GeoPackage written the same way, in one
                  process like every engine. An overlay (intersection, clip):
                  one ogr2ogr copying the input layer and the method layer
                  (ogr2ogr out.gpkg in.gpkg a b; when the two layers are in
                  two files, ogr2ogr out.gpkg inputs.vrt, an OGR VRT written
                  beside the output, untimed, that lists both layers as they
                  are). clip_rect and dissolve: the input layer. Its median
                  is the floor of every row's "x floor".

VSGPU statements run with VSGPU_SQL_FALLBACK=NO: a statement the dialect
did not take fails instead of quietly running on SQLite. VSGPU_PROFILE
writes the stage trace of each VSGPU run.
"""
import os
import re
from xml.sax.saxutils import escape as xml_escape

RESULT_LAYER = "result"
VSGPU_CONFIG_PREFIX = "VSGPU_"

_SIMPLE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_RESERVED = {"select", "from", "where", "group", "by", "join", "on", "as", "and",
             "or", "not", "is", "null", "in", "between", "like", "ilike", "order",
             "limit", "having", "union", "inner", "left", "right", "cross", "natural",
             "outer", "using", "distinct", "case", "when", "then", "else", "end"}


def q(name):
    """An identifier as both dialects read it: bare when simple, else quoted."""
    if _SIMPLE.match(name) and name.lower() not in _RESERVED:
        return name
    return '"' + name.replace('"', '""') + '"'


def _qq(name):
    """Always double-quoted (SQLite: column names of the join)."""
    return '"' + name.replace('"', '""') + '"'


def _num(v):
    return repr(float(v))


# --------------------------------------------------------------------------
# SQL of each dialect


def vsgpu_sql(w):
    """The VSGPU statement of a workload (run on VSGPU:<input path>)."""
    inp, meth = w["input"], w["method"]
    op = w["op"]
    if op in ("intersection", "clip"):
        mref = q(meth["layer"])
        if os.path.abspath(meth["path"]) != os.path.abspath(inp["path"]):
            mref = "'%s'.%s" % (meth["path"].replace("'", "''"), mref)
        fn = "ST_Intersection" if op == "intersection" else "ST_Clip"
        # GDAL's paths, which the rail compares with, ignore the layers'
        # CRSs (the NY8 pair differs in datum): the same computation here.
        return "SELECT * FROM %s(%s, %s, 'CRS_MISMATCH=IGNORE')" % (fn, q(inp["layer"]), mref)
    if op == "clip_rect":
        return "SELECT * FROM ST_ClipByRect(%s, %s)" % (
            q(inp["layer"]), ", ".join(_num(v) for v in w["rect"]))
    if op == "dissolve":
        return _dissolve_sql(w)
    raise ValueError("unknown op " + op)


def _dissolve_sql(w):
    g = q(w["input"]["geom"])
    if w["key_expr"] is None:
        return "SELECT ST_Union(%s) AS %s FROM %s" % (g, g, q(w["input"]["layer"]))
    lead = w.get("key_lead") or []
    cols = "".join("%s, " % q(c) for c in lead)
    by = ", ".join(str(i + 1) for i in range(len(lead) + 1))
    return "SELECT %s%s AS %s, ST_Union(%s) AS %s FROM %s GROUP BY %s" % (
        cols, w["key_expr"], q(w["key_field"]), g, g, q(w["input"]["layer"]), by)


def sqlite_sql(w):
    """The SQLite-dialect statement: the join for intersection, the
    aggregate for dissolve. Raises NotApplicable when it cannot be written."""
    if w["op"] == "dissolve":
        return _dissolve_sql(w)
    inp, meth = w["input"], w["method"]
    if os.path.abspath(meth["path"]) != os.path.abspath(inp["path"]):
        raise NotApplicable("input and method are in different files "
                            "(the SQLite dialect runs on one GeoPackage)")
    # Attribute columns named as OGRLayer::Intersection names them: a field
    # whose name exists on the other side gets input_ / method_.
    a_f, b_f = inp["fields"], meth["fields"]
    cols = ["a.%s AS %s" % (_qq(f), _qq("input_" + f if f in b_f else f)) for f in a_f]
    cols += ["b.%s AS %s" % (_qq(f), _qq("method_" + f if f in a_f else f)) for f in b_f]
    ga, gb = _qq(inp["geom"]), _qq(meth["geom"])
    cols.append("ST_Intersection(a.%s, b.%s) AS geom" % (ga, gb))
    if inp["rtree"] and meth["rtree"]:
        frm = ("%s a JOIN %s ra ON ra.id = a.%s "
               "JOIN %s rb ON ra.minx <= rb.maxx AND ra.maxx >= rb.minx "
               "AND ra.miny <= rb.maxy AND ra.maxy >= rb.miny "
               "JOIN %s b ON b.%s = rb.id") % (
            _qq(inp["layer"]), _qq(inp["rtree"]), _qq(inp["fid"]),
            _qq(meth["rtree"]), _qq(meth["layer"]), _qq(meth["fid"]))
    else:
        frm = "%s a, %s b" % (_qq(inp["layer"]), _qq(meth["layer"]))
    return "SELECT %s FROM %s WHERE ST_Intersects(a.%s, b.%s)" % (
        ", ".join(cols), frm, ga, gb)


# --------------------------------------------------------------------------
# the engines


class NotApplicable(Exception):
    """The engine cannot run this workload; the message says why."""


class Engine:
    """key: the name in flags and JSON; ops: the operations it runs."""

    def __init__(self, key, label, ops, build, reference_ok=False, floor=False):
        self.key = key
        self.label = label
        self.ops = ops
        self.build = build          # (ctx, w, out, trace) -> (argv, env)
        self.reference_ok = reference_ok
        self.floor = floor          # the I/O floor: timed, not an answer

    def runs(self, op):
        return op in self.ops

    def label_for(self, op):
        """The label in a table row: GDAL's method named after the op."""
        if self.key == "gdal-algebra":
            return "OGRLayer::Intersection" if op == "intersection" else "OGRLayer::Clip"
        return self.label


def _ogr2ogr_head(ctx, out):
    return [ctx["ogr2ogr"], "-f", "GPKG", out]


def _ogr2ogr_tail():
    return ["-nln", RESULT_LAYER, "-lco", "SPATIAL_INDEX=NO"]


def _vsgpu(mode, threads, extra=()):
    def build(ctx, w, out, trace):
        argv = _ogr2ogr_head(ctx, out) + [
            "VSGPU:" + w["input"]["path"], "-dialect", "VSGPU", "-sql", vsgpu_sql(w)]
        argv += _ogr2ogr_tail()
        for k, v in (("VSGPU_EXECUTION_MODE", mode), ("VSGPU_NUM_THREADS", threads),
                     ("VSGPU_SQL_FALLBACK", "NO"), ("VSGPU_PROFILE", trace)) + tuple(extra):
            argv += ["--config", k, v]
        return argv, {"GDAL_DRIVER_PATH": ctx["plugin_dir"]}
    return build


def _algebra(ctx, w, out, trace):
    tool = os.path.join(ctx["tools_dir"], "vsgbench_algebra")
    if not os.access(tool, os.X_OK):
        raise NotApplicable("vsgbench_algebra not found in " + ctx["tools_dir"])
    inp, meth = w["input"], w["method"]
    return [tool, w["op"], inp["path"], inp["layer"], meth["path"], meth["layer"],
            out, "--skip-failures"], {}


def _sqlite(ctx, w, out, trace):
    argv = _ogr2ogr_head(ctx, out) + [w["input"]["path"], "-dialect", "SQLITE",
                                      "-sql", sqlite_sql(w)]
    return argv + _ogr2ogr_tail(), {}


def _clipsrc(ctx, w, out, trace):
    argv = _ogr2ogr_head(ctx, out) + [w["input"]["path"], w["input"]["layer"],
                                      "-clipsrc"] + [_num(v) for v in w["rect"]]
    return argv + _ogr2ogr_tail(), {}


def copy_layers(w):
    """The (path, layer) pairs the copy engine copies: input and method of
    an overlay, the input alone otherwise."""
    pairs = [(w["input"]["path"], w["input"]["layer"])]
    if w["op"] in ("intersection", "clip") and w.get("method"):
        pairs.append((w["method"]["path"], w["method"]["layer"]))
    return pairs


def copy_vrt(pairs):
    """An OGR VRT exposing layers of several files as they are (every field,
    the geometry, the CRS), so that one ogr2ogr process reads them all;
    layers named after their sources (input/method when the names clash)."""
    names = [layer for _, layer in pairs]
    if len(set(names)) != len(names):
        names = ["input", "method"][:len(pairs)]
    body = "".join(
        '  <OGRVRTLayer name="%s"><SrcDataSource>%s</SrcDataSource>'
        '<SrcLayer>%s</SrcLayer></OGRVRTLayer>\n' % (
            xml_escape(n, {'"': "&quot;"}), xml_escape(os.path.abspath(p)), xml_escape(layer))
        for n, (p, layer) in zip(names, pairs))
    return "<OGRVRTDataSource>\n%s</OGRVRTDataSource>\n" % body


def _copy(ctx, w, out, trace):
    pairs = copy_layers(w)
    lco = ["-lco", "SPATIAL_INDEX=NO"]
    if len(pairs) == 1:
        (path, layer), = pairs
        return _ogr2ogr_head(ctx, out) + [path, layer] + _ogr2ogr_tail(), {}
    (ip, il), (mp, ml) = pairs
    if os.path.abspath(ip) == os.path.abspath(mp) and il != ml:
        # Both layers of one file, under their names.
        return _ogr2ogr_head(ctx, out) + [ip, il, ml] + lco, {}
    vrt = os.path.join(os.path.dirname(out), "inputs.vrt")
    with open(vrt, "w") as f:
        f.write(copy_vrt(pairs))
    return _ogr2ogr_head(ctx, out) + [vrt] + lco, {}


ALL_OPS = ("intersection", "clip", "clip_rect", "dissolve")

ENGINES = [
    Engine("vsgpu-cpu-1", "VSGPU CPU, 1 thread", ALL_OPS, _vsgpu("CPU", "1"), True),
    Engine("vsgpu-cpu-all", "VSGPU CPU, all threads", ALL_OPS,
           _vsgpu("CPU", "ALL_CPUS"), True),
    Engine("vsgpu-cpu-all-geos", "VSGPU CPU, all threads, GEOS union", ("dissolve",),
           _vsgpu("CPU", "ALL_CPUS", (("VSGPU_COVERAGE_UNION", "NO"),))),
    Engine("vsgpu-gpu", "VSGPU GPU", ALL_OPS, _vsgpu("GPU", "ALL_CPUS")),
    Engine("gdal-algebra", "OGRLayer::Intersection/Clip", ("intersection", "clip"),
           _algebra),
    Engine("sqlite", "SQLite dialect", ("intersection", "dissolve"), _sqlite),
    Engine("ogr2ogr-clipsrc", "ogr2ogr -clipsrc", ("clip_rect",), _clipsrc),
    Engine("copy", "ogr2ogr copy (I/O floor)", ALL_OPS, _copy, floor=True),
]

BY_KEY = {e.key: e for e in ENGINES}
VSGPU_KEYS = ("vsgpu-cpu-1", "vsgpu-cpu-all", "vsgpu-cpu-all-geos", "vsgpu-gpu")
FLOOR_KEY = "copy"

# What a failed GPU-mode statement says when the GPU engine cannot run it
# (docs/fallback.md): the engine is then "not available", not an error.
GPU_UNAVAILABLE = re.compile(
    r"cannot run on the GPU: ([^\n]*)|(no GPU kernel[^\n]*)|(no usable CUDA device[^\n]*)"
    r"|(no CUDA device present[^\n]*)|(has no CUDA engine[^\n]*)")


def gpu_unavailable_reason(stderr):
    """The reason the GPU engine gave for not running, or None."""
    m = GPU_UNAVAILABLE.search(stderr or "")
    if not m:
        return None
    return next(g for g in m.groups() if g).strip()


def child_env(overrides):
    """The environment of an engine: this one without VSGPU_* settings (GDAL
    reads environment variables as configuration options, so a stray
    VSGPU_EXECUTION_MODE would change what is measured), plus overrides."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(VSGPU_CONFIG_PREFIX)}
    env.update(overrides)
    return env
