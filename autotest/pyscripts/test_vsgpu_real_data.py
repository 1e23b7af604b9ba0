"""Real data from data/ against GDAL's own OGRLayer.Intersection and
OGRLayer.Clip on the same layers.

Oracle: GDAL's layer algebra on Memory copies of the layers in which the
invalid features are repaired the way the contract repairs them
(GEOSMakeValid, METHOD=STRUCTURE), seen through the contract (polygonal parts
only; Multi when the input layer's declared type is Multi). Same pairs in the
same order, same attributes, and per feature an area of symmetric difference
of at most 1e-9 of the feature's area.
"""

import pytest
from osgeo import ogr

import vsgpu_util as vu

pytestmark = pytest.mark.usefixtures("vsgpu_driver_registered")

REL_TOL = 1e-9

# (id, dataset fixture, input layer, method dataset fixture or None, method layer)
PAIRS = [
    ("nc_x_sids", "nc_gpkg", "nc", "spdata_gpkg", "sids"),
    ("ny8_bna_x_ny8", "spdata_gpkg", "NY8_bna_utm18", None, "NY8_utm18"),
    ("counties_x_states", "counties_gpkg", "counties", None, "states"),
]


def _method_ref(request, method_ds, method_layer):
    if method_ds is None:
        return method_layer
    return "'%s'.%s" % (request.getfixturevalue(method_ds), method_layer)


def _oracle(input_path, input_layer, method_path, method_layer, op):
    ids = ogr.Open(input_path)
    mds = ogr.Open(method_path)
    src_in, src_m = ids.GetLayer(input_layer), mds.GetLayer(method_layer)
    promote = ogr.GT_IsSubClassOf(src_in.GetGeomType(), ogr.wkbGeometryCollection)
    _m1, lin, n_in = vu.mem_layer_copy(src_in, "in", make_valid=True)
    _m2, lme, n_me = vu.mem_layer_copy(src_m, "method", make_valid=True)
    feats, names = vu.gdal_layer_algebra(op, lin, lme, ["KEEP_LOWER_DIMENSION_GEOMETRIES=YES"])
    out = []
    for f in feats:
        g = vu.contract_geometry(f.geom, 2, promote)
        if g is not None:
            out.append(vu.Feature(f.fid, f.fields, g))
    return out, names, n_in, n_me, src_in.GetFeatureCount(), src_m.GetFeatureCount()


@pytest.mark.parametrize("op", ["Intersection", "Clip"])
@pytest.mark.parametrize("pair", PAIRS, ids=[p[0] for p in PAIRS])
def test_real_data_matches_gdal(request, pair, op):
    _, ds_fix, in_layer, mds_fix, m_layer = pair
    path = request.getfixturevalue(ds_fix)
    method_path = request.getfixturevalue(mds_fix) if mds_fix else path
    # GDAL's layer algebra, the oracle, ignores CRSs; the NY8 pair differs
    # in datum (Clarke 1866 against WGS 84): the same computation here.
    sql = "SELECT * FROM ST_%s(%s, %s, 'CRS_MISMATCH=IGNORE')" % (
        op, in_layer, _method_ref(request, mds_fix, m_layer))
    res = vu.run_vsgpu(path, sql)
    assert res["features"] is not None, res["errors"].errors
    expected, names, n_in_rep, n_m_rep, n_in, n_m = _oracle(path, in_layer, method_path, m_layer, op)
    assert len(expected) > 0
    assert vu.field_names_of(res) == names
    vu.assert_same_features(res["features"], expected, rel_tol=REL_TOL, label="%s %s" % (pair[0], op))
    md = res["metadata"]
    assert md.get("COMPLETE") == "YES"
    assert int(md.get("INPUT_FEATURES", -1)) == n_in
    assert int(md.get("METHOD_FEATURES", -1)) == n_m
    assert int(md.get("OUTPUT_FEATURES", -1)) == len(expected)
    assert int(md.get("INVALID_REPAIRED", "0")) == n_in_rep + n_m_rep
    for f in res["features"]:
        assert vu.quiet(f.geom.IsValid), "invalid output %r" % dict(f.fields)


def test_real_data_output_types(nc_gpkg, spdata_gpkg):
    # nc is declared MultiPolygon: every output geometry is promoted.
    res = vu.run_vsgpu(nc_gpkg, "SELECT * FROM ST_Intersection(nc, '%s'.sids)" % spdata_gpkg)
    assert res["geom_type"] == ogr.wkbMultiPolygon
    assert {f.geom.GetGeometryType() for f in res["features"]} == {ogr.wkbMultiPolygon}
    assert res["srs"] is not None and res["srs"].GetAuthorityCode(None) == "4267"
