"""Polygon shapes other than tessellations, built in bulk: star-shaped
regions (large, concave, some with a hole), regular n-gons (buffered
points) and rectangular grids.
"""
import numpy as np

from polys import Polys


def _closed_rings(xy, nverts):
    """(m, nverts, 2) ring points -> flat closed rings and their offsets."""
    m = xy.shape[0]
    closed = np.concatenate([xy, xy[:, :1, :]], axis=1).reshape(-1, 2)
    ring_off = np.arange(m + 1, dtype=np.int64) * (nverts + 1)
    return closed, ring_off


def star_regions(rng, centres, radii, nverts, hole=None):
    """Star-shaped concave polygons, one per centre: r(theta) = R (1 + sum of
    a few random harmonics), harmonics summing to at most 0.5 in amplitude,
    so r > 0.5 R and the ring is simple (star-shaped about its centre).

    hole: boolean per polygon; a hole is a smaller star, r_h < 0.4 R <
    min r, clockwise. Returns Polys (one part per feature)."""
    m = len(centres)
    theta = np.linspace(0.0, 2 * np.pi, nverts, endpoint=False)
    n_harm = 5
    freq = np.arange(2, 2 + n_harm)
    amp = rng.uniform(0.0, 1.0, (m, n_harm))
    amp *= 0.5 / amp.sum(axis=1, keepdims=True)
    phase = rng.uniform(0.0, 2 * np.pi, (m, n_harm))
    r = radii[:, None] * (1.0 + np.einsum(
        "mh,mht->mt", amp, np.sin(freq[None, :, None] * theta[None, None, :]
                                  + phase[:, :, None])))
    xy = np.stack([centres[:, 0, None] + r * np.cos(theta),
                   centres[:, 1, None] + r * np.sin(theta)], axis=2)
    outer, outer_off = _closed_rings(xy, nverts)
    if hole is None or not np.any(hole):
        return Polys(outer, outer_off)
    # holes: clockwise (theta decreasing), radius 0.25-0.4 R
    hm = np.flatnonzero(hole)
    hv = max(16, nverts // 4)
    ht = np.linspace(2 * np.pi, 0.0, hv, endpoint=False)
    hr = radii[hm, None] * (0.32 + 0.08 * np.sin(3 * ht[None, :]
                                                  + rng.uniform(0, 2 * np.pi, (len(hm), 1))))
    hxy = np.stack([centres[hm, 0, None] + hr * np.cos(ht),
                    centres[hm, 1, None] + hr * np.sin(ht)], axis=2)
    holes, _ = _closed_rings(hxy, hv)
    # interleave: polygon i = outer ring i (+ its hole)
    rings_per = 1 + hole.astype(np.int64)
    ring_lens = []
    chunks = []
    hi = 0
    for i in range(m):        # m is a handful of regions
        chunks.append(outer[i * (nverts + 1):(i + 1) * (nverts + 1)])
        ring_lens.append(nverts + 1)
        if hole[i]:
            chunks.append(holes[hi * (hv + 1):(hi + 1) * (hv + 1)])
            ring_lens.append(hv + 1)
            hi += 1
    ring_off = np.zeros(len(ring_lens) + 1, np.int64)
    np.cumsum(ring_lens, out=ring_off[1:])
    part_off = np.zeros(m + 1, np.int64)
    np.cumsum(rings_per, out=part_off[1:])
    return Polys(np.concatenate(chunks), ring_off, part_off)


def ngons(centres, radii, phases, nverts):
    """Regular counter-clockwise n-gons (buffered points), one per centre,
    each rotated by its own phase so that no two share directions."""
    theta = phases[:, None] + np.linspace(0.0, 2 * np.pi, nverts, endpoint=False)[None, :]
    xy = np.stack([centres[:, 0, None] + radii[:, None] * np.cos(theta),
                   centres[:, 1, None] + radii[:, None] * np.sin(theta)], axis=2)
    coords, ring_off = _closed_rings(xy, nverts)
    return Polys(coords, ring_off)


def grid(extent, n):
    """n x n rectangles over extent = (xmin, ymin, xmax, ymax), row-major
    from the lower left; returns (Polys, rows, cols)."""
    xmin, ymin, xmax, ymax = extent
    xs = np.linspace(xmin, xmax, n + 1)
    ys = np.linspace(ymin, ymax, n + 1)
    row, col = np.divmod(np.arange(n * n), n)
    x0, x1, y0, y1 = xs[col], xs[col + 1], ys[row], ys[row + 1]
    xy = np.stack([np.stack([x0, x1, x1, x0], axis=1),
                   np.stack([y0, y0, y1, y1], axis=1)], axis=2)
    coords, ring_off = _closed_rings(xy, 4)
    return Polys(coords, ring_off), row, col
