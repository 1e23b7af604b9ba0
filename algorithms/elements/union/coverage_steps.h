/*
 * coverage_steps.h - the coverage union stage's steps as one dispatcher:
 * vsg_cov_item(ctx, step, i) runs item i of a step (elements/union/
 * coverage.h has the logic). The host backend loops over it; the device
 * launches it (cuda/union/launch_coverage.cu), so one launcher serves every
 * step and the two backends cannot drift apart.
 *
 * Every array is backend memory, owned by the orchestrator
 * (stages/union/coverage.c), which sizes them by count-then-scan and
 * swaps the double buffers of the pointer-jumping rounds between steps.
 */
#ifndef VSG_ELEMENTS_UNION_COVERAGE_STEPS_H
#define VSG_ELEMENTS_UNION_COVERAGE_STEPS_H

#include "elements/union/coverage.h"

typedef struct {
    /* input */
    vsg_col_view v;
    const int64_t *group_of;
    int64_t n_groups;
    uint32_t *bad;                 /* n_groups                                  */
    /* the validity screen (stages.h, vsg_stage_valid_screen): no edge is
     * cancelled, no node shared, and each hole's shell is its own; the
     * input part of each input ring, ring of R and output ring */
    int strict;
    int64_t *ring_part, *r_part, *o_part, *iota;
    int64_t *r_ring;               /* R.n: the input ring of each segment     */
    /* per input ring and coordinate */
    int64_t *coord_ring, *ring_geom;
    uint8_t *ring_shell;
    uint64_t *ring_min;            /* 3 per ring                                */
    int8_t *dir;
    /* the members' areas and the box of each group (coverage.h, step 1b) */
    double *g_area;
    uint64_t *g_box;               /* 4 ordered images per group             */
    vsg_cov_table table;           /* the segment keys (coverage.h, step 2)    */
    int64_t *slot_of, *keep, *keep_off;
    /* the boundary R */
    vsg_cov_r R;
    int64_t *next, *lab, *dist, *is_leader, *leader_off;
    /* the runs of R (coverage.h, step 5): heads scanned, each run's head
     * (n_runs + 1, the last R.n), successor, and the rounds' arrays */
    int64_t n_runs;
    int64_t *is_head, *run_off, *run_head, *cnext, *rlab, *rlab2, *rdist, *rdist2, *nx, *nx2;
    int32_t *deg_end, *deg_start;
    uint32_t *preds;
    int64_t *changed;              /* one flag: a round changed something      */
    /* R's chunks (coverage.h, step 4): heads, their offsets, each chunk's
     * first segment (n_chunks + 1), group and box (the CPU engine's: one
     * box a segment) */
    int64_t n_chunks;
    int64_t *c_head, *c_off, *c_start, *c_group;
    double *c_box;
    /* groups noded by construction (the overlay refine's exact pairs):
     * rounded[g] 0; NULL: every group is checked */
    const uint8_t *rounded;
    const int64_t *any_rounded;
    /* candidate pairs (the noding join of R's chunks, then test points
     * against rings) */
    const int64_t *pa, *pb;
    int64_t n_pairs;
    /* the rings of R */
    int64_t n_orings, n_ocoords;
    int64_t *o_len, *o_ring_coord, *o_group, *o_coord_ring;
    double *ox, *oy;
    uint64_t *o_min, *tp, *o_ord;  /* o_ord: 4 ordered images per ring (box) */
    int8_t *sign;
    double *tp_box, *o_box;
    int64_t *item_cnt, *item_off;
    uint32_t *parity;
    int64_t *depth, *wind;
    uint64_t *parent;
    /* output order and the output */
    int64_t *o_keep, *o_keep_off, *order, *at_out;
    uint64_t *okey;
    int64_t n_order;
    int pass;
    int64_t *geom_parts, *is_shell, *shell_off, *len;
    uint8_t *type, *flags, *ok;
    int64_t *part_ring, *ring_coord;
    double *x, *y;
} vsg_cov_ctx;

