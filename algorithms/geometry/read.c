/*
 * read.c - WKB to GEOS with the bad-input policy (see read.h).
 */
#include "read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Validity and repair, then the facts callers need. Takes g. */
static vsg_status check_and_finish(vsg_worker *w, vsg_invalid_policy policy,
                                   GEOSGeometry *g, int polygonal, const char *role,
                                   int64_t index, vsg_read_result *out, char *errbuf,
                                   size_t errlen)
{
    GEOSContextHandle_t ctx = w->ctx;
    int valid = GEOSisValid_r(ctx, g);
    if (valid != 1) {
        if (policy == VSG_INVALID_ERROR) {
            char *reason = GEOSisValidReason_r(ctx, g);
            snprintf(errbuf, errlen, "%s feature #%lld: invalid geometry: %s", role,
                     (long long)index, reason ? reason : vsg_worker_take_message(w));
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
        GEOSGeometry *fixed = repair(w, g, polygonal);
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

vsg_status vsg_read_geometry(vsg_worker *w, vsg_invalid_policy policy,
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
        snprintf(reason, sizeof reason, "unsupported WKB: %s", info.message);
        return reject(w, policy, &w->counts.corrupt_skipped, VSG_ERR_UNSUPPORTED, out,
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
    return check_and_finish(w, policy, g, is_polygonal(info.type), role, index, out,
                            errbuf, errlen);
}
