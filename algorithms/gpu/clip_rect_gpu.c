/*
 * clip_rect_gpu.c - see clip_rect_gpu.h.
 *
 * Semantics match the CPU engine's rectangle clip row for row: a row whose
 * clip is empty gives no result; PROMOTE_TO_MULTI wraps single geometries;
 * nulls and empties are counted as the CPU read counts them. The clip
 * kernel assumes valid input, and the CPU engine applies VSGPU_INVALID to
 * every row that can meet the rectangle: so does this pipeline, in a
 * "validate" stage on the host (GEOS, in parallel, while the device
 * clips): a row that is not valid as given goes to the CPU engine, which
 * repairs, skips or fails it exactly as without the GPU.
 */
#include "gpu/clip_rect_gpu.h"

#include <stdlib.h>
#include <string.h>

#include "core/engine_internal.h"
#include "core/result.h"
#include "gpu/gpu_state.h"
#include "overlay/clip_rect.h"
#include "elements/bounds.h"
#include "stages/stages.h"

typedef struct {
    vsg_columnar host, dev, clip_dev, clip;
    double *boxes;
    uint8_t *row_cpu_dev;
    uint8_t *row_cpu;        /* host: the kernel's verdict, then OR invalid */
    uint8_t *invalid;        /* host: not valid as given (validate stage)   */
} rect_run;

/* ---- validate: the CPU engine's validity test, on the rows that can meet
 * the rectangle (the CPU engine never reads the others) ------------------ */
typedef struct {
    vsg_engine *e;
    const vsg_wkb_array *input;
    vsg_col_view view;      /* the batch as columnar, on the host */
    const double *rect;
    uint8_t *invalid;
} validate_ctx;

static void validate_task(void *vc, size_t g, int wid)
{
    validate_ctx *v = vc;
    v->invalid[g] = 0;
    /* The bounds stage's element, on the host. Rows without usable
     * coordinates (null, empty, flagged) need no check: the kernel hands
     * the flagged ones to the CPU engine, which reads them itself. */
    double box[4];
    int64_t k0, k1;
    if (!vsg_geom_coords(&v->view, (int64_t)g, &k0, &k1))
        return;
    vsg_box_of_coords(v->view.x, v->view.y, k0, k1, 1, box);
    if (!vsg_box_meets(box, v->rect))
        return;   /* outside: no result either way */
    vsg_worker *w = &v->e->workers[wid];
    GEOSGeometry *geom = GEOSWKBReader_read_r(w->ctx, w->reader, v->input->wkb[g],
                                              v->input->size[g]);
    /* unreadable by GEOS (e.g. an unclosed ring): the CPU engine decides */
    v->invalid[g] = (uint8_t)(!geom || GEOSisValid_r(w->ctx, geom) != 1);
    if (geom)
        GEOSGeom_destroy_r(w->ctx, geom);
}

static void run_free(vsg_exec *x, rect_run *r)
{
    vsg_columnar_free(&r->host);
    vsg_columnar_free(&r->dev);
    vsg_columnar_free(&r->clip_dev);
    vsg_columnar_free(&r->clip);
    vsg_exec_free(x, r->boxes);
    vsg_exec_free(x, r->row_cpu_dev);
    free(r->row_cpu);
    free(r->invalid);
}

static vsg_status run_on_backend(vsg_exec *x, const double rect[4], rect_run *r,
                                 validate_ctx *vc, vsg_engine *e)
{
    int64_t n = r->host.n_geoms;
    vsg_exec_stage_begin(x, "h2d");
    vsg_status st = vsg_columnar_upload(x, &r->host, &r->dev);
    vsg_exec_stage_end(x, n, r->host.n_coords);
    if (st == VSG_OK)
        st = vsg_exec_alloc(x, (size_t)n * 4 * sizeof(double), (void **)&r->boxes);
    if (st == VSG_OK)
        st = vsg_exec_alloc(x, (size_t)n, (void **)&r->row_cpu_dev);
    vsg_col_view in = vsg_columnar_view(&r->dev);
    if (st == VSG_OK)
        st = vsg_stage_bounds(x, &in, r->boxes);
    if (st == VSG_OK)
        st = vsg_stage_rect_clip(x, &in, r->boxes, rect, &r->clip_dev, r->row_cpu_dev);
    if (st != VSG_OK)
        return st;
    /* The device has the fill pass queued; check validity meanwhile. */
    double t0 = vsg_now_s();
    vsg_pool_run(e->pool, (size_t)n, validate_task, vc);
    vsg_profile_add(e->profile, "validate", "CPU", vsg_now_s() - t0, n, 0, 0, 0, 0);
    r->row_cpu = malloc(n ? (size_t)n : 1);
    if (!r->row_cpu)
        return VSG_ERR_NOMEM;
    vsg_exec_stage_begin(x, "d2h");
    st = vsg_columnar_download(x, &r->clip_dev, &r->clip);
    if (st == VSG_OK)
        st = vsg_exec_download(x, r->row_cpu, r->row_cpu_dev, (size_t)n);
    vsg_exec_stage_end(x, n, r->clip_dev.n_coords);
    if (st == VSG_OK)
        st = vsg_exec_sync(x);
    /* rows not valid as given are the CPU engine's too */
    for (int64_t g = 0; st == VSG_OK && g < n; g++)
        r->row_cpu[g] |= r->invalid[g];
    return st;
}

