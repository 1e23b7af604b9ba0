/*
 * screen_job.h - the engine's validity screen of a layer (its
 * valid_screen hook: the GPU pipeline's, pipeline/screen.h) run on a
 * helper thread while the caller's pool parses the same rows with GEOS
 * (geometry/read.h, vsg_read_parse): the screen's decoding, copies,
 * device time and any wait for CUDA's start-up overlap the parsing, and
 * only the validity checks wait for its verdicts.
 *
 * Threads: while the job runs, the helper is the only thread that uses
 * the GPU backend, the engine's error and its profile; the pool's tasks
 * touch none of them.
 */
#ifndef VSG_OVERLAY_SCREEN_JOB_H
#define VSG_OVERLAY_SCREEN_JOB_H

#include <pthread.h>

#include "core/engine_internal.h"

typedef struct {
    vsg_engine *e;
    const vsg_wkb_array *in;
    uint8_t *known_valid;
    vsg_status st;
    pthread_t th;
    int running;      /* a helper thread runs it                      */
    int pending;      /* started, not yet joined                      */
} vsg_screen_job;

/* Starts the screen of in; returns 0 (and runs nothing) when the engine
 * has no screen that could run: no hook, the CPU engine, or the screen
 * switched off. */
int vsg_screen_start(vsg_screen_job *j, vsg_engine *e, const vsg_wkb_array *in);

/* Waits for the job (or runs it here when no thread could start):
 * *known_valid (malloc'd, the caller frees it) or NULL; returns the
 * screen's status (not VSG_OK only under strict GPU mode, engine error
 * set). */
vsg_status vsg_screen_join(vsg_screen_job *j, uint8_t **known_valid);

#endif
