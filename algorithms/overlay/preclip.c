/*
 * preclip.c - see preclip.h.
 */
#include "overlay/preclip.h"

#include <math.h>

#include "core/fault.h"

static int envelope(GEOSContextHandle_t ctx, const GEOSGeometry *g, double *e)
{
    return GEOSGeom_getXMin_r(ctx, g, &e[0]) == 1 && GEOSGeom_getYMin_r(ctx, g, &e[1]) == 1 &&
           GEOSGeom_getXMax_r(ctx, g, &e[2]) == 1 && GEOSGeom_getYMax_r(ctx, g, &e[3]) == 1 &&
           isfinite(e[0]) && isfinite(e[1]) && isfinite(e[2]) && isfinite(e[3]);
}

/* big (nb coordinates) clipped to small's (ns) box widened so that small
 * lies in its interior; NULL when it does not pay or cannot be done. */
static GEOSGeometry *cut_down(vsg_worker *w, const GEOSGeometry *big, int nb,
                              const GEOSGeometry *small, int ns)
{
    GEOSContextHandle_t ctx = w->ctx;
    if (nb < VSG_PRECLIP_MIN_COORDS || ns < 0 || (int64_t)nb < (int64_t)VSG_PRECLIP_RATIO * ns)
        return NULL;
    double eb[4], es[4];
    if (!envelope(ctx, big, eb) || !envelope(ctx, small, es))
        return NULL;
    /* a clip that keeps most of big saves nothing */
    double ab = (eb[2] - eb[0]) * (eb[3] - eb[1]), as = (es[2] - es[0]) * (es[3] - es[1]);
    if (!(as < 0.25 * ab))
        return NULL;
    /* the margin: well above the rounding of the box's coordinates */
    double mag = fmax(fmax(fabs(es[0]), fabs(es[2])), fmax(fabs(es[1]), fabs(es[3])));
    double m = 1e-6 * ((es[2] - es[0]) + (es[3] - es[1])) + 1e-9 * mag + 1e-300;
    return GEOSClipByRect_r(ctx, big, es[0] - m, es[1] - m, es[2] + m, es[3] + m);
}

/* The overlay of x and y through the worker; test builds record the larger
 * operand in the work gauge (core/fault.h). */
static GEOSGeometry *overlay(vsg_worker *w, int64_t row, const GEOSGeometry *x, int nx,
                             const GEOSGeometry *y, int ny)
{
    vsg_fault_gauge_overlay(nx > ny ? nx : ny);
    return vsg_worker_intersection(w, row, x, y);
}

GEOSGeometry *vsg_overlay_intersection(vsg_worker *w, int64_t row, const GEOSGeometry *a,
                                       const GEOSGeometry *b)
{
    int na = GEOSGetNumCoordinates_r(w->ctx, a), nb = GEOSGetNumCoordinates_r(w->ctx, b);
    GEOSGeometry *ca = cut_down(w, a, na, b, nb), *cb = ca ? NULL : cut_down(w, b, nb, a, na);
    if (ca || cb) {
        GEOSGeometry *cut = ca ? ca : cb;
        int nc = -1;
#ifdef VSGPU_FAULT_INJECTION
        nc = GEOSGetNumCoordinates_r(w->ctx, cut);   /* for the gauge only */
#endif
        GEOSGeometry *r = ca ? overlay(w, row, ca, nc, b, nb) : overlay(w, row, a, na, cb, nc);
        GEOSGeom_destroy_r(w->ctx, cut);
        if (r)
            return r;
        vsg_worker_clear_message(w);
    }
    return overlay(w, row, a, na, b, nb);
}
