/*
 * method_index.c - vsg_method_index_build and friends (see
 * method_index.h). Reading is parallel; the tree is built on the caller.
 */
#include "method_index.h"

#include "core/fault.h"

#include <stdlib.h>
#include <string.h>

#include "core/engine_internal.h"
#include "geometry/envelope.h"
#include "geometry/read.h"
#include "geometry/repaired_wkb.h"

typedef struct {
    vsg_engine *e;
    const vsg_wkb_array *method;
    vsg_method_index *idx;
    vsg_failure failure;
    uint8_t *known_valid;        /* NULL, or the engine's screen's verdicts */
} build_ctx;

static void read_task(void *vctx, size_t j, int wid)
{
    build_ctx *c = vctx;
    if (vsg_failure_skip(&c->failure, (int64_t)j))
        return;
    vsg_worker *w = &c->e->workers[wid];
    vsg_read_result rr;
    char msg[512];
    int known = c->known_valid && c->known_valid[j]
                    ? VSG_READ_KNOWN_VALID | VSG_READ_MAY_DEFER
                    : 0;
    vsg_status st = vsg_read_geometry(w, c->e->opts.invalid, known, c->method->wkb[j],
                                      c->method->size ? c->method->size[j] : 0, NULL, "method",
                                      (int64_t)j, &rr, msg, sizeof msg);
    if (st != VSG_OK) {
        vsg_failure_record(&c->failure, (int64_t)j, st, -1, (int64_t)j, "%s",
                           st == VSG_ERR_NOMEM ? "out of memory" : msg);
        return;
    }
    if (rr.outcome != VSG_READ_GEOM)
        return;
    if (rr.deferred) {
        /* the caller frees the method's WKB: the bytes are kept here */
        unsigned char *copy = vsg_malloc(rr.wkb_bytes ? rr.wkb_bytes : 1);
        if (!copy) {
            vsg_failure_record(&c->failure, (int64_t)j, VSG_ERR_NOMEM, -1, (int64_t)j,
                               "out of memory");
            return;
        }
        memcpy(copy, c->method->wkb[j], rr.wkb_bytes);
        c->idx->wkb[j] = copy;
        c->idx->wkb_len[j] = rr.wkb_bytes;
    } else {
        /* From here on the geometry is read by all workers at once. */
        vsg_geom_warm_caches(w->ctx, rr.geom);
        c->idx->geoms[j] = rr.geom;
    }
    memcpy(c->idx->boxes + 4 * j, rr.box, sizeof rr.box);
    c->idx->dims[j] = rr.dim;
    c->idx->npoints[j] = rr.npoints;
    c->idx->repaired[j] = (unsigned char)(rr.repaired != 0);
}

static vsg_status alloc_arrays(vsg_method_index *idx, size_t n, int n_workers)
{
    size_t m = n ? n : 1;
    idx->geoms = vsg_calloc(m, sizeof *idx->geoms);
    idx->boxes = vsg_calloc(4 * m, sizeof *idx->boxes);
    idx->dims = vsg_calloc(m, sizeof *idx->dims);
    idx->npoints = vsg_calloc(m, sizeof *idx->npoints);
    idx->repaired = vsg_calloc(m, 1);
    idx->wkb = vsg_calloc(m, sizeof *idx->wkb);
    idx->wkb_len = vsg_calloc(m, sizeof *idx->wkb_len);
    idx->prepared = vsg_calloc((size_t)n_workers, sizeof *idx->prepared);
    if (!idx->geoms || !idx->boxes || !idx->dims || !idx->npoints || !idx->repaired ||
        !idx->wkb || !idx->wkb_len || !idx->prepared)
        return VSG_ERR_NOMEM;
    return VSG_OK;
}

static const GEOSGeometry *method_repair(const void *ud, size_t j)
{
    const vsg_method_index *idx = ud;
    return idx->repaired[j] ? idx->geoms[j] : NULL;
}

/* The method layer as columnar geometry for the GPU pipeline, decoded
 * while the caller's WKB is still at hand (the index keeps no pointer to
 * it); repaired rows as repaired (geometry/repaired_wkb.h). Rows the GPU
 * cannot take are counted: the pipeline then leaves them to the CPU
 * engine's candidate search. */
