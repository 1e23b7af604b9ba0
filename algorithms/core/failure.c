/*
 * failure.c - see failure.h.
 */
#include "failure.h"

#include <stdarg.h>
#include <stdio.h>

void vsg_failure_init(vsg_failure *f)
{
    pthread_mutex_init(&f->mu, NULL);
    atomic_init(&f->first_task, INT64_MAX);
    f->status = VSG_OK;
    f->input_index = -1;
    f->method_index = -1;
    f->message[0] = '\0';
}

void vsg_failure_destroy(vsg_failure *f)
{
    pthread_mutex_destroy(&f->mu);
}

void vsg_failure_record(vsg_failure *f, int64_t task, vsg_status st,
                        int64_t input_index, int64_t method_index,
                        const char *fmt, ...)
{
    pthread_mutex_lock(&f->mu);
    if (task < atomic_load(&f->first_task)) {
        f->status = st;
        f->input_index = input_index;
        f->method_index = method_index;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(f->message, sizeof f->message, fmt, ap);
        va_end(ap);
        atomic_store(&f->first_task, task);
    }
    pthread_mutex_unlock(&f->mu);
}
