/*
 * errors.c - the engine's error state: the last error of a call, the input
 * and method rows it names, and the one way to set it (vsg_engine_fail).
 * Every part of the engine and of the GPU pipeline reports through these;
 * they depend on the engine's state only (core/engine_internal.h), so that
 * reporting an error never pulls in the engine's life cycle.
 */
#include <stdarg.h>
#include <stdio.h>

#include "core/engine_internal.h"

const char *vsg_engine_last_error(const vsg_engine *e)
{
    return e ? e->last_error : "no engine";
}

int64_t vsg_engine_error_input_index(const vsg_engine *e)
{
    return e ? e->error_input_index : -1;
}

int64_t vsg_engine_error_method_index(const vsg_engine *e)
{
    return e ? e->error_method_index : -1;
}

void vsg_engine_begin_call(vsg_engine *e)
{
    e->last_error[0] = '\0';
    e->error_input_index = -1;
    e->error_method_index = -1;
}

vsg_status vsg_engine_fail(vsg_engine *e, vsg_status st, int64_t input_index,
                           int64_t method_index, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->last_error, sizeof e->last_error, fmt, ap);
    va_end(ap);
    e->error_input_index = input_index;
    e->error_method_index = method_index;
    return st;
}

vsg_status vsg_engine_take_failure(vsg_engine *e, vsg_failure *f)
{
    if (!vsg_failure_any(f))
        return VSG_OK;
    return vsg_engine_fail(e, f->status, f->input_index, f->method_index, "%s", f->message);
}
