/*
 * rect_clip.c - vsg_stage_rect_clip (stages.h): the rectangle clip of a
 * columnar geometry set on either backend.
 *
 * Polygon clips run segment-parallel (elements/rect_clip/seg.h): every
 * step is one item per segment, ring, part, chain, chain end or row, each
 * of bounded work, and per-ring / per-part / per-row results come from
 * scans, two radix sorts and pointer jumping between the steps. Rows it
 * does not settle (lines, points, and the degenerate cases listed in
 * docs/rect-clip.md) are marked SLOW and run through the per-geometry
 * path of elements/rect_clip/clip.h, as before:
 *
 *   geom, ring, coord, seg    classes, chain starts / ends, kept vertices
 *   scans                     -> chain ids            (read 1: chains)
 *   scatter, ring2, chain     chain ends, orientation, ring classes
 *   sorts, group, link        ends along the boundary, successors
 *   pointer jumping           cycle labels, offsets along each cycle
 *   group2, part, cslot       checks, output slots; scans over slots
 *   slow prepare              -> per-geometry scratch   (read 2: its ends)
 *   count                     output counts per row  (reads 3-5: totals)
 *   fills                     per row, part, ring, chain, coordinate
 *
 * The host backend loops over each step's items and reports the largest
 * item to the work meter (vsg_exec_note_work); the GPU backend launches
 * the same item functions (cuda/rect_clip/launch_rect_clip.cu). Nothing
 * is synchronised except the five scalar reads that size allocations.
 */
#include <math.h>
#include <string.h>

#include "stages/stages.h"
#include "stages/step.h"
#include "elements/rect_clip/seg.h"
#include "exec/exec_internal.h"
#ifdef VSGPU_HAVE_CUDA
#include "rect_clip/launch_rect_clip.h"
#endif

/* One step over n items, on x's backend. */
static vsg_status rc_step(vsg_exec *x, const rc_args *a, int step, int64_t n)
{
    vsg_status launched = vsg_exec_launch(x, "rect_clip");
    if (launched != VSG_OK)
        return launched;
    if (n <= 0)
        return VSG_OK;
    if (vsg_step_on_gpu(x)) {
#ifdef VSGPU_HAVE_CUDA
        vsg_status st = vsg_launch_rect_clip_step(vsg_exec_gpu(x), a, step, n);
        if (st != VSG_OK)
            return vsg_exec_fail(x, st, "rect_clip: %s", vsg_gpu_last_error(vsg_exec_gpu(x)));
        return VSG_OK;
#else
        return vsg_exec_fail(x, VSG_ERR_NO_GPU, "this build has no CUDA engine");
#endif
    }
    int64_t most = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t w = rcs_item(a, step, i);
        most = w > most ? w : most;
    }
    vsg_exec_note_work(x, most);
    return VSG_OK;
}

#define RC_ALLOC(ptr, type, count)                                            \
    do {                                                                      \
        void *p_;                                                             \
        st = vsg_scratch_alloc(x, s, (size_t)(count) * sizeof(type), &p_);            \
        if (st != VSG_OK)                                                     \
            return st;                                                        \
        (ptr) = (type *)p_;                                                   \
    } while (0)
#define RC_TRY(call)                                                          \
    do {                                                                      \
        st = (call);                                                          \
        if (st != VSG_OK)                                                     \
            return st;                                                        \
    } while (0)

/* Output rings joining chains of several input rings touch themselves
 * where those rings touch inside the rectangle (a hole meeting the shell
 * at a point): chunks of coordinates, the candidates stage's join of
 * their boxes, one item per pair of chunks (16 x 16 point-segment tests).
 * The join is its own stage in the profile, between two rect_clip ones. */
