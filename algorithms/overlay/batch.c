/*
 * batch.c - see batch.h.
 */
#include "batch.h"

#include "core/fault.h"

#include <stdlib.h>
#include <string.h>

#include "core/result.h"
#include "geometry/dimension.h"

vsg_status vsg_batch_init(vsg_batch *b, vsg_engine *e, const vsg_wkb_array *input)
{
    memset(b, 0, sizeof *b);
    if (!input || (input->count && (!input->wkb || !input->size)))
        return vsg_engine_fail(e, VSG_ERR_INVALID_ARG, -1, -1, "bad input array");
    b->e = e;
    b->input = input;
    b->n = input->count;
    size_t m = b->n ? b->n : 1;
    b->in = vsg_calloc(m, sizeof *b->in);
    b->outs = vsg_calloc(m, sizeof *b->outs);
    if (!b->in || !b->outs) {
        free(b->in);
        free(b->outs);
        return vsg_engine_fail(e, VSG_ERR_NOMEM, -1, -1, "out of memory");
    }
    vsg_failure_init(&b->failure);
    return VSG_OK;
}

void vsg_batch_free(vsg_batch *b)
{
    if (!b->e)
        return;
    /* Any context can free any geometry; worker 0's is ours on this
     * thread now that no stage runs. */
    GEOSContextHandle_t ctx = b->e->workers[0].ctx;
    for (size_t i = 0; i < b->n; i++) {
        if (b->in[i].geom)
            GEOSGeom_destroy_r(ctx, b->in[i].geom);
        vsg_out_list *l = &b->outs[i];
        for (size_t k = 0; k < l->n; k++) {
            if (l->items[k].geom)
                GEOSGeom_destroy_r(ctx, l->items[k].geom);
            free(l->items[k].wkb);
        }
        free(l->items);
    }
    free(b->in);
    free(b->outs);
    free(b->known_valid);
    vsg_failure_destroy(&b->failure);
    memset(b, 0, sizeof *b);
}

vsg_status vsg_batch_stage(vsg_batch *b, const char *stage, vsg_task_fn fn, void *ctx,
                           int64_t (*rows_out)(const vsg_batch *))
{
    double t0 = vsg_now_s();
    vsg_pool_run(b->e->pool, b->n, fn, ctx);
    vsg_status st = vsg_engine_take_failure(b->e, &b->failure);
    vsg_profile_add(b->e->profile, stage, "CPU", vsg_now_s() - t0, (int64_t)b->n,
                    rows_out ? rows_out(b) : (int64_t)b->n, 0, 0, 0);
    return st;
}

static void read_task(void *vb, size_t i, int wid)
{
    vsg_batch *b = vb;
    if (vsg_failure_skip(&b->failure, (int64_t)i))
        return;
    vsg_worker *w = &b->e->workers[wid];
    char msg[512];
    int flags = b->known_valid && b->known_valid[i] ? VSG_READ_KNOWN_VALID : 0;
    if (b->defer_parse)
        flags |= VSG_READ_MAY_DEFER;
    vsg_status st = vsg_read_geometry(w, b->e->opts.invalid, flags, b->input->wkb[i],
                                      b->input->size[i], b->extent, "input", (int64_t)i,
                                      &b->in[i], msg, sizeof msg);
    if (st != VSG_OK)
        vsg_failure_record(&b->failure, (int64_t)i, st, (int64_t)i, -1, "%s",
                           st == VSG_ERR_NOMEM ? "out of memory" : msg);
}

static int64_t count_read(const vsg_batch *b)
{
    int64_t n = 0;
    for (size_t i = 0; i < b->n; i++)
        n += b->in[i].outcome == VSG_READ_GEOM;
    return n;
}

vsg_status vsg_batch_read(vsg_batch *b)
{
    b->e->counts.input_rows += (int64_t)b->n;
    if (b->e->valid_screen) {
        vsg_status st = b->e->valid_screen(b->e, b->input, b->defer_parse, &b->known_valid);
        if (st != VSG_OK)
            return st;
    }
    return vsg_batch_stage(b, "read_input", read_task, b, count_read);
}

/* The next item of l, or NULL when it cannot grow. */
static vsg_out_item *out_next(vsg_out_list *l)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 4;
        vsg_out_item *q = vsg_realloc(l->items, cap * sizeof *q);
        if (!q)
            return NULL;
        l->items = q;
        l->cap = cap;
    }
    return &l->items[l->n++];
}

