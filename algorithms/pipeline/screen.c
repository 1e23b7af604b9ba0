/*
 * screen.c - the validity screen on the statement's GPU backend
 * (pipeline/screen.h): per batch of rows, the rows decoded to columnar
 * (the decoder walks slices of rows on several threads), up to the
 * backend, the valid_screen stage, its verdicts down.
 */
#include "pipeline/screen.h"

#include <stdlib.h>
#include <string.h>

#include "columnar/columnar.h"
#include "core/fault.h"
#include "exec/exec.h"
#include "pipeline/state.h"
#include "stages/stages.h"
#include "stages/step.h"

/* By default (AUTO) only rows of at least SCREEN_ROW_BYTES of WKB (about
 * 1,000 vertices) are screened, and only when they add up to
 * SCREEN_MIN_BYTES: GEOS checks small rows on all cores faster than the
 * screen decodes, copies and launches for them, and what the screen
 * spares is the large polygons, whose IsValid costs GEOS most per vertex
 * and one thread each. Measured on the H200 host (docs/benchmarks.md,
 * 2026-11-26): screening every row of 8-11 M vertices of counties
 * (about 20 vertices a row) cost 0.09-0.15 s and spared GEOS 0.10-0.15 s;
 * screening the tiled NYC boroughs (about 15,000 vertices a row) cost
 * 0.10-0.12 s and spared 0.22-0.26 s. Where the reader defers the parse
 * of what passes (a dissolve, an overlay's method layer, an overlay's
 * input batches: spares_parse), the screen spares GEOS's parse too, most
 * of the read's cost: then rows of every size are screened once they add
 * up to SCREEN_MIN_BYTES. */
#define SCREEN_ROW_BYTES ((size_t)16 << 10)
#define SCREEN_MIN_BYTES ((size_t)1 << 20)

/* WKB bytes per stage call (about 8 M coordinates): the stage's arrays,
 * some 250 bytes per coordinate, stay near 2 GB whatever the layer's
 * size (a dissolve screens its whole layer). Rows are independent, so
 * calls over consecutive row ranges give the same verdicts. */
#define SCREEN_BATCH_BYTES ((size_t)128 << 20)

static size_t row_bytes(const vsg_wkb_array *in, size_t i)
{
    return in->wkb[i] ? in->size[i] : 0;
}

/* The rows' flags on dev (host's, copied up), with VSG_GF_SIMPLE where the
 * screen passed the row: what it proves of a valid row, rings that meet
 * neither themselves nor each other, is what the overlay refine asks of
 * its rows to leave their boundary's noding unchecked. */
static vsg_status mark_simple(vsg_exec *x, vsg_columnar *host, const uint32_t *why,
                              vsg_columnar *dev)
{
    size_t n = (size_t)host->n_geoms;
    for (size_t k = 0; k < n; k++)
        if (why[k] == 0)
            host->flags[k] |= VSG_GF_SIMPLE;
    return n ? vsg_exec_upload(x, dev->flags, host->flags, n) : VSG_OK;
}

/* The stage over host's rows on x: their verdicts into why (host). With
 * keep, the rows' decode on x goes to keep (geometry k is row rows[k] of
 * the layer in), with the rows it passes flagged simple, for the
 * statement's later stages; a failure to keep it only loses the reuse. */
static vsg_status screen_on(vsg_exec *x, vsg_columnar *host, uint32_t *why,
                            vsg_screened *keep, const size_t *rows, const vsg_wkb_array *in)
{
    vsg_columnar dev;
    vsg_columnar_init(&dev);
    uint32_t *why_dev = NULL;
    size_t n = (size_t)host->n_geoms;
    vsg_status st;
    TRY(vsg_columnar_upload(x, host, &dev));
    TRY(vsg_exec_alloc(x, (n ? n : 1) * sizeof(uint32_t), (void **)&why_dev));
    vsg_col_view v = vsg_columnar_view(&dev);
    TRY(vsg_stage_valid_screen(x, &v, why_dev));
    TRY(vsg_exec_download(x, why, why_dev, n * sizeof(uint32_t)));
    st = vsg_exec_sync(x);
    if (st == VSG_OK && keep && mark_simple(x, host, why, &dev) == VSG_OK)
        (void)vsg_screened_add(keep, &dev, rows, n, in->count, in->wkb);
done:
    vsg_exec_free(x, why_dev);
    vsg_columnar_free(&dev);
    return st;
}

int vsg_pipeline_screen_wanted(const vsg_engine *e, vsg_exec *x, const vsg_wkb_array *in)
{
    if (e->opts.valid_screen != 1)
        return e->opts.valid_screen == 2;
    if (vsg_exec_kind_of(x) != VSG_EXEC_GPU)
        return 0;
    size_t bytes = 0;
    for (size_t i = 0; i < in->count && bytes < SCREEN_MIN_BYTES; i++)
        bytes += row_bytes(in, i);
    return bytes >= SCREEN_MIN_BYTES;
}

void vsg_pipeline_screen_keep(vsg_engine *e, int on)
{
    if (!e->opts.gpu.enabled || (!on && !e->gpu))
        return;
    vsg_gpu_state *g = vsg_gpu_state_of(e);
    vsg_gpu_clear_screened(e);
    if (g)
        g->screened.keep = on;
}

