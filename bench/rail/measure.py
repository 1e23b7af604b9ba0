"""Every engine's answer measured the same way, and compared with the
reference engine's answer on the same workload.

vsgbench_measure (bench/tools, GDAL's C API) reads the output GeoPackage
and prints features, NULL and empty geometries, vertices, total area,
invalid geometries, geometry types and, for a dissolve, the area of each
group. The comparison turns a difference into words shown in the table
("MISMATCH: area -0.3%", "3 NULL groups"), so that a fast wrong engine can
never look good:

* mismatch (the row is wrong): total area off by more than rtol (relative);
  a different number of polygonal features; NULL geometries (GDAL's SQLite
  dialect turns a GEOS failure into NULL); for a dissolve, groups missing,
  added, or off by more than rtol in area.
* note (the row differs in a way that is no error of area): features that
  are not polygons (points, lines, collections: the SQLite join keeps the
  lower-dimension pieces of an intersection, and so does OGRLayer::
  Intersection on a layer of type Unknown; VSGPU drops them by default),
  empty or invalid geometries.

The copy row (engine "copy", the I/O floor) answers nothing and is not
compared: its check says how many input features it copied ("floor"), or
that it copied fewer than the inputs hold ("short copy").
"""
import json
import os
import subprocess

from . import engines, gpkg


class MeasureError(RuntimeError):
    pass


def output_layer(path, preferred):
    """The layer to measure in an engine's output file: `preferred` when it
    is there, else the file's only (first) feature table."""
    tables = gpkg.feature_tables(path)
    if preferred in tables or not tables:
        return preferred
    return tables[0]


def measure(tools_dir, path, layer, group_field=None, timeout_s=300):
    """vsgbench_measure's JSON for one layer; MeasureError on failure."""
    tool = os.path.join(tools_dir, "vsgbench_measure")
    argv = [tool, path, layer] + (["--group", group_field] if group_field else [])
    try:
        p = subprocess.run(argv, capture_output=True, text=True, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        raise MeasureError("vsgbench_measure timed out after %d s" % timeout_s)
    except OSError as e:
        raise MeasureError("cannot run %s: %s" % (tool, e))
    if p.returncode != 0:
        raise MeasureError("vsgbench_measure rc=%d: %s" % (
            p.returncode, (p.stderr or p.stdout).strip()[-300:]))
    try:
        return json.loads(p.stdout)
    except ValueError:
        raise MeasureError("vsgbench_measure printed no JSON: %r" % p.stdout[-200:])


def _type_counts(m):
    """(polygonal, other) feature counts from geometry_types; a collection
    counts as other even when it holds a polygon."""
    poly = other = 0
    for name, n in (m.get("geometry_types") or {}).items():
        if "POLYGON" in name.upper().replace(" ", "") or "SURFACE" in name.upper():
            poly += n
        else:
            other += n
    return poly, other


def _pct(x):
    return "%+.3g%%" % (100.0 * x)


def _rel(a, b):
    """Relative difference of a against b (b the reference)."""
    if b == 0:
        return 0.0 if a == 0 else float("inf")
    return (a - b) / abs(b)


def compare(ref, m, op, rtol):
    """(mismatches, notes): lists of short phrases, empty when m agrees with
    the reference ref (both vsgbench_measure dicts)."""
    mism, notes = [], []
    nulls = int(m.get("null_geometries") or 0)
    if nulls:
        what = "group" if op == "dissolve" else "geometr"
        mism.append("%d NULL %s" % (nulls, what + ("s" if nulls > 1 else "") if op == "dissolve"
                                    else what + ("ies" if nulls > 1 else "y")))
    ra, a = float(ref.get("total_area") or 0.0), float(m.get("total_area") or 0.0)
    rel = _rel(a, ra)
    if abs(rel) > rtol:
        mism.append("area " + _pct(rel))
    rp, ro = _type_counts(ref)
    mp, mo = _type_counts(m)
    if mp != rp:
        mism.append("%d polygonal features, reference %d" % (mp, rp))
    if mo > ro:
        notes.append("%d non-polygon features" % (mo - ro))
    empty = int(m.get("empty_geometries") or 0) - int(ref.get("empty_geometries") or 0)
    if empty > 0:
        notes.append("%d empty geometries" % empty)
    inv = int(m.get("invalid") or 0)
    if inv > int(ref.get("invalid") or 0):
        notes.append("%d invalid geometries" % inv)
    rg, g = ref.get("groups"), m.get("groups")
    if op == "dissolve" and isinstance(rg, dict) and isinstance(g, dict):
        missing = [k for k in rg if k not in g]
        extra = [k for k in g if k not in rg]
        floor = 1e-12 * max(abs(ra), 1e-300)
        off = []
        for k in rg:
            if k in g:
                d = abs(float(g[k]) - float(rg[k]))
                if d > rtol * abs(float(rg[k])) and d > floor:
                    off.append((k, _rel(float(g[k]), float(rg[k]))))
        if missing:
            mism.append("%d groups missing" % len(missing))
        if extra:
            mism.append("%d extra groups" % len(extra))
        if off:
            worst = max(off, key=lambda t: abs(t[1]))
            mism.append("%d group areas off (worst %s: %s)" % (len(off), worst[0], _pct(worst[1])))
    return mism, notes


def check_text(status, mism, notes):
    """The correctness cell of the table."""
    if status == "reference":
        text = "reference"
    elif status == "ok":
        text = "ok"
    elif status == "mismatch":
        text = "MISMATCH: " + "; ".join(mism)
    else:
        text = status
    if notes:
        text += " (" + "; ".join(notes) + ")"
    return text



def check_floor(r):
    """The copy row: no answer to compare, only whether it copied every
    input feature (status "floor", or "short copy" when it did not)."""
    c, out = r["check"], r["output"] or {"error": "not counted"}
    if "error" in out:
        c["status"], c["text"] = "floor", "I/O floor (uncounted: %s)" % out["error"]
        return
    n, want = out.get("features"), out.get("expected_features")
    if want is not None and n != want:
        c["status"] = "short copy"
        c["mismatches"] = ["copied %s of %s input features" % (n, want)]
        c["text"] = "SHORT COPY: " + c["mismatches"][0]
    else:
        c["status"], c["text"] = "floor", "I/O floor (%s features copied)" % n


def check_workload(recs, ref_key, w, rtol):
    """Fill the check of every row of one workload (recs) against the row of
    the reference engine ref_key."""
    ref = next((r for r in recs if r["engine"] == ref_key), None)
    ref_out = ref["output"] if ref and ref["status"] == "ok" else None
    if ref_out and "error" in ref_out:
        ref_out = None
    for r in recs:
        c = r["check"]
        if r["status"] != "ok":
            c["status"] = "unchecked"
            c["text"] = r["status"]
            continue
        if r["engine"] == engines.FLOOR_KEY:
            check_floor(r)
            continue
        out = r["output"] or {"error": "not measured"}
        if "error" in out:
            c["status"], c["text"] = "unmeasured", "unmeasured: " + out["error"]
            continue
        if r is ref:
            _, notes = compare(out, out, w["op"], rtol)
            nulls = int(out.get("null_geometries") or 0)
            if nulls:
                notes.append("%d NULL geometries" % nulls)
            c["status"], c["notes"] = "reference", notes
        elif ref_out is None:
            c["status"] = "no reference"
        else:
            mism, notes = compare(ref_out, out, w["op"], rtol)
            c["status"] = "mismatch" if mism else "ok"
            c["mismatches"], c["notes"] = mism, notes
        c["text"] = check_text(c["status"], c["mismatches"], c["notes"])


# --------------------------------------------------------------------------
