/*
 * engine_internal.h - what the operations see of the engine: its options,
 * its pool and per-worker state, its counters and profile, and the one
 * place where a failure becomes the engine's last error.
 */
#ifndef VSG_CORE_ENGINE_INTERNAL_H
#define VSG_CORE_ENGINE_INTERNAL_H

#include "vsgpu_engine.h"
#include "core/failure.h"
#include "core/worker.h"
#include "parallel/pool.h"

/* A screen of a layer's validity (the GPU pipeline's, pipeline/screen.h):
 * *known_valid[i] = 1 where row i needs no GEOS IsValid; *known_valid
 * NULL where nothing was screened. spares_parse: the reader defers the
 * parse of what passes (VSG_READ_MAY_DEFER), so small rows are worth
 * screening too. Set by engine.c, so that the CPU engine's reader asks
 * it without depending on the pipeline. */
typedef vsg_status (*vsg_screen_fn)(vsg_engine *e, const vsg_wkb_array *in, int spares_parse,
                                    uint8_t **known_valid);

struct vsg_engine {
    vsg_engine_options opts;
    int n_threads;
    vsg_pool *pool;
    vsg_worker *workers;        /* n_threads, indexed by pool worker id */
    vsg_counts counts;
    vsg_profile *profile;
    struct vsg_gpu_state *gpu;  /* the GPU pipeline's state (pipeline/state.h);
                                   NULL until first used                 */
    vsg_screen_fn valid_screen;  /* NULL: every row checked by GEOS     */
    vsg_progress_fn progress_fn; /* vsg_engine_set_progress; NULL: off  */
    void *progress_data;
    char last_error[1024];
    int64_t error_input_index;
    int64_t error_method_index;
};

/* Starts a public call: forgets the previous call's error. */
void vsg_engine_begin_call(vsg_engine *e);

/* Sets the last error; returns st, so that `return vsg_engine_fail(...)`
 * reads naturally. */
vsg_status vsg_engine_fail(vsg_engine *e, vsg_status st, int64_t input_index,
                           int64_t method_index, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* If the stage recorded a failure, makes it the last error and returns its
 * status; VSG_OK otherwise. */
vsg_status vsg_engine_take_failure(vsg_engine *e, vsg_failure *f);

/* Adds the workers' counters into the engine's and zeroes them. */
void vsg_engine_collect_counts(vsg_engine *e);

#endif