static vsg_status columnar_for_gpu(vsg_engine *e, const vsg_wkb_array *method,
                                   const uint8_t *known_valid, vsg_method_index *idx)
{
    static uint64_t next_serial;   /* shared by every engine: atomic */
    double t0 = vsg_now_s();
    idx->col = vsg_calloc(1, sizeof *idx->col);
    if (!idx->col)
        return vsg_engine_fail(e, VSG_ERR_NOMEM, -1, -1, "out of memory");
    vsg_columnar_init(idx->col);
    vsg_columnar_report rep;
    vsg_wkb_repaired rw;
    vsg_status st = vsg_wkb_with_repairs(&e->workers[0], method, method_repair, idx, &rw);
    if (st != VSG_OK)
        return vsg_engine_fail(e, st, -1, -1, "%s", st == VSG_ERR_NOMEM
                                   ? "out of memory" : vsg_worker_take_message(&e->workers[0]));
    st = vsg_columnar_from_wkb(&rw.arr, idx->col, &rep);
    vsg_wkb_repaired_free(&rw);
    if (st != VSG_OK)
        return vsg_engine_fail(e, st, -1, -1, "out of memory decoding the method layer");
    /* rows the screen passed: simple rings (elements/col_view.h) */
    for (size_t j = 0; known_valid && j < idx->n; j++)
        if (known_valid[j])
            idx->col->flags[j] |= VSG_GF_SIMPLE;
    int64_t unsupported = 0;
    for (size_t j = 0; j < idx->n; j++)
        if (vsg_method_kept(idx, j) && (idx->col->flags[j] & (VSG_GF_UNSUPPORTED | VSG_GF_CORRUPT |
                                                    VSG_GF_NONFINITE)))
            unsupported++;
    idx->col_unsupported = unsupported;
    idx->serial = __atomic_add_fetch(&next_serial, 1, __ATOMIC_RELAXED);
    vsg_profile_add(e->profile, "method_to_columnar", "CPU", vsg_now_s() - t0,
                    (int64_t)idx->n, idx->col->n_coords, 0, 0, 0);
    return VSG_OK;
}

vsg_status vsg_method_index_build(vsg_engine *e, const vsg_wkb_array *method,
                                  vsg_method_index **out)
{
    if (!out)
        return VSG_ERR_INVALID_ARG;
    *out = NULL;
    if (!e || !method || (method->count && (!method->wkb || !method->size)))
        return e ? vsg_engine_fail(e, VSG_ERR_INVALID_ARG, -1, -1, "vsg_method_index_build: bad arguments")
                 : VSG_ERR_INVALID_ARG;
    vsg_engine_begin_call(e);

    vsg_method_index *idx = vsg_calloc(1, sizeof *idx);
    if (!idx)
        return vsg_engine_fail(e, VSG_ERR_NOMEM, -1, -1, "out of memory");
    idx->n = method->count;
    idx->n_workers = e->n_threads;
    idx->dimension = -1;
    idx->ctx = GEOS_init_r();
    if (!idx->ctx || alloc_arrays(idx, idx->n, idx->n_workers) != VSG_OK) {
        vsg_method_index_destroy(idx);
        return vsg_engine_fail(e, VSG_ERR_NOMEM, -1, -1, "out of memory");
    }

    /* Phase 1: read, check and repair every method geometry in parallel. */
    double t0 = vsg_now_s();
    build_ctx c;
    c.e = e;
    c.method = method;
    c.idx = idx;
    c.known_valid = NULL;
    /* rows of every size: what passes is left unparsed (read_task) */
    vsg_status st = e->valid_screen ? e->valid_screen(e, method, 1, &c.known_valid) : VSG_OK;
    if (st != VSG_OK) {
        vsg_method_index_destroy(idx);
        return st;
    }
    vsg_failure_init(&c.failure);
    vsg_pool_run(e->pool, idx->n, read_task, &c);
    st = vsg_engine_take_failure(e, &c.failure);
    vsg_failure_destroy(&c.failure);
    e->counts.method_rows += (int64_t)idx->n;
    vsg_engine_collect_counts(e);
    if (st != VSG_OK) {
        free(c.known_valid);
        vsg_method_index_destroy(idx);
        return st;
    }
    size_t kept = 0, deferred = 0;
    unsigned char *include = vsg_calloc(idx->n ? idx->n : 1, 1);
    if (!include) {
        free(c.known_valid);
        vsg_method_index_destroy(idx);
        return vsg_engine_fail(e, VSG_ERR_NOMEM, -1, -1, "out of memory");
    }
    for (size_t j = 0; j < idx->n; j++) {
        if (!vsg_method_kept(idx, j))
            continue;
        include[j] = 1;
        kept++;
        deferred += idx->wkb[j] != NULL;
        if (idx->dims[j] > idx->dimension)
            idx->dimension = idx->dims[j];
    }
    double t1 = vsg_now_s();
    vsg_profile_add(e->profile, "method_read", "CPU", t1 - t0, (int64_t)idx->n,
                    (int64_t)kept, 0, 0, 0);
    /* rows in: kept; out: left unparsed for GEOS to read on demand */
    vsg_profile_add(e->profile, "method_deferred", "CPU", 0, (int64_t)kept, (int64_t)deferred,
                    0, 0, 0);

    /* Phase 2: the STR tree over the envelopes of what was kept. */
    st = vsg_strtree_build(idx->boxes, include, idx->n, &idx->tree);
    free(include);
    if (st != VSG_OK) {
        free(c.known_valid);
        vsg_method_index_destroy(idx);
        return vsg_engine_fail(e, st, -1, -1, "out of memory building the method index");
    }
    vsg_profile_add(e->profile, "method_index", "CPU", vsg_now_s() - t1, (int64_t)kept,
                    (int64_t)kept, 0, 0, 0);
    if (e->opts.gpu.enabled)
        st = columnar_for_gpu(e, method, c.known_valid, idx);
    free(c.known_valid);
    if (st != VSG_OK) {
        vsg_method_index_destroy(idx);
        return st;
    }
    *out = idx;
    return VSG_OK;
}

