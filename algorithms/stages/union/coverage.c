/*
 * coverage.c - the coverage union stage (stages/stages.h): one
 * MultiPolygon per group of polygons that form a coverage, from the
 * members' boundary segments, on either backend. The logic and its proof
 * are in elements/union/coverage.h; this file sizes the arrays and runs
 * the steps in order:
 *
 *   coverage_segments  rings oriented exactly (interior on the left);
 *                      groups whose members' areas exceed their box
 *                      marked (they overlap); one key per segment of the
 *                      other groups, hashed; opposite equal segments
 *                      cancel; the rest (R) compacted in input order
 *   coverage_link      each segment of R linked to the next of its ring at
 *                      its end node (degree, sectors and the permutation
 *                      checked)
 *   candidates         the boxes of R's chunks (runs of consecutive
 *                      segments of one group; the CPU engine's backend:
 *                      of its segments) joined with themselves (in no
 *                      particular order: no sort)
 *   coverage_noding    segments of R meet only at shared endpoints
 *   coverage_rings     rings by pointer jumping over runs of consecutive
 *                      segments (labels, then ranks), written as columnar
 *                      rings; their orientation, box and test point
 *   candidates         test points joined with ring boxes
 *   coverage_nesting   point-in-ring parities over ring chunks; the
 *                      winding number outside each ring; holes to shells
 *   coverage_output    rings of good groups ordered (group, shell, holes)
 *                      and written as one MultiPolygon per group
 *
 * The validity screen (strict, one group per row) runs the same stages
 * shortened where a row's rings are its input's: every segment kept (none
 * cancels), each linked to the next of its input ring by R's order, the
 * noding failing any other contact at an endpoint, the rings labelled by
 * that order, rows of one ring left out of the nesting's join.
 *
 * A group that any check rejects is NULL in the output, group_ok[g] = 0
 * and why[g] says which check (VSG_COV_BAD_*): the caller unions it
 * another way. Every step is a launch of one dispatcher
 * (elements/union/coverage_steps.h); scalar reads size the allocations
 * and end the pointer-jumping loops (one per round).
 */
#include "stages/stages.h"
#include "stages/step.h"

#include <stdatomic.h>
#include <string.h>

#include "stages/union/boundary.h"
#include "elements/union/coverage_steps.h"

#ifdef VSGPU_HAVE_CUDA
#include "union/launch_coverage.h"
#endif

static vsg_status step(vsg_exec *x, const vsg_cov_ctx *c, int s, int64_t n)
{
    VSG_STEP_BODY(x, c->strict ? "valid_screen" : "coverage_union", s, n,
                  vsg_launch_cov_step(vsg_exec_gpu(x), c, s, n), vsg_cov_item(c, s, i));
}

/* The trace's name of a stage of the union, or of the validity screen
 * (strict) that runs its shortened steps. */
#define NAME(c, what) ((c)->strict ? "screen_" what : "coverage_" what)

/* scratch of the call, in s (stages/step.h) */
#define get(x, s, bytes, out) vsg_scratch_alloc((x), (s), (bytes), (void **)(out))

static int64_t blocks(int64_t n) { return (n + VSG_COV_BLOCK - 1) / VSG_COV_BLOCK; }

#define I64 sizeof(int64_t)
#define F64 sizeof(double)

/* Pointer jumping over R's runs until a round changes nothing (s: the
 * round step). The first JUMP_EARLY rounds are not checked: their scalar
 * reads (each a wait for the device) cost more than rounds over the runs,
 * and a round after convergence changes nothing. */
enum { JUMP_EARLY = 3 };

static vsg_status jump(vsg_exec *x, vsg_cov_ctx *c, int s, int64_t **a, int64_t **a2)
{
    vsg_status st;
    for (int r = 1;; r++) {
        int64_t changed = 1;
        TRY(vsg_exec_memset(x, c->changed, 0, I64));
        TRY(step(x, c, s, c->n_runs));
        int64_t *t = *a; *a = *a2; *a2 = t;
        t = c->nx; c->nx = c->nx2; c->nx2 = t;
        if (r > JUMP_EARLY)
            TRY(vsg_exec_read_i64(x, c->changed, &changed));
        if (!changed)
            break;
    }
done:
    return st;
}

