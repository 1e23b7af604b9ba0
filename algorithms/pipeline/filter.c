/*
 * filter.c - see filter.h.
 *
 *   to_columnar   the batch's WKB -> columnar (host); rows the CPU read
 *                 repaired as their repair (geometry/repaired_wkb.h)
 *   h2d           one upload of the batch (the method layer and its boxes
 *                 stay on the device, pipeline/resident.h)
 *   bounds, candidates, classify      on the backend, no sync between them
 *   d2h           pairs and classes, one sync
 *   lists         CSR lists for the refine; pairs whose geometry the CPU
 *                 read dropped are filtered
 */
#include "pipeline/filter.h"

#include "core/fault.h"

#include <stdlib.h>
#include <string.h>

#include "pipeline/state.h"
#include "geometry/repaired_wkb.h"
#include "overlay/candidates.h"
#include "elements/box.h"
#include "elements/filter/classify.h"
#include "elements/union/coverage.h"   /* VSG_COV_BAD_EMPTY */
#include "stages/stages.h"
#include "stages/step.h"


typedef struct {
    vsg_columnar host, dev;
    int gathered;           /* dev gathered from the screen's decode (no host set) */
    uint8_t *gflags;        /* then: dev's flags, copied down (host)       */
    const uint8_t *flags;   /* the rows' flags on the host: host's, or gflags */
    double *boxes;
    vsg_pairs pairs;
    uint8_t *cls;
    int64_t *pa, *pb;       /* host copies */
    uint8_t *hcls;
    /* the GPU refine of the REFINE pairs (intersection, when asked) */
    int refine;
    int64_t n_ref;
    int64_t *ref_of;        /* pair -> refine position, or -1 (host)     */
    int64_t *ref_a, *ref_b; /* host, then device                         */
    int64_t *dref_a, *dref_b;
    uint8_t *ref_ok, *dref_ok;
    uint8_t *ref_flags;     /* clip: the results' flags (host)           */
    uint32_t *ref_why, *dref_why;
    vsg_columnar ref_dev, ref_out;
    vsg_chunks_shared chunks;   /* classify's chunk tables and join, for the refine */
    /* clip: the refined pieces of each row unioned on the backend (rows
     * with a pair inside a method, A_IN_B, are the input itself: none) */
    int clip;
    uint8_t *covered;              /* n rows (host)                        */
    int64_t *dgrp;                 /* refine position -> row, or -1        */
    uint8_t *row_ok, *drow_ok;     /* n rows                               */
    uint32_t *row_why, *drow_why;
    vsg_columnar clip_dev, clip_out;
} filter_run;

static void run_free(vsg_exec *x, filter_run *r)
{
    free(r->gflags);
    vsg_columnar_free(&r->host);
    vsg_columnar_free(&r->dev);
    vsg_columnar_free(&r->ref_dev);
    vsg_columnar_free(&r->ref_out);
    free(r->ref_of);
    free(r->ref_a);
    free(r->ref_b);
    free(r->ref_ok);
    free(r->ref_why);
    free(r->ref_flags);
    free(r->covered);
    free(r->row_ok);
    free(r->row_why);
    vsg_columnar_free(&r->clip_dev);
    vsg_columnar_free(&r->clip_out);
    if (x) {
        vsg_exec_free(x, r->dgrp);
        vsg_exec_free(x, r->drow_ok);
        vsg_exec_free(x, r->drow_why);
        vsg_exec_free(x, r->dref_a);
        vsg_exec_free(x, r->dref_b);
        vsg_exec_free(x, r->dref_ok);
        vsg_exec_free(x, r->dref_why);
        vsg_exec_free(x, r->boxes);
        vsg_exec_free(x, r->pairs.a);
        vsg_exec_free(x, r->pairs.b);
        vsg_exec_free(x, r->cls);
        vsg_chunks_shared_free(x, &r->chunks);
    }
    free(r->pa);
    free(r->pb);
    free(r->hcls);
}

/* Whether the refine takes pair q: intersection, the pairs the classes
 * leave undecided; clip, also the method polygons inside the input, of
 * the rows no method covers (their union is the clip). */
static int refine_takes(const filter_run *r, size_t q)
{
    uint8_t c = r->hcls[q];
    if (!r->clip)
        return c == VSG_CLS_REFINE;
    return !r->covered[r->pa[q]] && (c == VSG_CLS_REFINE || c == VSG_CLS_B_IN_A);
}

/* The row of one piece (one[i], a refine position; -1: none or several):
 * the settled pieces with a polygonal part (the results' flags came down
 * with their verdicts), of rows with no pair handed back. Returns how many
 * rows have one. */
