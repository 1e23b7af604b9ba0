/*
 * read.h - one WKB geometry in, one usable GEOS geometry out, with the
 * bad-input policy of docs/semantics.md applied on the way:
 *
 *   scan      corrupt -> dropped, corrupt_skipped (ERROR: fail)
 *             unsupported type (TIN, ...) -> dropped, unsupported_skipped
 *             (ERROR: fail)
 *             non-finite            -> dropped, nonfinite_skipped (ERROR: fail)
 *             unclosed rings        -> closed, rings_closed += rings
 *   read      null -> null_geometries; empty -> empty_geometries
 *   validity  invalid -> REPAIR: MakeValid (STRUCTURE), invalid_repaired
 *                        SKIP: dropped, invalid_skipped
 *                        ERROR: fail with GEOSisValidReason
 *             unreadable by GEOS or not repairable -> invalid_skipped (ERROR: fail)
 *
 * Counters go to the worker (no sharing); callers sum them later.
 */
#ifndef VSG_GEOMETRY_READ_H
#define VSG_GEOMETRY_READ_H

#include <geos_c.h>

#include "vsgpu_engine.h"
#include "core/worker.h"

typedef enum {
    VSG_READ_GEOM = 0,   /* geom is set: non-empty, valid          */
    VSG_READ_NULL,       /* a null geometry                        */
    VSG_READ_EMPTY,      /* an empty geometry                      */
    VSG_READ_DROPPED,    /* dropped by the policy (counted)        */
    VSG_READ_OUTSIDE     /* well-formed, envelope outside the
                            operation's extent: not read at all    */
} vsg_read_outcome;

typedef struct {
    GEOSGeometry *geom;  /* owned by the holder; NULL unless GEOM  */
    vsg_read_outcome outcome;
    int dim;             /* 0, 1, 2 for GEOM; -1 otherwise         */
    int64_t npoints;     /* coordinates, a cost estimate           */
    double box[4];       /* envelope of geom (after repair)        */
    int repaired;        /* geom is MakeValid's output, not the
                            input: it need not fit its neighbours
                            exactly (dissolve keeps it out of a
                            coverage union)                        */
    int deferred;        /* GEOM, but geom is NULL until
                            vsg_read_parse_deferred: a polygon the
                            screen proved valid, read only if GEOS
                            must work on it (VSG_READ_MAY_DEFER)   */
    size_t wkb_bytes;    /* deferred: the geometry's bytes         */
} vsg_read_result;

/* flags of vsg_read_geometry */
enum {
    /* the GPU pipeline's validity screen (pipeline/screen.h) proved the
     * geometry valid, so GEOS's IsValid is not asked again */
    VSG_READ_KNOWN_VALID = 1,
    /* with KNOWN_VALID: a 2D or 3D Polygon or MultiPolygon with closed
     * rings and no M may be left unparsed (deferred); its box, npoints and
     * dim come from the WKB scan, and the caller parses it only if GEOS
     * must work on it. Every counter is what the full read gives. */
    VSG_READ_MAY_DEFER = 2
};

/* role ("input", "method") and index name the feature in messages.
 * extent (NULL, or xmin, ymin, xmax, ymax): well-formed, non-empty WKB
 * whose envelope misses it is not parsed at all (VSG_READ_OUTSIDE): it can
 * take part in nothing, so validating and repairing it would be wasted.
 * Returns VSG_OK with out->outcome saying what happened, or, under
 * VSG_INVALID_ERROR, VSG_ERR_CORRUPT_WKB / VSG_ERR_INVALID_GEOMETRY /
 * VSG_ERR_UNSUPPORTED with "<role> feature #<index>: <reason>" in errbuf;
 * VSG_ERR_NOMEM when memory runs out. out->geom is NULL on failure.
 * flags: VSG_READ_* above. */
vsg_status vsg_read_geometry(vsg_worker *w, vsg_invalid_policy policy, int flags,
                             const unsigned char *wkb, size_t size,
                             const double *extent, const char *role, int64_t index,
                             vsg_read_result *out, char *errbuf, size_t errlen);

/* Parses a deferred result (r->deferred; wkb: the bytes it was read from)
 * into r->geom. VSG_OK (nothing to do when not deferred), or VSG_ERR_GEOS
 * with the reason in errbuf: GEOS refused bytes the screen had proved
 * valid. */
vsg_status vsg_read_parse_deferred(vsg_worker *w, const unsigned char *wkb, vsg_read_result *r,
                                   char *errbuf, size_t errlen);

#endif
