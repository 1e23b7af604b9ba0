/*
 * exec_host.c - the host backend of exec.h, as a method table
 * (exec_internal.h).
 *
 * The host backend is the reference the GPU is tested against, and what CI
 * runs: "backend memory" is malloc'd memory (freed blocks kept for the
 * backend's next allocations, below), copies are memcpy, the
 * primitives are plain loops, stages are timed on the wall clock. It is
 * sequential: the CPU engine runs one per worker, each kept for all the
 * worker's batches of a call (its own backend, vsg_exec_set_host_plain).
 */
#include "exec/exec_internal.h"

#include "core/fault.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/profile.h"

/* Host allocations carry their size in a header so that bytes_in_use and
 * the peak are exact, as the GPU pool's are, and the size of the block
 * behind them, for the cache below. */
typedef struct { size_t bytes; size_t cap; } host_hdr;   /* keeps 16-byte alignment */

/* ---- the block cache ------------------------------------------------------------
 * Blocks of at least CACHE_MIN bytes are kept when freed, up to
 * VSG_EXEC_HOST_CACHE of them and CACHE_BYTES in all, and given again to an
 * allocation they fit without wasting half. The CPU engine runs a stage
 * call per cache-sized batch (pipeline/coverage.c), each allocating the
 * same arrays: from malloc, each array of more than glibc's mmap
 * threshold was fresh pages, faulted in and unmapped again, and whether
 * it was depended on the process's history (the tiled boroughs' union took
 * 0.24 s or 0.40 s on one thread for that alone; docs/benchmarks.md). A
 * cached block is not zeroed: no step reads what it did not write. */
#define CACHE_MIN ((size_t)16 << 10)
#define CACHE_BYTES ((size_t)256 << 20)

static host_hdr *block_take(vsg_exec *x, size_t bytes)
{
    /* the block freed last that fits: the likeliest still in the core's
     * cache */
    for (int i = x->n_cache - 1; bytes >= CACHE_MIN && i >= 0; i--) {
        host_hdr *h = x->cache[i];
        if (h->cap >= bytes && h->cap / 2 <= bytes) {
            memmove(x->cache + i, x->cache + i + 1, (size_t)(x->n_cache - 1 - i) * sizeof *x->cache);
            x->n_cache--;
            x->cache_bytes -= h->cap;
            return h;
        }
    }
    host_hdr *h = vsg_malloc(sizeof *h + bytes);
    if (h)
        h->cap = bytes;
    return h;
}

static void block_put(vsg_exec *x, host_hdr *h)
{
    if (h->cap >= CACHE_MIN && x->n_cache < VSG_EXEC_HOST_CACHE &&
        x->cache_bytes + h->cap <= CACHE_BYTES) {
        x->cache[x->n_cache++] = h;
        x->cache_bytes += h->cap;
        return;
    }
    free(h);
}

static void host_close(vsg_exec *x)
{
    while (x->n_cache > 0)
        free(x->cache[--x->n_cache]);
    x->cache_bytes = 0;
}

