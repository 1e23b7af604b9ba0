/*
 * arrange.h - per-element logic of the overlap union by one arrangement
 * per group (stages/union/arrange.c): the union of each group's members
 * when they may overlap, the same code on the host and the device.
 *
 * Every segment of a group is cut once, at every point where another
 * member's boundary meets it, whatever the number of members around it
 * (the pairwise refine, stages/union/overlap.c, cut each segment once per
 * member whose box it crosses: 12 times on the overlapping counties).
 * A piece of member M's boundary lies on the union's boundary exactly
 * when no other member covers it from the other side: no member's
 * interior holds it (its depth, the number of members whose interior
 * holds it, is 0), no member runs along it the opposite way, and no
 * member with a lower row runs along it the same way. So:
 *
 *   nodes     the group's chunk pairs of two members (a grouped box join),
 *             their segment pairs classified exactly as the refine does
 *             (vsg_ref_seg_nodes): every node a point on both segments.
 *             A node at a segment's vertex flags the vertex (vflag: most
 *             nodes of real data, where members share their vertices);
 *             one inside a segment is an event that cuts it;
 *   pieces    the cuts sorted along each segment (by the dominant axis,
 *             then by segment), one piece between two distinct ones; a
 *             piece's end at a flagged vertex or a cut is a node;
 *   labels    at a node, each piece end of M is read against every other
 *             member N with pieces there, in exact angular order
 *             (vsg_ref_sector_label): inside N, outside, or along it the
 *             same or the opposite way. end_in counts the members whose
 *             interior holds it; end_lose marks an opposite run, or a
 *             same-way run of a lower row;
 *   depth     along a ring, in stored order, the depth changes only at
 *             nodes, and only by the members there: from piece p to the
 *             next piece q it is depth(p) - end_in(p's end) + end_in(q's
 *             start). So one scan over every piece gives it relative to
 *             the ring's first piece. That one's depth is its start's
 *             winding number over the members not at that point (a ray
 *             towards +x to the group's right edge, signed crossings of
 *             the other members' segments, interior on the left: each
 *             member whose interior holds the point adds 1), plus its
 *             start's end_in;
 *   checks    around a ring the changes add up to 0; no piece is held by
 *             fewer members than those at its ends count; no label is
 *             undecided, no node has more than VSG_REF_MAX_DEGREE piece
 *             ends, two nodes of a segment at one position are one point;
 *   boundary  the kept pieces, interior on the left, go through the
 *             coverage union's boundary steps (stages/union/boundary.h),
 *             which prove them noded, linked and nested (winding 0 and 1)
 *             and build one MultiPolygon per group.
 *
 * A group any check rejects has its reason bits in gwhy: the caller
 * unions it another way. Crossing points are rounded once, canonically
 * (vsg_ref_cross_point), so the members crossing there cut at the same
 * point; a point too close to call is handed back (VSG_REF_BAD_UNSURE).
 */
#ifndef VSG_ELEMENTS_UNION_ARRANGE_H
#define VSG_ELEMENTS_UNION_ARRANGE_H

#include "elements/atomics.h"
#include "elements/bits.h"
#include "elements/filter/bounds.h"
#include "elements/overlay/refine_steps.h"   /* vsg_ref_side, VSG_REF_PC_* */

typedef struct {
    vsg_ref_side sd;               /* the members: rings oriented, chunks  */
    const int64_t *group_of;       /* n_geoms                              */
    int64_t n_groups;
    uint32_t *gwhy;                /* n_groups: VSG_COV_* | VSG_REF_*      */
    int64_t *chunk_group;          /* n_chunks: its group, or -1 - chunk   */
    uint64_t *gxmax;               /* n_groups: the members' right edge, ordered */
    uint32_t *vflag;               /* n_coords: 1 where another member's
                                    * boundary meets the vertex (a ring's
                                    * first vertex stands for its last)    */
    /* chunk pairs (a < b, one group) and their rows, as the refine's */
    const int64_t *ja, *jb;
    int64_t n_join;
    vsg_ref_rows rw;
    /* events: a cut inside segment ev_k (the coordinate it starts at) */
    int64_t n_ev;
    int64_t *ev_k, *ev_idx;
    double *ev_x, *ev_y;
    uint64_t *ev_key;
    int64_t *ev_split;             /* n_ev: EV_ORDER's output, then swapped */
    int64_t *ev_long;              /* one flag: a run longer than
                                    * VSG_REF_EV_RUN (EV_ORDER)            */
    int kbits;
    /* per coordinate: its segment's sorted events, pieces */
    int64_t *seg_elo, *seg_ehi;    /* n_coords                             */
    int64_t *ev_new, *ev_rank;     /* n_ev, n_ev + 1: a new interior position */
    int64_t *seg_cnt, *seg_pc;     /* n_coords, n_coords + 1               */
    /* pieces, in their segment's stored direction */
    int64_t n_pc;
    int64_t *pc_k;
    double *pc_x0, *pc_y0, *pc_x1, *pc_y1;
    uint32_t *pc_flags;            /* VSG_REF_PC_S / _E: that end a node   */
    /* piece ends at nodes: 2 per piece (start, end) */
    int64_t *nd_flag, *nd_off;
    int64_t n_nd;
    uint64_t *nd_all, *nd_key;
    int64_t *nd_idx, *end_pos;     /* sorted: the end; the end's place     */
    int64_t *nd_m;                 /* sorted: the end's member             */
    int64_t *end_mo;               /* 2 n_pc: the end's member * 2 + 1 where it
                                      leaves the node; -1: no member      */
    double *nd_vx, *nd_vy;         /* sorted: the node                     */
    double *nd_dx, *nd_dy;         /* sorted: its piece's other end        */
    int8_t *nd_out;                /* sorted: it leaves the node           */
    int8_t *end_in;                /* members there whose interior holds it */
    uint8_t *end_lose;             /* a member there takes it from M       */
    /* depth */
    int64_t *delta, *dscan;        /* n_pc, n_pc + 1                       */
    int64_t *ray_flag, *ray_off;   /* n_rings, n_rings + 1                 */
    int64_t n_ray;
    int64_t *ray_ring;             /* n_ray                                */
    double *ray_box;               /* 4 n_ray                              */
    int64_t *anchor;               /* n_rings: the first piece's depth less its end_in */
    const int64_t *rj_a, *rj_b;    /* the rays' join with the chunks       */
    int64_t n_rj;
    int64_t *keep, *keep_off;      /* n_pc, n_pc + 1                       */
    vsg_cov_r R;
} vsg_arr_ctx;

