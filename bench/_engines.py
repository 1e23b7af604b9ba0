"""The engines compared by cpu_bench.py.

Each engine is a function run(w) -> (OutputStats, extra) that does the whole
job end to end: open the source, compute, and fetch every output feature with
its geometry (OutputStats.add touches each one). The harness times the call.
"""
import os
import shlex
import subprocess
import tempfile

from osgeo import gdal, ogr

from _stats import OutputStats, summarize_layer


class EngineError(RuntimeError):
    pass


# --------------------------------------------------------------------------
# SQL text


def _q(name):
    return '"' + name.replace('"', '""') + '"'


def vsgpu_sql(w):
    """The VSGPU statement of a workload."""
    op = w["op"]
    if op == "intersection":
        return "SELECT * FROM ST_Intersection(%s, %s)" % (w["input"], w["method"])
    if op == "clip":
        return "SELECT * FROM ST_Clip(%s, %s)" % (w["input"], w["method"])
    if op == "rectclip":
        return "SELECT * FROM ST_ClipByRect(%s, %s)" % (
            w["input"], ", ".join(repr(v) for v in w["rect"]))
    if op == "dissolve":
        g = w["geom_col"]
        if w.get("key_sql"):
            return "SELECT %s AS %s, ST_Union(%s) AS %s FROM %s GROUP BY %s" % (
                w["key_sql"], w["key_alias"], g, g, w["input"], w["key_alias"])
        return "SELECT ST_Union(%s) AS %s FROM %s" % (g, g, w["input"])
    raise ValueError(op)


def _join_select_list(w):
    """Attribute columns of the join named as OGRLayer::Intersection names
    them: a field whose name exists on the other side gets input_/method_."""
    a, b = w["input_fields"], w["method_fields"]
    cols = []
    for f in a:
        cols.append("a.%s AS %s" % (_q(f), _q("input_" + f if f in b else f)))
    for f in b:
        cols.append("b.%s AS %s" % (_q(f), _q("method_" + f if f in a else f)))
    return cols


def sqlite_join_sql(w, prefilter=True, count_only=False, where=None):
    """PostGIS-style join for GDAL's SQLite dialect on a GeoPackage.

    The pre-filter joins the two GeoPackage R-trees (rtree_<table>_<geom>,
    reachable because the GPKG driver runs -dialect SQLITE on its own
    database) on bounding-box overlap, then tests ST_Intersects on the
    candidate pairs only.
    """
    ga, gb = w["geom_col"], w["method_geom_col"]
    fa, fb = w["fid_col"], w["method_fid_col"]
    if count_only:
        sel = "COUNT(*) AS pairs"
    else:
        sel = ", ".join(_join_select_list(w) +
                        ["ST_Intersection(a.%s, b.%s) AS geom" % (_q(ga), _q(gb))])
    if prefilter:
        frm = ("%s a JOIN %s ra ON ra.id = a.%s "
               "JOIN %s rb ON ra.minx <= rb.maxx AND ra.maxx >= rb.minx "
               "AND ra.miny <= rb.maxy AND ra.maxy >= rb.miny "
               "JOIN %s b ON b.%s = rb.id") % (
            _q(w["input"]), _q("rtree_%s_%s" % (w["input"], ga)), _q(fa),
            _q("rtree_%s_%s" % (w["method"], gb)), _q(w["method"]), _q(fb))
        cond = "ST_Intersects(a.%s, b.%s)" % (_q(ga), _q(gb))
    else:
        frm = "%s a JOIN %s b ON ST_Intersects(a.%s, b.%s)" % (
            _q(w["input"]), _q(w["method"]), _q(ga), _q(gb))
        cond = None
    conds = [c for c in (cond, where) if c]
    sql = "SELECT %s FROM %s" % (sel, frm)
    if conds:
        sql += " WHERE " + " AND ".join(conds)
    if not count_only:
        sql += " ORDER BY a.%s, b.%s" % (_q(fa), _q(fb))
    return sql


def sqlite_dissolve_sql(w):
    g = w["geom_col"]
    if w.get("key_sql"):
        return "SELECT %s AS %s, ST_Union(%s) AS geom FROM %s GROUP BY 1" % (
            w["key_sql"], w["key_alias"], _q(g), _q(w["input"]))
    return "SELECT ST_Union(%s) AS geom FROM %s" % (_q(g), _q(w["input"]))


# --------------------------------------------------------------------------
# in-process engines


