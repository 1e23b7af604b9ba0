"""The "tiled" workloads: real layers of data/, repeated in a k x k grid of
translated copies until each workload holds a vertex target (input + method
vertices, default 10 M), so the rail runs at the large scale on real,
skewed data (many tiny and a few huge polygons, dense coasts and empty
ocean) rather than on the generated tessellations' even cells.

Copy (i, j), 0 <= i, j < k, is the source translated by (i * dx, j * dy),
with dx, dy = 1.02 x the width, height of the source layers' common extent:
the copies do not touch, and the layers of one workload (counties and
states; boroughs and their grid) are tiled with the same offsets, so what
met in the source meets, bit for bit, in every copy. k is the least with
k * k * (input + method vertices of one copy) >= the target.

The sources are read with sqlite3 alone (GeoPackage blobs, WKB Polygon or
MultiPolygon in either byte order; Z and M dropped); NULL and empty
geometries are dropped and counted (the counties have one empty). Rings are
kept as the source has them (orientation included). Every attribute of the
source is kept, plus `tile` (the copy number, j * k + i). The output is
written with gpkg.write, in the source's CRS row, as MULTIPOLYGON layers
(the 10 x 10 grid laid over each copy of the boroughs, the 24 x 24 grid over
each copy of the world's countries, as POLYGON).

The dissolves group by (tile, state), tile alone, and (tile, state) on
"overlap": each copy's counties followed by the same counties translated by
OVERLAP_SHIFT x a typical county size on each axis (attribute `shifted` 0 /
1), so that members of a group overlap; "overlap" has twice the counties'
vertices per copy, hence its own k. "buffers" is what a dissolve of buffers
looks like: a BUFFER_SIDES-gon of radius BUFFER_RADIUS x a typical county
size around the centre of each county's box, with the county's attributes,
so that each point of a state lies in several of its members (dense
overlaps, many crossings, little of the members' boundaries left).

Workloads that tile the same source with the same k share one file,
DIR/tiled_<source>_<k>x<k>.gpkg, holding the layers of every such workload
of the scale (whatever --only selects, so the file is the same either way).
"""
import math
import os
import sqlite3
import struct

import numpy as np

import gpkg
import shapes
from polys import Polys

DEFAULT_VERTICES = 10_000_000
ENV_VERTICES = "VSGPU_TILED_VERTICES"
GAP = 1.02                 # copy spacing / source extent, on each axis
# the grid laid over each copy of a group: cells per axis
GRIDS = {"nybb": 10, "world": 24}
# clip_rect: the central ~60 % of the tiled extent on each axis, at no round
# value, so that some copies are inside, some cut and some outside
RECT_FRACTION = (0.2017, 0.1983, 0.8017, 0.7983)

# source group -> (file in data/, source layers in file order)
SOURCES = {
    "counties": ("us_atlas_counties_10m.gpkg", ("counties", "states")),
    "nybb": ("nybb.gpkg", ("nybb",)),
    "world": ("shared/r_spdata_more.gpkg", ("world",)),
}
# layers written per group, in this order ("grid" and "overlap" are generated)
LAYER_ORDER = {"counties": ("counties", "states", "overlap", "buffers"), "nybb": ("nybb", "grid"),
               "world": ("world", "grid")}
# tiled_overlap: each copy's counties plus a second set of them translated by
# this fraction of a typical county size (the median over the counties of
# sqrt(bbox width x bbox height)) on each axis, in one layer
OVERLAP_SHIFT = 0.3
# tiled_buffers: a circle of BUFFER_SIDES sides and of radius BUFFER_RADIUS x
# that typical county size around the centre of each county's box
BUFFER_RADIUS = 1.0
BUFFER_SIDES = 32

