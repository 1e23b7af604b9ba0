"""The pre-clip of a large operand (algorithms/overlay/preclip.h): when one
geometry of a pair has thousands of vertices and many times the other's,
the overlay runs on the large one cut to the small one's box. The result
must be GEOS's plain intersection of the pair: same area to 1e-9 (the
symmetric difference, measured), valid, same dimension. Shapes chosen so
that the boxes cut through the large polygon's boundary, its hole, and
sit on its edges (shared boundary segments and vertices)."""

import math

import pytest
from osgeo import ogr

import vsgpu_util as vu

N = 20000   # vertices of the large polygon: above VSG_PRECLIP_MIN_COORDS


def _big_wkt():
    shell = []
    for k in range(N):
        t = 2 * math.pi * k / N
        r = 1000 + 40 * math.sin(37 * t)
        shell.append("%.12g %.12g" % (r * math.cos(t), r * math.sin(t)))
    shell.append(shell[0])
    hole = ["-100 -100", "-100 100", "100 100", "100 -100", "-100 -100"]   # clockwise
    return "POLYGON((%s),(%s))" % (",".join(shell), ",".join(hole))


def _squares():
    out = []
    for i in range(-6, 6):
        for j in range(-6, 6):
            x, y = 180.0 * i, 180.0 * j
            out.append("POLYGON((%r %r,%r %r,%r %r,%r %r,%r %r))"
                       % (x, y, x + 150, y, x + 150, y + 150, x, y + 150, x, y))
    # on the hole's edges: shares a segment, and touches a vertex
    out.append("POLYGON((-100 -50,-50 -50,-50 50,-100 50,-100 -50))")
    out.append("POLYGON((100 100,150 100,150 150,100 150,100 100))")
    return out


@pytest.fixture(scope="module")
def big_gpkg(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("preclip") / "big.gpkg")
    return vu.create_gpkg(path, {
        "big": dict(geom_type=ogr.wkbPolygon, fields=[("id", ogr.OFTInteger)],
                    rows=[(_big_wkt(), {"id": 1})]),
        "sq": dict(geom_type=ogr.wkbPolygon, fields=[("s", ogr.OFTInteger)],
                   rows=[(w, {"s": k}) for k, w in enumerate(_squares())]),
    })


@pytest.mark.parametrize("sql", ["SELECT * FROM ST_Intersection(big, sq)",
                                 "SELECT * FROM ST_Intersection(sq, big)"])
def test_preclipped_pairs_equal_plain_geos(big_gpkg, sql):
    res = vu.run_vsgpu(big_gpkg, sql, config={"VSGPU_EXECUTION_MODE": "CPU"})
    assert res["features"] is not None, res["errors"]
    big = ogr.CreateGeometryFromWkt(_big_wkt())
    squares = [ogr.CreateGeometryFromWkt(w) for w in _squares()]
    expected = [g for g in (big.Intersection(s) for s in squares)
                if g is not None and not g.IsEmpty() and g.GetArea() > 0]
    got = [f.geom for f in res["features"]]
    assert len(got) == len(expected)
    got.sort(key=lambda g: g.Centroid().GetX() * 1e4 + g.Centroid().GetY())
    expected.sort(key=lambda g: g.Centroid().GetX() * 1e4 + g.Centroid().GetY())
    for g, e in zip(got, expected):
        assert g.IsValid()
        assert g.SymDifference(e).GetArea() <= 1e-9 * e.GetArea()


def test_overlay_work_does_not_grow_with_the_large_polygon(big_gpkg, plugin_dir, tmp_path):
    """Issue 9, defect 5, counted, not timed: every GEOS overlay of the
    statement gets at most a tenth of the large polygon's coordinates (the
    cut-down operand), where a plain overlay hands GEOS all of them for
    every pair. The gauge is the test build's VSGPU_FAULT_COUNT file."""
    count_file = tmp_path / "gauge.txt"
    out = tmp_path / "out.geojson"
    p = vu.run_cli(["ogr2ogr", "-f", "GeoJSON", str(out), "VSGPU:" + big_gpkg,
                    "-dialect", "VSGPU", "-sql", "SELECT * FROM ST_Intersection(big, sq)"],
                   plugin_dir, config={"VSGPU_EXECUTION_MODE": "CPU"},
                   env={"VSGPU_FAULT_COUNT": str(count_file)})
    assert p.returncode == 0, p.stderr
    gauge = dict(line.split() for line in count_file.read_text().splitlines())
    largest = int(gauge["geos_overlay_max_coords"])
    assert 0 < largest <= N // 10
