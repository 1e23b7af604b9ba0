/*
 * classify.h - per candidate pair: can the refine be skipped? DISJOINT,
 * A_IN_B, B_IN_A or REFINE (the VSG_CLS_* of elements/filter/classify.h).
 *
 * For two polygonal geometries whose boundaries do not meet, every ring of
 * one is a connected curve missing the other's boundary, so it lies wholly
 * in the other's interior or wholly in its exterior, and one vertex per
 * ring tells which. Then (for valid polygons and multipolygons):
 *
 *   A_IN_B    every ring of a inside b and every ring of b outside a
 *             (a hole of b inside a's interior would cut a);
 *   B_IN_A    the same with a and b exchanged;
 *   DISJOINT  every ring of each outside the other.
 *
 * So the test is: (1) no edge of a meets an edge of b - every segment
 * pair is VSG_SEG_DISJOINT, any touch, crossing or uncertainty gives
 * REFINE; (2) one point-in-polygon per ring. Both are exact or say
 * "uncertain" (elements/predicates.h), so a class other than REFINE is
 * never wrong for valid input. Rows that are not polygonal, flagged,
 * with out-of-range offsets, rings with fewer than 4 coordinates or
 * not closed, or parts without rings, give REFINE. Input is assumed
 * OGC-valid (the engine repairs invalid rows before they get here).
 *
 * Cost: the edge test is O(|a| * |b|) segment pairs in the worst case;
 * it runs over chunks of VSG_CLASSIFY_CHUNK consecutive edges with the
 * chunk's box computed on the fly: a chunk of b outside a's box, or a
 * chunk pair whose boxes miss, is skipped as a whole, so only edges near
 * the other boundary are compared one by one. Point-in-polygon: O(rings of
 * one * coordinates of the other), skipped for points outside the box.
 */
#ifndef VSG_ELEMENTS_CLASSIFY_H
#define VSG_ELEMENTS_CLASSIFY_H

#include "elements/filter/bounds.h"
#include "elements/filter/pip.h"
#include "elements/predicates.h"

#define VSG_CLASSIFY_CHUNK 32

/* The class of a candidate pair: what the refine can skip. Conservative:
 * a class other than REFINE is only given when it is certain under a
 * filtered (error-bounded) orientation predicate; any doubt, any contact of
 * boundaries, and any non-polygonal row give REFINE. */
enum {
    VSG_CLS_REFINE = 0,     /* the CPU engine decides                         */
    VSG_CLS_DISJOINT = 1,   /* interiors and boundaries do not meet           */
    VSG_CLS_A_IN_B = 2,     /* a lies in the interior of b: a ∩ b = a         */
    VSG_CLS_B_IN_A = 3      /* b lies in the interior of a: a ∩ b = b         */
};

/* Whether geometry g is polygonal with only well-formed rings (>= 4
 * coordinates, closed); its box in box when so. */
VSG_HD int vsg_cls_polygonal(const vsg_col_view *v, int64_t g, double *box)
{
    int64_t p0, p1, r0, r1, k0, k1;
    if (!vsg_geom_parts(v, g, &p0, &p1) || vsg_gt_dimension(v->type[g]) != 2 ||
        (v->flags[g] & VSG_GF_NO_COORDS) || p0 == p1)
        return 0;
    for (int64_t p = p0; p < p1; p++) {
        if (!vsg_part_rings(v, p, &r0, &r1) || r0 == r1)
            return 0;
        for (int64_t r = r0; r < r1; r++) {
            if (!vsg_ring_coords(v, r, &k0, &k1) || k1 - k0 < 4 || v->x[k0] != v->x[k1 - 1] ||
                v->y[k0] != v->y[k1 - 1])
                return 0;
        }
    }
    if (!vsg_geom_coords(v, g, &k0, &k1))
        return 0;
    vsg_box_of_coords(v->x, v->y, k0, k1, 1, box);
    return 1;
}

/* Whether any edge of ring-range [ar0, ar1) of a meets any edge of b's
 * rings [br0, br1) (or the answer is uncertain): 1, else 0. */
