"""Compares two single-layer GeoPackages feature by feature, as the test
suite's cross-check does: the same count, the same attributes in the same
order, and per feature a symmetric difference of at most 1e-9 of the area
(computed only where the two WKBs differ: equal bytes are equal shapes);
counts invalid geometries of the first. Used by scripts/bench-refine.sh to
check the GPU refine's answer against the CPU engine's (needs osgeo).

    python3 compare_gpkg.py ACTUAL.gpkg EXPECTED.gpkg
"""
import sys

from osgeo import ogr

ogr.UseExceptions()


def feats(path):
    ds = ogr.Open(path)
    lyr = ds.GetLayer(0)
    out = []
    for f in lyr:
        g = f.GetGeometryRef()
        out.append((f.items(), g.Clone() if g else None))
    return out


def main(a_path, e_path):
    a, e = feats(a_path), feats(e_path)
    if len(a) != len(e):
        print("compare: %d features, expected %d" % (len(a), len(e)))
        return 1
    worst, bad, invalid, same = 0.0, 0, 0, 0
    for (fa, ga), (fe, ge) in zip(a, e):
        if fa != fe or (ga is None) != (ge is None):
            bad += 1
            continue
        if ga is None:
            continue
        invalid += not ga.IsValid()
        if ga.ExportToIsoWkb() == ge.ExportToIsoWkb():
            same += 1
            continue
        area = ge.GetArea()
        d = ga.SymDifference(ge).GetArea()
        rel = d / max(area, 1e-300)
        worst = max(worst, rel)
        bad += rel > 1e-9
    print("compare: %d features, %d differ, %d invalid, worst relative symmetric difference %.3g"
          " (%d byte-identical)" % (len(a), bad, invalid, worst, same))
    return 1 if bad or invalid else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