enum {
    VSG_COV_GEOM_CHECK,   /* n_geoms   */
    VSG_COV_RING_INIT,    /* n_rings   */
    VSG_COV_COORD_RING,   /* blocks    */
    VSG_COV_MIN_Y,        /* n_coords  */
    VSG_COV_MIN_X,
    VSG_COV_MIN_I,
    VSG_COV_RING_DIR,     /* n_rings   */
    VSG_COV_TABLE_INSERT, /* n_coords  */
    VSG_COV_CANCEL,       /* n_coords  */
    VSG_COV_R_FILL,       /* n_coords  */
    VSG_COV_R_POS,        /* R.n       */
    VSG_COV_LINK,         /* R.n ...   */
    VSG_COV_PRED_COUNT,
    VSG_COV_PRED_CHECK,
    VSG_COV_NODING_NEXT,  /* R.n - 1   */
    VSG_COV_RUN_HEAD,     /* R.n       */
    VSG_COV_RUN_INIT,     /* R.n       */
    VSG_COV_RUN_LINK,     /* n_runs    */
    VSG_COV_LABEL_ROUND,  /* n_runs    */
    VSG_COV_LABEL_EXPAND, /* R.n       */
    VSG_COV_SELF_SPLIT,
    VSG_COV_SELF_TOUCH,
    VSG_COV_CUT,          /* n_runs    */
    VSG_COV_RANK_ROUND,   /* n_runs    */
    VSG_COV_DIST_EXPAND,  /* R.n       */
    VSG_COV_LEADER,
    VSG_COV_RING_LEN,
    VSG_COV_RING_FILL,
    VSG_COV_O_INIT,       /* n_orings  */
    VSG_COV_O_MIN_Y,      /* n_ocoords */
    VSG_COV_O_MIN_X,
    VSG_COV_O_MIN_I,
    VSG_COV_O_BOX,
    VSG_COV_O_RING,       /* n_orings  */
    VSG_COV_PIP_ITEMS,    /* n_pairs   */
    VSG_COV_PIP,          /* items     */
    VSG_COV_WIND,         /* n_pairs   */
    VSG_COV_WIND_CHECK,   /* n_orings  */
    VSG_COV_PARENT,       /* n_pairs   */
    VSG_COV_RING_KEEP,    /* n_orings  */
    VSG_COV_ORDER_INIT,   /* n_orings  */
    VSG_COV_ORDER_KEY,    /* n_order   */
    VSG_COV_AT_OUT,       /* n_order   */
    VSG_COV_OUT_COUNTS,   /* n_order   */
    VSG_COV_OUT_GEOM,     /* n_groups  */
    VSG_COV_OUT_PARTS,    /* n_order   */
    VSG_COV_OUT_COORDS,   /* blocks of n_ocoords */
    VSG_COV_IOTA,         /* n_geoms (the screen: one group per row) */
    VSG_COV_HOLE_OWN,     /* n_orings  */
    VSG_COV_CHUNK_HEAD,   /* R.n       */
    VSG_COV_CHUNK_START,  /* R.n       */
    VSG_COV_CHUNK_BOX,    /* n_chunks  */
    VSG_COV_NODING_SELF,  /* R.n       */
    VSG_COV_NODING_CHUNKS, /* n_pairs * VSG_COV_CHUNK (chunk pairs, rows) */
    VSG_COV_NODING_PAIRS, /* n_pairs (chunk pairs; the CPU engine's own backend) */
    VSG_COV_NODING_SELF_CHUNKS, /* n_chunks (the CPU engine's own backend) */
    VSG_COV_PIP_PAIRS,    /* n_pairs (the CPU engine's own backend) */
    VSG_COV_LINK_RING,    /* R.n (the screen's link) */
    VSG_COV_SEG_KEEP,     /* n_coords (the screen's R: every segment) */
    VSG_COV_RING_ORDER,   /* R.n (the screen's rings) */
    VSG_COV_AREA_INIT,    /* n_groups  */
    VSG_COV_AREA_SUM,     /* blocks    */
    VSG_COV_AREA_TEST,    /* n_groups  */
    VSG_COV_N_STEPS
};

/* A ring that passes the end node of j twice touches itself there (the
 * interior-hugging rule makes one ring of a shell and a hole that touches
 * it). The minimal rings are made by re-linking that ring's two visits
 * across the exterior: their successors swap (done by the smaller of the
 * two arriving segments, so no two items write the same next[]), which
 * splits the ring into a shell and a hole touching at the node. Three
 * visits or more: the group is handed back. *changed is set on a swap (the
 * labels are then made again). With split = 0, any self-touch left marks
 * the group. */
