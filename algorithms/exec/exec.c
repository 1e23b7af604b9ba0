/*
 * exec.c - the host backend of exec.h, and the routing of every call on a
 * GPU backend to exec_gpu.c.
 *
 * The host backend is the reference the GPU is tested against, and what CI
 * runs: "backend memory" is malloc'd memory, copies are memcpy, the
 * primitives are plain loops, stages are timed on the wall clock. It is
 * sequential on purpose: the parallel CPU engine is the GEOS one.
 */
#include "exec/exec_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/profile.h"

vsg_status vsg_exec_fail(vsg_exec *x, vsg_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(x->error, sizeof x->error, fmt, ap);
    va_end(ap);
    return st;
}

static vsg_exec *exec_new(vsg_exec_kind kind)
{
    vsg_exec *x = calloc(1, sizeof *x);
    if (x) {
        x->kind = kind;
        x->open_stage = -1;
    }
    return x;
}

vsg_status vsg_exec_create_host(vsg_exec **out)
{
    *out = exec_new(VSG_EXEC_HOST);
    if (!*out)
        return VSG_ERR_NOMEM;
    snprintf((*out)->label, sizeof (*out)->label, "CPU (host backend)");
    return VSG_OK;
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
    vsg_exec *x = exec_new(VSG_EXEC_GPU);
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
    if (x->kind == VSG_EXEC_GPU)
        vsg_exec_gpu_close(x);
    free(x);
}

vsg_exec_kind vsg_exec_kind_of(const vsg_exec *x) { return x->kind; }
struct vsg_gpu *vsg_exec_gpu(vsg_exec *x) { return x->kind == VSG_EXEC_GPU ? x->gpu : NULL; }
const char *vsg_exec_device(const vsg_exec *x) { return x->kind == VSG_EXEC_GPU ? "GPU" : "CPU"; }
const char *vsg_exec_device_label(const vsg_exec *x) { return x->label; }
const char *vsg_exec_last_error(const vsg_exec *x) { return x->error; }

void vsg_exec_get_stats(const vsg_exec *x, vsg_gpu_stats *s)
{
    if (x->kind == VSG_EXEC_GPU)
        vsg_exec_gpu_get_stats(x, s);
    else
        *s = x->stats;
}

/* ---- memory ---------------------------------------------------------------
 * Host allocations carry their size in a header so that bytes_in_use and the
 * peak are exact, as the GPU pool's are. */
typedef struct { size_t bytes; size_t pad; } host_hdr;   /* keeps 16-byte alignment */

vsg_status vsg_exec_alloc(vsg_exec *x, size_t bytes, void **out)
{
    *out = NULL;
    if (bytes == 0)
        return VSG_OK;
    if (x->kind == VSG_EXEC_GPU)
        return vsg_exec_gpu_alloc(x, bytes, out);
    if (bytes > (size_t)-1 - sizeof(host_hdr))
        return vsg_exec_fail(x, VSG_ERR_NOMEM, "allocation of %zu bytes is too large", bytes);
    if (x->host_limit > 0 && (int64_t)bytes > x->host_limit - x->stats.bytes_in_use) {
        x->stats.failed++;
        return vsg_exec_fail(x, VSG_ERR_GPU_OOM,
                             "out of memory: allocation of %zu bytes refused by the pool limit of %lld bytes "
                             "(VSGPU_GPU_POOL_LIMIT), %lld in use",
                             bytes, (long long)x->host_limit, (long long)x->stats.bytes_in_use);
    }
    host_hdr *h = malloc(sizeof *h + bytes);
    if (!h) {
        x->stats.failed++;
        return vsg_exec_fail(x, VSG_ERR_NOMEM, "out of host memory (%zu bytes)", bytes);
    }
    h->bytes = bytes;
    x->stats.allocations++;
    x->stats.bytes_in_use += (int64_t)bytes;
    if (x->stats.bytes_in_use > x->stats.peak_bytes)
        x->stats.peak_bytes = x->stats.bytes_in_use;
    *out = h + 1;
    return VSG_OK;
}

void vsg_exec_free(vsg_exec *x, void *p)
{
    if (!p)
        return;
    if (x->kind == VSG_EXEC_GPU) {
        vsg_exec_gpu_free(x, p);
        return;
    }
    host_hdr *h = (host_hdr *)p - 1;
    x->stats.bytes_in_use -= (int64_t)h->bytes;
    free(h);
}

vsg_status vsg_exec_memset(vsg_exec *x, void *p, int value, size_t bytes)
{
    if (bytes == 0)
        return VSG_OK;
    if (x->kind == VSG_EXEC_GPU)
        return vsg_exec_gpu_memset(x, p, value, bytes);
    memset(p, value, bytes);
    return VSG_OK;
}

vsg_status vsg_exec_upload(vsg_exec *x, void *dst, const void *src, size_t bytes)
{
    if (bytes == 0)
        return VSG_OK;
    if (x->kind == VSG_EXEC_GPU)
        return vsg_exec_gpu_upload(x, dst, src, bytes);
    memcpy(dst, src, bytes);
    x->stats.bytes_h2d += (int64_t)bytes;
    return VSG_OK;
}

vsg_status vsg_exec_download(vsg_exec *x, void *dst, const void *src, size_t bytes)
{
    if (bytes == 0)
        return VSG_OK;
    if (x->kind == VSG_EXEC_GPU)
        return vsg_exec_gpu_download(x, dst, src, bytes);
    memcpy(dst, src, bytes);
    x->stats.bytes_d2h += (int64_t)bytes;
    return VSG_OK;
}

