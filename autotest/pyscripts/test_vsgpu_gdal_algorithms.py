"""The `gdal vector gpu-layer-algebra|gpu-clip|gpu-dissolve` algorithms
(GDAL >= 3.11): through the `gdal` command line and Python's gdal.Run, they
write what the VSGPU dialect's own statement returns, with its metadata;
their arguments fail as GDAL's do."""

import os
import re
import shutil

import pytest
from osgeo import gdal, ogr

import vsgpu_util as vu

HAVE_ALGORITHMS = int(gdal.VersionInfo()) >= 3110000 and hasattr(gdal, "Run")
HAVE_CLI = shutil.which("gdal") is not None

pytestmark = [
    pytest.mark.usefixtures("vsgpu_driver_registered"),
    pytest.mark.skipif(not HAVE_ALGORITHMS,
                       reason="GDAL %s has no gdal.Run / algorithm registry (3.11+)" % gdal.__version__),
]

cli = pytest.mark.skipif(not HAVE_CLI, reason="no `gdal` program on PATH")

DISSOLVE_BY_STATE = ("SELECT substr(id, 1, 2) AS st, ST_Union(geom) AS geom "
                     "FROM counties GROUP BY st")


@pytest.fixture(scope="module")
def counties_with_state(tmp_path_factory, counties_gpkg):
    """counties with its state key as a field, `st` (the first two digits
    of the FIPS id): what --group-by takes, a field."""
    path = str(tmp_path_factory.mktemp("alg") / "counties_st.gpkg")
    ds = gdal.VectorTranslate(path, counties_gpkg, format="GPKG", layerName="counties",
                              SQLStatement="SELECT *, substr(id, 1, 2) AS st FROM counties",
                              SQLDialect="SQLITE")
    assert ds is not None
    ds = None
    return path


def gdal_vector(run_cli, *args):
    return run_cli(["gdal", "vector"] + [str(a) for a in args])


def written(path, layer):
    """(features, schema, VSGPU metadata, geometry type) of an output layer."""
    ds = ogr.Open(str(path))
    assert ds is not None, path
    lyr = ds.GetLayerByName(layer)
    assert lyr is not None, (path, layer, [l.GetName() for l in ds])
    out = (vu.read_features(lyr), vu.schema(lyr), lyr.GetMetadata("VSGPU") or {}, lyr.GetGeomType())
    ds = None
    return out


def assert_same_as_dialect(feats, expected, rel_tol=1e-9):
    """Same count, same field values in the same order, area per feature
    within rel_tol."""
    assert len(feats) == len(expected) > 0
    for i, (a, e) in enumerate(zip(feats, expected)):
        assert list(a.fields.values()) == list(e.fields.values()), i
        assert (a.geom is None) == (e.geom is None), i
        if e.geom is not None:
            ea, aa = vu.area(e.geom), vu.area(a.geom)
            assert abs(aa - ea) <= rel_tol * max(ea, 1e-300), (i, aa, ea)


def progress_values(stdout):
    """The percentages GDALTermProgress printed: 0...10...100 - done."""
    return [int(v) for v in re.findall(r"(\d+)(?=\.\.\.| - done)", stdout)]


###############################################################################
# Declared for the gdal program


@cli
def test_algorithms_are_listed(run_cli):
    p = gdal_vector(run_cli, "--help")
    assert p.returncode == 0, p.stderr
    for name in ("gpu-layer-algebra", "gpu-clip", "gpu-dissolve"):
        assert name in p.stdout, name
    p = gdal_vector(run_cli, "gpu-layer-algebra", "--help")
    assert p.returncode == 0, p.stderr
    for arg in ("--input-layer", "--method-layer", "--output-format", "--output-layer", "--overwrite",
                "--creation-option", "--layer-creation-option", "--execution-mode", "--invalid",
                "--keep-lower-dimension", "--promote-to-multi", "--skip-failures", "--input-prefix",
                "--method-prefix", "--num-threads"):
        assert arg in p.stdout, arg


###############################################################################
# gpu-dissolve


