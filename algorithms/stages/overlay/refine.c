/*
 * refine.c - the overlay refine stage (stages/stages.h): the exact
 * intersection of polygon pairs on either backend. The logic and why it
 * holds are in elements/overlay/refine.h; this file sizes the arrays and
 * runs the steps in order:
 *
 *   refine_sides     per input: rings oriented exactly, chunk tables
 *   candidates       chunks of each side against the other side's boxes
 *   refine_segments  the segments of every pair near the other polygon
 *   candidates       chunk pairs (the segment-level join)
 *   refine_nodes     exact segment-pair nodes (rows: one segment against
 *                    a chunk), sorted along each segment; the pieces
 *                    between them
 *   refine_labels    each piece inside, outside or along the other polygon,
 *                    at the nodes by exact angular order, elsewhere from
 *                    its predecessor (a fill along the rings by one max
 *                    scan); rings with no node by a ray count
 *                    (candidates: rays against the other side's chunks);
 *                    checked at both ends
 *   refine_select    the pieces of the intersection's boundary
 *   boundary_*       the coverage union's second half (stages/union/
 *                    boundary.h): linking, noding and nesting proofs, rings,
 *                    one MultiPolygon per pair
 *
 * A pair any check rejects has pair_ok = 0 and its reason bits in why:
 * the caller runs GEOS on it. Scalar reads size the allocations.
 */
#include "stages/stages.h"
#include "stages/step.h"

#include <stdatomic.h>
#include <string.h>

#include "elements/overlay/refine_steps.h"
#include "stages/overlay/refine_run.h"
#include "stages/union/boundary.h"

#ifdef VSGPU_HAVE_CUDA
#include "overlay/launch_refine.h"
#endif

static vsg_status step(vsg_exec *x, const vsg_ref_ctx *c, int s, int64_t n)
{
    VSG_STEP_BODY(x, "overlay_refine", s, n, vsg_launch_ref_step(vsg_exec_gpu(x), c, s, n),
                  vsg_ref_item(c, s, i));
}

#define get(x, s, bytes, out) vsg_scratch_alloc((x), (s), (bytes), (void **)(out))
#define I64 sizeof(int64_t)
#define F64 sizeof(double)

/* bytes of scratch from s, zeroed (flags the steps only set) */
static vsg_status zeroed(vsg_exec *x, vsg_scratch *s, size_t bytes, void **out)
{
    vsg_status st = vsg_scratch_alloc(x, s, bytes, out);
    return st == VSG_OK ? vsg_exec_memset(x, *out, 0, bytes) : st;
}

vsg_status vsg_ref_rows_alloc_pairs(vsg_exec *x, vsg_scratch *s, vsg_ref_rows *r, int64_t n)
{
    vsg_status st;
    TRY(get(x, s, (size_t)n * I64, &r->cp_ka));
    TRY(get(x, s, (size_t)n * I64, &r->cp_kb));
    TRY(get(x, s, (size_t)n * sizeof(uint32_t), &r->cp_cols));
    TRY(get(x, s, (size_t)n * sizeof(uint32_t), &r->cp_rows));
    TRY(get(x, s, (size_t)n * I64, &r->rw_cnt));
    TRY(get(x, s, (size_t)(n + 1) * I64, &r->rw_off));
done:
    return st;
}

vsg_status vsg_ref_rows_alloc_rows(vsg_exec *x, vsg_scratch *s, vsg_ref_rows *r, int64_t n_join)
{
    vsg_status st;
    TRY(vsg_scan_total(x, r->rw_cnt, r->rw_off, n_join, &r->n_rows));
    int64_t nr = r->n_rows;
    TRY(get(x, s, (size_t)nr * I64, &r->rw_cp));
    TRY(get(x, s, (size_t)nr, &r->rw_s));
    TRY(get(x, s, (size_t)nr * sizeof(uint32_t), &r->rw_hits));
    TRY(get(x, s, (size_t)nr * I64, &r->ev_cnt));
    TRY(get(x, s, (size_t)(nr + 1) * I64, &r->ev_off));
done:
    return st;
}

