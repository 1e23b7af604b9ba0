"""Builders of broken input files, written byte by byte (OGR's writers would
refuse or repair what these files must contain).

* write_polygon_shapefile(): an ESRI shapefile (.shp/.shx/.dbf) whose rings
  are written as given, closed or not.
* write_gpkg_with_blobs(): a GeoPackage whose geometry blobs are set to
  arbitrary bytes (unclosed rings, NaN coordinates, truncated or garbage WKB).

Everything is deterministic: the same arguments give the same bytes.
"""

import sqlite3
import struct

from osgeo import ogr

SHPT_POLYGON = 5


def _bbox(points):
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def _shp_header(file_len_bytes, bbox):
    h = struct.pack(">i", 9994) + b"\0" * 20 + struct.pack(">i", file_len_bytes // 2)
    h += struct.pack("<ii", 1000, SHPT_POLYGON)
    h += struct.pack("<8d", bbox[0], bbox[1], bbox[2], bbox[3], 0.0, 0.0, 0.0, 0.0)
    return h


def write_polygon_shapefile(base_path, features):
    """features: list of (rings, n) where rings is a list of [(x, y), ...]
    written verbatim (no closing point added) and n an integer attribute.
    Writes base_path + .shp/.shx/.dbf; returns the .shp path."""
    records = []
    all_points = []
    for rings, _ in features:
        pts = [p for r in rings for p in r]
        all_points += pts
        parts, start = [], 0
        for r in rings:
            parts.append(start)
            start += len(r)
        content = struct.pack("<i", SHPT_POLYGON) + struct.pack("<4d", *_bbox(pts))
        content += struct.pack("<ii", len(rings), len(pts))
        content += b"".join(struct.pack("<i", p) for p in parts)
        content += b"".join(struct.pack("<dd", x, y) for x, y in pts)
        records.append(content)
    bbox = _bbox(all_points)

    shp_body = b""
    shx_body = b""
    offset = 100
    for i, content in enumerate(records, start=1):
        shx_body += struct.pack(">ii", offset // 2, len(content) // 2)
        rec = struct.pack(">ii", i, len(content) // 2) + content
        shp_body += rec
        offset += len(rec)
    with open(base_path + ".shp", "wb") as f:
        f.write(_shp_header(100 + len(shp_body), bbox) + shp_body)
    with open(base_path + ".shx", "wb") as f:
        f.write(_shp_header(100 + len(shx_body), bbox) + shx_body)

    # dBASE III table with one numeric field "n" (width 10).
    width = 10
    header_len = 32 + 32 + 1
    rec_len = 1 + width
    dbf = struct.pack("<B3BIHH20x", 0x03, 124, 1, 1, len(features), header_len, rec_len)
    dbf += b"n".ljust(11, b"\0") + b"N" + b"\0" * 4 + bytes([width, 0]) + b"\0" * 14
    dbf += b"\x0d"
    for _, n in features:
        dbf += b" " + str(n).rjust(width).encode("ascii")
    dbf += b"\x1a"
    with open(base_path + ".dbf", "wb") as f:
        f.write(dbf)
    return base_path + ".shp"


def wkb_polygon(rings, byte_order="<"):
    """ISO WKB of a polygon whose rings are written verbatim."""
    bo = 1 if byte_order == "<" else 0
    out = bytes([bo]) + struct.pack(byte_order + "II", 3, len(rings))
    for r in rings:
        out += struct.pack(byte_order + "I", len(r))
        out += b"".join(struct.pack(byte_order + "dd", x, y) for x, y in r)
    return out


def gpkg_blob(wkb, srs_id=0):
    """GeoPackage geometry blob: magic, version 0, flags (little endian, no
    envelope), srs_id, then the WKB."""
    return b"GP" + bytes([0, 0b00000001]) + struct.pack("<i", srs_id) + wkb


def write_gpkg_with_blobs(path, layer, blobs, geom_type=ogr.wkbPolygon):
    """Creates a GeoPackage layer with an integer field `n` and one feature per
    entry of blobs (n = index, fid = index + 1), then overwrites each geometry
    blob with the given bytes (None = SQL NULL). No spatial index, so no
    trigger looks at the blobs."""
    ds = ogr.GetDriverByName("GPKG").CreateDataSource(path)
    lyr = ds.CreateLayer(layer, geom_type=geom_type, options=["SPATIAL_INDEX=NO"])
    lyr.CreateField(ogr.FieldDefn("n", ogr.OFTInteger))
    for i in range(len(blobs)):
        f = ogr.Feature(lyr.GetLayerDefn())
        f["n"] = i
        f.SetGeometry(ogr.CreateGeometryFromWkt("POLYGON((0 0,0 1,1 1,1 0,0 0))"))
        lyr.CreateFeature(f)
    ds = None
    con = sqlite3.connect(path)
    try:
        for i, blob in enumerate(blobs):
            con.execute('UPDATE "%s" SET geom = ? WHERE n = ?' % layer, (blob, i))
        con.commit()
    finally:
        con.close()
    return path
