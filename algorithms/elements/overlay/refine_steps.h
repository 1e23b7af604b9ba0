/*
 * refine_steps.h - the overlay refine stage's steps as one dispatcher:
 * vsg_ref_item(ctx, step, i) runs item i of a step (elements/overlay/
 * refine.h has the logic). The host backend loops over it; the device
 * launches it (cuda/overlay/launch_refine.cu). The boundary steps after
 * the selection are the coverage union's (coverage_steps.h).
 *
 * Every array is backend memory, owned by the orchestrator
 * (stages/overlay/refine.c), sized by count-then-scan.
 */
#ifndef VSG_ELEMENTS_OVERLAY_REFINE_STEPS_H
#define VSG_ELEMENTS_OVERLAY_REFINE_STEPS_H

#include "elements/bits.h"
#include "elements/box.h"
#include "elements/owner.h"
#include "elements/overlay/refine.h"

typedef struct {
    vsg_ref_side side[2];
    int cur;                         /* the side of the per-side steps       */
    const int64_t *pa, *pb;          /* the pairs, sorted                    */
    int64_t n_pairs;
    uint32_t *why;                   /* n_pairs                              */
    int kbits;                       /* bits of a coordinate index           */
    int same_sides;                  /* one view on both sides, prepared once
                                      * (the overlap union's arrangement
                                      * takes the sides alone, no pair)      */
    int chunks_given;                /* the sides' chunk tables came from
                                      * classify (vsg_chunks_shared)         */
    struct {                         /* and their chunk join, in the
                                      * candidates stage's order (the
                                      * caller's memory; a NULL: none)       */
        int64_t n;
        int64_t *a, *b;
    } given;
    /* a join's candidates: (chunk or geometry of side 0, of side 1)         */
    const int64_t *ja, *jb;
    int64_t n_join;
    int join_side;                   /* which side's chunks the join holds   */
    int64_t *jflag, *joff;           /* n_join, n_join + 1                   */
    /* items without the join (ITEM_SPAN): each pair's chunks of its row on
     * side join_side, their counts and offsets, n_pairs and n_pairs + 1  */
    int64_t *isp_cnt, *isp_off;
    /* items (pair, side, chunk), sorted */
    int64_t n_items, item_base;
    int64_t *it_pair, *it_chunk, *it_idx;
    int8_t *it_side;
    uint64_t *it_key;
    int64_t *it_cnt, *it_off;
    /* instances: one per (pair, side, segment) */
    int64_t n_inst;
    int64_t *in_pair, *in_k, *in_ring;
    int8_t *in_side;
    uint64_t *in_key;                /* sorted by construction               */
    uint32_t *in_flags;
    int64_t *in_cnt, *in_pc;         /* pieces: count, offsets (n_inst + 1)  */
    /* chunk pairs (n_join): their pair, the first instances of both
     * chunks; their rows (side 0's segments near side 1's chunk) */
    int64_t *cp_pair, *cp_ia0, *cp_ib0;
    vsg_ref_rows rw;
    /* events */
    int64_t n_ev;
    int64_t *ev_inst, *ev_idx;
    double *ev_x, *ev_y;
    uint64_t *ev_key;
    int64_t *ev_long;                /* one flag: a run longer than
                                      * VSG_REF_EV_RUN (EV_ORDER)            */
    int64_t *ev_split, *ev_rank;
    int64_t *in_elo, *in_ehi;        /* n_inst: each instance's sorted events */
    /* pieces (original direction of their segment) */
    int64_t n_pc;
    int64_t *pc_inst;
    double *pc_x0, *pc_y0, *pc_x1, *pc_y1;
    uint32_t *pc_flags;              /* 1: start is a node, 2: end is        */
    uint64_t *nd_all;                /* 2 per piece: the node keys of its
                                      * ends, VSG_COV_NOKEY where none        */
    int64_t *nd_flag, *nd_off;       /* 2 per piece: keyed, and where to     */
    int64_t n_nd;                    /* the piece ends at nodes              */
    uint64_t *nd_key;                /* n_nd, sorted with nd_idx (the end)   */
    int64_t *nd_idx;
    /* n_nd, in the sorted order (NODE_INFO): each entry's pair and side,
     * its node, its piece's other end, and whether the piece leaves it */
    int64_t *nd_p;
    int8_t *nd_side, *nd_out;
    double *nd_vx, *nd_vy, *nd_dx, *nd_dy;
    int8_t *end_label;               /* 2 per piece (by end, unsorted)       */
    int8_t *val;                     /* a piece's label (VSG_REF_*), 0: none */
    int64_t *ptr;                    /* its predecessor (itself: none needed
                                      * or none found)                       */
    int64_t *fill_key, *fill_max;    /* 2 n_pc: the labels' fill (PROP_KEYS) */
    /* rays from the first vertex of rings with no node, side cur */
    int8_t *ray_label;               /* n_pc: 0, or the ring's label by ray  */
    int64_t *ray_root, *ray_off;     /* n_pc, n_pc + 1                       */
    int64_t n_ray;
    int64_t *ray_piece;              /* n_ray                                */
    double *ray_box;                 /* 4 n_ray: the ray to the other's box  */
    uint32_t *ray_cross;             /* n_ray: crossings                     */
    int64_t *ray_cc, *ray_coff;      /* n_ray, n_ray + 1: the other polygon's
                                      * chunks (RAY_SPAN), their offsets     */
    int64_t *keep, *keep_off;
    /* the selected boundary */
    vsg_cov_r R;
    uint8_t *ok;
    uint8_t *out_flags, *out_type;
    uint8_t *touch;                  /* n_pairs: the boundaries meet         */
    uint8_t *rounded;                /* n_pairs: its pieces may cross (a
                                      * crossing node was rounded, or a row
                                      * is not proven simple): the noding
                                      * check runs on its boundary          */
    int64_t *any_rounded;            /* one flag: some pair is rounded       */
    /* pairs whose intersection is one of their rows whole (WHOLE_*): a
     * county inside its state, either way round */
    int whole_ok;                    /* no Z: the rows can be gathered
                                      * beside the built ones              */
    uint32_t *not_whole;             /* n_pairs: bit s, side s's row is not
                                      * (cut, or a piece says so)          */
    int64_t *whole, *whole_off;      /* n_pairs (1: whole), n_pairs + 1     */
    int32_t *gsrc;                   /* n_pairs: the output's source (0: the
                                      * boundary's, 1 + s: side s's rows)   */
    int64_t *grow;                   /* n_pairs: its geometry there          */
} vsg_ref_ctx;

