/*
 * rect_clip_pred.h - the geometric predicates of the rectangle clip
 * (elements/rect_clip/clip.h): where a point lies with respect to the
 * rectangle, whether a segment meets the rectangle's open interior, where
 * it crosses the boundary, and positions along the boundary.
 *
 * Every decision that changes the topology of the output is exact:
 * vertex positions are comparisons of input doubles, and "does this
 * segment meet the open rectangle" and "which of two rays leaving the same
 * boundary point comes first" are signs of 2x2 determinants of coordinate
 * differences, evaluated with a floating-point filter and, when the filter
 * cannot decide, exactly with floating-point expansions (two-sum /
 * fma two-product, the technique of Shewchuk's adaptive predicates; written
 * here from the published method, not copied). Only the coordinates of new
 * boundary points are rounded (one fma per point, so both backends round
 * the same way).
 */
#ifndef VSG_ELEMENTS_RECT_CLIP_PRED_H
#define VSG_ELEMENTS_RECT_CLIP_PRED_H

#include "elements/hd.h"
#include "elements/predicates.h"

/* rect = xmin, ymin, xmax, ymax throughout. */
enum { RC_IN = 0, RC_ON = 1, RC_OUT = 2 };

/* Where (x, y) is: strictly inside, on the boundary, strictly outside. */
VSG_HD int rc_where(const double *r, double x, double y)
{
    if (x < r[0] || x > r[2] || y < r[1] || y > r[3])
        return RC_OUT;
    if (x > r[0] && x < r[2] && y > r[1] && y < r[3])
        return RC_IN;
    return RC_ON;
}

/* ---- exact sign of a 2x2 determinant -------------------------------------- */
/* Sign of (bx-ax)(dy-cy) - (by-ay)(dx-cx), exactly (elements/predicates.h).
 * At magnitudes where even the expansion cannot be exact (products beyond
 * the double range or near underflow) the rounded determinant's sign is the
 * answer: both backends compute it alike. */
VSG_HD int rc_det_exact(double ax, double ay, double bx, double by, double cx, double cy,
                        double dx, double dy)
{
    int s = vsg_cross_sign_exact(ax, ay, bx, by, cx, cy, dx, dy);
    if (s != VSG_ORIENT_UNCERTAIN)
        return s;
    double det = (bx - ax) * (dy - cy) - (by - ay) * (dx - cx);
    return det > 0 ? 1 : det < 0 ? -1 : 0;
}

/* Sign of the cross product of (b - a) and (d - c). */
VSG_HD int rc_det_sign(double ax, double ay, double bx, double by, double cx, double cy,
                       double dx, double dy)
{
    double l = (bx - ax) * (dy - cy);
    double rr = (by - ay) * (dx - cx);
    double det = l - rr;
    /* four roundings of at most one ulp each, relative to |l| + |r| */
    double bound = 8.9e-16 * (fabs(l) + fabs(rr));
    if (det > bound)
        return 1;
    if (det < -bound)
        return -1;
    return rc_det_exact(ax, ay, bx, by, cx, cy, dx, dy);
}

/* Orientation of q relative to a -> b: +1 left, -1 right, 0 on the line. */
VSG_HD int rc_orient(double ax, double ay, double bx, double by, double qx, double qy)
{
    return rc_det_sign(ax, ay, bx, by, ax, ay, qx, qy);
}

/* Whether the closed segment a-b meets the open rectangle, for a segment
 * whose ends are both not strictly inside (otherwise it trivially does).
 * Separating axes: x, y and the segment's normal; exact. */
VSG_HD int rc_seg_meets(const double *r, double ax, double ay, double bx, double by)
{
    if (fmax(ax, bx) <= r[0] || fmin(ax, bx) >= r[2] || fmax(ay, by) <= r[1] ||
        fmin(ay, by) >= r[3])
        return 0;
    int pos = 0, neg = 0;
    const double cx[4] = {r[0], r[2], r[2], r[0]};
    const double cy[4] = {r[1], r[1], r[3], r[3]};
    for (int k = 0; k < 4; k++) {
        int s = rc_orient(ax, ay, bx, by, cx[k], cy[k]);
        pos |= s > 0;
        neg |= s < 0;
    }
    return pos && neg;
}

