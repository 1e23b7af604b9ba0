/*
 * screened.c - see screened.h.
 */
#include "pipeline/screened.h"

#include <stdlib.h>
#include <string.h>

#include "core/fault.h"
#include "exec/exec.h"
#include "stages/stages.h"
#include "stages/step.h"

vsg_status vsg_screened_add(vsg_screened *s, vsg_columnar *dev, const size_t *rows, size_t m,
                            size_t n_rows, const void *layer)
{
    int32_t k = s->n_src;
    if (s->row_src && (s->n_rows != n_rows || s->layer != layer)) {
        vsg_columnar_free(dev);   /* another layer's: not this statement's map */
        return VSG_ERR_INVALID_ARG;
    }
    if (!s->row_src) {
        s->row_src = vsg_malloc((n_rows ? n_rows : 1) * sizeof *s->row_src);
        s->row_at = vsg_malloc((n_rows ? n_rows : 1) * sizeof *s->row_at);
        if (!s->row_src || !s->row_at) {
            free(s->row_src);
            free(s->row_at);
            s->row_src = NULL;
            s->row_at = NULL;
            vsg_columnar_free(dev);
            return VSG_ERR_NOMEM;
        }
        memset(s->row_src, 0xff, (n_rows ? n_rows : 1) * sizeof *s->row_src);   /* -1 */
        s->n_rows = n_rows;
        s->layer = layer;
    }
    vsg_columnar *d = vsg_realloc(s->dev, (size_t)(k + 1) * sizeof *d);
    if (!d) {
        vsg_columnar_free(dev);
        return VSG_ERR_NOMEM;
    }
    s->dev = d;
    s->dev[k] = *dev;
    vsg_columnar_init(dev);
    s->n_src = k + 1;
    for (size_t i = 0; i < m; i++)
        if (rows[i] < n_rows) {
            s->row_src[rows[i]] = k;
            s->row_at[rows[i]] = (int64_t)i;
        }
    return VSG_OK;
}

int vsg_screened_find(const vsg_screened *s, int64_t row, int32_t *src, int64_t *at)
{
    if (!s || !s->row_src || row < 0 || (size_t)row >= s->n_rows || s->row_src[row] < 0)
        return 0;
    *src = s->row_src[row];
    *at = s->row_at[row];
    return 1;
}

void vsg_screened_clear(vsg_screened *s)
{
    for (int32_t k = 0; k < s->n_src; k++)
        vsg_columnar_free(&s->dev[k]);
    free(s->dev);
    free(s->row_src);
    free(s->row_at);
    int keep = s->keep;
    memset(s, 0, sizeof *s);
    s->keep = keep;
}

vsg_status vsg_screened_gather(vsg_exec *x, const vsg_screened *sc,
                               const vsg_wkb_array *members, const int64_t *rows,
                               vsg_columnar *dev, int *done)
{
    size_t n = members->count, hits = 0, misses = 0;
    *done = 0;
    for (int32_t k = 0; k < sc->n_src; k++)
        if (sc->dev[k].z)
            return VSG_OK;
    int32_t *gs = vsg_malloc((n ? n : 1) * sizeof *gs), *gs_dev = NULL;
    int64_t *gr = vsg_malloc((n ? n : 1) * sizeof *gr), *gr_dev = NULL;
    const unsigned char **mw = vsg_malloc((n ? n : 1) * sizeof *mw);
    size_t *ms = vsg_malloc((n ? n : 1) * sizeof *ms);
    vsg_col_view *views = vsg_malloc((size_t)(sc->n_src + 1) * sizeof *views);
    vsg_columnar mhost, mdev;
    vsg_columnar_init(&mhost);
    vsg_columnar_init(&mdev);
    vsg_status st = gs && gr && mw && ms && views ? VSG_OK : VSG_ERR_NOMEM;
    for (size_t i = 0; st == VSG_OK && i < n; i++) {
        if (vsg_screened_find(sc, rows[i], &gs[i], &gr[i])) {
            hits++;
        } else {
            gs[i] = sc->n_src;
            gr[i] = (int64_t)misses;
            mw[misses] = members->wkb[i];
            ms[misses++] = members->size[i];
        }
    }
    if (st != VSG_OK || hits == 0)
        goto done;
    int32_t n_src = sc->n_src;
    for (int32_t k = 0; k < n_src; k++)
        views[k] = vsg_columnar_view(&sc->dev[k]);
    if (misses > 0) {
        vsg_wkb_array rest = {misses, mw, ms};
        vsg_columnar_report rep;
        TRY(vsg_columnar_from_wkb(&rest, &mhost, &rep));
        if (mhost.z)
            goto done;   /* a repaired member with Z: decode them all */
        TRY(vsg_columnar_upload(x, &mhost, &mdev));
        views[n_src++] = vsg_columnar_view(&mdev);
    }
    TRY(vsg_exec_alloc(x, (n ? n : 1) * sizeof *gs_dev, (void **)&gs_dev));
    TRY(vsg_exec_alloc(x, (n ? n : 1) * sizeof *gr_dev, (void **)&gr_dev));
    TRY(vsg_exec_upload(x, gs_dev, gs, n * sizeof *gs));
    TRY(vsg_exec_upload(x, gr_dev, gr, n * sizeof *gr));
    TRY(vsg_stage_columnar_gather(x, views, n_src, gs_dev, gr_dev, (int64_t)n, dev));
    *done = 1;
done:
    vsg_exec_free(x, gs_dev);
    vsg_exec_free(x, gr_dev);
    vsg_columnar_free(&mdev);
    vsg_columnar_free(&mhost);
    free(gs);
    free(gr);
    free(mw);
    free(ms);
    free(views);
    return st;
}