VSG_HD int vsg_cls_boundaries_meet(const vsg_col_view *a, int64_t ar0, int64_t ar1,
                                   const double *box_a, const vsg_col_view *b, int64_t br0,
                                   int64_t br1)
{
    const double *ax = a->x, *ay = a->y, *bx = b->x, *by = b->y;
    for (int64_t rb = br0; rb < br1; rb++) {
        int64_t kb0 = b->ring_coord[rb], kb1 = b->ring_coord[rb + 1];
        for (int64_t sb = kb0; sb < kb1 - 1; sb += VSG_CLASSIFY_CHUNK) {
            int64_t eb = sb + VSG_CLASSIFY_CHUNK < kb1 - 1 ? sb + VSG_CLASSIFY_CHUNK : kb1 - 1;
            double cb[4];
            vsg_box_of_coords(bx, by, sb, eb + 1, 1, cb);
            if (!vsg_box_meets(cb, box_a))
                continue;
            for (int64_t ra = ar0; ra < ar1; ra++) {
                int64_t ka0 = a->ring_coord[ra], ka1 = a->ring_coord[ra + 1];
                for (int64_t sa = ka0; sa < ka1 - 1; sa += VSG_CLASSIFY_CHUNK) {
                    int64_t ea =
                        sa + VSG_CLASSIFY_CHUNK < ka1 - 1 ? sa + VSG_CLASSIFY_CHUNK : ka1 - 1;
                    double ca[4];
                    vsg_box_of_coords(ax, ay, sa, ea + 1, 1, ca);
                    if (!vsg_box_meets(ca, cb))
                        continue;
                    for (int64_t i = sa; i < ea; i++) {
                        double s[4];
                        s[0] = fmin(ax[i], ax[i + 1]);
                        s[1] = fmin(ay[i], ay[i + 1]);
                        s[2] = fmax(ax[i], ax[i + 1]);
                        s[3] = fmax(ay[i], ay[i + 1]);
                        if (!vsg_box_meets(s, cb))
                            continue;
                        for (int64_t j = sb; j < eb; j++) {
                            if (vsg_segment_relation(ax[i], ay[i], ax[i + 1], ay[i + 1], bx[j],
                                                     by[j], bx[j + 1], by[j + 1]) !=
                                VSG_SEG_DISJOINT)
                                return 1;
                        }
                    }
                }
            }
        }
    }
    return 0;
}

/* Where the rings [r0, r1) of v lie relative to geometry g of w: sets
 * *any_in / *any_out; returns 0 when a ring's vertex is on w's boundary or
 * the test is uncertain. */
VSG_HD int vsg_cls_rings_vs(const vsg_col_view *v, int64_t r0, int64_t r1,
                            const vsg_col_view *w, int64_t g, const double *box_w, int *any_in,
                            int *any_out)
{
    for (int64_t r = r0; r < r1; r++) {
        int64_t k = v->ring_coord[r];
        double px = v->x[k], py = v->y[k];
        int s;
        if (px < box_w[0] || px > box_w[2] || py < box_w[1] || py > box_w[3])
            s = VSG_PIP_OUTSIDE;
        else
            s = vsg_pip_geom(w, g, px, py);
        if (s == VSG_PIP_INSIDE)
            *any_in = 1;
        else if (s == VSG_PIP_OUTSIDE)
            *any_out = 1;
        else
            return 0;
    }
    return 1;
}

/* The class of pair (geometry ga of a, geometry gb of b): VSG_CLS_*. */
VSG_HD int vsg_classify_pair(const vsg_col_view *a, int64_t ga, const vsg_col_view *b,
                             int64_t gb)
{
    double box_a[4], box_b[4];
    if (!vsg_cls_polygonal(a, ga, box_a) || !vsg_cls_polygonal(b, gb, box_b))
        return VSG_CLS_REFINE;
    if (!vsg_box_meets(box_a, box_b))
        return VSG_CLS_DISJOINT;   /* exact: closed boxes apart */

    /* the ring ranges (checked by vsg_cls_polygonal) */
    int64_t ar0 = a->part_ring[a->geom_part[ga]], ar1 = a->part_ring[a->geom_part[ga + 1]];
    int64_t br0 = b->part_ring[b->geom_part[gb]], br1 = b->part_ring[b->geom_part[gb + 1]];

    if (vsg_cls_boundaries_meet(a, ar0, ar1, box_a, b, br0, br1))
        return VSG_CLS_REFINE;

    int a_in = 0, a_out = 0, b_in = 0, b_out = 0;
    if (!vsg_cls_rings_vs(a, ar0, ar1, b, gb, box_b, &a_in, &a_out) ||
        !vsg_cls_rings_vs(b, br0, br1, a, ga, box_a, &b_in, &b_out))
        return VSG_CLS_REFINE;
    if (!a_out && !b_in)
        return VSG_CLS_A_IN_B;
    if (!b_out && !a_in)
        return VSG_CLS_B_IN_A;
    if (!a_in && !b_in)
        return VSG_CLS_DISJOINT;
    return VSG_CLS_REFINE;
}

#endif