enum {
    VSG_REF_PAIR_INIT,      /* n_pairs                      */
    VSG_REF_RING_INIT,      /* side cur: n_rings            */
    VSG_REF_COORD_RING,     /* blocks of n_coords           */
    VSG_REF_MIN_Y,          /* n_coords                     */
    VSG_REF_MIN_X,
    VSG_REF_MIN_I,
    VSG_REF_RING_DIR,       /* n_rings                      */
    VSG_REF_RING_CHUNKS,    /* n_rings                      */
    VSG_REF_CHUNK_FILL,     /* n_chunks                     */
    VSG_REF_ITEM_FLAG,      /* n_join                       */
    VSG_REF_ITEM_FILL,      /* n_join                       */
    VSG_REF_ITEM_SPAN,      /* n_pairs                      */
    VSG_REF_ITEM_DFLAG,     /* the pairs' chunks (ITEM_SPAN) */
    VSG_REF_ITEM_DFILL,     /* the pairs' chunks            */
    VSG_REF_ITEM_KEY,       /* n_items                      */
    VSG_REF_INST_COUNT,     /* n_items                      */
    VSG_REF_INST_FILL,      /* n_items x VSG_CHUNK_SEGS     */
    VSG_REF_CP_ROWS,        /* n_join (chunk pairs)         */
    VSG_REF_ROW_FILL,       /* n_join                       */
    VSG_REF_CP_COUNT,       /* n_rows                       */
    VSG_REF_CP_INST,        /* n_join                       */
    VSG_REF_CP_FILL,        /* n_rows                       */
    VSG_REF_EV_POS,         /* n_ev                         */
    VSG_REF_EV_INST,        /* n_ev (sorted by position)    */
    VSG_REF_EV_MARK,        /* n_ev (sorted by instance)    */
    VSG_REF_INST_PIECES,    /* n_inst                       */
    VSG_REF_PIECE_FIRST,    /* n_inst                       */
    VSG_REF_PIECE_SPLIT,    /* n_ev                         */
    VSG_REF_NODE_KEY,       /* n_pc                         */
    VSG_REF_NODE_PACK,      /* 2 n_pc                       */
    VSG_REF_NODE_LABEL,     /* n_nd (sorted positions)      */
    VSG_REF_PROP_INIT,      /* n_pc                         */
    VSG_REF_PROP_KEYS,      /* n_pc                         */
    VSG_REF_RAY_ROOT,       /* n_pc                         */
    VSG_REF_RAY_FILL,       /* n_pc                         */
    VSG_REF_RAY_CROSS,      /* n_join (ray, chunk)          */
    VSG_REF_RAY_SET,        /* n_ray                        */
    VSG_REF_CHECK,          /* n_pc                         */
    VSG_REF_SELECT,         /* n_pc                         */
    VSG_REF_R_FILL,         /* n_pc                         */
    VSG_REF_FINAL,          /* n_pairs                      */
    VSG_REF_WHOLE_PIECE,    /* n_pc (after SELECT)          */
    VSG_REF_WHOLE_PAIR,     /* n_pairs                      */
    VSG_REF_UNKEEP,         /* n_pc                         */
    VSG_REF_WHOLE_SRC,      /* n_pairs                      */
    VSG_REF_EV_KEY,         /* n_ev                         */
    VSG_REF_EV_ORDER,       /* n_ev (sorted by instance)    */
    VSG_REF_PROP_FILL,      /* n_pc (after the max scan)    */
    VSG_REF_RAY_SPAN,       /* n_ray                        */
    VSG_REF_RAY_DIRECT,     /* the rays' chunks (RAY_SPAN)  */
    VSG_REF_NODE_INFO,      /* n_nd (sorted positions)      */
    VSG_REF_N_STEPS
};

#define VSG_REF_PC_S 1u
#define VSG_REF_PC_E 2u

/* ---- helpers over the context ------------------------------------------- */

/* The instance of (pair, side, k), or -1, tried first at hint (-1: none),
 * then by a binary search over every instance. A pair's instances of one chunk
 * lie side by side in key order, so a neighbour's index plus the step along
 * the ring is nearly always it: two loads instead of a binary search over
 * every instance. The answer is the search's (keys are unique; the load
 * before hint proves it the first of its key all the same). */
VSG_HD int64_t vsg_ref_find_inst_near(const vsg_ref_ctx *c, int64_t p, int side, int64_t k,
                                      int64_t hint)
{
    uint64_t h = vsg_ref_inst_key(p, side, k, c->kbits);
    if (hint >= 0 && hint < c->n_inst && c->in_key[hint] == h &&
        (hint == 0 || c->in_key[hint - 1] != h))
        return hint;
    int64_t q = vsg_grid_lower_bound(c->in_key, c->n_inst, h);
    return q < c->n_inst && c->in_key[q] == h ? q : -1;
}

VSG_HD int64_t vsg_ref_find_inst(const vsg_ref_ctx *c, int64_t p, int side, int64_t k)
{
    return vsg_ref_find_inst_near(c, p, side, k, -1);
}

/* The segment of instance i in its stored direction. */
VSG_HD void vsg_ref_inst_seg(const vsg_ref_ctx *c, int64_t i, double *ax, double *ay,
                             double *bx, double *by)
{
    const vsg_col_view *v = &c->side[c->in_side[i]].v;
    int64_t k = c->in_k[i];
    *ax = v->x[k];
    *ay = v->y[k];
    *bx = v->x[k + 1];
    *by = v->y[k + 1];
}

VSG_HD int vsg_ref_piece_dir(const vsg_ref_ctx *c, int64_t q)
{
    int64_t i = c->pc_inst[q];
    return c->side[c->in_side[i]].dir[c->in_ring[i]];
}

VSG_HD int vsg_ref_piece_flat(const vsg_ref_ctx *c, int64_t q)
{
    return vsg_cov_same(c->pc_x0[q], c->pc_y0[q], c->pc_x1[q], c->pc_y1[q]);
}

/* The piece before q along its ring, interior on the left; -1 if none is
 * found (the pair is then handed back). */
VSG_HD int64_t vsg_ref_prev_piece(const vsg_ref_ctx *c, int64_t q)
{
    int64_t i = c->pc_inst[q], j = q - c->in_pc[i], n = c->in_pc[i + 1] - c->in_pc[i];
    int fwd = vsg_ref_piece_dir(c, q) > 0;
    if (fwd && j > 0)
        return q - 1;
    if (!fwd && j < n - 1)
        return q + 1;
    int side = c->in_side[i];
    const vsg_col_view *v = &c->side[side].v;
    int64_t r = c->in_ring[i], rk0 = v->ring_coord[r], rk1 = v->ring_coord[r + 1], k = c->in_k[i];
    int64_t t = i;
    for (int step = 0; step < VSG_COV_MAX_REPEAT; step++) {
        if (fwd)
            k = k - 1 >= rk0 ? k - 1 : rk1 - 2;
        else
            k = k + 1 <= rk1 - 2 ? k + 1 : rk0;
        t = vsg_ref_find_inst_near(c, c->in_pair[i], side, k, fwd ? t - 1 : t + 1);
        if (t < 0)
            return -1;
        if (c->in_pc[t + 1] > c->in_pc[t])
            return fwd ? c->in_pc[t + 1] - 1 : c->in_pc[t];
    }
    return -1;
}

/* ---- the steps ---------------------------------------------------------------- */

/* ---- nodes: the segment pairs of chunk pairs, in rows ---------------------
 * A chunk pair's 16 x 16 segment tests in one thread left most lanes of
 * a warp idle (ncu, run K2 in docs/benchmarks.md: 2.6-3.5 of 32 threads
 * active): most chunk pairs hold no pair of the refine (the overlap
 * union's chunks of one member, or of members in no pair), and of the
 * rest few segments come near the other chunk. So one item per chunk
 * pair keeps its rows, the segments of side 0's chunk whose box meets
 * side 1's chunk box (none where the chunks hold no pair), and one item
 * per row tests its segment against side 1's chunk: counted first (the
 * segments with nodes as bits), then written by revisiting only those.
 * Rows come in chunk-pair order and segments in order within a row, so
 * the events come in the order of the chunk pairs' loops before. */
#if VSG_CHUNK_SEGS > 32
#error "a chunk's rows and a row's hits are bits of one uint32_t"
#endif