static vsg_status rc_touch_check(vsg_exec *x, rc_args *a, vsg_scratch *s)
{
    rc_seg_args *S = &a->s;
    vsg_status st;
    RC_ALLOC(S->tbox, double, 4 * S->n_tchunks);
    RC_TRY(rc_step(x, a, RCS_TBOX, S->n_tchunks));
    vsg_exec_stage_end(x, a->in.n_geoms, a->in.n_geoms);
    vsg_pairs tp;
    st = vsg_stage_candidates(x, S->tbox, S->n_tchunks, S->tbox, S->n_tchunks, &tp);
    vsg_exec_stage_begin(x, "rect_clip");
    if (st != VSG_OK)
        return st;
    S->tp_a = tp.a;
    S->tp_b = tp.b;
    S->n_tp = tp.n;
    st = rc_step(x, a, RCS_TOUCH, tp.n);
    vsg_exec_free(x, tp.a);
    vsg_exec_free(x, tp.b);
    return st;
}

/* Holes strictly inside a part that gives several output rings: which
 * ring holds each. A ray from the hole's first vertex to the right side;
 * the pieces it crosses come from the candidates stage's join of the rays'
 * boxes with chunk boxes, the boundary walk it ends on from a binary
 * search; then the holes sorted by owner give each its place. */
static vsg_status rc_hole_owners(vsg_exec *x, rc_args *a, vsg_scratch *s)
{
    rc_seg_args *S = &a->s;
    const int64_t NR = a->in.n_rings;
    vsg_status st;
    RC_ALLOC(S->any_multi, int64_t, 1);
    RC_ALLOC(S->rbox, double, 4 * NR);
    RC_ALLOC(S->hacc, uint64_t, NR);
    RC_ALLOC(S->howner, int64_t, NR);
    RC_ALLOC(S->hkey, uint64_t, NR);
    RC_ALLOC(S->hval, int64_t, NR);
    RC_ALLOC(S->hpos, int64_t, NR);
    RC_ALLOC(S->hk2, int64_t, NR);
    RC_ALLOC(S->s_hk2, int64_t, NR + 1);
    RC_TRY(vsg_exec_memset(x, S->any_multi, 0, sizeof(int64_t)));
    RC_TRY(rc_step(x, a, RCS_HRAY, NR));
    int64_t multi = 0;
    RC_TRY(vsg_exec_read_i64(x, S->any_multi, &multi));
    if (multi) {
        RC_ALLOC(S->pbox, double, 4 * S->n_tchunks);
        RC_TRY(rc_step(x, a, RCS_PBOX, S->n_tchunks));
        vsg_exec_stage_end(x, a->in.n_geoms, a->in.n_geoms);
        vsg_pairs hp;
        st = vsg_stage_candidates(x, S->rbox, NR, S->pbox, S->n_tchunks, &hp);
        vsg_exec_stage_begin(x, "rect_clip");
        if (st != VSG_OK)
            return st;
        S->hp_a = hp.a;
        S->hp_b = hp.b;
        st = rc_step(x, a, RCS_HCROSS, hp.n);
        vsg_exec_free(x, hp.a);
        vsg_exec_free(x, hp.b);
        if (st != VSG_OK)
            return st;
        RC_TRY(rc_step(x, a, RCS_HWALK, NR));
    }
    RC_TRY(rc_step(x, a, RCS_HOWNER, NR));
    RC_TRY(vsg_exec_sort_u64_i64(x, S->hkey, S->hval, NR, vsg_bits_below(S->n_chains + 1)));
    RC_TRY(rc_step(x, a, RCS_HPOS, NR));
    RC_TRY(vsg_exec_scan_i64(x, S->hk2, S->s_hk2, NR));
    return VSG_OK;
}

