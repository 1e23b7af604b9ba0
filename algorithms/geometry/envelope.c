/*
 * envelope.c - see envelope.h.
 */
#include "envelope.h"

int vsg_geom_box(GEOSContextHandle_t ctx, const GEOSGeometry *g, double box[4])
{
    if (GEOSisEmpty_r(ctx, g) != 0)
        return -1;
    if (!GEOSGeom_getXMin_r(ctx, g, &box[0]) || !GEOSGeom_getYMin_r(ctx, g, &box[1]) ||
        !GEOSGeom_getXMax_r(ctx, g, &box[2]) || !GEOSGeom_getYMax_r(ctx, g, &box[3]))
        return -1;
    return 0;
}

static void touch(GEOSContextHandle_t ctx, const GEOSGeometry *g)
{
    double v;
    if (GEOSisEmpty_r(ctx, g) == 0)
        GEOSGeom_getXMin_r(ctx, g, &v);   /* computes the cached envelope */
}

void vsg_geom_warm_caches(GEOSContextHandle_t ctx, const GEOSGeometry *g)
{
    (void)GEOSGeom_getCoordinateDimension_r(ctx, g);
    touch(ctx, g);
    int type = GEOSGeomTypeId_r(ctx, g);
    if (type == GEOS_POLYGON) {
        const GEOSGeometry *shell = GEOSGetExteriorRing_r(ctx, g);
        if (shell)
            touch(ctx, shell);
        int nh = GEOSGetNumInteriorRings_r(ctx, g);
        for (int i = 0; i < nh; i++)
            touch(ctx, GEOSGetInteriorRingN_r(ctx, g, i));
    } else if (type >= GEOS_MULTIPOINT) {
        int n = GEOSGetNumGeometries_r(ctx, g);
        for (int i = 0; i < n; i++)
            vsg_geom_warm_caches(ctx, GEOSGetGeometryN_r(ctx, g, i));
    }
}