# name, op, source group, input layer, method layer or None, description
_TILED = [
    ("tiled_counties_x_states", "intersection", "counties", "counties", "states",
     "US counties intersected with the states"),
    ("tiled_counties_clip_states", "clip", "counties", "counties", "states",
     "US counties clipped by the states"),
    ("tiled_nybb_x_grid", "intersection", "nybb", "nybb", "grid",
     "NYC boroughs intersected with a 10 x 10 grid laid over each copy"),
    ("tiled_world_x_grid", "intersection", "world", "world", "grid",
     "World countries (spData's world, 177 countries) intersected with a 24 x 24 "
     "grid laid over each copy"),
    ("tiled_nybb_clip_rect", "clip_rect", "nybb", "nybb", None,
     "NYC boroughs clipped by a rectangle over the central ~60 % of the tiled "
     "extent"),
    ("tiled_counties_clip_rect", "clip_rect", "counties", "counties", None,
     "US counties clipped by a rectangle over the central ~60 % of the tiled "
     "extent"),
    ("tiled_counties_by_state", "dissolve", "counties", "counties", None,
     "US counties dissolved by (tile, state): the states of every copy, each "
     "its own group (a coverage)"),
    ("tiled_counties_nation", "dissolve", "counties", "counties", None,
     "US counties dissolved by tile: one nation-sized group per copy (a "
     "coverage)"),
    ("tiled_overlap", "dissolve", "counties", "overlap", None,
     "US counties plus a second set of them translated by %d %% of a typical "
     "county size, in one layer, dissolved by (tile, state): members of a "
     "group overlap (not a coverage)" % round(OVERLAP_SHIFT * 100)),
    ("tiled_buffers", "dissolve", "counties", "buffers", None,
     "circles of %d sides and of radius %g x a typical county size around the US "
     "counties' centres (as buffers are), dissolved by (tile, state): dense "
     "overlaps" % (BUFFER_SIDES, BUFFER_RADIUS)),
]

# dissolve keys: name -> (leading key columns, group_by, group_expr). The
# key is (leading columns..., group_by); group_by is the output field of
# group_expr when that is set (the state, substr(id, 1, 2)).
DISSOLVE_KEYS = {
    "tiled_counties_by_state": (["tile"], "st", "substr(id, 1, 2)"),
    "tiled_counties_nation": ([], "tile", None),
    "tiled_overlap": (["tile"], "st", "substr(id, 1, 2)"),
    "tiled_buffers": (["tile"], "st", "substr(id, 1, 2)"),
}

NAMES = [t[0] for t in _TILED]


def data_dir():
    return os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                         "..", "..", "data"))


def target_vertices(value=None):
    """The vertex target: value, else $VSGPU_TILED_VERTICES, else 10 M."""
    if value is None:
        value = os.environ.get(ENV_VERTICES) or DEFAULT_VERTICES
    value = int(value)
    if value < 1:
        raise ValueError("the tiled vertex target must be positive")
    return value


# ---- reading: GeoPackage blobs into Polys ---------------------------------


def _wkb_kind(code):
    """(base type, ordinates per point, extra header bytes) of a WKB type
    code: ISO (1003, 2003, 3003) or EWKB-style high bits."""
    extra = 0
    if code & 0xE0000000:
        dims = 2 + bool(code & 0x80000000) + bool(code & 0x40000000)
        extra = 4 if code & 0x20000000 else 0      # an EWKB SRID
        return code & 0xFFFF, dims, extra
    kind = code // 1000
    dims = {0: 2, 1: 3, 2: 3, 3: 4}.get(kind)
    if dims is None:
        raise ValueError("unsupported WKB geometry type %d" % code)
    return code % 1000, dims, extra


