/*
 * exec.c - the front of exec.h: the checks every backend shares, then a
 * call through the backend's table of methods (exec_host.c, exec_gpu.c).
 */
#include "exec/exec_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fault.h"
#include "core/profile.h"

vsg_status vsg_exec_fail(vsg_exec *x, vsg_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(x->error, sizeof x->error, fmt, ap);
    va_end(ap);
    return st;
}

static vsg_exec *exec_new(vsg_exec_kind kind, const vsg_exec_methods *m)
{
    vsg_exec *x = calloc(1, sizeof *x);
    if (x) {
        x->kind = kind;
        x->m = m;
        x->open_stage = -1;
    }
    return x;
}

vsg_status vsg_exec_create_host(vsg_exec **out)
{
    *out = exec_new(VSG_EXEC_HOST, &vsg_exec_host_methods);
    if (!*out)
        return VSG_ERR_NOMEM;
    snprintf((*out)->label, sizeof (*out)->label, "CPU (host backend)");
    return VSG_OK;
}

void vsg_exec_set_host_plain(vsg_exec *x)
{
    if (x && x->kind == VSG_EXEC_HOST)
        x->host_plain = 1;
}

void vsg_exec_set_host_limit(vsg_exec *x, int64_t bytes)
{
    if (x->kind == VSG_EXEC_HOST)
        x->host_limit = bytes > 0 ? bytes : 0;
}

vsg_status vsg_exec_create_gpu(const vsg_gpu_settings *cfg, vsg_exec **out, char *why,
                               size_t why_len)
{
    *out = NULL;
#ifdef VSGPU_HAVE_CUDA
    vsg_exec *x = exec_new(VSG_EXEC_GPU, &vsg_exec_gpu_methods);
#else
    vsg_exec *x = exec_new(VSG_EXEC_GPU, NULL);
#endif
    if (!x) {
        if (why && why_len)
            snprintf(why, why_len, "out of host memory");
        return VSG_ERR_NOMEM;
    }
    vsg_gpu_settings defaults;
    if (!cfg) {
        vsg_gpu_settings_init(&defaults);
        cfg = &defaults;
    }
    vsg_status st = vsg_exec_gpu_open(x, cfg, why, why_len);
    if (st != VSG_OK) {
        free(x);
        return st;
    }
    *out = x;
    return VSG_OK;
}

void vsg_exec_destroy(vsg_exec *x)
{
    if (!x)
        return;
    x->m->close(x);
    free(x->mark_label);
    free(x->mark_t);
    free(x);
}

vsg_exec_kind vsg_exec_kind_of(const vsg_exec *x) { return x->kind; }

int vsg_exec_host_plain(const vsg_exec *x) { return x->kind == VSG_EXEC_HOST && x->host_plain; }
struct vsg_gpu *vsg_exec_gpu(vsg_exec *x) { return x->kind == VSG_EXEC_GPU ? x->gpu : NULL; }
const char *vsg_exec_device(const vsg_exec *x) { return x->m->device; }
const char *vsg_exec_device_label(const vsg_exec *x) { return x->label; }
const char *vsg_exec_last_error(const vsg_exec *x) { return x->error; }

void vsg_exec_get_stats(const vsg_exec *x, vsg_gpu_stats *s)
{
    x->m->get_stats(x, s);
}

/* ---- injected faults (core/fault.h; test builds only) ------------------------
 * dev_alloc fails an allocation as the device pool does when it is
 * exhausted; gpu_call fails a call as a CUDA error does, on either backend,
 * so that the host backend exercises the GPU's failure paths. */
static vsg_status injected(vsg_exec *x, vsg_fault_kind kind, const char *what)
{
    int64_t n = vsg_fault_hit(kind);
    if (!n)
        return VSG_OK;
    if (kind == VSG_FAULT_DEV_ALLOC)
        return vsg_exec_fail(x, VSG_ERR_GPU_OOM,
                             "out of memory: injected failure of %s #%lld (VSGPU_FAULT=%s:%lld)",
                             what, (long long)n, vsg_fault_kind_name(kind), (long long)n);
    return vsg_exec_fail(x, VSG_ERR_GPU_KERNEL,
                         "%s: injected failure (VSGPU_FAULT=%s:%lld)", what,
                         vsg_fault_kind_name(kind), (long long)n);
}

#define INJECT(x, kind, what)                              \
    do {                                                   \
        vsg_status inj_ = injected((x), (kind), (what));   \
        if (inj_ != VSG_OK)                                \
            return inj_;                                   \
    } while (0)

