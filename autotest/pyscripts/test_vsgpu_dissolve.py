"""Dissolve: SELECT keys, ST_Union(geom) AS geom FROM layer [WHERE] GROUP BY keys.

Oracles:
* the us_atlas counties grouped by the first two characters of `id` dissolve
  into the `states` layer of the same file (an exact oracle on real data, see
  data/README.md); GDAL's SQLite dialect loses states 06, 22 and 51 (NULL
  geometries after GEOS TopologyExceptions on invalid counties): VSGPU must
  return them;
* GEOS's union (OGR UnionCascaded of the repaired members) for the other
  groupings.
"""

import collections

import pytest
from osgeo import ogr

import vsgpu_util as vu

pytestmark = pytest.mark.usefixtures("vsgpu_driver_registered")

STATE_SQL = "SELECT substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM counties GROUP BY st"
STATE_REL_TOL = 1e-12


@pytest.fixture(scope="module")
def states_dissolved(counties_gpkg):
    return vu.run_vsgpu(counties_gpkg, STATE_SQL)


@pytest.fixture(scope="module")
def states_layer(counties_gpkg):
    ds = ogr.Open(counties_gpkg)
    return {f.GetField("id"): f.GetGeometryRef().Clone() for f in ds.GetLayer("states")}


def _geos_union(geoms):
    m = ogr.Geometry(ogr.wkbMultiPolygon)
    for g in geoms:
        if g is None or g.IsEmpty():
            continue
        if not vu.quiet(g.IsValid):
            g = g.MakeValid(["METHOD=STRUCTURE"])
        for p in vu.polygonal(g):
            m.AddGeometry(p)
    return m.UnionCascaded() if m.GetGeometryCount() else m


def test_counties_dissolve_into_states(states_dissolved, states_layer):
    res = states_dissolved
    assert res["features"] is not None, res["errors"].errors
    got = {f.fields["st"]: f.geom for f in res["features"]}
    assert len(got) == len(res["features"]) == len(states_layer) == 56
    assert set(got) == set(states_layer)
    worst = 0.0
    for st, state in states_layer.items():
        g = got[st]
        assert g is not None, "state %s: null geometry" % st
        d = vu.Canon.symdiff_area(g, state) / state.GetArea()
        assert d <= STATE_REL_TOL, "state %s: relative symmetric difference %g" % (st, d)
        worst = max(worst, d)


@pytest.mark.parametrize("st", ["06", "22", "51"])
def test_states_lost_by_sqlite_are_present(states_dissolved, states_layer, st):
    got = {f.fields["st"]: f.geom for f in states_dissolved["features"]}
    assert st in got
    g = got[st]
    assert g is not None and not g.IsEmpty()
    assert g.GetGeometryType() == ogr.wkbMultiPolygon
    assert vu.quiet(g.IsValid)
    assert vu.Canon.rel_symdiff(g, states_layer[st]) <= STATE_REL_TOL


def test_counties_dissolve_output_valid_multipolygons(states_dissolved):
    res = states_dissolved
    assert res["geom_type"] == ogr.wkbMultiPolygon
    assert [s[0] for s in res["schema"]] == ["st"]
    assert res["schema"][0][1] == ogr.OFTString
    for f in res["features"]:
        assert f.geom.GetGeometryType() == ogr.wkbMultiPolygon, f.fields
        assert vu.quiet(f.geom.IsValid), "state %s invalid" % f.fields["st"]


def test_counties_dissolve_sorted_by_key(states_dissolved):
    keys = [f.fields["st"] for f in states_dissolved["features"]]
    assert keys == sorted(keys, key=lambda k: k.encode())
    assert [f.fid for f in states_dissolved["features"]] == list(range(len(keys)))


