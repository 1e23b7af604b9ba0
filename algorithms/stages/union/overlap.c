/*
 * overlap.c - the overlap union stage (stages/stages.h): one MultiPolygon
 * per group of polygons that may overlap, on either backend. The logic
 * and why it holds are in elements/union/overlap.h; this file sizes the
 * arrays and runs the steps in order:
 *
 *   bounds, candidates  the members' boxes joined with themselves
 *   overlap_pairs       the pairs (i < j) of one group
 *   refine_*            the overlay refine's first half on those pairs:
 *                       every piece of both members' boundaries labelled
 *                       against the other (stages/overlay/refine_run.h)
 *   overlap_sweep       the pieces a member loses to another, as events
 *                       along their segments beside every segment's ends;
 *                       sorted by (segment, position), counted; the
 *                       stretches no lost piece covers
 *   boundary_*          the coverage union's second half (stages/union/
 *                       boundary.h): linking, noding and nesting proofs,
 *                       rings, one MultiPolygon per group
 *
 * A group any check rejects has group_ok = 0 and its reason bits in why:
 * the caller unions it another way. Scalar reads size the allocations.
 */
#include "stages/stages.h"
#include "stages/step.h"

#include <string.h>

#include "elements/union/overlap.h"
#include "stages/overlay/refine_run.h"
#include "stages/union/boundary.h"

#ifdef VSGPU_HAVE_CUDA
#include "union/launch_overlap.h"
#endif

static vsg_status step(vsg_exec *x, const vsg_ovu_ctx *c, int s, int64_t n)
{
    VSG_STEP_BODY(x, "overlap_union", s, n, vsg_launch_ovu_step(vsg_exec_gpu(x), c, s, n),
                  vsg_ovu_item(c, s, i));
}

#define get(x, s, bytes, out) vsg_scratch_alloc((x), (s), (bytes), (void **)(out))
#define I64 sizeof(int64_t)
#define F64 sizeof(double)

/* The pairs of members of one group whose boxes meet, i < j, sorted. */
static vsg_status member_pairs(vsg_exec *x, vsg_ovu_ctx *c, vsg_scratch *s, const double *boxes,
                               int64_t n, int64_t *n_pairs)
{
    vsg_status st;
    vsg_pairs j;
    memset(&j, 0, sizeof j);
    TRY(vsg_stage_candidates_above(x, boxes, n, 1, 1, &j));
    vsg_exec_stage_begin(x, "overlap_pairs");
    c->ja = j.a;
    c->jb = j.b;
    c->n_join = j.n;
    TRY(get(x, s, (size_t)j.n * I64, &c->jflag));
    TRY(get(x, s, (size_t)(j.n + 1) * I64, &c->joff));
    TRY(step(x, c, VSG_OVU_PAIR_FLAG, j.n));
    TRY(vsg_scan_total(x, c->jflag, c->joff, j.n, n_pairs));
    TRY(get(x, s, (size_t)*n_pairs * I64, &c->pa));
    TRY(get(x, s, (size_t)*n_pairs * I64, &c->pb));
    TRY(step(x, c, VSG_OVU_PAIR_FILL, j.n));
done:
    vsg_exec_stage_end(x, j.n, *n_pairs);
    vsg_exec_free(x, j.a);
    vsg_exec_free(x, j.b);
    c->ja = c->jb = NULL;
    c->n_join = 0;
    return st;
}

/* The lost pieces and every segment's ends as events, sorted by segment
 * then position; the stretches between them that no lost piece covers,
 * as the union's boundary R. */
