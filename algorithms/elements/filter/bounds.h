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

#include "elements/box.h"
#include "elements/col_view.h"

/* rows that have no coordinates the filter may use */
#define VSG_GF_NO_COORDS \
    (VSG_GF_NULL | VSG_GF_EMPTY | VSG_GF_UNSUPPORTED | VSG_GF_CORRUPT | VSG_GF_NONFINITE)

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

#endif
