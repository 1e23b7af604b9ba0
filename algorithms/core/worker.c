/*
 * worker.c - per-worker GEOS state (see worker.h).
 */
#include "worker.h"

#include "core/fault.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* GEOS calls this from inside the failing operation, on the worker's own
 * thread: writing into the worker is race-free. */
static void on_geos_error(const char *message, void *userdata)
{
    vsg_worker *w = userdata;
    snprintf(w->geos_msg, sizeof w->geos_msg, "%s", message ? message : "");
    w->has_geos_msg = 1;
}

/* Notices (e.g. "Self-intersection at ...") are informational; the
 * validity reason is asked for explicitly where we need it. */
static void on_geos_notice(const char *message, void *userdata)
{
    (void)message;
    (void)userdata;
}

vsg_status vsg_worker_init(vsg_worker *w)
{
    memset(w, 0, sizeof *w);
    w->ctx = GEOS_init_r();
    if (!w->ctx)
        return VSG_ERR_NOMEM;
    GEOSContext_setErrorMessageHandler_r(w->ctx, on_geos_error, w);
    GEOSContext_setNoticeMessageHandler_r(w->ctx, on_geos_notice, w);

    w->reader = GEOSWKBReader_create_r(w->ctx);
    w->writer = GEOSWKBWriter_create_r(w->ctx);
    w->make_valid = GEOSMakeValidParams_create_r(w->ctx);
    if (!w->reader || !w->writer || !w->make_valid) {
        vsg_worker_destroy(w);
        return VSG_ERR_NOMEM;
    }
    GEOSWKBWriter_setByteOrder_r(w->ctx, w->writer, GEOS_WKB_NDR);
    GEOSWKBWriter_setFlavor_r(w->ctx, w->writer, GEOS_WKB_ISO);
    /* 3 is an upper bound: GEOS writes Z only for geometries that have it,
     * so 2D inputs stay 2D and Z inputs keep their Z. */
    GEOSWKBWriter_setOutputDimension_r(w->ctx, w->writer, 3);
    GEOSWKBWriter_setIncludeSRID_r(w->ctx, w->writer, 0);
    GEOSMakeValidParams_setMethod_r(w->ctx, w->make_valid, GEOS_MAKE_VALID_STRUCTURE);
    GEOSMakeValidParams_setKeepCollapsed_r(w->ctx, w->make_valid, 0);
    w->fault_row = -1;
#ifdef VSGPU_FAULT_INJECTION
    const char *fault = getenv("VSGPU_FAULT_GEOS_ROW");
    if (fault && *fault) {
        char *end;
        long long row = strtoll(fault, &end, 10);
        if (*end == '\0' && row >= 0)
            w->fault_row = row;
    }
#endif
    return VSG_OK;
}

/* A failure as GEOS reports one: NULL and a message. */
static GEOSGeometry *injected_failure(vsg_worker *w, const char *hook, long long n)
{
    snprintf(w->geos_msg, sizeof w->geos_msg, "TopologyException: injected failure (%s%lld)",
             hook, n);
    w->has_geos_msg = 1;
    return NULL;
}

/* The injected failure for this operation, if any: the row hook
 * (VSGPU_FAULT_GEOS_ROW) or the n-th GEOS operation (VSGPU_FAULT=geos:n). */
static int injected(vsg_worker *w, int64_t row)
{
    int64_t n = vsg_fault_hit(VSG_FAULT_GEOS);
    if (n) {
        injected_failure(w, "VSGPU_FAULT=geos:", (long long)n);
        return 1;
    }
    if (row >= 0 && row == w->fault_row) {
        injected_failure(w, "VSGPU_FAULT_GEOS_ROW=", (long long)w->fault_row);
        return 1;
    }
    return 0;
}

GEOSGeometry *vsg_worker_intersection(vsg_worker *w, int64_t row, const GEOSGeometry *a,
                                      const GEOSGeometry *b)
{
    return injected(w, row) ? NULL : GEOSIntersection_r(w->ctx, a, b);
}

GEOSGeometry *vsg_worker_clip_by_rect(vsg_worker *w, int64_t row, const GEOSGeometry *g,
                                      const double *rect)
{
    return injected(w, row) ? NULL
                            : GEOSClipByRect_r(w->ctx, g, rect[0], rect[1], rect[2], rect[3]);
}

GEOSGeometry *vsg_worker_union(vsg_worker *w, const GEOSGeometry *a, const GEOSGeometry *b)
{
    return injected(w, -1) ? NULL : GEOSUnion_r(w->ctx, a, b);
}

GEOSGeometry *vsg_worker_unary_union(vsg_worker *w, int64_t row, const GEOSGeometry *g)
{
    return injected(w, row) ? NULL : GEOSUnaryUnion_r(w->ctx, g);
}

void vsg_worker_destroy(vsg_worker *w)
{
    if (!w || !w->ctx)
        return;
    if (w->make_valid)
        GEOSMakeValidParams_destroy_r(w->ctx, w->make_valid);
    if (w->writer)
        GEOSWKBWriter_destroy_r(w->ctx, w->writer);
    if (w->reader)
        GEOSWKBReader_destroy_r(w->ctx, w->reader);
    GEOS_finish_r(w->ctx);
    memset(w, 0, sizeof *w);
}

const char *vsg_worker_take_message(vsg_worker *w)
{
    if (!w->has_geos_msg || !w->geos_msg[0])
        return "unknown GEOS error";
    w->has_geos_msg = 0;
    return w->geos_msg;
}