/* The segment-parallel steps up to the output slots' scans. */
static vsg_status rc_segment_steps(vsg_exec *x, rc_args *a, vsg_scratch *s)
{
    rc_seg_args *S = &a->s;
    const int64_t NG = a->in.n_geoms, NP = a->in.n_parts, NR = a->in.n_rings,
                  NC = a->in.n_coords;
    vsg_status st;

    RC_ALLOC(S->gflag, uint32_t, NG);
    RC_ALLOC(S->pflag, uint32_t, NP);
    RC_ALLOC(S->pd, int32_t, NP);
    RC_ALLOC(S->ring_part, int64_t, NR);
    RC_ALLOC(S->ring_geom, int64_t, NR);
    RC_ALLOC(S->ract, uint8_t, NR);
    RC_ALLOC(S->rrev, uint8_t, NR);
    RC_ALLOC(S->rcls, int32_t, NR);
    RC_ALLOC(S->rflag, uint32_t, NR);
    RC_ALLOC(S->rmin, uint64_t, 4 * NR);
    RC_ALLOC(S->hf, int64_t, NR);
    RC_ALLOC(S->hk, int64_t, NR);
    RC_ALLOC(S->s_hf, int64_t, NR + 1);
    RC_ALLOC(S->s_hk, int64_t, NR + 1);
    RC_ALLOC(S->ring_ostart, int64_t, NR);
    RC_ALLOC(S->coord_ring, int64_t, NC);
    RC_ALLOC(S->cw, uint8_t, NC);
    RC_ALLOC(S->fs, int64_t, NC);
    RC_ALLOC(S->fe, int64_t, NC);
    RC_ALLOC(S->fk, int64_t, NC);
    RC_ALLOC(S->s_fs, int64_t, NC + 1);
    RC_ALLOC(S->s_fe, int64_t, NC + 1);
    RC_ALLOC(S->s_fk, int64_t, NC + 1);
    if (NP > 0)
        RC_TRY(vsg_exec_memset(x, S->pflag, 0, (size_t)NP * sizeof(uint32_t)));

    RC_TRY(rc_step(x, a, RCS_GEOM, NG));
    RC_TRY(rc_step(x, a, RCS_RING, NR));
    RC_TRY(rc_step(x, a, RCS_COORD, NC));
    RC_TRY(rc_step(x, a, RCS_SEG, NC));
    RC_TRY(vsg_exec_scan_i64(x, S->fe, S->s_fe, NC));
    RC_TRY(vsg_exec_scan_i64(x, S->fk, S->s_fk, NC));
    int64_t nch = 0;
    RC_TRY(vsg_scan_total(x, S->fs, S->s_fs, NC, &nch));
    if (nch < 0 || nch > ((int64_t)1 << 40))
        return vsg_exec_fail(x, VSG_ERR_NOMEM, "rect_clip: %lld chains", (long long)nch);
    S->n_chains = nch;
    const int64_t NS = NP + nch;

    RC_ALLOC(S->ch_s, int64_t, nch);
    RC_ALLOC(S->ch_t, int64_t, nch);
    RC_ALLOC(S->cmix, uint8_t, nch);
    RC_ALLOC(S->any_mixed, int64_t, 1);
    RC_ALLOC(S->end_seg, int64_t, nch);
    RC_ALLOC(S->succ, int64_t, nch);
    RC_ALLOC(S->kin, int64_t, nch);
    RC_ALLOC(S->ncorn, int32_t, nch);
    RC_ALLOC(S->ek, uint8_t, nch);
    RC_ALLOC(S->hs, int64_t, nch);
    RC_ALLOC(S->s_hs, int64_t, nch + 1);
    for (int k = 0; k < 2; k++) {
        RC_ALLOC(S->pj_a[k], int64_t, nch);
        RC_ALLOC(S->pj_b[k], int64_t, nch);
        RC_ALLOC(S->pj_c[k], int64_t, nch);
        RC_ALLOC(S->pj_d[k], int64_t, nch);
    }
    RC_ALLOC(S->cend, rc_end, 2 * nch);
    RC_ALLOC(S->skey, uint64_t, 2 * nch);
    RC_ALLOC(S->sval, int64_t, 2 * nch);
    RC_ALLOC(S->sc_p, int64_t, NS);
    RC_ALLOC(S->sc_r, int64_t, NS);
    RC_ALLOC(S->sc_k, int64_t, NS);
    RC_ALLOC(S->ss_p, int64_t, NS + 1);
    RC_ALLOC(S->ss_r, int64_t, NS + 1);
    RC_ALLOC(S->ss_k, int64_t, NS + 1);

    RC_TRY(rc_step(x, a, RCS_SCATTER, NC));
    RC_TRY(rc_step(x, a, RCS_RING2, NR));
    RC_TRY(vsg_exec_scan_i64(x, S->hf, S->s_hf, NR));
    RC_TRY(vsg_exec_scan_i64(x, S->hk, S->s_hk, NR));

    S->lab = S->pj_a[0];
    S->sfx = S->pj_c[0];
    if (nch > 0) {
        RC_TRY(rc_step(x, a, RCS_CHAIN, nch));
        /* ends along the boundary: by position on the side, then (stable)
         * by part and side */
        RC_TRY(vsg_exec_sort_u64_i64(x, S->skey, S->sval, 2 * nch, 64));
        RC_TRY(rc_step(x, a, RCS_KEY2, 2 * nch));
        RC_TRY(vsg_exec_sort_u64_i64(x, S->skey, S->sval, 2 * nch, vsg_bits_below(NP + 1) + 2));
        RC_TRY(rc_step(x, a, RCS_GROUP, 2 * nch));
        RC_TRY(rc_step(x, a, RCS_LINK, 2 * nch));
        /* cycle labels: the lowest chain, by pointer jumping */
        int rounds = vsg_bits_below(nch);
        RC_TRY(rc_step(x, a, RCS_LAB_INIT, nch));
        for (int k = 0; k < rounds; k++) {
            S->pj_src = k & 1;
            RC_TRY(rc_step(x, a, RCS_LAB_ROUND, nch));
        }
        S->lab = S->pj_a[rounds & 1];
        /* offsets along each cycle: list ranking from its head */
        RC_TRY(vsg_exec_memset(x, S->cmix, 0, (size_t)nch));
        RC_TRY(vsg_exec_memset(x, S->any_mixed, 0, sizeof(int64_t)));
        RC_TRY(rc_step(x, a, RCS_WEIGHT, nch));
        for (int k = 0; k < rounds; k++) {
            S->pj_src = k & 1;
            RC_TRY(rc_step(x, a, RCS_RANK_ROUND, nch));
        }
        S->sfx = S->pj_c[rounds & 1];
        RC_TRY(rc_step(x, a, RCS_GROUP2, 2 * nch));
        S->n_tchunks = (NC + RC_TOUCH_CHUNK - 1) / RC_TOUCH_CHUNK;
        int64_t mixed = 0;
        RC_TRY(vsg_exec_read_i64(x, S->any_mixed, &mixed));
        if (mixed)
            RC_TRY(rc_touch_check(x, a, s));
    }
    RC_TRY(vsg_exec_scan_i64(x, S->hs, S->s_hs, nch));
    if (nch > 0)
        RC_TRY(rc_hole_owners(x, a, s));
    RC_TRY(rc_step(x, a, RCS_PART, NP));
    RC_TRY(rc_step(x, a, RCS_CSLOT, nch));
    RC_TRY(vsg_exec_scan_i64(x, S->sc_p, S->ss_p, NS));
    RC_TRY(vsg_exec_scan_i64(x, S->sc_r, S->ss_r, NS));
    RC_TRY(vsg_exec_scan_i64(x, S->sc_k, S->ss_k, NS));
    return VSG_OK;
}