/* ---- step marks (VSGPU_PROFILE_STEPS) ------------------------------------------
 * Each step of a stage (a launch, sort, scan, copy or read) leaves a mark
 * named "<stage>: <step>"; at the flush, the time from one mark to the next
 * is added to the first one's name. On the GPU that is device time plus any
 * wait for the host to enqueue the next step, so host work between the
 * launches of a stage shows as the time of the step before it. */
void vsg_exec_set_steps(vsg_exec *x, int on)
{
    x->steps_on = on ? 1 : 0;
}

static void step_mark(vsg_exec *x, const char *step, int idx)
{
    if (!x->steps_on)
        return;
    if (!x->mark_label) {
        x->mark_label = malloc(VSG_STEP_MARKS_MAX * sizeof *x->mark_label);
        if (x->kind == VSG_EXEC_HOST)
            x->mark_t = malloc(VSG_STEP_MARKS_MAX * sizeof *x->mark_t);
        if (!x->mark_label || (x->kind == VSG_EXEC_HOST && !x->mark_t)) {
            free(x->mark_label);
            free(x->mark_t);
            x->mark_label = NULL;
            x->mark_t = NULL;
            x->steps_on = 0;   /* the trace loses its steps, never the run */
            return;
        }
    }
    if (x->n_marks >= VSG_STEP_MARKS_MAX || !x->m->mark(x, x->n_marks)) {
        x->marks_dropped++;
        return;
    }
    /* outside any stage: the pipeline's own copies and the host's work
     * between stages, named after the stage before them */
    char where[64];
    if (x->in_stage)
        snprintf(where, sizeof where, "%s", x->cur_stage);
    else
        snprintf(where, sizeof where, "(after %s)", x->cur_stage[0] ? x->cur_stage : "start");
    char *l = x->mark_label[x->n_marks++];
    if (idx >= 0)
        snprintf(l, sizeof *x->mark_label, "%s: %.48s %d", where, step, idx);
    else
        snprintf(l, sizeof *x->mark_label, "%s: %.48s", where, step);
}

/* The marks since the last flush, as step records of p (after a sync). */
static void flush_steps(vsg_exec *x, vsg_profile *p)
{
    for (int i = 0; p && i + 1 < x->n_marks; i++) {
        double s = 0.0;
        if (x->m->mark_elapsed(x, i, i + 1, &s))
            vsg_profile_add_step(p, x->mark_label[i], x->m->device, s, 1);
    }
    if (p && x->marks_dropped)
        vsg_profile_add_step(p, "(steps past the mark table, not timed)", x->m->device, 0.0,
                             x->marks_dropped);
    x->n_marks = 0;
    x->marks_dropped = 0;
}

vsg_status vsg_exec_launch(vsg_exec *x, const char *stage)
{
    return vsg_exec_launch_step(x, stage, -1);
}

vsg_status vsg_exec_launch_step(vsg_exec *x, const char *stage, int step)
{
    INJECT(x, VSG_FAULT_GPU_CALL, stage);
    step_mark(x, stage, step);
    return VSG_OK;
}

/* ---- memory ---------------------------------------------------------------- */
vsg_status vsg_exec_alloc(vsg_exec *x, size_t bytes, void **out)
{
    *out = NULL;
    if (bytes == 0)
        return VSG_OK;
    INJECT(x, VSG_FAULT_DEV_ALLOC, "allocation");
    return x->m->alloc(x, bytes, out);
}

void vsg_exec_free(vsg_exec *x, void *p)
{
    if (p)
        x->m->free(x, p);
}

vsg_status vsg_exec_memset(vsg_exec *x, void *p, int value, size_t bytes)
{
    if (bytes == 0)
        return VSG_OK;
    INJECT(x, VSG_FAULT_GPU_CALL, "memset");
    step_mark(x, "memset", -1);
    return x->m->memset(x, p, value, bytes);
}

vsg_status vsg_exec_upload(vsg_exec *x, void *dst, const void *src, size_t bytes)
{
    if (bytes == 0)
        return VSG_OK;
    INJECT(x, VSG_FAULT_GPU_CALL, "upload");
    step_mark(x, "upload", -1);
    return x->m->upload(x, dst, src, bytes);
}

vsg_status vsg_exec_download(vsg_exec *x, void *dst, const void *src, size_t bytes)
{
    if (bytes == 0)
        return VSG_OK;
    INJECT(x, VSG_FAULT_GPU_CALL, "download");
    step_mark(x, "download", -1);
    return x->m->download(x, dst, src, bytes);
}

vsg_status vsg_exec_copy(vsg_exec *x, void *dst, const void *src, size_t bytes)
{
    if (bytes == 0)
        return VSG_OK;
    INJECT(x, VSG_FAULT_GPU_CALL, "copy");
    step_mark(x, "copy", -1);
    return x->m->copy(x, dst, src, bytes);
}

