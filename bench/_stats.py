"""Geometry statistics shared by every engine: input vertex counts and the
per-output summary (count, NULL, empty, non-areal, total area).

The output summary is computed while the result layer is iterated, inside the
timed region, for every in-process engine alike: this is how each output
geometry is "touched" so that an engine that builds geometries lazily is not
favoured.
"""
from osgeo import ogr

_NON_AREAL = {
    ogr.wkbPoint, ogr.wkbMultiPoint, ogr.wkbLineString, ogr.wkbMultiLineString,
    ogr.wkbCircularString, ogr.wkbCompoundCurve, ogr.wkbMultiCurve,
}
_COLLECTIONS = {ogr.wkbGeometryCollection}


def count_vertices(geom):
    """Number of vertices of a geometry (closing vertices of rings included)."""
    if geom is None:
        return 0
    n = geom.GetGeometryCount()
    if n == 0:
        return geom.GetPointCount()
    return sum(count_vertices(geom.GetGeometryRef(i)) for i in range(n))


def layer_vertices(layer):
    """(features, vertices) of a layer, read once (untimed)."""
    layer.ResetReading()
    nf = nv = 0
    for f in layer:
        nf += 1
        nv += count_vertices(f.GetGeometryRef())
    layer.ResetReading()
    return nf, nv


def _areal(geom):
    """True when the geometry has a polygonal part."""
    t = ogr.GT_Flatten(geom.GetGeometryType())
    if t in _NON_AREAL:
        return False
    if t in _COLLECTIONS:
        return any(_areal(geom.GetGeometryRef(i)) for i in range(geom.GetGeometryCount()))
    return True


class OutputStats:
    """Running summary of a result layer."""

    __slots__ = ("features", "null", "empty", "non_areal", "areal", "area",
                 "null_keys")

    def __init__(self):
        self.features = self.null = self.empty = self.non_areal = self.areal = 0
        self.area = 0.0
        self.null_keys = []

    def add(self, feature, key_field=None):
        self.features += 1
        g = feature.GetGeometryRef()
        if g is None:
            self.null += 1
            if key_field is not None and len(self.null_keys) < 20:
                self.null_keys.append(feature.GetField(key_field))
            return
        if g.IsEmpty():
            self.empty += 1
            return
        if not _areal(g):
            self.non_areal += 1
            return
        self.areal += 1
        self.area += g.GetArea()

    def as_dict(self):
        return {k: getattr(self, k) for k in self.__slots__}


def summarize_layer(layer, key_field=None):
    """Iterate a whole layer, touching every geometry."""
    st = OutputStats()
    layer.ResetReading()
    f = layer.GetNextFeature()
    while f is not None:
        st.add(f, key_field)
        f = layer.GetNextFeature()
    return st