static int64_t single_pieces(const filter_run *r, int64_t n_rows, const uint8_t *bad,
                             int64_t *one)
{
    int64_t n_one = 0;
    for (int64_t i = 0; i < n_rows; i++)
        one[i] = -1;
    for (int64_t t = 0; t < r->n_ref; t++) {
        int64_t i = r->ref_a[t];
        if (r->ref_ok[t] == 1 && !(r->ref_flags[t] & VSG_GF_EMPTY) && !bad[i])
            one[i] = one[i] == -1 ? t : -2;
    }
    for (int64_t i = 0; i < n_rows; i++) {
        one[i] = one[i] < 0 ? -1 : one[i];
        n_one += one[i] >= 0;
    }
    return n_one;
}

/* The union's output with each row of one piece replaced by its piece
 * (columnar_gather: source 0 the union's, source 1 the refine's). */
static vsg_status take_single_pieces(vsg_exec *x, filter_run *r, int64_t n_rows,
                                     const int64_t *one)
{
    vsg_status st;
    int32_t *gs = vsg_malloc((size_t)(n_rows ? n_rows : 1) * sizeof *gs), *dgs = NULL;
    int64_t *gr = vsg_malloc((size_t)(n_rows ? n_rows : 1) * sizeof *gr), *dgr = NULL;
    vsg_columnar merged;
    vsg_columnar_init(&merged);
    if (!gs || !gr) {
        st = VSG_ERR_NOMEM;
        goto done;
    }
    for (int64_t i = 0; i < n_rows; i++) {
        gs[i] = one[i] >= 0;
        gr[i] = one[i] >= 0 ? one[i] : i;
    }
    TRY(vsg_exec_alloc(x, (size_t)n_rows * sizeof *gs, (void **)&dgs));
    TRY(vsg_exec_alloc(x, (size_t)n_rows * sizeof *gr, (void **)&dgr));
    TRY(vsg_exec_upload(x, dgs, gs, (size_t)n_rows * sizeof *gs));
    TRY(vsg_exec_upload(x, dgr, gr, (size_t)n_rows * sizeof *gr));
    vsg_col_view src[2] = {vsg_columnar_view(&r->clip_dev), vsg_columnar_view(&r->ref_dev)};
    TRY(vsg_stage_columnar_gather(x, src, 2, dgs, dgr, n_rows, &merged));
    vsg_columnar_free(&r->clip_dev);
    r->clip_dev = merged;
    vsg_columnar_init(&merged);
done:
    vsg_columnar_free(&merged);
    vsg_exec_free(x, dgs);
    vsg_exec_free(x, dgr);
    free(gs);
    free(gr);
    return st;
}

/* Clip: the union of each row's refined pieces (the coverage union, by
 * row), for the rows whose every piece the refine settled; a row with a
 * pair handed back goes to GEOS whole. The pieces of a row from method
 * polygons that share edges meet at bit-equal nodes (elements/overlay/
 * refine.h), so a coverage of methods gives a coverage of pieces. A row
 * of one piece (a county inside its state, the most of a clip by a
 * coarser layer) is that piece, a valid MultiPolygon the refine built:
 * it skips the union and is gathered into its output. */
