/*
 * union_step.c - see union_step.h.
 */
#include "union_step.h"

#include <math.h>
#include <stdio.h>

/* The coverage union of coll if it passes the acceptance check, else
 * NULL (a GEOS failure here is not an error: the unary path follows). */
static GEOSGeometry *try_coverage_union(vsg_worker *w, const GEOSGeometry *coll)
{
    double sum = 0.0, area = 0.0;
    if (!GEOSArea_r(w->ctx, coll, &sum))
        return NULL;
    GEOSGeometry *u = GEOSCoverageUnion_r(w->ctx, coll);
    if (!u)
        return NULL;
    int ok = GEOSisValid_r(w->ctx, u) == 1 && GEOSArea_r(w->ctx, u, &area) &&
             fabs(area - sum) <= VSG_COVERAGE_AREA_RTOL * fabs(sum);
    if (!ok) {
        GEOSGeom_destroy_r(w->ctx, u);
        return NULL;
    }
    return u;
}

vsg_status vsg_union_parts(vsg_worker *w, GEOSGeometry **parts, size_t n, int try_coverage,
                           GEOSGeometry **out, int *used_coverage)
{
    *out = NULL;
    *used_coverage = 0;
    GEOSGeometry *coll = GEOSGeom_createCollection_r(w->ctx, GEOS_GEOMETRYCOLLECTION, parts,
                                                     (unsigned)n);
    if (!coll) {
        for (size_t i = 0; i < n; i++)
            GEOSGeom_destroy_r(w->ctx, parts[i]);
        return VSG_ERR_GEOS;
    }
    if (try_coverage) {
        *out = try_coverage_union(w, coll);
        if (*out) {
            *used_coverage = 1;
            GEOSGeom_destroy_r(w->ctx, coll);
            return VSG_OK;
        }
        vsg_worker_clear_message(w);   /* the failed attempt's message */
    }
    *out = GEOSUnaryUnion_r(w->ctx, coll);
    GEOSGeom_destroy_r(w->ctx, coll);
#ifndef NDEBUG
    /* Debug builds check what release builds trust: OverlayNG's union of
     * valid input is valid. */
    if (*out && GEOSisValid_r(w->ctx, *out) != 1) {
        GEOSGeom_destroy_r(w->ctx, *out);
        *out = NULL;
        snprintf(w->geos_msg, sizeof w->geos_msg, "unary union produced an invalid geometry");
        w->has_geos_msg = 1;
        return VSG_ERR_GEOS;
    }
#endif
    return *out ? VSG_OK : VSG_ERR_GEOS;
}
