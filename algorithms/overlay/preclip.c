/*
 * preclip.c - see preclip.h.
 */
#include "overlay/preclip.h"

#include <math.h>

static int envelope(GEOSContextHandle_t ctx, const GEOSGeometry *g, double *e)
{
    return GEOSGeom_getXMin_r(ctx, g, &e[0]) == 1 && GEOSGeom_getYMin_r(ctx, g, &e[1]) == 1 &&
           GEOSGeom_getXMax_r(ctx, g, &e[2]) == 1 && GEOSGeom_getYMax_r(ctx, g, &e[3]) == 1 &&
           isfinite(e[0]) && isfinite(e[1]) && isfinite(e[2]) && isfinite(e[3]);
}

/* big clipped to small's box widened so that small lies in its interior;
 * NULL when it does not pay or cannot be done. */
static GEOSGeometry *cut_down(vsg_worker *w, const GEOSGeometry *big, const GEOSGeometry *small)
{
    GEOSContextHandle_t ctx = w->ctx;
    int nb = GEOSGetNumCoordinates_r(ctx, big), ns = GEOSGetNumCoordinates_r(ctx, small);
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

GEOSGeometry *vsg_overlay_intersection(vsg_worker *w, int64_t row, const GEOSGeometry *a,
                                       const GEOSGeometry *b)
{
    GEOSGeometry *ca = cut_down(w, a, b), *cb = ca ? NULL : cut_down(w, b, a);
    if (ca || cb) {
        GEOSGeometry *r = ca ? vsg_worker_intersection(w, row, ca, b)
                             : vsg_worker_intersection(w, row, a, cb);
        GEOSGeom_destroy_r(w->ctx, ca ? ca : cb);
        if (r)
            return r;
        vsg_worker_clear_message(w);
    }
    return vsg_worker_intersection(w, row, a, b);
}
