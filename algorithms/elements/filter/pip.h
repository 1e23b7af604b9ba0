/*
 * pip.h - point in polygon (with holes, or a multipolygon): inside,
 * outside, on the boundary, or uncertain.
 *
 * Crossing number over every ring of the geometry (even-odd rule; for
 * valid polygons and multipolygons it is the OGC interior). The ray goes
 * to +x; an edge counts when it straddles the point's y half-open
 * (exact comparisons) and the point is strictly on the ray's side of it
 * (vsg_orient2d). Orientation 0 on a straddling edge, a point on a
 * horizontal edge or equal to a vertex is the boundary; an uncertain
 * orientation makes the answer uncertain. Every other comparison is exact,
 * so INSIDE / OUTSIDE / BOUNDARY are exact answers.
 */
#ifndef VSG_ELEMENTS_PIP_H
#define VSG_ELEMENTS_PIP_H

#include "elements/filter/bounds.h"
#include "elements/predicates.h"

enum {
    VSG_PIP_OUTSIDE = 0,
    VSG_PIP_INSIDE = 1,
    VSG_PIP_BOUNDARY = 2,
    VSG_PIP_UNCERTAIN = 3
};

/* One edge a->b against the ray from p to +x: 1 when it crosses (the
 * crossing parity's share), 0 when not, or BOUNDARY / UNCERTAIN. Shared by
 * the ring walk below and the chunked containment test of the classify
 * stage (elements/filter/classify.h), so both count crossings the same way. */
VSG_HD int vsg_pip_edge(double ax, double ay, double bx, double by, double px, double py)
{
    if (ax == px && ay == py)
        return VSG_PIP_BOUNDARY;
    if (ay == py && by == py) {             /* horizontal edge on the ray's line */
        if (fmin(ax, bx) <= px && px <= fmax(ax, bx))
            return VSG_PIP_BOUNDARY;
        return 0;
    }
    if ((ay > py) == (by > py))
        return 0;                           /* does not straddle (half-open) */
    if (fmax(ax, bx) < px)
        return 0;                           /* wholly left of the point */
    int o = vsg_orient2d(ax, ay, bx, by, px, py);
    if (o == VSG_ORIENT_UNCERTAIN)
        return VSG_PIP_UNCERTAIN;
    if (o == VSG_ORIENT_COLLINEAR) {
        /* straddling and on the line: on the edge if within its y span
         * (always, except the half-open end at the lower vertex, which
         * is a vertex: caught above) */
        if (fmin(ay, by) <= py && py <= fmax(ay, by))
            return VSG_PIP_BOUNDARY;
        return 0;
    }
    /* upward edge (by > ay): crossing to the right when p is left of it */
    return (by > ay) == (o == VSG_ORIENT_CCW) ? 1 : 0;
}

/* Point vs ring r alone: the crossing parity (0/1), or BOUNDARY, UNCERTAIN.
 * The ring is read as stored (closed: first == last); an unclosed ring is
 * read closed. */
VSG_HD int vsg_pip_ring(const vsg_col_view *v, int64_t r, double px, double py)
{
    int64_t k0, k1;
    if (!vsg_ring_coords(v, r, &k0, &k1) || k1 - k0 < 2)
        return VSG_PIP_UNCERTAIN;
    const double *x = v->x, *y = v->y;
    int parity = 0;
    for (int64_t k = k0; k < k1; k++) {
        int64_t kn = k + 1 < k1 ? k + 1 : k0;
        int s = vsg_pip_edge(x[k], y[k], x[kn], y[kn], px, py);
        if (s == VSG_PIP_BOUNDARY || s == VSG_PIP_UNCERTAIN)
            return s;
        parity ^= s;
    }
    return parity;
}

/* Point vs polygonal geometry g (all its rings): VSG_PIP_*. Rows that are
 * not polygonal or have no usable coordinates: UNCERTAIN. */
VSG_HD int vsg_pip_geom(const vsg_col_view *v, int64_t g, double px, double py)
{
    int64_t p0, p1, r0, r1;
    if (!vsg_geom_parts(v, g, &p0, &p1) || vsg_gt_dimension(v->type[g]) != 2 ||
        (v->flags[g] & VSG_GF_NO_COORDS))
        return VSG_PIP_UNCERTAIN;
    int parity = 0;
    for (int64_t p = p0; p < p1; p++) {
        if (!vsg_part_rings(v, p, &r0, &r1))
            return VSG_PIP_UNCERTAIN;
        for (int64_t r = r0; r < r1; r++) {
            int s = vsg_pip_ring(v, r, px, py);
            if (s == VSG_PIP_BOUNDARY || s == VSG_PIP_UNCERTAIN)
                return s;
            parity ^= s;
        }
    }
    return parity ? VSG_PIP_INSIDE : VSG_PIP_OUTSIDE;
}

#endif
