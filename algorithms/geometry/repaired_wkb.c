/*
 * repaired_wkb.c - see repaired_wkb.h.
 */
#include "geometry/repaired_wkb.h"

#include <stdlib.h>
#include <string.h>

#include "core/fault.h"
#include "geometry/dimension.h"

void vsg_wkb_repaired_free(vsg_wkb_repaired *r)
{
    if (r->own)
        for (size_t i = 0; i < r->arr.count; i++)
            free(r->own[i]);
    free(r->own);
    free(r->wkb);
    free(r->size);
    memset(r, 0, sizeof *r);
}

vsg_status vsg_wkb_with_repairs(vsg_worker *w, const vsg_wkb_array *in,
                                const GEOSGeometry *(*repair_of)(const void *ud, size_t i),
                                const void *ud, vsg_wkb_repaired *out)
{
    size_t n = in->count, i = 0;
    memset(out, 0, sizeof *out);
    out->arr = *in;
    while (i < n && !repair_of(ud, i))
        i++;
    if (i == n)
        return VSG_OK;   /* nothing repaired: the caller's rows as they are */
    out->wkb = vsg_malloc(n * sizeof *out->wkb);
    out->size = vsg_malloc(n * sizeof *out->size);
    out->own = vsg_calloc(n, sizeof *out->own);
    out->arr.count = n;
    if (!out->wkb || !out->size || !out->own) {
        vsg_wkb_repaired_free(out);
        return VSG_ERR_NOMEM;
    }
    for (i = 0; i < n; i++) {
        const GEOSGeometry *g = repair_of(ud, i);
        out->wkb[i] = in->wkb[i];
        out->size[i] = in->size[i];
        if (!g)
            continue;
        vsg_status st = vsg_geom_to_wkb(w, g, &out->own[i], &out->size[i]);
        if (st != VSG_OK) {
            vsg_wkb_repaired_free(out);
            return st;
        }
        out->wkb[i] = out->own[i];
    }
    out->arr.wkb = out->wkb;
    out->arr.size = out->size;
    return VSG_OK;
}
