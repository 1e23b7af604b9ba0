/*
 * rc_fixture.h - what the rectangle clip tests share: run
 * vsg_stage_rect_clip on the host backend over a set of WKB rows, read a
 * row of the output back as a GEOS geometry, and compare polygon results
 * with GEOSClipByRect itself (area of the symmetric difference, relative,
 * and validity). Include after engine_fixtures.h and vsg_test.h.
 */
#ifndef RC_FIXTURE_H
#define RC_FIXTURE_H

#include <geos_c.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "columnar/columnar.h"
#include "exec/exec.h"
#include "stages/stages.h"

typedef struct {
    vsg_exec *x;
    vsg_columnar col, out;
    uint8_t *row_cpu;   /* host memory (the host backend's) */
    void *boxes;
    vsg_status st;
} rcfx_run;

/* Runs bounds then the clip; r->st says how it went. */
static inline void rcfx_clip(rcfx_run *r, fx_array *in, const double rect[4])
{
    memset(r, 0, sizeof *r);
    vsg_columnar_report rep;
    r->st = vsg_columnar_from_wkb(fx_view(in), &r->col, &rep);
    if (r->st != VSG_OK)
        return;
    vsg_col_view v = vsg_columnar_view(&r->col);
    r->st = vsg_exec_create_host(&r->x);
    if (r->st == VSG_OK)
        r->st = vsg_exec_alloc(r->x, (size_t)v.n_geoms * 4 * sizeof(double), &r->boxes);
    if (r->st == VSG_OK)
        r->st = vsg_exec_alloc(r->x, (size_t)v.n_geoms, (void **)&r->row_cpu);
    if (r->st == VSG_OK)
        r->st = vsg_stage_bounds(r->x, &v, r->boxes);
    if (r->st == VSG_OK)
        r->st = vsg_stage_rect_clip(r->x, &v, r->boxes, rect, &r->out, r->row_cpu);
    if (r->st != VSG_OK && r->x)
        fprintf(stderr, "rect_clip failed: %s\n", vsg_exec_last_error(r->x));
}

static inline void rcfx_free(rcfx_run *r)
{
    if (r->st == VSG_OK)
        vsg_columnar_free(&r->out);
    if (r->x) {
        vsg_exec_free(r->x, r->boxes);
        vsg_exec_free(r->x, r->row_cpu);
        vsg_exec_destroy(r->x);
    }
    vsg_columnar_free(&r->col);
}

/* Output row i as a GEOS geometry (NULL for a null or empty row). */
static inline GEOSGeometry *rcfx_row(const rcfx_run *r, int64_t i)
{
    if (r->out.flags[i] & (VSG_GF_NULL | VSG_GF_EMPTY))
        return NULL;
    size_t n = vsg_columnar_wkb_size(&r->out, i);
    unsigned char *buf = malloc(n ? n : 1);
    vsg_columnar_write_wkb(&r->out, i, buf);
    GEOSGeometry *g = n ? fx_read(buf, n) : NULL;
    free(buf);
    return g;
}

/* The polygonal part of P ∩ R by GEOS's overlay (GEOSIntersection): the
 * arbiter where GEOSClipByRect's own result is wrong (it is, in GEOS
 * 3.11, for some rings through the rectangle's corners). */
static inline GEOSGeometry *rcfx_overlay(const GEOSGeometry *g, const double rect[4])
{
    GEOSGeometry *rp = GEOSGeom_createRectangle_r(fx_ctx, rect[0], rect[1], rect[2], rect[3]);
    GEOSGeometry *i = GEOSIntersection_r(fx_ctx, g, rp);
    GEOSGeom_destroy_r(fx_ctx, rp);
    if (!i)
        return NULL;
    int n = GEOSGetNumGeometries_r(fx_ctx, i), m = 0;
    GEOSGeometry **polys = malloc((size_t)(n > 0 ? n : 1) * sizeof *polys);
    for (int k = 0; k < n; k++) {
        const GEOSGeometry *c = GEOSGetGeometryN_r(fx_ctx, i, k);
        int t = GEOSGeomTypeId_r(fx_ctx, c);
        if ((t == GEOS_POLYGON || t == GEOS_MULTIPOLYGON) && !GEOSisEmpty_r(fx_ctx, c))
            polys[m++] = GEOSGeom_clone_r(fx_ctx, c);
    }
    GEOSGeometry *u = NULL;
    if (m > 0) {
        GEOSGeometry *c = GEOSGeom_createCollection_r(fx_ctx, GEOS_GEOMETRYCOLLECTION, polys,
                                                      (unsigned)m);
        u = GEOSUnaryUnion_r(fx_ctx, c);
        GEOSGeom_destroy_r(fx_ctx, c);
    }
    free(polys);
    GEOSGeom_destroy_r(fx_ctx, i);
    return u;
}

/* Relative area of the symmetric difference of a and b (either may be
 * NULL: empty); 1 when only one has area. */
static inline double rcfx_diff(const GEOSGeometry *a, const GEOSGeometry *b)
{
    double aa = a ? fx_area(a) : 0.0, ba = b ? fx_area(b) : 0.0;
    if (!a || !b || aa == 0.0 || ba == 0.0)
        return fmax(aa, ba) > 0 ? 1.0 : 0.0;
    return fx_rel_symdiff(a, b);
}

/* Compares output row i with GEOSClipByRect of the input polygon g:
 * returns the relative area of the symmetric difference (with light set:
 * the relative difference of the areas and of the part counts, for rows
 * so large that GEOS's overlay takes a minute); *invalid when the row is
 * not a valid polygon. Where the two differ and GEOSClipByRect's result
 * itself differs from the overlay's P ∩ R, GEOS is wrong: the overlay
 * decides, and *geos_wrong is set (when given). */
static inline double rcfx_vs_geos_light(const rcfx_run *r, int64_t i, const GEOSGeometry *g,
                                        const double rect[4], int *invalid, int light,
                                        int *geos_wrong)
{
    *invalid = 0;
    if (geos_wrong)
        *geos_wrong = 0;
    GEOSGeometry *ref = GEOSClipByRect_r(fx_ctx, g, rect[0], rect[1], rect[2], rect[3]);
    GEOSGeometry *got = rcfx_row(r, i);
    double d;
    if (got && GEOSisValid_r(fx_ctx, got) != 1)
        *invalid = 1;
    double ga = got ? fx_area(got) : 0.0, ra = ref ? fx_area(ref) : 0.0;
    if (light && got && ref && ga > 0 && ra > 0)
        d = GEOSGetNumGeometries_r(fx_ctx, got) != GEOSGetNumGeometries_r(fx_ctx, ref)
                ? 1.0
                : fabs(ga - ra) / fmax(ga, ra);
    else
        d = rcfx_diff(got, ref);
    if (d > 1e-9 && !light) {
        GEOSGeometry *ov = rcfx_overlay(g, rect);
        if (rcfx_diff(ref, ov) > 1e-9) {
            d = rcfx_diff(got, ov);
            if (geos_wrong)
                *geos_wrong = 1;
        }
        if (ov)
            GEOSGeom_destroy_r(fx_ctx, ov);
    }
    if (ref)
        GEOSGeom_destroy_r(fx_ctx, ref);
    if (got)
        GEOSGeom_destroy_r(fx_ctx, got);
    return d;
}

static inline double rcfx_vs_geos(const rcfx_run *r, int64_t i, const GEOSGeometry *g,
                           const double rect[4], int *invalid)
{
    return rcfx_vs_geos_light(r, i, g, rect, invalid, 0, NULL);
}

#endif
