/*
 * same_edges.h - whether a repaired member still has its input's edges.
 *
 * MakeValid often only drops a spike (an edge walked there and back) or
 * re-threads a ring that touches itself (a shell pinched at a vertex
 * becomes two shells, or a shell and a hole) and keeps every other edge;
 * such a repair still fits its neighbours exactly, and the group union
 * can take it like any member. Others move or drop edges the neighbours
 * still have; those are set aside (fast_groups.c).
 */
#ifndef VSG_DISSOLVE_SAME_EDGES_H
#define VSG_DISSOLVE_SAME_EDGES_H

#include <geos_c.h>

#include "vsgpu_engine.h"

/* *same = 1 when the two polygonal geometries have the same boundary
 * edges: the undirected edges each meets an odd number of times (an edge
 * walked there and back, a spike, cancels as in the coverage union;
 * zero-length edges are ignored), else 0; non-polygonal input answers
 * 0, and so does a GEOS failure. VSG_ERR_NOMEM on allocation failure. */
vsg_status vsg_same_edges(GEOSContextHandle_t ctx, const GEOSGeometry *a,
                          const GEOSGeometry *b, int *same);

#endif
