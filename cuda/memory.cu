// memory.cu - the memory tiers of docs/gpu-runtime.md, behind vsg_gpu_alloc
// and vsg_gpu_free.
//
//   A (default)     cudaMallocFromPoolAsync / cudaFreeAsync on the stream,
//                   from the context's own pool (release threshold: never
//                   give memory back while the context lives).
//   B (oom_safety)  on an allocation failure (CUDA's out of memory, or a
//                   refusal by VSGPU_GPU_POOL_LIMIT while managed blocks
//                   wait for release): synchronise the stream (frees still
//                   in flight complete, deferred managed frees are
//                   released), trim the pool to what is in use, retry; at
//                   most VSG_GPU_OOM_RETRIES times, each one counted.
//   C (managed)     cudaMallocManaged, then a prefetch to the device on the
//                   stream. cudaFree of managed memory synchronises the
//                   device, so a managed block given back is released at the
//                   next fence (vsg_gpu_sync, tier B's retry, close).
//
// Accounting: a host hash map from address to (size, tier) for every live
// block. It gives exact bytes in use for the limit and the statistics, lets
// vsg_gpu_free know which call frees a block, refuses to free an address
// this context did not hand out, and lets close free what callers left.
// (A header before each block would cost a device round trip to read.)
// The limit counts bytes handed out and not yet given back, whatever the
// tier; managed blocks count until they are really released.
#include "gpu_context.h"

#include <cstdio>
#include <cstring>
#include <new>

static bool limit_refuses(const vsg_gpu *g, size_t bytes)
{
    int64_t limit = g->args.pool_limit;
    if (limit <= 0)
        return false;
    return bytes > (size_t)limit || g->stats.bytes_in_use > limit - (int64_t)bytes;
}

// One attempt, no retry. VSG_ERR_GPU_OOM for a refusal (*by_limit set) or
// CUDA's out of memory (message recorded), other codes for other CUDA
// errors.
static vsg_status try_alloc(vsg_gpu *g, size_t bytes, void **p, bool *by_limit)
{
    *by_limit = limit_refuses(g, bytes);
    if (*by_limit)
        return vsg_gpu_failf(g, VSG_ERR_GPU_OOM,
                             "out of GPU memory: VSGPU_GPU_POOL_LIMIT=%lld bytes refuses %zu bytes more (%lld in "
                             "use)",
                             (long long)g->args.pool_limit, bytes,
                             (long long)g->stats.bytes_in_use);
    if (!g->args.managed) {
        VSG_CUDA_TRY(g, cudaMallocFromPoolAsync(p, bytes, g->pool, g->stream));
        return VSG_OK;
    }
    VSG_CUDA_TRY(g, cudaMallocManaged(p, bytes, cudaMemAttachGlobal));
    if (g->prefetch_ok) {
        cudaMemLocation loc;
        loc.type = cudaMemLocationTypeDevice;
        loc.id = g->device;
        cudaError_t e = cudaMemPrefetchAsync(*p, bytes, loc, 0, g->stream);
        if (e != cudaSuccess) {
            vsg_status st = vsg_gpu_fail(g, e, "cudaMemPrefetchAsync(p, bytes, device, 0, stream)",
                                         __FILE__, __LINE__);
            (void)cudaFree(*p);
            *p = nullptr;
            return st;
        }
    }
    return VSG_OK;
}

// Frees one block now. Managed blocks only after the stream is idle.
static cudaError_t release_block(vsg_gpu *g, void *p, bool managed)
{
    return managed ? cudaFree(p) : cudaFreeAsync(p, g->stream);
}

// Tier B's step between attempts: wait for the stream so that pending
// frees complete, release deferred managed blocks, then hand the pool's
// unused memory back to the device so that a larger contiguous request
// (or the managed tier) can be served.
static vsg_status make_room(vsg_gpu *g)
{
    VSG_CUDA_TRY(g, cudaStreamSynchronize(g->stream));
    vsg_gpu_memory_release_deferred(g);
    VSG_CUDA_TRY(g, cudaMemPoolTrimTo(g->pool, 0));
    return VSG_OK;
}

