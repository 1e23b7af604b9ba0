/*
 * overlap.h - per-element logic of the overlap union stage
 * (stages/union/overlap.c): the union of each group's members when they
 * overlap, the same code on the host and the device.
 *
 * A point of member i's boundary lies on the boundary of its group's
 * union exactly when no other member of the group covers it from the
 * other side: it is not inside another member, not on another member's
 * boundary running the opposite way (the two interiors meet there), and,
 * where several members run along it the same way, only the one of them
 * with the lowest row keeps it. So:
 *
 *   pairs     the members of one group whose boxes meet, i < j (a box
 *             self-join);
 *   labels    the overlay refine's first half on those pairs
 *             (stages/overlay/refine_run.h): each pair's boundaries cut
 *             at their exact nodes and every piece labelled against the
 *             pair's other member. In pair (i, j) side 0 holds i's
 *             pieces, side 1 j's. A piece labelled inside, opposite, or
 *             along-the-same-way on side 1 (i < j keeps it) is "lost";
 *   sweep     per segment of every member: its two ends and the ends of
 *             its lost pieces (+1 at the start, -1 at the end), sorted
 *             along the segment; where the running count is 0 between
 *             two positions, that stretch is on the union's boundary. A
 *             segment no pair touches keeps its whole length;
 *   boundary  the kept stretches, interior on the left, go through the
 *             coverage union's boundary steps (stages/union/boundary.h),
 *             which prove them noded, linked and nested (winding 0 and 1)
 *             and build one MultiPolygon per group.
 *
 * Nodes are rounded once, canonically (vsg_ref_cross_point), so the two
 * members crossing at a node cut their segments at the same point. A
 * node three members meet at, rounded differently by two pairs, leaves a
 * stretch whose ends link to nothing: the proofs reject its group, and
 * GEOS unions it. A pair the refine cannot settle rejects its group too.
 */
#ifndef VSG_ELEMENTS_UNION_OVERLAP_H
#define VSG_ELEMENTS_UNION_OVERLAP_H

#include "elements/overlay/refine_steps.h"

typedef struct {
    vsg_ref_ctx r;                 /* side 0 = side 1 = the members       */
    const int64_t *group_of;       /* n_geoms                             */
    int64_t n_groups;
    uint32_t *gwhy;                /* n_groups: VSG_COV_* | VSG_REF_*     */
    /* the box self-join and the pairs kept from it */
    const int64_t *ja, *jb;
    int64_t n_join;
    int64_t *jflag, *joff;
    int64_t *pa, *pb;
    /* lost pieces: 2 events each */
    int64_t *lost, *lost_off;      /* n_pc, n_pc + 1                      */
    /* events: 2 per coordinate (a segment's ends), then the lost pieces' */
    int64_t n_ev;
    int64_t *ev_seg;               /* the segment's start coordinate; n_coords: none */
    uint64_t *ev_pos, *ev_key;
    int64_t *ev_idx, *ev_delta;
    int64_t *ev_d, *ev_run;        /* deltas in sorted order; their scan (n_ev + 1) */
    double *ev_x, *ev_y;
    int64_t *emit, *emit_off;
    vsg_cov_r R;
} vsg_ovu_ctx;

enum {
    VSG_OVU_PAIR_FLAG,   /* n_join                   */
    VSG_OVU_PAIR_FILL,   /* n_join                   */
    VSG_OVU_GEOM_CHECK,  /* n_geoms                  */
    VSG_OVU_RING_CHECK,  /* n_rings                  */
    VSG_OVU_PAIR_WHY,    /* n_pairs                  */
    VSG_OVU_LOST,        /* n_pc                     */
    VSG_OVU_EV_SEG,      /* n_coords                 */
    VSG_OVU_EV_LOST,     /* n_pc                     */
    VSG_OVU_EV_BY_SEG,   /* n_ev (sorted by position) */
    VSG_OVU_EV_DELTA,    /* n_ev (sorted)            */
    VSG_OVU_EMIT,        /* n_ev (sorted)            */
    VSG_OVU_R_FILL,      /* n_ev (sorted)            */
    VSG_OVU_N_STEPS
};

VSG_HD int vsg_ovu_group_in(const vsg_ovu_ctx *c, int64_t g)
{
    return g >= 0 && g < c->n_groups;
}

/* Whether box-join candidate (a, b) is a pair of the stage. */
VSG_HD int vsg_ovu_pair(const vsg_ovu_ctx *c, int64_t a, int64_t b)
{
    return a < b && c->group_of[a] == c->group_of[b] && vsg_ovu_group_in(c, c->group_of[a]);
}

/* Whether piece q is lost to the other member of its pair. */
VSG_HD int vsg_ovu_lost(const vsg_ovu_ctx *c, int64_t q)
{
    const vsg_ref_ctx *r = &c->r;
    int64_t lab = r->val[q];
    if (vsg_ref_piece_flat(r, q))
        return 0;
    return lab == VSG_REF_IN || lab == VSG_REF_OPPOSITE ||
           (lab == VSG_REF_SAME && r->in_side[r->pc_inst[q]] == 1);
}

