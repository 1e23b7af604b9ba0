/*
 * dimension.h - the geometry-type rules of docs/semantics.md: keep the
 * parts of one dimension, promote to Multi, and write the output WKB.
 *
 * Functions taking `GEOSGeometry *g` consume it (destroyed or returned).
 */
#ifndef VSG_GEOMETRY_DIMENSION_H
#define VSG_GEOMETRY_DIMENSION_H

#include <geos_c.h>

#include "vsgpu_engine.h"
#include "core/worker.h"

/* Highest dimension of the non-empty atomic parts: 0, 1, 2; -1 if none or
 * on a GEOS error. */
int vsg_geom_dimension(GEOSContextHandle_t ctx, const GEOSGeometry *g);

/* Keeps the non-empty atomic parts of dimension d (collections
 * flattened): none -> *out NULL; one -> that part (single type); several
 * -> the Multi type of d. A geometry that already is of dimension d is
 * returned as it is. *n_other (may be NULL) receives the number of
 * non-empty parts of another dimension. Consumes g. Returns VSG_ERR_GEOS
 * (GEOS failed; *out NULL) or VSG_OK. */
vsg_status vsg_geom_keep_dim(GEOSContextHandle_t ctx, GEOSGeometry *g, int d,
                             GEOSGeometry **out, int64_t *n_other);

/* The form GEOS's overlay gives a geometry it returns whole: a Multi*
 * without its empty parts, and a Multi* of one part as that part. Used where
 * a containment shortcut returns an operand instead of computing the
 * overlay, so both paths give the same type. Other geometries are returned
 * as they are. Consumes g; NULL on a GEOS error (g destroyed). */
GEOSGeometry *vsg_geom_overlay_form(GEOSContextHandle_t ctx, GEOSGeometry *g);

/* A copy of g in overlay form (above); NULL on a GEOS error. */
GEOSGeometry *vsg_geom_overlay_copy(GEOSContextHandle_t ctx, const GEOSGeometry *g);

/* Point/LineString/Polygon -> Multi of one part; others as they are.
 * Consumes g. Returns NULL on a GEOS error (g destroyed). */
GEOSGeometry *vsg_geom_promote_multi(GEOSContextHandle_t ctx, GEOSGeometry *g);

/* The empty Multi geometry of dimension d (MultiPolygon for d < 0). */
GEOSGeometry *vsg_geom_empty_multi(GEOSContextHandle_t ctx, int d);

/* The output rule of intersection and clip results: empty -> dropped
 * (not counted: empty results are simply not output); keep_lower_dim 0 ->
 * only the parts of dimension pair_dim, none -> dropped and counted in
 * lower_dim_dropped; promote_to_multi -> Multi. *out NULL when dropped.
 * Consumes r. Returns VSG_ERR_GEOS or VSG_OK. */
vsg_status vsg_apply_type_rule(vsg_worker *w, const vsg_engine_options *o,
                               GEOSGeometry *r, int pair_dim, GEOSGeometry **out);

/* ISO WKB, little endian, Z kept where the geometry has it. *wkb is
 * malloc'ed. Returns VSG_ERR_GEOS or VSG_ERR_NOMEM (then *wkb NULL), or
 * VSG_OK. */
vsg_status vsg_geom_to_wkb(vsg_worker *w, const GEOSGeometry *g,
                           unsigned char **wkb, size_t *size);

#endif