VSG_HD void vsg_cov_self_touch(const vsg_cov_r *R, int64_t j, const int32_t *deg_end,
                               const int64_t *lab, int64_t *next, int split, int64_t *changed,
                               uint32_t *bad)
{
    if (deg_end[j] < 2)
        return;
    int64_t ins[VSG_COV_MAX_DEGREE], other = -1;
    int n = vsg_cov_at_node(R, 0, R->group[j], R->bx[j], R->by[j], R->epos[j], ins), same = 0;
    for (int q = 0; q < n; q++)
        if (ins[q] != j && lab[ins[q]] == lab[j]) {
            same++;
            other = ins[q];
        }
    if (same == 0)
        return;
    if (!split || same > 1) {
        VSG_OR_U32(bad + R->group[j], VSG_COV_BAD_NODE);
        return;
    }
    if (j < other) {
        int64_t t = next[j];
        next[j] = next[other];
        next[other] = t;
        *changed = 1;   /* every writer stores the same value */
    }
}

/* The ring view the min passes read for the rings of R. */
VSG_HD vsg_col_view vsg_cov_ring_view(const vsg_cov_ctx *c)
{
    vsg_col_view o;
    o.n_geoms = o.n_parts = 0;
    o.n_rings = c->n_orings;
    o.n_coords = c->n_ocoords;
    o.type = o.flags = 0;
    o.geom_part = o.part_ring = 0;
    o.ring_coord = c->o_ring_coord;
    o.x = c->ox;
    o.y = c->oy;
    o.z = 0;
    return o;
}

/* Item i of R's heads' fill: start[off[i]] = i where head[i] (off: the
 * heads' exclusive scan), and start[n_heads] = n, the end (the runs of
 * step 5 and the chunks of step 4). */
VSG_HD void vsg_cov_head_start(int64_t i, const int64_t *head, const int64_t *off,
                               int64_t *start, int64_t n_heads, int64_t n)
{
    if (head[i])
        start[off[i]] = i;
    if (i == 0)
        start[n_heads] = n;
}

/* Whether segment i of R is of a group the union already marked (not the
 * validity screen, whose rows keep every check's bits): its rings are
 * never built, so the rings' steps leave it out. An overlapping group
 * that the noding marked (most of an overlapping layer's) then costs no
 * rounds, no rings and no nesting before the arrangement takes it. */
VSG_HD int vsg_cov_marked_before(const vsg_cov_ctx *c, int64_t i)
{
    return !c->strict && c->bad[c->R.group[i]] != 0;
}

/* Whether segment i leads a ring of the output: the smallest of its cycle,
 * of a group not marked. */
VSG_HD int vsg_cov_leads(const vsg_cov_ctx *c, int64_t i)
{
    return c->lab[i] == i && !vsg_cov_marked_before(c, i);
}

/* Whether segment i of R is of a group the caller knows to be noded (its
 * noding items skip it). */
VSG_HD int vsg_cov_noded(const vsg_cov_ctx *c, int64_t i)
{
    return c->rounded && !c->rounded[c->R.group[i]];
}

/* The noding's ring order: the validity screen's next (vsg_cov_noding),
 * NULL for the union. */
VSG_HD const int64_t *vsg_cov_strict_next(const vsg_cov_ctx *c)
{
    return c->strict ? c->next : NULL;
}

