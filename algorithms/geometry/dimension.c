/*
 * dimension.c - see dimension.h.
 */
#include "dimension.h"

#include "core/fault.h"

#include <stdlib.h>
#include <string.h>

static int is_collection(int type)
{
    return type == GEOS_MULTIPOINT || type == GEOS_MULTILINESTRING ||
           type == GEOS_MULTIPOLYGON || type == GEOS_GEOMETRYCOLLECTION;
}

static int atomic_dim(int type)
{
    switch (type) {
    case GEOS_POINT: return 0;
    case GEOS_LINESTRING:
    case GEOS_LINEARRING: return 1;
    case GEOS_POLYGON: return 2;
    default: return -1;
    }
}

static int multi_type(int d)
{
    return d == 0 ? GEOS_MULTIPOINT : d == 1 ? GEOS_MULTILINESTRING : GEOS_MULTIPOLYGON;
}

int vsg_geom_dimension(GEOSContextHandle_t ctx, const GEOSGeometry *g)
{
    int type = GEOSGeomTypeId_r(ctx, g);
    if (type < 0)
        return -1;
    if (!is_collection(type))
        return GEOSisEmpty_r(ctx, g) == 0 ? atomic_dim(type) : -1;
    int n = GEOSGetNumGeometries_r(ctx, g), best = -1;
    for (int i = 0; i < n; i++) {
        int d = vsg_geom_dimension(ctx, GEOSGetGeometryN_r(ctx, g, i));
        if (d > best)
            best = d;
    }
    return best;
}

typedef struct {
    GEOSGeometry **parts;
    size_t n, cap;
    int64_t other;
    int failed;
} part_list;

/* Collects clones of the non-empty parts of dimension d. */
static void collect(GEOSContextHandle_t ctx, const GEOSGeometry *g, int d, part_list *pl)
{
    if (pl->failed)
        return;
    int type = GEOSGeomTypeId_r(ctx, g);
    if (type < 0) {
        pl->failed = 1;
        return;
    }
    if (is_collection(type)) {
        int n = GEOSGetNumGeometries_r(ctx, g);
        for (int i = 0; i < n; i++)
            collect(ctx, GEOSGetGeometryN_r(ctx, g, i), d, pl);
        return;
    }
    if (GEOSisEmpty_r(ctx, g) != 0)
        return;
    if (atomic_dim(type) != d) {
        pl->other++;
        return;
    }
    if (pl->n == pl->cap) {
        size_t cap = pl->cap ? 2 * pl->cap : 8;
        GEOSGeometry **q = vsg_realloc(pl->parts, cap * sizeof *q);
        if (!q) {
            pl->failed = 1;
            return;
        }
        pl->parts = q;
        pl->cap = cap;
    }
    GEOSGeometry *c = GEOSGeom_clone_r(ctx, g);
    if (!c) {
        pl->failed = 1;
        return;
    }
    pl->parts[pl->n++] = c;
}

/* Whether g is already "of dimension d": a non-empty single of that
 * dimension, or the Multi type of d (its parts are of d by construction). */
static int already_pure(GEOSContextHandle_t ctx, const GEOSGeometry *g, int d)
{
    int type = GEOSGeomTypeId_r(ctx, g);
    if (type == multi_type(d) && d >= 0)
        return 1;
    return !is_collection(type) && atomic_dim(type) == d;
}

static vsg_status flatten_dim(GEOSContextHandle_t ctx, GEOSGeometry *g, int d,
                              GEOSGeometry **out, int64_t *n_other);

vsg_status vsg_geom_keep_dim(GEOSContextHandle_t ctx, GEOSGeometry *g, int d,
                             GEOSGeometry **out, int64_t *n_other)
{
    *out = NULL;
    if (n_other)
        *n_other = 0;
    if (GEOSisEmpty_r(ctx, g) == 1) {
        GEOSGeom_destroy_r(ctx, g);
        return VSG_OK;
    }
    if (already_pure(ctx, g, d)) {
        *out = g;
        return VSG_OK;
    }
    return flatten_dim(ctx, g, d, out, n_other);
}

static vsg_status flatten_dim(GEOSContextHandle_t ctx, GEOSGeometry *g, int d,
                              GEOSGeometry **out, int64_t *n_other)
{
    *out = NULL;
    part_list pl = {0};
    collect(ctx, g, d, &pl);
    GEOSGeom_destroy_r(ctx, g);
    if (pl.failed) {
        for (size_t i = 0; i < pl.n; i++)
            GEOSGeom_destroy_r(ctx, pl.parts[i]);
        free(pl.parts);
        return VSG_ERR_GEOS;
    }
    if (n_other)
        *n_other = pl.other;
    vsg_status st = VSG_OK;
    if (pl.n == 1) {
        *out = pl.parts[0];
    } else if (pl.n > 1) {
        /* createCollection takes the parts, not the array. */
        *out = GEOSGeom_createCollection_r(ctx, multi_type(d), pl.parts, (unsigned)pl.n);
        if (!*out) {
            for (size_t i = 0; i < pl.n; i++)
                GEOSGeom_destroy_r(ctx, pl.parts[i]);
            st = VSG_ERR_GEOS;
        }
    }
    free(pl.parts);
    return st;
}

