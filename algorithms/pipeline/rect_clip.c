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
#include "pipeline/rect_clip.h"

#include "core/fault.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine_internal.h"
#include "core/result.h"
#include "pipeline/screen.h"
#include "pipeline/state.h"
#include "elements/filter/bounds.h"
#include "stages/stages.h"

typedef struct {
    vsg_columnar host, dev, clip_dev, clip;
    double *boxes;
    uint8_t *row_cpu_dev;
    uint8_t *row_cpu;        /* host: the kernel's verdict, then OR invalid */
    uint8_t *invalid;        /* host: not valid as given (validate stage)   */
    uint32_t *why_dev, *why; /* the screen's verdicts (0: valid); NULL: none */
} rect_run;

/* ---- validate: the CPU engine's validity test, on the rows that can meet
 * the rectangle (the CPU engine never reads the others) ------------------ */
typedef struct {
    vsg_engine *e;
    const vsg_wkb_array *input;
    vsg_col_view view;      /* the batch as columnar, on the host */
    const double *rect;
    const uint32_t *why;    /* the screen's verdicts, or NULL */
    uint8_t *invalid;
    atomic_llong checked;   /* rows GEOS checked */
} validate_ctx;

static void validate_task(void *vc, size_t g, int wid)
{
    validate_ctx *v = vc;
    v->invalid[g] = 0;
    if (v->why && v->why[g] == 0)
        return;   /* proven valid by the screen */
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
    atomic_fetch_add(&v->checked, 1);
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
    vsg_exec_free(x, r->why_dev);
    free(r->row_cpu);
    free(r->invalid);
    free(r->why);
}

/* GEOS's validity test on the rows that need it, on every core. */
static void validate(vsg_engine *e, validate_ctx *vc, int64_t n)
{
    double t0 = vsg_now_s();
    atomic_store(&vc->checked, 0);
    vsg_pool_run(e->pool, (size_t)n, validate_task, vc);
    vsg_profile_add(e->profile, "validate", "CPU", vsg_now_s() - t0, n,
                    (int64_t)atomic_load(&vc->checked), 0, 0, 0);
}

/* The validity screen beside the clip, on the same stream: its verdicts
 * come down with the clip's. Its failures are the pipeline's, as the
 * clip's are (the batch re-runs on the CPU engine in AUTO). */
static vsg_status screen(vsg_exec *x, const vsg_col_view *in, rect_run *r)
{
    size_t n = (size_t)in->n_geoms;
    vsg_status st = vsg_exec_alloc(x, (n ? n : 1) * sizeof(uint32_t), (void **)&r->why_dev);
    if (st == VSG_OK)
        st = vsg_stage_valid_screen(x, in, r->why_dev);
    if (st == VSG_OK) {
        r->why = vsg_malloc((n ? n : 1) * sizeof(uint32_t));
        if (!r->why)
            st = VSG_ERR_NOMEM;
    }
    return st;
}

static vsg_status run_on_backend(vsg_exec *x, const double rect[4], rect_run *r,
                                 validate_ctx *vc, vsg_engine *e, int screened)
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
    if (st == VSG_OK && screened)
        st = screen(x, &in, r);
    if (st != VSG_OK)
        return st;
    /* Without the screen, GEOS checks validity while the device clips. */
    if (!r->why)
        validate(e, vc, n);
    r->row_cpu = vsg_malloc(n ? (size_t)n : 1);
    if (!r->row_cpu)
        return VSG_ERR_NOMEM;
    vsg_exec_stage_begin(x, "d2h");
    st = vsg_columnar_download(x, &r->clip_dev, &r->clip);
    if (st == VSG_OK)
        st = vsg_exec_download(x, r->row_cpu, r->row_cpu_dev, (size_t)n);
    if (st == VSG_OK && r->why)
        st = vsg_exec_download(x, r->why, r->why_dev, (size_t)n * sizeof(uint32_t));
    vsg_exec_stage_end(x, n, r->clip_dev.n_coords);
    if (st == VSG_OK)
        st = vsg_exec_sync(x);
    if (st == VSG_OK && r->why) {
        int64_t passed = 0;
        for (int64_t g = 0; g < n; g++)
            passed += r->why[g] == 0;
        vsg_profile_add_total(e->profile, "valid_screen", "GPU", 0.0, n, passed, 0, 0, 0);
        /* GEOS checks only what the screen did not prove */
        vc->why = r->why;
        validate(e, vc, n);
    }
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
    unsigned char *buf = vsg_malloc(total);
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

