/*
 * engine_fixtures.h - helpers shared by the engine's C tests: WKB built
 * from WKT with GEOS, input arrays, and GEOS as the oracle (area of the
 * symmetric difference).
 */
#ifndef VSG_ENGINE_FIXTURES_H
#define VSG_ENGINE_FIXTURES_H

#include <geos_c.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vsgpu_engine.h"

/* Each test uses a subset of the helpers. */
#define FX_FN static __attribute__((unused))

static GEOSContextHandle_t fx_ctx __attribute__((unused));

FX_FN void fx_init(void)
{
    if (!fx_ctx)
        fx_ctx = GEOS_init_r();
}

FX_FN void fx_finish(void)
{
    if (fx_ctx)
        GEOS_finish_r(fx_ctx);
    fx_ctx = NULL;
}

FX_FN GEOSGeometry *fx_geom(const char *wkt)
{
    GEOSWKTReader *r = GEOSWKTReader_create_r(fx_ctx);
    GEOSGeometry *g = GEOSWKTReader_read_r(fx_ctx, r, wkt);
    GEOSWKTReader_destroy_r(fx_ctx, r);
    if (!g)
        fprintf(stderr, "fixture: bad WKT %s\n", wkt);
    return g;
}

/* WKB (malloc'ed) of a geometry; big endian / EWKB on request. */
FX_FN unsigned char *fx_wkb_of(const GEOSGeometry *g, size_t *size, int big, int extended)
{
    GEOSWKBWriter *w = GEOSWKBWriter_create_r(fx_ctx);
    GEOSWKBWriter_setByteOrder_r(fx_ctx, w, big ? GEOS_WKB_XDR : GEOS_WKB_NDR);
    GEOSWKBWriter_setFlavor_r(fx_ctx, w, extended ? GEOS_WKB_EXTENDED : GEOS_WKB_ISO);
    GEOSWKBWriter_setOutputDimension_r(fx_ctx, w, 3);
    unsigned char *buf = GEOSWKBWriter_write_r(fx_ctx, w, g, size);
    GEOSWKBWriter_destroy_r(fx_ctx, w);
    unsigned char *copy = malloc(*size);
    memcpy(copy, buf, *size);
    GEOSFree_r(fx_ctx, buf);
    return copy;
}

FX_FN unsigned char *fx_wkb(const char *wkt, size_t *size)
{
    GEOSGeometry *g = fx_geom(wkt);
    if (!g)
        return NULL;
    unsigned char *b = fx_wkb_of(g, size, 0, 0);
    GEOSGeom_destroy_r(fx_ctx, g);
    return b;
}

FX_FN GEOSGeometry *fx_read(const unsigned char *wkb, size_t size)
{
    GEOSWKBReader *r = GEOSWKBReader_create_r(fx_ctx);
    GEOSGeometry *g = GEOSWKBReader_read_r(fx_ctx, r, wkb, size);
    GEOSWKBReader_destroy_r(fx_ctx, r);
    return g;
}

FX_FN char *fx_wkt_of_wkb(const unsigned char *wkb, size_t size)
{
    GEOSGeometry *g = fx_read(wkb, size);
    if (!g)
        return NULL;
    GEOSWKTWriter *w = GEOSWKTWriter_create_r(fx_ctx);
    GEOSWKTWriter_setTrim_r(fx_ctx, w, 1);
    char *t = GEOSWKTWriter_write_r(fx_ctx, w, g);
    GEOSWKTWriter_destroy_r(fx_ctx, w);
    GEOSGeom_destroy_r(fx_ctx, g);
    size_t len = strlen(t) + 1;
    char *copy = malloc(len);
    memcpy(copy, t, len);
    GEOSFree_r(fx_ctx, t);
    return copy;
}

/* A growable array of WKB (owned), viewed as a vsg_wkb_array. */
typedef struct {
    size_t count, cap;
    unsigned char **wkb;
    size_t *size;
    vsg_wkb_array view;
} fx_array;

