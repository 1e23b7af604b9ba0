/*
 * rect_clip_out.h - the output sink of the rectangle clip. The count pass
 * and the fill pass run the same emission code: in RC_COUNT mode the sink
 * only counts (and measures each ring's signed area, so that a ring of the
 * wrong orientation or with no area is caught before anything is
 * written), in RC_FILL mode it writes the columnar arrays at the offsets
 * the scans gave, in RC_PIP mode it runs a crossing-number point-in-ring
 * test of one point against the emitted ring (exact orientation), which is
 * how holes are given to their output shells.
 *
 * Consecutive equal points are emitted once: the walk along the rectangle
 * meets a corner or a chain end twice where they coincide.
 */
#ifndef VSG_ELEMENTS_RECT_CLIP_OUT_H
#define VSG_ELEMENTS_RECT_CLIP_OUT_H

#include "elements/rect_clip/pred.h"

enum { RC_COUNT = 0, RC_FILL = 1, RC_PIP = 2 };

typedef struct {
    int mode;
    int err;                    /* a ring the kernel will not write        */
    /* counters, local to the geometry */
    int64_t n_parts, n_rings, n_coords;
    /* RC_FILL: global offsets of this geometry's first part, ring, coord,
     * and the arrays (part_ring / ring_coord get their end entries) */
    int64_t part0, ring0, coord0;
    int64_t *part_ring, *ring_coord;
    double *x, *y;
    /* the ring being emitted */
    int64_t ring_first;         /* n_coords at ring start                  */
    double fx, fy, lx, ly;      /* first and last point                    */
    double area2;               /* twice the signed area (RC_COUNT)        */
    /* RC_PIP */
    double qx, qy;
    int inside, on_ring;
} rc_out;

VSG_HD void rc_out_init(rc_out *o, int mode)
{
    o->mode = mode;
    o->err = 0;
    o->n_parts = o->n_rings = o->n_coords = 0;
    o->part0 = o->ring0 = o->coord0 = 0;
    o->part_ring = o->ring_coord = 0;
    o->x = o->y = 0;
    o->ring_first = 0;
    o->fx = o->fy = o->lx = o->ly = 0.0;
    o->area2 = 0.0;
    o->qx = o->qy = 0.0;
    o->inside = o->on_ring = 0;
}

VSG_HD void rc_ring_begin(rc_out *o)
{
    o->ring_first = o->n_coords;
    o->area2 = 0.0;
}

/* The segment (lx, ly) -> (x, y) against the point-in-ring query. */
VSG_HD void rc_pip_edge(rc_out *o, double x, double y)
{
    double ax = o->lx, ay = o->ly, qx = o->qx, qy = o->qy;
    int s = rc_orient(ax, ay, x, y, qx, qy);
    if (s == 0 && qx >= fmin(ax, x) && qx <= fmax(ax, x) && qy >= fmin(ay, y) &&
        qy <= fmax(ay, y)) {
        o->on_ring = 1;
        return;
    }
    if ((ay > qy) != (y > qy) && (s > 0) == (y > ay))
        o->inside ^= 1;
}

/* Appends a point; force: even when it equals the last one (closing). */
VSG_HD void rc_put(rc_out *o, double x, double y, int force)
{
    int64_t k = o->n_coords - o->ring_first;
    if (k > 0 && !force && x == o->lx && y == o->ly)
        return;
    if (k == 0) {
        o->fx = x;
        o->fy = y;
    } else if (o->mode == RC_COUNT) {
        /* about the first point: no cancellation against large coordinates */
        o->area2 += (o->lx - o->fx) * (y - o->fy) - (x - o->fx) * (o->ly - o->fy);
    } else if (o->mode == RC_PIP) {
        rc_pip_edge(o, x, y);
    }
    if (o->mode == RC_FILL) {
        o->x[o->coord0 + o->n_coords] = x;
        o->y[o->coord0 + o->n_coords] = y;
    }
    o->lx = x;
    o->ly = y;
    o->n_coords++;
}

VSG_HD void rc_pt(rc_out *o, double x, double y) { rc_put(o, x, y, 0); }

/* Closes the ring. want: +1 a shell (counter-clockwise), -1 a hole, 0 a
 * linestring piece (kept when it has two distinct points, else dropped),
 * 2 a point. */
VSG_HD void rc_ring_end(rc_out *o, int want)
{
    int64_t k = o->n_coords - o->ring_first;
    if (want == 2) {
        /* a point: nothing to check */
    } else if (want == 0) {
        if (k < 2) {                /* a piece that collapsed: dropped       */
            o->n_coords = o->ring_first;
            return;
        }
    } else {
        if (k == 1 || (k > 1 && (o->lx != o->fx || o->ly != o->fy)))
            rc_put(o, o->fx, o->fy, 1);
        k = o->n_coords - o->ring_first;
        if (o->mode == RC_COUNT && (k < 4 || (want > 0 ? o->area2 <= 0.0 : o->area2 >= 0.0)))
            o->err = 1;
    }
    if (o->mode == RC_FILL)
        o->ring_coord[o->ring0 + o->n_rings + 1] = o->coord0 + o->n_coords;
    o->n_rings++;
}

VSG_HD void rc_part_end(rc_out *o)
{
    if (o->mode == RC_FILL)
        o->part_ring[o->part0 + o->n_parts + 1] = o->ring0 + o->n_rings;
    o->n_parts++;
}

#endif