vsg_status vsg_exec_sync(vsg_exec *x)
{
    INJECT(x, VSG_FAULT_GPU_CALL, "sync");
    return x->m->sync(x);
}

/* n scalars (n <= 2), then one wait. */
static vsg_status read_scalars(vsg_exec *x, int n, const int64_t *const *src, int64_t *const *out)
{
    INJECT(x, VSG_FAULT_GPU_CALL, "download");
    step_mark(x, "read (the host waits)", -1);
    vsg_status st = VSG_OK;
    for (int k = 0; k < n && st == VSG_OK; k++)
        st = x->m->download(x, out[k], src[k], sizeof *out[k]);
    return st == VSG_OK ? vsg_exec_sync(x) : st;
}

vsg_status vsg_exec_read_i64(vsg_exec *x, const int64_t *src, int64_t *out)
{
    return read_scalars(x, 1, &src, &out);
}

vsg_status vsg_exec_read2_i64(vsg_exec *x, const int64_t *src_a, int64_t *out_a,
                              const int64_t *src_b, int64_t *out_b)
{
    const int64_t *src[2] = {src_a, src_b};
    int64_t *out[2] = {out_a, out_b};
    return read_scalars(x, 2, src, out);
}

/* ---- primitives ------------------------------------------------------------ */
vsg_status vsg_exec_scan_i64(vsg_exec *x, const int64_t *in, int64_t *out, int64_t n)
{
    if (n < 0)
        return vsg_exec_fail(x, VSG_ERR_INVALID_ARG, "scan of %lld items", (long long)n);
    INJECT(x, VSG_FAULT_GPU_CALL, "scan");
    step_mark(x, "scan", -1);
    return x->m->scan_i64(x, in, out, n);
}

vsg_status vsg_exec_max_scan_i64(vsg_exec *x, const int64_t *in, int64_t *out, int64_t n)
{
    if (n < 0)
        return vsg_exec_fail(x, VSG_ERR_INVALID_ARG, "max scan of %lld items", (long long)n);
    if (n == 0)
        return VSG_OK;
    INJECT(x, VSG_FAULT_GPU_CALL, "scan");
    step_mark(x, "max scan", -1);
    return x->m->max_scan_i64(x, in, out, n);
}

vsg_status vsg_exec_sort_u64_i64(vsg_exec *x, uint64_t *keys, int64_t *vals, int64_t n,
                                 int key_bits)
{
    if (n < 0 || key_bits < 0 || key_bits > 64)
        return vsg_exec_fail(x, VSG_ERR_INVALID_ARG, "sort of %lld items on %d bits",
                             (long long)n, key_bits);
    INJECT(x, VSG_FAULT_GPU_CALL, "sort");
    step_mark(x, "sort", -1);
    return x->m->sort_u64_i64(x, keys, vals, n, key_bits);
}

/* ---- profiling rail ---------------------------------------------------------- */
void vsg_exec_stage_begin(vsg_exec *x, const char *stage)
{
    snprintf(x->cur_stage, sizeof x->cur_stage, "%s", stage);
    x->in_stage = 1;
    x->m->stage_begin(x, stage);
    step_mark(x, "(set-up, before the first step)", -1);
}

void vsg_exec_stage_end(vsg_exec *x, int64_t rows_in, int64_t rows_out)
{
    x->m->stage_end(x, rows_in, rows_out);
    x->in_stage = 0;
    step_mark(x, "(host, until the next step)", -1);
}

void vsg_exec_flush_profile(vsg_exec *x, vsg_profile *p)
{
    x->m->flush_profile(x, p);
    flush_steps(x, p);
}

/* ---- work meter ---------------------------------------------------------------- */
void vsg_exec_note_work(vsg_exec *x, int64_t units)
{
    int i = 0;
    while (i < x->n_work && strcmp(x->work[i].name, x->cur_stage) != 0)
        i++;
    if (i == x->n_work) {
        if (x->n_work == VSG_EXEC_MAX_WORK)
            return;
        snprintf(x->work[i].name, sizeof x->work[i].name, "%s", x->cur_stage);
        x->work[i].max = 0;
        x->n_work++;
    }
    if (units > x->work[i].max)
        x->work[i].max = units;
}

int64_t vsg_exec_max_work(const vsg_exec *x, const char *stage)
{
    for (int i = 0; i < x->n_work; i++)
        if (strcmp(x->work[i].name, stage) == 0)
            return x->work[i].max;
    return 0;
}