/* R's node keys sorted, and each segment's positions in them. */
static vsg_status r_keys(vsg_exec *x, vsg_cov_ctx *c)
{
    vsg_cov_r *R = &c->R;
    vsg_status st = vsg_exec_sort_u64_i64(x, R->skey, R->sidx, R->n, 64);
    if (st == VSG_OK)
        st = vsg_exec_sort_u64_i64(x, R->ekey, R->eidx, R->n, 64);
    return st == VSG_OK ? step(x, c, VSG_COV_R_POS, R->n) : st;
}

/* The segments' hash table (coverage.h, step 2): two slots a segment,
 * empty. */
static vsg_status table(vsg_exec *x, vsg_cov_ctx *c, vsg_scratch *s, int64_t nc)
{
    vsg_status st;
    vsg_cov_table *t = &c->table;
    if (nc >= VSG_COV_SLOT_MAX_COORDS)
        return VSG_ERR_INVALID_ARG;   /* a slot's 32-bit segments would not fit (1 TB of arrays) */
    t->cap = 2 * nc + 1;
    TRY(get(x, s, (size_t)t->cap * sizeof(vsg_cov_slot), &t->slot));
    TRY(vsg_exec_memset(x, t->slot, 0xff, (size_t)t->cap * sizeof(vsg_cov_slot)));   /* empty */
done:
    return st;
}

/* R's arrays for n segments; with keys, its node keys' too (the union
 * links by them; the validity screen by ring order). */
static vsg_status boundary_alloc(vsg_exec *x, vsg_scratch *s, vsg_cov_r *R, int64_t n, int keys)
{
    vsg_status st = VSG_OK;
    memset(R, 0, sizeof *R);
    R->n = n;
    TRY(get(x, s, (size_t)n * I64, &R->group));
    TRY(get(x, s, (size_t)n * F64, &R->ax));
    TRY(get(x, s, (size_t)n * F64, &R->ay));
    TRY(get(x, s, (size_t)n * F64, &R->bx));
    TRY(get(x, s, (size_t)n * F64, &R->by));
    if (!keys)
        return st;
    TRY(get(x, s, (size_t)n * sizeof(uint64_t), &R->skey));
    TRY(get(x, s, (size_t)n * sizeof(uint64_t), &R->ekey));
    TRY(get(x, s, (size_t)n * I64, &R->sidx));
    TRY(get(x, s, (size_t)n * I64, &R->eidx));
    TRY(get(x, s, (size_t)n * I64, &R->spos));
    TRY(get(x, s, (size_t)n * I64, &R->epos));
    TRY(get(x, s, (size_t)n, &R->smany));
    TRY(get(x, s, (size_t)n, &R->emany));
done:
    return st;
}

/* Whether the union marks the groups whose members' areas exceed their
 * box before the table (vsg_stage_coverage_set_area_test). */
static _Atomic int g_area_test = 1;

void vsg_stage_coverage_set_area_test(int on)
{
    atomic_store(&g_area_test, on != 0);
}

/* Groups whose members certainly overlap, marked (coverage.h, step 1b). */
static vsg_status overlapping(vsg_exec *x, vsg_cov_ctx *c, vsg_scratch *s)
{
    vsg_status st;
    int64_t G = c->n_groups;
    TRY(get(x, s, (size_t)G * F64, &c->g_area));
    TRY(get(x, s, (size_t)G * 4 * sizeof(uint64_t), &c->g_box));
    TRY(step(x, c, VSG_COV_AREA_INIT, G));
    TRY(step(x, c, VSG_COV_AREA_SUM, blocks(c->v.n_coords)));
    TRY(step(x, c, VSG_COV_AREA_TEST, G));
done:
    return st;
}