/* Chunk pair i: its pair, its chunks' first segments, and the rows. */
VSG_HD int64_t vsg_ref_cp_rows(const vsg_ref_ctx *c, int64_t i)
{
    const vsg_ref_side *A = &c->side[0], *B = &c->side[1];
    int64_t ga = A->chunk_geom[c->ja[i]], gb = B->chunk_geom[c->jb[i]];
    int64_t p = ga < 0 || gb < 0 ? -1 : vsg_pair_find(c->pa, c->pb, c->n_pairs, ga, gb);
    int64_t w = vsg_ref_chunk_rows(A, c->ja[i], B, c->jb[i], p >= 0, c->rw.cp_ka + i, c->rw.cp_kb + i,
                                   c->rw.cp_cols + i, c->rw.cp_rows + i);
    c->cp_pair[i] = p;
    c->rw.rw_cnt[i] = vsg_popcount_u32(c->rw.cp_rows[i]);
    return w;
}

/* The rows of chunk pair i from rw_off[i]. */
VSG_HD void vsg_ref_row_fill(const vsg_ref_ctx *c, int64_t i)
{
    vsg_ref_rows_fill(c->rw.cp_rows[i], i, c->rw.rw_off[i], c->rw.rw_cp, c->rw.rw_s);
}

/* Chunk pair i's first instances of both chunks, where its rows have
 * nodes: the rows' instances are found next to them. */
VSG_HD void vsg_ref_cp_inst(const vsg_ref_ctx *c, int64_t i)
{
    int64_t p = c->cp_pair[i];
    uint32_t any = 0;
    c->cp_ia0[i] = c->cp_ib0[i] = -1;
    for (int64_t t = c->rw.rw_off[i]; p >= 0 && t < c->rw.rw_off[i + 1]; t++)
        any |= c->rw.rw_hits[t];
    if (!any)
        return;
    c->cp_ia0[i] = vsg_ref_find_inst(c, p, 0, c->rw.cp_ka[i]);
    c->cp_ib0[i] = vsg_ref_find_inst(c, p, 1, c->rw.cp_kb[i]);
}

/* Pair p's pieces may cross where their boundary is built: a node was
 * rounded, or a row is not proven simple (pieces of one row that touch
 * it at a point cut nothing). Every writer stores the same values. */
VSG_HD void vsg_ref_mark_rounded(const vsg_ref_ctx *c, int64_t p)
{
    if (!c->rounded[p]) {
        c->rounded[p] = 1;
        *c->any_rounded = 1;
    }
}

/* Side s's row of pair p is not the pair's intersection whole (a cut, or
 * a piece's label; see "pairs whose intersection is one of their rows
 * whole" below). */
VSG_HD void vsg_ref_not_whole(const vsg_ref_ctx *c, int64_t p, int side)
{
    uint32_t bit = 1u << side;
    if (!(c->not_whole[p] & bit))
        VSG_OR_U32(c->not_whole + p, bit);
}

/* Instance i's end flag f, set once (most ends are flagged by several
 * segment pairs: read first, so that only the first few pay the atomic). */
VSG_HD void vsg_ref_flag_end(const vsg_ref_ctx *c, int64_t i, uint32_t f)
{
    if (i >= 0 && (c->in_flags[i] & f) != f)
        VSG_OR_U32(c->in_flags + i, f);
}

/* The nodes of row t (segment s of side 0's chunk against side 1's
 * chunk). A node at an end of an instance's segment flags that end (the
 * most of real data's nodes, where the layers share their vertices); one
 * inside it is an event, which cuts it. Counted first (fill = 0:
 * ev_cnt[t], the events; the segments with nodes as bits of rw_hits[t]),
 * then written from ev_off[t] and the ends flagged (fill = 1) by
 * revisiting only those: the exact tests of the pairs without nodes, most
 * of them, are made once. Returns the segment pairs looked at. */
VSG_HD int64_t vsg_ref_row_events(const vsg_ref_ctx *c, int64_t t, int fill)
{
    int64_t i = c->rw.rw_cp[t], p = c->cp_pair[i];
    if (fill && !c->rw.rw_hits[t])
        return 0;
    const vsg_ref_side *A = &c->side[0], *B = &c->side[1];
    int s = c->rw.rw_s[t];
    int64_t k = c->rw.cp_ka[i] + s, kb = c->rw.cp_kb[i];
    double p0x = A->v.x[k], p0y = A->v.y[k], p1x = A->v.x[k + 1], p1y = A->v.y[k + 1];
    uint32_t row = fill ? c->rw.rw_hits[t]
                        : vsg_ref_row_near(B->v.x, B->v.y, kb, c->rw.cp_cols[i], p0x, p0y, p1x,
                                           p1y),
             hits = 0;
    int64_t n = 0, o = fill ? c->rw.ev_off[t] : 0, looked = 0, ia = -1;
    int64_t ib0 = fill ? c->cp_ib0[i] : -1;
    if (fill) {
        int64_t ia0 = c->cp_ia0[i];
        ia = vsg_ref_find_inst_near(c, p, 0, k, ia0 >= 0 ? ia0 + s : -1);
    }
    for (; row; row &= row - 1) {
        int u = vsg_low_bit_u32(row);
        int64_t m = kb + u;
        double q0x = B->v.x[m], q0y = B->v.y[m], q1x = B->v.x[m + 1], q1y = B->v.y[m + 1];
        double nx[4], ny[4];
        looked++;
        int shared = vsg_ref_seg_shared(p0x, p0y, p1x, p1y, q0x, q0y, q1x, q1y);
        int cnt = shared ? 4 : vsg_ref_seg_nodes(p0x, p0y, p1x, p1y, q0x, q0y, q1x, q1y, nx, ny);
        if (cnt < 0) {
            VSG_OR_U32(c->why + p, VSG_REF_BAD_UNSURE);
            continue;
        }
        if (cnt == 0)
            continue;
        int64_t ib = -1, iw = ia;
        if (!fill) {
            hits |= (uint32_t)1 << u;
        } else {
            ib = vsg_ref_find_inst_near(c, p, 1, m, ib0 >= 0 ? ib0 + u : -1);
            if (ia < 0 || ib < 0) {
                VSG_OR_U32(c->why + p, VSG_REF_BAD_NODE);
                iw = -1;
            }
        }
        if (shared) {   /* both ends of both, no event */
            if (fill) {
                vsg_ref_flag_end(c, iw, VSG_REF_SNODE | VSG_REF_ENODE);
                vsg_ref_flag_end(c, ib, VSG_REF_SNODE | VSG_REF_ENODE);
            }
            continue;
        }
        for (int e = 0; e < cnt; e++) {
            uint32_t fa = vsg_ref_node_end(p0x, p0y, p1x, p1y, nx[e], ny[e]);
            uint32_t fb = vsg_ref_node_end(q0x, q0y, q1x, q1y, nx[e], ny[e]);
            if (fill && fa)
                vsg_ref_flag_end(c, iw, fa);
            if (fill && fb)
                vsg_ref_flag_end(c, ib, fb);
            if (fill && !fa && !fb)   /* inside both: a rounded crossing */
                vsg_ref_mark_rounded(c, p);
            /* a segment cut: its row is not gathered whole, whose answer
             * would lack the node GEOS's (and the built one) has there */
            if (fill && !fa)
                vsg_ref_not_whole(c, p, 0);
            if (fill && !fb)
                vsg_ref_not_whole(c, p, 1);
            if (fill && !fa) {
                c->ev_inst[o + n] = iw;
                c->ev_x[o + n] = nx[e];
                c->ev_y[o + n] = ny[e];
            }
            n += !fa;
            if (fill && !fb) {
                c->ev_inst[o + n] = ib;
                c->ev_x[o + n] = nx[e];
                c->ev_y[o + n] = ny[e];
            }
            n += !fb;
        }
    }
    if (fill)
        c->touch[p] = 1;   /* a row with hits: every writer stores the same value */
    else {
        c->rw.rw_hits[t] = hits;
        c->rw.ev_cnt[t] = n;
    }
    return looked;
}

