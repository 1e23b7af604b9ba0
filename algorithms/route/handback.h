/*
 * handback.h - the one route from the GPU pipeline to the CPU engine, in
 * the manner of GEOS's OverlayNGRobust: a pipeline settles the rows it can
 * and hands back the others; this step runs those on the CPU engine,
 * remaps their indexes (and the row an error names) to the batch, adds the
 * pipeline's counts once, and merges both results in input order. GPU
 * orchestrators never call the CPU engine or touch its counters.
 */
#ifndef VSG_ROUTE_HANDBACK_H
#define VSG_ROUTE_HANDBACK_H

#include <stdint.h>

#include "core/engine_internal.h"
#include "pipeline/out.h"


/* The CPU engine's batch function of one operation over some rows. */
typedef vsg_status (*vsg_cpu_batch_fn)(vsg_engine *e, const void *arg,
                                       const vsg_wkb_array *rows, vsg_result *out);

/* Runs p's handed-back rows with cpu(e, arg, rows), then merges. out holds
 * the batch's results on success, nothing on failure (the engine's error
 * names the batch row). Takes p's results. */
vsg_status vsg_handback(vsg_engine *e, const vsg_wkb_array *input, vsg_pipeline_out *p,
                        vsg_cpu_batch_fn cpu, const void *arg, vsg_result *out);

#endif
