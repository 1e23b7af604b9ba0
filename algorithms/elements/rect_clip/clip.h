/*
 * clip.h - the per-geometry path of vsg_stage_rect_clip, one call per
 * geometry and pass, identical on the host and the device. The stage runs
 * rows segment-parallel (elements/rect_clip/seg.h); this path walks the
 * few rows that path leaves to it (degenerate polygons, the rows it would
 * defer: docs/rect-clip.md) and gives rows that need no clip their kind
 * (rc_kind_of) and counts:
 *
 *   rc_prepare  what the row needs (null, empty, the input as it is, a
 *               clip, or the CPU engine) and, for a polygon clip, how many
 *               chain ends its scratch must hold
 *   rc_count    the clip in count mode: parts, rings, coordinates of the
 *               output (polygons: ends sorted, rings linked and checked
 *               here, kept in scratch for the fill)
 *   rc_fill     the same walk writing the output at the scanned offsets
 *
 * Semantics (those of the CPU engine's clip by rectangle, which is
 * GEOSClipByRect behind a box shortcut): a geometry whose box lies in the
 * closed rectangle is kept as it is, one whose box misses it is empty;
 * otherwise points strictly inside are kept, lines keep their pieces in
 * the open rectangle (closed at the boundary; pieces along the boundary
 * are dropped), polygons become their intersection with the rectangle,
 * parts of lower dimension dropped. docs/rect-clip.md says more.
 */
#ifndef VSG_ELEMENTS_RECT_CLIP_H
#define VSG_ELEMENTS_RECT_CLIP_H

#include "elements/box.h"
#include "elements/col_view.h"
#include "elements/rect_clip/poly.h"
#include "elements/rect_clip/seg_args.h"

/* the passes (one launch each on the GPU) */
enum { VSG_RC_PASS_PREPARE = 0, VSG_RC_PASS_COUNT = 1, VSG_RC_PASS_FILL = 2 };

/* what a row needs (kind[]) */
enum { RC_K_NULL = 0, RC_K_EMPTY = 1, RC_K_COPY = 2, RC_K_CLIP = 3, RC_K_CPU = 4 };

typedef struct {
    vsg_col_view in;
    const double *boxes;
    double rect[4];
    /* scratch */
    uint8_t *kind;                 /* n_geoms                                */
    int64_t *ep_count;             /* n_geoms: chain ends                    */
    const int64_t *ep_off;         /* n_geoms + 1 (scan of ep_count)         */
    rc_end *ends;                  /* ep_off[n_geoms]                        */
    int32_t *ord, *rank, *aux;     /* ep_off[n_geoms]                        */
    int32_t *ring_cls;             /* in.n_rings                             */
    int64_t *cnt_parts, *cnt_rings, *cnt_coords;   /* n_geoms                */
    uint8_t *row_cpu;              /* n_geoms                                */
    /* fill */
    const int64_t *part_off, *ring_off, *coord_off;  /* scans, n_geoms + 1   */
    uint8_t *o_type, *o_flags;
    int64_t *o_part_ring, *o_ring_coord;
    double *o_x, *o_y;
    /* the segment-parallel path (elements/rect_clip/seg.h) */
    rc_seg_args s;
} rc_args;


/* What row g needs (RC_K_*), from its flags, type and box: O(1). */
VSG_HD int rc_kind_of(const rc_args *a, int64_t g)
{
    const vsg_col_view *v = &a->in;
    const double *r = a->rect;
    uint8_t f = v->flags[g];
    int dim = vsg_gt_dimension(v->type[g]);
    const double *box = a->boxes + 4 * g;
    int k;
    if (f & VSG_GF_NULL)
        k = RC_K_NULL;
    else if ((f & (VSG_GF_Z | VSG_GF_UNSUPPORTED | VSG_GF_CORRUPT | VSG_GF_NONFINITE)) ||
             dim < 0)
        k = RC_K_CPU;
    else if ((f & VSG_GF_EMPTY) || v->geom_part[g] == v->geom_part[g + 1] ||
             !vsg_box_meets(box, r))
        k = RC_K_EMPTY;
    else if (vsg_box_covers(r, box))
        k = RC_K_COPY;
    else if (!(r[0] < r[2] && r[1] < r[3]))
        k = RC_K_CPU;    /* GEOSClipByRect refuses a rectangle with no area */
    else
        k = RC_K_CLIP;
    return k;
}