/* The most events of one instance that EV_ORDER places; a longer run
 * takes the two sorts. */
#define VSG_REF_EV_RUN 32

/* Event e's sort key by instance: its instance, or n_inst (last) for an
 * event with none. */
VSG_HD uint64_t vsg_ref_ev_inst_key(const vsg_ref_ctx *c, int64_t e)
{
    int64_t in = c->ev_inst[e];
    return in < 0 ? (uint64_t)c->n_inst : (uint64_t)in;
}

/* Sorted position q (by instance, stable: by event within): the event's
 * place in its instance's run along the segment, by position key and then
 * by event, which is the order a stable sort by position and then a
 * stable sort by instance give. The runs are short (a segment meets few
 * others), so each event of a run of at most VSG_REF_EV_RUN counts the
 * events of its run that come before it and writes itself there, into
 * ev_split (the caller swaps it with ev_idx); every thread does about the
 * same work, where one thread sorting each run left most of a warp idle.
 * A longer run sets *ev_long, and the caller sorts every event by the two
 * sorts instead. */
VSG_HD int64_t vsg_ref_ev_order(const vsg_ref_ctx *c, int64_t q)
{
    uint64_t in = c->ev_key[q];
    int64_t e = c->ev_idx[q];
    if (in >= (uint64_t)c->n_inst) {
        c->ev_split[q] = e;
        return 1;
    }
    int64_t lo, hi;
    if (!vsg_key_run(c->ev_key, c->n_ev, q, VSG_REF_EV_RUN, &lo, &hi)) {
        *c->ev_long = 1;   /* every writer stores the same value */
        return hi - lo;
    }
    int64_t rank = 0;
    if (hi - lo > 1) {
        double ax, ay, bx, by;
        vsg_ref_inst_seg(c, (int64_t)in, &ax, &ay, &bx, &by);
        uint64_t k = vsg_ref_pos_key(ax, ay, bx, by, c->ev_x[e], c->ev_y[e]);
        for (int64_t u = lo; u < hi; u++) {
            int64_t f = c->ev_idx[u];
            uint64_t ku = u == q ? k : vsg_ref_pos_key(ax, ay, bx, by, c->ev_x[f], c->ev_y[f]);
            rank += ku < k || (ku == k && u < q);
        }
    }
    c->ev_split[lo + rank] = e;
    return hi - lo;
}

/* Sorted position q (by instance, then along the segment): whether the
 * event splits its segment, and the node flags of the segment's ends. */
VSG_HD void vsg_ref_ev_mark(const vsg_ref_ctx *c, int64_t q)
{
    int64_t e = c->ev_idx[q], i = c->ev_inst[e];
    c->ev_split[q] = 0;
    if (i < 0)
        return;
    /* the ends of the instance's run (the ranges start empty) */
    if (q == 0 || c->ev_key[q - 1] != (uint64_t)i)
        c->in_elo[i] = q;
    if (q == c->n_ev - 1 || c->ev_key[q + 1] != (uint64_t)i)
        c->in_ehi[i] = q + 1;
    double ax, ay, bx, by, x = c->ev_x[e], y = c->ev_y[e];
    vsg_ref_inst_seg(c, i, &ax, &ay, &bx, &by);
    if (vsg_cov_same(x, y, ax, ay)) {
        VSG_OR_U32(c->in_flags + i, VSG_REF_SNODE);
        return;
    }
    if (vsg_cov_same(x, y, bx, by)) {
        VSG_OR_U32(c->in_flags + i, VSG_REF_ENODE);
        return;
    }
    if (q > 0) {
        int64_t e2 = c->ev_idx[q - 1];
        if (c->ev_inst[e2] == i) {
            if (vsg_cov_same(x, y, c->ev_x[e2], c->ev_y[e2]))
                return;
            if (vsg_ref_pos_key(ax, ay, bx, by, x, y) ==
                vsg_ref_pos_key(ax, ay, bx, by, c->ev_x[e2], c->ev_y[e2]))
                VSG_OR_U32(c->why + c->in_pair[i], VSG_REF_BAD_ORDER);
        }
    }
    c->ev_split[q] = 1;
}

/* The events of instance i: sorted positions [lo, hi), as EV_MARK found
 * them (the sorted keys' runs: no search). */
VSG_HD void vsg_ref_inst_events(const vsg_ref_ctx *c, int64_t i, int64_t *lo, int64_t *hi)
{
    *lo = c->in_elo[i];
    *hi = c->in_ehi[i];
}

VSG_HD void vsg_ref_inst_pieces(const vsg_ref_ctx *c, int64_t i)
{
    double ax, ay, bx, by;
    int64_t lo, hi;
    vsg_ref_inst_seg(c, i, &ax, &ay, &bx, &by);
    if (vsg_cov_same(ax, ay, bx, by) || c->side[c->in_side[i]].dir[c->in_ring[i]] == 0) {
        c->in_cnt[i] = 0;
        return;
    }
    vsg_ref_inst_events(c, i, &lo, &hi);
    c->in_cnt[i] = 1 + c->ev_rank[hi] - c->ev_rank[lo];
}

VSG_HD void vsg_ref_piece_first(const vsg_ref_ctx *c, int64_t i)
{
    int64_t q0 = c->in_pc[i], q1 = c->in_pc[i + 1];
    if (q1 <= q0)
        return;
    double ax, ay, bx, by;
    vsg_ref_inst_seg(c, i, &ax, &ay, &bx, &by);
    c->pc_inst[q0] = i;
    c->pc_x0[q0] = ax;
    c->pc_y0[q0] = ay;
    c->pc_x1[q1 - 1] = bx;
    c->pc_y1[q1 - 1] = by;
    if (c->in_flags[i] & VSG_REF_SNODE)
        VSG_OR_U32(c->pc_flags + q0, VSG_REF_PC_S);
    if (c->in_flags[i] & VSG_REF_ENODE)
        VSG_OR_U32(c->pc_flags + q1 - 1, VSG_REF_PC_E);
}

VSG_HD void vsg_ref_piece_split(const vsg_ref_ctx *c, int64_t q)
{
    if (!c->ev_split[q])
        return;
    int64_t e = c->ev_idx[q], i = c->ev_inst[e], lo, hi;
    if (c->in_pc[i + 1] <= c->in_pc[i])
        return;
    vsg_ref_inst_events(c, i, &lo, &hi);
    int64_t r = c->ev_rank[q] - c->ev_rank[lo], pc = c->in_pc[i] + r;
    c->pc_x1[pc] = c->ev_x[e];
    c->pc_y1[pc] = c->ev_y[e];
    VSG_OR_U32(c->pc_flags + pc, VSG_REF_PC_E);
    c->pc_inst[pc + 1] = i;
    c->pc_x0[pc + 1] = c->ev_x[e];
    c->pc_y0[pc + 1] = c->ev_y[e];
    VSG_OR_U32(c->pc_flags + pc + 1, VSG_REF_PC_S);
}

