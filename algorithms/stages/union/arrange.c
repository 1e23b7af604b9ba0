/*
 * arrange.c - the overlap union stage (stages/stages.h) by one
 * arrangement per group: one MultiPolygon per group of polygons that may
 * overlap, on either backend. The logic and why it holds are in
 * elements/union/arrange.h; this file sizes the arrays and runs the
 * steps in order:
 *
 *   refine_sides     the members' rings oriented exactly, their chunks
 *                    (the overlay refine's side preparation, one side)
 *   arrange_nodes    the chunk pairs of two members of one group (a
 *                    grouped box join), their segment pairs' exact nodes:
 *                    vertices flagged, cuts inside segments
 *   arrange_pieces   the cuts along each segment; the pieces between
 *   arrange_labels   every piece end at a node against the other members
 *                    there
 *   arrange_depth    the depth along each ring (one scan), each ring's
 *                    first piece by a ray's winding number (candidates:
 *                    the rays against the chunks), the checks
 *   arrange_select   the pieces no other member covers
 *   boundary_*       the coverage union's second half (stages/union/
 *                    boundary.h): linking, noding and nesting proofs,
 *                    rings, one MultiPolygon per group
 *
 * A group any check rejects has group_ok = 0 and its reason bits in why:
 * the caller unions it another way. Scalar reads size the allocations.
 */
#include "stages/stages.h"
#include "stages/step.h"

#include <string.h>

#include "elements/union/arrange.h"
#include "stages/overlay/refine_run.h"
#include "stages/union/boundary.h"

#ifdef VSGPU_HAVE_CUDA
#include "union/launch_arrange.h"
#endif

static vsg_status step(vsg_exec *x, const vsg_arr_ctx *c, int s, int64_t n)
{
    VSG_STEP_BODY(x, "arrange", s, n, vsg_launch_arr_step(vsg_exec_gpu(x), c, s, n),
                  vsg_arr_item(c, s, i));
}

#define get(x, s, bytes, out) vsg_scratch_alloc((x), (s), (bytes), (void **)(out))
#define I64 sizeof(int64_t)
#define F64 sizeof(double)

/* The CPU engine's limit of exact nodes per vertex of a group (below):
 * measured on this VM (2026-11-28, docs/benchmarks.md), the counties and
 * their translated copy had 0.46 a vertex and buffers of the counties
 * 0.79, where the arrangement beat GEOS's union 2.2 and 1.7 times; 2,000
 * random disks in one group had 1.41, where GEOS was 2.4 times faster
 * a thread. */
#define ARR_HOST_NODES_PER_VERTEX 1

static void pairs_free(vsg_exec *x, vsg_pairs *p)
{
    vsg_exec_free(x, p->a);
    vsg_exec_free(x, p->b);
    memset(p, 0, sizeof *p);
}

/* The members' checks, the chunks' groups, the groups' right edges. */
static vsg_status prepare(vsg_exec *x, vsg_arr_ctx *c, vsg_scratch *s)
{
    vsg_status st;
    const vsg_ref_side *sd = &c->sd;
    vsg_exec_stage_begin(x, "arrange_nodes");
    TRY(step(x, c, VSG_ARR_GEOM_CHECK, sd->v.n_geoms));
    TRY(step(x, c, VSG_ARR_RING_CHECK, sd->v.n_rings));
    TRY(get(x, s, (size_t)sd->n_chunks * I64, &c->chunk_group));
    TRY(step(x, c, VSG_ARR_CHUNK_GROUP, sd->n_chunks));
    TRY(get(x, s, (size_t)c->n_groups * sizeof(uint64_t), &c->gxmax));
    TRY(step(x, c, VSG_ARR_GX_INIT, c->n_groups));
    TRY(step(x, c, VSG_ARR_GX_MAX, sd->v.n_geoms));
done:
    vsg_exec_stage_end(x, sd->v.n_geoms, sd->n_chunks);
    return st;
}

