"""A minimal GeoPackage writer and reader on the standard library's sqlite3.

The GPU host has no GDAL Python bindings, so the benchmark workloads are
written here directly: the four GeoPackage header tables, one feature table
per layer whose geometries are GeoPackage blobs ('GP' header with the XY
envelope, then little-endian ISO WKB), and the R-tree spatial index
(gpkg_rtree_index extension: the rtree virtual table and its rows) so that
GDAL's and SQLite's spatial filters use it. The files are written once and
read only, so the triggers that keep the R-tree in step with later edits are
left out; GDAL opens them read-only without complaint (it would re-create the
triggers if it opened one for update).

Every value is fixed by the input (no timestamps), so the same layers give
the same bytes: the workloads are deterministic down to the file.
"""
import os
import sqlite3
import struct


GPKG_APPLICATION_ID = 0x47504B47  # 'GPKG'
GPKG_USER_VERSION = 10200         # GeoPackage 1.2, what GDAL 3.6 writes
FIXED_TIME = "2000-01-01T00:00:00.000Z"

WGS84_WKT = (
    'GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563,'
    'AUTHORITY["EPSG","7030"]],AUTHORITY["EPSG","6326"]],PRIMEM["Greenwich",0,'
    'AUTHORITY["EPSG","8901"]],UNIT["degree",0.0174532925199433,'
    'AUTHORITY["EPSG","9122"]],AXIS["Latitude",NORTH],AXIS["Longitude",EAST],'
    'AUTHORITY["EPSG","4326"]]')

# srs_id -1: "undefined Cartesian", which the synthetic workloads use (plain
# planar coordinates in metres-like units; GDAL reads it as no CRS).
SRS_UNDEFINED_CARTESIAN = -1

_HEADER_SQL = [
    """CREATE TABLE gpkg_spatial_ref_sys (srs_name TEXT NOT NULL,
       srs_id INTEGER NOT NULL PRIMARY KEY, organization TEXT NOT NULL,
       organization_coordsys_id INTEGER NOT NULL, definition TEXT NOT NULL,
       description TEXT)""",
    """CREATE TABLE gpkg_contents (table_name TEXT NOT NULL PRIMARY KEY,
       data_type TEXT NOT NULL, identifier TEXT UNIQUE,
       description TEXT DEFAULT '', last_change DATETIME NOT NULL DEFAULT
       (strftime('%Y-%m-%dT%H:%M:%fZ','now')), min_x DOUBLE, min_y DOUBLE,
       max_x DOUBLE, max_y DOUBLE, srs_id INTEGER,
       CONSTRAINT fk_gc_r_srs_id FOREIGN KEY (srs_id) REFERENCES
       gpkg_spatial_ref_sys(srs_id))""",
    """CREATE TABLE gpkg_geometry_columns (table_name TEXT NOT NULL,
       column_name TEXT NOT NULL, geometry_type_name TEXT NOT NULL,
       srs_id INTEGER NOT NULL, z TINYINT NOT NULL, m TINYINT NOT NULL,
       CONSTRAINT pk_geom_cols PRIMARY KEY (table_name, column_name),
       CONSTRAINT uk_gc_table_name UNIQUE (table_name),
       CONSTRAINT fk_gc_tn FOREIGN KEY (table_name) REFERENCES
       gpkg_contents(table_name), CONSTRAINT fk_gc_srs FOREIGN KEY (srs_id)
       REFERENCES gpkg_spatial_ref_sys (srs_id))""",
    """CREATE TABLE gpkg_extensions (table_name TEXT, column_name TEXT,
       extension_name TEXT NOT NULL, definition TEXT NOT NULL,
       scope TEXT NOT NULL, CONSTRAINT ge_tce UNIQUE (table_name,
       column_name, extension_name))""",
    # GDAL's own extension: the cached feature count (read by GetFeatureCount)
    """CREATE TABLE gpkg_ogr_contents (table_name TEXT NOT NULL PRIMARY KEY,
       feature_count INTEGER DEFAULT NULL)""",
]

_SRS_ROWS = [
    ("Undefined cartesian SRS", -1, "NONE", -1, "undefined",
     "undefined cartesian coordinate reference system"),
    ("Undefined geographic SRS", 0, "NONE", 0, "undefined",
     "undefined geographic coordinate reference system"),
    ("WGS 84 geodetic", 4326, "EPSG", 4326, WGS84_WKT,
     "longitude/latitude coordinates in decimal degrees on the WGS 84 spheroid"),
]

_SQL_TYPES = {"INTEGER": "INTEGER", "TEXT": "TEXT", "REAL": "REAL"}