/* The two events of segment k (its ends, in stored order), or none. */
VSG_HD void vsg_ovu_ev_seg(const vsg_ovu_ctx *c, int64_t k)
{
    const vsg_ref_side *sd = &c->r.side[0];
    const vsg_col_view *v = &sd->v;
    int64_t g;
    double ax, ay, bx, by;
    int ok = vsg_cov_seg(v, c->group_of, sd->coord_ring, sd->ring_geom, sd->dir, k, &g, &ax, &ay,
                         &bx, &by) && vsg_ovu_group_in(c, g);
    for (int e = 0; e < 2; e++) {
        int64_t i = 2 * k + e;
        double px = v->x[k + (ok ? e : 0)], py = v->y[k + (ok ? e : 0)];
        c->ev_idx[i] = i;
        c->ev_delta[i] = 0;
        c->ev_seg[i] = ok ? k : v->n_coords;
        c->ev_pos[i] = ok ? vsg_ref_pos_key(v->x[k], v->y[k], v->x[k + 1], v->y[k + 1], px, py) : 0;
        c->ev_key[i] = c->ev_pos[i];
        c->ev_x[i] = px;
        c->ev_y[i] = py;
    }
}

/* The two events of lost piece q: +1 at its start, -1 at its end (the
 * piece runs its segment's stored way). */
VSG_HD void vsg_ovu_ev_lost(const vsg_ovu_ctx *c, int64_t q)
{
    if (c->lost_off[q + 1] == c->lost_off[q])
        return;
    const vsg_ref_ctx *r = &c->r;
    const vsg_col_view *v = &r->side[0].v;
    int64_t k = r->in_k[r->pc_inst[q]];
    int64_t i = 2 * v->n_coords + c->lost_off[q];
    double px[2] = {r->pc_x0[q], r->pc_x1[q]}, py[2] = {r->pc_y0[q], r->pc_y1[q]};
    for (int e = 0; e < 2; e++) {
        c->ev_idx[i + e] = i + e;
        c->ev_delta[i + e] = e ? -1 : 1;
        c->ev_seg[i + e] = k;
        c->ev_pos[i + e] = vsg_ref_pos_key(v->x[k], v->y[k], v->x[k + 1], v->y[k + 1], px[e], py[e]);
        c->ev_key[i + e] = c->ev_pos[i + e];
        c->ev_x[i + e] = px[e];
        c->ev_y[i + e] = py[e];
    }
}

/* Sorted event i opens a kept stretch: the next event is on the same
 * segment at a later position, and no lost piece covers the gap. */
VSG_HD int vsg_ovu_emits(const vsg_ovu_ctx *c, int64_t i)
{
    if (i + 1 >= c->n_ev)
        return 0;
    int64_t e = c->ev_idx[i], f = c->ev_idx[i + 1];
    return c->ev_seg[e] < c->r.side[0].v.n_coords && c->ev_seg[e] == c->ev_seg[f] &&
           c->ev_pos[e] != c->ev_pos[f] && c->ev_run[i + 1] == 0;
}

/* The kept stretch from sorted event i to i + 1, interior on the left. */
VSG_HD void vsg_ovu_r_fill(const vsg_ovu_ctx *c, int64_t i)
{
    if (!c->emit[i])
        return;
    const vsg_ref_side *sd = &c->r.side[0];
    int64_t e = c->ev_idx[i], f = c->ev_idx[i + 1], k = c->ev_seg[e];
    int64_t ring = sd->coord_ring[k];
    int fwd = sd->dir[ring] > 0;
    int64_t a = fwd ? e : f, b = fwd ? f : e;
    vsg_cov_r_set(&c->R, c->emit_off[i], c->group_of[sd->ring_geom[ring]], c->ev_x[a], c->ev_y[a],
                  c->ev_x[b], c->ev_y[b]);
}

/* Item i of step s; returns its work. */
VSG_HD int64_t vsg_ovu_item(const vsg_ovu_ctx *c, int s, int64_t i)
{
    const vsg_ref_ctx *r = &c->r;
    const vsg_ref_side *sd = &r->side[0];
    switch (s) {
    case VSG_OVU_PAIR_FLAG:
        c->jflag[i] = vsg_ovu_pair(c, c->ja[i], c->jb[i]);
        return 1;
    case VSG_OVU_PAIR_FILL:
        if (c->jflag[i]) {
            c->pa[c->joff[i]] = c->ja[i];
            c->pb[c->joff[i]] = c->jb[i];
        }
        return 1;
    case VSG_OVU_GEOM_CHECK:
        vsg_cov_geom_check(&sd->v, c->group_of, c->n_groups, i, c->gwhy);
        return 1;
    case VSG_OVU_RING_CHECK: {
        int64_t g = sd->ring_geom[i];
        if (g >= 0 && sd->dir[i] == 0 && vsg_ovu_group_in(c, c->group_of[g]))
            VSG_OR_U32(c->gwhy + c->group_of[g], VSG_COV_BAD_RING);
        return 1;
    }
    case VSG_OVU_PAIR_WHY:
        if (r->why[i])
            VSG_OR_U32(c->gwhy + c->group_of[c->pa[i]], r->why[i]);
        return 1;
    case VSG_OVU_LOST:
        c->lost[i] = 2 * vsg_ovu_lost(c, i);
        return 1;
    case VSG_OVU_EV_SEG:
        vsg_ovu_ev_seg(c, i);
        return 2;
    case VSG_OVU_EV_LOST:
        vsg_ovu_ev_lost(c, i);
        return 2;
    case VSG_OVU_EV_BY_SEG:
        c->ev_key[i] = (uint64_t)c->ev_seg[c->ev_idx[i]];
        return 1;
    case VSG_OVU_EV_DELTA:
        c->ev_d[i] = c->ev_delta[c->ev_idx[i]];
        return 1;
    case VSG_OVU_EMIT:
        c->emit[i] = vsg_ovu_emits(c, i);
        return 1;
    case VSG_OVU_R_FILL:
        vsg_ovu_r_fill(c, i);
        return 1;
    default:
        return 0;
    }
}

#endif