static vsg_status clip_union(vsg_exec *x, filter_run *r, int64_t n_rows)
{
    vsg_status st = VSG_OK;
    int64_t m = r->n_ref, n_one = 0;
    int64_t *grp = vsg_malloc((size_t)(m ? m : 1) * sizeof *grp);
    int64_t *one = vsg_malloc((size_t)(n_rows ? n_rows : 1) * sizeof *one);
    uint8_t *bad = vsg_calloc((size_t)(n_rows ? n_rows : 1), 1);
    r->row_ok = vsg_calloc((size_t)(n_rows ? n_rows : 1), 1);
    r->row_why = vsg_calloc((size_t)(n_rows ? n_rows : 1), sizeof *r->row_why);
    if (!grp || !one || !bad || !r->row_ok || !r->row_why) {
        st = VSG_ERR_NOMEM;
        goto done;
    }
    for (int64_t t = 0; t < m; t++)
        if (!r->ref_ok[t])
            bad[r->ref_a[t]] = 1;
    n_one = single_pieces(r, n_rows, bad, one);
    for (int64_t t = 0; t < m; t++) {
        int64_t i = r->ref_a[t];
        grp[t] = bad[i] || one[i] >= 0 ? -1 : i;
    }
    TRY(vsg_exec_alloc(x, (size_t)(m ? m : 1) * sizeof(int64_t), (void **)&r->dgrp));
    TRY(vsg_exec_alloc(x, (size_t)n_rows, (void **)&r->drow_ok));
    TRY(vsg_exec_alloc(x, (size_t)n_rows * sizeof(uint32_t), (void **)&r->drow_why));
    TRY(vsg_exec_upload(x, r->dgrp, grp, (size_t)m * sizeof(int64_t)));
    vsg_col_view pieces = vsg_columnar_view(&r->ref_dev);
    TRY(vsg_stage_coverage_union(x, &pieces, r->dgrp, n_rows, &r->clip_dev, r->drow_ok,
                                 r->drow_why));
    if (n_one > 0)
        TRY(take_single_pieces(x, r, n_rows, one));
    vsg_exec_stage_begin(x, "d2h");
    st = vsg_columnar_download(x, &r->clip_dev, &r->clip_out);
    if (st == VSG_OK)
        st = vsg_exec_download(x, r->row_ok, r->drow_ok, (size_t)n_rows);
    if (st == VSG_OK)
        st = vsg_exec_download(x, r->row_why, r->drow_why, (size_t)n_rows * sizeof(uint32_t));
    vsg_exec_stage_end(x, n_rows, r->clip_out.n_coords);
    if (st == VSG_OK)
        st = vsg_exec_sync(x);
    for (int64_t i = 0; st == VSG_OK && i < n_rows; i++)
        if (one[i] >= 0) {   /* the union saw none of its pieces: settled here */
            r->row_ok[i] = 1;
            r->row_why[i] = 0;
        }
done:
    free(grp);
    free(one);
    free(bad);
    return st;
}

/* Clip with no pieces to refine: every row's union is empty. */
static vsg_status clip_nothing(filter_run *r, int64_t n_rows)
{
    r->row_ok = vsg_calloc((size_t)(n_rows ? n_rows : 1), 1);
    r->row_why = vsg_malloc((size_t)(n_rows ? n_rows : 1) * sizeof *r->row_why);
    if (!r->row_ok || !r->row_why)
        return VSG_ERR_NOMEM;
    for (int64_t i = 0; i < n_rows; i++)
        r->row_why[i] = VSG_COV_BAD_EMPTY;
    return VSG_OK;
}

/* The exact refine of the pairs the classes leave undecided
 * (stages/overlay/refine.c): their list up, the results (intersection) or
 * their union by row (clip) down. */
static vsg_status refine_on_backend(vsg_exec *x, const vsg_col_view *in, const vsg_col_view *mv,
                                    const double *m_boxes, filter_run *r)
{
    vsg_status st = VSG_OK;
    size_t n = (size_t)r->pairs.n, m = 0, n_rows = (size_t)in->n_geoms;
    r->ref_of = vsg_malloc((n ? n : 1) * sizeof *r->ref_of);
    r->ref_a = vsg_malloc((n ? n : 1) * sizeof *r->ref_a);
    r->ref_b = vsg_malloc((n ? n : 1) * sizeof *r->ref_b);
    r->covered = vsg_calloc(n_rows ? n_rows : 1, 1);
    if (!r->ref_of || !r->ref_a || !r->ref_b || !r->covered)
        return VSG_ERR_NOMEM;
    for (size_t q = 0; q < n && r->clip; q++)
        if (r->hcls[q] == VSG_CLS_A_IN_B && r->pa[q] >= 0 && (size_t)r->pa[q] < n_rows)
            r->covered[r->pa[q]] = 1;
    for (size_t q = 0; q < n; q++) {
        r->ref_of[q] = -1;
        if (r->pa[q] < 0 || (size_t)r->pa[q] >= n_rows || !refine_takes(r, q))
            continue;
        r->ref_of[q] = (int64_t)m;
        r->ref_a[m] = r->pa[q];
        r->ref_b[m++] = r->pb[q];
    }
    r->n_ref = (int64_t)m;
    r->ref_ok = vsg_calloc(m ? m : 1, 1);
    r->ref_why = vsg_calloc(m ? m : 1, sizeof *r->ref_why);
    if (!r->ref_ok || !r->ref_why)
        return VSG_ERR_NOMEM;
    if (m == 0)
        return r->clip ? clip_nothing(r, (int64_t)n_rows) : VSG_OK;
    TRY(vsg_exec_alloc(x, (m ? m : 1) * sizeof(int64_t), (void **)&r->dref_a));
    TRY(vsg_exec_alloc(x, (m ? m : 1) * sizeof(int64_t), (void **)&r->dref_b));
    TRY(vsg_exec_alloc(x, m ? m : 1, (void **)&r->dref_ok));
    TRY(vsg_exec_alloc(x, (m ? m : 1) * sizeof(uint32_t), (void **)&r->dref_why));
    TRY(vsg_exec_upload(x, r->dref_a, r->ref_a, m * sizeof(int64_t)));
    TRY(vsg_exec_upload(x, r->dref_b, r->ref_b, m * sizeof(int64_t)));
    /* classify's chunk tables and join are the refine's too (same views) */
    const vsg_chunks_shared *sh = r->chunks.ring_chunk[0] ? &r->chunks : NULL;
    TRY(vsg_stage_overlay_refine_shared(x, in, r->boxes, mv, m_boxes, r->dref_a, r->dref_b,
                                        (int64_t)m, sh, &r->ref_dev, r->dref_ok, r->dref_why));
    vsg_chunks_shared_free(x, &r->chunks);   /* the refine is done with them */
    vsg_exec_stage_begin(x, "d2h");
    if (!r->clip)
        st = vsg_columnar_download(x, &r->ref_dev, &r->ref_out);
    if (st == VSG_OK)
        st = vsg_exec_download(x, r->ref_ok, r->dref_ok, m);
    if (st == VSG_OK)
        st = vsg_exec_download(x, r->ref_why, r->dref_why, m * sizeof *r->ref_why);
    if (st == VSG_OK && r->clip) {   /* which results are empty: clip_union */
        r->ref_flags = vsg_malloc(m);
        st = r->ref_flags ? vsg_exec_download(x, r->ref_flags, r->ref_dev.flags, m)
                          : VSG_ERR_NOMEM;
    }
    vsg_exec_stage_end(x, (int64_t)m, r->ref_out.n_coords);
    if (st == VSG_OK)
        st = vsg_exec_sync(x);
    if (st == VSG_OK && r->clip)
        st = clip_union(x, r, (int64_t)n_rows);
done:
    return st;
}

