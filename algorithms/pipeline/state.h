/*
 * gpu_state.h - the engine's side of the GPU pipeline: the backend, opened
 * on first use (never at engine creation, so a statement that never
 * reaches a GPU stage never touches CUDA); the one rule for what a GPU
 * failure means; and what is kept on the device between batches
 * (pipeline/resident.h).
 *
 * The failure rule, in one place: under VSGPU_EXECUTION_MODE=GPU (strict)
 * a failure of the GPU pipeline fails the call with its status and
 * message; in AUTO the affected rows are re-run on the CPU engine, counted
 * in gpu_rows_rerun_on_cpu, and the first reason is kept for the driver's
 * one warning. A kernel failure (the context may be unusable) ends GPU use
 * for the rest of the statement; an out-of-memory only for the batch.
 */
#ifndef VSG_GPU_STATE_H
#define VSG_GPU_STATE_H

#include "core/engine_internal.h"
#include "columnar/columnar.h"
#include "exec/exec.h"
#include "pipeline/resident.h"
#include "pipeline/screened.h"

typedef struct vsg_gpu_state {
    vsg_exec *x;              /* NULL until opened                          */
    int broken;               /* no more GPU use in this engine             */
    char note[512];           /* first reason rows left the GPU pipeline    */
    char device[160];
    /* method layers on the backend, keyed by their method index's serial */
    vsg_resident_cache resident;
    uint64_t method_noted;    /* serial whose unsupported rows were counted */
    vsg_screened screened;    /* the validity screen's decode, where kept  */
} vsg_gpu_state;

/* The backend, opened on first call; NULL when the GPU pipeline is not
 * enabled, broken, or cannot open. In that last case *st is the failure
 * under strict mode (engine error set), VSG_OK in AUTO (note kept). */
vsg_exec *vsg_gpu_acquire(vsg_engine *e, vsg_status *st);

/* vsg_gpu_acquire for a GPU step over `rows` rows: where the pipeline
 * opened in this statement but has broken since (a kernel failure, the
 * validity screen given up), those rows are counted as re-run on the CPU
 * engine, since the caller now runs them there. */
vsg_exec *vsg_gpu_acquire_rows(vsg_engine *e, int64_t rows, vsg_status *st);

/* Whether the pipeline opened in this statement and has broken since: the
 * steps that would have run on it now run on the CPU engine, counted. */
int vsg_gpu_dropped(const vsg_engine *e);

/* The engine's GPU state, made on first call without opening anything;
 * NULL when out of memory. */
vsg_gpu_state *vsg_gpu_state_of(vsg_engine *e);

/* Frees the validity screen's decode kept for the statement, if any. */
void vsg_gpu_clear_screened(vsg_engine *e);

/* Applies the failure rule to a failed GPU step `what` over `rows` rows:
 * returns st (engine error set) under strict mode, VSG_OK otherwise (rows
 * counted, note kept; the caller then runs the CPU engine). */
vsg_status vsg_gpu_fallback(vsg_engine *e, vsg_status st, int64_t rows, const char *what);

/* The failure rule for a step of the pipeline that serves the whole
 * statement rather than some rows (the validity screen): under strict mode
 * as vsg_gpu_fallback; in AUTO, whatever the cause, the GPU is not used
 * again in this statement (every later row runs on the CPU engine, and
 * the note says why), so that the failure is visible and the answer is
 * the CPU engine's. */
vsg_status vsg_gpu_give_up(vsg_engine *e, vsg_status st, const char *what);

/* Records rows handed to the CPU engine for a reason that is not a failure
 * (unsupported type, Z, undecided): counted, first reason kept. */
void vsg_gpu_note_rerun(vsg_engine *e, int64_t rows, const char *why);

/* At engine creation: starts CUDA on a helper thread when the pipeline
 * will run on the device, so that its start-up overlaps with reading the
 * sources (cuda/warmup.cu). */
void vsg_gpu_prestart(vsg_engine *e);

/* Frees the backend and everything on it (and waits for the warm-up). */
void vsg_gpu_state_destroy(vsg_engine *e);

#endif