class Layer:
    """name; geometry_type 'POLYGON' or 'MULTIPOLYGON'; polys (polys.Polys);
    fields: list of (name, 'INTEGER'|'TEXT'|'REAL', values) with one value
    per feature."""

    def __init__(self, name, geometry_type, polys, fields=(), description=""):
        if geometry_type not in ("POLYGON", "MULTIPOLYGON"):
            raise ValueError("unsupported geometry type %s" % geometry_type)
        if geometry_type == "POLYGON" and len(polys.part_off) != len(polys.feat_off):
            raise ValueError("a POLYGON layer needs one part per feature")
        for fname, ftype, values in fields:
            if ftype not in _SQL_TYPES or len(values) != polys.features:
                raise ValueError("bad field %s" % fname)
        self.name, self.geometry_type, self.polys = name, geometry_type, polys
        self.fields, self.description = list(fields), description


def _blobs(layer, srs_id):
    """GeoPackage geometry blobs of every feature, and their envelopes.

    The headers are packed with struct and the coordinates copied as raw
    little-endian doubles straight from the numpy array; the loop is per
    feature (a few hundred thousand at most), never per vertex."""
    p = layer.polys
    env = p.feature_bounds()
    multi = layer.geometry_type == "MULTIPOLYGON"
    coords = p.coords.astype("<f8", copy=False)
    ring_off, part_off, feat_off = (p.ring_off.tolist(), p.part_off.tolist(),
                                    p.feat_off.tolist())
    gp = struct.Struct("<2sBBi4d")      # magic, version, flags, srs, envelope
    poly_head = struct.Struct("<BII")   # byte order, type 3, ring count
    ring_head = struct.Struct("<I")
    multi_head = struct.Struct("<BII")  # byte order, type 6, part count
    flags = 0x01 | (1 << 1)             # little endian, XY envelope
    out = []
    for f in range(p.features):
        e = env[f]
        chunks = [gp.pack(b"GP", 0, flags, srs_id, e[0], e[1], e[2], e[3])]
        p0, p1 = feat_off[f], feat_off[f + 1]
        if multi:
            chunks.append(multi_head.pack(1, 6, p1 - p0))
        for part in range(p0, p1):
            r0, r1 = part_off[part], part_off[part + 1]
            chunks.append(poly_head.pack(1, 3, r1 - r0))
            for r in range(r0, r1):
                s, t = ring_off[r], ring_off[r + 1]
                chunks.append(ring_head.pack(t - s))
                chunks.append(coords[s:t].tobytes())
        out.append(b"".join(chunks))
    return out, env


def write(path, layers, srs_id=SRS_UNDEFINED_CARTESIAN, srs_row=None):
    """Write layers into a new GeoPackage at path (replaced if present).
    srs_row: a gpkg_spatial_ref_sys row (6 values, e.g. from srs_row_of())
    when srs_id is not one of the three every GeoPackage has."""
    tmp = path + ".tmp"
    for f in (tmp, path):
        if os.path.exists(f):
            os.remove(f)
    con = sqlite3.connect(tmp)
    try:
        con.execute("PRAGMA application_id = %d" % GPKG_APPLICATION_ID)
        con.execute("PRAGMA user_version = %d" % GPKG_USER_VERSION)
        con.execute("PRAGMA journal_mode = OFF")
        con.execute("PRAGMA synchronous = OFF")
        con.execute("BEGIN")
        for sql in _HEADER_SQL:
            con.execute(sql)
        con.executemany("INSERT INTO gpkg_spatial_ref_sys VALUES (?,?,?,?,?,?)",
                        _SRS_ROWS)
        if srs_row is not None and srs_row[1] not in (-1, 0, 4326):
            con.execute("INSERT INTO gpkg_spatial_ref_sys VALUES (?,?,?,?,?,?)",
                        tuple(srs_row))
        for layer in layers:
            _write_layer(con, layer, srs_id)
        con.execute("COMMIT")
    finally:
        con.close()
    os.replace(tmp, path)


def _write_layer(con, layer, srs_id):
    t = layer.name
    geom_col = "geom"
    blobs, env = _blobs(layer, srs_id)
    cols = ['"fid" INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL',
            '"%s" %s' % (geom_col, layer.geometry_type)]
    cols += ['"%s" %s' % (n, _SQL_TYPES[ty]) for n, ty, _ in layer.fields]
    con.execute('CREATE TABLE "%s" (%s)' % (t, ", ".join(cols)))
    nf = len(blobs)
    fids = range(1, nf + 1)
    values = [list(fids), blobs]
    for _, ty, vals in layer.fields:
        # None stays NULL (the tiled copies of real layers may carry some)
        if ty == "INTEGER":
            values.append([None if v is None else int(v) for v in vals])
        elif ty == "REAL":
            values.append([None if v is None else float(v) for v in vals])
        else:
            values.append([None if v is None else str(v) for v in vals])
    marks = ",".join("?" * len(values))
    con.executemany('INSERT INTO "%s" VALUES (%s)' % (t, marks), zip(*values))

    xmin, ymin, xmax, ymax = layer.polys.bounds()
    con.execute("INSERT INTO gpkg_contents VALUES (?,?,?,?,?,?,?,?,?,?)",
                (t, "features", t, layer.description, FIXED_TIME,
                 xmin, ymin, xmax, ymax, srs_id))
    con.execute("INSERT INTO gpkg_geometry_columns VALUES (?,?,?,?,0,0)",
                (t, geom_col, layer.geometry_type, srs_id))
    con.execute("INSERT INTO gpkg_ogr_contents VALUES (?,?)", (t, nf))

    rtree = "rtree_%s_%s" % (t, geom_col)
    con.execute('CREATE VIRTUAL TABLE "%s" USING rtree(id, minx, maxx, miny, maxy)'
                % rtree)
    con.executemany('INSERT INTO "%s" VALUES (?,?,?,?,?)' % rtree,
                    zip(fids, *(env[:, k].tolist() for k in range(4))))
    con.execute("INSERT INTO gpkg_extensions VALUES (?,?,?,?,?)",
                (t, geom_col, "gpkg_rtree_index",
                 "http://www.geopackage.org/spec120/#extension_rtree",
                 "write-only"))


