/*
 * union_step.h - one union of a few geometries: coverage union when it is
 * allowed and provably right, unary union otherwise.
 *
 * Coverage union (GEOS 3.11: cancel shared segments, polygonize what is
 * left) is much cheaper than overlay, but is only correct for a coverage:
 * polygons that do not overlap and share vertices along shared edges. On
 * other input it may fail, or succeed with a wrong answer. Its result is
 * accepted only if it exists, is valid, and its area equals the sum of the
 * parts' areas within a relative 1e-9 (overlaps make the sum larger than
 * the union); otherwise the same parts go through GEOSUnaryUnion.
 */
#ifndef VSG_DISSOLVE_UNION_STEP_H
#define VSG_DISSOLVE_UNION_STEP_H

#include <geos_c.h>

#include "vsgpu_engine.h"
#include "core/worker.h"

#define VSG_COVERAGE_AREA_RTOL 1e-9

/* Coverage union pays where many polygons share edges; for a handful of
 * large polygons (five city boroughs, say) GEOS 3.11's coverage union is
 * slower than its unary union (nybb, 76k vertices: 0.49 s against 0.19 s),
 * so single-chunk groups below this size go straight to the unary union. */
#define VSG_COVERAGE_MIN_PARTS 8

/* The coverage union of coll (a collection of polygons) if it passes the
 * acceptance check above, else NULL. A GEOS failure here is not an error:
 * it only means "not a coverage". */
GEOSGeometry *vsg_coverage_union_checked(vsg_worker *w, const GEOSGeometry *coll);

/* The union of two valid polygonal geometries (dissolved partials), the
 * parts that cannot interact carried over without overlay (see
 * union_step.c). Neither input is consumed. NULL on a GEOS failure. */
GEOSGeometry *vsg_union_two_polygonal(vsg_worker *w, const GEOSGeometry *a,
                                      const GEOSGeometry *b);

/* Takes parts[0, n) (n >= 1; the array stays the caller's). polygonal:
 * the parts are polygons (the call's dimension is 2). try_coverage: they
 * may form a coverage. On success *out is the
 * union and *used_coverage says which path made it. Returns VSG_ERR_GEOS
 * (message in the worker) or VSG_ERR_NOMEM, *out NULL. */
vsg_status vsg_union_parts(vsg_worker *w, GEOSGeometry **parts, size_t n, int polygonal,
                           int try_coverage, GEOSGeometry **out, int *used_coverage);

#endif