enum {
    VSG_ARR_GEOM_CHECK,    /* n_geoms                   */
    VSG_ARR_RING_CHECK,    /* n_rings                   */
    VSG_ARR_CHUNK_GROUP,   /* n_chunks                  */
    VSG_ARR_GX_INIT,       /* n_groups                  */
    VSG_ARR_GX_MAX,        /* n_geoms                   */
    VSG_ARR_CP_ROWS,       /* n_join                    */
    VSG_ARR_ROW_FILL,      /* n_join                    */
    VSG_ARR_CP_COUNT,      /* n_rows                    */
    VSG_ARR_CP_FILL,       /* n_rows                    */
    VSG_ARR_EV_POS,        /* n_ev                      */
    VSG_ARR_EV_SEG,        /* n_ev (sorted by position) */
    VSG_ARR_EV_RUNS,       /* n_ev (sorted)             */
    VSG_ARR_SEG_PIECES,    /* n_coords                  */
    VSG_ARR_PIECE_FIRST,   /* n_coords                  */
    VSG_ARR_PIECE_SPLIT,   /* n_ev (sorted)             */
    VSG_ARR_NODE_KEY,      /* n_pc                      */
    VSG_ARR_NODE_PACK,     /* 2 n_pc                    */
    VSG_ARR_NODE_INFO,     /* n_nd (sorted)             */
    VSG_ARR_NODE_LABEL,    /* n_nd (sorted)             */
    VSG_ARR_DELTA,         /* n_pc                      */
    VSG_ARR_RAY_FLAG,      /* n_rings                   */
    VSG_ARR_RAY_FILL,      /* n_rings                   */
    VSG_ARR_RAY_CROSS,     /* n_rj (ray, chunk)         */
    VSG_ARR_RING_SUM,      /* n_rings                   */
    VSG_ARR_KEEP,          /* n_pc                      */
    VSG_ARR_R_FILL,        /* n_pc                      */
    VSG_ARR_EV_KEY,        /* n_ev                      */
    VSG_ARR_EV_ORDER,      /* n_ev (sorted by segment)  */
    VSG_ARR_N_STEPS
};

VSG_HD int vsg_arr_group_in(const vsg_arr_ctx *c, int64_t g)
{
    return g >= 0 && g < c->n_groups;
}

/* The member (geometry) and ring of coordinate k; -1 when none. */
VSG_HD int64_t vsg_arr_member(const vsg_arr_ctx *c, int64_t k, int64_t *ring)
{
    int64_t r = c->sd.coord_ring[k];
    *ring = r;
    return r < 0 ? -1 : c->sd.ring_geom[r];
}

/* Segment k of a ring the stage takes: its group (else 0). */
VSG_HD int vsg_arr_seg(const vsg_arr_ctx *c, int64_t k, int64_t *grp)
{
    const vsg_ref_side *sd = &c->sd;
    double ax, ay, bx, by;
    int ok = vsg_cov_seg(&sd->v, c->group_of, sd->coord_ring, sd->ring_geom, sd->dir, k, grp,
                         &ax, &ay, &bx, &by);
    return ok && vsg_arr_group_in(c, *grp);
}

VSG_HD void vsg_arr_bad(const vsg_arr_ctx *c, int64_t grp, uint32_t why)
{
    if (vsg_arr_group_in(c, grp))
        VSG_OR_U32(c->gwhy + grp, why);
}

/* ---- nodes: as the refine's rows (elements/overlay/refine_steps.h) ------- */

/* Chunk pair i: the rows of chunk a's segments near chunk b's box; none
 * for two chunks of one member (a valid member's rings meet themselves
 * only at vertices, which cut nothing). */
