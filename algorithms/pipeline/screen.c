/*
 * screen.c - the validity screen on the statement's GPU backend
 * (pipeline/screen.h).
 *
 *   decode   the rows in slices, one per worker, each into its own host
 *            columnar (the decoder is one thread per call)
 *   screen   per slice: up, the valid_screen stage, its verdicts down
 *
 * Each row is its own group, so slices are independent and their
 * verdicts simply concatenate.
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

typedef struct {
    const vsg_wkb_array *in;
    size_t n_slices;
    vsg_columnar *host;          /* n_slices */
    vsg_status *st;              /* n_slices */
} slices;

static size_t slice_first(const slices *s, size_t k)
{
    return s->in->count * k / s->n_slices;
}

static void decode_task(void *vp, size_t k, int wid)
{
    (void)wid;
    slices *s = vp;
    size_t a = slice_first(s, k), b = slice_first(s, k + 1);
    vsg_wkb_array sub = {b - a, s->in->wkb + a, s->in->size + a};
    vsg_columnar_report rep;
    s->st[k] = vsg_columnar_from_wkb(&sub, &s->host[k], &rep);
}

/* One slice on x: verdicts of its rows into why (host). */
static vsg_status screen_slice(vsg_exec *x, const vsg_columnar *host, uint32_t *why)
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
    slices s;
    s.in = in;
    s.n_slices = (size_t)vsg_engine_num_threads(e);
    s.n_slices = s.n_slices < 1 ? 1 : s.n_slices > n ? n : s.n_slices;
    s.host = vsg_calloc(s.n_slices, sizeof *s.host);
    s.st = vsg_calloc(s.n_slices, sizeof *s.st);
    uint32_t *why = vsg_malloc(n * sizeof *why);
    uint8_t *ok = vsg_malloc(n);
    if (!s.host || !s.st || !why || !ok) {
        st = VSG_ERR_NOMEM;
        goto done;
    }
    for (size_t k = 0; k < s.n_slices; k++)
        vsg_columnar_init(&s.host[k]);
    vsg_pool_run(e->pool, s.n_slices, decode_task, &s);
    for (size_t k = 0; k < s.n_slices && st == VSG_OK; k++)
        st = s.st[k];
    for (size_t k = 0; k < s.n_slices && st == VSG_OK; k++)
        st = screen_slice(x, &s.host[k], why + slice_first(&s, k));
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
done:
    for (size_t k = 0; s.host && k < s.n_slices; k++)
        vsg_columnar_free(&s.host[k]);
    free(s.host);
    free(s.st);
    free(why);
    free(ok);
    if (st == VSG_OK)
        return VSG_OK;
    /* the screen only saves GEOS work: AUTO goes on without it (noted) */
    return vsg_gpu_fallback(e, st, 0, "validity screen");
}
