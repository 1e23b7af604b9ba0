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

/* By default rows below this go unscreened: the GEOS checks are cheaper
 * than the stage's some eighty launches. */
#define SCREEN_MIN_ROWS 64

/* WKB bytes per stage call (about 8 M coordinates): the stage's arrays,
 * some 200 bytes per coordinate, stay near 2 GB whatever the layer's
 * size (a dissolve screens its whole layer). Rows are independent, so
 * calls over consecutive row ranges give the same verdicts. */
#define SCREEN_BATCH_BYTES ((size_t)128 << 20)

static size_t row_bytes(const vsg_wkb_array *in, size_t i)
{
    return in->wkb[i] ? in->size[i] : 0;
}

/* The stage over host's rows on x: their verdicts into why (host). */
static vsg_status screen_on(vsg_exec *x, const vsg_columnar *host, uint32_t *why)
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
done:
    vsg_exec_free(x, why_dev);
    vsg_columnar_free(&dev);
    return st;
}

vsg_status vsg_pipeline_valid_screen(vsg_engine *e, const vsg_wkb_array *in,
                                     uint8_t **known_valid)
{
    *known_valid = NULL;
    size_t n = in->count;
    if (e->opts.valid_screen == 0 || n == 0 || (e->opts.valid_screen == 1 && n < SCREEN_MIN_ROWS))
        return VSG_OK;
    vsg_status st = VSG_OK;
    vsg_exec *x = vsg_gpu_acquire(e, &st);
    if (!x)
        return st;   /* no GPU backend: GEOS checks every row */
    /* the host backend runs the stage on one thread, slower than GEOS on
     * all of them: there only when asked (tests) */
    if (vsg_exec_kind_of(x) != VSG_EXEC_GPU && e->opts.valid_screen < 2)
        return VSG_OK;
    double t0 = vsg_now_s();
    uint32_t *why = vsg_malloc(n * sizeof *why);
    uint8_t *ok = vsg_malloc(n);
    if (!why || !ok)
        st = VSG_ERR_NOMEM;
    for (size_t a = 0; a < n && st == VSG_OK;) {
        size_t b = a, bytes = 0;
        while (b < n && (b == a || bytes + row_bytes(in, b) <= SCREEN_BATCH_BYTES))
            bytes += row_bytes(in, b++);
        vsg_wkb_array sub = {b - a, in->wkb + a, in->size + a};
        vsg_columnar host;
        vsg_columnar_report rep;
        st = vsg_columnar_from_wkb(&sub, &host, &rep);
        if (st == VSG_OK)
            st = screen_on(x, &host, why + a);
        vsg_columnar_free(&host);
        a = b;
    }
    vsg_exec_flush_profile(x, e->profile);
    if (st == VSG_OK) {
        int64_t passed = 0;
        for (size_t i = 0; i < n; i++) {
            ok[i] = why[i] == 0;
            passed += ok[i];
        }
        *known_valid = ok;
        ok = NULL;
        vsg_profile_add(e->profile, "valid_screen", "GPU", vsg_now_s() - t0, (int64_t)n, passed,
                        0, 0, 0);
    }
    free(why);
    free(ok);
    if (st == VSG_OK)
        return VSG_OK;
    /* the screen only saves GEOS work: AUTO goes on without it (noted) */
    return vsg_gpu_fallback(e, st, 0, "validity screen");
}