static vsg_status host_alloc(vsg_exec *x, size_t bytes, void **out)
{
    if (bytes > (size_t)-1 - sizeof(host_hdr))
        return vsg_exec_fail(x, VSG_ERR_NOMEM, "allocation of %zu bytes is too large", bytes);
    if (x->host_limit > 0 && (int64_t)bytes > x->host_limit - x->stats.bytes_in_use) {
        x->stats.failed++;
        return vsg_exec_fail(x, VSG_ERR_GPU_OOM,
                             "out of memory: allocation of %zu bytes refused by the pool limit of %lld bytes "
                             "(VSGPU_GPU_POOL_LIMIT), %lld in use",
                             bytes, (long long)x->host_limit, (long long)x->stats.bytes_in_use);
    }
    host_hdr *h = block_take(x, bytes);
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

static void host_free(vsg_exec *x, void *p)
{
    host_hdr *h = (host_hdr *)p - 1;
    x->stats.bytes_in_use -= (int64_t)h->bytes;
    block_put(x, h);
}

static vsg_status host_memset(vsg_exec *x, void *p, int value, size_t bytes)
{
    (void)x;
    memset(p, value, bytes);
    return VSG_OK;
}

static vsg_status host_upload(vsg_exec *x, void *dst, const void *src, size_t bytes)
{
    memcpy(dst, src, bytes);
    if (!x->host_plain)
        x->stats.bytes_h2d += (int64_t)bytes;
    return VSG_OK;
}

static vsg_status host_download(vsg_exec *x, void *dst, const void *src, size_t bytes)
{
    memcpy(dst, src, bytes);
    if (!x->host_plain)
        x->stats.bytes_d2h += (int64_t)bytes;
    return VSG_OK;
}

static vsg_status host_copy(vsg_exec *x, void *dst, const void *src, size_t bytes)
{
    (void)x;
    memmove(dst, src, bytes);
    return VSG_OK;
}

static vsg_status host_sync(vsg_exec *x)
{
    (void)x;
    return VSG_OK;
}

static vsg_status host_scan_i64(vsg_exec *x, const int64_t *in, int64_t *out, int64_t n)
{
    (void)x;
    int64_t acc = 0;
    for (int64_t i = 0; i < n; i++) {
        out[i] = acc;
        acc += in[i];
    }
    out[n] = acc;
    return VSG_OK;
}

static vsg_status host_max_scan_i64(vsg_exec *x, const int64_t *in, int64_t *out, int64_t n)
{
    (void)x;
    int64_t acc = INT64_MIN;
    for (int64_t i = 0; i < n; i++) {
        acc = in[i] > acc ? in[i] : acc;
        out[i] = acc;
    }
    return VSG_OK;
}

/* LSD radix sort, 11 bits a pass over the bits that matter: stable, like the
 * GPU's CUB sort, so both backends give the same order for equal keys. */
static vsg_status host_sort_u64_i64(vsg_exec *x, uint64_t *keys, int64_t *vals, int64_t n,
                                    int key_bits)
{
    if (n < 2 || key_bits == 0)
        return VSG_OK;
    /* the scratch is the cache's, outside the pool's accounting */
    host_hdr *hk = block_take(x, (size_t)n * sizeof(uint64_t));
    host_hdr *hv = block_take(x, (size_t)n * sizeof(int64_t));
    uint64_t *k2 = hk ? (uint64_t *)(hk + 1) : NULL;
    int64_t *v2 = hv ? (int64_t *)(hv + 1) : NULL;
    if (!k2 || !v2) {
        if (hk)
            block_put(x, hk);
        if (hv)
            block_put(x, hv);
        return vsg_exec_fail(x, VSG_ERR_NOMEM, "out of host memory sorting %lld items",
                             (long long)n);
    }
    uint64_t *ks = keys, *kd = k2;
    int64_t *vs = vals, *vd = v2;
    /* 11-bit digits: 6 passes for 64-bit keys instead of 8, with a count
     * table (16 KiB) that stays in L1 */
    enum { DIGIT = 11, BUCKETS = 1 << DIGIT };
    size_t *count = vsg_malloc((BUCKETS + 1) * sizeof *count);
    if (!count) {
        block_put(x, hk);
        block_put(x, hv);
        return vsg_exec_fail(x, VSG_ERR_NOMEM, "out of host memory sorting %lld items",
                             (long long)n);
    }
    for (int shift = 0; shift < key_bits; shift += DIGIT) {
        const uint64_t mask = BUCKETS - 1;
        memset(count, 0, (BUCKETS + 1) * sizeof *count);
        for (int64_t i = 0; i < n; i++)
            count[((ks[i] >> shift) & mask) + 1]++;
        if (count[((ks[0] >> shift) & mask) + 1] == (size_t)n)
            continue;   /* one digit for all: the pass would move nothing */
        for (int b = 0; b < BUCKETS; b++)
            count[b + 1] += count[b];
        for (int64_t i = 0; i < n; i++) {
            size_t d = count[(ks[i] >> shift) & mask]++;
            kd[d] = ks[i];
            vd[d] = vs[i];
        }
        uint64_t *kt = ks; ks = kd; kd = kt;
        int64_t *vt = vs; vs = vd; vd = vt;
    }
    free(count);
    if (ks != keys) {
        memcpy(keys, ks, (size_t)n * sizeof *keys);
        memcpy(vals, vs, (size_t)n * sizeof *vals);
    }
    block_put(x, hk);
    block_put(x, hv);
    return VSG_OK;
}

/* A stage begun again before the flush adds to its record (the profile
 * adds records of one name anyway): a backend kept for many calls, as
 * the CPU engine's workers keep theirs, needs a record per stage, not
 * per call. */
static void host_stage_begin(vsg_exec *x, const char *stage)
{
    int i = 0;
    while (i < x->n_stages && strncmp(x->stages[i].name, stage, sizeof x->stages[i].name - 1))
        i++;
    if (i == x->n_stages) {
        if (x->n_stages >= VSG_EXEC_MAX_STAGES)
            return;   /* the trace loses detail, never the run */
        memset(&x->stages[i], 0, sizeof x->stages[i]);
        snprintf(x->stages[i].name, sizeof x->stages[i].name, "%s", stage);
        x->n_stages++;
    }
    vsg_exec_stage_rec *r = &x->stages[i];
    r->t0 = vsg_now_s();
    r->h2d0 = x->stats.bytes_h2d;
    r->d2h0 = x->stats.bytes_d2h;
    x->open_stage = i;
}

static void host_stage_end(vsg_exec *x, int64_t rows_in, int64_t rows_out)
{
    if (x->open_stage < 0)
        return;
    vsg_exec_stage_rec *r = &x->stages[x->open_stage];
    r->elapsed_s += vsg_now_s() - r->t0;
    r->rows_in += rows_in;
    r->rows_out += rows_out;
    r->bytes_h2d += x->stats.bytes_h2d - r->h2d0;
    r->bytes_d2h += x->stats.bytes_d2h - r->d2h0;
    x->open_stage = -1;
}

static void host_flush_profile(vsg_exec *x, vsg_profile *p)
{
    for (int i = 0; i < x->n_stages; i++) {
        const vsg_exec_stage_rec *r = &x->stages[i];
        if (p)
            vsg_profile_add_total(p, r->name, "CPU", r->elapsed_s, r->rows_in, r->rows_out,
                            r->bytes_h2d, r->bytes_d2h, 0);
    }
    x->n_stages = 0;
    x->open_stage = -1;
}

static void host_get_stats(const vsg_exec *x, vsg_gpu_stats *s)
{
    *s = x->stats;
    s->capacity_bytes = x->host_limit;
}

/* Step marks on the host: the wall clock (exec.c made mark_t). */
static int host_mark(vsg_exec *x, int i)
{
    x->mark_t[i] = vsg_now_s();
    return 1;
}

static int host_mark_elapsed(vsg_exec *x, int i, int j, double *seconds)
{
    *seconds = x->mark_t[j] - x->mark_t[i];
    return 1;
}

const vsg_exec_methods vsg_exec_host_methods = {
    "CPU",
    host_close,
    host_alloc,
    host_free,
    host_memset,
    host_upload,
    host_download,
    host_copy,
    host_sync,
    host_scan_i64,
    host_max_scan_i64,
    host_sort_u64_i64,
    host_stage_begin,
    host_stage_end,
    host_flush_profile,
    host_get_stats,
    host_mark,
    host_mark_elapsed,
};