static vsg_status segments(vsg_exec *x, vsg_cov_ctx *c, vsg_scratch *s)
{
    vsg_status st;
    const vsg_col_view *v = &c->v;
    int64_t nc = v->n_coords, nr = v->n_rings, n = 0;
    vsg_cov_r *R = &c->R;
    vsg_exec_stage_begin(x, NAME(c, "segments"));
    TRY(vsg_exec_memset(x, c->bad, 0, (size_t)c->n_groups * sizeof(uint32_t)));
    TRY(get(x, s, (size_t)nc * I64, &c->coord_ring));
    TRY(get(x, s, (size_t)nr * I64, &c->ring_geom));
    TRY(get(x, s, (size_t)nr, &c->ring_shell));
    TRY(get(x, s, (size_t)nr * 3 * sizeof(uint64_t), &c->ring_min));
    TRY(get(x, s, (size_t)nr, &c->dir));
    if (c->strict)   /* filled by the ring init: the screen's own-shell check */
        TRY(get(x, s, (size_t)nr * I64, &c->ring_part));
    TRY(step(x, c, VSG_COV_GEOM_CHECK, v->n_geoms));
    TRY(step(x, c, VSG_COV_RING_INIT, nr));
    TRY(step(x, c, VSG_COV_COORD_RING, blocks(nc)));
    TRY(step(x, c, VSG_COV_MIN_Y, nc));
    TRY(step(x, c, VSG_COV_MIN_X, nc));
    TRY(step(x, c, VSG_COV_MIN_I, nc));
    TRY(step(x, c, VSG_COV_RING_DIR, nr));
    if (!c->strict && atomic_load(&g_area_test))
        TRY(overlapping(x, c, s));

    TRY(get(x, s, (size_t)nc * I64, &c->keep));
    TRY(get(x, s, (size_t)(nc + 1) * I64, &c->keep_off));
    if (c->strict) {   /* the screen: nothing cancels (coverage.h, vsg_cov_noding) */
        TRY(step(x, c, VSG_COV_SEG_KEEP, nc));
    } else {
        TRY(get(x, s, (size_t)nc * I64, &c->slot_of));
        TRY(table(x, c, s, nc));
        TRY(step(x, c, VSG_COV_TABLE_INSERT, nc));
        TRY(vsg_exec_memset(x, c->keep, 0, (size_t)nc * I64));
        TRY(step(x, c, VSG_COV_CANCEL, nc));
    }
    TRY(vsg_exec_scan_i64(x, c->keep, c->keep_off, nc));
    TRY(vsg_exec_read_i64(x, c->keep_off + nc, &n));

    TRY(boundary_alloc(x, s, R, n, !c->strict));
    if (c->strict) {
        TRY(get(x, s, (size_t)n * I64, &c->r_part));
        TRY(get(x, s, (size_t)n * I64, &c->r_ring));
    }
    TRY(step(x, c, VSG_COV_R_FILL, nc));
    /* the screen links each segment to the next of its input ring
     * (vsg_cov_link_ring): no node keys to sort */
    if (!c->strict)
        TRY(r_keys(x, c));
done:
    vsg_exec_stage_end(x, nc, n);
    return st;
}

/* The noding's pairs: R's chunks (coverage.h, step 4), their boxes joined
 * with themselves, each pair of one group once. */
static vsg_status chunk_pairs(vsg_exec *x, vsg_cov_ctx *c, vsg_scratch *s, vsg_pairs *p)
{
    vsg_status st;
    int64_t n = c->R.n;
    TRY(get(x, s, (size_t)n * I64, &c->c_head));
    TRY(get(x, s, (size_t)(n + 1) * I64, &c->c_off));
    TRY(step(x, c, VSG_COV_CHUNK_HEAD, n));
    TRY(vsg_scan_total(x, c->c_head, c->c_off, n, &c->n_chunks));
    TRY(get(x, s, (size_t)(c->n_chunks + 1) * I64, &c->c_start));
    TRY(get(x, s, (size_t)c->n_chunks * 4 * F64, &c->c_box));
    TRY(get(x, s, (size_t)c->n_chunks * I64, &c->c_group));
    TRY(step(x, c, VSG_COV_CHUNK_START, n));
    TRY(step(x, c, VSG_COV_CHUNK_BOX, c->n_chunks));
    TRY(vsg_stage_candidates_grouped(x, c->c_box, c->c_group, c->n_chunks, 1, 0, p));
done:
    return st;
}

