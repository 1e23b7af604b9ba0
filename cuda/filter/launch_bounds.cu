/*
 * launch_bounds.cu - the bounds stage on the device: elements/filter/bounds.h,
 * "the load-balanced bounds". Three kernels on the stream: the inverted
 * images, one thread per block of VSG_BOUNDS_BLOCK coordinates (atomic
 * min/max into its geometries), one thread per geometry to finish. No
 * item grows with the size of a geometry.
 */
#include "filter/launch_bounds.h"

#include "gpu_internal.h"
#include "elements/filter/bounds.h"

namespace {

const int kBlock = 256;

template <typename F> __global__ void for_each(int64_t n, F f)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x)
        f(i);
}

} // namespace

extern "C" vsg_status vsg_launch_bounds(vsg_gpu *g, const vsg_col_view *v, uint64_t *ord,
                                        double *boxes)
{
    vsg_col_view w = *v;
    if (w.n_geoms <= 0)
        return VSG_OK;
    cudaStream_t s = vsg_gpu_stream(g);
    for_each<<<vsg_gpu_blocks(g, w.n_geoms, kBlock), kBlock, 0, s>>>(
        w.n_geoms, [=] __device__(int64_t i) { vsg_bounds_ord_init(i, ord); });
    VSG_CUDA_TRY(g, cudaGetLastError());
    int64_t blocks = (w.n_coords + VSG_BOUNDS_BLOCK - 1) / VSG_BOUNDS_BLOCK;
    if (blocks > 0) {
        for_each<<<vsg_gpu_blocks(g, blocks, kBlock), kBlock, 0, s>>>(
            blocks, [=] __device__(int64_t b) { vsg_bounds_block(&w, b, ord); });
        VSG_CUDA_TRY(g, cudaGetLastError());
    }
    for_each<<<vsg_gpu_blocks(g, w.n_geoms, kBlock), kBlock, 0, s>>>(
        w.n_geoms, [=] __device__(int64_t i) { vsg_bounds_finish(&w, i, ord, boxes); });
    VSG_CUDA_TRY(g, cudaGetLastError());
    return VSG_OK;
}