static vsg_status side_prep(vsg_exec *x, vsg_ref_ctx *c, vsg_scratch *s, int k)
{
    vsg_status st;
    vsg_ref_side *sd = &c->side[k];
    int64_t nr = sd->v.n_rings, nc = sd->v.n_coords;
    c->cur = k;
    TRY(get(x, s, (size_t)nc * I64, &sd->coord_ring));
    TRY(get(x, s, (size_t)nr * I64, &sd->ring_geom));
    TRY(get(x, s, (size_t)nr, &sd->ring_shell));
    TRY(get(x, s, (size_t)nr * 3 * sizeof(uint64_t), &sd->ring_min));
    TRY(get(x, s, (size_t)nr, &sd->dir));
    TRY(step(x, c, VSG_REF_RING_INIT, nr));
    TRY(step(x, c, VSG_REF_COORD_RING, (nc + VSG_COV_BLOCK - 1) / VSG_COV_BLOCK));
    TRY(step(x, c, VSG_REF_MIN_Y, nc));
    TRY(step(x, c, VSG_REF_MIN_X, nc));
    TRY(step(x, c, VSG_REF_MIN_I, nc));
    TRY(step(x, c, VSG_REF_RING_DIR, nr));
    if (c->chunks_given)   /* classify's, of the same view */
        goto done;
    TRY(get(x, s, (size_t)nr * I64, &sd->chunk_cnt));
    TRY(get(x, s, (size_t)(nr + 1) * I64, &sd->ring_chunk));
    TRY(step(x, c, VSG_REF_RING_CHUNKS, nr));
    TRY(vsg_scan_total(x, sd->chunk_cnt, sd->ring_chunk, nr, &sd->n_chunks));
    TRY(get(x, s, (size_t)sd->n_chunks * I64, &sd->chunk_geom));
    TRY(get(x, s, (size_t)sd->n_chunks * 4 * F64, &sd->chunk_box));
    TRY(step(x, c, VSG_REF_CHUNK_FILL, sd->n_chunks));
done:
    return st;
}

static void pairs_free(vsg_exec *x, vsg_pairs *p)
{
    vsg_exec_free(x, p->a);
    vsg_exec_free(x, p->b);
    memset(p, 0, sizeof *p);
}

static void use_join(vsg_ref_ctx *c, const vsg_pairs *p, int side, int64_t *flag, int64_t *off)
{
    c->ja = p->a;
    c->jb = p->b;
    c->n_join = p->n;
    c->join_side = side;
    c->jflag = flag;
    c->joff = off;
}

/* Tests: pairs whose intersection is one of their rows whole are gathered
 * (1, the default) or built from their pieces as any other (0). */
static _Atomic int g_whole = 1;

void vsg_stage_refine_set_whole(int on)
{
    atomic_store(&g_whole, on != 0);
}

/* Rays tested against every chunk of their pair's other polygon, and each
 * pair's chunks against the box of its other row, one item a chunk, when
 * these are at most this many; else a box join finds the chunks that
 * meet them. Box tests are cheap next to a join's fixed cost (about 0.4
 * ms on the H200, docs/benchmarks.md), and real data casts few rays per
 * batch (a ring no node labelled). */
#define VSG_REF_DIRECT_MAX ((int64_t)1 << 24)
static _Atomic int64_t g_direct_max = VSG_REF_DIRECT_MAX;

void vsg_stage_refine_set_direct_max(int64_t items)
{
    atomic_store(&g_direct_max, items < 0 ? VSG_REF_DIRECT_MAX : items);
}

/* Side k's items, (pair, side, chunk) where the chunk's box meets the
 * box of the pair's row on the other side, as flags over candidates
 * (*n_cand, flags and their scan from s; *n of them set): from the pairs
 * themselves where their rows' chunks are few enough (*direct), else from
 * a box join of the side's chunks with the other side's rows, whose fixed
 * cost is most of its time on real data (a county's few chunks against
 * its state). */
