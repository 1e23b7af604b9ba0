// transfer.cu - memset and the three copy directions, all ordered on the
// context's stream, with the byte counters of the profile (bytes_h2d,
// bytes_d2h).
//
// Host memory given here is usually pageable: CUDA stages it through its
// own pinned buffers. For pageable memory a host-to-device copy has read
// the source when the call returns, and a device-to-host copy has written
// the destination when it returns; with pinned (page-locked) host memory
// both are truly asynchronous and the host buffer must stay untouched until
// the next vsg_gpu_sync.
#include "gpu_context.h"

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

extern "C" vsg_status vsg_gpu_h2d(vsg_gpu *g, void *dst, const void *src, size_t bytes)
{
    return copy_async(g, dst, src, bytes, cudaMemcpyHostToDevice, &g->stats.bytes_h2d);
}

extern "C" vsg_status vsg_gpu_d2h(vsg_gpu *g, void *dst, const void *src, size_t bytes)
{
    return copy_async(g, dst, src, bytes, cudaMemcpyDeviceToHost, &g->stats.bytes_d2h);
}

extern "C" vsg_status vsg_gpu_d2d(vsg_gpu *g, void *dst, const void *src, size_t bytes)
{
    return copy_async(g, dst, src, bytes, cudaMemcpyDeviceToDevice, nullptr);
}