static vsg_status sweep(vsg_exec *x, vsg_ovu_ctx *c, vsg_scratch *s)
{
    vsg_status st;
    int64_t np = c->r.n_pc, nc = c->r.side[0].v.n_coords, n_lost = 0, n = 0, ne = 0;
    vsg_cov_r *R = &c->R;
    vsg_exec_stage_begin(x, "overlap_sweep");
    TRY(get(x, s, (size_t)np * I64, &c->lost));
    TRY(get(x, s, (size_t)(np + 1) * I64, &c->lost_off));
    TRY(step(x, c, VSG_OVU_LOST, np));
    TRY(vsg_scan_total(x, c->lost, c->lost_off, np, &n_lost));
    ne = c->n_ev = 2 * nc + n_lost;
    TRY(get(x, s, (size_t)ne * I64, &c->ev_seg));
    TRY(get(x, s, (size_t)ne * sizeof(uint64_t), &c->ev_pos));
    TRY(get(x, s, (size_t)ne * sizeof(uint64_t), &c->ev_key));
    TRY(get(x, s, (size_t)ne * I64, &c->ev_idx));
    TRY(get(x, s, (size_t)ne * I64, &c->ev_delta));
    TRY(get(x, s, (size_t)ne * F64, &c->ev_x));
    TRY(get(x, s, (size_t)ne * F64, &c->ev_y));
    TRY(step(x, c, VSG_OVU_EV_SEG, nc));
    TRY(step(x, c, VSG_OVU_EV_LOST, np));
    /* along each segment, then by segment (stable) */
    TRY(vsg_exec_sort_u64_i64(x, c->ev_key, c->ev_idx, ne, 64));
    TRY(step(x, c, VSG_OVU_EV_BY_SEG, ne));
    TRY(vsg_exec_sort_u64_i64(x, c->ev_key, c->ev_idx, ne, vsg_bits_below(nc + 1)));
    TRY(get(x, s, (size_t)ne * I64, &c->ev_d));
    TRY(get(x, s, (size_t)(ne + 1) * I64, &c->ev_run));
    TRY(step(x, c, VSG_OVU_EV_DELTA, ne));
    TRY(vsg_exec_scan_i64(x, c->ev_d, c->ev_run, ne));
    TRY(get(x, s, (size_t)ne * I64, &c->emit));
    TRY(get(x, s, (size_t)(ne + 1) * I64, &c->emit_off));
    TRY(step(x, c, VSG_OVU_EMIT, ne));
    TRY(vsg_scan_total(x, c->emit, c->emit_off, ne, &n));
    TRY(vsg_union_boundary_alloc(x, s, R, n));
    TRY(step(x, c, VSG_OVU_R_FILL, ne));
done:
    vsg_exec_stage_end(x, ne, n);
    return st;
}

vsg_status vsg_stage_overlap_union_pairwise(vsg_exec *x, const vsg_col_view *in, const int64_t *group_of,
                                   int64_t n_groups, vsg_columnar *out, uint8_t *group_ok,
                                   uint32_t *why)
{
    vsg_ovu_ctx c;
    vsg_scratch s, rs;   /* this stage's arrays; the refine's */
    vsg_status st;
    double *boxes = NULL;
    uint32_t *pair_why = NULL;
    int64_t n_pairs = 0, ng = in->n_geoms;
    memset(&c, 0, sizeof c);
    memset(&s, 0, sizeof s);
    memset(&rs, 0, sizeof rs);
    vsg_columnar_init(out);
    c.group_of = group_of;
    c.n_groups = n_groups;
    c.gwhy = why;
    TRY(vsg_exec_memset(x, why, 0, (size_t)n_groups * sizeof *why));
    TRY(vsg_exec_memset(x, group_ok, 0, (size_t)n_groups));
    TRY(get(x, &s, (size_t)ng * 4 * F64, &boxes));
    TRY(vsg_stage_bounds(x, in, boxes));
    TRY(member_pairs(x, &c, &s, boxes, ng, &n_pairs));
    TRY(get(x, &s, (size_t)n_pairs * sizeof *pair_why, &pair_why));
    TRY(vsg_ref_begin(x, &c.r, &rs, in, boxes, in, boxes, c.pa, c.pb, n_pairs, pair_why, 1));
    vsg_exec_stage_begin(x, "overlap_pairs");
    st = step(x, &c, VSG_OVU_GEOM_CHECK, ng);
    if (st == VSG_OK)
        st = step(x, &c, VSG_OVU_RING_CHECK, in->n_rings);
    vsg_exec_stage_end(x, ng, in->n_rings);
    if (st != VSG_OK)
        goto done;
    if (n_pairs > 0) {
        TRY(vsg_ref_pieces(x, &c.r, &rs));
        TRY(step(x, &c, VSG_OVU_PAIR_WHY, n_pairs));
    }
    TRY(sweep(x, &c, &s));
    TRY(vsg_stage_union_boundary(x, &c.R, n_groups, out, group_ok, why));
done:
    vsg_scratch_free(x, &rs);
    vsg_scratch_free(x, &s);
    if (st != VSG_OK)
        vsg_columnar_free(out);
    return st;
}