static vsg_status side_items(vsg_exec *x, vsg_ref_ctx *c, vsg_scratch *s, int k, vsg_pairs *j,
                             int *direct, int64_t *n_cand, int64_t **flag, int64_t **off,
                             int64_t *n)
{
    vsg_status st;
    const vsg_ref_side *A = &c->side[0], *B = &c->side[1];
    int64_t span = 0;
    vsg_exec_stage_begin(x, "refine_segments");
    c->join_side = k;
    TRY(get(x, s, (size_t)(c->n_pairs ? c->n_pairs : 1) * I64, &c->isp_cnt));
    TRY(get(x, s, (size_t)(c->n_pairs + 1) * I64, &c->isp_off));
    TRY(step(x, c, VSG_REF_ITEM_SPAN, c->n_pairs));
    TRY(vsg_scan_total(x, c->isp_cnt, c->isp_off, c->n_pairs, &span));
    *direct = span <= atomic_load(&g_direct_max);
    if (!*direct) {
        vsg_exec_stage_end(x, c->n_pairs, span);
        /* unsorted: the items are sorted by their unique (pair, side,
         * chunk) keys, whatever order the join gives */
        TRY(k == 0 ? vsg_stage_candidates_unsorted(x, A->chunk_box, A->n_chunks, B->boxes,
                                                   B->v.n_geoms, j)
                   : vsg_stage_candidates_unsorted(x, A->boxes, A->v.n_geoms, B->chunk_box,
                                                   B->n_chunks, j));
        vsg_exec_stage_begin(x, "refine_segments");
    }
    *n_cand = *direct ? span : j->n;
    TRY(get(x, s, (size_t)(*n_cand ? *n_cand : 1) * I64, flag));
    TRY(get(x, s, (size_t)(*n_cand + 1) * I64, off));
    if (*direct) {
        c->jflag = *flag;
        TRY(step(x, c, VSG_REF_ITEM_DFLAG, span));
    } else {
        use_join(c, j, k, *flag, *off);
        TRY(step(x, c, VSG_REF_ITEM_FLAG, j->n));
    }
    TRY(vsg_scan_total(x, *flag, *off, *n_cand, n));
done:
    vsg_exec_stage_end(x, c->n_pairs, *n_cand);
    return st;
}

/* The segments of every pair that lie near the other polygon. */
static vsg_status instances(vsg_exec *x, vsg_ref_ctx *c, vsg_scratch *s)
{
    vsg_status st;
    vsg_pairs j[2];
    int64_t *flag[2] = {NULL, NULL}, *off[2] = {NULL, NULL}, n[2] = {0, 0}, cand[2] = {0, 0};
    int64_t *span_off[2] = {NULL, NULL};
    int direct[2] = {0, 0};
    memset(j, 0, sizeof j);
    for (int k = 0; k < 2; k++) {
        TRY(side_items(x, c, s, k, &j[k], &direct[k], &cand[k], &flag[k], &off[k], &n[k]));
        span_off[k] = c->isp_off;
    }
    vsg_exec_stage_begin(x, "refine_segments");
    c->n_items = n[0] + n[1];
    TRY(get(x, s, (size_t)c->n_items * I64, &c->it_pair));
    TRY(get(x, s, (size_t)c->n_items * I64, &c->it_chunk));
    TRY(get(x, s, (size_t)c->n_items * I64, &c->it_idx));
    TRY(get(x, s, (size_t)c->n_items, &c->it_side));
    TRY(get(x, s, (size_t)c->n_items * sizeof(uint64_t), &c->it_key));
    for (int k = 0; k < 2; k++) {
        c->item_base = k ? n[0] : 0;
        if (direct[k]) {
            c->join_side = k;
            c->isp_off = span_off[k];
            c->jflag = flag[k];
            c->joff = off[k];
            TRY(step(x, c, VSG_REF_ITEM_DFILL, cand[k]));
        } else {
            use_join(c, &j[k], k, flag[k], off[k]);
            TRY(step(x, c, VSG_REF_ITEM_FILL, j[k].n));
        }
    }
    TRY(step(x, c, VSG_REF_ITEM_KEY, c->n_items));
    /* the keys' width (pair, side, segment: vsg_ref_inst_key), not 64 bits:
     * fewer radix passes */
    TRY(vsg_exec_sort_u64_i64(x, c->it_key, c->it_idx, c->n_items,
                              vsg_bits_below(c->n_pairs + 1) + 1 + c->kbits));
    TRY(get(x, s, (size_t)c->n_items * I64, &c->it_cnt));
    TRY(get(x, s, (size_t)(c->n_items + 1) * I64, &c->it_off));
    TRY(step(x, c, VSG_REF_INST_COUNT, c->n_items));
    TRY(vsg_scan_total(x, c->it_cnt, c->it_off, c->n_items, &c->n_inst));
    int64_t ni = c->n_inst;
    TRY(get(x, s, (size_t)ni * I64, &c->in_pair));
    TRY(get(x, s, (size_t)ni * I64, &c->in_k));
    TRY(get(x, s, (size_t)ni * I64, &c->in_ring));
    TRY(get(x, s, (size_t)ni, &c->in_side));
    TRY(get(x, s, (size_t)ni * sizeof(uint64_t), &c->in_key));
    TRY(get(x, s, (size_t)ni * sizeof(uint32_t), &c->in_flags));
    TRY(step(x, c, VSG_REF_INST_FILL, c->n_items * VSG_CHUNK_SEGS));
done:
    vsg_exec_stage_end(x, c->n_items, c->n_inst);
    pairs_free(x, &j[0]);
    pairs_free(x, &j[1]);
    c->ja = c->jb = NULL;
    c->n_join = 0;
    return st;
}