/* The noding (coverage.h, step 4): every pair of R's segments of one
 * group whose boxes meet, each once (i < j), in no order (each is tested
 * alone, and only marks its group). The chunks' join takes pairs of one
 * group only: neighbours of two groups share their boundaries, so most
 * pairs whose boxes meet are of two groups, and none of them is wanted.
 * The pairs of a chunk pair are tested by one item per segment of its
 * first chunk on the device, by one item per chunk pair on the CPU
 * engine's own backend (each chunk's boxes taken once: a core pays per
 * item what a device does not); likewise the pairs inside a chunk. R's
 * segments come in runs, so most segments' boxes meet the next one's:
 * those pairs (i, i + 1), met or not, are tested by one item each, not
 * found by the join. (The CPU engine joined R's segment boxes until
 * rings of 15,000 segments, the NYC boroughs', made that join 0.2 s of
 * a 0.7 s union: docs/benchmarks.md.) */
static vsg_status noding(vsg_exec *x, vsg_cov_ctx *c, vsg_scratch *s)
{
    vsg_status st;
    int64_t n = c->R.n;
    vsg_pairs p;
    memset(&p, 0, sizeof p);
    if (c->any_rounded) {   /* every group noded by construction: nothing to prove */
        int64_t any = 1;
        TRY(vsg_exec_read_i64(x, c->any_rounded, &any));
        if (!any)
            return VSG_OK;
    }
    TRY(chunk_pairs(x, c, s, &p));
    vsg_exec_stage_begin(x, NAME(c, "noding"));
    c->pa = p.a;
    c->pb = p.b;
    c->n_pairs = p.n;
    const int host = vsg_exec_host_plain(x);
    st = host ? step(x, c, VSG_COV_NODING_PAIRS, p.n)
              : step(x, c, VSG_COV_NODING_CHUNKS, p.n * VSG_COV_CHUNK);
    if (st == VSG_OK)
        st = host ? step(x, c, VSG_COV_NODING_SELF_CHUNKS, c->n_chunks)
                  : step(x, c, VSG_COV_NODING_SELF, n);
    if (st == VSG_OK && n > 1)
        st = step(x, c, VSG_COV_NODING_NEXT, n - 1);
    vsg_exec_stage_end(x, p.n + n, p.n);
done:
    vsg_exec_free(x, p.a);
    vsg_exec_free(x, p.b);
    c->pa = c->pb = NULL;
    c->n_pairs = 0;
    return st;
}

static vsg_status link_and_node(vsg_exec *x, vsg_cov_ctx *c, vsg_scratch *s)
{
    vsg_status st;
    int64_t n = c->R.n;
    vsg_exec_stage_begin(x, NAME(c, "link"));
    TRY(get(x, s, (size_t)n * I64, &c->next));
    TRY(get(x, s, (size_t)n * sizeof(int32_t), &c->deg_end));
    TRY(get(x, s, (size_t)n * sizeof(int32_t), &c->deg_start));
    TRY(get(x, s, (size_t)n * sizeof(uint32_t), &c->preds));
    TRY(vsg_exec_memset(x, c->preds, 0, (size_t)n * sizeof(uint32_t)));
    TRY(vsg_exec_memset(x, c->deg_start, 0, (size_t)n * sizeof(int32_t)));
    TRY(step(x, c, c->strict ? VSG_COV_LINK_RING : VSG_COV_LINK, n));
    TRY(step(x, c, VSG_COV_PRED_COUNT, n));
    /* the screen's ring-order links are a permutation of each ring by
     * construction (a link that fails marks its row), so only the union's
     * need the check */
    if (!c->strict)
        TRY(step(x, c, VSG_COV_PRED_CHECK, n));
    vsg_exec_stage_end(x, n, n);
    st = noding(x, c, s);
done:
    return st;
}

