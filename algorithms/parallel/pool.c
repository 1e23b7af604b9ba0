/*
 * pool.c - see pool.h.
 *
 * A run is published by bumping `generation` under the mutex; each thread
 * remembers the last generation it served, so a spurious wake-up or a
 * late start cannot make it run a job twice or miss one. Completion is a
 * count of threads still inside the job, signalled to the caller.
 */
#define _POSIX_C_SOURCE 200809L
#include "pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

typedef struct {
    struct vsg_pool *pool;
    int id;
} thread_arg;

struct vsg_pool {
    int size;                  /* workers, the caller included */
    pthread_t *threads;        /* size - 1 */
    thread_arg *args;
    int started;               /* threads actually created */

    pthread_mutex_t mu;
    pthread_cond_t start_cv;
    pthread_cond_t done_cv;
    unsigned long generation;
    int stop;
    int busy;                  /* pool threads still in the current job */

    vsg_task_fn fn;
    void *ctx;
    size_t n_tasks;
    size_t chunk;
    _Atomic size_t next;
};

/* Claims chunks until none is left. */
static void drain(struct vsg_pool *p, int worker)
{
    for (;;) {
        size_t begin = atomic_fetch_add_explicit(&p->next, p->chunk,
                                                 memory_order_relaxed);
        if (begin >= p->n_tasks)
            return;
        size_t end = begin + p->chunk;
        if (end > p->n_tasks)
            end = p->n_tasks;
        for (size_t t = begin; t < end; t++)
            p->fn(p->ctx, t, worker);
    }
}

static void *thread_main(void *varg)
{
    thread_arg *arg = varg;
    struct vsg_pool *p = arg->pool;
    unsigned long served = 0;

    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->stop && p->generation == served)
            pthread_cond_wait(&p->start_cv, &p->mu);
        if (p->stop)
            break;
        served = p->generation;
        pthread_mutex_unlock(&p->mu);

        drain(p, arg->id);

        pthread_mutex_lock(&p->mu);
        if (--p->busy == 0)
            pthread_cond_signal(&p->done_cv);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

vsg_status vsg_pool_create(int n_workers, vsg_pool **out)
{
    *out = NULL;
    if (n_workers < 1)
        return VSG_ERR_INVALID_ARG;
    struct vsg_pool *p = calloc(1, sizeof *p);
    if (!p)
        return VSG_ERR_NOMEM;
    p->size = n_workers;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->start_cv, NULL);
    pthread_cond_init(&p->done_cv, NULL);
    atomic_init(&p->next, 0);

    if (n_workers > 1) {
        p->threads = calloc((size_t)n_workers - 1, sizeof *p->threads);
        p->args = calloc((size_t)n_workers - 1, sizeof *p->args);
        if (!p->threads || !p->args) {
            vsg_pool_destroy(p);
            return VSG_ERR_NOMEM;
        }
        for (int i = 0; i < n_workers - 1; i++) {
            p->args[i].pool = p;
            p->args[i].id = i + 1;
            if (pthread_create(&p->threads[i], NULL, thread_main, &p->args[i]) != 0) {
                vsg_pool_destroy(p);
                return VSG_ERR_THREAD;
            }
            p->started++;
        }
    }
    *out = p;
    return VSG_OK;
}

void vsg_pool_destroy(vsg_pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
    pthread_cond_broadcast(&p->start_cv);
    pthread_mutex_unlock(&p->mu);
    for (int i = 0; i < p->started; i++)
        pthread_join(p->threads[i], NULL);
    pthread_cond_destroy(&p->done_cv);
    pthread_cond_destroy(&p->start_cv);
    pthread_mutex_destroy(&p->mu);
    free(p->threads);
    free(p->args);
    free(p);
}

int vsg_pool_size(const vsg_pool *p)
{
    return p ? p->size : 0;
}

void vsg_pool_run(vsg_pool *p, size_t n_tasks, vsg_task_fn fn, void *ctx)
{
    if (n_tasks == 0)
        return;
    p->fn = fn;
    p->ctx = ctx;
    p->n_tasks = n_tasks;
    /* Small chunks (about 16 per worker) balance tasks of very different
     * cost; the cap keeps one unlucky chunk of heavy tasks short. */
    size_t chunk = n_tasks / ((size_t)p->size * 16);
    p->chunk = chunk < 1 ? 1 : (chunk > 32 ? 32 : chunk);
    atomic_store(&p->next, 0);

    if (p->size > 1) {
        pthread_mutex_lock(&p->mu);
        p->busy = p->size - 1;
        p->generation++;
        pthread_cond_broadcast(&p->start_cv);
        pthread_mutex_unlock(&p->mu);
    }

    drain(p, 0);

    if (p->size > 1) {
        pthread_mutex_lock(&p->mu);
        while (p->busy > 0)
            pthread_cond_wait(&p->done_cv, &p->mu);
        pthread_mutex_unlock(&p->mu);
    }
}