/* The events by instance, and along each instance's segment: a sort by
 * instance, then each event placed within its run (EV_ORDER, through
 * ev_split, which nothing uses yet); where a run is too long for that, a
 * sort of every event by position and a stable one by instance, which
 * give the same order. */
static vsg_status order_events(vsg_exec *x, vsg_ref_ctx *c, vsg_scratch *s)
{
    vsg_status st;
    int64_t ne = c->n_ev, longer = 0;
    const int ibits = vsg_bits_below(c->n_inst + 1);
    TRY(get(x, s, sizeof *c->ev_long, &c->ev_long));
    TRY(vsg_exec_memset(x, c->ev_long, 0, sizeof *c->ev_long));
    TRY(step(x, c, VSG_REF_EV_KEY, ne));
    TRY(vsg_exec_sort_u64_i64(x, c->ev_key, c->ev_idx, ne, ibits));
    TRY(step(x, c, VSG_REF_EV_ORDER, ne));   /* into ev_split */
    int64_t *t = c->ev_idx;
    c->ev_idx = c->ev_split;
    c->ev_split = t;
    TRY(vsg_exec_read_i64(x, c->ev_long, &longer));
    if (longer) {
        TRY(step(x, c, VSG_REF_EV_POS, ne));
        TRY(vsg_exec_sort_u64_i64(x, c->ev_key, c->ev_idx, ne, 64));
        TRY(step(x, c, VSG_REF_EV_INST, ne));
        TRY(vsg_exec_sort_u64_i64(x, c->ev_key, c->ev_idx, ne, ibits));
    }
done:
    return st;
}

/* Nodes of the segment pairs, sorted along each segment; the pieces. */
static vsg_status nodes(vsg_exec *x, vsg_ref_ctx *c, vsg_scratch *s)
{
    vsg_status st;
    /* the chunk join: classify's where it was handed on (the caller's, in
     * the same order), else one of its own */
    vsg_pairs own, cp = {c->given.n, c->given.a, c->given.b};
    memset(&own, 0, sizeof own);
    if (!cp.a) {
        TRY(vsg_stage_candidates(x, c->side[0].chunk_box, c->side[0].n_chunks,
                                 c->side[1].chunk_box, c->side[1].n_chunks, &own));
        cp = own;
    }
    vsg_exec_stage_begin(x, "refine_nodes");
    c->ja = cp.a;
    c->jb = cp.b;
    c->n_join = cp.n;
    TRY(get(x, s, (size_t)c->n_pairs, &c->touch));
    TRY(vsg_exec_memset(x, c->touch, 0, (size_t)c->n_pairs));
    /* the chunk pairs' rows (elements/overlay/refine_steps.h says why) */
    TRY(get(x, s, (size_t)cp.n * I64, &c->cp_pair));
    TRY(vsg_ref_rows_alloc_pairs(x, s, &c->rw, cp.n));
    TRY(step(x, c, VSG_REF_CP_ROWS, cp.n));
    TRY(vsg_ref_rows_alloc_rows(x, s, &c->rw, cp.n));
    int64_t nr = c->rw.n_rows;
    TRY(step(x, c, VSG_REF_ROW_FILL, cp.n));
    /* the rows' nodes: counted, then written */
    TRY(step(x, c, VSG_REF_CP_COUNT, nr));
    TRY(vsg_scan_total(x, c->rw.ev_cnt, c->rw.ev_off, nr, &c->n_ev));
    int64_t ne = c->n_ev;
    TRY(get(x, s, (size_t)cp.n * I64, &c->cp_ia0));
    TRY(get(x, s, (size_t)cp.n * I64, &c->cp_ib0));
    TRY(step(x, c, VSG_REF_CP_INST, cp.n));
    TRY(get(x, s, (size_t)ne * I64, &c->ev_inst));
    TRY(get(x, s, (size_t)ne * I64, &c->ev_idx));
    TRY(get(x, s, (size_t)ne * F64, &c->ev_x));
    TRY(get(x, s, (size_t)ne * F64, &c->ev_y));
    TRY(get(x, s, (size_t)ne * sizeof(uint64_t), &c->ev_key));
    TRY(step(x, c, VSG_REF_CP_FILL, nr));
    pairs_free(x, &own);
    c->ja = c->jb = NULL;
    c->n_join = 0;
    TRY(get(x, s, (size_t)ne * I64, &c->ev_split));
    TRY(order_events(x, c, s));
    TRY(get(x, s, (size_t)(ne + 1) * I64, &c->ev_rank));
    TRY(get(x, s, (size_t)c->n_inst * I64, &c->in_elo));
    TRY(get(x, s, (size_t)c->n_inst * I64, &c->in_ehi));
    TRY(vsg_exec_memset(x, c->in_elo, 0, (size_t)c->n_inst * I64));
    TRY(vsg_exec_memset(x, c->in_ehi, 0, (size_t)c->n_inst * I64));
    TRY(step(x, c, VSG_REF_EV_MARK, ne));
    TRY(vsg_exec_scan_i64(x, c->ev_split, c->ev_rank, ne));

    int64_t ni = c->n_inst;
    TRY(get(x, s, (size_t)ni * I64, &c->in_cnt));
    TRY(get(x, s, (size_t)(ni + 1) * I64, &c->in_pc));
    TRY(step(x, c, VSG_REF_INST_PIECES, ni));
    TRY(vsg_scan_total(x, c->in_cnt, c->in_pc, ni, &c->n_pc));
    int64_t np = c->n_pc;
    TRY(get(x, s, (size_t)np * I64, &c->pc_inst));
    TRY(get(x, s, (size_t)np * F64, &c->pc_x0));
    TRY(get(x, s, (size_t)np * F64, &c->pc_y0));
    TRY(get(x, s, (size_t)np * F64, &c->pc_x1));
    TRY(get(x, s, (size_t)np * F64, &c->pc_y1));
    TRY(get(x, s, (size_t)np * sizeof(uint32_t), &c->pc_flags));
    TRY(vsg_exec_memset(x, c->pc_flags, 0, (size_t)np * sizeof(uint32_t)));
    TRY(step(x, c, VSG_REF_PIECE_FIRST, ni));
    TRY(step(x, c, VSG_REF_PIECE_SPLIT, ne));
done:
    vsg_exec_stage_end(x, cp.n + c->n_inst, c->n_pc);
    pairs_free(x, &own);
    return st;
}

