/*
 * read.c - WKB to GEOS with the bad-input policy (see read.h).
 */
#include "read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elements/box.h"
#include "geometry/dimension.h"
#include "geometry/envelope.h"
#include "geometry/wkb_scan.h"

static int is_polygonal(int wkb_type)
{
    return wkb_type == 3 || wkb_type == 6;
}

/* What an input the policy does not accept becomes: an error under
 * ERROR, a counted drop otherwise. */
static vsg_status reject(vsg_worker *w, vsg_invalid_policy policy, int64_t *counter,
                         vsg_status error, vsg_read_result *out, char *errbuf,
                         size_t errlen, const char *role, int64_t index,
                         const char *reason)
{
    if (policy == VSG_INVALID_ERROR) {
        snprintf(errbuf, errlen, "%s feature #%lld: %s", role, (long long)index, reason);
        return error;
    }
    (*counter)++;
    out->outcome = VSG_READ_DROPPED;
    (void)w;
    return VSG_OK;
}

/* MakeValid with STRUCTURE. For polygonal input the result must stay
 * polygonal: any collapsed lower-dimension part is removed. Returns NULL
 * when the repair fails or leaves nothing. */
static GEOSGeometry *repair(vsg_worker *w, const GEOSGeometry *g, int polygonal)
{
    GEOSGeometry *fixed = GEOSMakeValidWithParams_r(w->ctx, g, w->make_valid);
    if (!fixed)
        return NULL;
    if (polygonal) {
        GEOSGeometry *kept = NULL;
        if (vsg_geom_keep_dim(w->ctx, fixed, 2, &kept, NULL) != VSG_OK)
            return NULL;
        fixed = kept;
    }
    if (fixed && GEOSisEmpty_r(w->ctx, fixed) != 0) {
        GEOSGeom_destroy_r(w->ctx, fixed);
        return NULL;
    }
    /* MakeValid promises a valid result; we check rather than trust,
     * because a "repaired" geometry that is still invalid would poison
     * every overlay it enters. */
    if (fixed && GEOSisValid_r(w->ctx, fixed) != 1) {
        GEOSGeom_destroy_r(w->ctx, fixed);
        return NULL;
    }
    return fixed;
}

static int is_polygonal_type(int t)
{
    return t == GEOS_POLYGON || t == GEOS_MULTIPOLYGON;
}

/* Whether two polygonal members of a GeometryCollection share interior
 * points. GEOSisValid accepts such a collection, but every overlay of it
 * counts the shared area twice (an area of 18 where the true one is 14):
 * to VSGPU it is invalid. 1: they overlap, 0: no, -1: GEOS failed. */
/* Member i of collection g when it is a non-empty polygonal geometry, with
 * its extent (xmin, ymin, xmax, ymax) in box; NULL otherwise, with *err set
 * when GEOS failed. */
static const GEOSGeometry *polygonal_member(GEOSContextHandle_t ctx, const GEOSGeometry *g,
                                            int i, double box[4], int *err)
{
    const GEOSGeometry *m = GEOSGetGeometryN_r(ctx, g, i);
    if (!m || !is_polygonal_type(GEOSGeomTypeId_r(ctx, m)) || GEOSisEmpty_r(ctx, m))
        return NULL;
    if (!GEOSGeom_getExtent_r(ctx, m, &box[0], &box[1], &box[2], &box[3])) {
        *err = 1;
        return NULL;
    }
    return m;
}

static int collection_overlaps(GEOSContextHandle_t ctx, const GEOSGeometry *g)
{
    int n = GEOSGetNumGeometries_r(ctx, g), err = 0;
    for (int i = 0; i < n; i++) {
        double ab[4], bb[4];
        const GEOSGeometry *a = polygonal_member(ctx, g, i, ab, &err);
        for (int j = i + 1; a && j < n; j++) {
            const GEOSGeometry *b = polygonal_member(ctx, g, j, bb, &err);
            if (!b || !vsg_box_meets(ab, bb))
                continue;
            char r = GEOSRelatePattern_r(ctx, a, b, "T********");
            if (r == 2)
                return -1;
            if (r == 1)
                return 1;
        }
    }
    return err ? -1 : 0;
}

/* REPAIR of an overlapping collection: its polygonal members replaced by
 * their union, the other members kept. NULL on failure. */
