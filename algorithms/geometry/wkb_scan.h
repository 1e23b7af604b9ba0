/*
 * wkb_scan.h - a bounds-checked walk over one WKB geometry.
 *
 * The scan trusts nothing: every count is checked against the bytes left
 * before it is used, nesting depth is bounded, and sub-geometry types are
 * checked against their container (a MultiPolygon holds Polygons). It
 * accepts both byte orders (per geometry, as WKB allows), ISO type codes
 * (1000/2000/3000 + type) and EWKB flags (Z 0x80000000, M 0x40000000,
 * SRID 0x20000000 followed by the SRID). Types 1-7 are supported; the curve
 * and surface types (8-17) are reported as unsupported.
 *
 * Coordinates: a NaN or infinite X or Y, or an infinite Z, makes the
 * geometry non-finite; a point whose ordinates are all NaN is the ISO
 * encoding of POINT EMPTY. NaN in Z (writers use it for "no Z") and
 * anything in M are tolerated. Bytes after the geometry are ignored
 * (info.consumed says where it ended).
 *
 * This is the base the columnar decoder builds on: keep it free of GEOS.
 */
#ifndef VSG_GEOMETRY_WKB_SCAN_H
#define VSG_GEOMETRY_WKB_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "vsgpu_engine.h"

/* Nesting deeper than this (collections of collections ...) is corrupt. */
#define VSG_WKB_MAX_DEPTH 32

typedef enum {
    VSG_WKB_OK = 0,
    VSG_WKB_CORRUPT,       /* truncated, bad count, bad type or byte order */
    VSG_WKB_NONFINITE,     /* well formed, but a coordinate is NaN or Inf  */
    VSG_WKB_UNSUPPORTED    /* well formed so far, but a curve/surface type */
} vsg_wkb_verdict;

typedef struct {
    vsg_wkb_verdict verdict;
    char message[160];        /* why, with the byte offset, when not OK    */
    size_t consumed;          /* bytes of the geometry (when OK/NONFINITE) */
    int type;                 /* base type of the top level: 1..7, or the
                                 unsupported code                          */
    int has_z, has_m, has_srid; /* of the top level                      */
    int any_m;                /* an M ordinate anywhere (any member)       */
    int is_empty;             /* not a single coordinate                   */
    int dimension;            /* highest dimension of the non-empty parts:
                                 0 points, 1 lines, 2 polygons; -1 if empty */
    int64_t n_points;
    int64_t n_rings;
    int64_t n_unclosed_rings; /* rings of >= 2 points whose last point
                                 differs from the first (in X and Y)       */
    double bounds[4];         /* xmin, ymin, xmax, ymax of the finite
                                 coordinates; meaningful if !is_empty      */
} vsg_wkb_info;

/* Never fails: the verdict is in info. wkb may be NULL only with size 0. */
void vsg_wkb_scan(const unsigned char *wkb, size_t size, vsg_wkb_info *info);

/* A copy of the geometry in which every unclosed ring gets its first point
 * appended (byte order, flags and SRID kept as they were). A ring of fewer
 * than 3 distinct points is not judged here: GEOS and MakeValid do that.
 * Precondition: vsg_wkb_scan gave VSG_WKB_OK or VSG_WKB_NONFINITE.
 * On success *out is malloc'ed (free it) and *out_size its length; on
 * failure (VSG_ERR_NOMEM, or VSG_ERR_CORRUPT_WKB if the precondition does
 * not hold) *out is NULL. */
vsg_status vsg_wkb_close_rings(const unsigned char *wkb, size_t size,
                               unsigned char **out, size_t *out_size);

/* The same copy, and with drop_m also without M ordinates: type codes lose
 * their M (ISO XYM becomes XY, XYZM becomes XYZ; the EWKB M flag is
 * cleared). The engine drops M on every GEOS version this way: GEOS 3.12
 * and later would otherwise carry M through to the output. */
vsg_status vsg_wkb_normalize(const unsigned char *wkb, size_t size, int drop_m,
                             unsigned char **out, size_t *out_size);

#endif