/* R's runs of consecutive linked segments (coverage.h, step 5): their
 * heads, each run's head and successor, and the rounds' arrays, sized by
 * the runs. */
static vsg_status runs(vsg_exec *x, vsg_cov_ctx *c, vsg_scratch *s)
{
    vsg_status st;
    int64_t n = c->R.n, h = 0;
    TRY(step(x, c, VSG_COV_RUN_HEAD, n));
    TRY(vsg_scan_total(x, c->is_head, c->run_off, n, &h));
    c->n_runs = h;
    TRY(get(x, s, (size_t)(h + 1) * I64, &c->run_head));
    TRY(get(x, s, (size_t)h * I64, &c->cnext));
    TRY(get(x, s, (size_t)h * I64, &c->rlab));
    TRY(get(x, s, (size_t)h * I64, &c->rlab2));
    TRY(get(x, s, (size_t)h * I64, &c->rdist));
    TRY(get(x, s, (size_t)h * I64, &c->rdist2));
    TRY(get(x, s, (size_t)h * I64, &c->nx));
    TRY(get(x, s, (size_t)h * I64, &c->nx2));
    TRY(step(x, c, VSG_COV_RUN_INIT, n));
    TRY(step(x, c, VSG_COV_RUN_LINK, h));
done:
    return st;
}

/* lab: each segment's leader, by jumping over the runs. */
static vsg_status label(vsg_exec *x, vsg_cov_ctx *c, vsg_scratch *s)
{
    vsg_status st;
    TRY(runs(x, c, s));
    TRY(jump(x, c, VSG_COV_LABEL_ROUND, &c->rlab, &c->rlab2));
    TRY(step(x, c, VSG_COV_LABEL_EXPAND, c->R.n));
done:
    return st;
}

/* lab and dist of R's cycles of next, by pointer jumping over runs. */
static vsg_status cycles(vsg_exec *x, vsg_cov_ctx *c, vsg_scratch *s)
{
    vsg_status st;
    int64_t n = c->R.n;
    TRY(get(x, s, (size_t)n * I64, &c->is_head));
    TRY(get(x, s, (size_t)(n + 1) * I64, &c->run_off));
    TRY(get(x, s, I64, &c->changed));
    TRY(label(x, c, s));
    /* rings that touch themselves are split into minimal rings, then
     * labelled again (their runs change); what still touches itself is
     * handed back */
    int64_t split = 0;
    TRY(vsg_exec_memset(x, c->changed, 0, I64));
    TRY(step(x, c, VSG_COV_SELF_SPLIT, n));
    TRY(vsg_exec_read_i64(x, c->changed, &split));
    if (split)
        TRY(label(x, c, s));
    TRY(step(x, c, VSG_COV_SELF_TOUCH, n));
    TRY(step(x, c, VSG_COV_CUT, c->n_runs));
    TRY(jump(x, c, VSG_COV_RANK_ROUND, &c->rdist, &c->rdist2));
    TRY(step(x, c, VSG_COV_DIST_EXPAND, n));
done:
    return st;
}

