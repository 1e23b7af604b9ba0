"""Polygon tessellations of a square: Voronoi cells of random points, with
their edges densified and gently wiggled so that cells look like real map
polygons (30-60 vertices, no long straight runs of collinear points).

How, in bulk (numpy and scipy's Qhull, no loop over vertices):

1. Points: half uniform, half from Gaussian clusters, so cell sizes vary by
   two orders of magnitude (dense "towns" and sparse "country"), as in real
   administrative maps.
2. Voronoi of the points plus their mirror images across the nearby sides
   of the square: the mirror of p across a side makes that side the
   bisector of p and its mirror, so every original cell is bounded and ends
   exactly at the square (the classic reflection trick; no clipping step).
   Vertices within 1e-9 of a side are snapped onto it.
3. Each Voronoi edge is densified ONCE, in a canonical direction (from its
   lower to its higher vertex index), into k pieces by its length relative
   to the size of the cells beside it; the inner points are moved sideways by
   a random amount bounded by a quarter of the piece length and by 0.3 of a
   lower bound of the point's distance to the rest of the cell's boundary
   (cells are convex: see _clearance_coefficients), so the cell stays simple. Both cells that
   share the edge take the same points (one reversed), bit for bit: the
   result is a true coverage (no gaps, no overlaps), which the coverage
   dissolve relies on. Edges on the square's sides stay straight.
"""
import numpy as np
from scipy.spatial import Voronoi

from polys import Polys, ring_signed_areas

WIGGLE = 0.25          # largest sideways move, as a fraction of the piece length
CLEARANCE = 0.3        # ... and of the distance to the neighbouring edges
POINTS_PER_SIZE = 10.0  # densification: one point per sqrt(cell area) / 10


def random_points(rng, n, size):
    """n points in [0, size]^2: half uniform, half in Gaussian clusters of
    varied spread (rejected and redrawn when they fall outside)."""
    n_uniform = n // 2
    pts = [rng.uniform(0.0, size, (n_uniform, 2))]
    n_clustered = n - n_uniform
    n_clusters = max(1, int(round(np.sqrt(n_clustered) / 4)))
    centres = rng.uniform(0.1 * size, 0.9 * size, (n_clusters, 2))
    spread = size * rng.uniform(0.01, 0.08, n_clusters)
    got = 0
    chunks = []
    while got < n_clustered:
        m = n_clustered - got
        c = rng.integers(0, n_clusters, m)
        p = centres[c] + rng.standard_normal((m, 2)) * spread[c, None]
        p = p[(p > 0).all(axis=1) & (p < size).all(axis=1)]
        chunks.append(p)
        got += len(p)
    pts.append(np.concatenate(chunks)[:n_clustered])
    return np.concatenate(pts)


def _voronoi_cells(points, size):
    """Voronoi cells of points restricted to [0, size]^2.

    Returns (vertices (V, 2), cell_vertex_index (flat), cell_offsets (n+1)).
    """
    n = len(points)
    spacing = size / np.sqrt(n)
    band = 6.0 * spacing
    x, y = points[:, 0], points[:, 1]
    mirrors = [points]
    for sel, fx, fy in ((x < band, lambda v: -v, None),
                        (x > size - band, lambda v: 2 * size - v, None),
                        (y < band, None, lambda v: -v),
                        (y > size - band, None, lambda v: 2 * size - v)):
        m = points[sel].copy()
        if fx is not None:
            m[:, 0] = fx(m[:, 0])
        else:
            m[:, 1] = fy(m[:, 1])
        mirrors.append(m)
    vor = Voronoi(np.concatenate(mirrors))
    regions = [vor.regions[r] for r in vor.point_region[:n]]
    lens = np.fromiter((len(r) for r in regions), np.int64, n)
    flat = np.fromiter((v for r in regions for v in r), np.int64, int(lens.sum()))
    if (flat < 0).any():
        raise RuntimeError("unbounded cell: mirror band too narrow")
    verts = vor.vertices.copy()
    tol = 1e-9 * size
    if (verts[np.unique(flat)] < -tol).any() or (verts[np.unique(flat)] > size + tol).any():
        raise RuntimeError("cell outside the square: mirror band too narrow")
    for k in (0, 1):
        c = verts[:, k]
        c[np.abs(c) <= tol] = 0.0
        c[np.abs(c - size) <= tol] = size
    off = np.zeros(n + 1, np.int64)
    np.cumsum(lens, out=off[1:])
    return verts, flat, off


