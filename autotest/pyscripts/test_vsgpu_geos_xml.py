"""The polygon intersection cases of the GEOS XML test suite, through the
dialect (autotest/data/geos-xml, selected by its INDEX.csv).

Each case becomes a GeoPackage with one-feature layers `a` and `b`, and the
statement `SELECT * FROM ST_Intersection(a, b, ...)`.

Comparison rules (docs/testing.md):

* floating-precision intersection tests: the result, with
  KEEP_LOWER_DIMENSION_GEOMETRIES=YES, is compared with the XML's expected
  geometry after normalisation, coordinate by coordinate (the XMLTester rule
  for intersection). Where GEOS 3.11 itself (through OGR) does not reproduce
  the XML's expected geometry exactly (the XML comes from a later GEOS that
  merges lines and orders collections differently), the comparison is
  topological: equal lower-dimension parts and no area of symmetric
  difference.
* grid tests (a FIXED precision model, or intersectionSR's grid): the dialect
  computes in floating point, so its result is compared with GEOS's floating
  result, and with the XML's gridded result within one grid cell along the
  boundary (area of symmetric difference <= grid size x perimeter).
* with the default options only the polygonal part is kept: compared with the
  polygonal part of the expected geometry by area of symmetric difference.
* areatest / overlayAreaTest: area(A) = area(A-B) + area(A∩B) and
  area(B) = area(B-A) + area(A∩B) with A∩B from the dialect and the
  differences from GEOS, within the XML's tolerance (areatest) or 1e-6 of the
  larger operand area (overlayAreaTest).
"""

import uuid

import pytest
from osgeo import ogr

import geos_xml
import vsgpu_util as vu

pytestmark = pytest.mark.usefixtures("vsgpu_driver_registered")

CASES = geos_xml.load_cases()
INTERSECTION_CASES = [c for c in CASES if c.is_intersection]
FLOATING_CASES = [c for c in INTERSECTION_CASES if not c.snap_scale]
GRID_CASES = [c for c in INTERSECTION_CASES if c.snap_scale]
AREA_CASES = [c for c in CASES if c.is_areatest]

OVERLAY_AREA_REL_TOL = 1e-6


def test_xml_selection_is_complete():
    # INDEX.csv lists 84 polygon intersection tests and 182 area tests.
    assert len(INTERSECTION_CASES) == 84
    assert len(AREA_CASES) == 182
    assert len({c.id for c in CASES}) == len(CASES)


def _case_gpkg(case):
    path = "/vsimem/geos_xml_%s.gpkg" % uuid.uuid4().hex
    a = geos_xml.geometry_from_text(case.a)
    b = geos_xml.geometry_from_text(case.b)
    vu.create_gpkg(path, {
        "a": dict(rows=[(a, {})]),
        "b": dict(rows=[(b, {})]),
    })
    return path, a, b


def _run_case(case, options=()):
    path, a, b = _case_gpkg(case)
    try:
        opts = "".join(", '%s'" % o for o in options)
        res = vu.run_vsgpu(path, "SELECT * FROM ST_Intersection(a, b%s)" % opts)
    finally:
        ogr.GetDriverByName("GPKG").DeleteDataSource(path)
    assert res["features"] is not None, "%s: no result: %s" % (case.id, res["errors"].errors)
    assert len(res["features"]) <= 1, case.id
    got = res["features"][0].geom if res["features"] else None
    return got, a, b, res


def _valid_or_repaired(g):
    return g if vu.quiet(g.IsValid) else g.MakeValid(["METHOD=STRUCTURE"])


def _assert_topologically_equal(got, expected, label):
    if expected.IsEmpty():
        assert got is None or got.IsEmpty(), "%s: expected empty, got %s" % (label, got.ExportToWkt()[:300])
        return
    assert got is not None, "%s: no feature, expected %s" % (label, expected.ExportToWkt()[:300])
    assert vu.Canon.rel_symdiff(got, expected) <= 1e-9, \
        "%s: got %s expected %s" % (label, got.ExportToWkt()[:300], expected.ExportToWkt()[:300])
    for dim in (0, 1):
        assert vu.Canon.topo_equal_lower(got, expected, dim), \
            "%s: dimension-%d parts differ: got %s expected %s" % (
                label, dim, got.ExportToWkt()[:300], expected.ExportToWkt()[:300])