extern "C" vsg_status vsg_gpu_alloc(vsg_gpu *g, size_t bytes, void **out)
{
    *out = nullptr;
    if (bytes == 0)
        return VSG_OK;
    vsg_status st = vsg_gpu_bind(g);
    if (st != VSG_OK)
        return st;
    void *p = nullptr;
    for (int attempt = 0;; attempt++) {
        bool by_limit = false;
        st = try_alloc(g, bytes, &p, &by_limit);
        if (st == VSG_OK)
            break;
        // A refusal by the limit can only change if a fence releases
        // deferred managed blocks: the accounting is exact and single
        // threaded, so without any, retrying would only stall the stream.
        bool hopeless = by_limit && g->deferred->empty();
        if (st != VSG_ERR_GPU_OOM || !g->args.oom_safety || hopeless ||
            attempt == VSG_GPU_OOM_RETRIES) {
            g->stats.failed++;
            if (st == VSG_ERR_GPU_OOM && attempt > 0) {
                size_t len = std::strlen(g->error);
                std::snprintf(g->error + len, sizeof g->error - len, " (after %d retr%s)", attempt,
                         attempt == 1 ? "y" : "ies");
            }
            return st;
        }
        g->stats.retries++;
        vsg_status room = make_room(g);
        if (room != VSG_OK) {
            g->stats.failed++;
            return room;
        }
    }
    try {
        g->blocks->emplace(p, vsg_gpu_block{bytes, g->args.managed != 0});
    } catch (...) {
        (void)cudaStreamSynchronize(g->stream);
        (void)release_block(g, p, g->args.managed != 0);
        g->stats.failed++;
        return vsg_gpu_failf(g, VSG_ERR_NOMEM, "out of host memory recording a device block");
    }
    g->stats.allocations++;
    g->stats.bytes_in_use += (int64_t)bytes;
    if (g->stats.bytes_in_use > g->stats.peak_bytes)
        g->stats.peak_bytes = g->stats.bytes_in_use;
    *out = p;
    return VSG_OK;
}

extern "C" void vsg_gpu_free(vsg_gpu *g, void *p)
{
    if (!p)
        return;
    auto it = g->blocks->find(p);
    if (it == g->blocks->end()) {
        // Freeing an address CUDA did not give us would corrupt the pool.
        vsg_gpu_failf(g, VSG_ERR_INVALID_ARG, "vsg_gpu_free: %p is not a live block of this context",
                      p);
        return;
    }
    vsg_gpu_block b = it->second;
    g->blocks->erase(it);
    if (vsg_gpu_bind(g) != VSG_OK)
        return;
    if (b.managed) {
        try {
            g->deferred->emplace_back(p, b.bytes);
            return;
        } catch (...) {
            // No room to defer: release now, at the price of a device sync.
        }
        (void)cudaStreamSynchronize(g->stream);
    }
    cudaError_t e = release_block(g, p, b.managed);
    if (e != cudaSuccess)
        vsg_gpu_fail(g, e, b.managed ? "cudaFree(p)" : "cudaFreeAsync(p, stream)", __FILE__,
                     __LINE__);
    g->stats.bytes_in_use -= (int64_t)b.bytes;
}

void vsg_gpu_memory_release_deferred(vsg_gpu *g)
{
    for (auto &d : *g->deferred) {
        cudaError_t e = cudaFree(d.first);
        if (e != cudaSuccess)
            vsg_gpu_fail(g, e, "cudaFree(managed)", __FILE__, __LINE__);
        g->stats.bytes_in_use -= (int64_t)d.second;
    }
    g->deferred->clear();
}

void vsg_gpu_memory_release_all(vsg_gpu *g)
{
    for (auto &kv : *g->blocks) {
        if (!kv.second.managed)
            (void)cudaFreeAsync(kv.first, g->stream);
    }
    (void)cudaStreamSynchronize(g->stream);
    for (auto &kv : *g->blocks) {
        if (kv.second.managed)
            (void)cudaFree(kv.first);
    }
    g->blocks->clear();
    vsg_gpu_memory_release_deferred(g);
    g->stats.bytes_in_use = 0;
    (void)cudaGetLastError();
}
