// transfer.cu - memset and the three copy directions, all ordered on the
// context's stream, with the byte counters of the profile (bytes_h2d,
// bytes_d2h).
//
// Host memory given here is usually pageable. For pageable memory a
// host-to-device copy has read the source when the call returns, and a
// device-to-host copy has written the destination when it returns; with
// pinned (page-locked) host memory both are truly asynchronous and the host
// buffer must stay untouched until the next vsg_gpu_sync.
//
// Large copies of pageable memory go through two pinned staging buffers of
// the context (made on first use), in chunks: the DMA of one chunk runs
// while the host copies the next one in (or the last one out). CUDA's own
// pageable path moved results at about 1.3 GB/s on the H100 host
// (docs/gpu-validation.md, 2026-11-25); the semantics above are kept: an
// upload has read its source, a download has written its destination, when
// the call returns.
#include "gpu_context.h"

#include <cstring>

extern "C" vsg_status vsg_gpu_memset(vsg_gpu *g, void *p, int value, size_t bytes)
{
    if (bytes == 0)
        return VSG_OK;
    vsg_status st = vsg_gpu_bind(g);
    if (st != VSG_OK)
        return st;
    VSG_CUDA_TRY(g, cudaMemsetAsync(p, value, bytes, g->stream));
    return VSG_OK;
}

/* One asynchronous copy on the stream; counter (NULL: none) adds the bytes. */
static vsg_status copy_async(vsg_gpu *g, void *dst, const void *src, size_t bytes,
                             cudaMemcpyKind kind, int64_t *counter)
{
    if (bytes == 0)
        return VSG_OK;
    vsg_status st = vsg_gpu_bind(g);
    if (st != VSG_OK)
        return st;
    VSG_CUDA_TRY(g, cudaMemcpyAsync(dst, src, bytes, kind, g->stream));
    if (counter)
        *counter += (int64_t)bytes;
    return VSG_OK;
}

// Staging: whether this copy goes through the pinned buffers (host side
// pageable, large enough to gain), making them on first use. A context
// that cannot have them (no page-locked memory) copies directly.
static bool staged(vsg_gpu *g, const void *host, size_t bytes)
{
    if (bytes < VSG_GPU_STAGE_MIN || g->staging_off)
        return false;
    cudaPointerAttributes a;
    if (cudaPointerGetAttributes(&a, host) != cudaSuccess) {
        (void)cudaGetLastError();
        return false;
    }
    if (a.type != cudaMemoryTypeUnregistered)
        return false;   // pinned or managed: CUDA copies it at full speed
    if (g->staging[0])
        return true;
    for (int k = 0; k < 2; k++) {
        if (cudaHostAlloc(&g->staging[k], VSG_GPU_STAGE_CHUNK, cudaHostAllocDefault) !=
                cudaSuccess ||
            cudaEventCreateWithFlags(&g->staging_done[k], cudaEventDisableTiming) !=
                cudaSuccess) {
            (void)cudaGetLastError();
            vsg_gpu_staging_release(g);
            g->staging_off = true;
            return false;
        }
    }
    return true;
}

static size_t chunk_len(size_t bytes, size_t off)
{
    return bytes - off < VSG_GPU_STAGE_CHUNK ? bytes - off : VSG_GPU_STAGE_CHUNK;
}

// Chunk i: wait until buffer i % 2 is free (its last DMA done), fill it,
// start its DMA. Returns once every chunk is in a pinned buffer.
static vsg_status h2d_staged(vsg_gpu *g, char *dst, const char *src, size_t bytes)
{
    for (size_t off = 0, i = 0; off < bytes; off += VSG_GPU_STAGE_CHUNK, i++) {
        int k = (int)(i % 2);
        size_t n = chunk_len(bytes, off);
        VSG_CUDA_TRY(g, cudaEventSynchronize(g->staging_done[k]));
        std::memcpy(g->staging[k], src + off, n);
        VSG_CUDA_TRY(g, cudaMemcpyAsync(dst + off, g->staging[k], n, cudaMemcpyHostToDevice,
                                        g->stream));
        VSG_CUDA_TRY(g, cudaEventRecord(g->staging_done[k], g->stream));
    }
    return VSG_OK;
}

// Chunk i's DMA into buffer i % 2 runs while the host copies chunk i - 1
// out of the other one.
static vsg_status d2h_staged(vsg_gpu *g, char *dst, const char *src, size_t bytes)
{
    size_t prev_off = 0, prev_n = 0;
    for (size_t off = 0, i = 0; off < bytes; off += VSG_GPU_STAGE_CHUNK, i++) {
        int k = (int)(i % 2);
        size_t n = chunk_len(bytes, off);
        VSG_CUDA_TRY(g, cudaMemcpyAsync(g->staging[k], src + off, n, cudaMemcpyDeviceToHost,
                                        g->stream));
        VSG_CUDA_TRY(g, cudaEventRecord(g->staging_done[k], g->stream));
        if (i > 0) {
            VSG_CUDA_TRY(g, cudaEventSynchronize(g->staging_done[1 - k]));
            std::memcpy(dst + prev_off, g->staging[1 - k], prev_n);
        }
        prev_off = off;
        prev_n = n;
    }
    int last = (int)(((bytes + VSG_GPU_STAGE_CHUNK - 1) / VSG_GPU_STAGE_CHUNK - 1) % 2);
    VSG_CUDA_TRY(g, cudaEventSynchronize(g->staging_done[last]));
    std::memcpy(dst + prev_off, g->staging[last], prev_n);
    return VSG_OK;
}

extern "C" vsg_status vsg_gpu_h2d(vsg_gpu *g, void *dst, const void *src, size_t bytes)
{
    if (bytes == 0)
        return VSG_OK;
    vsg_status st = vsg_gpu_bind(g);
    if (st != VSG_OK || !staged(g, src, bytes))
        return st != VSG_OK ? st
                            : copy_async(g, dst, src, bytes, cudaMemcpyHostToDevice,
                                         &g->stats.bytes_h2d);
    st = h2d_staged(g, (char *)dst, (const char *)src, bytes);
    if (st == VSG_OK)
        g->stats.bytes_h2d += (int64_t)bytes;
    return st;
}

extern "C" vsg_status vsg_gpu_d2h(vsg_gpu *g, void *dst, const void *src, size_t bytes)
{
    if (bytes == 0)
        return VSG_OK;
    vsg_status st = vsg_gpu_bind(g);
    if (st != VSG_OK || !staged(g, dst, bytes))
        return st != VSG_OK ? st
                            : copy_async(g, dst, src, bytes, cudaMemcpyDeviceToHost,
                                         &g->stats.bytes_d2h);
    st = d2h_staged(g, (char *)dst, (const char *)src, bytes);
    if (st == VSG_OK)
        g->stats.bytes_d2h += (int64_t)bytes;
    return st;
}

void vsg_gpu_staging_release(vsg_gpu *g)
{
    for (int k = 0; k < 2; k++) {
        if (g->staging_done[k])
            (void)cudaEventDestroy(g->staging_done[k]);
        if (g->staging[k])
            (void)cudaFreeHost(g->staging[k]);
        g->staging_done[k] = nullptr;
        g->staging[k] = nullptr;
    }
}

extern "C" vsg_status vsg_gpu_d2d(vsg_gpu *g, void *dst, const void *src, size_t bytes)
{
    return copy_async(g, dst, src, bytes, cudaMemcpyDeviceToDevice, nullptr);
}
