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
    VSG_READ_OUTSIDE,    /* well-formed, envelope outside the
                            operation's extent: not read at all    */
    VSG_READ_PENDING     /* vsg_read_parse only: geom is parsed but
                            not yet checked (vsg_read_check)       */
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
} vsg_read_result;

/* role ("input", "method") and index name the feature in messages.
 * extent (NULL, or xmin, ymin, xmax, ymax): well-formed, non-empty WKB
 * whose envelope misses it is not parsed at all (VSG_READ_OUTSIDE): it can
 * take part in nothing, so validating and repairing it would be wasted.
 * Returns VSG_OK with out->outcome saying what happened, or, under
 * VSG_INVALID_ERROR, VSG_ERR_CORRUPT_WKB / VSG_ERR_INVALID_GEOMETRY /
 * VSG_ERR_UNSUPPORTED with "<role> feature #<index>: <reason>" in errbuf;
 * VSG_ERR_NOMEM when memory runs out. out->geom is NULL on failure. */
vsg_status vsg_read_geometry(vsg_worker *w, vsg_invalid_policy policy,
                             const unsigned char *wkb, size_t size,
                             const double *extent, const char *role, int64_t index,
                             vsg_read_result *out, char *errbuf, size_t errlen);

/* The same read in two steps, for a caller that learns which rows are
 * valid while it parses (the GPU pipeline's validity screen, running on a
 * helper thread meanwhile: overlay/screen_job.h). vsg_read_parse does
 * everything but the validity check and what follows it: a row that
 * reaches GEOS is left VSG_READ_PENDING with its unchecked geometry in
 * out->geom. vsg_read_check finishes a pending row (known_valid: the
 * screen proved it valid, so GEOS's IsValid is not asked) and leaves any
 * other row as it is. Arguments, outcomes and errors are those of
 * vsg_read_geometry, which is the two in a row. */
vsg_status vsg_read_parse(vsg_worker *w, vsg_invalid_policy policy, const unsigned char *wkb,
                          size_t size, const double *extent, const char *role, int64_t index,
                          vsg_read_result *out, char *errbuf, size_t errlen);

vsg_status vsg_read_check(vsg_worker *w, vsg_invalid_policy policy, int known_valid,
                          const char *role, int64_t index, vsg_read_result *out, char *errbuf,
                          size_t errlen);

#endif