# ---- reading: counts and extents of existing GeoPackages (no GDAL) --------

_ENVELOPE_DOUBLES = {0: 0, 1: 4, 2: 6, 3: 6, 4: 8}


def _wkb_vertices(buf, pos):
    """(vertices, new position) of the WKB geometry at buf[pos]. Ring
    closing points are counted, as OGR counts them."""
    le = buf[pos] == 1
    u32 = "<I" if le else ">I"
    (code,) = struct.unpack_from(u32, buf, pos + 1)
    pos += 5
    base, dims = code % 1000, 2 + (code // 1000 in (1, 2)) + (code // 1000 == 3) * 2
    # EWKB-style high bits (Z 0x80000000, M 0x40000000), as GDAL may write
    if code & 0x80000000 or code & 0x40000000:
        base = code & 0xFFFF
        dims = 2 + bool(code & 0x80000000) + bool(code & 0x40000000)
    if base == 1:                      # Point
        return 1, pos + 8 * dims
    if base == 2:                      # LineString
        (n,) = struct.unpack_from(u32, buf, pos)
        return n, pos + 4 + 8 * dims * n
    if base == 3:                      # Polygon
        (nr,) = struct.unpack_from(u32, buf, pos)
        pos += 4
        total = 0
        for _ in range(nr):
            (n,) = struct.unpack_from(u32, buf, pos)
            total += n
            pos += 4 + 8 * dims * n
        return total, pos
    if base in (4, 5, 6, 7):           # Multi* and GeometryCollection
        (ng,) = struct.unpack_from(u32, buf, pos)
        pos += 4
        total = 0
        for _ in range(ng):
            n, pos = _wkb_vertices(buf, pos)
            total += n
        return total, pos
    raise ValueError("unsupported WKB geometry type %d" % code)


def blob_vertices(blob):
    """Vertex count of one GeoPackage geometry blob (0 for NULL/empty)."""
    if blob is None:
        return 0
    if blob[:2] != b"GP":
        raise ValueError("not a GeoPackage geometry blob")
    flags = blob[3]
    if flags & 0x10:                   # empty geometry
        return 0
    n_env = _ENVELOPE_DOUBLES.get((flags >> 1) & 7)
    if n_env is None:
        raise ValueError("bad GeoPackage envelope indicator")
    n, _ = _wkb_vertices(blob, 8 + 8 * n_env)
    return n


def srs_row_of(path, layer):
    """The gpkg_spatial_ref_sys row of a layer of an existing GeoPackage (to
    write a companion layer in the same CRS)."""
    con = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    try:
        return con.execute(
            "SELECT s.srs_name, s.srs_id, s.organization, "
            "s.organization_coordsys_id, s.definition, s.description "
            "FROM gpkg_spatial_ref_sys s JOIN gpkg_geometry_columns g "
            "ON g.srs_id = s.srs_id WHERE g.table_name = ?", (layer,)).fetchone()
    finally:
        con.close()


def layer_facts(path, layer):
    """{'features', 'vertices', 'extent': [xmin, ymin, xmax, ymax]} of a
    layer of an existing GeoPackage, read with sqlite3 alone."""
    con = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    try:
        (col,) = con.execute(
            "SELECT column_name FROM gpkg_geometry_columns WHERE table_name = ?",
            (layer,)).fetchone()
        nf = nv = 0
        for (blob,) in con.execute('SELECT "%s" FROM "%s"' % (col, layer)):
            nf += 1
            nv += blob_vertices(blob)
        ext = con.execute(
            "SELECT min_x, min_y, max_x, max_y FROM gpkg_contents WHERE table_name = ?",
            (layer,)).fetchone()
        if ext is None or None in ext:   # optional columns: the R-tree has it
            ext = con.execute(
                'SELECT min(minx), min(miny), max(maxx), max(maxy) FROM "rtree_%s_%s"'
                % (layer, col)).fetchone()
    finally:
        con.close()
    return {"features": nf, "vertices": nv, "extent": [float(v) for v in ext]}
