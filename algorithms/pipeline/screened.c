/*
 * screened.c - see screened.h.
 */
#include "pipeline/screened.h"

#include <stdlib.h>
#include <string.h>

#include "core/fault.h"

static size_t slot_of(const unsigned char *p, size_t cap)
{
    uint64_t h = (uint64_t)(uintptr_t)p * 0x9E3779B97F4A7C15ull;
    return (size_t)(h >> 17) & (cap - 1);
}

static void put(vsg_screened *s, const unsigned char *p, int32_t src, int64_t row)
{
    size_t k = slot_of(p, s->cap);
    while (s->key[k] && s->key[k] != p)
        k = (k + 1) & (s->cap - 1);
    s->key[k] = p;
    s->src[k] = src;
    s->row[k] = row;
}

/* The table grown to hold need rows at most half full. */
static vsg_status reserve(vsg_screened *s, size_t need)
{
    if (2 * need <= s->cap)
        return VSG_OK;
    size_t cap = 1024;
    while (cap < 2 * need)
        cap *= 2;
    const unsigned char **key = vsg_calloc(cap, sizeof *key);
    int32_t *src = vsg_malloc(cap * sizeof *src);
    int64_t *row = vsg_malloc(cap * sizeof *row);
    if (!key || !src || !row) {
        free(key);
        free(src);
        free(row);
        return VSG_ERR_NOMEM;
    }
    vsg_screened old = *s;
    s->key = key;
    s->src = src;
    s->row = row;
    s->cap = cap;
    for (size_t k = 0; k < old.cap; k++)
        if (old.key[k])
            put(s, old.key[k], old.src[k], old.row[k]);
    free(old.key);
    free(old.src);
    free(old.row);
    return VSG_OK;
}

vsg_status vsg_screened_add(vsg_screened *s, vsg_columnar *dev, const unsigned char *const *wkb,
                            size_t m)
{
    int32_t k = s->n_src;
    vsg_columnar *d = vsg_realloc(s->dev, (size_t)(k + 1) * sizeof *d);
    if (d)
        s->dev = d;
    vsg_col_view *v = d ? vsg_realloc(s->views, (size_t)(k + 1) * sizeof *v) : NULL;
    if (v)
        s->views = v;
    if (!d || !v || reserve(s, s->n + m) != VSG_OK) {
        vsg_columnar_free(dev);
        return VSG_ERR_NOMEM;
    }
    s->dev[k] = *dev;
    vsg_columnar_init(dev);
    s->views[k] = vsg_columnar_view(&s->dev[k]);
    s->n_src = k + 1;
    for (size_t i = 0; i < m; i++)
        if (wkb[i])
            put(s, wkb[i], k, (int64_t)i);
    s->n += m;
    return VSG_OK;
}

int vsg_screened_find(const vsg_screened *s, const unsigned char *wkb, int32_t *src,
                      int64_t *row)
{
    if (!s || !s->cap || !wkb)
        return 0;
    for (size_t k = slot_of(wkb, s->cap); s->key[k]; k = (k + 1) & (s->cap - 1))
        if (s->key[k] == wkb) {
            *src = s->src[k];
            *row = s->row[k];
            return 1;
        }
    return 0;
}

void vsg_screened_clear(vsg_screened *s)
{
    for (int32_t k = 0; k < s->n_src; k++)
        vsg_columnar_free(&s->dev[k]);
    free(s->dev);
    free(s->views);
    free(s->key);
    free(s->src);
    free(s->row);
    int keep = s->keep;
    memset(s, 0, sizeof *s);
    s->keep = keep;
}