FX_FN void fx_push_raw(fx_array *a, unsigned char *wkb, size_t size)
{
    if (a->count == a->cap) {
        a->cap = a->cap ? 2 * a->cap : 16;
        a->wkb = realloc(a->wkb, a->cap * sizeof *a->wkb);
        a->size = realloc(a->size, a->cap * sizeof *a->size);
    }
    a->wkb[a->count] = wkb;
    a->size[a->count] = size;
    a->count++;
    a->view.count = a->count;
    a->view.wkb = (const unsigned char *const *)a->wkb;
    a->view.size = a->size;
}

/* wkt NULL: a null geometry. */
FX_FN void fx_push(fx_array *a, const char *wkt)
{
    size_t size = 0;
    unsigned char *b = wkt ? fx_wkb(wkt, &size) : NULL;
    fx_push_raw(a, b, size);
}

FX_FN void fx_push_geom(fx_array *a, const GEOSGeometry *g)
{
    size_t size = 0;
    unsigned char *b = fx_wkb_of(g, &size, 0, 0);
    fx_push_raw(a, b, size);
}

FX_FN const vsg_wkb_array *fx_view(fx_array *a)
{
    a->view.count = a->count;
    a->view.wkb = (const unsigned char *const *)a->wkb;
    a->view.size = a->size;
    return &a->view;
}

FX_FN void fx_array_free(fx_array *a)
{
    for (size_t i = 0; i < a->count; i++)
        free(a->wkb[i]);
    free(a->wkb);
    free(a->size);
    memset(a, 0, sizeof *a);
}

FX_FN double fx_area(const GEOSGeometry *g)
{
    double a = 0;
    GEOSArea_r(fx_ctx, g, &a);
    return a;
}

/* Area of the symmetric difference over the larger area (0 if both are
 * empty); a large value when one side is missing. */
FX_FN double fx_rel_symdiff(const GEOSGeometry *a, const GEOSGeometry *b)
{
    if (!a || !b)
        return (a || b) ? 1e9 : 0.0;
    GEOSGeometry *d = GEOSSymDifference_r(fx_ctx, a, b);
    if (!d)
        return 1e9;
    double da = fx_area(d), ref = fmax(fx_area(a), fx_area(b));
    GEOSGeom_destroy_r(fx_ctx, d);
    return ref > 0 ? da / ref : da;
}

FX_FN int fx_type_of_wkb(const unsigned char *wkb, size_t size)
{
    GEOSGeometry *g = fx_read(wkb, size);
    if (!g)
        return -1;
    int t = GEOSGeomTypeId_r(fx_ctx, g);
    GEOSGeom_destroy_r(fx_ctx, g);
    return t;
}

FX_FN vsg_engine *fx_engine(int threads, vsg_invalid_policy inv, int skip, int promote,
                             int keep_lower)
{
    vsg_engine_options o;
    vsg_engine_options_init(&o);
    o.num_threads = threads;
    o.invalid = inv;
    o.skip_failures = skip;
    o.promote_to_multi = promote;
    o.keep_lower_dim = keep_lower;
    vsg_engine *e = NULL;
    if (vsg_engine_create(&o, &e) != VSG_OK)
        return NULL;
    return e;
}

/* Whether two results are identical, byte for byte. */
FX_FN int fx_results_equal(const vsg_result *a, const vsg_result *b)
{
    if (a->count != b->count)
        return 0;
    for (size_t i = 0; i < a->count; i++) {
        if (a->input_index[i] != b->input_index[i] || a->method_index[i] != b->method_index[i] ||
            a->size[i] != b->size[i])
            return 0;
        if (a->size[i] && memcmp(a->wkb[i], b->wkb[i], a->size[i]) != 0)
            return 0;
    }
    return 1;
}

static unsigned fx_rand_state __attribute__((unused)) = 12345u;
FX_FN double fx_rand01(void)
{
    fx_rand_state = fx_rand_state * 1103515245u + 12345u;
    return (double)((fx_rand_state >> 8) & 0xFFFFFF) / (double)0x1000000;
}

#endif
