/*
 * method_index.h - the method layer, read once and shared by every worker:
 * its GEOS geometries (read-only, caches warmed), their envelopes in an
 * STR tree, and per worker a lazily filled cache of prepared geometries.
 */
#ifndef VSG_OVERLAY_METHOD_INDEX_H
#define VSG_OVERLAY_METHOD_INDEX_H

#include <geos_c.h>

#include "vsgpu_engine.h"
#include "core/worker.h"
#include "index/strtree.h"
#include "columnar/columnar.h"

struct vsg_method_index {
    GEOSContextHandle_t ctx;        /* the index's own, for destroy     */
    size_t n;
    GEOSGeometry **geoms;           /* NULL: null, empty or dropped, or
                                       deferred and not yet parsed       */
    /* Rows the GPU pipeline's screen proved valid polygons are left
     * unparsed (their bytes copied to wkb[j], NULL for the others): GEOS
     * reads a method geometry only where it must work on it
     * (vsg_method_geom), and on the GPU that is rare. */
    unsigned char **wkb;
    size_t *wkb_len;
    double *boxes;                  /* 4 per geometry                   */
    int *dims;
    int64_t *npoints;
    int dimension;                  /* highest, -1 if none              */
    vsg_strtree *tree;
    unsigned char *repaired;        /* 1: geoms[j] is MakeValid's output */
    /* For the GPU pipeline (when enabled): the method layer as columnar
     * geometry, decoded from the same WKB, and a serial that names this
     * index in the engine's device cache. */
    vsg_columnar *col;
    int64_t col_unsupported;        /* rows the GPU pipeline cannot take */
    uint64_t serial;
    int n_workers;
    /* prepared[w][j]: row w is allocated and filled by worker w only, so
     * the cache needs no lock. */
    const GEOSPreparedGeometry ***prepared;
};

/* Whether method row j takes part (a geometry, parsed or deferred). */
int vsg_method_kept(const vsg_method_index *idx, size_t j);

/* Method geometry j (vsg_method_kept), parsed here the first time a
 * deferred row is asked for, by whichever worker asks first (the others
 * then take its geometry). NULL when GEOS cannot read bytes the screen
 * proved valid (callers treat it as a GEOS failure of the pair). */
const GEOSGeometry *vsg_method_geom(const vsg_method_index *idx, vsg_worker *w, size_t j);

/* The prepared form of method geometry j for worker `worker`, prepared on
 * first use. Returns NULL when out of memory or GEOS fails (callers then
 * use the unprepared predicate). */
const GEOSPreparedGeometry *vsg_method_prepared(const vsg_method_index *idx,
                                                vsg_worker *w, int worker, size_t j);

#endif
