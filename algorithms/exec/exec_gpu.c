/*
 * exec_gpu.c - the GPU backend of exec.h: its method table
 * (exec_internal.h) forwards each call to the CUDA runtime of
 * cuda/vsgpu_cuda.h and copies a failure message into the backend's error.
 *
 * Stage records: the runtime times stages with CUDA events; this file
 * keeps, in the backend's stage table, what the profile also wants per
 * stage (the bytes copied each way while it ran). A stage is given to the
 * runtime only when the table has room, so entry i of both is the same
 * stage.
 *
 * Without CUDA in the build (VSGPU_HAVE_CUDA undefined) opening fails with
 * VSG_ERR_NO_GPU ("this build has no CUDA engine") and there is no table.
 */
#include "exec/exec_internal.h"

#include <stdio.h>
#include <string.h>

#ifdef VSGPU_HAVE_CUDA

#include "vsgpu_cuda.h"

/* Copies the runtime's message into the backend and returns st. */
static vsg_status gpu_status(vsg_exec *x, vsg_status st)
{
    if (st != VSG_OK)
        snprintf(x->error, sizeof x->error, "%s", vsg_gpu_last_error(x->gpu));
    return st;
}

vsg_status vsg_exec_gpu_result(vsg_exec *x, vsg_status st)
{
    return x && x->gpu ? gpu_status(x, st) : st;
}

vsg_status vsg_exec_gpu_open(vsg_exec *x, const vsg_gpu_settings *cfg, char *why, size_t why_len)
{
    char msg[512] = "";
    vsg_status st = vsg_gpu_open(cfg, &x->gpu, msg, sizeof msg);
    if (st != VSG_OK) {
        x->gpu = NULL;
        snprintf(x->error, sizeof x->error, "%s", msg);
        if (why && why_len)
            snprintf(why, why_len, "%s", msg);
        return st;
    }
    snprintf(x->label, sizeof x->label, "%s", vsg_gpu_device_name(x->gpu));
    return VSG_OK;
}

static void gpu_close(vsg_exec *x)
{
    vsg_gpu_close(x->gpu);
    x->gpu = NULL;
}

static vsg_status gpu_alloc(vsg_exec *x, size_t bytes, void **out)
{
    return gpu_status(x, vsg_gpu_alloc(x->gpu, bytes, out));
}

static void gpu_free(vsg_exec *x, void *p)
{
    vsg_gpu_free(x->gpu, p);
}

static vsg_status gpu_memset(vsg_exec *x, void *p, int value, size_t bytes)
{
    return gpu_status(x, vsg_gpu_memset(x->gpu, p, value, bytes));
}

static vsg_status gpu_upload(vsg_exec *x, void *dst, const void *src, size_t bytes)
{
    return gpu_status(x, vsg_gpu_h2d(x->gpu, dst, src, bytes));
}

static vsg_status gpu_download(vsg_exec *x, void *dst, const void *src, size_t bytes)
{
    return gpu_status(x, vsg_gpu_d2h(x->gpu, dst, src, bytes));
}

/* Overlapping regions are allowed, as with the host backend's memmove; CUDA
 * copies are not, so those go through a temporary block. */
static vsg_status gpu_copy(vsg_exec *x, void *dst, const void *src, size_t bytes)
{
    uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;
    if (d == s)
        return VSG_OK;
    if (d + bytes <= s || s + bytes <= d)
        return gpu_status(x, vsg_gpu_d2d(x->gpu, dst, src, bytes));
    void *tmp = NULL;
    vsg_status st = vsg_gpu_alloc(x->gpu, bytes, &tmp);
    if (st == VSG_OK)
        st = vsg_gpu_d2d(x->gpu, tmp, src, bytes);
    if (st == VSG_OK)
        st = vsg_gpu_d2d(x->gpu, dst, tmp, bytes);
    vsg_gpu_free(x->gpu, tmp);
    return gpu_status(x, st);
}

static vsg_status gpu_sync(vsg_exec *x)
{
    return gpu_status(x, vsg_gpu_sync(x->gpu));
}

static vsg_status gpu_scan_i64(vsg_exec *x, const int64_t *in, int64_t *out, int64_t n)
{
    return gpu_status(x, vsg_gpu_scan_i64(x->gpu, in, out, n));
}

static vsg_status gpu_max_scan_i64(vsg_exec *x, const int64_t *in, int64_t *out, int64_t n)
{
    return gpu_status(x, vsg_gpu_max_scan_i64(x->gpu, in, out, n));
}

