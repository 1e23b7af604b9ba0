#!/usr/bin/python3
"""Writes the seed corpora of the fuzz targets (autotest/fuzz/corpus/<target>)
from what the tests already use, plus hand-made cases:

  parser, sqlguard  the SQL statements of autotest/pyscripts/*.py (string
                    literals that contain SELECT, concatenations included)
                    and of autotest/c/test_parser.c;
  wkb, columnar     WKB of a few small geometries of every layer of data/,
                    of the GEOS XML tests (autotest/data/geos-xml), and
                    hand-made WKB: every simple type in 2D, Z, M and ZM, ISO
                    and EWKB (with SRID), both byte orders, empty forms,
                    unclosed rings, NaN and infinite coordinates, curves,
                    nested collections, truncations; the columnar seeds are
                    also concatenations of two or three geometries;
  options           the option names of driver/ogrvsgpuoptions.cpp with
                    good and bad values, as statement ('K=V'), open ('O:'),
                    configuration ('C:') options and statements ('Q:').

Deterministic: the same sources give the same files (named by the SHA-1 of
their content, as libFuzzer names them). The corpora are kept small (the
whole set well under 1 MB); rerun after adding tests:

    /usr/bin/python3 autotest/fuzz/make_corpus.py
"""
import ast
import glob
import hashlib
import math
import os
import re
import shutil
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
MAX_SQL = 4096
MAX_WKB = 4096


def write_corpus(target, items):
    d = os.path.join(HERE, "corpus", target)
    if os.path.isdir(d):
        shutil.rmtree(d)
    os.makedirs(d)
    seen = set()
    for data in items:
        if isinstance(data, str):
            data = data.encode("utf-8")
        h = hashlib.sha1(data).hexdigest()
        if h in seen:
            continue
        seen.add(h)
        with open(os.path.join(d, h), "wb") as f:
            f.write(data)
    total = sum(os.path.getsize(os.path.join(d, n)) for n in os.listdir(d))
    print("%-9s %4d files, %7d bytes" % (target, len(seen), total))


# ---- SQL ------------------------------------------------------------------

def _py_strings(path):
    """String constants of a Python file, with implicit concatenations and
    the constant parts of f-strings and %-formatting."""
    tree = ast.parse(open(path, encoding="utf-8").read(), path)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.value
        elif isinstance(node, ast.JoinedStr):
            yield "".join(v.value if isinstance(v, ast.Constant) else "x" for v in node.values)


def _c_strings(path):
    """String literals of a C file, adjacent literals joined."""
    text = open(path, encoding="utf-8").read()
    lit = r'"(?:[^"\\\n]|\\.)*"'
    for m in re.finditer(r"(%s(?:\s*%s)*)" % (lit, lit), text):
        parts = re.findall(lit, m.group(1))
        s = "".join(p[1:-1] for p in parts)
        try:
            yield bytes(s, "utf-8").decode("unicode_escape")
        except UnicodeDecodeError:
            continue


def sql_statements():
    out = []
    for path in sorted(glob.glob(os.path.join(ROOT, "autotest", "pyscripts", "*.py"))):
        out += [s for s in _py_strings(path) if re.search(r"\bselect\b", s, re.I)]
    c = os.path.join(ROOT, "autotest", "c", "test_parser.c")
    if os.path.exists(c):
        out += [s for s in _c_strings(c) if re.search(r"\bselect\b", s, re.I)]
    out = [s.replace("%s", "x").replace("%d", "1") for s in out if len(s) <= MAX_SQL]
    # a few shapes the tests may not spell
    out += [
        "SELECT * FROM ST_ClipByRect('/data/x.gpkg'.\"my layer\", -1e3, .5, 2., 1E+2, 'INVALID=SKIP');",
        "select a.\"we\"\"ird\", b.*, st_intersection(a.geom, b.geom) g from t1 a, t2 b "
        "where st_intersects(a.geom, b.geom) and a.x not between -1 and +2 -- c\n",
        "SELECT k || 'x', COUNT(*), ST_Union(geom) FROM t WHERE k NOT IN (1, 2.5, NULL) "
        "AND k ILIKE 'a\\%' AND NOT k IS NOT NULL GROUP BY 1, k /* c */",
        "WITH q AS (SELECT 1) SELECT * FROM q",
        "SELECT * FROM [t]; SELECT `x` FROM \"y\";",
    ]
    return sorted(set(out))


# ---- WKB ------------------------------------------------------------------

def _ogr():
    from osgeo import gdal, ogr
    gdal.UseExceptions()
    return gdal, ogr