static vsg_status rings(vsg_exec *x, vsg_cov_ctx *c, vsg_scratch *s)
{
    vsg_status st;
    int64_t n = c->R.n, nq = 0, nk = 0;
    vsg_exec_stage_begin(x, NAME(c, "rings"));
    TRY(get(x, s, (size_t)n * I64, &c->lab));
    TRY(get(x, s, (size_t)n * I64, &c->dist));
    if (c->strict) {   /* the screen: its rings are its input's */
        TRY(step(x, c, VSG_COV_RING_ORDER, n));
    } else {
        TRY(cycles(x, c, s));
    }

    TRY(get(x, s, (size_t)n * I64, &c->is_leader));
    TRY(get(x, s, (size_t)(n + 1) * I64, &c->leader_off));
    TRY(step(x, c, VSG_COV_LEADER, n));
    TRY(vsg_exec_scan_i64(x, c->is_leader, c->leader_off, n));
    TRY(vsg_exec_read_i64(x, c->leader_off + n, &nq));
    c->n_orings = nq;
    TRY(get(x, s, (size_t)nq * I64, &c->o_len));
    TRY(get(x, s, (size_t)nq * I64, &c->o_group));
    TRY(get(x, s, (size_t)(nq + 1) * I64, &c->o_ring_coord));
    if (c->strict)
        TRY(get(x, s, (size_t)nq * I64, &c->o_part));
    TRY(step(x, c, VSG_COV_RING_LEN, n));
    TRY(vsg_exec_scan_i64(x, c->o_len, c->o_ring_coord, nq));
    TRY(vsg_exec_read_i64(x, c->o_ring_coord + nq, &nk));
    c->n_ocoords = nk;

    TRY(get(x, s, (size_t)nk * sizeof(double), &c->ox));
    TRY(get(x, s, (size_t)nk * sizeof(double), &c->oy));
    TRY(get(x, s, (size_t)nk * I64, &c->o_coord_ring));
    TRY(get(x, s, (size_t)nq * sizeof(uint64_t), &c->tp));
    TRY(get(x, s, (size_t)nq * 3 * sizeof(uint64_t), &c->o_min));
    TRY(get(x, s, (size_t)nq * 4 * sizeof(uint64_t), &c->o_ord));
    TRY(vsg_exec_memset(x, c->ox, 0, (size_t)nk * sizeof(double)));
    TRY(vsg_exec_memset(x, c->oy, 0, (size_t)nk * sizeof(double)));
    TRY(vsg_exec_memset(x, c->o_coord_ring, 0xff, (size_t)nk * I64));   /* -1 */
    TRY(step(x, c, VSG_COV_O_INIT, nq));
    TRY(step(x, c, VSG_COV_RING_FILL, n));
    TRY(step(x, c, VSG_COV_O_MIN_Y, nk));
    TRY(step(x, c, VSG_COV_O_MIN_X, nk));
    TRY(step(x, c, VSG_COV_O_MIN_I, nk));
    TRY(step(x, c, VSG_COV_O_BOX, nk));

    TRY(get(x, s, (size_t)nq, &c->sign));
    TRY(get(x, s, (size_t)nq * 4 * sizeof(double), &c->tp_box));
    TRY(get(x, s, (size_t)nq * 4 * sizeof(double), &c->o_box));
    TRY(get(x, s, (size_t)nq * I64, &c->depth));
    TRY(get(x, s, (size_t)nq * I64, &c->wind));
    TRY(get(x, s, (size_t)nq * sizeof(uint64_t), &c->parent));
    TRY(step(x, c, VSG_COV_O_RING, nq));
done:
    vsg_exec_stage_end(x, n, nq);
    return st;
}

static vsg_status nesting(vsg_exec *x, vsg_cov_ctx *c, vsg_scratch *s)
{
    vsg_status st;
    int64_t nq = c->n_orings, items = 0;
    vsg_pairs p;
    memset(&p, 0, sizeof p);
    TRY(vsg_stage_candidates(x, c->tp_box, nq, c->o_box, nq, &p));
    vsg_exec_stage_begin(x, NAME(c, "nesting"));
    c->pa = p.a;
    c->pb = p.b;
    c->n_pairs = p.n;
    TRY(get(x, s, (size_t)p.n * sizeof(uint32_t), &c->parity));
    if (vsg_exec_host_plain(x)) {   /* one core: a pair's ring at once */
        TRY(step(x, c, VSG_COV_PIP_PAIRS, p.n));
        items = p.n;
    } else {                        /* the device: a chunk per item */
        TRY(get(x, s, (size_t)p.n * I64, &c->item_cnt));
        TRY(get(x, s, (size_t)(p.n + 1) * I64, &c->item_off));
        TRY(step(x, c, VSG_COV_PIP_ITEMS, p.n));
        TRY(vsg_exec_scan_i64(x, c->item_cnt, c->item_off, p.n));
        TRY(vsg_exec_read_i64(x, c->item_off + p.n, &items));
        TRY(step(x, c, VSG_COV_PIP, items));
    }
    TRY(step(x, c, VSG_COV_WIND, p.n));
    TRY(step(x, c, VSG_COV_WIND_CHECK, nq));
    TRY(step(x, c, VSG_COV_PARENT, p.n));
    vsg_exec_stage_end(x, p.n, items);
done:
    vsg_exec_free(x, p.a);
    vsg_exec_free(x, p.b);
    c->pa = c->pb = NULL;
    c->n_pairs = 0;
    return st;
}

