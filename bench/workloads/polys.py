"""Polygon layers as flat numpy arrays: the form every generator produces and
the GeoPackage writer consumes.

One layer is a ragged three-level structure, the same shape as GeoArrow's
MultiPolygon (and as VSGPU's own columnar layout): coordinates, then
ring -> point offsets, part -> ring offsets and feature -> part offsets. A
Polygon layer simply has one part per feature. Rings are closed (the last
point repeats the first), exterior rings counter-clockwise and holes
clockwise.
"""
import numpy as np


class Polys:
    """coords (N, 2) float64; ring_off (R + 1); part_off (P + 1) indexes
    rings; feat_off (F + 1) indexes parts. All offsets int64, starting at 0."""

    __slots__ = ("coords", "ring_off", "part_off", "feat_off")

    def __init__(self, coords, ring_off, part_off=None, feat_off=None):
        self.coords = np.ascontiguousarray(coords, dtype=np.float64)
        self.ring_off = np.asarray(ring_off, dtype=np.int64)
        nr = len(self.ring_off) - 1
        self.part_off = (np.arange(nr + 1, dtype=np.int64) if part_off is None
                         else np.asarray(part_off, dtype=np.int64))
        np_ = len(self.part_off) - 1
        self.feat_off = (np.arange(np_ + 1, dtype=np.int64) if feat_off is None
                         else np.asarray(feat_off, dtype=np.int64))

    @property
    def features(self):
        return len(self.feat_off) - 1

    @property
    def vertices(self):
        return int(len(self.coords))

    def feature_point_ranges(self):
        """(start, end) point index of every feature (its points are
        contiguous)."""
        ring0 = self.part_off[self.feat_off]
        pts = self.ring_off[ring0]
        return pts[:-1], pts[1:]

    def feature_bounds(self):
        """(F, 4) array: minx, maxx, miny, maxy of every feature (the order
        of a GeoPackage envelope and of its R-tree)."""
        s, _ = self.feature_point_ranges()
        x, y = self.coords[:, 0], self.coords[:, 1]
        return np.stack([np.minimum.reduceat(x, s), np.maximum.reduceat(x, s),
                         np.minimum.reduceat(y, s), np.maximum.reduceat(y, s)],
                        axis=1)

    def bounds(self):
        b = self.feature_bounds()
        return (float(b[:, 0].min()), float(b[:, 2].min()),
                float(b[:, 1].max()), float(b[:, 3].max()))


def ring_signed_areas(coords, ring_off):
    """Shoelace area of every ring (positive: counter-clockwise)."""
    x, y = coords[:, 0], coords[:, 1]
    # each ring is closed, so the cross product of point i and i+1 within a
    # ring sums to twice its area; the products across ring borders are
    # dropped by reduceat over the per-ring slices.
    cross = np.zeros(len(coords))
    cross[:-1] = x[:-1] * y[1:] - x[1:] * y[:-1]
    last = ring_off[1:] - 1
    cross[last] = 0.0
    return 0.5 * np.add.reduceat(cross, ring_off[:-1])

