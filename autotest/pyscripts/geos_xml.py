"""Reader for the GEOS XMLTester files in autotest/data/geos-xml.

The XML format (shared by GEOS XMLTester and the JTS TestRunner)::

    <run>
      <precisionModel type="FLOATING"/>   or  scale="1.0" offsetx="0" offsety="0"
      <case>
        <desc>...</desc>
        <a> WKT or hex WKB </a>
        <b> WKT or hex WKB </b>
        <test><op name="intersection" arg1="A" arg2="B"> expected </op></test>
      </case>
    </run>

Only the tests listed in autotest/data/geos-xml/INDEX.csv are returned: the
intersection tests (ops intersection, intersectionNG, intersectionSR) and the
area-consistency tests (areatest, overlayAreaTest) whose operands are both
polygonal. Case numbers are 1-based, as in INDEX.csv.
"""

import csv
import dataclasses
import os
import re
import xml.etree.ElementTree as ET

from osgeo import ogr

XML_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "geos-xml")

INTERSECTION_OPS = ("intersection", "intersectionng", "intersectionsr")
AREATEST_OPS = ("areatest", "overlayareatest")

_HEX_RE = re.compile(r"^[0-9A-Fa-f]+$")


@dataclasses.dataclass(frozen=True)
class XmlCase:
    file: str            # path relative to XML_DIR, as in INDEX.csv
    case: int            # 1-based case number in the file
    test: int            # 1-based test number within the case
    op: str              # op name, lower case
    desc: str
    a: str               # operand text (WKT or hex WKB), after arg swapping
    b: str
    expected: str        # text of <op>
    grid_scale: float    # 0.0 for floating; else the scale of the fixed grid
    arg3: str            # third argument (intersectionSR: the grid scale)

    @property
    def id(self):
        stem = self.file.replace("/", "-").replace(".xml", "")
        return "%s-c%d-t%d-%s" % (stem, self.case, self.test, self.op)

    @property
    def is_intersection(self):
        return self.op in INTERSECTION_OPS

    @property
    def is_areatest(self):
        return self.op in AREATEST_OPS

    @property
    def snap_scale(self):
        """Scale of the grid the expected result was computed on, 0 if none."""
        if self.op == "intersectionsr" and self.arg3:
            return float(self.arg3)
        return self.grid_scale


_EWKB_SRID_FLAG = 0x20000000


def _strip_ewkb_srid(wkb):
    """PostGIS EWKB with an SRID (flag 0x20000000 on the top-level type):
    drop the flag and the 4-byte SRID. OGR reads the EWKB Z flag itself."""
    order = "little" if wkb[0] == 1 else "big"
    code = int.from_bytes(wkb[1:5], order)
    if not code & _EWKB_SRID_FLAG:
        return wkb
    code &= ~_EWKB_SRID_FLAG
    return wkb[:1] + code.to_bytes(4, order) + wkb[9:]


def geometry_from_text(text):
    """OGR geometry from the WKT or hex WKB text of an XML element."""
    t = "".join(text.split())
    if _HEX_RE.match(t):
        g = ogr.CreateGeometryFromWkb(_strip_ewkb_srid(bytes.fromhex(t)))
    else:
        t = " ".join(text.split())
        g = ogr.CreateGeometryFromWkt(t)
    if g is None:
        raise ValueError("cannot parse geometry: %.80s" % t)
    # The XML files carry no CRS; hex EWKB may (SRID flag): drop it.
    g.AssignSpatialReference(None)
    return g


def _index_keys():
    keys = set()
    with open(os.path.join(XML_DIR, "INDEX.csv"), newline="") as fh:
        for row in csv.DictReader(fh):
            keys.add((row["file"], int(row["case"]), row["op"].lower()))
    return keys


def _grid_scale(root):
    pm = root.find("precisionModel")
    if pm is None:
        return 0.0
    if (pm.get("type") or "").upper().startswith("FLOATING"):
        return 0.0
    if pm.get("scale"):
        return float(pm.get("scale"))
    return 0.0


def load_cases():
    """All selected tests, in file order."""
    keys = _index_keys()
    cases = []
    for rel in sorted({k[0] for k in keys}):
        root = ET.parse(os.path.join(XML_DIR, rel)).getroot()
        scale = _grid_scale(root)
        for ci, case in enumerate(root.findall("case"), start=1):
            texts = {"A": case.findtext("a") or "", "B": case.findtext("b") or ""}
            desc = " ".join((case.findtext("desc") or "").split())
            for ti, test in enumerate(case.findall("test"), start=1):
                op = test.find("op")
                if op is None:
                    continue
                name = op.get("name", "").lower()
                if (rel, ci, name) not in keys:
                    continue
                arg1 = (op.get("arg1") or "A").upper()
                arg2 = (op.get("arg2") or "B").upper()
                a = texts.get(arg1, texts["A"])
                b = texts.get(arg2, texts["B"])
                cases.append(XmlCase(rel, ci, ti, name, desc, a, b,
                                     (op.text or "").strip(), scale,
                                     op.get("arg3") or ""))
    return cases


def areatest_tolerance(case):
    """Absolute area tolerance of an area-consistency test.

    ``areatest`` carries the tolerated area error as its text;
    ``overlayAreaTest`` carries ``true`` and is judged with a relative
    tolerance (1e-6 of the larger operand area, documented in
    docs/testing.md)."""
    try:
        return float(case.expected)
    except ValueError:
        return None