VSG_HD int64_t vsg_arr_cp_rows(const vsg_arr_ctx *c, int64_t i)
{
    const vsg_ref_side *sd = &c->sd;
    int64_t ca = c->ja[i], cb = c->jb[i];
    int64_t ga = sd->chunk_geom[ca], gb = sd->chunk_geom[cb];
    int take = ga >= 0 && gb >= 0 && ga != gb && c->chunk_group[ca] == c->chunk_group[cb];
    int64_t w = vsg_ref_chunk_rows(sd, ca, sd, cb, take, c->rw.cp_ka + i, c->rw.cp_kb + i,
                                   c->rw.cp_cols + i, c->rw.cp_rows + i);
    c->rw.rw_cnt[i] = vsg_popcount_u32(c->rw.cp_rows[i]);
    return w;
}

/* The vertex that stands for coordinate k: a ring's closing coordinate
 * is its first. */
VSG_HD int64_t vsg_arr_vertex(const vsg_arr_ctx *c, int64_t k)
{
    int64_t r = c->sd.coord_ring[k];
    if (r >= 0 && k == c->sd.v.ring_coord[r + 1] - 1)
        return c->sd.v.ring_coord[r];
    return k;
}

/* Vertex k flagged: another member's boundary meets it. Most vertices are
 * flagged by several segment pairs: read first, so that only the first few
 * pay the atomic. */
VSG_HD void vsg_arr_flag_vertex(const vsg_arr_ctx *c, int64_t k)
{
    uint32_t *f = c->vflag + vsg_arr_vertex(c, k);
    if (!*f)
        VSG_OR_U32(f, 1u);
}

/* Node (x, y) on segment k: its start or end vertex (flagged here when
 * flag), or inside it (returns 1: a cut). */
VSG_HD int vsg_arr_node_on(const vsg_arr_ctx *c, int64_t k, double x, double y, int flag)
{
    const vsg_col_view *v = &c->sd.v;
    uint32_t end = vsg_ref_node_end(v->x[k], v->y[k], v->x[k + 1], v->y[k + 1], x, y);
    if (!end)
        return 1;
    if (flag)
        vsg_arr_flag_vertex(c, end == VSG_REF_SNODE ? k : k + 1);
    return 0;
}

/* Row t: segment s of chunk a against chunk b's segments. Counted first
 * (fill = 0: ev_cnt[t], the cuts; vertices flagged; the segments with
 * nodes as bits of rw_hits[t]), then the cuts written from ev_off[t]. */
VSG_HD int64_t vsg_arr_row_events(const vsg_arr_ctx *c, int64_t t, int fill)
{
    if (fill && c->rw.ev_off[t + 1] == c->rw.ev_off[t])
        return 0;
    const vsg_ref_side *sd = &c->sd;
    int64_t i = c->rw.rw_cp[t];
    int64_t k = c->rw.cp_ka[i] + c->rw.rw_s[t], kb = c->rw.cp_kb[i];
    double p0x = sd->v.x[k], p0y = sd->v.y[k], p1x = sd->v.x[k + 1], p1y = sd->v.y[k + 1];
    uint32_t row = fill ? c->rw.rw_hits[t]
                        : vsg_ref_row_near(sd->v.x, sd->v.y, kb, c->rw.cp_cols[i], p0x, p0y, p1x,
                                           p1y),
             hits = 0;
    int64_t n = 0, o = fill ? c->rw.ev_off[t] : 0, looked = 0;
    for (; row; row &= row - 1) {
        int u = vsg_low_bit_u32(row);
        int64_t m = kb + u;
        double nx[4], ny[4];
        looked++;
        if (vsg_ref_seg_shared(p0x, p0y, p1x, p1y, sd->v.x[m], sd->v.y[m], sd->v.x[m + 1],
                               sd->v.y[m + 1])) {
            /* one edge of two members: its nodes are both segments' ends */
            if (!fill) {
                vsg_arr_flag_vertex(c, k);
                vsg_arr_flag_vertex(c, k + 1);
                vsg_arr_flag_vertex(c, m);
                vsg_arr_flag_vertex(c, m + 1);
            }
            continue;
        }
        int cnt = vsg_ref_seg_nodes(p0x, p0y, p1x, p1y, sd->v.x[m], sd->v.y[m], sd->v.x[m + 1],
                                    sd->v.y[m + 1], nx, ny);
        if (cnt < 0) {
            if (!fill)
                vsg_arr_bad(c, c->chunk_group[c->ja[i]], VSG_REF_BAD_UNSURE);
            continue;
        }
        for (int e = 0; e < cnt; e++) {
            int on_k = vsg_arr_node_on(c, k, nx[e], ny[e], !fill);
            int on_m = vsg_arr_node_on(c, m, nx[e], ny[e], !fill);
            if (!fill) {
                n += on_k + on_m;
                hits |= (uint32_t)(on_k + on_m > 0) << u;
                continue;
            }
            if (on_k) {
                c->ev_k[o] = k;
                c->ev_x[o] = nx[e];
                c->ev_y[o++] = ny[e];
            }
            if (on_m) {
                c->ev_k[o] = m;
                c->ev_x[o] = nx[e];
                c->ev_y[o++] = ny[e];
            }
        }
    }
    if (!fill) {
        c->rw.ev_cnt[t] = n;
        c->rw.rw_hits[t] = hits;
    }
    return looked;
}