/* The backend part: everything from upload to the one sync. */
static vsg_status run_on_backend(vsg_exec *x, vsg_gpu_state *g, vsg_batch *b,
                                 const vsg_method_index *idx, filter_run *r)
{
    vsg_status st;
    const vsg_resident *m = vsg_resident_get(&g->resident, x, idx->serial, idx->col, &st);
    if (!m)
        return st;
    st = VSG_OK;
    if (!r->gathered) {
        vsg_exec_stage_begin(x, "h2d");
        st = vsg_columnar_upload(x, &r->host, &r->dev);
        vsg_exec_stage_end(x, r->host.n_geoms, r->host.n_coords);
    }
    if (st == VSG_OK)
        st = vsg_exec_alloc(x, (size_t)r->dev.n_geoms * 4 * sizeof(double), (void **)&r->boxes);
    vsg_col_view in = vsg_columnar_view(&r->dev);
    vsg_col_view mv = vsg_columnar_view(&m->dev);
    if (st == VSG_OK)
        st = vsg_stage_bounds(x, &in, r->boxes);
    if (st == VSG_OK)
        st = vsg_stage_candidates(x, r->boxes, in.n_geoms, m->boxes, mv.n_geoms, &r->pairs);
    if (st == VSG_OK)
        st = vsg_exec_alloc(x, (size_t)r->pairs.n, (void **)&r->cls);
    if (st == VSG_OK)
        st = vsg_stage_classify_keep(x, &in, r->boxes, &mv, m->boxes, &r->pairs, r->cls,
                                     r->refine ? &r->chunks : NULL);
    if (st != VSG_OK)
        return st;
    size_t n = (size_t)r->pairs.n;
    r->pa = vsg_malloc((n ? n : 1) * sizeof *r->pa);
    r->pb = vsg_malloc((n ? n : 1) * sizeof *r->pb);
    r->hcls = vsg_malloc(n ? n : 1);
    if (!r->pa || !r->pb || !r->hcls)
        return VSG_ERR_NOMEM;
    vsg_exec_stage_begin(x, "d2h");
    st = vsg_exec_download(x, r->pa, r->pairs.a, n * sizeof *r->pa);
    if (st == VSG_OK)
        st = vsg_exec_download(x, r->pb, r->pairs.b, n * sizeof *r->pb);
    if (st == VSG_OK)
        st = vsg_exec_download(x, r->hcls, r->cls, n);
    vsg_exec_stage_end(x, r->pairs.n, r->pairs.n);
    if (st == VSG_OK)
        st = vsg_exec_sync(x);
    if (st == VSG_OK && r->refine)
        st = refine_on_backend(x, &in, &mv, m->boxes, r);
    return st;
}

