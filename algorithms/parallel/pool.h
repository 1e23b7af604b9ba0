/*
 * pool.h - a persistent pool of worker threads running one parallel loop
 * at a time.
 *
 * vsg_pool_run(p, n, fn, ctx) calls fn(ctx, task, worker) once for every
 * task in [0, n) and returns when all have finished (a barrier). Tasks are
 * handed out in increasing order, in small chunks taken from an atomic
 * counter, so uneven tasks balance. The calling thread works too, as worker
 * 0; the pool owns workers 1..size-1. worker is the index of per-worker
 * state (its GEOS context): a worker runs one task at a time.
 *
 * Determinism is the caller's part: tasks write their results into slots
 * indexed by task, never into shared lists.
 */
#ifndef VSG_PARALLEL_POOL_H
#define VSG_PARALLEL_POOL_H

#include <stddef.h>

#include "vsgpu_engine.h"

typedef struct vsg_pool vsg_pool;
typedef void (*vsg_task_fn)(void *ctx, size_t task, int worker);

/* n_workers >= 1 (the caller included). On failure returns VSG_ERR_NOMEM
 * or VSG_ERR_THREAD, *out is NULL and no thread is left running. */
vsg_status vsg_pool_create(int n_workers, vsg_pool **out);

/* Stops and joins the threads. Must not be called while a run is active. */
void vsg_pool_destroy(vsg_pool *p);

int vsg_pool_size(const vsg_pool *p);

/* Not reentrant: one run at a time, from one thread. fn must not fail
 * loudly: it records its own errors (see core/failure.h). */
void vsg_pool_run(vsg_pool *p, size_t n_tasks, vsg_task_fn fn, void *ctx);

#endif