/* ---- pieces ------------------------------------------------------------------ */

/* Event e's position along its segment (the first sort's key). */
VSG_HD uint64_t vsg_arr_pos(const vsg_arr_ctx *c, int64_t e)
{
    const vsg_col_view *v = &c->sd.v;
    int64_t k = c->ev_k[e];
    return vsg_ref_pos_key(v->x[k], v->y[k], v->x[k + 1], v->y[k + 1], c->ev_x[e], c->ev_y[e]);
}

/* Sorted position q (by segment, stable: by event within): the event's
 * place in its segment's run, by position and then by event, the order a
 * stable sort by position and then one by segment give. Each event of a
 * run of at most VSG_REF_EV_RUN counts the run's events before it, as the
 * refine's vsg_ref_ev_order does; a longer run sets *ev_long, and the
 * caller takes the two sorts instead. */
VSG_HD int64_t vsg_arr_ev_order(const vsg_arr_ctx *c, int64_t q)
{
    int64_t e = c->ev_idx[q], lo, hi;
    if (!vsg_key_run(c->ev_key, c->n_ev, q, VSG_REF_EV_RUN, &lo, &hi)) {
        *c->ev_long = 1;   /* every writer stores the same value */
        return hi - lo;
    }
    int64_t rank = 0;
    if (hi - lo > 1) {
        uint64_t pk = vsg_arr_pos(c, e);
        for (int64_t u = lo; u < hi; u++) {
            uint64_t pu = u == q ? pk : vsg_arr_pos(c, c->ev_idx[u]);
            rank += pu < pk || (pu == pk && u < q);
        }
    }
    c->ev_split[lo + rank] = e;
    return hi - lo;
}

/* Sorted event t: the bounds of its segment's run, and whether it starts
 * a new position of the segment (a cut). Two events at one position must
 * be one point. */
VSG_HD void vsg_arr_ev_runs(const vsg_arr_ctx *c, int64_t t)
{
    int64_t e = c->ev_idx[t], k = c->ev_k[e];
    int first = t == 0 || c->ev_k[c->ev_idx[t - 1]] != k;
    int last = t + 1 == c->n_ev || c->ev_k[c->ev_idx[t + 1]] != k;
    if (first)
        c->seg_elo[k] = t;
    if (last)
        c->seg_ehi[k] = t + 1;
    int fresh = 1;
    if (!first) {
        int64_t f = c->ev_idx[t - 1];
        fresh = vsg_arr_pos(c, f) != vsg_arr_pos(c, e);
        if (!fresh && !vsg_cov_same(c->ev_x[e], c->ev_y[e], c->ev_x[f], c->ev_y[f])) {
            int64_t ring, g = vsg_arr_member(c, k, &ring);
            vsg_arr_bad(c, g >= 0 ? c->group_of[g] : -1, VSG_REF_BAD_ORDER);
        }
    }
    c->ev_new[t] = fresh;
}

/* Segment k's pieces: one more than its cuts; none for a segment the
 * stage does not take (closing coordinate, repeated point, bad ring). */
VSG_HD void vsg_arr_seg_pieces(const vsg_arr_ctx *c, int64_t k)
{
    int64_t grp;
    if (!vsg_arr_seg(c, k, &grp)) {
        c->seg_cnt[k] = 0;
        return;
    }
    int64_t lo = c->seg_elo[k], hi = c->seg_ehi[k];
    c->seg_cnt[k] = 1 + (hi > lo ? c->ev_rank[hi] - c->ev_rank[lo] : 0);
}

/* Segment k's first piece's start and last piece's end: its vertices,
 * nodes where they are flagged. */
VSG_HD void vsg_arr_piece_first(const vsg_arr_ctx *c, int64_t k)
{
    int64_t q0 = c->seg_pc[k], q1 = c->seg_pc[k + 1];
    if (q1 == q0)
        return;
    const vsg_col_view *v = &c->sd.v;
    c->pc_x0[q0] = v->x[k];
    c->pc_y0[q0] = v->y[k];
    c->pc_x1[q1 - 1] = v->x[k + 1];
    c->pc_y1[q1 - 1] = v->y[k + 1];
    c->pc_k[q0] = k;   /* the others' from their cuts */
    if (c->vflag[vsg_arr_vertex(c, k)])
        VSG_OR_U32(c->pc_flags + q0, VSG_REF_PC_S);
    if (c->vflag[vsg_arr_vertex(c, k + 1)])
        VSG_OR_U32(c->pc_flags + q1 - 1, VSG_REF_PC_E);
}

/* Sorted event t that cuts its segment: the end of the piece before it
 * and the start of the piece after. */