@cli
def test_dissolve_by_state_cli_equals_dialect(tmp_path, run_cli, counties_gpkg, counties_with_state):
    out = tmp_path / "states.gpkg"
    p = gdal_vector(run_cli, "gpu-dissolve", counties_with_state, out, "--group-by", "st")
    assert p.returncode == 0, p.stderr
    feats, sch, md, gtype = written(out, "counties")
    assert len(feats) == 56
    assert sum(1 for f in feats if f.geom is None) == 0
    assert [s[0] for s in sch] == ["st"]
    assert ogr.GT_Flatten(gtype) == ogr.wkbMultiPolygon
    # the dialect's statement on the original counties, feature by feature
    res = vu.run_vsgpu(counties_gpkg, DISSOLVE_BY_STATE)
    assert_same_as_dialect(feats, res["features"])
    # the statement's report, complete, went with the output
    assert md.get("COMPLETE") == "YES" and md.get("OUTPUT_FEATURES") == "56", md
    assert md.get("OPERATION") == "ST_Union", md
    # and its warnings are the dialect's: the repaired counties are counted
    assert "invalid geometries repaired" in p.stderr, p.stderr


def test_dissolve_python_run_with_progress(tmp_path, counties_gpkg, counties_with_state):
    out = str(tmp_path / "states.gpkg")
    values = []

    def callback(pct, msg, user_data):
        values.append(pct)
        return True

    with gdal.Run("vector", "gpu-dissolve", input=counties_with_state, output=out, group_by=["st"],
                  progress=callback) as alg:
        assert alg.Output() is not None
    feats = written(out, "counties")[0]
    assert_same_as_dialect(feats, vu.run_vsgpu(counties_gpkg, DISSOLVE_BY_STATE)["features"])
    assert len(values) > 2, values
    assert all(b >= a for a, b in zip(values, values[1:])), values
    assert values[-1] == 1.0 and 0.0 < values[-2] < 1.0, values


def test_dissolve_without_group_by_is_one_feature_shapefile(tmp_path, nc_gpkg):
    """No --group-by: one group. The format comes from the extension."""
    out = tmp_path / "nc_all.shp"
    with gdal.Run("vector", "gpu-dissolve", input=nc_gpkg, output=str(out)):
        pass
    ds = ogr.Open(str(out))
    assert ds.GetDriver().GetName() == "ESRI Shapefile"
    lyr = ds.GetLayer(0)
    assert lyr.GetName() == "nc_all" and lyr.GetFeatureCount() == 1
    expected = vu.run_vsgpu(nc_gpkg, "SELECT ST_Union(geom) AS geom FROM nc")["features"]
    got = vu.read_features(lyr)
    assert abs(vu.area(got[0].geom) - vu.area(expected[0].geom)) <= 1e-9 * vu.area(expected[0].geom)


def test_dissolve_unknown_group_by_field_fails(tmp_path, nc_gpkg):
    with pytest.raises(RuntimeError, match="NO_SUCH_FIELD"):
        gdal.Run("vector", "gpu-dissolve", input=nc_gpkg, output=str(tmp_path / "x.gpkg"),
                 group_by=["NO_SUCH_FIELD"])
    assert not (tmp_path / "x.gpkg").exists()


###############################################################################
# gpu-layer-algebra


@cli
def test_intersection_equals_dialect(tmp_path, run_cli, counties_gpkg):
    out = tmp_path / "inter.gpkg"
    p = gdal_vector(run_cli, "gpu-layer-algebra", "intersection", counties_gpkg, counties_gpkg, out,
                    "--input-layer", "counties", "--method-layer", "states")
    assert p.returncode == 0, p.stderr
    feats, sch, md, gtype = written(out, "counties")
    res = vu.run_vsgpu(counties_gpkg, "SELECT * FROM ST_Intersection(counties, states)")
    assert [s[:2] for s in sch] == [s[:2] for s in res["schema"]]
    assert gtype == res["geom_type"]
    assert_same_as_dialect(feats, res["features"])
    for k in vu.COUNTERS + ("INPUT_FEATURES", "METHOD_FEATURES", "OUTPUT_FEATURES"):
        assert md.get(k) == res["metadata"].get(k), k