@pytest.mark.parametrize("case", FLOATING_CASES, ids=[c.id for c in FLOATING_CASES])
def test_xml_intersection_floating(case):
    got, a, b, _ = _run_case(case, ["KEEP_LOWER_DIMENSION_GEOMETRIES=YES"])
    expected = geos_xml.geometry_from_text(case.expected)
    if expected.IsEmpty():
        assert got is None, "%s: expected no feature, got %s" % (case.id, got.ExportToWkt())
        return
    assert got is not None, "%s: no feature, expected %s" % (case.id, case.expected)
    geos = a.Intersection(b)
    if geos is not None and vu.Canon.exact_equal(geos, expected):
        assert vu.Canon.exact_equal(got, expected), "%s:\n got      %s\n expected %s" % (
            case.id, vu.Canon.wkt(got), vu.Canon.wkt(expected))
    else:
        _assert_topologically_equal(got, expected, case.id)


@pytest.mark.parametrize("case", FLOATING_CASES, ids=[c.id for c in FLOATING_CASES])
def test_xml_intersection_polygonal_part(case):
    """Default options: only the polygonal part of the XML's result."""
    got, _, _, res = _run_case(case)
    expected = vu.polygonal(geos_xml.geometry_from_text(case.expected))
    if expected.IsEmpty():
        assert got is None, "%s: got %s" % (case.id, got.ExportToWkt())
        return
    assert got is not None, case.id
    assert ogr.GT_Flatten(got.GetGeometryType()) in (ogr.wkbPolygon, ogr.wkbMultiPolygon), \
        "%s: %s in a polygon result" % (case.id, got.GetGeometryName())
    assert vu.Canon.rel_symdiff(got, expected) <= 1e-9, case.id
    assert vu.quiet(got.IsValid), "%s: invalid result %s" % (case.id, got.ExportToWkt()[:300])


@pytest.mark.parametrize("case", GRID_CASES, ids=[c.id for c in GRID_CASES])
def test_xml_intersection_grid(case):
    got, a, b, _ = _run_case(case, ["KEEP_LOWER_DIMENSION_GEOMETRIES=YES"])
    geos = a.Intersection(b)
    _assert_topologically_equal(got, geos, case.id + " (vs GEOS floating)")
    expected = geos_xml.geometry_from_text(case.expected)
    grid = 1.0 / case.snap_scale
    pe = vu.polygonal(expected)
    pg = vu.polygonal(got) if got is not None else ogr.Geometry(ogr.wkbMultiPolygon)
    perimeter = pe.Boundary().Length() if not pe.IsEmpty() else 0.0
    perimeter += pg.Boundary().Length() if not pg.IsEmpty() else 0.0
    perimeter += vu.parts_of_dimension(expected, 1).Length()
    d = vu.Canon.symdiff_area(pg, pe)
    assert d <= grid * perimeter + 1e-12, "%s: symmetric difference %g > %g x %g" % (
        case.id, d, grid, perimeter)


@pytest.mark.parametrize("case", AREA_CASES, ids=[c.id for c in AREA_CASES])
def test_xml_areatest(case):
    got, a, b, _ = _run_case(case)
    a, b = _valid_or_repaired(a), _valid_or_repaired(b)
    area_a, area_b = a.GetArea(), b.GetArea()
    area_i = vu.area(got) if got is not None else 0.0
    tol = geos_xml.areatest_tolerance(case)
    if tol is None:
        tol = OVERLAY_AREA_REL_TOL * max(area_a, area_b)
    a_minus_b = a.Difference(b)
    b_minus_a = b.Difference(a)
    assert a_minus_b is not None and b_minus_a is not None, "GEOS oracle failed on %s" % case.id
    err_a = abs(area_a - (a_minus_b.GetArea() + area_i))
    err_b = abs(area_b - (b_minus_a.GetArea() + area_i))
    assert max(err_a, err_b) <= tol, "%s: area identities off by %g, %g (tolerance %g)" % (
        case.id, err_a, err_b, tol)
    geos = a.Intersection(b)
    assert vu.Canon.symdiff_area(got, geos) <= tol, "%s: differs from GEOS" % case.id
    if got is not None:
        assert vu.quiet(got.IsValid), "%s: invalid result" % case.id