static vsg_status output(vsg_exec *x, vsg_cov_ctx *c, vsg_scratch *s, vsg_columnar *out)
{
    vsg_status st;
    int64_t nq = c->n_orings, no = 0, n_parts = 0, n_coords = 0, G = c->n_groups;
    int64_t *shell_off = NULL, *ring_coord = NULL;
    vsg_exec_stage_begin(x, "coverage_output");
    TRY(get(x, s, (size_t)nq * I64, &c->o_keep));
    TRY(get(x, s, (size_t)(nq + 1) * I64, &c->o_keep_off));
    TRY(step(x, c, VSG_COV_RING_KEEP, nq));
    TRY(vsg_exec_scan_i64(x, c->o_keep, c->o_keep_off, nq));
    TRY(vsg_exec_read_i64(x, c->o_keep_off + nq, &no));
    c->n_order = no;
    TRY(get(x, s, (size_t)no * I64, &c->order));
    TRY(get(x, s, (size_t)no * sizeof(uint64_t), &c->okey));
    TRY(get(x, s, (size_t)nq * I64, &c->at_out));
    TRY(step(x, c, VSG_COV_ORDER_INIT, nq));
    /* stable sorts, least significant key first: hole flag, shell, group */
    const int key_bits[3] = {1, vsg_bits_below(nq), vsg_bits_below(G)};
    for (c->pass = 0; c->pass < 3; c->pass++) {
        TRY(step(x, c, VSG_COV_ORDER_KEY, no));
        TRY(vsg_exec_sort_u64_i64(x, c->okey, c->order, no, key_bits[c->pass]));
    }
    TRY(step(x, c, VSG_COV_AT_OUT, no));

    TRY(get(x, s, (size_t)G * I64, &c->geom_parts));
    TRY(get(x, s, (size_t)no * I64, &c->is_shell));
    TRY(get(x, s, (size_t)no * I64, &c->len));
    TRY(get(x, s, (size_t)(no + 1) * I64, &shell_off));
    TRY(get(x, s, (size_t)(no + 1) * I64, &ring_coord));
    TRY(vsg_exec_memset(x, c->geom_parts, 0, (size_t)G * I64));
    TRY(step(x, c, VSG_COV_OUT_COUNTS, no));
    TRY(vsg_exec_scan_i64(x, c->is_shell, shell_off, no));
    TRY(vsg_exec_scan_i64(x, c->len, ring_coord, no));
    TRY(vsg_exec_read_i64(x, shell_off + no, &n_parts));
    TRY(vsg_exec_read_i64(x, ring_coord + no, &n_coords));
    c->shell_off = shell_off;

    TRY(vsg_columnar_alloc(x, out, G, n_parts, no, n_coords, 0));
    TRY(vsg_exec_scan_i64(x, c->geom_parts, out->geom_part, G));
    TRY(vsg_exec_copy(x, out->ring_coord, ring_coord, (size_t)(no + 1) * I64));
    /* part_ring[n_parts] = no: the scan of is_shell ends with n_parts, and
     * each shell's position is where its part starts */
    TRY(vsg_exec_memset(x, out->part_ring, 0, (size_t)(n_parts + 1) * I64));
    c->type = out->type;
    c->flags = out->flags;
    c->part_ring = out->part_ring;
    c->ring_coord = out->ring_coord;
    c->x = out->x;
    c->y = out->y;
    TRY(step(x, c, VSG_COV_OUT_GEOM, G));
    TRY(step(x, c, VSG_COV_OUT_PARTS, no));
    if (n_parts > 0)   /* the closing offset: the last ring's end */
        TRY(vsg_exec_copy(x, out->part_ring + n_parts, c->o_keep_off + nq, I64));
    TRY(step(x, c, VSG_COV_OUT_COORDS, blocks(c->n_ocoords)));
done:
    vsg_exec_stage_end(x, nq, no);
    return st;
}