/* The node keys of piece q's two ends (end e = 2 q + z). Only ends at
 * nodes get one, a minority: they alone are packed (NODE_PACK, in end
 * order) and sorted, so the sort and the labels pass over the nodes, not
 * over every piece end. */
VSG_HD void vsg_ref_node_key(const vsg_ref_ctx *c, int64_t q)
{
    int64_t p = c->in_pair[c->pc_inst[q]];
    int flat = vsg_ref_piece_flat(c, q);
    uint32_t f = c->pc_flags[q];
    uint64_t k0 = !flat && (f & VSG_REF_PC_S) ? vsg_node_key(p, c->pc_x0[q], c->pc_y0[q])
                                              : VSG_COV_NOKEY;
    uint64_t k1 = !flat && (f & VSG_REF_PC_E) ? vsg_node_key(p, c->pc_x1[q], c->pc_y1[q])
                                              : VSG_COV_NOKEY;
    c->nd_all[2 * q] = k0;
    c->nd_all[2 * q + 1] = k1;
    c->nd_flag[2 * q] = k0 != VSG_COV_NOKEY;
    c->nd_flag[2 * q + 1] = k1 != VSG_COV_NOKEY;
    c->end_label[2 * q] = c->end_label[2 * q + 1] = 0;
}

/* Sorted node entry t: what its label and its run's other entries read
 * of it, side by side (pair, side, the node, the piece's other end,
 * whether the piece leaves the node). The one gather of the end's piece by
 * its index: the labels then read these sorted arrays. */
VSG_HD void vsg_ref_node_info(const vsg_ref_ctx *c, int64_t t)
{
    int64_t e = c->nd_idx[t], q = e / 2, i = c->pc_inst[q];
    int z = (int)(e % 2);
    c->nd_p[t] = c->in_pair[i];
    c->nd_side[t] = (int8_t)c->in_side[i];
    c->nd_vx[t] = z ? c->pc_x1[q] : c->pc_x0[q];
    c->nd_vy[t] = z ? c->pc_y1[q] : c->pc_y0[q];
    c->nd_dx[t] = z ? c->pc_x0[q] : c->pc_x1[q];
    c->nd_dy[t] = z ? c->pc_y0[q] : c->pc_y1[q];
    /* leaving: the end is the start of the piece in its ring's direction */
    c->nd_out[t] = (int8_t)((z == 0) == (vsg_ref_piece_dir(c, q) > 0));
}

/* Sorted node entry t: the label of its piece end from the other side's
 * piece ends at the same node (the run's entries as NODE_INFO left them). */
VSG_HD int64_t vsg_ref_node_label(const vsg_ref_ctx *c, int64_t t)
{
    int64_t n = c->n_nd;
    uint64_t h = c->nd_key[t];
    if (h == VSG_COV_NOKEY)
        return 1;
    int64_t lo = t, hi = t + 1;
    while (lo > 0 && c->nd_key[lo - 1] == h && t - lo < VSG_REF_MAX_DEGREE)
        lo--;
    while (hi < n && c->nd_key[hi] == h && hi - t < VSG_REF_MAX_DEGREE)
        hi++;
    int64_t p = c->nd_p[t];
    int side = c->nd_side[t], out = c->nd_out[t];
    double vx = c->nd_vx[t], vy = c->nd_vy[t], dx = c->nd_dx[t], dy = c->nd_dy[t];
    if ((lo > 0 && c->nd_key[lo - 1] == h) || (hi < n && c->nd_key[hi] == h)) {
        VSG_OR_U32(c->why + p, VSG_REF_BAD_NODE);
        return hi - lo;
    }
    double ox[VSG_REF_MAX_DEGREE], oy[VSG_REF_MAX_DEGREE];
    int oout[VSG_REF_MAX_DEGREE], m = 0;
    for (int64_t u = lo; u < hi; u++) {
        if (c->nd_p[u] != p || !vsg_cov_same(c->nd_vx[u], c->nd_vy[u], vx, vy)) {
            VSG_OR_U32(c->why + p, VSG_REF_BAD_NODE);   /* a key collision */
            return hi - lo;
        }
        if (c->nd_side[u] == side)
            continue;
        ox[m] = c->nd_dx[u];
        oy[m] = c->nd_dy[u];
        oout[m++] = c->nd_out[u];
    }
    int lab = m > 0 ? vsg_ref_sector_label(vx, vy, dx, dy, out, m, ox, oy, oout) : -1;
    if (lab <= 0)
        VSG_OR_U32(c->why + p, VSG_REF_BAD_NODE);
    else
        c->end_label[c->nd_idx[t]] = (int8_t)lab;
    return (hi - lo) * (hi - lo);
}

VSG_HD void vsg_ref_prop_init(const vsg_ref_ctx *c, int64_t q)
{
    int64_t i = c->pc_inst[q], p = c->in_pair[i];
    int side = c->in_side[i], fwd = vsg_ref_piece_dir(c, q) > 0;
    int zs = fwd ? 0 : 1;
    double sx = fwd ? c->pc_x0[q] : c->pc_x1[q], sy = fwd ? c->pc_y0[q] : c->pc_y1[q];
    const double *ob = c->side[1 - side].boxes + 4 * (side == 0 ? c->pb[p] : c->pa[p]);
    c->val[q] = 0;
    c->ptr[q] = q;
    if (c->ray_label[q] != 0) {
        c->val[q] = c->ray_label[q];
        return;
    }
    if (!vsg_ref_piece_flat(c, q) && (c->pc_flags[q] & (zs ? VSG_REF_PC_E : VSG_REF_PC_S))) {
        c->val[q] = c->end_label[2 * q + zs];
        return;
    }
    if (sx < ob[0] || sx > ob[2] || sy < ob[1] || sy > ob[3]) {
        c->val[q] = VSG_REF_OUT;
        return;
    }
    int64_t pr = vsg_ref_prev_piece(c, q);
    if (pr < 0)
        VSG_OR_U32(c->why + p, VSG_REF_BAD_NOLABEL);
    else
        c->ptr[q] = pr;
}

/* ---- labels along the rings: a fill by one max scan ---------------------
 * A piece no node, box or ray labels takes the label of the nearest
 * labelled piece before it along its ring. Along a ring running forward
 * (its pieces in array order) a piece's predecessor is the piece before
 * it in the array (PROP_INIT: ptr[q] = q - 1), and backward the one after
 * it, except at the ring's first piece, whose predecessor is the ring's
 * last (a "jump"), and where none was found (ptr[q] = q). So the labels
 * fill runs of the array, forward and backward, and one inclusive max
 * scan over 2 n_pc keys does both: fill_key[q] (forward pieces, position
 * q) and fill_key[n + r] (backward pieces, r = n - 1 - q) hold
 * ((position + 1) << 3 | label) where a run starts (a labelled piece, or
 * one whose predecessor is not its neighbour: label 0), else 0. The max
 * up to a piece is its run's latest start: a label, or the run's first
 * piece. A run that starts unlabelled at a jump takes the label the fill
 * gave the jump's target, the ring's last piece (whose own run starts
 * after the jump or is the whole ring: two levels are enough). Pieces of
 * rings with no label keep 0 (rays, then this again), as pointer jumping
 * gave, in one scan instead of a round per doubling of the chains. */
VSG_HD int64_t vsg_ref_fill_slot(const vsg_ref_ctx *c, int64_t q)
{
    return vsg_ref_piece_dir(c, q) > 0 ? q : 2 * c->n_pc - 1 - q;
}