/* Labels along the rings: each piece's predecessor (PROP_INIT), then the
 * fill of elements/overlay/refine_steps.h: keys, one max scan, the fill. */
static vsg_status propagate(vsg_exec *x, vsg_ref_ctx *c)
{
    vsg_status st;
    int64_t np = c->n_pc;
    TRY(step(x, c, VSG_REF_PROP_INIT, np));
    TRY(step(x, c, VSG_REF_PROP_KEYS, np));
    TRY(vsg_exec_max_scan_i64(x, c->fill_key, c->fill_max, 2 * np));
    TRY(step(x, c, VSG_REF_PROP_FILL, np));
done:
    return st;
}


/* The rings no node labelled, side by side: a ray from each one's first
 * vertex, its crossings with the other polygon's chunks that meet it,
 * even-odd. *n_rays: how many were cast. */
static vsg_status rays(vsg_exec *x, vsg_ref_ctx *c, vsg_scratch *s, int64_t *n_rays)
{
    vsg_status st = VSG_OK;
    int64_t np = c->n_pc;
    vsg_pairs rj;
    memset(&rj, 0, sizeof rj);
    TRY(get(x, s, (size_t)np * I64, &c->ray_root));
    TRY(get(x, s, (size_t)(np + 1) * I64, &c->ray_off));
    for (int k = 0; k < 2; k++) {
        c->cur = k;
        vsg_exec_stage_begin(x, "refine_rays");
        st = step(x, c, VSG_REF_RAY_ROOT, np);
        if (st == VSG_OK)
            st = vsg_scan_total(x, c->ray_root, c->ray_off, np, &c->n_ray);
        vsg_exec_stage_end(x, np, c->n_ray);
        if (st != VSG_OK)
            goto done;
        if (c->n_ray == 0)
            continue;
        *n_rays += c->n_ray;
        TRY(get(x, s, (size_t)c->n_ray * I64, &c->ray_piece));
        TRY(get(x, s, (size_t)c->n_ray * 4 * F64, &c->ray_box));
        TRY(get(x, s, (size_t)c->n_ray * sizeof(uint32_t), &c->ray_cross));
        TRY(step(x, c, VSG_REF_RAY_FILL, np));
        int64_t n_rc = 0;
        TRY(get(x, s, (size_t)c->n_ray * I64, &c->ray_cc));
        TRY(get(x, s, (size_t)(c->n_ray + 1) * I64, &c->ray_coff));
        TRY(step(x, c, VSG_REF_RAY_SPAN, c->n_ray));
        TRY(vsg_scan_total(x, c->ray_cc, c->ray_coff, c->n_ray, &n_rc));
        if (n_rc <= atomic_load(&g_direct_max)) {
            vsg_exec_stage_begin(x, "refine_rays");
            st = step(x, c, VSG_REF_RAY_DIRECT, n_rc);
        } else {
            const vsg_ref_side *o = &c->side[1 - k];
            TRY(vsg_stage_candidates(x, c->ray_box, c->n_ray, o->chunk_box, o->n_chunks, &rj));
            vsg_exec_stage_begin(x, "refine_rays");
            c->ja = rj.a;
            c->jb = rj.b;
            c->n_join = rj.n;
            st = step(x, c, VSG_REF_RAY_CROSS, rj.n);
        }
        if (st == VSG_OK)
            st = step(x, c, VSG_REF_RAY_SET, c->n_ray);
        vsg_exec_stage_end(x, n_rc, c->n_ray);
        pairs_free(x, &rj);
        c->ja = c->jb = NULL;
        c->n_join = 0;
        if (st != VSG_OK)
            goto done;
    }
done:
    pairs_free(x, &rj);
    c->ja = c->jb = NULL;
    c->n_join = 0;
    return st;
}

