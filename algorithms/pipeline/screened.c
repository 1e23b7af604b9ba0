/*
 * screened.c - see screened.h.
 */
#include "pipeline/screened.h"

#include <stdlib.h>
#include <string.h>

#include "core/fault.h"

vsg_status vsg_screened_add(vsg_screened *s, vsg_columnar *dev, const size_t *rows, size_t m,
                            size_t n_rows)
{
    int32_t k = s->n_src;
    if (s->row_src && s->n_rows != n_rows) {
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
    }
    vsg_columnar *d = vsg_realloc(s->dev, (size_t)(k + 1) * sizeof *d);
    if (d)
        s->dev = d;
    vsg_col_view *v = d ? vsg_realloc(s->views, (size_t)(k + 1) * sizeof *v) : NULL;
    if (v)
        s->views = v;
    if (!d || !v) {
        vsg_columnar_free(dev);
        return VSG_ERR_NOMEM;
    }
    s->dev[k] = *dev;
    vsg_columnar_init(dev);
    s->views[k] = vsg_columnar_view(&s->dev[k]);
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
    free(s->views);
    free(s->row_src);
    free(s->row_at);
    int keep = s->keep;
    memset(s, 0, sizeof *s);
    s->keep = keep;
}