VSG_HD void vsg_arr_piece_split(const vsg_arr_ctx *c, int64_t t)
{
    if (!c->ev_new[t])
        return;
    int64_t e = c->ev_idx[t], k = c->ev_k[e];
    if (c->seg_pc[k + 1] == c->seg_pc[k])
        return;
    int64_t q = c->seg_pc[k] + c->ev_rank[t] - c->ev_rank[c->seg_elo[k]];
    c->pc_x1[q] = c->ev_x[e];
    c->pc_y1[q] = c->ev_y[e];
    VSG_OR_U32(c->pc_flags + q, VSG_REF_PC_E);
    c->pc_x0[q + 1] = c->ev_x[e];
    c->pc_y0[q + 1] = c->ev_y[e];
    c->pc_k[q + 1] = k;
    VSG_OR_U32(c->pc_flags + q + 1, VSG_REF_PC_S);
}

/* ---- labels at nodes ---------------------------------------------------------- */

VSG_HD int64_t vsg_arr_piece_group(const vsg_arr_ctx *c, int64_t q, int64_t *member,
                                   int *fwd)
{
    int64_t ring, g = vsg_arr_member(c, c->pc_k[q], &ring);
    *member = g;
    *fwd = ring >= 0 && c->sd.dir[ring] > 0;
    return g >= 0 ? c->group_of[g] : -1;
}

VSG_HD void vsg_arr_node_key(const vsg_arr_ctx *c, int64_t q)
{
    int64_t m;
    int fwd;
    int64_t grp = vsg_arr_piece_group(c, q, &m, &fwd);
    uint32_t f = c->pc_flags[q];
    uint64_t k0 = (f & VSG_REF_PC_S) ? vsg_node_key(grp, c->pc_x0[q], c->pc_y0[q])
                                     : VSG_COV_NOKEY;
    uint64_t k1 = (f & VSG_REF_PC_E) ? vsg_node_key(grp, c->pc_x1[q], c->pc_y1[q])
                                     : VSG_COV_NOKEY;
    c->nd_all[2 * q] = k0;
    c->nd_all[2 * q + 1] = k1;
    /* what NODE_INFO reads of each end, stored in piece order here where
     * the member's lookups are near each other (NODE_INFO reads ends in
     * node order, scattered) */
    c->end_mo[2 * q] = m < 0 ? -1 : 2 * m + (fwd ? 1 : 0);
    c->end_mo[2 * q + 1] = m < 0 ? -1 : 2 * m + (fwd ? 0 : 1);
    c->nd_flag[2 * q] = k0 != VSG_COV_NOKEY;
    c->nd_flag[2 * q + 1] = k1 != VSG_COV_NOKEY;
    c->end_in[2 * q] = c->end_in[2 * q + 1] = 0;
    c->end_lose[2 * q] = c->end_lose[2 * q + 1] = 0;
    c->end_pos[2 * q] = c->end_pos[2 * q + 1] = -1;
}

/* End e (2 q + z) of piece q: its node, and the direction it leaves the
 * node by (the piece's other end); out: it leaves the node going the way
 * of its ring's interior-left direction. */
VSG_HD void vsg_arr_end(const vsg_arr_ctx *c, int64_t e, double *vx, double *vy, double *dx,
                        double *dy, int *out, int64_t *member, int64_t *grp)
{
    int64_t q = e / 2, mo = c->end_mo[e];
    int z = (int)(e % 2);
    *member = mo < 0 ? -1 : mo / 2;
    *grp = mo < 0 ? -1 : c->group_of[mo / 2];
    *vx = z ? c->pc_x1[q] : c->pc_x0[q];
    *vy = z ? c->pc_y1[q] : c->pc_y0[q];
    *dx = z ? c->pc_x0[q] : c->pc_x1[q];
    *dy = z ? c->pc_y0[q] : c->pc_y1[q];
    /* without a member the piece counts as backward (vsg_arr_piece_group) */
    *out = mo < 0 ? z : (int)(mo % 2);
}

/* The run of sorted node entries with key h around t: [lo, hi); 0 when it
 * is longer than VSG_REF_MAX_DEGREE. */
VSG_HD int vsg_arr_node_run(const vsg_arr_ctx *c, int64_t t, int64_t *lo, int64_t *hi)
{
    uint64_t h = c->nd_key[t];
    int64_t n = c->n_nd;
    *lo = t;
    *hi = t + 1;
    while (*lo > 0 && c->nd_key[*lo - 1] == h && t - *lo < VSG_REF_MAX_DEGREE)
        (*lo)--;
    while (*hi < n && c->nd_key[*hi] == h && *hi - t < VSG_REF_MAX_DEGREE)
        (*hi)++;
    return !((*lo > 0 && c->nd_key[*lo - 1] == h) || (*hi < n && c->nd_key[*hi] == h));
}

/* Sorted node entry t: what its label and its run's other entries read
 * of it, side by side (member, the node, the direction it leaves by,
 * whether it leaves), and its place. The one gather of the end's piece
 * by its index: the entries' later reads are of these sorted arrays. */
VSG_HD void vsg_arr_node_info(const vsg_arr_ctx *c, int64_t t)
{
    int64_t e = c->nd_idx[t], m, grp;
    double vx, vy, dx, dy;
    int out;
    vsg_arr_end(c, e, &vx, &vy, &dx, &dy, &out, &m, &grp);
    c->end_pos[e] = t;
    c->nd_m[t] = m;
    c->nd_vx[t] = vx;
    c->nd_vy[t] = vy;
    c->nd_dx[t] = dx;
    c->nd_dy[t] = dy;
    c->nd_out[t] = (int8_t)out;
}

