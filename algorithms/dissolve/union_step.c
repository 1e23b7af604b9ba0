/*
 * union_step.c - see union_step.h.
 */
#include "union_step.h"

#include "core/fault.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "geometry/dimension.h"
#include "geometry/envelope.h"
#include "index/strtree.h"

GEOSGeometry *vsg_coverage_union_checked(vsg_worker *w, const GEOSGeometry *coll)
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

/* Parts of a geometry (itself when it is not a collection), borrowed. */
static int parts_of(vsg_worker *w, const GEOSGeometry *g, const GEOSGeometry ***out)
{
    int type = GEOSGeomTypeId_r(w->ctx, g);
    int n = type >= GEOS_MULTIPOINT ? GEOSGetNumGeometries_r(w->ctx, g) : 1;
    if (n < 0)
        return -1;
    *out = vsg_malloc((size_t)(n ? n : 1) * sizeof **out);
    if (!*out)
        return -1;
    for (int i = 0; i < n; i++)
        (*out)[i] = type >= GEOS_MULTIPOINT ? GEOSGetGeometryN_r(w->ctx, g, i) : g;
    return n;
}

/* Marks in a_hit / b_hit the parts of either side whose envelope meets an
 * envelope of the other side (STR tree over b's parts). Returns -1 when
 * out of memory or GEOS fails. */
static int find_interacting(vsg_worker *w, const GEOSGeometry **a, int na, const GEOSGeometry **b,
                            int nb, unsigned char *a_hit, unsigned char *b_hit)
{
    double *boxes = vsg_malloc((size_t)(nb ? nb : 1) * 4 * sizeof *boxes);
    unsigned char *has = vsg_calloc((size_t)(nb ? nb : 1), 1);
    vsg_strtree *t = NULL;
    vsg_id_list hits = {0};
    int rc = -1;
    if (!boxes || !has)
        goto done;
    for (int j = 0; j < nb; j++)
        has[j] = vsg_geom_box(w->ctx, b[j], boxes + 4 * j) == 0;
    if (vsg_strtree_build(boxes, has, (size_t)nb, &t) != VSG_OK)
        goto done;
    for (int i = 0; i < na; i++) {
        double box[4];
        if (vsg_geom_box(w->ctx, a[i], box) != 0)
            continue;
        if (vsg_strtree_query(t, box, &hits) != VSG_OK)
            goto done;
        a_hit[i] = hits.n > 0;
        for (size_t k = 0; k < hits.n; k++)
            b_hit[hits.ids[k]] = 1;
    }
    rc = 0;
done:
    vsg_id_list_free(&hits);
    vsg_strtree_destroy(t);
    free(boxes);
    free(has);
    return rc;
}

/* A GeometryCollection of clones of the parts whose flag equals `want`. */
static GEOSGeometry *collect(vsg_worker *w, const GEOSGeometry **p, int n,
                             const unsigned char *flag, int want, int *count)
{
    GEOSGeometry **c = vsg_malloc((size_t)(n ? n : 1) * sizeof *c);
    if (!c)
        return NULL;
    int k = 0;
    for (int i = 0; i < n; i++)
        if (flag[i] == want && (c[k] = GEOSGeom_clone_r(w->ctx, p[i])) != NULL)
            k++;
    GEOSGeometry *g = GEOSGeom_createCollection_r(w->ctx, GEOS_GEOMETRYCOLLECTION, c, (unsigned)k);
    free(c);
    *count = k;
    return g;
}

/* Union of two dissolved polygonal partials. Only the parts whose
 * envelopes interact go through the overlay; the others cannot touch the
 * other side and are carried over as they are (the idea behind GEOS's
 * OverlapUnion, applied per part). This keeps each merge level's cost
 * proportional to the seam between the partials, not to their size.
 * Valid: a carried part is disjoint from the other side, and touched its
 * own side only at points, which the overlay result does not change. */