/* Every piece's label, from the nodes and then along the rings; rings no
 * node labelled by rays, and along the rings again. */
static vsg_status labels(vsg_exec *x, vsg_ref_ctx *c, vsg_scratch *s)
{
    vsg_status st;
    int64_t np = c->n_pc, n_rays = 0;
    vsg_exec_stage_begin(x, "refine_labels");
    TRY(get(x, s, (size_t)2 * np * sizeof(uint64_t), &c->nd_all));
    TRY(get(x, s, (size_t)2 * np * I64, &c->nd_flag));
    TRY(get(x, s, (size_t)(2 * np + 1) * I64, &c->nd_off));
    TRY(get(x, s, (size_t)2 * np, &c->end_label));
    TRY(step(x, c, VSG_REF_NODE_KEY, np));
    /* the ends at nodes only, in end order, then by key (stable) */
    TRY(vsg_scan_total(x, c->nd_flag, c->nd_off, 2 * np, &c->n_nd));
    TRY(get(x, s, (size_t)c->n_nd * sizeof(uint64_t), &c->nd_key));
    TRY(get(x, s, (size_t)c->n_nd * I64, &c->nd_idx));
    TRY(step(x, c, VSG_REF_NODE_PACK, 2 * np));
    TRY(vsg_exec_sort_u64_i64(x, c->nd_key, c->nd_idx, c->n_nd, VSG_NODE_KEY_BITS));
    TRY(get(x, s, (size_t)c->n_nd * I64, &c->nd_p));
    TRY(get(x, s, (size_t)c->n_nd, &c->nd_side));
    TRY(get(x, s, (size_t)c->n_nd, &c->nd_out));
    TRY(get(x, s, (size_t)c->n_nd * F64, &c->nd_vx));
    TRY(get(x, s, (size_t)c->n_nd * F64, &c->nd_vy));
    TRY(get(x, s, (size_t)c->n_nd * F64, &c->nd_dx));
    TRY(get(x, s, (size_t)c->n_nd * F64, &c->nd_dy));
    TRY(step(x, c, VSG_REF_NODE_INFO, c->n_nd));
    TRY(step(x, c, VSG_REF_NODE_LABEL, c->n_nd));
    TRY(get(x, s, (size_t)np, &c->val));
    TRY(get(x, s, (size_t)np * I64, &c->ptr));
    TRY(get(x, s, (size_t)2 * np * I64, &c->fill_key));
    TRY(get(x, s, (size_t)2 * np * I64, &c->fill_max));
    TRY(get(x, s, (size_t)np, &c->ray_label));
    TRY(vsg_exec_memset(x, c->ray_label, 0, (size_t)np));
    TRY(propagate(x, c));
    vsg_exec_stage_end(x, np, np);
    TRY(rays(x, c, s, &n_rays));
    vsg_exec_stage_begin(x, "refine_labels");
    if (n_rays > 0)
        TRY(propagate(x, c));   /* again, from the rings' ray labels too */
    TRY(step(x, c, VSG_REF_CHECK, np));
done:
    vsg_exec_stage_end(x, np, np);
    return st;
}

/* The pairs whose intersection is one of their rows whole
 * (elements/overlay/refine_steps.h): *n_whole of them, their pieces no
 * longer kept. */
