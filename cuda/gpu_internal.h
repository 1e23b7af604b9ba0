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

#include <utility>

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

/* One kernel per step of an element family whose item function takes the
 * step as an argument (vsg_ref_item, vsg_cov_item, vsg_arr_item). Item is a
 * struct with `static __device__ void run(const Ctx *, int step, int64_t)`
 * calling the item function. vsg_for_each over this functor is one kernel
 * per (family, step) with the step a constant, so each kernel holds that
 * step's code alone and gets its own register count and stack frame. One
 * kernel with the switch inside took the largest step's for every step
 * (the refine's: 124 registers and a 640-byte frame, a quarter of the
 * threads an SM can hold, for steps that need a tenth of it). The context
 * goes by value into the kernel's parameters. */
template <typename Ctx, typename Item, int S> struct vsg_step_fn {
    Ctx k;
    __device__ void operator()(int64_t i) const { Item::run(&k, S, i); }
};

template <typename Ctx, typename Item, int S>
vsg_status vsg_step_launch_one(vsg_gpu *g, const Ctx *k, int64_t n)
{
    VSG_FOR_EACH(g, n, 256, (vsg_step_fn<Ctx, Item, S>{*k}));
    return VSG_OK;
}

/* Launches step `step` (0 <= step < sizeof...(S)) of the family over n
 * items. */
template <typename Ctx, typename Item, int... S>
vsg_status vsg_step_launch(vsg_gpu *g, const Ctx *k, int step, int64_t n,
                           std::integer_sequence<int, S...>)
{
    typedef vsg_status (*launch_fn)(vsg_gpu *, const Ctx *, int64_t);
    static const launch_fn table[] = {vsg_step_launch_one<Ctx, Item, S>...};
    if (step < 0 || step >= (int)sizeof...(S))
        return VSG_ERR_INVALID_ARG;
    return table[step](g, k, n);
}

/* Loads every step kernel of the family now (CUDA loads a kernel at its
 * first launch by default, CUDA_MODULE_LOADING=LAZY; asking for its
 * attributes loads it too). The warm-up thread calls this, so the loading
 * overlaps with reading the sources instead of lengthening the first
 * batch's steps. Errors are left to the launches to report. */
template <typename Ctx, typename Item, int... S>
void vsg_step_preload(std::integer_sequence<int, S...>)
{
    cudaFuncAttributes a;
    int ok[] = {(cudaFuncGetAttributes(&a, vsg_for_each<vsg_step_fn<Ctx, Item, S>>), 0)...};
    (void)ok;
    cudaGetLastError();
}

#endif