/* The per-geometry path's prepare (rows the segment-parallel path leaves
 * to it): the kind, and for a polygon clip the chain ends its scratch
 * must hold. Walks the geometry. */
VSG_HD void rc_prepare(const rc_args *a, int64_t g)
{
    const vsg_col_view *v = &a->in;
    const double *r = a->rect;
    int dim = vsg_gt_dimension(v->type[g]);
    int k = rc_kind_of(a, g);
    int64_t ends = 0;
    if (k == RC_K_CLIP && dim == 2) {
        for (int64_t p = v->geom_part[g]; p < v->geom_part[g + 1]; p++)
            for (int64_t ri = v->part_ring[p]; ri < v->part_ring[p + 1]; ri++) {
                rc_ring R;
                if (!rc_ring_open(v, ri, 1, 0, &R)) {
                    k = RC_K_CPU;
                    ends = 0;
                    break;
                }
                ends += 2 * rc_ring_chains(r, &R, ri, 0, 0);
            }
    }
    a->kind[g] = (uint8_t)k;
    a->ep_count[g] = ends;
    a->row_cpu[g] = k == RC_K_CPU;
}

/* Line part (ring ri of a LineString / MultiLineString): its pieces in the
 * open rectangle, each an output part of one ring. */
VSG_HD void rc_line(const rc_args *a, int64_t ri, rc_out *o)
{
    const vsg_col_view *v = &a->in;
    const double *r = a->rect;
    const double *x = v->x, *y = v->y;
    int64_t c0 = v->ring_coord[ri], n = v->ring_coord[ri + 1] - c0;
    if (n < 2) {
        o->err = 1;
        return;
    }
    for (int64_t i = 0; i + 1 < n;) {
        int64_t ia = c0 + i, ib = ia + 1;
        if (!rc_seg_inside(r, x[ia], y[ia], x[ib], y[ib])) {
            i++;
            continue;
        }
        int64_t i0 = i, j = i;   /* the piece runs while vertices are inside */
        while (j + 2 < n && rc_where(r, x[c0 + j + 1], y[c0 + j + 1]) == RC_IN)
            j++;
        int64_t ja = c0 + j, jb = ja + 1;
        double ex = x[ia], ey = y[ia], xx = x[jb], xy = y[jb];
        if (rc_where(r, ex, ey) != RC_IN)
            rc_cross_point(r, x[ia], y[ia], x[ib], y[ib], 0, &ex, &ey);
        if (rc_where(r, xx, xy) != RC_IN)
            rc_cross_point(r, x[ja], y[ja], x[jb], y[jb], 1, &xx, &xy);
        i = j + 1;
        if (j == i0 && rc_same_side(r, ex, ey, xx, xy))
            continue;
        int64_t before = o->n_rings;
        rc_ring_begin(o);
        rc_pt(o, ex, ey);
        for (int64_t k = ia + 1; k <= ja; k++)
            rc_pt(o, x[k], y[k]);
        rc_pt(o, xx, xy);
        rc_ring_end(o, 0);
        if (o->n_rings > before)
            rc_part_end(o);
    }
}