/* Pairs -> per-input lists and hints, in input then method order (the
 * join's order: pairs come sorted by input, then method). Pairs of inputs
 * the CPU read did not keep, or of method rows the index dropped, are left
 * out (repaired geometries were decoded as repaired, on both sides, so
 * their classes hold). Input rows the GPU could not take (unsupported types)
 * are searched in the STR tree; method rows it could not take (`extra`,
 * ascending) are merged in by a box test on the host. */
typedef struct {
    uint8_t *v;
    size_t n, cap;
} byte_buf;

static int bytes_push(byte_buf *b, uint8_t c)
{
    if (b->n == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 1024;
        uint8_t *v = vsg_realloc(b->v, cap);
        if (!v)
            return -1;
        b->v = v;
        b->cap = cap;
    }
    b->v[b->n++] = c;
    return 0;
}

#define GPU_CANNOT (VSG_GF_UNSUPPORTED | VSG_GF_CORRUPT | VSG_GF_NONFINITE)

/* The GPU's results move to the hints (to), typed as the type rule types
 * GEOS's result: a Polygon for one part unless PROMOTE_TO_MULTI; the pairs
 * it settled and handed back are counted, the rows handed back named. */
static void hand_over(vsg_engine *e, vsg_columnar *from, vsg_columnar *to, int64_t settled,
                      int64_t back, int64_t back_rows, const char *why_back)
{
    for (int64_t t = 0; t < from->n_geoms && !e->opts.promote_to_multi; t++)
        if (from->geom_part[t + 1] - from->geom_part[t] == 1)
            from->type[t] = VSG_GT_POLYGON;
    *to = *from;
    vsg_columnar_init(from);
    e->counts.gpu_pairs += settled;
    e->counts.gpu_pairs_rerun_on_cpu += back;
    vsg_gpu_note_rerun(e, back_rows, why_back);
}

/* A hand-back's reason bits, counted for CPL_DEBUG (vsg_counts). */
static void count_why(vsg_engine *e, uint32_t why)
{
    for (int bit = 0; bit < 16; bit++)
        e->counts.gpu_pairs_rerun_why[bit] += (why >> bit) & 1u;
}

/* The GPU refine's results by flat position (src[k]: the pair behind
 * flat position k, -1 for none); the results move to h, whose refine
 * tasks write them as WKB, typed as the type rule types GEOS's result: a
 * Polygon for one part unless PROMOTE_TO_MULTI. */
static vsg_status attach_refine(vsg_engine *e, filter_run *r, const int64_t *src,
                                int64_t n_flat, vsg_pair_hints *h)
{
    size_t m = (size_t)(n_flat ? n_flat : 1);
    h->gpu = vsg_calloc(m, 1);
    h->gpu_row = vsg_calloc(m, sizeof *h->gpu_row);
    if (!h->gpu || !h->gpu_row)
        return VSG_ERR_NOMEM;
    int64_t settled = 0, back = 0, back_rows = 0, row = 0, row_counted = -1;
    for (int64_t k = 0; k < n_flat; k++) {
        int64_t q = src[k], t = q >= 0 ? r->ref_of[q] : -1;
        if (t < 0)
            continue;
        uint8_t ok = r->ref_ok[t];
        settled += ok != 0;
        back += ok == 0;
        while (h->off[row + 1] <= k)
            row++;
        if (!ok)
            count_why(e, r->ref_why[t]);
        if (!ok && row_counted != row) {
            back_rows++;   /* an input row with a pair GEOS refines */
            row_counted = row;
        }
        h->gpu_row[k] = t;
        h->gpu[k] = ok == 0 ? VSG_HINT_GPU_NONE
                    : ok == 2 ? VSG_HINT_GPU_TOUCH
                    : (r->ref_out.flags[t] & VSG_GF_EMPTY) ? VSG_HINT_GPU_EMPTY
                                                          : VSG_HINT_GPU_RESULT;
    }
    hand_over(e, &r->ref_out, &h->gpu_out, settled, back, back_rows,
              "pairs the GPU refine could not settle exactly (GPU_PAIRS_RERUN_ON_CPU) "
              "were refined by GEOS");
    return VSG_OK;
}

/* Clip: what the GPU settled for each row (h->row_gpu, a VSG_HINT_GPU_*
 * value; row i of h->row_out holds a RESULT). A row is settled when every
 * candidate is disjoint or a refined piece and the union of its pieces is
 * settled; TOUCH: no polygonal part, but a piece's boundaries met (GEOS's
 * union would be a point or line, which the type rule drops and counts).
 * Rows covered by a method polygon are left to the CPU engine's shortcut
 * (the input itself), rows with a geometry the GPU cannot take
 * (GeometryCollection) to GEOS, uncounted here (searched on the CPU,
 * counted there); the other rows GEOS clips are counted as handed back. */