def test_clip_with_method_of_another_dataset(tmp_path, nc_gpkg, spdata_gpkg):
    """A method dataset other than the input's: the statement names it
    'path'.layer."""
    out = str(tmp_path / "clip.gpkg")
    with gdal.Run("vector", "gpu-layer-algebra", operation="clip", input=nc_gpkg, method=spdata_gpkg,
                  method_layer="sids", output=out, output_layer="clipped"):
        pass
    feats = written(out, "clipped")[0]
    res = vu.run_vsgpu(nc_gpkg, "SELECT * FROM ST_Clip(nc, '%s'.sids)" % spdata_gpkg)
    assert len(feats) == 100
    assert_same_as_dialect(feats, res["features"])


def test_layer_algebra_options_reach_the_statement(tmp_path, counties_gpkg):
    out = str(tmp_path / "inter.gpkg")
    with gdal.Run("vector", "gpu-layer-algebra", operation="intersection", input=counties_gpkg,
                  method=counties_gpkg, input_layer="counties", method_layer="states", output=out,
                  input_prefix="c_", method_prefix="s_", promote_to_multi=True, invalid="SKIP",
                  execution_mode="CPU", num_threads="2"):
        pass
    feats, sch, md, gtype = written(out, "counties")
    res = vu.run_vsgpu(counties_gpkg, "SELECT * FROM ST_Intersection(counties, states, 'INPUT_PREFIX=c_', "
                       "'METHOD_PREFIX=s_', 'PROMOTE_TO_MULTI=YES', 'INVALID=SKIP', 'EXECUTION_MODE=CPU', "
                       "'NUM_THREADS=2')")
    assert [s[0] for s in sch] == ["c_id", "c_name", "s_id", "s_name"] == vu.field_names_of(res)
    assert_same_as_dialect(feats, res["features"])
    assert md["INVALID_SKIPPED"] == res["metadata"]["INVALID_SKIPPED"] != "0"
    assert md["INVALID_REPAIRED"] == "0"
    assert md["REQUESTED_MODE"] == "CPU" and md["THREADS"] == "2", md
    assert all(ogr.GT_Flatten(f.geom.GetGeometryType()) in (ogr.wkbMultiPolygon, ogr.wkbMultiLineString,
                                                            ogr.wkbMultiPoint) for f in feats)


###############################################################################
# gpu-clip


@cli
def test_clip_bbox_equals_clip_by_rect_with_progress(tmp_path, run_cli, counties_gpkg):
    out = tmp_path / "rect.gpkg"
    p = gdal_vector(run_cli, "gpu-clip", counties_gpkg, out, "-l", "counties", "--bbox=-80,35,-75,40",
                    "--progress")
    assert p.returncode == 0, p.stderr
    feats, sch, md, gtype = written(out, "counties")
    res = vu.run_vsgpu(counties_gpkg, "SELECT * FROM ST_ClipByRect(counties, -80, 35, -75, 40)")
    assert len(feats) == 227
    assert_same_as_dialect(feats, res["features"])
    assert md.get("OPERATION") == "ST_ClipByRect"
    values = progress_values(p.stdout)
    assert values and values[-1] == 100 and "100 - done" in p.stdout, p.stdout
    assert all(b > a for a, b in zip(values, values[1:])), p.stdout


###############################################################################
# Errors


@cli
def test_existing_output_needs_overwrite(tmp_path, run_cli, nc_gpkg):
    out = tmp_path / "nc.gpkg"
    assert gdal_vector(run_cli, "gpu-dissolve", nc_gpkg, out).returncode == 0
    before = out.stat().st_mtime_ns, out.stat().st_size
    p = gdal_vector(run_cli, "gpu-dissolve", nc_gpkg, out, "--group-by", "NAME")
    assert p.returncode != 0
    assert "already exists" in p.stderr and "--overwrite" in p.stderr, p.stderr
    assert (out.stat().st_mtime_ns, out.stat().st_size) == before
    p = gdal_vector(run_cli, "gpu-dissolve", nc_gpkg, out, "--group-by", "NAME", "--overwrite")
    assert p.returncode == 0, p.stderr
    assert len(written(out, "nc")[0]) == 100