VSG_HD void vsg_ref_prop_keys(const vsg_ref_ctx *c, int64_t q)
{
    int64_t n = c->n_pc, slot = vsg_ref_fill_slot(c, q);
    int64_t before = slot == q ? q - 1 : q + 1;
    int64_t key = 0;
    if (c->val[q] != 0 || c->ptr[q] != before)
        key = ((slot + 1) << 3) | (int64_t)c->val[q];
    c->fill_key[slot] = key;
    c->fill_key[slot == q ? 2 * n - 1 - q : q] = 0;   /* the other direction's slot */
}

VSG_HD void vsg_ref_prop_fill(const vsg_ref_ctx *c, int64_t q)
{
    if (c->val[q] != 0)
        return;
    int64_t n = c->n_pc, m = c->fill_max[vsg_ref_fill_slot(c, q)];
    int lab = (int)(m & 7);
    if (m > 0 && lab == 0) {   /* an unlabelled run: its first piece's jump */
        int64_t h = (m >> 3) - 1;
        h = h < n ? h : 2 * n - 1 - h;
        int64_t t = c->ptr[h];
        lab = t != h ? (int)(c->fill_max[vsg_ref_fill_slot(c, t)] & 7) : 0;
    }
    c->val[q] = (int8_t)lab;
}

/* Piece q of side cur roots a ray when nothing labelled it: its ring has
 * no node (a node anywhere on the ring would have passed a label along
 * it), and q is the ring's first piece (the first segments may be
 * degenerate and have none), whose start is a vertex of the ring. */
VSG_HD int64_t vsg_ref_ray_root(const vsg_ref_ctx *c, int64_t q)
{
    int64_t i = c->pc_inst[q], p = c->in_pair[i];
    if (c->val[q] != 0 || c->why[p] != 0 || c->in_side[i] != c->cur || q != c->in_pc[i])
        return 0;
    const vsg_col_view *v = &c->side[c->cur].v;
    int64_t i0 = vsg_ref_find_inst(c, p, c->cur, v->ring_coord[c->in_ring[i]]);
    return i0 >= 0 && c->in_pc[i0] == q;
}

/* The ray of root q: from its start to the other polygon's box edge. */
VSG_HD void vsg_ref_ray_fill(const vsg_ref_ctx *c, int64_t q)
{
    if (!c->ray_root[q])
        return;
    int64_t r = c->ray_off[q], p = c->in_pair[c->pc_inst[q]];
    int side = c->cur;
    const double *ob = c->side[1 - side].boxes + 4 * (side == 0 ? c->pb[p] : c->pa[p]);
    double *b = c->ray_box + 4 * r;
    c->ray_piece[r] = q;
    c->ray_cross[r] = 0;
    b[0] = c->pc_x0[q];
    b[1] = b[3] = c->pc_y0[q];
    b[2] = ob[2] > b[0] ? ob[2] : b[0];
}

/* Ray r's crossings with chunk ch of the pair's other polygon, added to
 * ray_cross[r]. Returns the segments looked at. */
VSG_HD int64_t vsg_ref_ray_chunk(const vsg_ref_ctx *c, int64_t r, int64_t ch)
{
    int64_t q = c->ray_piece[r], p = c->in_pair[c->pc_inst[q]];
    const vsg_ref_side *o = &c->side[1 - c->cur];
    int64_t k0, ring, n = vsg_ref_chunk_segs(o, ch, &k0, &ring);
    double px = c->pc_x0[q], py = c->pc_y0[q];
    uint32_t m = 0;
    for (int64_t u = 0; u < n; u++) {
        int64_t k = k0 + u;
        int x = vsg_ref_ray_crosses(px, py, o->v.x[k], o->v.y[k], o->v.x[k + 1], o->v.y[k + 1]);
        if (x < 0) {
            VSG_OR_U32(c->why + p, VSG_REF_BAD_UNSURE);
            return n;
        }
        m += (uint32_t)x;
    }
    if (m)
        VSG_ADD_U32(c->ray_cross + r, m);
    return n;
}

/* Candidate t of the items without the join, side join_side: chunk *ch of
 * pair *p's row on that side, an item when its box meets the box of the
 * pair's row on the other side. The join's items, found from the pairs:
 * the same test on the same boxes, so the same set. */
VSG_HD int vsg_ref_item_direct(const vsg_ref_ctx *c, int64_t t, int64_t *p, int64_t *ch)
{
    int s = c->join_side;
    int64_t q = vsg_owner(c->isp_off, c->n_pairs, t), c0;
    int64_t own = s == 0 ? c->pa[q] : c->pb[q], g = s == 0 ? c->pb[q] : c->pa[q];
    const vsg_ref_side *sd = &c->side[s], *o = &c->side[1 - s];
    vsg_ref_row_chunks(sd, own, &c0);
    *p = q;
    *ch = c0 + (t - c->isp_off[q]);
    return sd->chunk_geom[*ch] == own && g >= 0 && g < o->v.n_geoms &&
           vsg_box_meets(sd->chunk_box + 4 * *ch, o->boxes + 4 * g);
}

/* The pair's other polygon of ray r: its first chunk, and its chunks. */
VSG_HD int64_t vsg_ref_ray_chunks(const vsg_ref_ctx *c, int64_t r, int64_t *c0)
{
    int64_t q = c->ray_piece[r], p = c->in_pair[c->pc_inst[q]];
    return vsg_ref_row_chunks(&c->side[1 - c->cur], c->cur == 0 ? c->pb[p] : c->pa[p], c0);
}

/* Candidate (ray, chunk of the other side) of the rays' box join: the
 * chunk's crossings, when it belongs to the pair's other polygon. */
VSG_HD int64_t vsg_ref_ray_cross(const vsg_ref_ctx *c, int64_t i)
{
    int64_t r = c->ja[i], ch = c->jb[i], q = c->ray_piece[r], p = c->in_pair[c->pc_inst[q]];
    int side = c->cur;
    const vsg_ref_side *o = &c->side[1 - side];
    if (o->chunk_geom[ch] != (side == 0 ? c->pb[p] : c->pa[p]))
        return 1;
    return vsg_ref_ray_chunk(c, r, ch);
}

/* Item t of the rays' chunks, without a join (few rays, RAY_SPAN): its
 * ray's crossings with that chunk when the chunk's box meets the ray's
 * (closed boxes, as the join's: a chunk off the ray's box has no segment
 * the ray crosses or touches). */
VSG_HD int64_t vsg_ref_ray_direct(const vsg_ref_ctx *c, int64_t t)
{
    int64_t r = vsg_owner(c->ray_coff, c->n_ray, t), c0;
    vsg_ref_ray_chunks(c, r, &c0);
    int64_t ch = c0 + (t - c->ray_coff[r]);
    const double *a = c->ray_box + 4 * r, *b = c->side[1 - c->cur].chunk_box + 4 * ch;
    return vsg_box_meets(a, b) ? vsg_ref_ray_chunk(c, r, ch) : 1;
}

VSG_HD void vsg_ref_check(const vsg_ref_ctx *c, int64_t q)
{
    int64_t p = c->in_pair[c->pc_inst[q]];
    if (c->val[q] == 0) {
        VSG_OR_U32(c->why + p, VSG_REF_BAD_NOLABEL);
        return;
    }
    int ze = vsg_ref_piece_dir(c, q) > 0 ? 1 : 0;
    if (!vsg_ref_piece_flat(c, q) && (c->pc_flags[q] & (ze ? VSG_REF_PC_E : VSG_REF_PC_S))) {
        int lab = c->end_label[2 * q + ze];
        if (lab != 0 && lab != c->val[q])
            VSG_OR_U32(c->why + p, VSG_REF_BAD_LABEL);
    }
}