GEOSGeometry *vsg_geom_overlay_form(GEOSContextHandle_t ctx, GEOSGeometry *g)
{
    int type = GEOSGeomTypeId_r(ctx, g);
    int d = type == GEOS_MULTIPOINT ? 0 : type == GEOS_MULTILINESTRING ? 1
          : type == GEOS_MULTIPOLYGON ? 2 : -1;
    if (d < 0)
        return g;
    int n = GEOSGetNumGeometries_r(ctx, g), non_empty = 0;
    for (int i = 0; i < n; i++)
        non_empty += GEOSisEmpty_r(ctx, GEOSGetGeometryN_r(ctx, g, i)) == 0;
    if (non_empty == 0 || (non_empty == n && n != 1))
        return g;
    /* flatten_dim keeps the non-empty parts of d: one comes back single,
     * several as the Multi type. */
    GEOSGeometry *out = NULL;
    return flatten_dim(ctx, g, d, &out, NULL) == VSG_OK ? out : NULL;
}

GEOSGeometry *vsg_geom_overlay_copy(GEOSContextHandle_t ctx, const GEOSGeometry *g)
{
    GEOSGeometry *c = GEOSGeom_clone_r(ctx, g);
    return c ? vsg_geom_overlay_form(ctx, c) : NULL;
}

GEOSGeometry *vsg_geom_promote_multi(GEOSContextHandle_t ctx, GEOSGeometry *g)
{
    int type = GEOSGeomTypeId_r(ctx, g);
    int d = atomic_dim(type);
    if (is_collection(type) || d < 0)
        return g;
    if (type == GEOS_LINEARRING) {
        /* A ring is a closed line: as a part of a MultiLineString it is a
         * LineString. */
        const GEOSCoordSequence *cs = GEOSGeom_getCoordSeq_r(ctx, g);
        GEOSCoordSequence *copy = cs ? GEOSCoordSeq_clone_r(ctx, cs) : NULL;
        GEOSGeometry *ls = copy ? GEOSGeom_createLineString_r(ctx, copy) : NULL;
        GEOSGeom_destroy_r(ctx, g);
        if (!ls)
            return NULL;
        g = ls;
    }
    GEOSGeometry *parts[1] = {g};
    GEOSGeometry *m = GEOSGeom_createCollection_r(ctx, multi_type(d), parts, 1);
    if (!m)
        GEOSGeom_destroy_r(ctx, g);
    return m;
}

GEOSGeometry *vsg_geom_empty_multi(GEOSContextHandle_t ctx, int d)
{
    return GEOSGeom_createEmptyCollection_r(ctx, multi_type(d));
}

vsg_status vsg_apply_type_rule(vsg_worker *w, const vsg_engine_options *o,
                               GEOSGeometry *r, int pair_dim, GEOSGeometry **out)
{
    *out = NULL;
    int empty = GEOSisEmpty_r(w->ctx, r);
    if (empty != 0) {
        GEOSGeom_destroy_r(w->ctx, r);
        return empty == 1 ? VSG_OK : VSG_ERR_GEOS;
    }
    GEOSGeometry *kept = r;
    if (!o->keep_lower_dim) {
        vsg_status st = vsg_geom_keep_dim(w->ctx, r, pair_dim, &kept, NULL);
        if (st != VSG_OK)
            return st;
        if (!kept) {
            w->counts.lower_dim_dropped++;
            return VSG_OK;
        }
    }
    if (o->promote_to_multi) {
        kept = vsg_geom_promote_multi(w->ctx, kept);
        if (!kept)
            return VSG_ERR_GEOS;
    }
    *out = kept;
    return VSG_OK;
}

vsg_status vsg_geom_to_wkb(vsg_worker *w, const GEOSGeometry *g,
                           unsigned char **wkb, size_t *size)
{
    *wkb = NULL;
    *size = 0;
    size_t n = 0;
    unsigned char *buf = GEOSWKBWriter_write_r(w->ctx, w->writer, g, &n);
    if (!buf)
        return VSG_ERR_GEOS;
    /* Results are freed with free() by vsg_result_clear: copy out of
     * GEOS's allocation rather than assume GEOSFree_r is free(). */
    unsigned char *copy = vsg_malloc(n ? n : 1);
    if (!copy) {
        GEOSFree_r(w->ctx, buf);
        return VSG_ERR_NOMEM;
    }
    memcpy(copy, buf, n);
    GEOSFree_r(w->ctx, buf);
    *wkb = copy;
    *size = n;
    return VSG_OK;
}
