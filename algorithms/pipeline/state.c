/*
 * gpu_state.c - see gpu_state.h.
 */
#include "pipeline/state.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fault.h"

#ifdef VSGPU_HAVE_CUDA
#include "vsgpu_cuda.h"
#endif

static vsg_gpu_state *state_of(vsg_engine *e)
{
    if (!e->gpu) {
        e->gpu = calloc(1, sizeof *e->gpu);
        if (e->gpu)
            vsg_resident_init(&e->gpu->resident);
    }
    return e->gpu;
}

/* The first reason is the one the user reads; later ones are dropped. */
static void keep_note(vsg_gpu_state *g, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void keep_note(vsg_gpu_state *g, const char *fmt, ...)
{
    if (g->note[0] != '\0')
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->note, sizeof g->note, fmt, ap);
    va_end(ap);
}

vsg_exec *vsg_gpu_acquire(vsg_engine *e, vsg_status *st)
{
    *st = VSG_OK;
    const vsg_gpu_options *o = &e->opts.gpu;
    if (!o->enabled)
        return NULL;
    vsg_gpu_state *g = state_of(e);
    if (!g) {
        *st = vsg_engine_fail(e, VSG_ERR_NOMEM, -1, -1, "out of memory");
        return NULL;
    }
    if (g->broken)
        return NULL;   /* no more GPU use in this statement (the note says why) */
    if (g->x)
        return g->x;
    vsg_status s;
    char why[256] = "";
    if (vsg_fault_hit(VSG_FAULT_GPU_CALL)) {   /* the tests' device that does not open */
        s = VSG_ERR_GPU_KERNEL;
        snprintf(why, sizeof why, "injected fault: the device did not open");
    } else if (o->backend == VSG_GPU_BACKEND_HOST) {
        s = vsg_exec_create_host(&g->x);
        if (s == VSG_OK)
            vsg_exec_set_host_limit(g->x, o->settings.pool_limit);
    } else {
#ifdef VSGPU_HAVE_CUDA
        vsg_cuda_warmup_wait();
#endif
        s = vsg_exec_create_gpu(&o->settings, &g->x, why, sizeof why);
    }
    if (s == VSG_OK)
        vsg_exec_set_steps(g->x, o->settings.steps);
    if (s != VSG_OK) {
        g->x = NULL;
        g->broken = 1;
        if (o->strict) {
            *st = vsg_engine_fail(e, s, -1, -1, "cannot open the GPU: %s",
                                  why[0] ? why : vsg_status_name(s));
        } else {
            keep_note(g, "cannot open the GPU: %s", why[0] ? why : vsg_status_name(s));
        }
        return NULL;
    }
    snprintf(g->device, sizeof g->device, "%s", vsg_exec_device_label(g->x));
    return g->x;
}

vsg_gpu_state *vsg_gpu_state_of(vsg_engine *e)
{
    return state_of(e);
}

void vsg_gpu_clear_screened(vsg_engine *e)
{
    if (e->gpu)
        vsg_screened_clear(&e->gpu->screened);
}

int vsg_gpu_dropped(const vsg_engine *e)
{
    const vsg_gpu_state *g = e->gpu;
    return e->opts.gpu.enabled && g && g->broken && g->device[0];
}

vsg_exec *vsg_gpu_acquire_rows(vsg_engine *e, int64_t rows, vsg_status *st)
{
    vsg_exec *x = vsg_gpu_acquire(e, st);
    if (!x && *st == VSG_OK && vsg_gpu_dropped(e))
        e->counts.gpu_rows_rerun_on_cpu += rows;
    return x;
}

vsg_status vsg_gpu_fallback(vsg_engine *e, vsg_status st, int64_t rows, const char *what)
{
    vsg_gpu_state *g = state_of(e);
    const char *msg = g && g->x ? vsg_exec_last_error(g->x) : "";
    if (!msg || !msg[0])
        msg = vsg_status_name(st);
    if (g && st != VSG_ERR_GPU_OOM && st != VSG_ERR_NOMEM)
        g->broken = 1;   /* the context may be unusable after a kernel fault */
    if (e->opts.gpu.strict)
        return vsg_engine_fail(e, st, -1, -1, "GPU %s failed: %s", what, msg);
    e->counts.gpu_rows_rerun_on_cpu += rows;
    if (g)
        keep_note(g, "GPU %s failed (%s)", what, msg);
    return VSG_OK;
}

vsg_status vsg_gpu_give_up(vsg_engine *e, vsg_status st, const char *what)
{
    vsg_status r = vsg_gpu_fallback(e, st, 0, what);
    vsg_gpu_state *g = state_of(e);
    if (g)
        g->broken = 1;
    return r;
}

void vsg_gpu_note_rerun(vsg_engine *e, int64_t rows, const char *why)
{
    if (rows <= 0)
        return;
    e->counts.gpu_rows_rerun_on_cpu += rows;
    vsg_gpu_state *g = state_of(e);
    if (g)
        keep_note(g, "%s", why);
}

void vsg_gpu_prestart(vsg_engine *e)
{
#ifdef VSGPU_HAVE_CUDA
    if (e->opts.gpu.enabled && e->opts.gpu.backend == VSG_GPU_BACKEND_CUDA)
        vsg_cuda_warmup_start(&e->opts.gpu.settings);
#else
    (void)e;
#endif
}

void vsg_gpu_state_destroy(vsg_engine *e)
{
#ifdef VSGPU_HAVE_CUDA
    if (e->opts.gpu.enabled && e->opts.gpu.backend == VSG_GPU_BACKEND_CUDA)
        vsg_cuda_warm_pool_drop();   /* joins; a reserve nobody took goes */
#endif
    vsg_gpu_state *g = e->gpu;
    if (!g)
        return;
    vsg_screened_clear(&g->screened);
    if (g->x) {
        vsg_resident_clear(&g->resident, g->x);
        vsg_exec_destroy(g->x);
    }
    free(g);
    e->gpu = NULL;
}

const char *vsg_engine_gpu_note(const vsg_engine *e)
{
    return e && e->gpu ? e->gpu->note : "";
}

const char *vsg_engine_gpu_device(const vsg_engine *e)
{
    return e && e->gpu ? e->gpu->device : "";
}

int vsg_engine_gpu_report(const vsg_engine *e, vsg_gpu_stats *out)
{
    memset(out, 0, sizeof *out);
    if (!e || !e->gpu || !e->gpu->x)
        return 0;
    vsg_exec_get_stats(e->gpu->x, out);
    return 1;
}