static vsg_status find_whole(vsg_exec *x, vsg_ref_ctx *c, vsg_scratch *s, int64_t *n_whole)
{
    vsg_status st;
    int64_t np = c->n_pc;
    *n_whole = 0;
    vsg_exec_stage_begin(x, "refine_whole");
    TRY(get(x, s, (size_t)(c->n_pairs ? c->n_pairs : 1) * I64, &c->whole));
    TRY(get(x, s, (size_t)(c->n_pairs + 1) * I64, &c->whole_off));
    TRY(get(x, s, (size_t)(c->n_pairs ? c->n_pairs : 1) * sizeof(int32_t), &c->gsrc));
    TRY(step(x, c, VSG_REF_WHOLE_PIECE, np));
    TRY(step(x, c, VSG_REF_WHOLE_PAIR, c->n_pairs));
    TRY(vsg_scan_total(x, c->whole, c->whole_off, c->n_pairs, n_whole));
    if (*n_whole > 0)
        TRY(step(x, c, VSG_REF_UNKEEP, np));
done:
    vsg_exec_stage_end(x, c->n_pairs, *n_whole);
    return st;
}

/* out with each whole pair's geometry replaced by that row, its
 * rings turned to have the interior on the left (columnar_gather). */
static vsg_status gather_whole(vsg_exec *x, vsg_ref_ctx *c, vsg_scratch *s, vsg_columnar *out)
{
    vsg_status st;
    vsg_columnar merged;
    vsg_columnar_init(&merged);
    TRY(get(x, s, (size_t)(c->n_pairs ? c->n_pairs : 1) * I64, &c->grow));
    TRY(step(x, c, VSG_REF_WHOLE_SRC, c->n_pairs));
    vsg_col_view src[3] = {vsg_columnar_view(out), c->side[0].v, c->side[1].v};
    const int8_t *turn[3] = {NULL, c->side[0].dir, c->side[1].dir};
    TRY(vsg_stage_columnar_gather_turned(x, src, turn, 3, c->gsrc, c->grow, c->n_pairs,
                                         &merged));
    vsg_columnar_free(out);
    *out = merged;
    vsg_columnar_init(&merged);
done:
    vsg_columnar_free(&merged);
    return st;
}

/* The intersection's boundary, handed to the coverage union's second half;
 * the pairs whose intersection is one of their rows whole take that row. */
static vsg_status select_and_build(vsg_exec *x, vsg_ref_ctx *c, vsg_scratch *s,
                                   vsg_columnar *out)
{
    vsg_status st;
    int64_t np = c->n_pc, n = 0, n_whole = 0;
    vsg_cov_r *R = &c->R;
    vsg_exec_stage_begin(x, "refine_select");
    TRY(get(x, s, (size_t)np * I64, &c->keep));
    TRY(get(x, s, (size_t)(np + 1) * I64, &c->keep_off));
    TRY(step(x, c, VSG_REF_SELECT, np));
    if (c->whole_ok) {
        vsg_exec_stage_end(x, np, np);
        TRY(find_whole(x, c, s, &n_whole));
        vsg_exec_stage_begin(x, "refine_select");
    }
    TRY(vsg_scan_total(x, c->keep, c->keep_off, np, &n));
    TRY(vsg_union_boundary_alloc(x, s, R, n));
    TRY(step(x, c, VSG_REF_R_FILL, np));
done:
    vsg_exec_stage_end(x, np, n);
    if (st != VSG_OK)
        return st;
    /* a pair with every node exact and simple rows is noded by
     * construction: the union's noding check skips it */
    vsg_union_noded nd = {c->rounded, c->any_rounded};
    st = vsg_stage_union_boundary(x, R, c->n_pairs, &nd, out, c->ok, c->why);
    if (st == VSG_OK && n_whole > 0)
        st = gather_whole(x, c, s, out);
    c->out_flags = out->flags;
    c->out_type = out->type;
    return st == VSG_OK ? step(x, c, VSG_REF_FINAL, c->n_pairs) : st;
}