def test_counties_dissolve_counters(states_dissolved, counties_gpkg):
    md = states_dissolved["metadata"]
    ds = ogr.Open(counties_gpkg)
    lyr = ds.GetLayer("counties")
    n_invalid = sum(1 for f in lyr if not vu.quiet(f.GetGeometryRef().IsValid))
    assert n_invalid == 22
    assert md.get("INVALID_REPAIRED") == str(n_invalid)
    assert md.get("INPUT_FEATURES") == str(lyr.GetFeatureCount())
    assert md.get("OUTPUT_FEATURES") == "56"
    assert md.get("COMPLETE") == "YES"
    warnings = vu.counter_warnings(states_dissolved["errors"])
    assert len(warnings) == 1, states_dissolved["errors"].errors
    assert vu.names_counter(warnings[0], "INVALID_REPAIRED", n_invalid), warnings[0]


@pytest.mark.parametrize("group_by", ["1", "substr(id, 1, 2)"], ids=["ordinal", "expression"])
def test_group_by_spellings(counties_gpkg, states_dissolved, group_by):
    sql = "SELECT substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM counties GROUP BY %s" % group_by
    res = vu.run_vsgpu(counties_gpkg, sql)
    assert [f.fields["st"] for f in res["features"]] == [f.fields["st"] for f in states_dissolved["features"]]
    for a, b in zip(res["features"], states_dissolved["features"]):
        assert a.geom.ExportToIsoWkb() == b.geom.ExportToIsoWkb()


def test_count_star(counties_gpkg):
    sql = "SELECT substr(id, 1, 2) AS st, COUNT(*), ST_Union(geom) AS geom FROM counties GROUP BY st"
    res = vu.run_vsgpu(counties_gpkg, sql)
    assert [(s[0], s[1]) for s in res["schema"]] == [("st", ogr.OFTString), ("count", ogr.OFTInteger64)]
    ds = ogr.Open(counties_gpkg)
    lyr = ds.GetLayer("counties")
    counts = collections.Counter(f.GetField("id")[:2] for f in lyr)
    assert {f.fields["st"]: f.fields["count"] for f in res["features"]} == dict(counts)


def test_where_before_grouping(counties_gpkg, states_layer):
    sql = ("SELECT substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM counties "
           "WHERE id LIKE '06%' OR id LIKE '51%' GROUP BY st")
    res = vu.run_vsgpu(counties_gpkg, sql)
    assert [f.fields["st"] for f in res["features"]] == ["06", "51"]
    for f in res["features"]:
        assert vu.Canon.rel_symdiff(f.geom, states_layer[f.fields["st"]]) <= STATE_REL_TOL


def test_dissolve_by_field_keeps_definition(nc_gpkg):
    """Group by a plain field: the key keeps its field definition."""
    ds = ogr.Open(nc_gpkg)
    lyr = ds.GetLayer("nc")
    defn = lyr.GetLayerDefn().GetFieldDefn(lyr.GetLayerDefn().GetFieldIndex("SID74"))
    groups = collections.defaultdict(list)
    for f in lyr:
        groups[f.GetField("SID74")].append(f.GetGeometryRef().Clone())
    res = vu.run_vsgpu(nc_gpkg, "SELECT SID74, ST_Union(geom) AS geom FROM nc GROUP BY SID74")
    assert res["schema"][0][:2] == ("SID74", defn.GetType())
    assert [f.fields["SID74"] for f in res["features"]] == sorted(groups)
    for f in res["features"]:
        e = _geos_union(groups[f.fields["SID74"]])
        assert vu.Canon.rel_symdiff(f.geom, e) <= 1e-9, f.fields


def test_dissolve_all(counties_gpkg):
    ds = ogr.Open(counties_gpkg)
    geoms = [f.GetGeometryRef().Clone() for f in ds.GetLayer("states")]
    res = vu.run_vsgpu(counties_gpkg, "SELECT ST_Union(geom) AS geom FROM states")
    assert res["schema"] == []
    assert len(res["features"]) == 1
    g = res["features"][0].geom
    assert g.GetGeometryType() == ogr.wkbMultiPolygon
    assert vu.Canon.rel_symdiff(g, _geos_union(geoms)) <= 1e-9