VSG_HD void vsg_ref_select(const vsg_ref_ctx *c, int64_t q)
{
    int64_t i = c->pc_inst[q];
    int64_t lab = c->val[q];
    c->keep[q] = c->why[c->in_pair[i]] == 0 && !vsg_ref_piece_flat(c, q) &&
                 (lab == VSG_REF_IN || (c->in_side[i] == 0 && lab == VSG_REF_SAME));
}

/* ---- pairs whose intersection is one of their rows whole ---------------
 * Where every piece of side s's row (a county) is inside the other row
 * or along it the same way, no piece of the other row (its state) is
 * inside side s's, no side-s segment is cut and every side-s segment is
 * an instance, the row's boundary lies in the other polygon, with its
 * interior on the row's side, and the other's boundary never enters the
 * row's interior: the intersection is the row itself. (A piece of the
 * other row along it the opposite way has one of side s along it the
 * opposite way too.) It is gathered from the input, its rings turned so
 * that the interior lies on the left as the built rings have it, instead
 * of built from its pieces: no link, rings, nesting or output for it. On
 * layers nested by construction (counties in states, provinces in
 * countries) that is nearly every pair, whichever side the smaller one
 * is on. */

VSG_HD void vsg_ref_whole_piece(const vsg_ref_ctx *c, int64_t q)
{
    if (vsg_ref_piece_flat(c, q))
        return;
    int64_t i = c->pc_inst[q], p = c->in_pair[i];
    int side = c->in_side[i], lab = c->val[q];
    if (lab != VSG_REF_IN && lab != VSG_REF_SAME)
        vsg_ref_not_whole(c, p, side);
    if (lab == VSG_REF_IN)
        vsg_ref_not_whole(c, p, 1 - side);
}

/* Whether side s's row of pair p is its intersection whole: nothing said
 * no, and the pair has an instance of every segment of the row (the
 * instances are sorted by (pair, side, segment)). */
VSG_HD int vsg_ref_whole_side(const vsg_ref_ctx *c, int64_t p, int side)
{
    const vsg_col_view *v = &c->side[side].v;
    int64_t g = side == 0 ? c->pa[p] : c->pb[p];
    if (((c->not_whole[p] >> side) & 1u) || g < 0 || g >= v->n_geoms)
        return 0;
    int64_t r0 = v->part_ring[v->geom_part[g]], r1 = v->part_ring[v->geom_part[g + 1]];
    int64_t segs = (v->ring_coord[r1] - v->ring_coord[r0]) - (r1 - r0);
    uint64_t k0 = vsg_ref_inst_key(p, side, 0, c->kbits);
    uint64_t k1 = side == 0 ? vsg_ref_inst_key(p, 1, 0, c->kbits)
                            : vsg_ref_inst_key(p + 1, 0, 0, c->kbits);
    int64_t lo = vsg_grid_lower_bound(c->in_key, c->n_inst, k0);
    int64_t hi = vsg_grid_lower_bound(c->in_key, c->n_inst, k1);
    return segs > 0 && hi - lo == segs;
}

/* 0, or 1 + the side whose row is pair p's intersection whole. */
VSG_HD int vsg_ref_whole_pair(const vsg_ref_ctx *c, int64_t p)
{
    if (!c->whole_ok || c->why[p] != 0)
        return 0;
    return vsg_ref_whole_side(c, p, 0) ? 1 : (vsg_ref_whole_side(c, p, 1) ? 2 : 0);
}

VSG_HD void vsg_ref_r_fill(const vsg_ref_ctx *c, int64_t q)
{
    if (!c->keep[q])
        return;
    int fwd = vsg_ref_piece_dir(c, q) > 0;
    double ax = fwd ? c->pc_x0[q] : c->pc_x1[q], ay = fwd ? c->pc_y0[q] : c->pc_y1[q];
    double bx = fwd ? c->pc_x1[q] : c->pc_x0[q], by = fwd ? c->pc_y1[q] : c->pc_y0[q];
    vsg_cov_r_set(&c->R, c->keep_off[q], c->in_pair[c->pc_inst[q]], ax, ay, bx, by);
}

