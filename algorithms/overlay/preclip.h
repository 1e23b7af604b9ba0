/*
 * preclip.h - the intersection of one pair, with the larger geometry cut
 * down to the smaller one's surroundings first.
 *
 * A 2-million-vertex coastline against a hundred small cells costs a
 * hundred full overlays of the coastline: OverlayNG reads every edge of
 * both operands each time. For any rectangle R that holds b in its
 * interior, a ∩ b = (a ∩ R) ∩ b, and the edges of a ∩ R that are not
 * edges of a lie on R's boundary, outside b: the overlay sees the same
 * edges near b and computes the same nodes. So the large operand is
 * clipped to b's box, widened a little, with GEOS's rectangle clip (one
 * linear pass), and the overlay runs on what is left. When the clip or the
 * overlay of the clipped operand fails, the plain overlay runs instead:
 * the pre-clip can only save time, never change an outcome.
 */
#ifndef VSG_OVERLAY_PRECLIP_H
#define VSG_OVERLAY_PRECLIP_H

#include "core/worker.h"

/* Only operands with at least this many coordinates, and at least
 * VSG_PRECLIP_RATIO times the other's, are cut first. */
#define VSG_PRECLIP_MIN_COORDS 4096
#define VSG_PRECLIP_RATIO 8

/* GEOSIntersection of a and b (through the worker, so that its fault hook
 * and messages hold), pre-clipped as above when it pays. NULL on failure,
 * with the worker's message set. */
GEOSGeometry *vsg_overlay_intersection(vsg_worker *w, int64_t row, const GEOSGeometry *a,
                                       const GEOSGeometry *b);

#endif
