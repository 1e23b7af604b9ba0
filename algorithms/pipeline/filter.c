/*
 * filter.c - see filter.h.
 *
 *   to_columnar   the batch's WKB -> columnar (host)
 *   h2d           one upload of the batch (the method layer and its boxes
 *                 stay on the device, pipeline/resident.h)
 *   bounds, candidates, classify      on the backend, no sync between them
 *   d2h           pairs and classes, one sync
 *   lists         CSR lists for the refine; pairs whose geometry the CPU
 *                 read dropped or repaired are filtered or reset to REFINE
 */
#include "pipeline/filter.h"

#include "core/fault.h"

#include <stdlib.h>
#include <string.h>

#include "pipeline/state.h"
#include "overlay/candidates.h"
#include "elements/box.h"
#include "elements/filter/classify.h"
#include "stages/stages.h"


typedef struct {
    vsg_columnar host, dev;
    double *boxes;
    vsg_pairs pairs;
    uint8_t *cls;
    int64_t *pa, *pb;       /* host copies */
    uint8_t *hcls;
} filter_run;

static void run_free(vsg_exec *x, filter_run *r)
{
    vsg_columnar_free(&r->host);
    vsg_columnar_free(&r->dev);
    if (x) {
        vsg_exec_free(x, r->boxes);
        vsg_exec_free(x, r->pairs.a);
        vsg_exec_free(x, r->pairs.b);
        vsg_exec_free(x, r->cls);
    }
    free(r->pa);
    free(r->pb);
    free(r->hcls);
}

/* The backend part: everything from upload to the one sync. */
static vsg_status run_on_backend(vsg_exec *x, vsg_gpu_state *g, vsg_batch *b,
                                 const vsg_method_index *idx, filter_run *r)
{
    vsg_status st;
    const vsg_resident *m = vsg_resident_get(&g->resident, x, idx->serial, idx->col, &st);
    if (!m)
        return st;
    vsg_exec_stage_begin(x, "h2d");
    st = vsg_columnar_upload(x, &r->host, &r->dev);
    vsg_exec_stage_end(x, r->host.n_geoms, r->host.n_coords);
    if (st == VSG_OK)
        st = vsg_exec_alloc(x, (size_t)r->host.n_geoms * 4 * sizeof(double), (void **)&r->boxes);
    vsg_col_view in = vsg_columnar_view(&r->dev);
    vsg_col_view mv = vsg_columnar_view(&m->dev);
    if (st == VSG_OK)
        st = vsg_stage_bounds(x, &in, r->boxes);
    if (st == VSG_OK)
        st = vsg_stage_candidates(x, r->boxes, in.n_geoms, m->boxes, mv.n_geoms, &r->pairs);
    if (st == VSG_OK)
        st = vsg_exec_alloc(x, (size_t)r->pairs.n, (void **)&r->cls);
    if (st == VSG_OK)
        st = vsg_stage_classify(x, &in, r->boxes, &mv, m->boxes, &r->pairs, r->cls);
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
    return st;
}

/* Pairs -> per-input lists and hints, in input then method order (the
 * join's order: pairs come sorted by input, then method). Pairs of inputs
 * the CPU read did not keep, or of method rows the index dropped, are left
 * out; repaired geometries get REFINE: the classes were computed on the
 * geometry as given. Input rows the GPU could not take (unsupported types)
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

static vsg_status build_lists(vsg_batch *b, const vsg_method_index *idx, const filter_run *r,
                              const int64_t *extra, size_t n_extra, vsg_id_list *lists,
                              vsg_pair_hints *h, int64_t *cpu_rows)
{
    size_t n = b->n;
    byte_buf hb = {NULL, 0, 0};
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
        if (in->outcome == VSG_READ_GEOM && (r->host.flags[i] & GPU_CANNOT)) {
            if (vsg_strtree_query(idx->tree, in->box, &lists[i]) != VSG_OK)
                goto nomem;
            for (size_t k = 0; k < lists[i].n; k++)
                if (bytes_push(&hb, VSG_CLS_REFINE))
                    goto nomem;
            (*cpu_rows)++;
        } else if (in->outcome == VSG_READ_GEOM) {
            size_t e = 0;
            for (int64_t q = run0; q < p || e < n_extra;) {
                int64_t jr = q < p ? r->pb[q] : INT64_MAX;
                int64_t je = e < n_extra ? extra[e] : INT64_MAX;
                int64_t j;
                uint8_t c;
                if (jr < 0 || (jr != INT64_MAX && (size_t)jr >= idx->n))
                    goto bad;
                if (jr <= je) {
                    j = jr;
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
                if (!idx->geoms[j])
                    continue;
                if (in->repaired || idx->repaired[j])
                    c = VSG_CLS_REFINE;
                if (vsg_id_list_push(&lists[i], j) != VSG_OK || bytes_push(&hb, c))
                    goto nomem;
            }
        }
        h->off[i + 1] = h->off[i] + (int64_t)lists[i].n;
    }
    if (p != r->pairs.n)
        goto bad;
    h->flat = hb.v ? hb.v : vsg_malloc(1);
    return h->flat ? VSG_OK : VSG_ERR_NOMEM;
nomem:
    free(hb.v);
    return VSG_ERR_NOMEM;
bad:
    free(hb.v);
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
        if (idx->geoms[j] && (idx->col->flags[j] & GPU_CANNOT))
            (*extra)[(*n_extra)++] = (int64_t)j;
    return VSG_OK;
}

vsg_status vsg_gpu_candidates(vsg_batch *b, const vsg_method_index *idx, vsg_id_list **lists,
                              vsg_pair_hints *hints, int *used)
{
    vsg_engine *e = b->e;
    *used = 0;
    *lists = NULL;
    hints->flat = NULL;
    hints->off = NULL;
    vsg_status st;
    vsg_exec *x = vsg_gpu_acquire(e, &st);
    if (!x)
        return st;
    if (!idx->col)
        return VSG_OK;   /* the index was built without the GPU pipeline */
    filter_run r;
    memset(&r, 0, sizeof r);
    vsg_columnar_init(&r.host);
    vsg_columnar_init(&r.dev);

    double t0 = vsg_now_s();
    vsg_columnar_report rep;
    st = vsg_columnar_from_wkb(b->input, &r.host, &rep);
    vsg_profile_add(e->profile, "to_columnar", "CPU", vsg_now_s() - t0, (int64_t)b->n,
                    r.host.n_coords, 0, 0, 0);
    if (st != VSG_OK) {
        run_free(x, &r);
        return vsg_engine_fail(e, st, -1, -1, "out of memory decoding the batch");
    }
    st = run_on_backend(x, e->gpu, b, idx, &r);
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