def test_null_keys_nulls_and_empties(vsimem_dir):
    """NULL key group first; a group of null geometries yields a null
    geometry; a group of empties an empty MultiPolygon; a stray line in a
    polygon layer is dropped and counted (TYPE_SKIPPED)."""
    path = vsimem_dir + "/groups.gpkg"
    sq = "POLYGON((%d 0,%d 1,%d 1,%d 0,%d 0))"
    vu.create_gpkg(path, {
        "p": dict(geom_type=ogr.wkbPolygon, fields=[("k", ogr.OFTString)], rows=[
            (sq % (0, 0, 1, 1, 0), {"k": "b"}),
            (sq % (1, 1, 2, 2, 1), {"k": "b"}),
            (sq % (5, 5, 6, 6, 5), {"k": None}),
            (None, {"k": "nulls"}),
            (None, {"k": "nulls"}),
            (ogr.Geometry(ogr.wkbPolygon), {"k": "empties"}),
            (sq % (9, 9, 10, 10, 9), {"k": "a"}),
            ("LINESTRING(0 5,1 5)", {"k": "a"}),
        ]),
    })
    res = vu.run_vsgpu(path, "SELECT k, ST_Union(geom) AS geom FROM p GROUP BY k")
    assert res["features"] is not None, res["errors"].errors
    keys = [f.fields["k"] for f in res["features"]]
    assert keys == [None, "a", "b", "empties", "nulls"]
    by = {f.fields["k"]: f.geom for f in res["features"]}
    assert by["nulls"] is None
    assert by["empties"] is not None and by["empties"].IsEmpty()
    assert by["empties"].GetGeometryType() == ogr.wkbMultiPolygon
    assert by["b"].GetGeometryType() == ogr.wkbMultiPolygon
    assert vu.Canon.rel_symdiff(by["b"], ogr.CreateGeometryFromWkt("POLYGON((0 0,0 1,2 1,2 0,0 0))")) <= 1e-12
    assert vu.Canon.rel_symdiff(by["a"], ogr.CreateGeometryFromWkt(sq % (9, 9, 10, 10, 9))) <= 1e-12
    assert by["a"].GetGeometryType() == ogr.wkbMultiPolygon
    md = res["metadata"]
    assert md.get("TYPE_SKIPPED") == "1"
    assert md.get("NULL_GEOMETRIES") == "2"
    assert md.get("EMPTY_GEOMETRIES") == "1"


def test_non_aggregated_column_is_an_error(counties_gpkg):
    res = vu.run_vsgpu(counties_gpkg, "SELECT name, substr(id, 1, 2) AS st, ST_Union(geom) AS geom "
                                      "FROM counties GROUP BY st")
    assert res["features"] is None
    assert any("name" in m for m in res["errors"].failures), res["errors"].errors


def test_upper_lower_keys(vsimem_dir):
    path = vsimem_dir + "/case.gpkg"
    vu.create_gpkg(path, {
        "p": dict(geom_type=ogr.wkbPolygon, fields=[("k", ogr.OFTString)], rows=[
            ("POLYGON((0 0,0 1,1 1,1 0,0 0))", {"k": "ab"}),
            ("POLYGON((1 0,1 1,2 1,2 0,1 0))", {"k": "AB"}),
            ("POLYGON((5 0,5 1,6 1,6 0,5 0))", {"k": "cd"}),
        ]),
    })
    res = vu.run_vsgpu(path, "SELECT upper(k) AS uk, ST_Union(geom) AS geom FROM p GROUP BY uk")
    assert [f.fields["uk"] for f in res["features"]] == ["AB", "CD"]
    assert vu.Canon.rel_symdiff(res["features"][0].geom,
                                ogr.CreateGeometryFromWkt("POLYGON((0 0,0 1,2 1,2 0,0 0))")) <= 1e-12