/* ---- encode: columnar rows -> WKB, in parallel -------------------------- */
typedef struct {
    const rect_run *r;
    int promote;
    unsigned char **wkb;
    size_t *size;
    int failed;
} encode_ctx;

static int single_type(int t)
{
    return t == VSG_GT_POINT || t == VSG_GT_LINESTRING || t == VSG_GT_POLYGON;
}

static void encode_task(void *vc, size_t g, int wid)
{
    (void)wid;
    encode_ctx *c = vc;
    const vsg_columnar *cl = &c->r->clip;
    c->wkb[g] = NULL;
    c->size[g] = 0;
    if (c->r->row_cpu[g] || (cl->flags[g] & (VSG_GF_EMPTY | VSG_GF_NULL)))
        return;
    size_t n = vsg_columnar_wkb_size(cl, (int64_t)g);
    if (n == 0)
        return;
    int wrap = c->promote && single_type(cl->type[g]);
    size_t total = n + (wrap ? 9 : 0);
    unsigned char *buf = malloc(total);
    if (!buf) {
        c->failed = 1;
        return;
    }
    if (wrap) {
        /* Multi<T> of one member: byte order, type (+1000 for Z), count 1 */
        uint32_t type = (uint32_t)cl->type[g] + 3u + ((cl->flags[g] & VSG_GF_Z) ? 1000u : 0u);
        uint32_t one = 1;
        buf[0] = 1;
        memcpy(buf + 1, &type, 4);
        memcpy(buf + 5, &one, 4);
    }
    vsg_columnar_write_wkb(cl, (int64_t)g, buf + (wrap ? 9 : 0));
    c->wkb[g] = buf;
    c->size[g] = total;
}

/* ---- the rows handed back to the CPU engine ------------------------------ */
static vsg_status run_cpu_rows(vsg_engine *e, const double rect[4], const vsg_wkb_array *input,
                               const uint8_t *row_cpu, int64_t n_cpu, vsg_result *cpu_out,
                               int64_t **cpu_rows)
{
    const unsigned char **wkb = malloc((size_t)n_cpu * sizeof *wkb);
    size_t *size = malloc((size_t)n_cpu * sizeof *size);
    *cpu_rows = malloc((size_t)n_cpu * sizeof **cpu_rows);
    if (!wkb || !size || !*cpu_rows) {
        free(wkb);
        free(size);
        return VSG_ERR_NOMEM;
    }
    int64_t k = 0;
    for (size_t i = 0; i < input->count; i++) {
        if (!row_cpu[i])
            continue;
        wkb[k] = input->wkb[i];
        size[k] = input->size[i];
        (*cpu_rows)[k++] = (int64_t)i;
    }
    vsg_wkb_array sub = {(size_t)n_cpu, wkb, size};
    vsg_status st = vsg_clip_rect_cpu(e, rect, &sub, cpu_out);
    if (st != VSG_OK && e->error_input_index >= 0 && e->error_input_index < n_cpu)
        e->error_input_index = (*cpu_rows)[e->error_input_index];  /* batch-relative */
    free(wkb);
    free(size);
    return st;
}

/* Merges GPU rows (wkb[i]) and CPU rows (cpu_out, input_index relative to
 * cpu_rows) into out, in input order. Takes every buffer. */
static vsg_status merge(size_t n, unsigned char **wkb, size_t *size, vsg_result *cpu_out,
                        const int64_t *cpu_rows, vsg_result *out)
{
    size_t total = cpu_out->count;
    for (size_t i = 0; i < n; i++)
        total += wkb[i] != NULL;
    if (vsg_result_reserve(out, total) != VSG_OK)
        return VSG_ERR_NOMEM;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (wkb[i]) {
            vsg_result_push(out, (int64_t)i, -1, wkb[i], size[i]);
            wkb[i] = NULL;
        }
        while (k < cpu_out->count && cpu_rows[cpu_out->input_index[k]] == (int64_t)i) {
            vsg_result_push(out, (int64_t)i, -1, cpu_out->wkb[k], cpu_out->size[k]);
            cpu_out->wkb[k] = NULL;
            k++;
        }
    }
    return VSG_OK;
}