/* The stage from the input members (R unknown: have_r = 0) or from a
 * boundary R the caller filled (the overlay refine, boundary.h). */
static vsg_status run(vsg_exec *x, vsg_cov_ctx *c, int have_r, vsg_columnar *out)
{
    vsg_scratch s;
    memset(&s, 0, sizeof s);
    vsg_columnar_init(out);
    vsg_status st;
    if (have_r) {
        vsg_exec_stage_begin(x, "boundary_keys");
        st = r_keys(x, c);
        vsg_exec_stage_end(x, c->R.n, c->R.n);
    } else {
        st = segments(x, c, &s);
    }
    if (st == VSG_OK)
        st = link_and_node(x, c, &s);
    if (st == VSG_OK)
        st = rings(x, c, &s);
    if (st == VSG_OK)
        st = nesting(x, c, &s);
    if (st == VSG_OK && c->strict)
        st = step(x, c, VSG_COV_HOLE_OWN, c->n_orings);
    else if (st == VSG_OK)
        st = output(x, c, &s, out);
    vsg_scratch_free(x, &s);
    if (st != VSG_OK)
        vsg_columnar_free(out);
    return st;
}

vsg_status vsg_union_boundary_alloc(vsg_exec *x, vsg_scratch *s, vsg_cov_r *R, int64_t n)
{
    return boundary_alloc(x, s, R, n, 1);
}

vsg_status vsg_stage_union_boundary(vsg_exec *x, const vsg_cov_r *R, int64_t n_groups,
                                    const vsg_union_noded *noded, vsg_columnar *out,
                                    uint8_t *group_ok, uint32_t *why)
{
    vsg_cov_ctx c;
    memset(&c, 0, sizeof c);
    c.R = *R;
    if (noded) {
        c.rounded = noded->rounded;
        c.any_rounded = noded->any;
    }
    c.n_groups = n_groups;
    c.bad = why;
    c.ok = group_ok;
    return run(x, &c, 1, out);
}

vsg_status vsg_stage_coverage_union(vsg_exec *x, const vsg_col_view *in, const int64_t *group_of,
                                    int64_t n_groups, vsg_columnar *out, uint8_t *group_ok,
                                    uint32_t *why)
{
    vsg_cov_ctx c;
    memset(&c, 0, sizeof c);
    c.v = *in;
    c.group_of = group_of;
    c.n_groups = n_groups;
    c.bad = why;
    c.ok = group_ok;
    return run(x, &c, 0, out);
}

/* The coverage union's proof with one group per row and nothing
 * cancelled: what it accepts is a set of simple rings, no two of them
 * sharing a point, each hole inside its own shell and no shell inside
 * another's interior, which is what GEOS's IsValid asks of a polygon
 * (docs/robustness.md, the validity screen). */
vsg_status vsg_stage_valid_screen(vsg_exec *x, const vsg_col_view *in, uint32_t *why)
{
    vsg_cov_ctx c;
    memset(&c, 0, sizeof c);
    vsg_status st;
    int64_t n = in->n_geoms;
    vsg_columnar none;
    c.v = *in;
    c.n_groups = n;
    c.bad = why;
    c.strict = 1;
    TRY(vsg_exec_alloc(x, (size_t)(n ? n : 1) * I64, (void **)&c.iota));
    TRY(step(x, &c, VSG_COV_IOTA, n));
    c.group_of = c.iota;
    st = run(x, &c, 0, &none);
done:
    vsg_exec_free(x, c.iota);
    return st;
}