def _wkb_polygon_parts(buf, pos, parts):
    """Append the polygons of the WKB Polygon/MultiPolygon at buf[pos] to
    parts (each a list of (n, 2) float64 rings; empty rings and empty
    polygons left out); returns the position after it."""
    bo = buf[pos]
    if bo not in (0, 1):
        raise ValueError("bad WKB byte order %d" % bo)
    u32, f8 = ("<I", "<f8") if bo == 1 else (">I", ">f8")
    (code,) = struct.unpack_from(u32, buf, pos + 1)
    base, dims, extra = _wkb_kind(code)
    pos += 5 + extra
    if base == 6:
        (n,) = struct.unpack_from(u32, buf, pos)
        pos += 4
        for _ in range(n):
            pos = _wkb_polygon_parts(buf, pos, parts)
        return pos
    if base != 3:
        raise ValueError("not a Polygon or MultiPolygon: WKB type %d" % code)
    (nr,) = struct.unpack_from(u32, buf, pos)
    pos += 4
    rings = []
    for r in range(nr):
        (n,) = struct.unpack_from(u32, buf, pos)
        pos += 4
        if n:
            xy = np.frombuffer(buf, dtype=f8, count=n * dims, offset=pos)
            rings.append(xy.reshape(n, dims)[:, :2].astype(np.float64))
        elif r == 0:
            rings = None                    # an empty exterior: an empty polygon
        pos += 8 * dims * n
        if rings is None:
            pos = _skip_rings(buf, pos, nr - r - 1, u32, dims)
            break
    if rings:
        parts.append(rings)
    return pos


def _skip_rings(buf, pos, count, u32, dims):
    for _ in range(count):
        (n,) = struct.unpack_from(u32, buf, pos)
        pos += 4 + 8 * dims * n
    return pos


_ENVELOPE_DOUBLES = {0: 0, 1: 4, 2: 6, 3: 6, 4: 8}


def blob_parts(blob):
    """The polygons of one GeoPackage geometry blob (a list of lists of
    rings); [] for NULL or empty."""
    if blob is None:
        return []
    blob = bytes(blob)
    if blob[:2] != b"GP":
        raise ValueError("not a GeoPackage geometry blob")
    flags = blob[3]
    if flags & 0x10:
        return []
    n_env = _ENVELOPE_DOUBLES.get((flags >> 1) & 7)
    if n_env is None:
        raise ValueError("bad GeoPackage envelope indicator")
    parts = []
    _wkb_polygon_parts(blob, 8 + 8 * n_env, parts)
    return parts


_FIELD_TYPES = (("INT", "INTEGER"), ("BOOL", "INTEGER"), ("REAL", "REAL"),
                ("DOUB", "REAL"), ("FLOA", "REAL"))


def _field_type(decl):
    d = (decl or "").upper()
    for key, ty in _FIELD_TYPES:
        if key in d:
            return ty
    return "TEXT"


class Source:
    """One polygon layer read from a GeoPackage: polys (Polys), fields
    [(name, type, values)], dropped (NULL or empty geometries left out)."""

    def __init__(self, polys, fields, dropped, srs_row):
        self.polys, self.fields, self.dropped, self.srs_row = (polys, fields,
                                                               dropped, srs_row)


def read_layer(path, layer):
    """A Source from a layer of an existing GeoPackage (sqlite3 alone)."""
    con = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    try:
        (geom_col,) = con.execute(
            "SELECT column_name FROM gpkg_geometry_columns WHERE table_name = ?",
            (layer,)).fetchone()
        cols = con.execute('PRAGMA table_info("%s")' % layer).fetchall()
        pk = [c[1] for c in cols if c[5]]
        attrs = [(c[1], _field_type(c[2])) for c in cols
                 if c[1] != geom_col and c[1] not in pk]
        order = ('"%s"' % pk[0]) if pk else "rowid"
        sel = ", ".join(['"%s"' % geom_col] + ['"%s"' % n for n, _ in attrs])
        rows = con.execute('SELECT %s FROM "%s" ORDER BY %s' % (sel, layer, order)).fetchall()
    finally:
        con.close()
    rings, ring_len, part_rings, feat_parts, kept = [], [], [], [], []
    dropped = 0
    for idx, row in enumerate(rows):
        parts = blob_parts(row[0])
        if not parts:
            dropped += 1
            continue
        kept.append(idx)
        feat_parts.append(len(parts))
        for part in parts:
            part_rings.append(len(part))
            rings.extend(part)
            ring_len.extend(len(r) for r in part)
    if not kept:
        raise ValueError("%s: layer %s has no polygon" % (path, layer))
    off = lambda counts: np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)  # noqa: E731
    polys = Polys(np.concatenate(rings), off(ring_len), off(part_rings), off(feat_parts))
    fields = [(name, ty, [rows[i][c + 1] for i in kept])
              for c, (name, ty) in enumerate(attrs)]
    return Source(polys, fields, dropped, gpkg.srs_row_of(path, layer))