void vsg_method_index_destroy(vsg_method_index *idx)
{
    if (!idx)
        return;
    if (idx->prepared) {
        for (int w = 0; w < idx->n_workers; w++) {
            if (!idx->prepared[w])
                continue;
            for (size_t j = 0; j < idx->n; j++)
                if (idx->prepared[w][j])
                    GEOSPreparedGeom_destroy_r(idx->ctx, idx->prepared[w][j]);
            free(idx->prepared[w]);
        }
        free(idx->prepared);
    }
    if (idx->geoms) {
        for (size_t j = 0; j < idx->n; j++)
            if (idx->geoms[j])
                GEOSGeom_destroy_r(idx->ctx, idx->geoms[j]);
        free(idx->geoms);
    }
    if (idx->wkb) {
        for (size_t j = 0; j < idx->n; j++)
            free(idx->wkb[j]);
        free(idx->wkb);
    }
    free(idx->wkb_len);
    vsg_strtree_destroy(idx->tree);
    free(idx->boxes);
    free(idx->dims);
    free(idx->npoints);
    free(idx->repaired);
    if (idx->col) {
        vsg_columnar_free(idx->col);
        free(idx->col);
    }
    if (idx->ctx)
        GEOS_finish_r(idx->ctx);
    free(idx);
}

int vsg_method_index_dimension(const vsg_method_index *idx)
{
    return idx ? idx->dimension : -1;
}

int vsg_method_kept(const vsg_method_index *idx, size_t j)
{
    return idx->geoms[j] != NULL || idx->wkb[j] != NULL;
}

const GEOSGeometry *vsg_method_geom(const vsg_method_index *idx, vsg_worker *w, size_t j)
{
    GEOSGeometry *g = __atomic_load_n(&idx->geoms[j], __ATOMIC_ACQUIRE);
    if (g || !idx->wkb[j])
        return g;
    vsg_read_result r = {.outcome = VSG_READ_GEOM, .deferred = 1, .wkb_bytes = idx->wkb_len[j]};
    char msg[256];
    if (vsg_read_parse_deferred(w, idx->wkb[j], &r, msg, sizeof msg) != VSG_OK)
        return NULL;
    GEOSGeometry *mine = r.geom;
    /* read by all workers once published: its caches filled first */
    vsg_geom_warm_caches(w->ctx, mine);
    GEOSGeometry *expected = NULL;
    if (__atomic_compare_exchange_n(&idx->geoms[j], &expected, mine, 0, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE))
        return mine;
    GEOSGeom_destroy_r(w->ctx, mine);   /* another worker published first */
    return expected;
}

const GEOSPreparedGeometry *vsg_method_prepared(const vsg_method_index *cidx,
                                                vsg_worker *w, int worker, size_t j)
{
    /* The cache is logically const: it changes no answer, only its cost. */
    vsg_method_index *idx = (vsg_method_index *)cidx;
    if (worker < 0 || worker >= idx->n_workers || !vsg_method_kept(idx, j))
        return NULL;
    const GEOSGeometry *m = vsg_method_geom(idx, w, j);
    if (!m)
        return NULL;
    if (!idx->prepared[worker]) {
        idx->prepared[worker] = vsg_calloc(idx->n, sizeof **idx->prepared);
        if (!idx->prepared[worker])
            return NULL;
    }
    if (!idx->prepared[worker][j])
        idx->prepared[worker][j] = GEOSPrepare_r(w->ctx, m);
    return idx->prepared[worker][j];
}