/* Sorted node entry t: its end read against every other member at the
 * node (the run's entries as NODE_INFO left them). A key it shares with
 * the entry before it but not the point or the group is a collision (the
 * run's points are then all checked). Returns its work. */
VSG_HD int64_t vsg_arr_node_label(const vsg_arr_ctx *c, int64_t t)
{
    int64_t lo, hi, e = c->nd_idx[t], m = c->nd_m[t];
    double vx = c->nd_vx[t], vy = c->nd_vy[t];
    double dx = c->nd_dx[t], dy = c->nd_dy[t];
    int out = c->nd_out[t];
    int64_t grp = m >= 0 ? c->group_of[m] : -1;
    if (t > 0 && c->nd_key[t - 1] == c->nd_key[t]) {
        int64_t m2 = c->nd_m[t - 1], g2 = m2 >= 0 ? c->group_of[m2] : -1;
        if (g2 != grp || !vsg_cov_same(c->nd_vx[t - 1], c->nd_vy[t - 1], vx, vy))
            vsg_arr_bad(c, grp, VSG_REF_BAD_NODE);
    }
    if (!vsg_arr_node_run(c, t, &lo, &hi)) {
        vsg_arr_bad(c, grp, VSG_REF_BAD_NODE);
        return VSG_REF_MAX_DEGREE;
    }
    int in = 0, lose = 0, own = 0;
    for (int64_t u = lo; u < hi; u++) {
        int64_t m2 = c->nd_m[u];
        if (m2 == m) {
            own++;
            continue;
        }
        /* the first entry of member m2 in the run reads all of m2's ends */
        int seen = 0;
        for (int64_t w = lo; w < u && !seen; w++)
            seen = c->nd_m[w] == m2;
        if (seen)
            continue;
        double rx[VSG_REF_MAX_DEGREE], ry[VSG_REF_MAX_DEGREE];
        int rout[VSG_REF_MAX_DEGREE], n = 0;
        for (int64_t w = u; w < hi; w++) {
            if (c->nd_m[w] != m2)
                continue;
            rx[n] = c->nd_dx[w];
            ry[n] = c->nd_dy[w];
            rout[n++] = c->nd_out[w];
        }
        int lab = vsg_ref_sector_label(vx, vy, dx, dy, out, n, rx, ry, rout);
        if (lab <= 0) {
            vsg_arr_bad(c, grp, VSG_REF_BAD_NODE);
            continue;
        }
        if (lab == VSG_REF_IN)
            in++;
        else if (lab == VSG_REF_OPPOSITE || (lab == VSG_REF_SAME && m2 < m))
            lose = 1;
    }
    /* a ring passes a node arriving and leaving: M's own ends pair up */
    if (own % 2)
        vsg_arr_bad(c, grp, VSG_REF_BAD_NODE);
    c->end_in[e] = (int8_t)in;
    c->end_lose[e] = (uint8_t)lose;
    return (hi - lo) * (hi - lo);
}

/* ---- depth ------------------------------------------------------------------ */

/* The first and one-past-last pieces of ring r. */
VSG_HD void vsg_arr_ring_pieces(const vsg_arr_ctx *c, int64_t r, int64_t *p0, int64_t *p1)
{
    const vsg_col_view *v = &c->sd.v;
    *p0 = c->seg_pc[v->ring_coord[r]];
    *p1 = c->seg_pc[v->ring_coord[r + 1]];
}

/* The change of depth from the piece before q (stored order, same ring)
 * to q: those at their shared point that hold q less those that held the
 * one before; 0 for a ring's first piece. */
VSG_HD void vsg_arr_delta(const vsg_arr_ctx *c, int64_t q)
{
    int64_t ring, p0, p1;
    vsg_arr_member(c, c->pc_k[q], &ring);
    c->delta[q] = 0;
    if (ring < 0)
        return;
    vsg_arr_ring_pieces(c, ring, &p0, &p1);
    if (q > p0)
        c->delta[q] = (int64_t)c->end_in[2 * q] - (int64_t)c->end_in[2 * (q - 1) + 1];
}

/* Ring r casts a ray from its first piece's start when it has pieces. */
VSG_HD void vsg_arr_ray_flag(const vsg_arr_ctx *c, int64_t r)
{
    int64_t p0, p1;
    vsg_arr_ring_pieces(c, r, &p0, &p1);
    c->ray_flag[r] = p1 > p0;
    c->anchor[r] = 0;
}

VSG_HD void vsg_arr_ray_fill(const vsg_arr_ctx *c, int64_t r)
{
    if (!c->ray_flag[r])
        return;
    int64_t p0, p1, j = c->ray_off[r], m;
    int fwd;
    vsg_arr_ring_pieces(c, r, &p0, &p1);
    int64_t grp = vsg_arr_piece_group(c, p0, &m, &fwd);
    double px = c->pc_x0[p0], py = c->pc_y0[p0];
    double *b = c->ray_box + 4 * j;
    c->ray_ring[j] = r;
    b[0] = px;
    b[1] = py;
    b[2] = vsg_arr_group_in(c, grp) ? vsg_double_of_ord(c->gxmax[grp]) : px;
    b[3] = py;
    if (!(b[2] >= px))
        vsg_box_set_inverted(b);
}

