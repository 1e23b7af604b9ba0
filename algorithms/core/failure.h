/*
 * failure.h - the first failure of a parallel stage, chosen by task index.
 *
 * Tasks are claimed in increasing index order, so when task k fails every
 * task below k has been claimed and will finish; tasks above k may be
 * skipped. Keeping the failure of the lowest task makes the reported error
 * the same for every thread count.
 */
#ifndef VSG_CORE_FAILURE_H
#define VSG_CORE_FAILURE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "vsgpu_engine.h"

typedef struct {
    pthread_mutex_t mu;
    _Atomic int64_t first_task;   /* INT64_MAX while nothing failed */
    vsg_status status;
    int64_t input_index;
    int64_t method_index;
    char message[1024];
} vsg_failure;

void vsg_failure_init(vsg_failure *f);
void vsg_failure_destroy(vsg_failure *f);

/* Keeps this failure if its task is the lowest seen so far. */
void vsg_failure_record(vsg_failure *f, int64_t task, vsg_status st,
                        int64_t input_index, int64_t method_index,
                        const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* Whether a task can be skipped: a lower task already failed. */
static inline int vsg_failure_skip(vsg_failure *f, int64_t task)
{
    return task > atomic_load_explicit(&f->first_task, memory_order_relaxed);
}

static inline int vsg_failure_any(vsg_failure *f)
{
    return atomic_load(&f->first_task) != INT64_MAX;
}

#endif