/* Whether segment a -> b meets the open rectangle. */
VSG_HD int rc_seg_inside(const double *r, double ax, double ay, double bx, double by)
{
    if (rc_where(r, ax, ay) == RC_IN || rc_where(r, bx, by) == RC_IN)
        return 1;
    return rc_seg_meets(r, ax, ay, bx, by);
}

/* The point where a -> b enters the closed rectangle, for a strictly
 * outside and a segment that meets the open rectangle (Liang-Barsky: the
 * last of the entering parameters). The coordinate on the crossed side is
 * exact, the other is rounded once and clamped into the side. */
VSG_HD void rc_entry_point(const double *r, double ax, double ay, double bx, double by,
                           double *px, double *py)
{
    double dx = bx - ax, dy = by - ay;
    double tx = -1.0, ty = -1.0, sx = 0.0, sy = 0.0;
    if (ax < r[0] && dx > 0.0) { sx = r[0]; tx = (r[0] - ax) / dx; }
    else if (ax > r[2] && dx < 0.0) { sx = r[2]; tx = (r[2] - ax) / dx; }
    if (ay < r[1] && dy > 0.0) { sy = r[1]; ty = (r[1] - ay) / dy; }
    else if (ay > r[3] && dy < 0.0) { sy = r[3]; ty = (r[3] - ay) / dy; }
    if (tx >= ty) {
        double y = fma(tx, dy, ay);
        *px = sx;
        *py = fmin(fmax(y, r[1]), r[3]);
    } else {
        double x = fma(ty, dx, ax);
        *px = fmin(fmax(x, r[0]), r[2]);
        *py = sy;
    }
}

/* Where the chain through a -> b enters (ends at b = 0) or leaves (1) the
 * rectangle: the vertex itself when it lies on the boundary. */
VSG_HD void rc_cross_point(const double *r, double ax, double ay, double bx, double by,
                           int leaving, double *px, double *py)
{
    if (leaving) {
        if (rc_where(r, bx, by) == RC_ON) { *px = bx; *py = by; }
        else rc_entry_point(r, bx, by, ax, ay, px, py);
    } else {
        if (rc_where(r, ax, ay) == RC_ON) { *px = ax; *py = ay; }
        else rc_entry_point(r, ax, ay, bx, by, px, py);
    }
}

/* Both points on one side of the rectangle (then the piece between them
 * runs along the boundary and is not in the open interior). */
VSG_HD int rc_same_side(const double *r, double px, double py, double qx, double qy)
{
    return (px == r[0] && qx == r[0]) || (px == r[2] && qx == r[2]) ||
           (py == r[1] && qy == r[1]) || (py == r[3] && qy == r[3]);
}

/* Position of a boundary point along the boundary, counter-clockwise from
 * (xmin, ymin): the side (0 bottom, 1 right, 2 top, 3 left; a corner
 * belongs to the side it starts) and a key increasing along that side.
 * Exact: no arithmetic on the coordinates. */
VSG_HD void rc_perim(const double *r, double x, double y, int *side, double *key)
{
    if (y == r[1] && x < r[2]) { *side = 0; *key = x; }
    else if (x == r[2] && y < r[3]) { *side = 1; *key = y; }
    else if (y == r[3] && x > r[0]) { *side = 2; *key = -x; }
    else { *side = 3; *key = -y; }
}

/* Corner k: the start of side k. */
VSG_HD void rc_corner(const double *r, int k, double *x, double *y)
{
    *x = (k == 1 || k == 2) ? r[2] : r[0];
    *y = (k >= 2) ? r[3] : r[1];
}

#endif