static vsg_status attach_clip(vsg_engine *e, filter_run *r, const int64_t *src, size_t n,
                              vsg_pair_hints *h)
{
    h->row_gpu = vsg_calloc(n ? n : 1, 1);
    if (!h->row_gpu)
        return VSG_ERR_NOMEM;
    int64_t settled = 0, back = 0, back_rows = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t k0 = h->off[i], k1 = h->off[i + 1], pieces = 0;
        int ok = 1, touch = 0, cpu = r->covered[i];
        uint32_t pair_why = 0;   /* the reasons of the pairs handed back */
        for (int64_t k = k0; k < k1 && !cpu; k++) {
            int64_t q = src[k], t = q >= 0 ? r->ref_of[q] : -1;
            if (h->flat[k] == VSG_CLS_DISJOINT && q >= 0)
                continue;
            cpu = t < 0;   /* a pair the GPU did not see as the CPU reads it */
            if (cpu)
                break;
            ok &= r->ref_ok[t] != 0;
            touch |= r->ref_ok[t] == 2;
            pair_why |= r->ref_ok[t] ? 0 : r->ref_why[t];
            pieces++;
        }
        uint8_t g = VSG_HINT_GPU_NONE;
        if (!cpu && ok && r->row_ok[i])
            g = VSG_HINT_GPU_RESULT;
        else if (!cpu && ok && r->row_why[i] == VSG_COV_BAD_EMPTY)
            g = touch ? VSG_HINT_GPU_TOUCH : VSG_HINT_GPU_EMPTY;
        h->row_gpu[i] = g;
        if (g != VSG_HINT_GPU_NONE) {
            settled += pieces;
        } else if (!cpu) {
            back += pieces;
            back_rows++;
            count_why(e, ok ? r->row_why[i] : pair_why);   /* the union's, or the pairs' */
        }
    }
    hand_over(e, &r->clip_out, &h->row_out, settled, back, back_rows,
              "rows whose clip the GPU refine could not settle exactly "
              "(GPU_PAIRS_RERUN_ON_CPU) were clipped by GEOS");
    return VSG_OK;
}

static vsg_status build_lists(vsg_batch *b, const vsg_method_index *idx, filter_run *r,
                              const int64_t *extra, size_t n_extra, vsg_id_list *lists,
                              vsg_pair_hints *h, int64_t *cpu_rows)
{
    size_t n = b->n;
    byte_buf hb = {NULL, 0, 0};
    vsg_id_list src = {NULL, 0, 0};   /* the pair behind each flat position */
    *cpu_rows = 0;
    h->off = vsg_malloc((n + 1) * sizeof *h->off);
    if (!h->off)
        return VSG_ERR_NOMEM;
    h->off[0] = 0;
    int64_t p = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t run0 = p;
        while (p < r->pairs.n && r->pa[p] == (int64_t)i)
            p++;
        if (p < r->pairs.n && (r->pa[p] < (int64_t)i || r->pa[p] >= (int64_t)n))
            goto bad;   /* the join promises sorted, in-range pairs */
        const vsg_read_result *in = &b->in[i];
        if (in->outcome == VSG_READ_GEOM && (r->flags[i] & GPU_CANNOT)) {
            if (vsg_strtree_query(idx->tree, in->box, &lists[i]) != VSG_OK)
                goto nomem;
            for (size_t k = 0; k < lists[i].n; k++)
                if (bytes_push(&hb, VSG_CLS_REFINE) ||
                    (r->refine && vsg_id_list_push(&src, -1) != VSG_OK))
                    goto nomem;
            (*cpu_rows)++;
        } else if (in->outcome == VSG_READ_GEOM) {
            size_t e = 0;
            for (int64_t q = run0; q < p || e < n_extra;) {
                int64_t jr = q < p ? r->pb[q] : INT64_MAX;
                int64_t je = e < n_extra ? extra[e] : INT64_MAX;
                int64_t j, from = -1;
                uint8_t c;
                if (jr < 0 || (jr != INT64_MAX && (size_t)jr >= idx->n))
                    goto bad;
                if (jr <= je) {
                    j = jr;
                    from = q;
                    c = r->hcls[q++];
                    if (jr == je)
                        e++;
                } else {
                    j = je;
                    c = VSG_CLS_REFINE;
                    e++;
                    if (!vsg_box_meets(in->box, idx->boxes + 4 * j))
                        continue;
                }
                if (!vsg_method_kept(idx, j))
                    continue;   /* repaired rows: the GPU saw their repair */
                if (vsg_id_list_push(&lists[i], j) != VSG_OK || bytes_push(&hb, c) ||
                    (r->refine && vsg_id_list_push(&src, from) != VSG_OK))
                    goto nomem;
            }
        }
        h->off[i + 1] = h->off[i] + (int64_t)lists[i].n;
    }
    if (p != r->pairs.n)
        goto bad;
    h->flat = hb.v ? hb.v : vsg_malloc(1);
    if (!h->flat)
        goto nomem_flat;
    if (r->refine && r->ref_of) {
        vsg_status st = r->clip ? attach_clip(b->e, r, src.ids, n, h)
                                : attach_refine(b->e, r, src.ids, (int64_t)src.n, h);
        vsg_id_list_free(&src);
        return st;
    }
    vsg_id_list_free(&src);
    return VSG_OK;