/* The nodes of every segment pair of two members of one group. */
static vsg_status nodes(vsg_exec *x, vsg_arr_ctx *c, vsg_scratch *s)
{
    vsg_status st;
    vsg_pairs cp;
    memset(&cp, 0, sizeof cp);
    TRY(vsg_stage_candidates_grouped(x, c->sd.chunk_box, c->chunk_group, c->sd.n_chunks, 1, 0,
                                     &cp));
    vsg_exec_stage_begin(x, "arrange_nodes");
    c->ja = cp.a;
    c->jb = cp.b;
    c->n_join = cp.n;
    TRY(vsg_ref_rows_alloc_pairs(x, s, &c->rw, cp.n));
    TRY(step(x, c, VSG_ARR_CP_ROWS, cp.n));
    TRY(vsg_ref_rows_alloc_rows(x, s, &c->rw, cp.n));
    int64_t nr = c->rw.n_rows;
    TRY(step(x, c, VSG_ARR_ROW_FILL, cp.n));
    TRY(get(x, s, (size_t)c->sd.v.n_coords * sizeof(uint32_t), &c->vflag));
    TRY(vsg_exec_memset(x, c->vflag, 0, (size_t)c->sd.v.n_coords * sizeof(uint32_t)));
    TRY(step(x, c, VSG_ARR_CP_COUNT, nr));
    TRY(vsg_scan_total(x, c->rw.ev_cnt, c->rw.ev_off, nr, &c->n_ev));
    /* The CPU engine (one group a call, pipeline/coverage.c): members that
     * cross each other more than once a vertex (random disks over one
     * another) cost one core more here than GEOS's union costs all of
     * them; nothing settled, so GEOS takes the group. */
    if (vsg_exec_host_plain(x) && c->n_ev > c->sd.v.n_coords * ARR_HOST_NODES_PER_VERTEX) {
        st = VSG_ERR_INVALID_ARG;
        goto done;
    }
    int64_t ne = c->n_ev;
    TRY(get(x, s, (size_t)ne * I64, &c->ev_k));
    TRY(get(x, s, (size_t)ne * I64, &c->ev_idx));
    TRY(get(x, s, (size_t)ne * F64, &c->ev_x));
    TRY(get(x, s, (size_t)ne * F64, &c->ev_y));
    TRY(get(x, s, (size_t)ne * sizeof(uint64_t), &c->ev_key));
    TRY(step(x, c, VSG_ARR_CP_FILL, nr));
done:
    vsg_exec_stage_end(x, cp.n, c->n_ev);
    pairs_free(x, &cp);
    c->ja = c->jb = NULL;
    c->n_join = 0;
    return st;
}

/* The nodes by segment, and along each segment: a sort by segment, then
 * each event placed within its run (EV_ORDER); where a run is too long for
 * that, a sort of every event by position and a stable one by segment,
 * which give the same order. */
static vsg_status order_events(vsg_exec *x, vsg_arr_ctx *c, vsg_scratch *s)
{
    vsg_status st;
    int64_t ne = c->n_ev, longer = 0;
    TRY(get(x, s, sizeof *c->ev_long, &c->ev_long));
    TRY(vsg_exec_memset(x, c->ev_long, 0, sizeof *c->ev_long));
    TRY(get(x, s, (size_t)ne * I64, &c->ev_split));
    TRY(step(x, c, VSG_ARR_EV_KEY, ne));
    TRY(vsg_exec_sort_u64_i64(x, c->ev_key, c->ev_idx, ne, c->kbits));
    TRY(step(x, c, VSG_ARR_EV_ORDER, ne));
    int64_t *t = c->ev_idx;
    c->ev_idx = c->ev_split;
    c->ev_split = t;
    TRY(vsg_exec_read_i64(x, c->ev_long, &longer));
    if (longer) {
        TRY(step(x, c, VSG_ARR_EV_POS, ne));
        TRY(vsg_exec_sort_u64_i64(x, c->ev_key, c->ev_idx, ne, 64));
        TRY(step(x, c, VSG_ARR_EV_SEG, ne));
        TRY(vsg_exec_sort_u64_i64(x, c->ev_key, c->ev_idx, ne, c->kbits));
    }
done:
    return st;
}

/* The nodes sorted along each segment, the cuts, the pieces between
 * them. */
