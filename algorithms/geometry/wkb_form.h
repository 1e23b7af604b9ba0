/*
 * wkb_form.h - a polygonal row's bytes in the form the overlays write it,
 * without GEOS.
 *
 * An overlay whose input polygon lies inside a method polygon writes the
 * input itself: GEOS parses it, the overlay form keeps one part of a
 * MultiPolygon as a Polygon (geometry/dimension.h), and GEOS's writer
 * gives it back as ISO WKB, little endian. For a row the validity screen
 * proved valid and the reader left unparsed (geometry/read.h, deferred),
 * those bytes are the input's own whenever the input is already plain
 * little-endian 2D WKB: this copies them (a one-part MultiPolygon's
 * part, or a Polygon wrapped into a MultiPolygon where the statement
 * promotes to Multi), and says where they are not (the caller then lets
 * GEOS do it), so the answer is the same byte for byte.
 */
#ifndef VSG_GEOMETRY_WKB_FORM_H
#define VSG_GEOMETRY_WKB_FORM_H

#include <stddef.h>

#include "vsgpu_engine.h"

/* wkb: size bytes of one Polygon or MultiPolygon that vsg_wkb_scan found
 * well formed (trailing bytes are not copied). *out (malloc'ed, *out_size
 * bytes) is what GEOS would write for it in the overlay form, Multi when
 * promote_multi; *out NULL with VSG_OK where the bytes are not plain
 * little-endian 2D WKB of non-empty polygons (big endian, EWKB flags, Z,
 * an empty part). VSG_ERR_NOMEM (*out NULL) when memory runs out. */
vsg_status vsg_wkb_overlay_copy(const unsigned char *wkb, size_t size, int promote_multi,
                                unsigned char **out, size_t *out_size);

#endif