nomem:
    free(hb.v);
nomem_flat:
    vsg_id_list_free(&src);
    return VSG_ERR_NOMEM;
bad:
    free(hb.v);
    vsg_id_list_free(&src);
    return VSG_ERR_GPU_KERNEL;
}

/* Method rows the index kept but the GPU pipeline could not take. */
static vsg_status method_extra(const vsg_method_index *idx, int64_t **extra, size_t *n_extra)
{
    *extra = NULL;
    *n_extra = 0;
    if (idx->col_unsupported <= 0)
        return VSG_OK;
    *extra = vsg_malloc((size_t)idx->col_unsupported * sizeof **extra);
    if (!*extra)
        return VSG_ERR_NOMEM;
    for (size_t j = 0; j < idx->n; j++)
        if (vsg_method_kept(idx, j) && (idx->col->flags[j] & GPU_CANNOT))
            (*extra)[(*n_extra)++] = (int64_t)j;
    return VSG_OK;
}

static const GEOSGeometry *input_repair(const void *ud, size_t i)
{
    const vsg_batch *b = ud;
    const vsg_read_result *in = &b->in[i];
    return in->outcome == VSG_READ_GEOM && in->repaired ? in->geom : NULL;
}

/* The batch's rows on x gathered from the validity screen's decode of this
 * batch (kept for the overlays by route/overlay.c), the repaired rows
 * decoded from their repair (arr: the batch with repairs); r->gathered 0
 * where the screen holds none of it: the caller decodes the batch. The
 * rows' flags come down for the candidate lists (the d2h sync waits). */
static vsg_status from_screen(vsg_exec *x, const vsg_gpu_state *g, const vsg_batch *b,
                              const vsg_wkb_array *arr, filter_run *r)
{
    const vsg_screened *sc = g ? &g->screened : NULL;
    size_t n = b->n;
    if (!sc || !sc->n_src || sc->layer != (const void *)b->input->wkb || sc->n_rows != n)
        return VSG_OK;
    int64_t *rows = vsg_malloc((n ? n : 1) * sizeof *rows);
    if (!rows)
        return VSG_ERR_NOMEM;
    for (size_t i = 0; i < n; i++)
        rows[i] = b->in[i].outcome == VSG_READ_GEOM && b->in[i].repaired ? -1 : (int64_t)i;
    vsg_status st = vsg_screened_gather(x, sc, arr, rows, &r->dev, &r->gathered);
    free(rows);
    if (st == VSG_OK && r->gathered) {
        r->gflags = vsg_malloc(n ? n : 1);
        st = r->gflags ? vsg_exec_download(x, r->gflags, r->dev.flags, n) : VSG_ERR_NOMEM;
    }
    return st;
}

