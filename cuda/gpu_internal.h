/*
 * gpu_internal.h - what a stage launcher in cuda/ needs of the runtime:
 * the stream, launch sizing and the error convention. CUDA C++ only.
 *
 *   VSG_CUDA_TRY(g, cudaMemcpyAsync(...));     returns the vsg_status
 *   kernel<<<vsg_gpu_blocks(g, n, 256), 256, 0, vsg_gpu_stream(g)>>>(...);
 *   VSG_CUDA_TRY(g, cudaGetLastError());
 *
 * Kernels use grid-stride loops, so any grid size is correct and
 * vsg_gpu_blocks only picks an efficient one.
 */
#ifndef VSGPU_GPU_INTERNAL_H
#define VSGPU_GPU_INTERNAL_H

#include <cuda_runtime.h>

#include "vsgpu_cuda.h"

cudaStream_t vsg_gpu_stream(vsg_gpu *g);
/* Blocks for n items at `block` threads each, capped at a few waves of the
 * device's SMs; at least 1. */
unsigned vsg_gpu_blocks(vsg_gpu *g, int64_t n, int block);
/* Records "file:line: call: cudaErrorX: text" as the last error and maps
 * the error: cudaErrorMemoryAllocation -> VSG_ERR_GPU_OOM, others ->
 * VSG_ERR_GPU_KERNEL. */
vsg_status vsg_gpu_fail(vsg_gpu *g, cudaError_t err, const char *call, const char *file,
                        int line);

/* Runs f(i) for every i < n, grid-stride: the one kernel of the launchers
 * whose per-item work is an element function (a __device__ lambda). */
template <typename F> __global__ void vsg_for_each(int64_t n, F f)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x)
        f(i);
}

/* Launches vsg_for_each over n items (none: nothing) on g's stream and
 * checks the launch. */
#define VSG_FOR_EACH(g, n, block, f)                                                        \
    do {                                                                                    \
        int64_t vsg_n_ = (n);                                                               \
        if (vsg_n_ > 0) {                                                                   \
            vsg_for_each<<<vsg_gpu_blocks((g), vsg_n_, (block)), (block), 0,                \
                           vsg_gpu_stream(g)>>>(vsg_n_, f);                                 \
            VSG_CUDA_TRY((g), cudaGetLastError());                                          \
        }                                                                                   \
    } while (0)

#define VSG_CUDA_TRY(g, call)                                                  \
    do {                                                                       \
        cudaError_t vsg_e_ = (call);                                           \
        if (vsg_e_ != cudaSuccess)                                             \
            return vsg_gpu_fail((g), vsg_e_, #call, __FILE__, __LINE__);       \
    } while (0)

#endif