static GEOSGeometry *union_collection(vsg_worker *w, const GEOSGeometry *g)
{
    GEOSContextHandle_t ctx = w->ctx;
    int n = GEOSGetNumGeometries_r(ctx, g);
    GEOSGeometry **polys = malloc((size_t)(n > 0 ? n : 1) * sizeof *polys);
    GEOSGeometry **rest = malloc((size_t)(n > 0 ? n : 1) * sizeof *rest);
    int np = 0, nr = 0;
    GEOSGeometry *out = NULL;
    if (!polys || !rest)
        goto done;
    for (int i = 0; i < n; i++) {
        const GEOSGeometry *m = GEOSGetGeometryN_r(ctx, g, i);
        GEOSGeometry *c = GEOSGeom_clone_r(ctx, m);
        if (!c)
            goto done;
        if (is_polygonal_type(GEOSGeomTypeId_r(ctx, m)))
            polys[np++] = c;
        else
            rest[nr++] = c;
    }
    GEOSGeometry *pc = GEOSGeom_createCollection_r(ctx, GEOS_GEOMETRYCOLLECTION, polys,
                                                   (unsigned)np);
    np = 0;   /* owned by pc now, or freed with it */
    if (!pc)
        goto done;
    GEOSGeometry *u = GEOSUnaryUnion_r(ctx, pc);
    GEOSGeom_destroy_r(ctx, pc);
    if (!u)
        goto done;
    if (nr == 0) {
        out = u;
    } else {
        rest[nr++] = u;
        out = GEOSGeom_createCollection_r(ctx, GEOS_GEOMETRYCOLLECTION, rest, (unsigned)nr);
        if (out)
            nr = 0;
    }
    if (out && GEOSisValid_r(ctx, out) != 1) {
        GEOSGeom_destroy_r(ctx, out);
        out = NULL;
    }
done:
    for (int i = 0; polys && i < np; i++)
        GEOSGeom_destroy_r(ctx, polys[i]);
    for (int i = 0; rest && i < nr; i++)
        GEOSGeom_destroy_r(ctx, rest[i]);
    free(polys);
    free(rest);
    return out;
}

/* Validity and repair, then the facts callers need. Takes g. */
static vsg_status check_and_finish(vsg_worker *w, vsg_invalid_policy policy, int known_valid,
                                   GEOSGeometry *g, int polygonal, const char *role,
                                   int64_t index, vsg_read_result *out, char *errbuf,
                                   size_t errlen)
{
    GEOSContextHandle_t ctx = w->ctx;
    int valid = known_valid ? 1 : GEOSisValid_r(ctx, g);
    int overlapping = 0;   /* a collection whose polygons overlap */
    if (valid == 1 && GEOSGeomTypeId_r(ctx, g) == GEOS_GEOMETRYCOLLECTION) {
        int ov = collection_overlaps(ctx, g);
        overlapping = ov != 0;   /* a failed test counts as overlapping */
        if (overlapping)
            valid = 0;
    }
    if (valid != 1) {
        if (policy == VSG_INVALID_ERROR) {
            char *reason = overlapping ? NULL : GEOSisValidReason_r(ctx, g);
            snprintf(errbuf, errlen, "%s feature #%lld: invalid geometry: %s", role,
                     (long long)index,
                     overlapping ? "polygons of a GeometryCollection overlap"
                                 : reason ? reason : vsg_worker_take_message(w));
            if (reason)
                GEOSFree_r(ctx, reason);
            GEOSGeom_destroy_r(ctx, g);
            return VSG_ERR_INVALID_GEOMETRY;
        }
        if (policy == VSG_INVALID_SKIP) {
            GEOSGeom_destroy_r(ctx, g);
            w->counts.invalid_skipped++;
            out->outcome = VSG_READ_DROPPED;
            return VSG_OK;
        }
        GEOSGeometry *fixed = overlapping ? union_collection(w, g) : repair(w, g, polygonal);
        GEOSGeom_destroy_r(ctx, g);
        if (!fixed) {
            w->counts.invalid_skipped++;     /* not repairable */
            out->outcome = VSG_READ_DROPPED;
            return VSG_OK;
        }
        w->counts.invalid_repaired++;
        out->repaired = 1;
        g = fixed;
    }
    out->dim = vsg_geom_dimension(ctx, g);
    out->npoints = GEOSGetNumCoordinates_r(ctx, g);
    if (out->dim < 0 || vsg_geom_box(ctx, g, out->box) != 0) {
        GEOSGeom_destroy_r(ctx, g);
        w->counts.empty_geometries++;
        out->outcome = VSG_READ_EMPTY;
        out->dim = -1;
        return VSG_OK;
    }
    out->geom = g;
    out->outcome = VSG_READ_GEOM;
    return VSG_OK;
}

/* A valid polygon left unparsed (VSG_READ_MAY_DEFER): the facts the
 * full read would give, from the scan. */