static vsg_status ref_begin(vsg_exec *x, vsg_ref_ctx *c, vsg_scratch *s, const vsg_col_view *a,
                            const double *boxes_a, const vsg_col_view *b,
                            const double *boxes_b, const int64_t *pair_a,
                            const int64_t *pair_b, int64_t n_pairs, uint32_t *why,
                            int same_sides, const vsg_chunks_shared *sh)
{
    memset(c, 0, sizeof *c);
    if (sh) {
        c->chunks_given = 1;
        for (int k = 0; k < 2; k++) {
            c->side[k].n_chunks = sh->n_chunks[k];
            c->side[k].ring_chunk = sh->ring_chunk[k];
            c->side[k].chunk_geom = sh->chunk_geom[k];
            c->side[k].chunk_box = sh->chunk_box[k];
        }
        c->given.n = sh->cp.n;
        c->given.a = sh->cp.a;
        c->given.b = sh->cp.b;
    }
    c->side[0].v = *a;
    c->side[1].v = *b;
    c->side[0].boxes = boxes_a;
    c->side[1].boxes = boxes_b;
    c->pa = pair_a;
    c->pb = pair_b;
    c->n_pairs = n_pairs;
    c->why = why;
    c->same_sides = same_sides;
    int64_t most = a->n_coords > b->n_coords ? a->n_coords : b->n_coords;
    c->kbits = vsg_bits_below(most + 1);
    if (vsg_bits_below(n_pairs + 1) + 1 + c->kbits > 63)
        return VSG_ERR_INVALID_ARG;   /* keys would not fit: the caller uses GEOS */
    vsg_status st;
    vsg_exec_stage_begin(x, "refine_sides");
    /* the pairs' flags, set by the steps: rounded (the noding check),
     * not whole (the gather of whole rows) */
    size_t np1 = (size_t)(n_pairs ? n_pairs : 1);
    c->whole_ok = a->z == NULL && b->z == NULL && atomic_load(&g_whole);
    st = zeroed(x, s, np1, (void **)&c->rounded);
    if (st == VSG_OK)
        st = zeroed(x, s, I64, (void **)&c->any_rounded);
    if (st == VSG_OK)
        st = zeroed(x, s, np1 * sizeof(uint32_t), (void **)&c->not_whole);
    if (st == VSG_OK)
        st = step(x, c, VSG_REF_PAIR_INIT, n_pairs);
    if (st == VSG_OK)
        st = side_prep(x, c, s, 0);
    if (st == VSG_OK && same_sides)
        c->side[1] = c->side[0];   /* one view: its rings and chunks once */
    else if (st == VSG_OK)
        st = side_prep(x, c, s, 1);
    vsg_exec_stage_end(x, a->n_coords + (same_sides ? 0 : b->n_coords), n_pairs);
    return st;
}

vsg_status vsg_ref_begin(vsg_exec *x, vsg_ref_ctx *c, vsg_scratch *s, const vsg_col_view *a,
                         const double *boxes_a, const vsg_col_view *b, const double *boxes_b,
                         const int64_t *pair_a, const int64_t *pair_b, int64_t n_pairs,
                         uint32_t *why, int same_sides)
{
    return ref_begin(x, c, s, a, boxes_a, b, boxes_b, pair_a, pair_b, n_pairs, why, same_sides,
                     NULL);
}

vsg_status vsg_ref_pieces(vsg_exec *x, vsg_ref_ctx *c, vsg_scratch *s)
{
    vsg_status st = instances(x, c, s);
    if (st == VSG_OK)
        st = nodes(x, c, s);
    if (st == VSG_OK)
        st = labels(x, c, s);
    return st;
}

vsg_status vsg_stage_overlay_refine_shared(vsg_exec *x, const vsg_col_view *a,
                                           const double *boxes_a, const vsg_col_view *b,
                                           const double *boxes_b, const int64_t *pair_a,
                                           const int64_t *pair_b, int64_t n_pairs,
                                           const vsg_chunks_shared *sh, vsg_columnar *out,
                                           uint8_t *pair_ok, uint32_t *why)
{
    vsg_ref_ctx c;
    vsg_scratch s;
    memset(&s, 0, sizeof s);
    vsg_columnar_init(out);
    vsg_status st = ref_begin(x, &c, &s, a, boxes_a, b, boxes_b, pair_a, pair_b, n_pairs, why, 0,
                              sh);
    c.ok = pair_ok;
    if (st == VSG_OK)
        st = vsg_ref_pieces(x, &c, &s);
    if (st == VSG_OK)
        st = select_and_build(x, &c, &s, out);
    vsg_scratch_free(x, &s);
    if (st != VSG_OK)
        vsg_columnar_free(out);
    return st;
}

vsg_status vsg_stage_overlay_refine(vsg_exec *x, const vsg_col_view *a, const double *boxes_a,
                                    const vsg_col_view *b, const double *boxes_b,
                                    const int64_t *pair_a, const int64_t *pair_b, int64_t n_pairs,
                                    vsg_columnar *out, uint8_t *pair_ok, uint32_t *why)
{
    return vsg_stage_overlay_refine_shared(x, a, boxes_a, b, boxes_b, pair_a, pair_b, n_pairs,
                                           NULL, out, pair_ok, why);
}
