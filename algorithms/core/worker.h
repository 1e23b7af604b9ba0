/*
 * worker.h - the state one pool worker owns: its GEOS context (GEOS
 * contexts are not shared between threads), its WKB reader and writer, the
 * last GEOS error message, and its share of the counters.
 *
 * Counters are per worker so that the hot path has no atomics or locks; the
 * engine sums them after each operation (vsg_engine_collect_counts).
 */
#ifndef VSG_CORE_WORKER_H
#define VSG_CORE_WORKER_H

#include <geos_c.h>

#include "vsgpu_engine.h"

typedef struct vsg_worker {
    GEOSContextHandle_t ctx;
    GEOSWKBReader *reader;
    GEOSWKBWriter *writer;           /* ISO, little endian, up to 3D       */
    GEOSMakeValidParams *make_valid; /* STRUCTURE, collapsed parts dropped */
    vsg_counts counts;
    char geos_msg[512];              /* last error reported by GEOS        */
    int has_geos_msg;
    int64_t fault_row;               /* tests: see vsg_worker_intersection */
} vsg_worker;

/* On failure returns VSG_ERR_NOMEM and leaves w zeroed (safe to destroy). */
vsg_status vsg_worker_init(vsg_worker *w);
void vsg_worker_destroy(vsg_worker *w);

/* The message of the last GEOS error on this worker ("unknown GEOS error"
 * if GEOS said nothing); reading it clears it. */
const char *vsg_worker_take_message(vsg_worker *w);

/* The engine's GEOS overlay operations, through one door. In builds with
 * VSGPU_FAULT_INJECTION (test builds) a failure can be injected, as a GEOS
 * exception gives one (NULL, message "TopologyException: injected ..."):
 * the one failure that every GEOS version raises, for the tests of
 * SKIP_FAILURES and of error reporting:
 *   VSGPU_FAULT_GEOS_ROW=<n>  every overlay of batch row n fails;
 *   VSGPU_FAULT=geos:<n>      the n-th overlay of the process fails
 *                             (core/fault.h).
 * row: the input's row in its batch (-1: none). Coverage unions are not
 * doors: their failure is a branch (the unary union follows), not an
 * error. */
GEOSGeometry *vsg_worker_intersection(vsg_worker *w, int64_t row, const GEOSGeometry *a,
                                      const GEOSGeometry *b);
GEOSGeometry *vsg_worker_clip_by_rect(vsg_worker *w, int64_t row, const GEOSGeometry *g,
                                      const double *rect);
GEOSGeometry *vsg_worker_union(vsg_worker *w, const GEOSGeometry *a, const GEOSGeometry *b);
GEOSGeometry *vsg_worker_unary_union(vsg_worker *w, int64_t row, const GEOSGeometry *g);

/* Forgets a stale message before an operation whose failure we report. */
static inline void vsg_worker_clear_message(vsg_worker *w)
{
    w->has_geos_msg = 0;
    w->geos_msg[0] = '\0';
}

#endif
