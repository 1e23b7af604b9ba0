"""The generated workloads: what each one is, how big at each scale, and the
GeoPackage it writes.

Each workload draws from its own random stream, seeded by (seed, workload
name), so `--only` gives the same file as a full run. Sizes are set from the
scale's vertex budget: the vertices that go through the operation (input
plus method) are about SCALE_VERTICES[scale]; "large" aims a few per cent
above 10 M so that it is at least 10 M whatever the random cell shapes do.
"""
import os
import zlib

import numpy as np

import gpkg
import shapes
from tessellation import tessellation

SIZE = 100000.0          # the square [0, SIZE]^2 every generated layer covers
SCALE_VERTICES = {"smoke": 5000, "small": 100000, "medium": 1000000,
                  "large": 10500000}
CELL_VERTICES = 45.0     # mean vertices of a densified cell (measured)
NGON = 64                # vertices of a buffered point (65 with closure)
# rectangle of clip_rect: about 25 % of the square, edges at no round value
RECT_FRACTION = (0.2381, 0.3127, 0.7297, 0.8213)


def _rng(seed, name):
    return np.random.default_rng([int(seed), zlib.crc32(name.encode())])


def _codes(prefix, n):
    return ["%s%07d" % (prefix, i) for i in range(1, n + 1)]


def _entry(name, op, path, layer, polys, method=None, rect=None,
           group_by=None, description=""):
    mpath, mlayer, mpolys = method if method else (None, None, None)
    return {
        "name": name, "op": op,
        "input": {"path": os.path.abspath(path), "layer": layer},
        "method": ({"path": os.path.abspath(mpath), "layer": mlayer}
                   if method else None),
        "rect": rect, "group_by": group_by, "group_expr": None,
        "input_features": polys.features, "input_vertices": polys.vertices,
        "method_features": mpolys.features if method else 0,
        "method_vertices": mpolys.vertices if method else 0,
        "description": description,
    }


def overlay(scale, seed, out):
    """Two independent tessellations of the same square, intersected."""
    name = "overlay"
    rng = _rng(seed, name)
    n = max(8, int(SCALE_VERTICES[scale] / 2 / CELL_VERTICES))
    a, _ = tessellation(rng, n, SIZE)
    b, _ = tessellation(rng, n, SIZE)
    path = os.path.join(out, name + ".gpkg")
    gpkg.write(path, [
        gpkg.Layer("tess_a", "POLYGON", a, [("a_id", "INTEGER", range(1, n + 1)),
                                            ("a_code", "TEXT", _codes("A", n))]),
        gpkg.Layer("tess_b", "POLYGON", b, [("b_id", "INTEGER", range(1, n + 1)),
                                            ("b_code", "TEXT", _codes("B", n))]),
    ])
    return _entry(name, "intersection", path, "tess_a", a,
                  method=(path, "tess_b", b),
                  description="two independent Voronoi tessellations of one square "
                  "(%d cells each), intersected" % n)


def _cells_layer(polys, extra=()):
    n = polys.features
    return gpkg.Layer("cells", "POLYGON", polys,
                      [("id", "INTEGER", range(1, n + 1)),
                       ("code", "TEXT", _codes("C", n))] + list(extra))


def clip_rect(scale, seed, out):
    """A tessellation clipped by a rectangle covering about a quarter of it."""
    name = "clip_rect"
    rng = _rng(seed, name)
    n = max(8, int(SCALE_VERTICES[scale] / CELL_VERTICES))
    cells, _ = tessellation(rng, n, SIZE)
    path = os.path.join(out, name + ".gpkg")
    gpkg.write(path, [_cells_layer(cells)])
    rect = [f * SIZE for f in RECT_FRACTION]
    return _entry(name, "clip_rect", path, "cells", cells, rect=rect,
                  description="Voronoi tessellation (%d cells) clipped by the rectangle "
                  "%s (~25%% of the area)" % (n, rect))