def _iterate(lyr, w):
    key = w.get("key_alias") if w["op"] == "dissolve" and w.get("key_sql") else None
    if key is not None and lyr.GetLayerDefn().GetFieldIndex(key) < 0:
        key = None
    return summarize_layer(lyr, key)


def run_vsgpu(w, threads):
    """VSGPU CPU engine through its SQL dialect on the VSGPU: wrapper."""
    opts = {"VSGPU_EXECUTION_MODE": "CPU", "VSGPU_NUM_THREADS": str(threads)}
    old = {k: gdal.GetConfigOption(k) for k in opts}
    for k, v in opts.items():
        gdal.SetConfigOption(k, v)
    try:
        ds = gdal.OpenEx("VSGPU:" + w["path"], gdal.OF_VECTOR)
        if ds is None:
            raise EngineError("cannot open VSGPU:" + w["path"])
        lyr = ds.ExecuteSQL(vsgpu_sql(w), dialect="VSGPU")
        if lyr is None:
            raise EngineError("ExecuteSQL returned no layer")
        try:
            st = _iterate(lyr, w)
            md = lyr.GetMetadata("VSGPU") or {}
        finally:
            ds.ReleaseResultSet(lyr)
        ds = None
    finally:
        for k, v in old.items():
            gdal.SetConfigOption(k, v)
    return st, {"sql": vsgpu_sql(w), "vsgpu_metadata": md}


def run_ogr_layer(w, strict=False):
    """OGRLayer.Intersection / OGRLayer.Clip into a Memory layer created
    empty with the input geometry type; Intersection/Clip create the fields.

    Options: KEEP_LOWER_DIMENSION_GEOMETRIES=NO (what VSGPU does by default,
    and what GDAL forces anyway when the result layer has a geometry type;
    layers of type Unknown such as us-atlas 'counties' would otherwise keep
    lines and points) and SKIP_FAILURES=YES unless strict (without it GDAL
    stops at the first GEOS TopologyException on invalid input)."""
    ds = gdal.OpenEx(w["path"], gdal.OF_VECTOR)
    a = ds.GetLayerByName(w["input"])
    b = ds.GetLayerByName(w["method"])
    mem = ogr.GetDriverByName("Memory").CreateDataSource("bench")
    out = mem.CreateLayer("result", a.GetSpatialRef(), a.GetGeomType())
    options = ["KEEP_LOWER_DIMENSION_GEOMETRIES=NO"]
    if not strict:
        options.append("SKIP_FAILURES=YES")
    fn = a.Intersection if w["op"] == "intersection" else a.Clip
    rc = fn(b, out, options)
    st = _iterate(out, w)
    mem = ds = None
    return st, {"ogr_rc": rc, "options": options,
                "call": "%s.%s(%s, memlayer, %s)" % (
                    w["input"], "Intersection" if w["op"] == "intersection" else "Clip",
                    w["method"], options)}


def run_sqlite(w):
    """GDAL's SQLite dialect (SpatiaLite functions) on the GeoPackage."""
    sql = sqlite_join_sql(w) if w["op"] == "intersection" else sqlite_dissolve_sql(w)
    ds = gdal.OpenEx(w["path"], gdal.OF_VECTOR)
    lyr = ds.ExecuteSQL(sql, dialect="SQLITE")
    if lyr is None:
        raise EngineError("ExecuteSQL returned no layer")
    try:
        st = _iterate(lyr, w)
    finally:
        ds.ReleaseResultSet(lyr)
    ds = None
    return st, {"sql": sql}


def sqlite_scalar(path, sql):
    ds = gdal.OpenEx(path, gdal.OF_VECTOR)
    lyr = ds.ExecuteSQL(sql, dialect="SQLITE")
    try:
        f = lyr.GetNextFeature()
        return f.GetField(0)
    finally:
        ds.ReleaseResultSet(lyr)


# --------------------------------------------------------------------------
# subprocess engines (ogr2ogr): the timing covers the process, which writes
# every output feature to a GeoPackage; the output is summarised afterwards.


def _ogr2ogr(args, env=None):
    tmp = tempfile.mkdtemp(prefix="vsgpu-bench-")
    out = os.path.join(tmp, "out.gpkg")
    cmd = ["ogr2ogr", "-f", "GPKG", out] + args
    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    return tmp, out, cmd, p