/* Item i of step s; returns its work (segments or coordinates touched). */
VSG_HD int64_t vsg_cov_item(const vsg_cov_ctx *c, int s, int64_t i)
{
    const vsg_col_view *v = &c->v;
    const vsg_cov_r *R = &c->R;
    switch (s) {
    case VSG_COV_GEOM_CHECK:
        vsg_cov_geom_check(v, c->group_of, c->n_groups, i, c->bad);
        return 1;
    case VSG_COV_RING_INIT:
        vsg_cov_ring_init(v, i, c->ring_geom, c->ring_shell, c->ring_part, c->ring_min);
        return 1;
    case VSG_COV_COORD_RING:
        return vsg_cov_coord_ring(v, i, c->coord_ring);
    case VSG_COV_MIN_Y:
    case VSG_COV_MIN_X:
    case VSG_COV_MIN_I:
        vsg_cov_min_pass(v, c->coord_ring, s - VSG_COV_MIN_Y, i, c->ring_min);
        return 1;
    case VSG_COV_RING_DIR:
        vsg_cov_ring_dir(v, c->group_of, c->n_groups, i, c->ring_geom, c->ring_shell,
                         c->ring_min, c->dir, c->bad);
        return VSG_COV_MAX_REPEAT;
    case VSG_COV_TABLE_INSERT:
        return vsg_cov_table_insert(&c->table,
                                    vsg_cov_seg_key_at(v, c->group_of, c->coord_ring, c->ring_geom,
                                                       c->dir, c->bad, i),
                                    i, c->slot_of);
    case VSG_COV_SEG_KEEP: {
        /* the screen keeps every segment: two equal ones meet along
         * each other, which its noding fails (vsg_cov_noding) */
        int64_t g;
        double ax, ay, bx, by;
        c->keep[i] = vsg_cov_seg(v, c->group_of, c->coord_ring, c->ring_geom, c->dir, i, &g, &ax,
                                 &ay, &bx, &by);
        return 1;
    }
    case VSG_COV_CANCEL:
        vsg_cov_cancel(v, c->group_of, c->coord_ring, c->ring_geom, c->dir, &c->table,
                       c->slot_of, i, c->strict, c->keep, c->bad);
        return 2;
    case VSG_COV_AREA_INIT:
        vsg_cov_area_init(i, c->g_area, c->g_box);
        return 1;
    case VSG_COV_AREA_SUM:
        return vsg_cov_area_block(v, c->group_of, c->n_groups, c->coord_ring, c->ring_geom, c->dir,
                                  i, c->g_area, c->g_box);
    case VSG_COV_AREA_TEST:
        vsg_cov_area_test(i, c->g_area, c->g_box, c->bad);
        return 1;
    case VSG_COV_R_FILL:
        vsg_cov_r_fill(v, c->group_of, c->coord_ring, c->ring_geom, c->dir, c->keep,
                       c->keep_off, i, R);
        if (c->r_part && c->keep[i])
            c->r_part[c->keep_off[i]] = c->ring_part[c->coord_ring[i]];
        if (c->r_ring && c->keep[i])
            c->r_ring[c->keep_off[i]] = c->coord_ring[i];
        return 1;
    case VSG_COV_R_POS:
        vsg_cov_r_pos(R, i);
        return 1;
    case VSG_COV_LINK:
        return vsg_cov_link(R, i, c->strict, c->next, c->deg_end, c->bad);
    case VSG_COV_LINK_RING:
        vsg_cov_link_ring(R, i, c->r_ring, v->ring_coord, c->keep_off, c->dir, c->next,
                          c->deg_end, c->bad);
        return 1;
    case VSG_COV_PRED_COUNT:
        vsg_cov_pred_count(R, i, c->next, c->deg_end, c->preds, c->deg_start);
        return 1;
    case VSG_COV_PRED_CHECK:
        vsg_cov_pred_check(R, i, c->next, c->preds, c->bad);
        return 1;
    case VSG_COV_NODING_CHUNKS:
        return vsg_cov_noding_chunks(R, c->c_start, c->c_box, c->pa, c->pb, i,
                                     vsg_cov_strict_next(c), c->bad);
    case VSG_COV_NODING_PAIRS:
        return vsg_cov_noding_pair(R, c->c_start, c->c_box, c->pa, c->pb, i,
                                   vsg_cov_strict_next(c), c->bad);
    case VSG_COV_NODING_NEXT:   /* the pairs the other two leave out */
        if (!vsg_cov_noded(c, i))
            vsg_cov_noding_next(R, i, vsg_cov_strict_next(c), c->bad);
        return 1;
    case VSG_COV_NODING_SELF_CHUNKS:
        if (vsg_cov_noded(c, c->c_start[i]))
            return 1;
        return vsg_cov_noding_chunk_self(R, c->c_start, i, vsg_cov_strict_next(c), c->bad);
    case VSG_COV_NODING_SELF:   /* its chunk ends where chunk c_off[i] (+ 1 at a head) starts */
        if (vsg_cov_noded(c, i))
            return 1;
        return vsg_cov_noding_self(R, i, c->c_start[c->c_off[i] + c->c_head[i]],
                                   vsg_cov_strict_next(c), c->bad);
    case VSG_COV_CHUNK_HEAD:
        c->c_head[i] = vsg_cov_chunk_head(R, i);
        return 1;
    case VSG_COV_CHUNK_START:
        vsg_cov_head_start(i, c->c_head, c->c_off, c->c_start, c->n_chunks, R->n);
        return 1;
    case VSG_COV_CHUNK_BOX:
        c->c_group[i] = R->group[c->c_start[i]];
        if (vsg_cov_noded(c, c->c_start[i])) {   /* an empty box: joined with none */
            double *b = c->c_box + 4 * i;
            b[0] = b[1] = 1.0;
            b[2] = b[3] = -1.0;
            return 1;
        }
        return vsg_cov_chunk_box(R, c->c_start, i, c->c_box);
    case VSG_COV_RUN_HEAD:
        c->is_head[i] = vsg_cov_run_is_head(i, c->next);
        return 1;
    case VSG_COV_RUN_INIT:
        vsg_cov_head_start(i, c->is_head, c->run_off, c->run_head, c->n_runs, R->n);
        return 1;
    case VSG_COV_RUN_LINK:
        if (vsg_cov_marked_before(c, c->run_head[i])) {   /* inert: a chain that ends */
            c->cnext[i] = c->nx[i] = -1;
            c->rlab[i] = i;
            return 1;
        }
        vsg_cov_run_link(i, c->next, c->run_off, c->run_head, c->cnext, c->rlab, c->nx);
        return 1;
    case VSG_COV_LABEL_ROUND:
        if (vsg_cov_label_round(i, c->rlab, c->nx, c->rlab2, c->nx2))
            *c->changed = 1;   /* every writer stores the same value */
        return 1;
    case VSG_COV_LABEL_EXPAND:
        vsg_cov_label_expand(i, c->next, c->run_off, c->run_head, c->cnext, c->rlab, c->lab);
        return 1;
    case VSG_COV_SELF_SPLIT:
    case VSG_COV_SELF_TOUCH:
        if (vsg_cov_marked_before(c, i))
            return 1;
        vsg_cov_self_touch(R, i, c->deg_end, c->lab, c->next, s == VSG_COV_SELF_SPLIT,
                           c->changed, c->bad);
        return VSG_COV_MAX_DEGREE;
    case VSG_COV_CUT:
        vsg_cov_run_cut(i, c->next, c->run_head, c->cnext, c->rlab, c->nx, c->rdist);
        return 1;
    case VSG_COV_RANK_ROUND:
        if (vsg_cov_rank_round(i, c->rdist, c->nx, c->rdist2, c->nx2))
            *c->changed = 1;
        return 1;
    case VSG_COV_DIST_EXPAND:
        vsg_cov_dist_expand(i, c->next, c->run_off, c->run_head, c->rlab, c->rdist, c->dist);
        return 1;
    case VSG_COV_RING_ORDER:
        vsg_cov_ring_order(i, c->r_ring, v->ring_coord, c->keep_off, c->dir, c->lab, c->dist);
        return 1;
    case VSG_COV_LEADER:
        c->is_leader[i] = vsg_cov_leads(c, i);
        return 1;
    case VSG_COV_RING_LEN:
        if (!vsg_cov_leads(c, i))
            return 1;
        vsg_cov_ring_len(i, c->lab, c->dist, c->leader_off, R, c->bad, c->o_len, c->o_group);
        if (c->o_part)
            c->o_part[c->leader_off[i]] = c->r_part[i];
        return 1;
    case VSG_COV_RING_FILL: {
        int64_t L = c->lab[i], pos = c->dist[L] - c->dist[i];
        if (!vsg_cov_ring_wanted(R, c->bad, i) || L < 0 || L >= R->n || pos < 0 ||
            pos > c->dist[L])
            return 1;   /* a bad group's: no coordinates (RING_LEN) */
        vsg_cov_ring_fill(i, R, c->lab, c->dist, c->leader_off, c->o_ring_coord, c->deg_start,
                          c->ox, c->oy, c->o_coord_ring, c->tp);
        return 1;
    }
    case VSG_COV_O_INIT:
        c->o_min[3 * i] = c->o_min[3 * i + 1] = c->o_min[3 * i + 2] = VSG_COV_NOKEY;
        c->tp[i] = VSG_COV_NOKEY;
        vsg_bounds_ord_init(i, c->o_ord);
        return 1;
    case VSG_COV_O_MIN_Y:
    case VSG_COV_O_MIN_X:
    case VSG_COV_O_MIN_I: {
        vsg_col_view o = vsg_cov_ring_view(c);
        vsg_cov_min_pass(&o, c->o_coord_ring, s - VSG_COV_O_MIN_Y, i, c->o_min);
        return 1;
    }
    case VSG_COV_O_BOX: {
        int64_t q = c->o_coord_ring[i];
        if (q >= 0) {
            VSG_ORD_MIN(c->o_ord + 4 * q, vsg_ord_of(c->ox[i]));
            VSG_ORD_MIN(c->o_ord + 4 * q + 1, vsg_ord_of(c->oy[i]));
            VSG_ORD_MAX(c->o_ord + 4 * q + 2, vsg_ord_of(c->ox[i]));
            VSG_ORD_MAX(c->o_ord + 4 * q + 3, vsg_ord_of(c->oy[i]));
        }
        return 1;
    }
    case VSG_COV_O_RING:
        for (int k = 0; k < 4; k++)
            c->o_box[4 * i + k] = vsg_double_of_ord(c->o_ord[4 * i + k]);
        vsg_cov_out_ring(i, c->ox, c->oy, c->o_ring_coord, c->o_min, c->tp, c->o_group, c->sign,
                         c->tp_box, c->bad);
        if (c->strict && vsg_cov_lone_ring(v, c->o_group[i])) {
            vsg_box_set_inverted(c->o_box + 4 * i);
            vsg_box_set_inverted(c->tp_box + 4 * i);
        }
        c->depth[i] = c->wind[i] = 0;
        c->parent[i] = 0;
        return VSG_COV_MAX_REPEAT;
    case VSG_COV_PIP_ITEMS:
        c->item_cnt[i] = vsg_cov_pip_items(i, c->pa, c->pb, c->o_group, c->o_ring_coord);
        c->parity[i] = 0;
        return 1;
    case VSG_COV_PIP:
        return vsg_cov_pip(i, c->item_off, c->n_pairs, c->pa, c->pb, c->tp_box, c->ox, c->oy,
                           c->o_ring_coord, c->parity);
    case VSG_COV_PIP_PAIRS:
        return vsg_cov_pip_pair(i, c->pa, c->pb, c->o_group, c->tp_box, c->ox, c->oy,
                                c->o_ring_coord, c->parity);
    case VSG_COV_WIND:
        vsg_cov_wind(i, c->pa, c->pb, c->parity, c->sign, c->depth, c->wind);
        return 1;
    case VSG_COV_WIND_CHECK:
        vsg_cov_wind_check(i, c->sign, c->wind, c->o_group, c->bad);
        return 1;
    case VSG_COV_PARENT:
        vsg_cov_parent(i, c->pa, c->pb, c->parity, c->sign, c->depth, c->parent);
        return 1;
    case VSG_COV_RING_KEEP:
        vsg_cov_ring_keep(i, c->o_group, c->bad, c->o_keep);
        return 1;
    case VSG_COV_ORDER_INIT:
        if (c->o_keep[i])
            c->order[c->o_keep_off[i]] = i;
        c->at_out[i] = -1;
        return 1;
    case VSG_COV_ORDER_KEY:
        vsg_cov_order_key(c->pass, i, c->order, c->sign, c->parent, c->o_group, c->okey);
        return 1;
    case VSG_COV_AT_OUT:
        vsg_cov_at_out(i, c->order, c->at_out);
        return 1;
    case VSG_COV_OUT_COUNTS:
        vsg_cov_out_counts(i, c->order, c->sign, c->o_group, c->o_ring_coord, c->geom_parts,
                           c->is_shell, c->len);
        return 1;
    case VSG_COV_OUT_GEOM:
        vsg_cov_out_geom(i, c->bad, c->geom_parts, c->type, c->flags, c->ok);
        return 1;
    case VSG_COV_OUT_PARTS:
        vsg_cov_out_parts(i, c->is_shell, c->shell_off, c->part_ring);
        return 1;
    case VSG_COV_OUT_COORDS:
        return vsg_cov_out_coords(i, c->n_ocoords, c->o_coord_ring, c->o_ring_coord, c->at_out,
                                  c->ring_coord, c->ox, c->oy, c->x, c->y);
    case VSG_COV_IOTA:
        c->iota[i] = i;
        return 1;
    case VSG_COV_HOLE_OWN:
        vsg_cov_hole_own(i, c->sign, c->parent, c->o_part, c->o_group, c->bad);
        return 1;
    default:
        return 0;
    }
}

#endif