def clip_layer(scale, seed, out):
    """A tessellation clipped by a few large concave regions (gaps and
    overlaps between them, two with a hole)."""
    name = "clip_layer"
    rng = _rng(seed, name)
    budget = SCALE_VERTICES[scale]
    n_regions = 6
    region_verts = int(np.clip(budget / 500, 64, 4000))
    centres = rng.uniform(0.2 * SIZE, 0.8 * SIZE, (n_regions, 2))
    radii = rng.uniform(0.15, 0.3, n_regions) * SIZE
    hole = np.zeros(n_regions, bool)
    hole[:2] = True
    regions = shapes.star_regions(rng, centres, radii, region_verts, hole)
    n = max(8, int((budget - regions.vertices) / CELL_VERTICES))
    cells, _ = tessellation(rng, n, SIZE)
    path = os.path.join(out, name + ".gpkg")
    gpkg.write(path, [
        _cells_layer(cells),
        gpkg.Layer("regions", "POLYGON", regions,
                   [("zone", "INTEGER", range(1, n_regions + 1)),
                    ("name", "TEXT", ["region %d" % i for i in range(1, n_regions + 1)])]),
    ])
    return _entry(name, "clip", path, "cells", cells, method=(path, "regions", regions),
                  description="Voronoi tessellation (%d cells) clipped by %d large "
                  "star-shaped concave regions of %d vertices (overlapping, with gaps, "
                  "two with a hole)" % (n, n_regions, region_verts))


def dissolve_coverage(scale, seed, out):
    """A tessellation dissolved by a coarse group key: the cells whose
    generator points are nearest to the same coarse seed (about 100 cells
    per group, mostly contiguous regions)."""
    name = "dissolve_coverage"
    rng = _rng(seed, name)
    n = max(8, int(SCALE_VERTICES[scale] / CELL_VERTICES))
    cells, pts = tessellation(rng, n, SIZE)
    n_groups = max(3, n // 100)
    seeds = rng.uniform(0.0, SIZE, (n_groups, 2))
    group = _nearest(pts, seeds)
    path = os.path.join(out, name + ".gpkg")
    gpkg.write(path, [_cells_layer(cells, [("grp", "TEXT",
                                            ["g%05d" % g for g in group])])])
    return _entry(name, "dissolve", path, "cells", cells, group_by="grp",
                  description="Voronoi tessellation (%d cells, a coverage) dissolved "
                  "by 'grp': %d coarse Voronoi regions" % (n, len(np.unique(group))))


def _nearest(points, seeds):
    from scipy.spatial import cKDTree
    _, idx = cKDTree(seeds).query(points)
    return idx


def dissolve_overlap(scale, seed, out):
    """Overlapping buffered points (64-gons of random radii) in clusters,
    dissolved by their cluster key."""
    name = "dissolve_overlap"
    rng = _rng(seed, name)
    m = max(4, int(SCALE_VERTICES[scale] / (NGON + 1)))
    n_clusters = max(2, m // 100)
    ccentres = rng.uniform(0.0, SIZE, (n_clusters, 2))
    spread = 0.5 * SIZE / np.sqrt(n_clusters)
    cluster = np.sort(rng.integers(0, n_clusters, m))
    centres = np.clip(ccentres[cluster] + rng.standard_normal((m, 2)) * spread * 0.5,
                      0.0, SIZE)
    radii = spread * 0.12 * rng.lognormal(0.0, 0.4, m)
    phases = rng.uniform(0.0, 2 * np.pi, m)
    bufs = shapes.ngons(centres, radii, phases, NGON)
    path = os.path.join(out, name + ".gpkg")
    gpkg.write(path, [gpkg.Layer("buffers", "POLYGON", bufs,
                                 [("id", "INTEGER", range(1, m + 1)),
                                  ("cluster", "INTEGER", cluster + 1)])])
    return _entry(name, "dissolve", path, "buffers", bufs, group_by="cluster",
                  description="%d overlapping %d-gons (buffered points, random radii) "
                  "in %d clusters, dissolved by 'cluster'"
                  % (m, NGON, len(np.unique(cluster))))


WORKLOADS = {
    "overlay": overlay,
    "clip_rect": clip_rect,
    "clip_layer": clip_layer,
    "dissolve_coverage": dissolve_coverage,
    "dissolve_overlap": dissolve_overlap,
}