/* Whether member n has a piece end at the node entry t's run (t = -1: no
 * node). */
VSG_HD int vsg_arr_at_node(const vsg_arr_ctx *c, int64_t t, int64_t n)
{
    int64_t lo, hi;
    if (t < 0)
        return 0;
    vsg_arr_node_run(c, t, &lo, &hi);
    for (int64_t u = lo; u < hi; u++)
        if (c->nd_m[u] == n)
            return 1;
    return 0;
}

/* Ray-join candidate i (ray, chunk): the winding number the chunk's
 * segments add at the ray's point, interior on the left, when the chunk
 * belongs to another member of the ring's group that has no piece end at
 * the point (those are counted by the node's labels). Half-open in y, so
 * a vertex on the ray counts once. */
VSG_HD int64_t vsg_arr_ray_cross(const vsg_arr_ctx *c, int64_t i)
{
    const vsg_ref_side *sd = &c->sd;
    int64_t j = c->rj_a[i], ch = c->rj_b[i], r = c->ray_ring[j];
    int64_t p0, p1, m, mc = sd->chunk_geom[ch];
    int fwd;
    vsg_arr_ring_pieces(c, r, &p0, &p1);
    int64_t grp = vsg_arr_piece_group(c, p0, &m, &fwd);
    if (mc < 0 || mc == m || c->group_of[mc] != grp || !vsg_arr_group_in(c, grp))
        return 1;
    int64_t t = (c->pc_flags[p0] & VSG_REF_PC_S) ? c->end_pos[2 * p0] : -1;
    if (vsg_arr_at_node(c, t, mc))
        return 1;
    double px = c->pc_x0[p0], py = c->pc_y0[p0];
    int64_t k0, ring;
    int64_t n = vsg_ref_chunk_segs(sd, ch, &k0, &ring);
    int d = sd->dir[ring];
    int64_t w = 0;
    for (int64_t s = 0; s < n; s++) {
        int64_t k = k0 + s;
        double ax = sd->v.x[d > 0 ? k : k + 1], ay = sd->v.y[d > 0 ? k : k + 1];
        double bx = sd->v.x[d > 0 ? k + 1 : k], by = sd->v.y[d > 0 ? k + 1 : k];
        int up = ay <= py && by > py, down = by <= py && ay > py;
        if (!up && !down)
            continue;
        if (ax < px && bx < px)
            continue;
        int o = vsg_orient2d(ax, ay, bx, by, px, py);
        if (o == VSG_ORIENT_UNCERTAIN || o == 0) {
            vsg_arr_bad(c, grp, o == 0 ? VSG_REF_BAD_NODE : VSG_REF_BAD_UNSURE);
            continue;
        }
        if (up && o == VSG_ORIENT_CCW)
            w++;
        else if (down && o == VSG_ORIENT_CW)
            w--;
    }
    if (w)
        VSG_ADD_I64(c->anchor + r, w);
    return n;
}

/* The depth of piece q: its ring's anchor and the changes up to q. */
VSG_HD int64_t vsg_arr_depth(const vsg_arr_ctx *c, int64_t q, int64_t ring, int64_t p0)
{
    return c->anchor[ring] + (int64_t)c->end_in[2 * p0] + c->dscan[q] + c->delta[q] -
           c->dscan[p0];
}

/* Ring r's checks: around it the changes add up to 0. */
VSG_HD void vsg_arr_ring_sum(const vsg_arr_ctx *c, int64_t r)
{
    int64_t p0, p1, m;
    int fwd;
    vsg_arr_ring_pieces(c, r, &p0, &p1);
    if (p1 == p0)
        return;
    int64_t grp = vsg_arr_piece_group(c, p0, &m, &fwd);
    int64_t total = c->dscan[p1] - c->dscan[p0] + (int64_t)c->end_in[2 * p0] -
                    (int64_t)c->end_in[2 * (p1 - 1) + 1];
    if (total != 0 || c->anchor[r] < 0)
        vsg_arr_bad(c, grp, VSG_REF_BAD_LABEL);
}

/* Piece q is on its group's union's boundary. */
VSG_HD int vsg_arr_keeps(const vsg_arr_ctx *c, int64_t q)
{
    int64_t ring, p0, p1, m;
    int fwd;
    vsg_arr_member(c, c->pc_k[q], &ring);
    int64_t grp = vsg_arr_piece_group(c, q, &m, &fwd);
    if (ring < 0 || !vsg_arr_group_in(c, grp))
        return 0;
    vsg_arr_ring_pieces(c, ring, &p0, &p1);
    int64_t d = vsg_arr_depth(c, q, ring, p0);
    if (d < c->end_in[2 * q] || d < c->end_in[2 * q + 1]) {
        vsg_arr_bad(c, grp, VSG_REF_BAD_LABEL);
        return 0;
    }
    return d == 0 && !c->end_lose[2 * q] && !c->end_lose[2 * q + 1];
}

