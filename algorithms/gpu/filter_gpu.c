/*
 * filter_gpu.c - see filter_gpu.h.
 *
 *   to_columnar   the batch's WKB -> columnar (host)
 *   h2d           one upload of the batch (the method layer stays on the
 *                 device from the first batch on)
 *   bounds, candidates, classify      on the backend, no sync between them
 *   d2h           pairs and classes, one sync
 *   lists         CSR lists for the refine; pairs whose geometry the CPU
 *                 read dropped or repaired are filtered or reset to REFINE
 */
#include "gpu/filter_gpu.h"

#include <stdlib.h>
#include <string.h>

#include "gpu/gpu_state.h"
#include "overlay/candidates.h"
#include "stages/stages.h"

void vsg_pair_hints_free(vsg_pair_hints *h)
{
    free(h->flat);
    free(h->off);
    h->flat = NULL;
    h->off = NULL;
}

/* The method layer on the backend, uploaded once per method index. */
static vsg_status method_on_device(vsg_exec *x, vsg_gpu_state *g, const vsg_method_index *idx)
{
    if (g->method_serial == idx->serial)
        return VSG_OK;
    vsg_columnar_free(&g->method_dev);
    vsg_exec_free(x, g->method_boxes);
    g->method_boxes = NULL;
    g->method_serial = 0;
    vsg_exec_stage_begin(x, "method_h2d");
    vsg_status st = vsg_columnar_upload(x, idx->col, &g->method_dev);
    vsg_exec_stage_end(x, idx->col->n_geoms, idx->col->n_coords);
    if (st == VSG_OK)
        st = vsg_exec_alloc(x, (size_t)idx->col->n_geoms * 4 * sizeof(double),
                            (void **)&g->method_boxes);
    if (st == VSG_OK) {
        vsg_col_view mv = vsg_columnar_view(&g->method_dev);
        st = vsg_stage_bounds(x, &mv, g->method_boxes);
    }
    if (st == VSG_OK)
        g->method_serial = idx->serial;
    return st;
}

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
    vsg_status st = method_on_device(x, g, idx);
    if (st != VSG_OK)
        return st;
    vsg_exec_stage_begin(x, "h2d");
    st = vsg_columnar_upload(x, &r->host, &r->dev);
    vsg_exec_stage_end(x, r->host.n_geoms, r->host.n_coords);
    if (st == VSG_OK)
        st = vsg_exec_alloc(x, (size_t)r->host.n_geoms * 4 * sizeof(double), (void **)&r->boxes);
    vsg_col_view in = vsg_columnar_view(&r->dev);
    vsg_col_view mv = vsg_columnar_view(&g->method_dev);
    if (st == VSG_OK)
        st = vsg_stage_bounds(x, &in, r->boxes);
    if (st == VSG_OK)
        st = vsg_stage_candidates(x, r->boxes, in.n_geoms, g->method_boxes, mv.n_geoms, &r->pairs);
    if (st == VSG_OK)
        st = vsg_exec_alloc(x, (size_t)r->pairs.n, (void **)&r->cls);
    if (st == VSG_OK)
        st = vsg_stage_classify(x, &in, &mv, &r->pairs, r->cls);
    if (st != VSG_OK)
        return st;
    size_t n = (size_t)r->pairs.n;
    r->pa = malloc((n ? n : 1) * sizeof *r->pa);
    r->pb = malloc((n ? n : 1) * sizeof *r->pb);
    r->hcls = malloc(n ? n : 1);
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

static int list_push(vsg_id_list *l, int64_t id)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 8;
        int64_t *ids = realloc(l->ids, cap * sizeof *ids);
        if (!ids)
            return -1;
        l->ids = ids;
        l->cap = cap;
    }
    l->ids[l->n++] = id;
    return 0;
}

/* Pairs -> per-input lists and hints, in input then method order (the
 * join's order). Pairs of inputs the CPU read did not keep, or of method
 * rows the index dropped, are left out; repaired geometries get REFINE:
 * the classes were computed on the geometry as given. Rows the GPU could
 * not take (unsupported types) are searched in the STR tree. */