static vsg_status pieces(vsg_exec *x, vsg_arr_ctx *c, vsg_scratch *s)
{
    vsg_status st;
    int64_t ne = c->n_ev, nc = c->sd.v.n_coords;
    vsg_exec_stage_begin(x, "arrange_pieces");
    TRY(order_events(x, c, s));
    TRY(get(x, s, (size_t)nc * I64, &c->seg_elo));
    TRY(get(x, s, (size_t)nc * I64, &c->seg_ehi));
    TRY(vsg_exec_memset(x, c->seg_elo, 0, (size_t)nc * I64));
    TRY(vsg_exec_memset(x, c->seg_ehi, 0, (size_t)nc * I64));
    TRY(get(x, s, (size_t)ne * I64, &c->ev_new));
    TRY(get(x, s, (size_t)(ne + 1) * I64, &c->ev_rank));
    TRY(step(x, c, VSG_ARR_EV_RUNS, ne));
    TRY(vsg_exec_scan_i64(x, c->ev_new, c->ev_rank, ne));
    TRY(get(x, s, (size_t)nc * I64, &c->seg_cnt));
    TRY(get(x, s, (size_t)(nc + 1) * I64, &c->seg_pc));
    TRY(step(x, c, VSG_ARR_SEG_PIECES, nc));
    TRY(vsg_scan_total(x, c->seg_cnt, c->seg_pc, nc, &c->n_pc));
    int64_t np = c->n_pc;
    TRY(get(x, s, (size_t)np * I64, &c->pc_k));
    TRY(get(x, s, (size_t)np * F64, &c->pc_x0));
    TRY(get(x, s, (size_t)np * F64, &c->pc_y0));
    TRY(get(x, s, (size_t)np * F64, &c->pc_x1));
    TRY(get(x, s, (size_t)np * F64, &c->pc_y1));
    TRY(get(x, s, (size_t)np * sizeof(uint32_t), &c->pc_flags));
    TRY(vsg_exec_memset(x, c->pc_flags, 0, (size_t)np * sizeof(uint32_t)));
    TRY(step(x, c, VSG_ARR_PIECE_FIRST, nc));
    TRY(step(x, c, VSG_ARR_PIECE_SPLIT, ne));
done:
    vsg_exec_stage_end(x, ne, c->n_pc);
    return st;
}

/* Every piece end at a node, read against the other members there. */
static vsg_status labels(vsg_exec *x, vsg_arr_ctx *c, vsg_scratch *s)
{
    vsg_status st;
    int64_t np = c->n_pc;
    vsg_exec_stage_begin(x, "arrange_labels");
    TRY(get(x, s, (size_t)2 * np * sizeof(uint64_t), &c->nd_all));
    TRY(get(x, s, (size_t)2 * np * I64, &c->nd_flag));
    TRY(get(x, s, (size_t)(2 * np + 1) * I64, &c->nd_off));
    TRY(get(x, s, (size_t)2 * np, &c->end_in));
    TRY(get(x, s, (size_t)2 * np, &c->end_lose));
    TRY(get(x, s, (size_t)2 * np * I64, &c->end_pos));
    TRY(get(x, s, (size_t)2 * np * I64, &c->end_mo));
    TRY(step(x, c, VSG_ARR_NODE_KEY, np));
    TRY(vsg_scan_total(x, c->nd_flag, c->nd_off, 2 * np, &c->n_nd));
    TRY(get(x, s, (size_t)c->n_nd * sizeof(uint64_t), &c->nd_key));
    TRY(get(x, s, (size_t)c->n_nd * I64, &c->nd_idx));
    TRY(step(x, c, VSG_ARR_NODE_PACK, 2 * np));
    TRY(vsg_exec_sort_u64_i64(x, c->nd_key, c->nd_idx, c->n_nd, VSG_NODE_KEY_BITS));
    TRY(get(x, s, (size_t)c->n_nd * I64, &c->nd_m));
    TRY(get(x, s, (size_t)c->n_nd * F64, &c->nd_vx));
    TRY(get(x, s, (size_t)c->n_nd * F64, &c->nd_vy));
    TRY(get(x, s, (size_t)c->n_nd * F64, &c->nd_dx));
    TRY(get(x, s, (size_t)c->n_nd * F64, &c->nd_dy));
    TRY(get(x, s, (size_t)c->n_nd, &c->nd_out));
    TRY(step(x, c, VSG_ARR_NODE_INFO, c->n_nd));
    TRY(step(x, c, VSG_ARR_NODE_LABEL, c->n_nd));
done:
    vsg_exec_stage_end(x, np, c->n_nd);
    return st;
}

/* The depth of every piece: the changes at nodes scanned along the
 * rings; each ring's first piece by a ray; the rings' checks. */