static void count_rows(vsg_engine *e, const rect_run *r, int64_t *n_cpu)
{
    *n_cpu = 0;
    for (int64_t g = 0; g < r->host.n_geoms; g++) {
        if (r->row_cpu[g]) {
            (*n_cpu)++;
            continue;
        }
        if (r->host.flags[g] & VSG_GF_NULL)
            e->counts.null_geometries++;
        else if (r->host.flags[g] & VSG_GF_EMPTY)
            e->counts.empty_geometries++;
    }
}

vsg_status vsg_gpu_clip_rect(vsg_engine *e, const double rect[4], const vsg_wkb_array *input,
                             vsg_result *out, int *used)
{
    *used = 0;
    vsg_status st;
    vsg_exec *x = vsg_gpu_acquire(e, &st);
    if (!x)
        return st;
    if (!input || (input->count && (!input->wkb || !input->size)))
        return vsg_engine_fail(e, VSG_ERR_INVALID_ARG, -1, -1, "bad input array");
    size_t n = input->count;
    rect_run r;
    memset(&r, 0, sizeof r);
    vsg_columnar_init(&r.host);
    vsg_columnar_init(&r.dev);
    vsg_columnar_init(&r.clip_dev);
    vsg_columnar_init(&r.clip);

    double t0 = vsg_now_s();
    vsg_columnar_report rep;
    st = vsg_columnar_from_wkb(input, &r.host, &rep);
    vsg_profile_add(e->profile, "to_columnar", "CPU", vsg_now_s() - t0, (int64_t)n,
                    r.host.n_coords, 0, 0, 0);
    if (st != VSG_OK) {
        run_free(x, &r);
        return vsg_engine_fail(e, st, -1, -1, "out of memory decoding the batch");
    }
    r.invalid = calloc(n ? n : 1, 1);
    if (!r.invalid) {
        run_free(x, &r);
        return vsg_engine_fail(e, VSG_ERR_NOMEM, -1, -1, "out of memory");
    }
    validate_ctx vc = {e, input, vsg_columnar_view(&r.host), rect, r.invalid};
    st = run_on_backend(x, rect, &r, &vc, e);
    vsg_exec_flush_profile(x, e->profile);
    if (st != VSG_OK) {
        run_free(x, &r);
        return vsg_gpu_fallback(e, st, (int64_t)n, "rectangle clip");
    }
    *used = 1;
    e->counts.input_rows += (int64_t)n;

    int64_t n_cpu;
    count_rows(e, &r, &n_cpu);
    e->counts.gpu_rows += (int64_t)n - n_cpu;

    /* encode the GPU's rows */
    t0 = vsg_now_s();
    unsigned char **wkb = calloc(n ? n : 1, sizeof *wkb);
    size_t *size = calloc(n ? n : 1, sizeof *size);
    encode_ctx ec = {&r, e->opts.promote_to_multi, wkb, size, 0};
    if (wkb && size)
        vsg_pool_run(e->pool, n, encode_task, &ec);
    int64_t encoded = 0;
    for (size_t i = 0; wkb && i < n; i++)
        encoded += wkb[i] != NULL;
    vsg_profile_add(e->profile, "encode", "CPU", vsg_now_s() - t0, (int64_t)n, encoded, 0, 0, 0);

    /* the rows handed back */
    vsg_result cpu_out;
    vsg_result_init(&cpu_out);
    int64_t *cpu_rows = NULL;
    if (!wkb || !size || ec.failed)
        st = vsg_engine_fail(e, VSG_ERR_NOMEM, -1, -1, "out of memory encoding results");
    else if (n_cpu > 0) {
        vsg_gpu_note_rerun(e, n_cpu,
                           "rows the GPU rectangle clip does not take (invalid as given, Z "
                           "coordinates, unsupported types, degenerate cases) ran on the CPU "
                           "engine");
        /* vsg_clip_rect_cpu counts these rows itself (input_rows too) */
        e->counts.input_rows -= n_cpu;
        st = run_cpu_rows(e, rect, input, r.row_cpu, n_cpu, &cpu_out, &cpu_rows);
    }
    if (st == VSG_OK) {
        vsg_result_clear(out);
        if (merge(n, wkb, size, &cpu_out, cpu_rows, out) != VSG_OK)
            st = vsg_engine_fail(e, VSG_ERR_NOMEM, -1, -1, "out of memory");
        else
            e->counts.output_rows += encoded;
    }
    if (st != VSG_OK)
        vsg_result_clear(out);
    for (size_t i = 0; wkb && i < n; i++)
        free(wkb[i]);
    free(wkb);
    free(size);
    free(cpu_rows);
    vsg_result_clear(&cpu_out);
    run_free(x, &r);
    return st;
}
