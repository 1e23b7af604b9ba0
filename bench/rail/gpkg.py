"""What a GeoPackage holds, read with the standard library's sqlite3.

The rail needs, for each layer it hands to an engine, the geometry column
(ST_Union takes it by name), the FID column and the attribute columns (the
SQLite join names them), and whether the GeoPackage R-tree exists (the
SQLite join's pre-filter joins it). A GeoPackage is an SQLite database with
these facts in gpkg_contents and gpkg_geometry_columns, so no GDAL binding
is needed; ogrinfo is the fallback for other formats.
"""
import re
import sqlite3
import subprocess


class LayerInfo:
    """Columns of one layer. fields excludes the FID and geometry columns."""

    __slots__ = ("path", "layer", "geom", "fid", "fields", "rtree")

    def __init__(self, path, layer, geom="geom", fid="fid", fields=(), rtree=None):
        self.path = path
        self.layer = layer
        self.geom = geom
        self.fid = fid
        self.fields = list(fields)
        self.rtree = rtree

    def as_dict(self):
        return {k: getattr(self, k) for k in self.__slots__}


def _connect(path):
    return sqlite3.connect("file:%s?mode=ro" % path, uri=True)


def feature_tables(path):
    """Names of the feature tables of a GeoPackage, in gpkg_contents order;
    [] when the file is not a GeoPackage or cannot be read."""
    try:
        with _connect(path) as db:
            rows = db.execute(
                "SELECT table_name FROM gpkg_contents WHERE data_type = 'features' "
                "ORDER BY rowid").fetchall()
        return [r[0] for r in rows]
    except sqlite3.Error:
        return []


def feature_counts(path):
    """{table: rows} of every feature table of a GeoPackage (the copy
    engine's output: counted, no geometry read). sqlite3.Error when the
    file cannot be read."""
    with _connect(path) as db:
        names = [r[0] for r in db.execute(
            "SELECT table_name FROM gpkg_contents WHERE data_type = 'features' "
            "ORDER BY rowid").fetchall()]
        return {n: db.execute('SELECT COUNT(*) FROM "%s"' % n.replace('"', '""')).fetchone()[0]
                for n in names}


def _from_sqlite(path, layer):
    with _connect(path) as db:
        row = db.execute(
            "SELECT column_name FROM gpkg_geometry_columns WHERE lower(table_name) = lower(?)",
            (layer,)).fetchone()
        if row is None:
            return None
        geom = row[0]
        cols = db.execute('PRAGMA table_info("%s")' % layer.replace('"', '""')).fetchall()
        fid = next((c[1] for c in cols if c[5] == 1), "fid")
        fields = [c[1] for c in cols if c[1] not in (fid, geom)]
        rtree_name = "rtree_%s_%s" % (layer, geom)
        hit = db.execute("SELECT name FROM sqlite_master WHERE name = ?",
                         (rtree_name,)).fetchone()
        return LayerInfo(path, layer, geom, fid, fields, rtree_name if hit else None)


def _from_ogrinfo(path, layer):
    """Fallback for non-GeoPackage sources: ogrinfo -so names the columns."""
    p = subprocess.run(["ogrinfo", "-ro", "-so", "-nomd", path, layer],
                       capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        raise RuntimeError("ogrinfo -so %s %s failed: %s" % (path, layer, p.stderr.strip()[-300:]))
    geom = re.search(r"^Geometry Column = (.+)$", p.stdout, re.M)
    fid = re.search(r"^FID Column = (.+)$", p.stdout, re.M)
    fields = re.findall(r"^(\S[^:]*): \w+ \(", p.stdout, re.M)
    return LayerInfo(path, layer, geom.group(1).strip() if geom else "geom",
                     fid.group(1).strip() if fid else "fid", fields, None)


def layer_info(path, layer):
    """LayerInfo of path/layer (GeoPackage through sqlite3, else ogrinfo)."""
    try:
        info = _from_sqlite(path, layer)
        if info is not None:
            return info
    except sqlite3.Error:
        pass
    return _from_ogrinfo(path, layer)