static vsg_status rc_stage(vsg_exec *x, rc_args *a, vsg_scratch *s, vsg_columnar *out)
{
    int64_t n = a->in.n_geoms;
    size_t nb = (size_t)n;
    vsg_status st;

    RC_ALLOC(a->kind, uint8_t, nb);
    RC_ALLOC(a->ep_count, int64_t, nb);
    int64_t *ep_off;
    RC_ALLOC(ep_off, int64_t, nb + 1);
    a->ep_off = ep_off;
    RC_ALLOC(a->ring_cls, int32_t, a->in.n_rings);
    RC_TRY(rc_segment_steps(x, a, s));

    /* rows left to the per-geometry path: its scratch for the chain ends */
    RC_TRY(rc_step(x, a, RCS_SLOW_PREPARE, n));
    int64_t n_ends;
    RC_TRY(vsg_scan_total(x, a->ep_count, ep_off, n, &n_ends));
    if (n_ends < 0 || (uint64_t)n_ends > SIZE_MAX / sizeof(rc_end))
        return vsg_exec_fail(x, VSG_ERR_NOMEM, "rect_clip: %lld chain ends", (long long)n_ends);
    RC_ALLOC(a->ends, rc_end, n_ends);
    RC_ALLOC(a->ord, int32_t, n_ends);
    RC_ALLOC(a->rank, int32_t, n_ends);
    RC_ALLOC(a->aux, int32_t, n_ends);

    /* count, and the output */
    RC_ALLOC(a->cnt_parts, int64_t, nb);
    RC_ALLOC(a->cnt_rings, int64_t, nb);
    RC_ALLOC(a->cnt_coords, int64_t, nb);
    RC_TRY(rc_step(x, a, RCS_GCOUNT, n));
    int64_t *offs[3];
    const int64_t *cnts[3] = {a->cnt_parts, a->cnt_rings, a->cnt_coords};
    int64_t tot[3];
    for (int k = 0; k < 3; k++) {
        RC_ALLOC(offs[k], int64_t, nb + 1);
        RC_TRY(vsg_scan_total(x, cnts[k], offs[k], n, &tot[k]));
    }
    a->part_off = offs[0];
    a->ring_off = offs[1];
    a->coord_off = offs[2];
    RC_TRY(vsg_columnar_alloc(x, out, n, tot[0], tot[1], tot[2], 0));
    RC_TRY(vsg_exec_copy(x, out->geom_part, offs[0], (nb + 1) * sizeof(int64_t)));

    /* fill */
    a->o_type = out->type;
    a->o_flags = out->flags;
    a->o_part_ring = out->part_ring;
    a->o_ring_coord = out->ring_coord;
    a->o_x = out->x;
    a->o_y = out->y;
    RC_TRY(rc_step(x, a, RCS_GFILL, n));
    RC_TRY(rc_step(x, a, RCS_PFILL, a->in.n_parts));
    RC_TRY(rc_step(x, a, RCS_RFILL, a->in.n_rings));
    RC_TRY(rc_step(x, a, RCS_CFILL, a->s.n_chains));
    RC_TRY(rc_step(x, a, RCS_KFILL, a->in.n_coords));
    return VSG_OK;
}
#undef RC_ALLOC
#undef RC_TRY

