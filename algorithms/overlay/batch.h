/*
 * batch.h - the stages the overlay operations share for one batch of
 * input geometries: read (parallel), encode (parallel) and assemble (in
 * input order). Between read and encode each operation runs its own
 * candidate and refine stages, writing into outs[i] for input i.
 *
 * Determinism: task i touches only in[i] and outs[i]; assemble
 * concatenates outs[0..n) in order.
 */
#ifndef VSG_OVERLAY_BATCH_H
#define VSG_OVERLAY_BATCH_H

#include <geos_c.h>

#include "vsgpu_engine.h"
#include "columnar/columnar.h"
#include "core/engine_internal.h"
#include "geometry/read.h"

typedef struct {
    int64_t method_index;
    GEOSGeometry *geom;          /* until encode */
    unsigned char *wkb;          /* after encode */
    size_t size;
} vsg_out_item;

typedef struct {
    vsg_out_item *items;
    size_t n, cap;
} vsg_out_list;

typedef struct {
    vsg_engine *e;
    const vsg_wkb_array *input;
    size_t n;
    vsg_read_result *in;         /* n */
    vsg_out_list *outs;          /* n */
    vsg_failure failure;
    const double *extent;        /* NULL, or xmin, ymin, xmax, ymax: inputs
                                    whose envelope misses it are not read
                                    (they take part in nothing)           */
    uint8_t *known_valid;        /* NULL, or n: rows the engine's validity
                                    screen proved valid (no GEOS IsValid) */
    int defer_parse;             /* set before vsg_batch_read: the rows the
                                    screen proved valid polygons are left
                                    unparsed (in[i].deferred); the caller
                                    parses those GEOS must work on       */
} vsg_batch;

/* Checks the arguments and allocates. On failure returns the status (the
 * engine's last error set) and the batch needs no vsg_batch_free. */
vsg_status vsg_batch_init(vsg_batch *b, vsg_engine *e, const vsg_wkb_array *input);

/* Releases every geometry and buffer the batch still holds. */
void vsg_batch_free(vsg_batch *b);

/* Stage "read_input": every input through vsg_read_geometry, after the
 * engine's validity screen (stage "valid_screen", where it has one). */
vsg_status vsg_batch_read(vsg_batch *b);

/* Appends a result for input i; takes g. Returns VSG_ERR_NOMEM (g then
 * destroyed) or VSG_OK. */
vsg_status vsg_out_push(vsg_worker *w, vsg_out_list *l, int64_t method_index,
                        GEOSGeometry *g);

/* Appends a result for input i that is WKB already; takes wkb. Returns
 * VSG_ERR_NOMEM (wkb then freed) or VSG_OK. */
vsg_status vsg_out_push_wkb(vsg_out_list *l, int64_t method_index, unsigned char *wkb,
                            size_t size);

/* Appends row t of c (the GPU refine's results, host memory) as WKB. */
vsg_status vsg_out_push_columnar(vsg_out_list *l, int64_t method_index, const vsg_columnar *c,
                                 int64_t t);

/* Stage "encode": results to WKB, in parallel; frees the geometries. */
vsg_status vsg_batch_encode(vsg_batch *b);

/* Stage "assemble": replaces out's contents with the batch's results in
 * input order (then method order). */
vsg_status vsg_batch_assemble(vsg_batch *b, vsg_result *out);

/* The end every overlay pipeline shares: if st is VSG_OK, the stages
 * "encode" and "assemble" into out; then the batch is freed and the
 * engine's counters collected. Returns the resulting status. */
vsg_status vsg_batch_finish(vsg_batch *b, vsg_status st, vsg_result *out);

/* Runs fn over the batch's inputs and turns a recorded failure into the
 * engine's error; adds a profile record named `stage`. */
vsg_status vsg_batch_stage(vsg_batch *b, const char *stage, vsg_task_fn fn, void *ctx,
                           int64_t (*rows_out)(const vsg_batch *));

/* The result count of the batch so far (for profile records). */
int64_t vsg_batch_count_outputs(const vsg_batch *b);

#endif