static vsg_status depth(vsg_exec *x, vsg_arr_ctx *c, vsg_scratch *s)
{
    vsg_status st;
    int64_t np = c->n_pc, nr = c->sd.v.n_rings;
    vsg_pairs rj;
    memset(&rj, 0, sizeof rj);
    vsg_exec_stage_begin(x, "arrange_depth");
    TRY(get(x, s, (size_t)np * I64, &c->delta));
    TRY(get(x, s, (size_t)(np + 1) * I64, &c->dscan));
    TRY(step(x, c, VSG_ARR_DELTA, np));
    TRY(vsg_exec_scan_i64(x, c->delta, c->dscan, np));
    TRY(get(x, s, (size_t)nr * I64, &c->ray_flag));
    TRY(get(x, s, (size_t)(nr + 1) * I64, &c->ray_off));
    TRY(get(x, s, (size_t)nr * I64, &c->anchor));
    TRY(step(x, c, VSG_ARR_RAY_FLAG, nr));
    TRY(vsg_scan_total(x, c->ray_flag, c->ray_off, nr, &c->n_ray));
    TRY(get(x, s, (size_t)c->n_ray * I64, &c->ray_ring));
    TRY(get(x, s, (size_t)c->n_ray * 4 * F64, &c->ray_box));
    TRY(step(x, c, VSG_ARR_RAY_FILL, nr));
    vsg_exec_stage_end(x, np, c->n_ray);
    TRY(vsg_stage_candidates_unsorted(x, c->ray_box, c->n_ray, c->sd.chunk_box, c->sd.n_chunks,
                                      &rj));
    vsg_exec_stage_begin(x, "arrange_depth");
    c->rj_a = rj.a;
    c->rj_b = rj.b;
    c->n_rj = rj.n;
    TRY(step(x, c, VSG_ARR_RAY_CROSS, rj.n));
    TRY(step(x, c, VSG_ARR_RING_SUM, nr));
done:
    vsg_exec_stage_end(x, rj.n, nr);
    pairs_free(x, &rj);
    c->rj_a = c->rj_b = NULL;
    c->n_rj = 0;
    return st;
}

/* The pieces of the unions' boundaries, into R. */
static vsg_status select_pieces(vsg_exec *x, vsg_arr_ctx *c, vsg_scratch *s)
{
    vsg_status st;
    int64_t np = c->n_pc, n = 0;
    vsg_exec_stage_begin(x, "arrange_select");
    TRY(get(x, s, (size_t)np * I64, &c->keep));
    TRY(get(x, s, (size_t)(np + 1) * I64, &c->keep_off));
    TRY(step(x, c, VSG_ARR_KEEP, np));
    TRY(vsg_scan_total(x, c->keep, c->keep_off, np, &n));
    TRY(vsg_union_boundary_alloc(x, s, &c->R, n));
    TRY(step(x, c, VSG_ARR_R_FILL, np));
done:
    vsg_exec_stage_end(x, np, n);
    return st;
}

vsg_status vsg_stage_overlap_union(vsg_exec *x, const vsg_col_view *in, const int64_t *group_of,
                                   int64_t n_groups, vsg_columnar *out, uint8_t *group_ok,
                                   uint32_t *why)
{
    vsg_arr_ctx c;
    vsg_ref_ctx r;
    vsg_scratch s, rs;   /* this stage's arrays; the sides' */
    vsg_status st;
    double *boxes = NULL;
    int64_t ng = in->n_geoms;
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
    TRY(vsg_ref_begin(x, &r, &rs, in, boxes, in, boxes, NULL, NULL, 0, NULL, 1));
    c.sd = r.side[0];
    c.kbits = vsg_bits_below(in->n_coords + 1);
    TRY(prepare(x, &c, &s));
    TRY(nodes(x, &c, &s));
    TRY(pieces(x, &c, &s));
    TRY(labels(x, &c, &s));
    TRY(depth(x, &c, &s));
    TRY(select_pieces(x, &c, &s));
    TRY(vsg_stage_union_boundary(x, &c.R, n_groups, NULL, out, group_ok, why));
done:
    vsg_scratch_free(x, &s);
    vsg_scratch_free(x, &rs);
    if (st != VSG_OK)
        vsg_columnar_free(out);
    return st;
}