vsg_status vsg_exec_copy(vsg_exec *x, void *dst, const void *src, size_t bytes)
{
    if (bytes == 0)
        return VSG_OK;
    if (x->kind == VSG_EXEC_GPU)
        return vsg_exec_gpu_copy(x, dst, src, bytes);
    memmove(dst, src, bytes);
    return VSG_OK;
}

vsg_status vsg_exec_sync(vsg_exec *x)
{
    return x->kind == VSG_EXEC_GPU ? vsg_exec_gpu_sync(x) : VSG_OK;
}

vsg_status vsg_exec_read_i64(vsg_exec *x, const int64_t *src, int64_t *out)
{
    vsg_status st = vsg_exec_download(x, out, src, sizeof *out);
    return st == VSG_OK ? vsg_exec_sync(x) : st;
}

/* ---- primitives ------------------------------------------------------------ */
vsg_status vsg_exec_scan_i64(vsg_exec *x, const int64_t *in, int64_t *out, int64_t n)
{
    if (n < 0)
        return vsg_exec_fail(x, VSG_ERR_INVALID_ARG, "scan of %lld items", (long long)n);
    if (x->kind == VSG_EXEC_GPU)
        return vsg_exec_gpu_scan_i64(x, in, out, n);
    int64_t acc = 0;
    for (int64_t i = 0; i < n; i++) {
        out[i] = acc;
        acc += in[i];
    }
    out[n] = acc;
    return VSG_OK;
}

/* LSD radix sort, 8 bits a pass over the bits that matter: stable, like the
 * GPU's CUB sort, so both backends give the same order for equal keys. */
vsg_status vsg_exec_sort_u64_i64(vsg_exec *x, uint64_t *keys, int64_t *vals, int64_t n,
                                 int key_bits)
{
    if (n < 0 || key_bits < 0 || key_bits > 64)
        return vsg_exec_fail(x, VSG_ERR_INVALID_ARG, "sort of %lld items on %d bits",
                             (long long)n, key_bits);
    if (x->kind == VSG_EXEC_GPU)
        return vsg_exec_gpu_sort_u64_i64(x, keys, vals, n, key_bits);
    if (n < 2 || key_bits == 0)
        return VSG_OK;
    uint64_t *k2 = malloc((size_t)n * sizeof *k2);
    int64_t *v2 = malloc((size_t)n * sizeof *v2);
    if (!k2 || !v2) {
        free(k2);
        free(v2);
        return vsg_exec_fail(x, VSG_ERR_NOMEM, "out of host memory sorting %lld items",
                             (long long)n);
    }
    uint64_t *ks = keys, *kd = k2;
    int64_t *vs = vals, *vd = v2;
    for (int shift = 0; shift < key_bits; shift += 8) {
        size_t count[257] = {0};
        for (int64_t i = 0; i < n; i++)
            count[((ks[i] >> shift) & 0xff) + 1]++;
        for (int b = 0; b < 256; b++)
            count[b + 1] += count[b];
        for (int64_t i = 0; i < n; i++) {
            size_t d = count[(ks[i] >> shift) & 0xff]++;
            kd[d] = ks[i];
            vd[d] = vs[i];
        }
        uint64_t *kt = ks; ks = kd; kd = kt;
        int64_t *vt = vs; vs = vd; vd = vt;
    }
    if (ks != keys) {
        memcpy(keys, ks, (size_t)n * sizeof *keys);
        memcpy(vals, vs, (size_t)n * sizeof *vals);
    }
    free(k2);
    free(v2);
    return VSG_OK;
}

/* ---- profiling rail ------------------------------------------------------- */
void vsg_exec_stage_begin(vsg_exec *x, const char *stage)
{
    if (x->kind == VSG_EXEC_GPU) {
        vsg_exec_gpu_stage_begin(x, stage);
        return;
    }
    if (x->n_stages >= VSG_EXEC_MAX_STAGES)
        return;   /* the trace loses detail, never the run */
    vsg_exec_stage_rec *r = &x->stages[x->n_stages];
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", stage);
    r->t0 = vsg_now_s();
    r->h2d0 = x->stats.bytes_h2d;
    r->d2h0 = x->stats.bytes_d2h;
    x->open_stage = x->n_stages++;
}

void vsg_exec_stage_end(vsg_exec *x, int64_t rows_in, int64_t rows_out)
{
    if (x->kind == VSG_EXEC_GPU) {
        vsg_exec_gpu_stage_end(x, rows_in, rows_out);
        return;
    }
    if (x->open_stage < 0)
        return;
    vsg_exec_stage_rec *r = &x->stages[x->open_stage];
    r->elapsed_s = vsg_now_s() - r->t0;
    r->rows_in = rows_in;
    r->rows_out = rows_out;
    r->bytes_h2d = x->stats.bytes_h2d - r->h2d0;
    r->bytes_d2h = x->stats.bytes_d2h - r->d2h0;
    x->open_stage = -1;
}

void vsg_exec_flush_profile(vsg_exec *x, vsg_profile *p)
{
    if (x->kind == VSG_EXEC_GPU) {
        vsg_exec_gpu_flush_profile(x, p);
        return;
    }
    for (int i = 0; i < x->n_stages; i++) {
        const vsg_exec_stage_rec *r = &x->stages[i];
        if (p)
            vsg_profile_add(p, r->name, "CPU", r->elapsed_s, r->rows_in, r->rows_out,
                            r->bytes_h2d, r->bytes_d2h, 0);
    }
    x->n_stages = 0;
    x->open_stage = -1;
}
