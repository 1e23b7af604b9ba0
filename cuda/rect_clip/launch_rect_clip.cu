/*
 * launch_rect_clip.cu - the kernels of the rectangle clip: each maps
 * threads to geometries (grid-stride) and calls the shared per-geometry
 * function of elements/rect_clip/clip.h; the host backend runs the very same
 * functions in a loop.
 *
 * Work layout: one thread per geometry. Rows whose box is inside or
 * outside the rectangle (most rows of a real layer) cost a few compares in
 * prepare and count and a straight copy in fill; only rows crossing the
 * rectangle boundary walk their rings. docs/rect-clip.md discusses the
 * load balance for very large geometries.
 */
#include "gpu_internal.h"
#include "rect_clip/launch_rect_clip.h"

namespace {

__global__ void rc_prepare_kernel(rc_args a)
{
    int64_t stride = (int64_t)blockDim.x * gridDim.x;
    for (int64_t g = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; g < a.in.n_geoms; g += stride)
        rc_prepare(&a, g);
}

__global__ void rc_count_kernel(rc_args a)
{
    int64_t stride = (int64_t)blockDim.x * gridDim.x;
    for (int64_t g = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; g < a.in.n_geoms; g += stride)
        rc_count(&a, g);
}

__global__ void rc_fill_kernel(rc_args a)
{
    int64_t stride = (int64_t)blockDim.x * gridDim.x;
    for (int64_t g = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; g < a.in.n_geoms; g += stride)
        rc_fill(&a, g);
}

}  // namespace

extern "C" vsg_status vsg_launch_rect_clip(vsg_gpu *g, const rc_args *a, int pass)
{
    int64_t n = a->in.n_geoms;
    if (n <= 0)
        return VSG_OK;
    const int block = 128;
    unsigned grid = vsg_gpu_blocks(g, n, block);
    cudaStream_t s = vsg_gpu_stream(g);
    if (pass == VSG_RC_PASS_PREPARE)
        rc_prepare_kernel<<<grid, block, 0, s>>>(*a);
    else if (pass == VSG_RC_PASS_COUNT)
        rc_count_kernel<<<grid, block, 0, s>>>(*a);
    else
        rc_fill_kernel<<<grid, block, 0, s>>>(*a);
    VSG_CUDA_TRY(g, cudaGetLastError());
    return VSG_OK;
}