static void count_rows(const rect_run *r, vsg_pipeline_out *p)
{
    for (int64_t g = 0; g < r->host.n_geoms; g++) {
        if (r->row_cpu[g]) {
            p->n_handed_back++;
            continue;
        }
        if (r->host.flags[g] & VSG_GF_NULL)
            p->counts.null_geometries++;
        else if (r->host.flags[g] & VSG_GF_EMPTY)
            p->counts.empty_geometries++;
    }
}

vsg_status vsg_gpu_clip_rect(vsg_engine *e, const double rect[4], const vsg_wkb_array *input,
                             vsg_pipeline_out *p, int *used)
{
    *used = 0;
    vsg_status st;
    size_t n = input->count;
    if (!e->opts.gpu.enabled)
        return VSG_OK;
    if (e->gpu && e->gpu->broken) {
        /* a batch after the pipeline broke runs on the CPU engine, counted
         * (by the acquire), and is not decoded for nothing */
        (void)vsg_gpu_acquire_rows(e, (int64_t)n, &st);
        return st;
    }
    rect_run r;
    memset(&r, 0, sizeof r);
    vsg_columnar_init(&r.host);
    vsg_columnar_init(&r.dev);
    vsg_columnar_init(&r.clip_dev);
    vsg_columnar_init(&r.clip);

    /* decoded before the backend is asked for: the statement's first
     * batch decodes while CUDA finishes starting (cuda/warmup.cu) */
    double t0 = vsg_now_s();
    vsg_columnar_report rep;
    st = vsg_columnar_from_wkb(input, &r.host, &rep);
    vsg_profile_add(e->profile, "to_columnar", "CPU", vsg_now_s() - t0, (int64_t)n,
                    r.host.n_coords, 0, 0, 0);
    if (st != VSG_OK) {
        run_free(NULL, &r);
        return vsg_engine_fail(e, st, -1, -1, "out of memory decoding the batch");
    }
    /* a batch after the pipeline broke runs on the CPU engine, counted */
    vsg_exec *x = vsg_gpu_acquire_rows(e, (int64_t)n, &st);
    if (!x) {
        run_free(NULL, &r);
        return st;
    }
    r.invalid = vsg_calloc(n ? n : 1, 1);
    if (!r.invalid) {
        run_free(x, &r);
        return vsg_engine_fail(e, VSG_ERR_NOMEM, -1, -1, "out of memory");
    }
    validate_ctx vc = {e, input, vsg_columnar_view(&r.host), rect, NULL, r.invalid, 0};
    st = run_on_backend(x, rect, &r, &vc, e, vsg_pipeline_screen_wanted(e, x, input));
    vsg_exec_flush_profile(x, e->profile);
    if (st != VSG_OK) {
        run_free(x, &r);
        p->failed_step = "rectangle clip";
        return st;
    }
    *used = 1;
    count_rows(&r, p);
    p->counts.input_rows = (int64_t)n - p->n_handed_back;
    p->counts.gpu_rows = (int64_t)n - p->n_handed_back;

    /* encode the GPU's rows, then keep them in row order */
    t0 = vsg_now_s();
    unsigned char **wkb = vsg_calloc(n ? n : 1, sizeof *wkb);
    size_t *size = vsg_calloc(n ? n : 1, sizeof *size);
    encode_ctx ec = {&r, e->opts.promote_to_multi, wkb, size, 0};
    if (wkb && size)
        vsg_pool_run(e->pool, n, encode_task, &ec);
    int64_t encoded = 0;
    for (size_t i = 0; wkb && i < n; i++)
        encoded += wkb[i] != NULL;
    vsg_profile_add(e->profile, "encode", "CPU", vsg_now_s() - t0, (int64_t)n, encoded, 0, 0, 0);

    if (!wkb || !size || ec.failed || vsg_result_reserve(&p->settled, (size_t)encoded) != VSG_OK) {
        st = vsg_engine_fail(e, VSG_ERR_NOMEM, -1, -1, "out of memory encoding results");
    } else {
        for (size_t i = 0; i < n; i++)
            if (wkb[i]) {
                vsg_result_push(&p->settled, (int64_t)i, -1, wkb[i], size[i]);
                wkb[i] = NULL;
            }
        p->counts.output_rows = encoded;
        p->handed_back = r.row_cpu;   /* the kernel's verdict, OR invalid */
        r.row_cpu = NULL;
        if (p->n_handed_back > 0)
            snprintf(p->why, sizeof p->why,
                     "rows the GPU rectangle clip does not take (invalid as given, Z "
                     "coordinates, unsupported types, degenerate cases) ran on the CPU "
                     "engine");
    }
    for (size_t i = 0; wkb && i < n; i++)
        free(wkb[i]);
    free(wkb);
    free(size);
    run_free(x, &r);
    return st;
}