static vsg_status gpu_sort_u64_i64(vsg_exec *x, uint64_t *keys, int64_t *vals, int64_t n,
                                     int key_bits)
{
    return gpu_status(x, vsg_gpu_sort_u64_i64(x->gpu, keys, vals, n, key_bits));
}

static void gpu_get_stats(const vsg_exec *x, vsg_gpu_stats *s)
{
    vsg_gpu_get_stats(x->gpu, s);
}

static int gpu_mark(vsg_exec *x, int i)
{
    return vsg_gpu_mark(x->gpu, i);
}

static int gpu_mark_elapsed(vsg_exec *x, int i, int j, double *seconds)
{
    return vsg_gpu_mark_elapsed(x->gpu, i, j, seconds);
}

static void gpu_stage_begin(vsg_exec *x, const char *stage)
{
    if (x->open_stage >= 0 || x->n_stages >= VSG_EXEC_MAX_STAGES)
        return;   /* one open stage, bounded table: the trace loses detail, never the run */
    vsg_gpu_stats g;
    vsg_gpu_get_stats(x->gpu, &g);
    vsg_exec_stage_rec *r = &x->stages[x->n_stages];
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", stage);
    r->h2d0 = g.bytes_h2d;
    r->d2h0 = g.bytes_d2h;
    x->open_stage = x->n_stages++;
    vsg_gpu_stage_begin(x->gpu, stage);
}

static void gpu_stage_end(vsg_exec *x, int64_t rows_in, int64_t rows_out)
{
    if (x->open_stage < 0)
        return;
    vsg_gpu_stage_end(x->gpu, rows_in, rows_out);
    vsg_gpu_stats g;
    vsg_gpu_get_stats(x->gpu, &g);
    vsg_exec_stage_rec *r = &x->stages[x->open_stage];
    r->rows_in = rows_in;
    r->rows_out = rows_out;
    r->bytes_h2d = g.bytes_h2d - r->h2d0;
    r->bytes_d2h = g.bytes_d2h - r->d2h0;
    x->open_stage = -1;
}

static void gpu_flush_profile(vsg_exec *x, vsg_profile *p)
{
    if (x->open_stage >= 0)   /* closed here so that NVTX ranges stay balanced */
        vsg_gpu_stage_end(x->gpu, 0, 0);
    vsg_gpu_stats g;
    vsg_gpu_get_stats(x->gpu, &g);
    int n = vsg_gpu_stage_count(x->gpu);
    for (int i = 0; i < x->n_stages && i < n; i++) {
        const vsg_exec_stage_rec *r = &x->stages[i];
        double elapsed = 0.0;
        /* A stage whose events failed keeps its rows and bytes, time 0. */
        if (!vsg_gpu_stage_get(x->gpu, i, NULL, &elapsed, NULL, NULL))
            elapsed = 0.0;
        if (p)
            vsg_profile_add_total(p, r->name, "GPU", elapsed, r->rows_in, r->rows_out, r->bytes_h2d,
                            r->bytes_d2h, g.peak_bytes);
    }
    vsg_gpu_stage_reset(x->gpu);
    x->n_stages = 0;
    x->open_stage = -1;
}

const vsg_exec_methods vsg_exec_gpu_methods = {
    "GPU",
    gpu_close,
    gpu_alloc,
    gpu_free,
    gpu_memset,
    gpu_upload,
    gpu_download,
    gpu_copy,
    gpu_sync,
    gpu_scan_i64,
    gpu_max_scan_i64,
    gpu_sort_u64_i64,
    gpu_stage_begin,
    gpu_stage_end,
    gpu_flush_profile,
    gpu_get_stats,
    gpu_mark,
    gpu_mark_elapsed,
};

#else /* !VSGPU_HAVE_CUDA */

vsg_status vsg_exec_gpu_result(vsg_exec *x, vsg_status st)
{
    (void)x;
    return st;
}

vsg_status vsg_exec_gpu_open(vsg_exec *x, const vsg_gpu_settings *cfg, char *why, size_t why_len)
{
    (void)cfg;
    snprintf(x->error, sizeof x->error, "this build has no CUDA engine");
    if (why && why_len)
        snprintf(why, why_len, "%s", x->error);
    return VSG_ERR_NO_GPU;
}

#endif /* VSGPU_HAVE_CUDA */