vsg_status vsg_stage_rect_clip(vsg_exec *x, const vsg_col_view *in, const double *boxes,
                               const double rect[4], vsg_columnar *out, uint8_t *row_cpu)
{
    if (!x || !in || !out || !rect || (in->n_geoms > 0 && (!boxes || !row_cpu)))
        return x ? vsg_exec_fail(x, VSG_ERR_INVALID_ARG, "rect_clip: NULL argument")
                 : VSG_ERR_INVALID_ARG;
    vsg_columnar_init(out);
    for (int k = 0; k < 4; k++)
        if (!isfinite(rect[k]))
            return vsg_exec_fail(x, VSG_ERR_INVALID_ARG, "rect_clip: non-finite rectangle");
    if (rect[0] > rect[2] || rect[1] > rect[3])
        return vsg_exec_fail(x, VSG_ERR_INVALID_ARG, "rect_clip: xmin > xmax or ymin > ymax");
    if (in->n_geoms < 0)
        return vsg_exec_fail(x, VSG_ERR_INVALID_ARG, "rect_clip: negative count");

    vsg_exec_stage_begin(x, "rect_clip");
    rc_args a;
    memset(&a, 0, sizeof a);
    a.in = *in;
    a.boxes = boxes;
    memcpy(a.rect, rect, sizeof a.rect);
    a.row_cpu = row_cpu;
    vsg_scratch s;
    s.n = 0;
    vsg_status st = rc_stage(x, &a, &s, out);
    vsg_scratch_free(x, &s);
    if (st != VSG_OK)
        vsg_columnar_free(out);
    vsg_exec_stage_end(x, in->n_geoms, st == VSG_OK ? in->n_geoms : 0);
    return st;
}