static vsg_status gpu_candidates(vsg_batch *b, const vsg_method_index *idx, vsg_id_list **lists,
                                 vsg_pair_hints *hints, int *used, int refine)
{
    vsg_engine *e = b->e;
    *used = 0;
    *lists = NULL;
    hints->flat = NULL;
    hints->off = NULL;
    vsg_status st;
    vsg_exec *x = vsg_gpu_acquire_rows(e, (int64_t)b->n, &st);
    if (!x)
        return st;
    if (!idx->col)
        return VSG_OK;   /* the index was built without the GPU pipeline */
    filter_run r;
    memset(&r, 0, sizeof r);
    vsg_columnar_init(&r.host);
    vsg_columnar_init(&r.dev);
    vsg_columnar_init(&r.ref_dev);
    vsg_columnar_init(&r.ref_out);
    vsg_columnar_init(&r.clip_dev);
    vsg_columnar_init(&r.clip_out);
    r.refine = refine != 0;
    r.clip = refine == 2;

    double t0 = vsg_now_s();
    vsg_columnar_report rep;
    vsg_wkb_repaired rw;
    st = vsg_wkb_with_repairs(&e->workers[0], b->input, input_repair, b, &rw);
    vsg_status gst = st == VSG_OK ? from_screen(x, e->gpu, b, &rw.arr, &r) : VSG_OK;
    if (st == VSG_OK && gst == VSG_OK && !r.gathered) {
        st = vsg_columnar_from_wkb(&rw.arr, &r.host, &rep);
        /* rows the screen passed (a gather from its decode has them so) */
        for (size_t i = 0; st == VSG_OK && b->known_valid && i < b->n; i++)
            if (b->known_valid[i])
                r.host.flags[i] |= VSG_GF_SIMPLE;
    }
    r.flags = r.gathered ? r.gflags : r.host.flags;
    vsg_wkb_repaired_free(&rw);
    vsg_profile_add(e->profile, "to_columnar", "CPU", vsg_now_s() - t0, (int64_t)b->n,
                    r.gathered ? 0 : r.host.n_coords, 0, 0, 0);
    if (st != VSG_OK) {
        run_free(x, &r);
        return vsg_engine_fail(e, st, -1, -1, "%s",
                               st == VSG_ERR_NOMEM ? "out of memory decoding the batch"
                                                   : vsg_worker_take_message(&e->workers[0]));
    }
    /* the gather is the batch's first step on the backend: its failure is
     * the pipeline's, as the steps' below */
    st = gst == VSG_OK ? run_on_backend(x, e->gpu, b, idx, &r) : gst;
    vsg_exec_flush_profile(x, e->profile);
    if (st != VSG_OK) {
        run_free(x, &r);
        return vsg_gpu_fallback(e, st, (int64_t)b->n, "candidate search");
    }
    *lists = vsg_calloc(b->n ? b->n : 1, sizeof **lists);
    int64_t cpu_rows = 0, *extra = NULL;
    size_t n_extra = 0;
    st = *lists ? method_extra(idx, &extra, &n_extra) : VSG_ERR_NOMEM;
    if (st == VSG_OK)
        st = build_lists(b, idx, &r, extra, n_extra, *lists, hints, &cpu_rows);
    free(extra);
    run_free(x, &r);
    if (st != VSG_OK) {
        vsg_candidates_free(*lists, b->n);
        *lists = NULL;
        vsg_pair_hints_free(hints);
        return st == VSG_ERR_GPU_KERNEL
                   ? vsg_gpu_fallback(e, st, (int64_t)b->n, "candidate search (malformed pairs)")
                   : vsg_engine_fail(e, st, -1, -1, "out of memory building candidate lists");
    }
    int64_t pairs = hints->off[b->n];
    e->counts.candidate_pairs += pairs;
    e->counts.gpu_rows += (int64_t)b->n - cpu_rows;
    vsg_gpu_note_rerun(e, cpu_rows,
                       "geometries of a type the GPU pipeline does not take (e.g. "
                       "GeometryCollection) were searched on the CPU");
    if (n_extra > 0 && idx->serial != e->gpu->method_noted) {
        e->gpu->method_noted = idx->serial;
        vsg_gpu_note_rerun(e, (int64_t)n_extra,
                           "method geometries of a type the GPU pipeline does not take (e.g. "
                           "GeometryCollection) were matched on the CPU");
    }
    *used = 1;
    return VSG_OK;
}

vsg_status vsg_gpu_candidates(vsg_batch *b, const vsg_method_index *idx, vsg_id_list **lists,
                              vsg_pair_hints *hints, int *used)
{
    return gpu_candidates(b, idx, lists, hints, used, 0);
}

vsg_status vsg_gpu_candidates_refined(vsg_batch *b, const vsg_method_index *idx,
                                      vsg_id_list **lists, vsg_pair_hints *hints, int *used)
{
    const vsg_engine_options *o = &b->e->opts;
    return gpu_candidates(b, idx, lists, hints, used, o->gpu_refine && !o->keep_lower_dim);
}

vsg_status vsg_gpu_candidates_clip(vsg_batch *b, const vsg_method_index *idx, vsg_id_list **lists,
                                   vsg_pair_hints *hints, int *used)
{
    const vsg_engine_options *o = &b->e->opts;
    return gpu_candidates(b, idx, lists, hints, used,
                          o->gpu_refine && !o->keep_lower_dim ? 2 : 0);
}