def _merge_close_vertices(verts, flat, off, tol):
    """Qhull may report one degenerate vertex (four cocircular points) as
    two a rounding error apart. Map every vertex of such a tiny edge to one
    representative, everywhere, then drop repeats inside each cell, so that
    neighbouring cells keep sharing exactly the same vertices."""
    nxt = _next_in_ring(flat, off)
    d = np.hypot(*(verts[flat] - verts[nxt]).T)
    tiny = d < tol
    rep = np.arange(len(verts))
    if tiny.any():
        a, b = flat[tiny], nxt[tiny]
        for _ in range(8):       # short chains of tiny edges resolve fast
            lo = np.minimum(rep[a], rep[b])
            changed = (rep[a] != lo) | (rep[b] != lo)
            rep[a] = np.minimum(rep[a], lo)
            rep[b] = np.minimum(rep[b], lo)
            rep = rep[rep]
            if not changed.any():
                break
        flat = rep[flat]
        keep = flat != _next_in_ring(flat, off)
        cell = np.repeat(np.arange(len(off) - 1), np.diff(off))
        flat = flat[keep]
        lens = np.bincount(cell[keep], minlength=len(off) - 1)
        off = np.zeros(len(lens) + 1, np.int64)
        np.cumsum(lens, out=off[1:])
    return flat, off


def _next_pos(off):
    """Index of the next position within each cell, wrapping around."""
    idx = np.arange(off[-1]) + 1
    idx[off[1:] - 1] = off[:-1]
    return idx


def _sin_angle(apex, p, q, cap):
    """sin of the angle p-apex-q, taken as 1 beyond 90 degrees when cap."""
    u, v = p - apex, q - apex
    cross = np.abs(u[:, 0] * v[:, 1] - u[:, 1] * v[:, 0])
    dot = (u * v).sum(axis=1)
    s = cross / np.maximum(np.hypot(u[:, 0], u[:, 1]) * np.hypot(v[:, 0], v[:, 1]), 1e-300)
    return np.where(cap & (dot < 0), 1.0, s)


def _clearance_coefficients(verts, flat, off, forward):
    """Per edge occurrence a->b of a cell (p before a, c after b), two lower
    bounds of the distance from a point of ab, at distance d_a from a and d_b
    from b, to the rest of the (convex) cell's boundary:

      D1 = min(d_a sin(bac), d_b sin(abc))   the chain after b lies beyond
           line ac, or on segment bc
      D2 = min(d_b sin(abp), d_a sin(bap))   the same from the other side

    Returned as coefficients of (d_lo, d_hi) in the edge's canonical direction
    (columns: D1 lo, D1 hi, D2 lo, D2 hi), so that both cells' bounds of a
    shared edge can be compared point by point. A very short edge next to ab
    (the cut tip of a thin cell) makes these small: the wiggle then fades."""
    nxt_pos = _next_pos(off)
    prv_pos = np.empty_like(nxt_pos)
    prv_pos[nxt_pos] = np.arange(len(flat))
    A = verts[flat]
    B = verts[flat[nxt_pos]]
    C = verts[flat[nxt_pos[nxt_pos]]]
    P = verts[flat[prv_pos]]
    line_a = _sin_angle(A, B, C, False)
    seg_b = _sin_angle(B, A, C, True)
    line_b = _sin_angle(B, A, P, False)
    seg_a = _sin_angle(A, B, P, True)
    # forward: a is lo; else a is hi
    d1_lo = np.where(forward, line_a, seg_b)
    d1_hi = np.where(forward, seg_b, line_a)
    d2_lo = np.where(forward, seg_a, line_b)
    d2_hi = np.where(forward, line_b, seg_a)
    return np.stack([d1_lo, d1_hi, d2_lo, d2_hi], axis=1)


def _reach(coef, t, length):
    """Clearance bound of the points at parameter t (canonical direction)."""
    d_lo, d_hi = t * length, (1.0 - t) * length
    return np.maximum(np.minimum(d_lo * coef[:, 0], d_hi * coef[:, 1]),
                      np.minimum(d_lo * coef[:, 2], d_hi * coef[:, 3]))


def _next_in_ring(flat, off):
    """flat[i + 1] within each cell, wrapping to the cell's first vertex."""
    idx = np.arange(len(flat)) + 1
    ends = off[1:] - 1
    idx[ends] = off[:-1]
    return flat[idx]


