/*
 * repaired_wkb.h - a WKB array in which the rows the reader repaired read
 * as their repair (MakeValid's output), so that the GPU pipeline, which
 * decodes WKB into columnar form, sees every geometry as the CPU engine
 * reads it: the classes and the exact refine then hold for the repaired
 * geometry, and such rows need not go to GEOS.
 */
#ifndef VSG_GEOMETRY_REPAIRED_WKB_H
#define VSG_GEOMETRY_REPAIRED_WKB_H

#include <geos_c.h>

#include "vsgpu_engine.h"
#include "core/worker.h"

typedef struct {
    vsg_wkb_array arr;          /* the rows to decode                      */
    const unsigned char **wkb;  /* owned views (NULL when none repaired)   */
    size_t *size;
    unsigned char **own;        /* the repairs' WKB, NULL for other rows   */
} vsg_wkb_repaired;

/* repair_of(ud, i): the repair of row i, or NULL where row i reads as
 * given. With no repaired row, out->arr is *in and nothing is allocated.
 * Encodes with w's GEOS context (the caller's thread). On failure
 * (VSG_ERR_NOMEM, VSG_ERR_GEOS) out holds nothing. */
vsg_status vsg_wkb_with_repairs(vsg_worker *w, const vsg_wkb_array *in,
                                const GEOSGeometry *(*repair_of)(const void *ud, size_t i),
                                const void *ud, vsg_wkb_repaired *out);
void vsg_wkb_repaired_free(vsg_wkb_repaired *r);

#endif