/* Kept piece q into R, interior on the left. */
VSG_HD void vsg_arr_r_fill(const vsg_arr_ctx *c, int64_t q)
{
    if (!c->keep[q])
        return;
    int64_t m;
    int fwd;
    int64_t grp = vsg_arr_piece_group(c, q, &m, &fwd);
    if (fwd)
        vsg_cov_r_set(&c->R, c->keep_off[q], grp, c->pc_x0[q], c->pc_y0[q], c->pc_x1[q],
                      c->pc_y1[q]);
    else
        vsg_cov_r_set(&c->R, c->keep_off[q], grp, c->pc_x1[q], c->pc_y1[q], c->pc_x0[q],
                      c->pc_y0[q]);
}

/* Item i of step s; returns its work. */
VSG_HD int64_t vsg_arr_item(const vsg_arr_ctx *c, int s, int64_t i)
{
    const vsg_ref_side *sd = &c->sd;
    switch (s) {
    case VSG_ARR_GEOM_CHECK:
        vsg_cov_geom_check(&sd->v, c->group_of, c->n_groups, i, c->gwhy);
        return 1;
    case VSG_ARR_RING_CHECK: {
        int64_t g = sd->ring_geom[i];
        if (g >= 0 && sd->dir[i] == 0)
            vsg_arr_bad(c, c->group_of[g], VSG_COV_BAD_RING);
        return 1;
    }
    case VSG_ARR_CHUNK_GROUP: {
        int64_t g = sd->chunk_geom[i];
        int64_t grp = g >= 0 ? c->group_of[g] : -1;
        c->chunk_group[i] = vsg_arr_group_in(c, grp) ? grp : -1 - i;
        return 1;
    }
    case VSG_ARR_GX_INIT:
        c->gxmax[i] = vsg_ord_of(-INFINITY);
        return 1;
    case VSG_ARR_GX_MAX: {
        int64_t grp = c->group_of[i];
        const double *b = sd->boxes + 4 * i;
        if (vsg_arr_group_in(c, grp) && b[2] >= b[0])
            VSG_ORD_MAX(c->gxmax + grp, vsg_ord_of(b[2]));
        return 1;
    }
    case VSG_ARR_CP_ROWS:
        return vsg_arr_cp_rows(c, i);
    case VSG_ARR_ROW_FILL:
        vsg_ref_rows_fill(c->rw.cp_rows[i], i, c->rw.rw_off[i], c->rw.rw_cp, c->rw.rw_s);
        return VSG_CHUNK_SEGS;
    case VSG_ARR_CP_COUNT:
        return vsg_arr_row_events(c, i, 0);
    case VSG_ARR_CP_FILL:
        return vsg_arr_row_events(c, i, 1);
    case VSG_ARR_EV_POS:
        c->ev_idx[i] = i;
        c->ev_key[i] = vsg_arr_pos(c, i);
        return 1;
    case VSG_ARR_EV_SEG:
        c->ev_key[i] = (uint64_t)c->ev_k[c->ev_idx[i]];
        return 1;
    case VSG_ARR_EV_KEY:
        c->ev_idx[i] = i;
        c->ev_key[i] = (uint64_t)c->ev_k[i];
        return 1;
    case VSG_ARR_EV_ORDER:
        return vsg_arr_ev_order(c, i);
    case VSG_ARR_EV_RUNS:
        vsg_arr_ev_runs(c, i);
        return 1;
    case VSG_ARR_SEG_PIECES:
        vsg_arr_seg_pieces(c, i);
        return 1;
    case VSG_ARR_PIECE_FIRST:
        vsg_arr_piece_first(c, i);
        return 1;
    case VSG_ARR_PIECE_SPLIT:
        vsg_arr_piece_split(c, i);
        return 1;
    case VSG_ARR_NODE_KEY:
        vsg_arr_node_key(c, i);
        return 1;
    case VSG_ARR_NODE_PACK:
        vsg_ref_node_pack(c->nd_all, c->nd_flag, c->nd_off, c->nd_key, c->nd_idx, i);
        return 1;
    case VSG_ARR_NODE_INFO:
        vsg_arr_node_info(c, i);
        return 1;
    case VSG_ARR_NODE_LABEL:
        return vsg_arr_node_label(c, i);
    case VSG_ARR_DELTA:
        vsg_arr_delta(c, i);
        return 1;
    case VSG_ARR_RAY_FLAG:
        vsg_arr_ray_flag(c, i);
        return 1;
    case VSG_ARR_RAY_FILL:
        vsg_arr_ray_fill(c, i);
        return 1;
    case VSG_ARR_RAY_CROSS:
        return vsg_arr_ray_cross(c, i);
    case VSG_ARR_RING_SUM:
        vsg_arr_ring_sum(c, i);
        return 1;
    case VSG_ARR_KEEP:
        c->keep[i] = vsg_arr_keeps(c, i);
        return 1;
    case VSG_ARR_R_FILL:
        vsg_arr_r_fill(c, i);
        return 1;
    default:
        return 0;
    }
}

#endif