static vsg_status build_lists(vsg_batch *b, const vsg_method_index *idx, const filter_run *r,
                              vsg_id_list *lists, vsg_pair_hints *h, int64_t *cpu_rows)
{
    size_t n = b->n;
    *cpu_rows = 0;
    for (int64_t p = 0; p < r->pairs.n; p++) {
        int64_t i = r->pa[p], j = r->pb[p];
        if (i < 0 || (size_t)i >= n || j < 0 || (size_t)j >= idx->n)
            return VSG_ERR_GPU_KERNEL;   /* never: the join only emits valid rows */
        if (b->in[i].outcome != VSG_READ_GEOM || !idx->geoms[j])
            continue;
        if (list_push(&lists[i], j))
            return VSG_ERR_NOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        if (b->in[i].outcome != VSG_READ_GEOM)
            continue;
        if (r->host.flags[i] & (VSG_GF_UNSUPPORTED | VSG_GF_CORRUPT | VSG_GF_NONFINITE)) {
            lists[i].n = 0;
            if (vsg_strtree_query(idx->tree, b->in[i].box, &lists[i]) != VSG_OK)
                return VSG_ERR_NOMEM;
            (*cpu_rows)++;
        }
    }
    h->off = malloc((n + 1) * sizeof *h->off);
    if (!h->off)
        return VSG_ERR_NOMEM;
    h->off[0] = 0;
    for (size_t i = 0; i < n; i++)
        h->off[i + 1] = h->off[i] + (int64_t)lists[i].n;
    h->flat = malloc(h->off[n] ? (size_t)h->off[n] : 1);
    if (!h->flat)
        return VSG_ERR_NOMEM;
    /* Second walk over the pairs, now that the slots are known. */
    int64_t *fill = calloc(n ? n : 1, sizeof *fill);
    if (!fill)
        return VSG_ERR_NOMEM;
    for (int64_t p = 0; p < r->pairs.n; p++) {
        int64_t i = r->pa[p], j = r->pb[p];
        if (b->in[i].outcome != VSG_READ_GEOM || !idx->geoms[j])
            continue;
        if (r->host.flags[i] & (VSG_GF_UNSUPPORTED | VSG_GF_CORRUPT | VSG_GF_NONFINITE))
            continue;
        uint8_t c = r->hcls[p];
        if (b->in[i].repaired || idx->repaired[j])
            c = VSG_PAIR_REFINE;
        h->flat[h->off[i] + fill[i]++] = c;
    }
    for (size_t i = 0; i < n; i++)
        if (r->host.flags[i] & (VSG_GF_UNSUPPORTED | VSG_GF_CORRUPT | VSG_GF_NONFINITE))
            for (size_t k = 0; k < lists[i].n; k++)
                h->flat[h->off[i] + (int64_t)k] = VSG_PAIR_REFINE;
    free(fill);
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
    if (idx->col_unsupported > 0) {
        vsg_gpu_note_rerun(e, (int64_t)b->n,
                           "the method layer has geometries the GPU pipeline does not take "
                           "(e.g. GeometryCollection); candidate search on the CPU");
        return e->opts.gpu.strict
                   ? vsg_engine_fail(e, VSG_ERR_UNSUPPORTED, -1, -1,
                                     "the method layer has %lld geometries the GPU pipeline "
                                     "does not take (e.g. GeometryCollection)",
                                     (long long)idx->col_unsupported)
                   : VSG_OK;
    }
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
    *lists = calloc(b->n ? b->n : 1, sizeof **lists);
    int64_t cpu_rows = 0;
    st = *lists ? build_lists(b, idx, &r, *lists, hints, &cpu_rows) : VSG_ERR_NOMEM;
    run_free(x, &r);
    if (st != VSG_OK) {
        vsg_candidates_free(*lists, b->n);
        *lists = NULL;
        vsg_pair_hints_free(hints);
        return vsg_engine_fail(e, st, -1, -1, "out of memory building candidate lists");
    }
    int64_t pairs = hints->off[b->n];
    e->counts.candidate_pairs += pairs;
    e->counts.gpu_rows += (int64_t)b->n - cpu_rows;
    vsg_gpu_note_rerun(e, cpu_rows,
                       "geometries of a type the GPU pipeline does not take (e.g. "
                       "GeometryCollection) were searched on the CPU");
    *used = 1;
    return VSG_OK;
}