def tessellation(rng, n_cells, size):
    """A densified Voronoi tessellation of [0, size]^2 with n_cells cells.

    Returns (Polys, generator points (n, 2)); feature i is the cell of
    point i, one counter-clockwise ring each."""
    pts = random_points(rng, n_cells, size)
    verts, flat, off = _voronoi_cells(pts, size)
    flat, off = _merge_close_vertices(verts, flat, off, 1e-9 * size)
    n = len(off) - 1
    cell = np.repeat(np.arange(n), np.diff(off))

    # orientation: counter-clockwise (positive shoelace area)
    closed_idx, closed_off = _closed(flat, off)
    areas = ring_signed_areas(verts[closed_idx], closed_off)
    flip = areas < 0
    if flip.any():
        pos = np.arange(len(flat)) - off[cell]
        lens = np.diff(off)[cell]
        rev = off[cell] + (lens - 1 - pos)
        flat = np.where(flip[cell], flat[rev], flat)
    cell_size = np.sqrt(np.abs(areas))

    # unique edges, canonical direction lo -> hi
    a = flat
    b = _next_in_ring(flat, off)
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    key = lo * len(verts) + hi
    ukey, inv = np.unique(key, return_inverse=True)
    ulo, uhi = ukey // len(verts), ukey % len(verts)
    p0, p1 = verts[ulo], verts[uhi]
    vec = p1 - p0
    length = np.hypot(vec[:, 0], vec[:, 1])
    # the size of the cells beside an edge (one or two), the same seen from
    # either side
    esize = np.bincount(inv, weights=cell_size[cell]) / np.bincount(inv)
    k = np.maximum(1, np.ceil(length * POINTS_PER_SIZE / esize)).astype(np.int64)

    # inner points of every unique edge, in canonical order
    n_inner = k - 1
    inner_off = np.zeros(len(k) + 1, np.int64)
    np.cumsum(n_inner, out=inner_off[1:])
    e_of = np.repeat(np.arange(len(k)), n_inner)
    j = np.arange(inner_off[-1]) - inner_off[e_of] + 1
    t = j / k[e_of]
    on_side = (((p0[:, 0] == 0) & (p1[:, 0] == 0)) | ((p0[:, 0] == size) & (p1[:, 0] == size))
               | ((p0[:, 1] == 0) & (p1[:, 1] == 0)) | ((p0[:, 1] == size) & (p1[:, 1] == size)))
    # How far an inner point may move sideways: a fraction of the piece
    # length (a wiggle, not a zigzag), and a fraction of its clearance, a
    # lower bound of its distance to the rest of the cell's boundary (see
    # _clearance_coefficients), the smaller of the two cells' bounds so that
    # both agree. Both neighbours' moves stay under 0.3 of their clearance, so
    # two moved points can never meet.
    order = np.argsort(inv, kind="stable")
    first = np.zeros(len(k), np.int64)
    last = np.zeros(len(k), np.int64)
    first[inv[order[::-1]]] = order[::-1]
    last[inv[order]] = order
    coef = _clearance_coefficients(verts, flat, off, a == lo)
    te, le = t, length[e_of]
    reach = np.minimum(_reach(coef[first[e_of]], te, le), _reach(coef[last[e_of]], te, le))
    piece = length / k
    amp = np.minimum(WIGGLE * piece[e_of], CLEARANCE * reach)
    amp[on_side[e_of]] = 0.0
    u = rng.uniform(-1.0, 1.0, len(t))
    normal = np.stack([-vec[:, 1], vec[:, 0]], axis=1) / np.maximum(length, 1e-300)[:, None]
    inner = p0[e_of] + t[:, None] * vec[e_of] + (amp * u)[:, None] * normal[e_of]

    # every point: Voronoi vertices first, then inner points
    allpts = np.concatenate([verts, inner])
    nv = len(verts)

    # ring assembly: each edge occurrence emits its start vertex and its inner
    # points in the direction the ring walks it
    ke = k[inv]
    forward = a == lo
    occ_off = np.zeros(len(a) + 1, np.int64)
    np.cumsum(ke, out=occ_off[1:])
    occ = np.repeat(np.arange(len(a)), ke)
    pos = np.arange(occ_off[-1]) - occ_off[occ]
    ue = inv[occ]
    inner_pos = np.where(forward[occ], pos - 1, ke[occ] - 1 - pos)
    gid = np.where(pos == 0, a[occ], nv + inner_off[ue] + inner_pos)

    # close the rings: the cell's points are those of its edge occurrences
    cell_pts = np.bincount(cell, weights=ke, minlength=n).astype(np.int64)
    ring_off = np.zeros(n + 1, np.int64)
    np.cumsum(cell_pts + 1, out=ring_off[1:])
    out = np.empty(ring_off[-1], np.int64)
    src_start = np.zeros(n, np.int64)
    np.cumsum(cell_pts[:-1], out=src_start[1:])
    dest = np.arange(len(gid)) + np.repeat(np.arange(n), cell_pts)
    out[dest] = gid
    out[ring_off[1:] - 1] = gid[src_start]
    return Polys(allpts[out], ring_off), pts


def _closed(flat, off):
    """Index array of closed rings (first vertex repeated) and their offsets."""
    n = len(off) - 1
    lens = np.diff(off)
    ring_off = np.zeros(n + 1, np.int64)
    np.cumsum(lens + 1, out=ring_off[1:])
    out = np.empty(ring_off[-1], np.int64)
    dest = np.arange(len(flat)) + np.repeat(np.arange(n), lens)
    out[dest] = flat
    out[ring_off[1:] - 1] = flat[off[:-1]]
    return out, ring_off