/* Item i of step s; returns its work. */
VSG_HD int64_t vsg_ref_item(const vsg_ref_ctx *c, int s, int64_t i)
{
    const vsg_ref_side *sd = &c->side[c->cur];
    switch (s) {
    case VSG_REF_PAIR_INIT:
        vsg_ref_pair_init(&c->side[0].v, &c->side[1].v, c->pa, c->pb, i, c->why);
        if (!vsg_ref_pair_simple(&c->side[0].v, &c->side[1].v, c->pa, c->pb, i))
            vsg_ref_mark_rounded(c, i);
        return 1;
    case VSG_REF_RING_INIT:
        vsg_cov_ring_init(&sd->v, i, sd->ring_geom, sd->ring_shell, NULL, sd->ring_min);
        return 1;
    case VSG_REF_COORD_RING:
        return vsg_cov_coord_ring(&sd->v, i, sd->coord_ring);
    case VSG_REF_MIN_Y:
    case VSG_REF_MIN_X:
    case VSG_REF_MIN_I:
        vsg_cov_min_pass(&sd->v, sd->coord_ring, s - VSG_REF_MIN_Y, i, sd->ring_min);
        return 1;
    case VSG_REF_RING_DIR:
        vsg_ref_ring_dir(sd, i);
        return VSG_COV_MAX_REPEAT;
    case VSG_REF_RING_CHUNKS:
        sd->chunk_cnt[i] = vsg_ring_chunk_count(&sd->v, i);
        return 1;
    case VSG_REF_CHUNK_FILL:
        return vsg_chunk_fill(&sd->v, sd->ring_chunk, i, sd->chunk_geom, sd->chunk_box);
    case VSG_REF_ITEM_FLAG: {
        const vsg_ref_side *js = &c->side[c->join_side];
        int64_t ch = c->join_side == 0 ? c->ja[i] : c->jb[i];
        int64_t g = c->join_side == 0 ? c->jb[i] : c->ja[i];
        c->jflag[i] = vsg_ref_item_pair(js, c->join_side, ch, g, c->pa, c->pb, c->n_pairs) >= 0;
        return 1;
    }
    case VSG_REF_ITEM_FILL:
        if (c->jflag[i]) {
            const vsg_ref_side *js = &c->side[c->join_side];
            int64_t ch = c->join_side == 0 ? c->ja[i] : c->jb[i];
            int64_t g = c->join_side == 0 ? c->jb[i] : c->ja[i];
            int64_t t = c->item_base + c->joff[i];
            c->it_pair[t] = vsg_ref_item_pair(js, c->join_side, ch, g, c->pa, c->pb, c->n_pairs);
            c->it_side[t] = (int8_t)c->join_side;
            c->it_chunk[t] = ch;
        }
        return 1;
    case VSG_REF_ITEM_SPAN: {
        int64_t c0, own = c->join_side == 0 ? c->pa[i] : c->pb[i];
        c->isp_cnt[i] = vsg_ref_row_chunks(&c->side[c->join_side], own, &c0);
        return 1;
    }
    case VSG_REF_ITEM_DFLAG: {
        int64_t p, ch;
        c->jflag[i] = vsg_ref_item_direct(c, i, &p, &ch);
        return 1;
    }
    case VSG_REF_ITEM_DFILL: {
        int64_t p, ch;
        if (c->jflag[i] && vsg_ref_item_direct(c, i, &p, &ch)) {
            int64_t t = c->item_base + c->joff[i];
            c->it_pair[t] = p;
            c->it_side[t] = (int8_t)c->join_side;
            c->it_chunk[t] = ch;
        }
        return 1;
    }
    case VSG_REF_ITEM_KEY: {
        /* (pair, side, first segment): the instances come out sorted */
        int64_t ring, k0;
        vsg_ref_chunk_segs(&c->side[c->it_side[i]], c->it_chunk[i], &k0, &ring);
        c->it_key[i] = vsg_ref_inst_key(c->it_pair[i], c->it_side[i], k0, c->kbits);
        c->it_idx[i] = i;
        return 1;
    }
    case VSG_REF_INST_COUNT: {
        int64_t t = c->it_idx[i], ring, k0;
        c->it_cnt[i] = vsg_ref_chunk_segs(&c->side[c->it_side[t]], c->it_chunk[t], &k0, &ring);
        return 1;
    }
    case VSG_REF_INST_FILL: {
        /* one item per (item, segment u of its chunk): neighbouring items
         * write neighbouring instances, so the stores coalesce (an item
         * writing its chunk's 16 in a loop stored 8 bytes per sector) */
        int64_t it = i / VSG_CHUNK_SEGS, u = i % VSG_CHUNK_SEGS;
        int64_t t = c->it_idx[it], ring, k0;
        int side = c->it_side[t];
        int64_t n = vsg_ref_chunk_segs(&c->side[side], c->it_chunk[t], &k0, &ring);
        if (u == 0 && n > 0 && c->side[side].dir[ring] == 0)
            VSG_OR_U32(c->why + c->it_pair[t], VSG_REF_BAD_INPUT);   /* no orientation */
        if (u < n) {
            int64_t o = c->it_off[it] + u;
            c->in_pair[o] = c->it_pair[t];
            c->in_side[o] = (int8_t)side;
            c->in_k[o] = k0 + u;
            c->in_ring[o] = ring;
            c->in_key[o] = vsg_ref_inst_key(c->it_pair[t], side, k0 + u, c->kbits);
            c->in_flags[o] = 0;
        }
        return 1;
    }
    case VSG_REF_CP_ROWS:
        return vsg_ref_cp_rows(c, i);
    case VSG_REF_ROW_FILL:
        vsg_ref_row_fill(c, i);
        return VSG_CHUNK_SEGS;
    case VSG_REF_CP_COUNT:
        return vsg_ref_row_events(c, i, 0);
    case VSG_REF_CP_INST:
        vsg_ref_cp_inst(c, i);
        return 1;
    case VSG_REF_CP_FILL:
        return vsg_ref_row_events(c, i, 1);
    case VSG_REF_EV_POS: {
        int64_t e = i, in = c->ev_inst[e];
        double ax, ay, bx, by;
        c->ev_idx[e] = e;
        if (in < 0) {
            c->ev_key[e] = 0;
            return 1;
        }
        vsg_ref_inst_seg(c, in, &ax, &ay, &bx, &by);
        c->ev_key[e] = vsg_ref_pos_key(ax, ay, bx, by, c->ev_x[e], c->ev_y[e]);
        return 1;
    }
    case VSG_REF_EV_INST:
        c->ev_key[i] = vsg_ref_ev_inst_key(c, c->ev_idx[i]);
        return 1;
    case VSG_REF_EV_KEY:
        c->ev_idx[i] = i;
        c->ev_key[i] = vsg_ref_ev_inst_key(c, i);
        return 1;
    case VSG_REF_EV_ORDER:
        return vsg_ref_ev_order(c, i);
    case VSG_REF_EV_MARK:
        vsg_ref_ev_mark(c, i);
        return 2;
    case VSG_REF_INST_PIECES:
        vsg_ref_inst_pieces(c, i);
        return 2;
    case VSG_REF_PIECE_FIRST:
        vsg_ref_piece_first(c, i);
        return 1;
    case VSG_REF_PIECE_SPLIT:
        vsg_ref_piece_split(c, i);
        return 2;
    case VSG_REF_NODE_KEY:
        vsg_ref_node_key(c, i);
        return 1;
    case VSG_REF_NODE_PACK:
        vsg_ref_node_pack(c->nd_all, c->nd_flag, c->nd_off, c->nd_key, c->nd_idx, i);
        return 1;
    case VSG_REF_NODE_INFO:
        vsg_ref_node_info(c, i);
        return 1;
    case VSG_REF_NODE_LABEL:
        return vsg_ref_node_label(c, i);
    case VSG_REF_PROP_INIT:
        vsg_ref_prop_init(c, i);
        return VSG_COV_MAX_REPEAT;
    case VSG_REF_PROP_KEYS:
        vsg_ref_prop_keys(c, i);
        return 1;
    case VSG_REF_PROP_FILL:
        vsg_ref_prop_fill(c, i);
        return 1;
    case VSG_REF_RAY_ROOT:
        c->ray_root[i] = vsg_ref_ray_root(c, i);
        return 1;
    case VSG_REF_RAY_FILL:
        vsg_ref_ray_fill(c, i);
        return 1;
    case VSG_REF_RAY_CROSS:
        return vsg_ref_ray_cross(c, i);
    case VSG_REF_RAY_SPAN: {
        int64_t c0;
        c->ray_cc[i] = vsg_ref_ray_chunks(c, i, &c0);
        return 1;
    }
    case VSG_REF_RAY_DIRECT:
        return vsg_ref_ray_direct(c, i);
    case VSG_REF_RAY_SET:
        c->ray_label[c->ray_piece[i]] = (int8_t)((c->ray_cross[i] & 1u) ? VSG_REF_IN : VSG_REF_OUT);
        return 1;
    case VSG_REF_CHECK:
        vsg_ref_check(c, i);
        return 1;
    case VSG_REF_SELECT:
        vsg_ref_select(c, i);
        return 1;
    case VSG_REF_R_FILL:
        vsg_ref_r_fill(c, i);
        return 1;
    case VSG_REF_WHOLE_PIECE:
        vsg_ref_whole_piece(c, i);
        return 1;
    case VSG_REF_WHOLE_PAIR:
        c->gsrc[i] = (int32_t)vsg_ref_whole_pair(c, i);
        c->whole[i] = c->gsrc[i] != 0;
        return 1;
    case VSG_REF_UNKEEP:
        if (c->whole[c->in_pair[c->pc_inst[i]]])
            c->keep[i] = 0;
        return 1;
    case VSG_REF_WHOLE_SRC:
        c->grow[i] = c->gsrc[i] == 1 ? c->pa[i] : (c->gsrc[i] == 2 ? c->pb[i] : i);
        return 1;
    case VSG_REF_FINAL:
        if (c->whole && c->whole[i]) {   /* one of its rows, gathered: settled */
            c->why[i] = 0;
            c->ok[i] = 1;
            c->out_flags[i] = 0;
            c->out_type[i] = VSG_GT_MULTIPOLYGON;
            return 1;
        }
        /* a pair whose polygons only touch: an empty result, settled */
        if (c->why[i] == VSG_COV_BAD_EMPTY) {
            c->why[i] = 0;
            c->ok[i] = c->touch[i] ? 2 : 1;
            c->out_flags[i] = VSG_GF_EMPTY;
        }
        return 1;
    default:
        return 0;
    }
}

#endif
