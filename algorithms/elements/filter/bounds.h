/*
 * bounds.h - per-geometry element logic of the bounds stage, and the
 * checked walks over a geometry's offsets that the other filter elements
 * share.
 *
 * A geometry's coordinates are one contiguous range of x/y (the offsets
 * are monotone), so its box is a min/max over [k0, k1): the host loops over
 * it; the device splits the range over the lanes of a warp and reduces.
 */
#ifndef VSG_ELEMENTS_BOUNDS_H
#define VSG_ELEMENTS_BOUNDS_H

#include "elements/atomics.h"
#include "elements/box.h"
#include "elements/col_view.h"

/* rows that have no coordinates the filter may use */
#define VSG_GF_NO_COORDS \
    (VSG_GF_NULL | VSG_GF_EMPTY | VSG_GF_UNSUPPORTED | VSG_GF_CORRUPT | VSG_GF_NONFINITE)

/* The last index i in [0, n) with a[i] <= v, for a non-decreasing a with
 * a[0] <= v; -1 when v < a[0]. O(log n). */
VSG_HD int64_t vsg_last_le(const int64_t *a, int64_t n, int64_t v)
{
    int64_t lo = 0, hi = n;      /* answer + 1 in [lo, hi] */
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (a[mid] <= v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo - 1;
}

/* The part range [*p0, *p1) of geometry g; 0 when g or its offsets are out
 * of range (then the row is treated as having no coordinates). */
VSG_HD int vsg_geom_parts(const vsg_col_view *v, int64_t g, int64_t *p0, int64_t *p1)
{
    if (g < 0 || g >= v->n_geoms)
        return 0;
    *p0 = v->geom_part[g];
    *p1 = v->geom_part[g + 1];
    return 0 <= *p0 && *p0 <= *p1 && *p1 <= v->n_parts;
}

VSG_HD int vsg_part_rings(const vsg_col_view *v, int64_t p, int64_t *r0, int64_t *r1)
{
    if (p < 0 || p >= v->n_parts)
        return 0;
    *r0 = v->part_ring[p];
    *r1 = v->part_ring[p + 1];
    return 0 <= *r0 && *r0 <= *r1 && *r1 <= v->n_rings;
}

VSG_HD int vsg_ring_coords(const vsg_col_view *v, int64_t r, int64_t *k0, int64_t *k1)
{
    if (r < 0 || r >= v->n_rings)
        return 0;
    *k0 = v->ring_coord[r];
    *k1 = v->ring_coord[r + 1];
    return 0 <= *k0 && *k0 <= *k1 && *k1 <= v->n_coords;
}

/* The coordinate range [*k0, *k1) of geometry g; 0 (and an empty range)
 * when the row has no usable coordinates: flagged, or offsets out of range. */
VSG_HD int vsg_geom_coords(const vsg_col_view *v, int64_t g, int64_t *k0, int64_t *k1)
{
    int64_t p0, p1;
    *k0 = *k1 = 0;
    if (!vsg_geom_parts(v, g, &p0, &p1) || (v->flags[g] & VSG_GF_NO_COORDS) || p0 == p1)
        return 0;
    int64_t r0 = v->part_ring[p0], r1 = v->part_ring[p1];
    if (!(0 <= r0 && r0 <= r1 && r1 <= v->n_rings) || r0 == r1)
        return 0;
    int64_t c0 = v->ring_coord[r0], c1 = v->ring_coord[r1];
    if (!(0 <= c0 && c0 <= c1 && c1 <= v->n_coords))
        return 0;
    *k0 = c0;
    *k1 = c1;
    return c0 < c1;
}

VSG_HD void vsg_box_set_inverted(double *box)
{
    box[0] = box[1] = INFINITY;
    box[2] = box[3] = -INFINITY;
}

/* box of coordinates [k0, k1) taking every stride-th from k0 (the device
 * gives each lane of a warp its own k0 and stride 32); inverted if none. */
VSG_HD void vsg_box_of_coords(const double *x, const double *y, int64_t k0, int64_t k1,
                              int64_t stride, double *box)
{
    double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
    for (int64_t k = k0; k < k1; k += stride) {
        double px = x[k], py = y[k];
        x0 = fmin(x0, px);
        x1 = fmax(x1, px);
        y0 = fmin(y0, py);
        y1 = fmax(y1, py);
    }
    box[0] = x0;
    box[1] = y0;
    box[2] = x1;
    box[3] = y1;
}

/* boxes[4g .. 4g+3] for geometry g: the whole element on one thread. */
VSG_HD void vsg_bounds_geom(const vsg_col_view *v, int64_t g, double *boxes)
{
    int64_t k0, k1;
    if (!vsg_geom_coords(v, g, &k0, &k1)) {
        vsg_box_set_inverted(boxes + 4 * g);
        return;
    }
    vsg_box_of_coords(v->x, v->y, k0, k1, 1, boxes + 4 * g);
}

/* ---- the load-balanced bounds ------------------------------------------------
 * The coordinates are cut into blocks of VSG_BOUNDS_BLOCK; one item per
 * block keeps a running box and, at each geometry border it crosses (and
 * at its end), merges the box into the geometry's with an atomic min/max
 * on order-preserving integer images of the doubles. So a 10^5-vertex
 * country and a million points cost the same per item. A finishing pass
 * per geometry turns the images back into doubles, and gives rows with no
 * usable coordinates the inverted box: the boxes of vsg_bounds_geom (a
 * zero may differ in sign: -0.0 orders below +0.0 here). */

/* 64, not 256: one thread walks its block alone, so 256 left a batch of
 * 2.5 M coordinates 10,000 threads, a few percent of an H200 (2026-11-28) */
#define VSG_BOUNDS_BLOCK 64

/* The order-preserving image of a double (not NaN): a < b iff ord(a) <
 * ord(b) as unsigned integers; -0.0 sorts just below +0.0. */
VSG_HD uint64_t vsg_ord_of(double d)
{
    union { double d; uint64_t u; } c;
    c.d = d;
    return (c.u >> 63) ? ~c.u : (c.u | 0x8000000000000000ull);
}

VSG_HD double vsg_double_of_ord(uint64_t u)
{
    union { double d; uint64_t u; } c;
    c.u = (u >> 63) ? (u & 0x7FFFFFFFFFFFFFFFull) : ~u;
    return c.d;
}

/* ord[4g .. 4g+3] starts as the inverted box. */
VSG_HD void vsg_bounds_ord_init(int64_t g, uint64_t *ord)
{
    ord[4 * g] = ord[4 * g + 1] = vsg_ord_of(INFINITY);
    ord[4 * g + 2] = ord[4 * g + 3] = vsg_ord_of(-INFINITY);
}

/* The geometry that holds coordinate k, and the end of its coordinates;
 * -1 when the offsets do not say. */
VSG_HD int64_t vsg_coord_geom(const vsg_col_view *v, int64_t k, int64_t *end)
{
    int64_t r = vsg_last_le(v->ring_coord, v->n_rings + 1, k);
    if (r < 0 || r >= v->n_rings)
        return -1;
    int64_t p = vsg_last_le(v->part_ring, v->n_parts + 1, r);
    if (p < 0 || p >= v->n_parts)
        return -1;
    int64_t g = vsg_last_le(v->geom_part, v->n_geoms + 1, p);
    if (g < 0 || g >= v->n_geoms)
        return -1;
    int64_t pe = v->geom_part[g + 1];
    if (pe < 0 || pe > v->n_parts)
        return -1;
    int64_t re = v->part_ring[pe];
    if (re < 0 || re > v->n_rings)
        return -1;
    *end = v->ring_coord[re];
    return *end > k ? g : -1;
}

/* Box b into the ordered box o[0 .. 3], with atomics. */
VSG_HD void vsg_ord_box_merge(uint64_t *o, const double *b)
{
    VSG_ORD_MIN(o, vsg_ord_of(b[0]));
    VSG_ORD_MIN(o + 1, vsg_ord_of(b[1]));
    VSG_ORD_MAX(o + 2, vsg_ord_of(b[2]));
    VSG_ORD_MAX(o + 3, vsg_ord_of(b[3]));
}

VSG_HD void vsg_bounds_merge(const vsg_col_view *v, int64_t g, const double *b, uint64_t *ord)
{
    if (g < 0 || (v->flags[g] & VSG_GF_NO_COORDS) || b[0] > b[2])
        return;
    vsg_ord_box_merge(ord + 4 * g, b);
}

/* Block b of the coordinates into ord. Returns the coordinates read. */
VSG_HD int64_t vsg_bounds_block(const vsg_col_view *v, int64_t b, uint64_t *ord)
{
    int64_t k0 = b * VSG_BOUNDS_BLOCK;
    int64_t k1 = k0 + VSG_BOUNDS_BLOCK < v->n_coords ? k0 + VSG_BOUNDS_BLOCK : v->n_coords;
    int64_t k = k0;
    while (k < k1) {
        int64_t end = 0, g = vsg_coord_geom(v, k, &end);
        int64_t e = g < 0 ? k + 1 : (end < k1 ? end : k1);
        double box[4];
        vsg_box_of_coords(v->x, v->y, k, e, 1, box);
        vsg_bounds_merge(v, g, box, ord);
        k = e;
    }
    return k1 - k0;
}

/* boxes[4g .. 4g+3] from ord; inverted for rows with no usable coordinates. */
VSG_HD void vsg_bounds_finish(const vsg_col_view *v, int64_t g, const uint64_t *ord,
                              double *boxes)
{
    int64_t k0, k1;
    if (!vsg_geom_coords(v, g, &k0, &k1)) {
        vsg_box_set_inverted(boxes + 4 * g);
        return;
    }
    for (int i = 0; i < 4; i++)
        boxes[4 * g + i] = vsg_double_of_ord(ord[4 * g + i]);
}

#endif