static int defer(const vsg_wkb_info *info, vsg_read_result *out)
{
    if (!is_polygonal(info->type) || info->dimension != 2 || info->n_unclosed_rings > 0 ||
        info->any_m)
        return 0;
    out->outcome = VSG_READ_GEOM;
    out->deferred = 1;
    out->wkb_bytes = info->consumed;
    out->dim = 2;
    out->npoints = info->n_points;
    memcpy(out->box, info->bounds, sizeof out->box);
    return 1;
}

vsg_status vsg_read_parse_deferred(vsg_worker *w, const unsigned char *wkb, vsg_read_result *r,
                                   char *errbuf, size_t errlen)
{
    if (!r->deferred)
        return VSG_OK;
    vsg_worker_clear_message(w);
    GEOSGeometry *g = GEOSWKBReader_read_r(w->ctx, w->reader, wkb, r->wkb_bytes);
    if (!g) {
        snprintf(errbuf, errlen, "GEOS cannot read a geometry the screen proved valid: %s",
                 vsg_worker_take_message(w));
        return VSG_ERR_GEOS;
    }
    r->geom = g;
    r->deferred = 0;
    return VSG_OK;
}

vsg_status vsg_read_geometry(vsg_worker *w, vsg_invalid_policy policy, int flags,
                             const unsigned char *wkb, size_t size,
                             const double *extent, const char *role, int64_t index,
                             vsg_read_result *out, char *errbuf, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->dim = -1;
    if (!wkb) {
        w->counts.null_geometries++;
        out->outcome = VSG_READ_NULL;
        return VSG_OK;
    }

    vsg_wkb_info info;
    vsg_wkb_scan(wkb, size, &info);
    char reason[256];
    switch (info.verdict) {
    case VSG_WKB_OK:
        break;
    case VSG_WKB_NONFINITE:
        return reject(w, policy, &w->counts.nonfinite_skipped, VSG_ERR_INVALID_GEOMETRY,
                      out, errbuf, errlen, role, index, "NaN or infinite coordinate");
    case VSG_WKB_UNSUPPORTED:
        snprintf(reason, sizeof reason, "unsupported geometry: %s", info.message);
        return reject(w, policy, &w->counts.unsupported_skipped, VSG_ERR_UNSUPPORTED, out,
                      errbuf, errlen, role, index, reason);
    default:
        snprintf(reason, sizeof reason, "corrupt WKB: %s", info.message);
        return reject(w, policy, &w->counts.corrupt_skipped, VSG_ERR_CORRUPT_WKB, out,
                      errbuf, errlen, role, index, reason);
    }
    if (info.is_empty) {
        w->counts.empty_geometries++;
        out->outcome = VSG_READ_EMPTY;
        return VSG_OK;
    }
    const double *bb = info.bounds;
    if (extent && (bb[2] < extent[0] || bb[0] > extent[2] || bb[3] < extent[1] ||
                   bb[1] > extent[3])) {
        out->outcome = VSG_READ_OUTSIDE;
        return VSG_OK;
    }
    const int known_valid = (flags & VSG_READ_KNOWN_VALID) != 0;
    if (known_valid && (flags & VSG_READ_MAY_DEFER) && defer(&info, out))
        return VSG_OK;

    /* Closing rings and dropping M (docs/semantics.md: Z kept, M dropped,
     * whatever GEOS version reads it) happen on a copy: the caller's buffer
     * is const. */
    unsigned char *closed = NULL;
    size_t closed_size = 0;
    if (info.n_unclosed_rings > 0 || info.any_m) {
        vsg_status st = vsg_wkb_normalize(wkb, size, 1, &closed, &closed_size);
        if (st != VSG_OK)
            return st;
        w->counts.rings_closed += info.n_unclosed_rings;
        wkb = closed;
    }

    vsg_worker_clear_message(w);
    /* The closed copy holds exactly the geometry; otherwise trailing bytes
     * after it are not GEOS's business. */
    size_t geom_size = closed ? closed_size : info.consumed;
    GEOSGeometry *g = GEOSWKBReader_read_r(w->ctx, w->reader, wkb, geom_size);
    free(closed);
    if (!g) {
        /* Well formed bytes GEOS still refuses (a ring of 3 points, a line
         * of 1): invalid geometry that cannot be repaired. */
        snprintf(reason, sizeof reason, "invalid geometry: %s", vsg_worker_take_message(w));
        return reject(w, policy, &w->counts.invalid_skipped, VSG_ERR_INVALID_GEOMETRY, out,
                      errbuf, errlen, role, index, reason);
    }
    return check_and_finish(w, policy, known_valid, g, is_polygonal(info.type), role, index, out,
                            errbuf, errlen);
}
