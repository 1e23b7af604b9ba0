/*
 * envelope.h - envelopes of GEOS geometries, and the warm-up that makes a
 * geometry safe to share between threads.
 */
#ifndef VSG_GEOMETRY_ENVELOPE_H
#define VSG_GEOMETRY_ENVELOPE_H

#include <geos_c.h>

#include "elements/box.h"   /* vsg_box_meets, vsg_box_covers */

/* xmin, ymin, xmax, ymax of a non-empty geometry. Returns 0 on success,
 * -1 if g is empty or GEOS fails. */
int vsg_geom_box(GEOSContextHandle_t ctx, const GEOSGeometry *g, double box[4]);

/* GEOS 3.11 computes some cached state on first use from const methods
 * (the envelope of every component and ring, the dimension of coordinate
 * sequences): two threads reading one geometry for the first time would
 * race on it. This computes all of it now, on one thread, so the geometry
 * is truly read-only afterwards. */
void vsg_geom_warm_caches(GEOSContextHandle_t ctx, const GEOSGeometry *g);

#endif