def test_existing_output_needs_overwrite_python(tmp_path, nc_gpkg):
    out = str(tmp_path / "nc.gpkg")
    with gdal.Run("vector", "gpu-dissolve", input=nc_gpkg, output=out):
        pass
    with pytest.raises(RuntimeError, match="already exists"):
        gdal.Run("vector", "gpu-dissolve", input=nc_gpkg, output=out)
    with gdal.Run("vector", "gpu-dissolve", input=nc_gpkg, output=out, overwrite=True):
        pass


@cli
def test_bad_invalid_value_names_the_argument(tmp_path, run_cli, nc_gpkg):
    out = tmp_path / "x.gpkg"
    p = gdal_vector(run_cli, "gpu-dissolve", nc_gpkg, out, "--invalid", "FIX")
    assert p.returncode != 0
    assert "'invalid'" in p.stderr and "FIX" in p.stderr, p.stderr
    assert not out.exists()


def test_bad_argument_values_python(tmp_path, nc_gpkg):
    out = str(tmp_path / "x.gpkg")
    with pytest.raises(Exception, match="invalid"):
        gdal.Run("vector", "gpu-dissolve", input=nc_gpkg, output=out, invalid="FIX")
    with pytest.raises(RuntimeError, match="num-threads"):
        gdal.Run("vector", "gpu-dissolve", input=nc_gpkg, output=out, num_threads="0")
    with pytest.raises(Exception, match="execution-mode"):
        gdal.Run("vector", "gpu-clip", input=nc_gpkg, output=out, bbox=[-80, 35, -78, 36],
                 execution_mode="FAST")
    assert not os.path.exists(out)


def test_engine_error_fails_the_algorithm(tmp_path, counties_gpkg):
    """INVALID=ERROR on data with invalid polygons: the statement fails,
    and so does the algorithm, with the engine's message and no output."""
    out = str(tmp_path / "x.gpkg")
    with pytest.raises(RuntimeError, match="invalid geometry"):
        gdal.Run("vector", "gpu-clip", input=counties_gpkg, input_layer="counties", output=out,
                 bbox=[-80, 35, -75, 40], invalid="ERROR")
    assert not os.path.exists(out)


def test_progress_callback_can_cancel(tmp_path, counties_gpkg):
    out = str(tmp_path / "x.gpkg")
    calls = []

    def stop(pct, msg, user_data):
        calls.append(pct)
        return pct < 0.2

    with pytest.raises(RuntimeError, match="(?i)interrupt"):
        gdal.Run("vector", "gpu-layer-algebra", operation="intersection", input=counties_gpkg,
                 method=counties_gpkg, input_layer="counties", method_layer="states", output=out,
                 progress=stop)
    assert calls and calls[-1] >= 0.2 and 1.0 not in calls
    assert not os.path.exists(out)


def test_progress_callback_cancels_a_dissolve_while_it_reads(tmp_path, counties_with_state):
    """Cancelled while the input is read through its Arrow stream (the
    first 40 % of a dissolve's progress, record batches of 100 rows): the
    read stops, the stream is released, nothing is written, and the next
    statement reads the layer again."""
    out = str(tmp_path / "x.gpkg")
    calls = []

    def stop(pct, msg, user_data):
        calls.append(pct)
        return pct < 0.05

    with gdal.config_option("VSGPU_ARROW_BATCH_ROWS", "100"):
        with pytest.raises(RuntimeError, match="(?i)interrupt"):
            gdal.Run("vector", "gpu-dissolve", input=counties_with_state, output=out,
                     group_by=["st"], progress=stop)
    assert calls and 0.05 <= calls[-1] < 0.4, calls[-3:]
    assert not os.path.exists(out)
    with gdal.Run("vector", "gpu-dissolve", input=counties_with_state, output=out,
                  group_by=["st"]) as alg:
        assert alg.Output() is not None