vsg_status vsg_out_push(vsg_worker *w, vsg_out_list *l, int64_t method_index,
                        GEOSGeometry *g)
{
    vsg_out_item *it = out_next(l);
    if (!it) {
        GEOSGeom_destroy_r(w->ctx, g);
        return VSG_ERR_NOMEM;
    }
    it->method_index = method_index;
    it->geom = g;
    it->wkb = NULL;
    it->size = 0;
    return VSG_OK;
}

vsg_status vsg_out_push_wkb(vsg_out_list *l, int64_t method_index, unsigned char *wkb,
                            size_t size)
{
    vsg_out_item *it = out_next(l);
    if (!it) {
        free(wkb);
        return VSG_ERR_NOMEM;
    }
    it->method_index = method_index;
    it->geom = NULL;
    it->wkb = wkb;
    it->size = size;
    return VSG_OK;
}

vsg_status vsg_out_push_columnar(vsg_out_list *l, int64_t method_index, const vsg_columnar *c,
                                 int64_t t)
{
    size_t size = vsg_columnar_wkb_size(c, t);
    unsigned char *wkb = vsg_malloc(size ? size : 1);
    if (!wkb)
        return VSG_ERR_NOMEM;
    vsg_columnar_write_wkb(c, t, wkb);
    return vsg_out_push_wkb(l, method_index, wkb, size);
}

static void encode_task(void *vb, size_t i, int wid)
{
    vsg_batch *b = vb;
    vsg_worker *w = &b->e->workers[wid];
    /* The input geometry is not needed any more: free it here, in
     * parallel, rather than serially at the end. */
    if (b->in[i].geom) {
        GEOSGeom_destroy_r(w->ctx, b->in[i].geom);
        b->in[i].geom = NULL;
    }
    if (vsg_failure_skip(&b->failure, (int64_t)i))
        return;
    vsg_out_list *l = &b->outs[i];
    for (size_t k = 0; k < l->n; k++) {
        vsg_out_item *it = &l->items[k];
        if (!it->geom)
            continue;   /* WKB already (vsg_out_push_wkb) */
        vsg_worker_clear_message(w);
        vsg_status st = vsg_geom_to_wkb(w, it->geom, &it->wkb, &it->size);
        if (st != VSG_OK) {
            vsg_failure_record(&b->failure, (int64_t)i, st, (int64_t)i, it->method_index,
                               "input feature #%lld: writing the result: %s", (long long)i,
                               st == VSG_ERR_NOMEM ? "out of memory"
                                                   : vsg_worker_take_message(w));
            return;
        }
        GEOSGeom_destroy_r(w->ctx, it->geom);
        it->geom = NULL;
    }
}

int64_t vsg_batch_count_outputs(const vsg_batch *b)
{
    int64_t n = 0;
    for (size_t i = 0; i < b->n; i++)
        n += (int64_t)b->outs[i].n;
    return n;
}

vsg_status vsg_batch_encode(vsg_batch *b)
{
    return vsg_batch_stage(b, "encode", encode_task, b, vsg_batch_count_outputs);
}

vsg_status vsg_batch_assemble(vsg_batch *b, vsg_result *out)
{
    double t0 = vsg_now_s();
    vsg_result_clear(out);
    size_t total = (size_t)vsg_batch_count_outputs(b);
    if (vsg_result_reserve(out, total) != VSG_OK)
        return vsg_engine_fail(b->e, VSG_ERR_NOMEM, -1, -1, "out of memory");
    for (size_t i = 0; i < b->n; i++) {
        vsg_out_list *l = &b->outs[i];
        for (size_t k = 0; k < l->n; k++) {
            /* Cannot fail: capacity reserved above. Ownership moves. */
            vsg_result_push(out, (int64_t)i, l->items[k].method_index, l->items[k].wkb,
                            l->items[k].size);
            l->items[k].wkb = NULL;
        }
    }
    b->e->counts.output_rows += (int64_t)total;
    vsg_profile_add(b->e->profile, "assemble", "CPU", vsg_now_s() - t0, (int64_t)total,
                    (int64_t)total, 0, 0, 0);
    return VSG_OK;
}

vsg_status vsg_batch_finish(vsg_batch *b, vsg_status st, vsg_result *out)
{
    vsg_engine *e = b->e;
    if (st == VSG_OK)
        st = vsg_batch_encode(b);
    if (st == VSG_OK)
        st = vsg_batch_assemble(b, out);
    vsg_batch_free(b);
    vsg_engine_collect_counts(e);
    return st;
}
