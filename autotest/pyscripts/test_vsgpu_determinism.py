"""Deterministic output: the same statement gives the same features, in the
same order, byte for byte, for every thread count and batch size
(docs/semantics.md: "The order is the same for every thread count").
"""

import pytest

import vsgpu_util as vu

pytestmark = pytest.mark.usefixtures("vsgpu_driver_registered")


def _fingerprint(res):
    assert res["features"] is not None, res["errors"].errors
    return [(f.fid, tuple(f.fields.items()), f.geom.ExportToIsoWkb() if f.geom is not None else None)
            for f in res["features"]]


# NY8_bna_utm18 (Clarke 1866, bound to WGS 84) and NY8_utm18 (EPSG:32618)
# differ in datum: statements over both say CRS_MISMATCH=IGNORE, as GDAL's
# own layer algebra does (docs/semantics.md, "Coordinate systems").
STATEMENTS = [
    ("intersection_ny8", "spdata_gpkg",
     "SELECT * FROM ST_Intersection(NY8_bna_utm18, NY8_utm18, 'CRS_MISMATCH=IGNORE')"),
    ("clip_ny8", "spdata_gpkg", "SELECT * FROM ST_Clip(NY8_utm18, NY8_bna_utm18, 'CRS_MISMATCH=IGNORE')"),
    ("intersection_counties_states", "counties_gpkg", "SELECT * FROM ST_Intersection(counties, states)"),
    ("dissolve_states", "counties_gpkg",
     "SELECT substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM counties GROUP BY st"),
]


@pytest.mark.parametrize("name,ds_fix,sql", STATEMENTS, ids=[s[0] for s in STATEMENTS])
def test_same_output_for_1_and_4_threads(request, name, ds_fix, sql):
    path = request.getfixturevalue(ds_fix)
    r1 = vu.run_vsgpu(path, sql, config={"VSGPU_NUM_THREADS": "1"})
    r4 = vu.run_vsgpu(path, sql, config={"VSGPU_NUM_THREADS": "4"})
    assert r1["metadata"].get("THREADS") == "1"
    assert r4["metadata"].get("THREADS") == "4"
    f1, f4 = _fingerprint(r1), _fingerprint(r4)
    assert len(f1) > 0
    assert len(f1) == len(f4)
    for i, (a, b) in enumerate(zip(f1, f4)):
        assert a == b, "%s: feature %d differs between 1 and 4 threads" % (name, i)
    assert r1["schema"] == r4["schema"]


def test_num_threads_open_option(spdata_gpkg):
    sql = STATEMENTS[0][2]
    r1 = vu.run_vsgpu(spdata_gpkg, sql, open_options=["NUM_THREADS=1"])
    r3 = vu.run_vsgpu(spdata_gpkg, sql, open_options=["NUM_THREADS=3"], config={"VSGPU_NUM_THREADS": "1"})
    assert r1["metadata"].get("THREADS") == "1"
    assert r3["metadata"].get("THREADS") == "3"  # the open option wins over the config option
    assert _fingerprint(r1) == _fingerprint(r3)


@pytest.mark.parametrize("name,ds_fix,sql", STATEMENTS[:1] + STATEMENTS[3:], ids=["intersection_ny8", "dissolve_states"])
def test_same_output_for_any_batch_size(request, name, ds_fix, sql):
    path = request.getfixturevalue(ds_fix)
    ref = vu.run_vsgpu(path, sql, config={"VSGPU_NUM_THREADS": "2"})
    small = vu.run_vsgpu(path, sql, config={"VSGPU_NUM_THREADS": "2", "VSGPU_BATCH_SIZE": "7"})
    assert _fingerprint(ref) == _fingerprint(small)


def test_same_output_when_run_twice(spdata_gpkg):
    sql = STATEMENTS[1][2]
    assert _fingerprint(vu.run_vsgpu(spdata_gpkg, sql)) == _fingerprint(vu.run_vsgpu(spdata_gpkg, sql))


def test_ogr2ogr_outputs_identical_across_threads(tmp_path, run_cli, spdata_gpkg):
    """As a user runs it: two ogr2ogr runs, compared feature by feature."""
    sql = STATEMENTS[0][2]
    outs = []
    for n in ("1", "4"):
        out = str(tmp_path / ("out_%s.gpkg" % n))
        p = run_cli(["ogr2ogr", "-dialect", "VSGPU", "-sql", sql, "-nln", "result", out, "VSGPU:" + spdata_gpkg],
                    config={"VSGPU_NUM_THREADS": n})
        assert p.returncode == 0, p.stderr
        outs.append(out)
    from osgeo import ogr
    fps = []
    for out in outs:
        ds = ogr.Open(out)
        fps.append([(tuple(f.fields.items()), f.geom.ExportToIsoWkb()) for f in vu.read_features(ds.GetLayer("result"))])
        ds = None
    assert len(fps[0]) > 0
    assert fps[0] == fps[1]