# ---- tiling ---------------------------------------------------------------


def tile(p, k, dx, dy):
    """k * k translated copies of p: copy t = j * k + i is p moved by
    (i * dx, j * dy), its features after those of copy t - 1."""
    c = k * k
    t = np.arange(c)
    off = np.stack([(t % k) * dx, (t // k) * dy], axis=1)
    coords = (p.coords[None, :, :] + off[:, None, :]).reshape(-1, 2)

    def rep(o, n):
        return np.concatenate([(o[:-1][None, :] + (t * n)[:, None]).ravel(),
                               [c * n]]).astype(np.int64)

    return Polys(coords, rep(p.ring_off, p.vertices),
                 rep(p.part_off, len(p.ring_off) - 1),
                 rep(p.feat_off, len(p.part_off) - 1))


def tiles_for(per_copy, target):
    """The least k >= 1 with k * k * per_copy >= target."""
    k = max(1, math.isqrt(-(-target // per_copy)))
    while k * k * per_copy < target:
        k += 1
    while k > 1 and (k - 1) ** 2 * per_copy >= target:
        k -= 1
    return k


def _spec(name):
    return next(s for s in _TILED if s[0] == name)


class _Group:
    """The source layers of one group, the grid (nybb) and the spacing."""

    def __init__(self, group):
        fname, layers = SOURCES[group]
        self.path = os.path.join(data_dir(), fname)
        self.layers = {n: read_layer(self.path, n) for n in layers}
        b = np.array([s.polys.bounds() for s in self.layers.values()])
        self.extent = (b[:, 0].min(), b[:, 1].min(), b[:, 2].max(), b[:, 3].max())
        xmin, ymin, xmax, ymax = self.extent
        self.dx, self.dy = (xmax - xmin) * GAP, (ymax - ymin) * GAP
        self.srs_row = self.layers[layers[0]].srs_row
        if group in GRIDS:
            # as realdata's grid: n x n over the extent plus 1 % each side
            mx, my = (xmax - xmin) * 0.01, (ymax - ymin) * 0.01
            cells, row, col = shapes.grid((xmin - mx, ymin - my, xmax + mx, ymax + my),
                                          GRIDS[group])
            n = cells.features
            self.layers["grid"] = Source(cells, [("cell", "INTEGER", range(1, n + 1)),
                                                 ("row", "INTEGER", row),
                                                 ("col", "INTEGER", col)],
                                         0, self.srs_row)
        if group == "counties":
            self.shift = overlap_shift(self.layers["counties"].polys)
            self.layers["overlap"] = overlap_layer(self.layers["counties"], self.shift)
            self.radius = self.shift / OVERLAP_SHIFT * BUFFER_RADIUS
            self.layers["buffers"] = buffers_layer(self.layers["counties"], self.radius)


def overlap_shift(p):
    """OVERLAP_SHIFT x the median of sqrt(bbox width x bbox height) over the
    features of p."""
    b = p.feature_bounds()
    size = np.sqrt((b[:, 1] - b[:, 0]) * (b[:, 3] - b[:, 2]))
    return OVERLAP_SHIFT * float(np.median(size))


def concat(a, b):
    """The features of a, then those of b, in one Polys."""
    def cat(oa, ob, n):
        return np.concatenate([oa, ob[1:] + n])
    return Polys(np.concatenate([a.coords, b.coords]),
                 cat(a.ring_off, b.ring_off, a.vertices),
                 cat(a.part_off, b.part_off, len(a.ring_off) - 1),
                 cat(a.feat_off, b.feat_off, len(a.part_off) - 1))


def overlap_layer(src, shift):
    """The counties, then the same counties translated by (shift, shift),
    with every attribute of the source and `shifted` (0, 1)."""
    p = src.polys
    moved = Polys(p.coords + np.array([shift, shift]), p.ring_off, p.part_off, p.feat_off)
    n = p.features
    fields = [(name, ty, list(v) * 2) for name, ty, v in src.fields]
    fields.append(("shifted", "INTEGER", [0] * n + [1] * n))
    return Source(concat(p, moved), fields, 2 * src.dropped, src.srs_row)


def buffers_layer(src, radius):
    """A closed counter-clockwise BUFFER_SIDES-gon of the given radius
    around the centre of each feature's box, with every attribute of the
    source."""
    b = src.polys.feature_bounds()
    cx, cy = (b[:, 0] + b[:, 1]) / 2, (b[:, 2] + b[:, 3]) / 2
    t = 2 * np.pi * np.arange(BUFFER_SIDES + 1) / BUFFER_SIDES
    t[-1] = 0.0                                   # closed: the first point again
    n = len(cx)
    x = cx[:, None] + radius * np.cos(t)[None, :]
    y = cy[:, None] + radius * np.sin(t)[None, :]
    coords = np.stack([x.ravel(), y.ravel()], axis=1)
    ring_off = np.arange(n + 1, dtype=np.int64) * (BUFFER_SIDES + 1)
    return Source(Polys(coords, ring_off), [(f, ty, list(v)) for f, ty, v in src.fields],
                  src.dropped, src.srs_row)


def _source_vertices():
    """Vertices of one copy of every source layer (the grid's are fixed)."""
    out = {}
    for group, (fname, layers) in SOURCES.items():
        path = os.path.join(data_dir(), fname)
        for n in layers:
            out[(group, n)] = gpkg.layer_facts(path, n)["vertices"]
    for group, n in GRIDS.items():
        out[(group, "grid")] = n * n * 5
    out[("counties", "overlap")] = 2 * out[("counties", "counties")]
    path = os.path.join(data_dir(), SOURCES["counties"][0])
    out[("counties", "buffers")] = (read_layer(path, "counties").polys.features
                                    * (BUFFER_SIDES + 1))
    return out


def plan(names, target):
    """[(file name, group, k, layers, [workload names])]: the files the
    selected workloads need, one job each. A file holds the layers of every
    workload of the scale (selected or not) on the same group and k."""
    verts = _source_vertices()
    ks = {}
    for name, _, group, inp, meth, _ in _TILED:
        per = verts[(group, inp)] + (verts[(group, meth)] if meth else 0)
        ks[name] = (group, tiles_for(per, target))
    files = {}
    for name, _, group, inp, meth, _ in _TILED:
        key = ks[name]
        f = files.setdefault(key, {"layers": set(), "names": []})
        f["layers"].update([inp] + ([meth] if meth else []))
        if name in names:
            f["names"].append(name)
    jobs = []
    for (group, k), f in files.items():
        if f["names"]:
            layers = [n for n in LAYER_ORDER[group] if n in f["layers"]]
            jobs.append(("tiled_%s_%dx%d.gpkg" % (group, k, k), group, k, layers,
                         f["names"]))
    return jobs


def _tiled_fields(src, k):
    c = k * k
    nf = src.polys.features
    fields = [(n, ty, list(v) * c) for n, ty, v in src.fields]
    return fields + [("tile", "INTEGER", np.repeat(np.arange(c), nf).tolist())]


def _copies_vs_rect(group, k, bounds, rect):
    """(inside, cut, outside) copies of a layer's bounds against rect."""
    xmin, ymin, xmax, ymax = bounds
    t = np.arange(k * k)
    x0 = xmin + (t % k) * group.dx
    y0 = ymin + (t // k) * group.dy
    x1, y1 = x0 + (xmax - xmin), y0 + (ymax - ymin)
    inside = (x0 >= rect[0]) & (x1 <= rect[2]) & (y0 >= rect[1]) & (y1 <= rect[3])
    outside = (x1 < rect[0]) | (x0 > rect[2]) | (y1 < rect[1]) | (y0 > rect[3])
    return int(inside.sum()), int((~inside & ~outside).sum()), int(outside.sum())


def generate_file(job, out):
    """Write one planned file; the manifest entries of its selected
    workloads."""
    fname, gname, k, layer_names, names = job
    group = _Group(gname)
    tiled = {}
    for ln in layer_names:
        src = group.layers[ln]
        tiled[ln] = tile(src.polys, k, group.dx, group.dy)
    path = os.path.join(out, fname)
    glayers = []
    for ln in layer_names:
        src = group.layers[ln]
        geom = "POLYGON" if ln == "grid" else "MULTIPOLYGON"
        desc = "%s, %d x %d translated copies (dx %r, dy %r)" % (ln, k, k, group.dx,
                                                                  group.dy)
        if ln == "overlap":
            desc = ("counties and the counties translated by (%r, %r) (shifted = 1), "
                    % (group.shift, group.shift)) + desc
        if ln == "buffers":
            desc = ("%d-gons of radius %r around the counties' box centres, "
                    % (BUFFER_SIDES, group.radius)) + desc
        glayers.append(gpkg.Layer(ln, geom, tiled[ln], _tiled_fields(src, k), desc))
    gpkg.write(path, glayers, srs_id=group.srs_row[1], srs_row=group.srs_row)

    entries = []
    for name in names:
        _, op, _, inp, meth, desc = _spec(name)
        p = tiled[inp]
        rect = None
        text = "%s: %d x %d copies of data/%s (spacing %.6g x %.6g)" % (
            desc, k, k, os.path.basename(group.path), group.dx, group.dy)
        dropped = group.layers[inp].dropped
        if dropped:
            text += "; left out of each copy: %d NULL or empty geometries of %s" % (
                dropped, inp)
        if op == "clip_rect":
            xmin, ymin, xmax, ymax = p.bounds()
            w, h = xmax - xmin, ymax - ymin
            rect = [xmin + RECT_FRACTION[0] * w, ymin + RECT_FRACTION[1] * h,
                    xmin + RECT_FRACTION[2] * w, ymin + RECT_FRACTION[3] * h]
            ins, cut, outs = _copies_vs_rect(group, k, group.layers[inp].polys.bounds(),
                                             rect)
            text += ("; rectangle %s: %d copies inside, %d cut, %d outside "
                     "(by their extents)" % (["%.6g" % v for v in rect], ins, cut, outs))
        lead, gb, gx = DISSOLVE_KEYS.get(name, ([], None, None))
        if op == "dissolve":
            text += "; group key (%s)" % ", ".join(lead + [gx or gb])
            if inp == "overlap":
                text += "; shift %.6g on each axis" % group.shift
            if inp == "buffers":
                text += "; radius %.6g" % group.radius
        m = tiled[meth] if meth else None
        entries.append({
            "name": name, "op": op,
            "input": {"path": os.path.abspath(path), "layer": inp},
            "method": {"path": os.path.abspath(path), "layer": meth} if meth else None,
            "rect": rect, "group_by": gb, "group_expr": gx, "group_lead": lead,
            "input_features": p.features, "input_vertices": p.vertices,
            "method_features": m.features if m else 0,
            "method_vertices": m.vertices if m else 0,
            "description": text,
        })
    return entries