def data_wkb(per_layer=6):
    """ISO WKB of the smallest few geometries of every layer of data/."""
    gdal, ogr = _ogr()
    out = []
    for path in sorted(glob.glob(os.path.join(ROOT, "data", "*.gpkg"))):
        ds = ogr.Open(path)
        for lyr in ds:
            sizes = []
            for i, f in enumerate(lyr):
                g = f.GetGeometryRef()
                if g is not None:
                    sizes.append((g.WkbSize(), i, bytes(g.ExportToIsoWkb())))
                if i > 2000:
                    break
            sizes = [s for s in sorted(sizes) if s[0] <= MAX_WKB]
            out += [w for _, _, w in sizes[:per_layer]]
    return out


def geos_xml_wkb(limit=120):
    gdal, ogr = _ogr()
    out = []
    for path in sorted(glob.glob(os.path.join(ROOT, "autotest", "data", "geos-xml", "*", "*.xml"))):
        text = open(path, encoding="utf-8", errors="replace").read()
        for m in re.finditer(r"<(a|b)>(.*?)</\1>", text, re.S):
            s = m.group(2).strip()
            try:
                if re.fullmatch(r"[0-9A-Fa-f]+", s):
                    w = bytes.fromhex(s)
                else:
                    g = ogr.CreateGeometryFromWkt(s)
                    w = bytes(g.ExportToIsoWkb()) if g is not None else None
            except (RuntimeError, ValueError):
                w = None
            if w and len(w) <= MAX_WKB:
                out.append(w)
    out = sorted(set(out), key=lambda w: (len(w), w))
    step = max(1, len(out) // limit)
    return out[::step][:limit]


class W:
    """Hand-made WKB: byte order, ISO or EWKB type codes, Z/M, SRID."""

    def __init__(self, big=False, z=False, m=False, ewkb=False, srid=None):
        self.big, self.z, self.m, self.ewkb, self.srid = big, z, m, ewkb, srid
        self.e = ">" if big else "<"

    def hdr(self, t):
        if self.ewkb:
            code = t | (0x80000000 if self.z else 0) | (0x40000000 if self.m else 0)
            if self.srid is not None:
                code |= 0x20000000
        else:
            code = t + (1000 if self.z and not self.m else 2000 if self.m and not self.z
                        else 3000 if self.z and self.m else 0)
        b = bytes([0 if self.big else 1]) + struct.pack(self.e + "I", code)
        if self.ewkb and self.srid is not None:
            b += struct.pack(self.e + "I", self.srid)
        return b

    def coord(self, x, y):
        vals = [x, y] + ([x + y] if self.z else []) + ([7.0] if self.m else [])
        return struct.pack(self.e + "%dd" % len(vals), *vals)

    def count(self, n):
        return struct.pack(self.e + "I", n)

    def point(self, x, y):
        return self.hdr(1) + self.coord(x, y)

    def point_empty(self):
        n = 2 + self.z + self.m
        return self.hdr(1) + struct.pack(self.e + "%dd" % n, *([math.nan] * n))

    def line(self, pts):
        return self.hdr(2) + self.count(len(pts)) + b"".join(self.coord(*p) for p in pts)

    def polygon(self, rings):
        b = self.hdr(3) + self.count(len(rings))
        for r in rings:
            b += self.count(len(r)) + b"".join(self.coord(*p) for p in r)
        return b

    def multi(self, t, members):
        return self.hdr(t) + self.count(len(members)) + b"".join(members)


SQUARE = [(0, 0), (10, 0), (10, 10), (0, 10), (0, 0)]
HOLE = [(2, 2), (2, 4), (4, 4), (4, 2), (2, 2)]
UNCLOSED = [(0, 0), (10, 0), (10, 10), (0, 10)]


def hand_wkb():
    out = []
    for big in (False, True):
        for z in (False, True):
            for m in (False, True):
                for ewkb, srid in ((False, None), (True, None), (True, 4326)):
                    w = W(big, z, m, ewkb, srid)
                    pt = w.point(1.5, -2.5)
                    ln = w.line([(0, 0), (1, 1), (2, 0)])
                    pg = w.polygon([SQUARE, HOLE])
                    out += [pt, ln, pg, w.point_empty(), w.line([]), w.polygon([]),
                            w.multi(4, [pt, w.point_empty(), w.point(3, 4)]),
                            w.multi(5, [ln, w.line([])]),
                            w.multi(6, [pg, w.polygon([UNCLOSED])]),
                            w.multi(7, [pt, ln, w.multi(7, [pg])])]
                    if not big and not ewkb:
                        out += [w.polygon([UNCLOSED]),
                                w.point(math.nan, 1.0), w.point(math.inf, 0.0),
                                w.line([(0, 0), (math.nan, math.nan)]),
                                w.multi(7, [])]
    w = W()
    # curves and surfaces: unsupported, well formed or not
    out += [w.hdr(8) + w.count(3) + w.coord(0, 0) + w.coord(1, 1) + w.coord(2, 0),
            w.hdr(17) + w.count(0), w.hdr(15) + w.count(1) + w.polygon([SQUARE]),
            w.multi(7, [w.hdr(8) + w.count(0)])]
    # corrupt: wrong member type, bad byte order, huge counts, deep nesting,
    # truncations, unknown type codes
    pg = w.polygon([SQUARE])
    out += [w.multi(6, [w.point(0, 0)]), b"\x02" + pg[1:],
            w.hdr(2) + struct.pack("<I", 0xFFFFFFFF) + w.coord(0, 0),
            w.hdr(3) + w.count(1) + struct.pack("<I", 0x7FFFFFFF),
            w.hdr(6) + struct.pack("<I", 0x10000000),
            struct.pack("<BI", 1, 99) + w.count(0), struct.pack("<BI", 1, 4001),
            b"", b"\x01", pg[:4], pg[:13], pg[:-1]]
    deep = w.point(1, 2)
    for _ in range(40):
        deep = w.multi(7, [deep])
    out += [deep]
    return out


def columnar_wkb(single):
    """Single geometries, and a few concatenations (one batch row each)."""
    small = [s for s in single if len(s) <= 512]
    out = list(single)
    for i in range(0, len(small) - 2, 7):
        out.append(small[i] + small[i + 1])
        out.append(small[i] + small[i + 1] + small[i + 2] + b"\x00\x00")
    return out


# ---- options --------------------------------------------------------------

def option_lines():
    src = open(os.path.join(ROOT, "driver", "ogrvsgpuoptions.cpp"), encoding="utf-8").read()
    decls = re.findall(r'\{"([A-Z_]+)", (?:"(VSGPU_[A-Z_]+)"|nullptr), Kind::(\w+), "([^"]*)"', src)
    values = {
        "Bool": ["YES", "no", "ON", "0", "maybe"],
        "String": ["", "p_", "x=y"],
        "Invalid": ["REPAIR", "skip", "ERROR", "FIX"],
        "CrsMismatch": ["ERROR", "REPROJECT", "ignore", "X"],
        "MethodSources": ["LOCAL", "ANY", "all"],
        "Mode": ["AUTO", "cpu", "GPU", "TPU"],
        "Threads": ["ALL_CPUS", "1", "256", "0", "-1", "2147483648", "4x"],
        "PositiveInt": ["16384", "1", "0", "99999999999", " 7", "7 "],
        "Device": ["0", "1", "-1", "00"],
        "Bytes": ["0", "512", "64K", "1.5G", "2m", "1e3", "1e19", "-1", "NaN", "1KB", "G"],
        "Backend": ["CUDA", "HOST", "cpu"],
        "MinRows": ["MEASURED", "0", "1000", "1.5", "1K", "inf"],
        "Dialect": ["VSGPU", "NONE", "", "SQLITE"],
    }
    out = []
    for name, config, kind, deflt in decls:
        vals = values.get(kind, [deflt])
        for v in vals:
            out.append("%s=%s" % (name, v))
            out.append("O:%s=%s" % (name, v))
            if config:
                out.append("C:%s=%s" % (config, v))
        out.append("INVALID=ERROR\nO:%s=%s\nC:%s=%s\n%s=%s" %
                   (name, vals[0], config or "VSGPU_X", vals[-1], name, vals[-1]))
    for path in sorted(glob.glob(os.path.join(ROOT, "autotest", "pyscripts", "*.py"))):
        for s in _py_strings(path):
            if re.fullmatch(r"[A-Z_]+=[^\n]*", s):
                out.append(s.replace("%s", "YES"))
    out += ["Q:SELECT * FROM ST_Clip(a, b, 'SKIP_FAILURES=YES', 'INVALID=SKIP')",
            "Q:SELECT * FROM ST_ClipByRect(a, 0, 0, 1, 1, 'BATCH_SIZE=7')\nO:NUM_THREADS=2",
            "=YES", "UNKNOWN=1", "NOEQUALS", "SQL_FALLBACK=YES", "", "\n\n"]
    return sorted(set(out))


def main():
    sql = sql_statements()
    write_corpus("parser", sql)
    write_corpus("sqlguard", sql)
    single = data_wkb() + geos_xml_wkb() + hand_wkb()
    write_corpus("wkb", single)
    write_corpus("columnar", columnar_wkb(single))
    write_corpus("options", option_lines())
    total = 0
    for d, _, files in os.walk(os.path.join(HERE, "corpus")):
        total += sum(os.path.getsize(os.path.join(d, f)) for f in files)
    print("total %d bytes" % total)
    if total > 1_000_000:
        print("the corpora exceed 1 MB: lower the limits", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