/* The clip of geometry g in COUNT or FILL mode. */
VSG_HD void rc_clip(const rc_args *a, int64_t g, rc_out *o)
{
    const vsg_col_view *v = &a->in;
    int dim = vsg_gt_dimension(v->type[g]);
    int64_t p0 = v->geom_part[g], p1 = v->geom_part[g + 1];
    if (dim == 0) {
        for (int64_t p = p0; p < p1; p++)
            for (int64_t ri = v->part_ring[p]; ri < v->part_ring[p + 1]; ri++)
                for (int64_t k = v->ring_coord[ri]; k < v->ring_coord[ri + 1]; k++)
                    if (rc_where(a->rect, v->x[k], v->y[k]) == RC_IN) {
                        rc_ring_begin(o);
                        rc_pt(o, v->x[k], v->y[k]);
                        rc_ring_end(o, 2);
                        rc_part_end(o);
                    }
    } else if (dim == 1) {
        for (int64_t p = p0; p < p1 && !o->err; p++)
            for (int64_t ri = v->part_ring[p]; ri < v->part_ring[p + 1]; ri++)
                rc_line(a, ri, o);
    } else {
        rc_poly_ctx c;
        c.v = v;
        c.r = a->rect;
        int64_t e0 = a->ep_off[g];
        c.ends = a->ends + e0;
        c.ord = a->ord + e0;
        c.rank = a->rank + e0;
        c.aux = a->aux + e0;
        c.n_ends = a->ep_off[g + 1] - e0;
        c.ring_cls = a->ring_cls;
        int64_t cursor = 0;
        for (int64_t p = p0; p < p1 && !o->err; p++)
            rc_poly_part(&c, p, o, &cursor);
    }
}

VSG_HD void rc_count(const rc_args *a, int64_t g)
{
    const vsg_col_view *v = &a->in;
    int64_t np = 0, nr = 0, nc = 0;
    int k = a->kind[g];
    if (k == RC_K_COPY) {
        int64_t p0 = v->geom_part[g], p1 = v->geom_part[g + 1];
        np = p1 - p0;
        nr = v->part_ring[p1] - v->part_ring[p0];
        nc = v->ring_coord[v->part_ring[p1]] - v->ring_coord[v->part_ring[p0]];
    } else if (k == RC_K_CLIP) {
        rc_out o;
        rc_out_init(&o, RC_COUNT);
        rc_clip(a, g, &o);
        if (o.err) {
            a->kind[g] = RC_K_CPU;
            a->row_cpu[g] = 1;
        } else {
            np = o.n_parts;
            nr = o.n_rings;
            nc = o.n_coords;
        }
    }
    a->cnt_parts[g] = np;
    a->cnt_rings[g] = nr;
    a->cnt_coords[g] = nc;
}

/* The single or multi type of a dimension. */
VSG_HD uint8_t rc_type_of(int dim, int64_t parts)
{
    int t = dim == 0 ? VSG_GT_POINT : dim == 1 ? VSG_GT_LINESTRING : VSG_GT_POLYGON;
    return (uint8_t)(parts > 1 ? t + 3 : t);   /* Multi* = single + 3 */
}

VSG_HD void rc_fill(const rc_args *a, int64_t g)
{
    const vsg_col_view *v = &a->in;
    int k = a->kind[g];
    int64_t part0 = a->part_off[g], ring0 = a->ring_off[g], coord0 = a->coord_off[g];
    int64_t np = a->part_off[g + 1] - part0;
    uint8_t type = v->type[g], flags = v->flags[g];
    if (k == RC_K_NULL) {
        flags = VSG_GF_NULL;
    } else if (k == RC_K_EMPTY || (k == RC_K_CLIP && np == 0)) {
        flags = VSG_GF_EMPTY;
    } else if (k == RC_K_COPY) {
        /* the row as it is: its parts, rings and coordinates are copied
         * by the per-part, per-ring and per-coordinate fill items
         * (elements/rect_clip/seg.h) */
    } else if (k == RC_K_CLIP) {
        rc_out o;
        rc_out_init(&o, RC_FILL);
        o.part0 = part0;
        o.ring0 = ring0;
        o.coord0 = coord0;
        o.part_ring = a->o_part_ring;
        o.ring_coord = a->o_ring_coord;
        o.x = a->o_x;
        o.y = a->o_y;
        rc_clip(a, g, &o);
        type = rc_type_of(vsg_gt_dimension(type), np);
        flags = 0;
    }
    a->o_type[g] = type;
    a->o_flags[g] = flags;
}

#endif