def summarize_ogr2ogr(pending, w):
    tmp, out, cmd, p = pending
    try:
        if p.returncode != 0:
            raise EngineError("ogr2ogr rc=%d: %s" % (p.returncode, p.stderr.strip()[-400:]))
        ds = gdal.OpenEx(out, gdal.OF_VECTOR)
        st = _iterate(ds.GetLayer(0), w)
        ds = None
    finally:
        for f in os.listdir(tmp):
            os.unlink(os.path.join(tmp, f))
        os.rmdir(tmp)
    err = [l for l in p.stderr.splitlines() if l.strip()]
    return st, {"command": " ".join(shlex.quote(c) for c in cmd),
                "stderr_lines": len(err), "stderr_head": err[:3]}


def ogr2ogr_clipsrc_cmd(w):
    return [w["path"], w["input"], "-clipsrc"] + [repr(v) for v in w["rect"]]


def run_ogr2ogr_clipsrc(w):
    """Returns what summarize_ogr2ogr needs; only this call is timed."""
    return _ogr2ogr(ogr2ogr_clipsrc_cmd(w))


def run_ogr2ogr_vsgpu(w, plugin_dir):
    env = dict(os.environ, GDAL_DRIVER_PATH=plugin_dir)
    args = ["VSGPU:" + w["path"], "-dialect", "VSGPU", "-sql", vsgpu_sql(w),
            "--config", "VSGPU_EXECUTION_MODE", "CPU",
            "--config", "VSGPU_NUM_THREADS", "ALL_CPUS"]
    return _ogr2ogr(args, env)


# --------------------------------------------------------------------------
# oracle (untimed): GDAL itself on inputs repaired as VSGPU's INVALID=REPAIR
# does (GEOSMakeValid, METHOD=STRUCTURE, invalid geometries only)


def _repaired_copy(mem, src, name):
    dst = mem.CreateLayer(name, src.GetSpatialRef(), src.GetGeomType())
    d = src.GetLayerDefn()
    for i in range(d.GetFieldCount()):
        dst.CreateField(d.GetFieldDefn(i))
    repaired = 0
    src.ResetReading()
    for f in src:
        g = f.GetGeometryRef()
        if g is not None and not g.IsEmpty() and not g.IsValid():
            f.SetGeometry(g.MakeValid(["METHOD=STRUCTURE"]))
            repaired += 1
        f.SetFID(-1)
        dst.CreateFeature(f)
    return dst, repaired


def run_ogr_rect_clip(w):
    """In-process GDAL rectangle clip: OGRLayer.Clip of the input layer by a
    Memory layer holding the rectangle (SKIP_FAILURES=YES,
    KEEP_LOWER_DIMENSION_GEOMETRIES=NO)."""
    return run_repaired_oracle(w, repair=False)


def run_repaired_oracle(w, repair=True):
    """OGRLayer.Intersection / Clip on repaired inputs; a rectangle clip is
    OGRLayer.Clip by a one-rectangle layer."""
    ds = gdal.OpenEx(w["path"], gdal.OF_VECTOR)
    a = ds.GetLayerByName(w["input"])
    mem = ogr.GetDriverByName("Memory").CreateDataSource("oracle")
    if repair:
        ra, na = _repaired_copy(mem, a, "a")
    else:
        ra, na = a, 0
    nb = 0
    if w["op"] == "rectclip":
        xmin, ymin, xmax, ymax = w["rect"]
        rb = mem.CreateLayer("rect", a.GetSpatialRef(), ogr.wkbPolygon)
        f = ogr.Feature(rb.GetLayerDefn())
        f.SetGeometry(ogr.CreateGeometryFromWkt(
            "POLYGON((%r %r,%r %r,%r %r,%r %r,%r %r))" % (
                xmin, ymin, xmax, ymin, xmax, ymax, xmin, ymax, xmin, ymin)))
        rb.CreateFeature(f)
    else:
        rb, nb = _repaired_copy(mem, ds.GetLayerByName(w["method"]), "b") if repair else (
            ds.GetLayerByName(w["method"]), 0)
    out = mem.CreateLayer("result", a.GetSpatialRef(), a.GetGeomType())
    options = ["KEEP_LOWER_DIMENSION_GEOMETRIES=NO", "SKIP_FAILURES=YES"]
    fn = ra.Intersection if w["op"] == "intersection" else ra.Clip
    rc = fn(rb, out, options)
    st = _iterate(out, w)
    mem = ds = None
    return st, {"ogr_rc": rc, "repaired_input": na, "repaired_method": nb}