GEOSGeometry *vsg_union_two_polygonal(vsg_worker *w, const GEOSGeometry *a, const GEOSGeometry *b)
{
    const GEOSGeometry **pa = NULL, **pb = NULL;
    unsigned char *ha = NULL, *hb = NULL;
    GEOSGeometry *result = NULL, *ia = NULL, *ib = NULL, *ka = NULL, *kb = NULL, *u = NULL;
    int na = parts_of(w, a, &pa), nb = parts_of(w, b, &pb);
    if (na < 0 || nb < 0)
        goto done;
    ha = vsg_calloc((size_t)na + 1, 1);
    hb = vsg_calloc((size_t)nb + 1, 1);
    if (!ha || !hb || find_interacting(w, pa, na, pb, nb, ha, hb) != 0)
        goto done;
    int nia, nib, nka, nkb;
    ia = collect(w, pa, na, ha, 1, &nia);
    ib = collect(w, pb, nb, hb, 1, &nib);
    ka = collect(w, pa, na, ha, 0, &nka);
    kb = collect(w, pb, nb, hb, 0, &nkb);
    if (!ia || !ib || !ka || !kb)
        goto done;
    if (nka == 0 && nkb == 0) {            /* everything interacts */
        result = vsg_worker_union(w, a, b);
        goto done;
    }
    u = nia ? vsg_worker_union(w, ia, ib) : NULL;
    if (nia && !u)
        goto done;
    /* carried parts of a, of b, then the overlay's parts, as one Multi. */
    GEOSGeometry *all[3] = {ka, kb, u};
    GEOSGeometry *coll = GEOSGeom_createCollection_r(w->ctx, GEOS_GEOMETRYCOLLECTION, all,
                                                     u ? 3 : 2);
    if (!coll)
        goto done;
    ka = kb = u = NULL;   /* owned by coll now */
    GEOSGeometry *flat = NULL;
    if (vsg_geom_keep_dim(w->ctx, coll, 2, &flat, NULL) == VSG_OK)
        result = flat ? vsg_geom_promote_multi(w->ctx, flat)
                      : GEOSGeom_createEmptyCollection_r(w->ctx, GEOS_MULTIPOLYGON);
done:
    if (ia) GEOSGeom_destroy_r(w->ctx, ia);
    if (ib) GEOSGeom_destroy_r(w->ctx, ib);
    if (ka) GEOSGeom_destroy_r(w->ctx, ka);
    if (kb) GEOSGeom_destroy_r(w->ctx, kb);
    if (u) GEOSGeom_destroy_r(w->ctx, u);
    free(pa);
    free(pb);
    free(ha);
    free(hb);
    return result;
}

/* Two parts: one binary overlay. GEOSUnaryUnion would split both
 * (already dissolved) sides back into polygons and re-union them all in a
 * cascade, which is several times slower on the merge levels. */
static vsg_status union_two(vsg_worker *w, GEOSGeometry **parts, int polygonal,
                            GEOSGeometry **out)
{
    *out = polygonal ? vsg_union_two_polygonal(w, parts[0], parts[1])
                     : vsg_worker_union(w, parts[0], parts[1]);
    GEOSGeom_destroy_r(w->ctx, parts[0]);
    GEOSGeom_destroy_r(w->ctx, parts[1]);
    if (*out)
        return VSG_OK;
    /* GEOS reports every failure of its own through the worker's handler
     * (the caller cleared the message); none means one of the polygonal
     * union's own allocations failed: say so, not "unknown GEOS error". */
    return w->has_geos_msg ? VSG_ERR_GEOS : VSG_ERR_NOMEM;
}

vsg_status vsg_union_parts(vsg_worker *w, GEOSGeometry **parts, size_t n, int polygonal,
                           int try_coverage, GEOSGeometry **out, int *used_coverage)
{
    *out = NULL;
    *used_coverage = 0;
    if (n == 2 && !try_coverage)
        return union_two(w, parts, polygonal, out);
    GEOSGeometry *coll = GEOSGeom_createCollection_r(w->ctx, GEOS_GEOMETRYCOLLECTION, parts,
                                                     (unsigned)n);
    if (!coll) {
        for (size_t i = 0; i < n; i++)
            GEOSGeom_destroy_r(w->ctx, parts[i]);
        return VSG_ERR_GEOS;
    }
    if (try_coverage) {
        *out = vsg_coverage_union_checked(w, coll);
        if (*out) {
            *used_coverage = 1;
            GEOSGeom_destroy_r(w->ctx, coll);
            return VSG_OK;
        }
        vsg_worker_clear_message(w);   /* the failed attempt's message */
    }
    *out = vsg_worker_unary_union(w, -1, coll);
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