/* The rows to screen (*idx, *m of them; NULL when none is worth it). */
static vsg_status pick_rows(const vsg_engine *e, const vsg_wkb_array *in, int spares_parse,
                            size_t **idx, size_t *m)
{
    size_t n = in->count, k = 0, bytes = 0;
    int all = e->opts.valid_screen == 2;
    size_t row_min = spares_parse ? 1 : SCREEN_ROW_BYTES;
    *idx = NULL;
    *m = 0;
    for (size_t i = 0; i < n; i++)
        if (all || row_bytes(in, i) >= row_min) {
            k++;
            bytes += row_bytes(in, i);
        }
    if (k == 0 || (!all && bytes < SCREEN_MIN_BYTES))
        return VSG_OK;
    *idx = vsg_malloc(k * sizeof **idx);
    if (!*idx)
        return VSG_ERR_NOMEM;
    for (size_t i = 0; i < n; i++)
        if (all || row_bytes(in, i) >= row_min)
            (*idx)[(*m)++] = i;
    return VSG_OK;
}

/* Decodes the rows [a, *b) of rows (as many from a as SCREEN_BATCH_BYTES
 * holds, at least one) into host. */
static vsg_status decode_next(const vsg_wkb_array *rows, size_t a, size_t *b, vsg_columnar *host)
{
    size_t k = a, bytes = 0;
    while (k < rows->count && (k == a || bytes + row_bytes(rows, k) <= SCREEN_BATCH_BYTES))
        bytes += row_bytes(rows, k++);
    *b = k;
    vsg_wkb_array sub = {k - a, rows->wkb + a, rows->size + a};
    vsg_columnar_report rep;
    return vsg_columnar_from_wkb(&sub, host, &rep);
}

vsg_status vsg_pipeline_valid_screen(vsg_engine *e, const vsg_wkb_array *in, int spares_parse,
                                     uint8_t **known_valid)
{
    *known_valid = NULL;
    size_t n = in->count, m = 0, *idx = NULL;
    if (!e->opts.gpu.enabled || e->opts.valid_screen == 0 || n == 0)
        return VSG_OK;   /* the CPU engine, or no screen asked for */
    /* the host backend runs the stage on one thread, slower than GEOS on
     * all of them: there only when asked (tests) */
    if (e->opts.gpu.backend == VSG_GPU_BACKEND_HOST && e->opts.valid_screen < 2)
        return VSG_OK;
    vsg_status st = pick_rows(e, in, spares_parse, &idx, &m);
    if (st != VSG_OK || !idx)
        return st == VSG_OK ? VSG_OK : vsg_gpu_give_up(e, st, "validity screen");
    double t0 = vsg_now_s();
    const unsigned char **wkb = vsg_malloc(m * sizeof *wkb);
    size_t *size = vsg_malloc(m * sizeof *size);
    uint32_t *why = vsg_malloc(m * sizeof *why);
    uint8_t *ok = vsg_calloc(n, 1);
    if (!wkb || !size || !why || !ok)
        st = VSG_ERR_NOMEM;
    for (size_t k = 0; k < m && st == VSG_OK; k++) {
        wkb[k] = in->wkb[idx[k]];
        size[k] = in->size[idx[k]];
    }
    vsg_wkb_array rows = {m, wkb, size};
    /* The first rows are decoded before the backend is asked for: the
     * statement's first screen decodes while CUDA finishes starting
     * (cuda/warmup.cu). */
    vsg_columnar host;
    vsg_columnar_init(&host);
    size_t a = 0, b = 0;
    if (st == VSG_OK)
        st = decode_next(&rows, a, &b, &host);
    vsg_exec *x = NULL;
    if (st == VSG_OK) {
        x = vsg_gpu_acquire(e, &st);
        if (!x) {   /* no GPU backend: GEOS checks every row */
            vsg_columnar_free(&host);
            free(idx);
            free(wkb);
            free(size);
            free(why);
            free(ok);
            return st;
        }
    }
    /* a decode kept from an earlier screen of the statement is not this one */
    int keep = e->gpu && e->gpu->screened.keep;
    vsg_gpu_clear_screened(e);
    while (st == VSG_OK) {
        st = screen_on(x, &host, why + a, keep ? &e->gpu->screened : NULL, idx + a, in);
        vsg_columnar_free(&host);
        a = b;
        if (st != VSG_OK || a == m)
            break;
        st = decode_next(&rows, a, &b, &host);
    }
    vsg_columnar_free(&host);
    if (x)
        vsg_exec_flush_profile(x, e->profile);
    if (st == VSG_OK) {
        int64_t passed = 0;
        for (size_t k = 0; k < m; k++) {
            ok[idx[k]] = why[k] == 0;
            passed += why[k] == 0;
        }
        *known_valid = ok;
        ok = NULL;
        vsg_profile_add(e->profile, "valid_screen", "GPU", vsg_now_s() - t0, (int64_t)m, passed,
                        0, 0, 0);
    }
    free(idx);
    free(wkb);
    free(size);
    free(why);
    free(ok);
    if (st == VSG_OK)
        return VSG_OK;
    /* it served the whole layer: AUTO goes on without the GPU (noted) */
    return vsg_gpu_give_up(e, st, "validity screen");
}
