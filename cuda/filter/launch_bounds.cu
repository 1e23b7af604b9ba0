/*
 * launch_bounds.cu - the bounds stage on the device: elements/filter/bounds.h.
 *
 * Geometries with many coordinates get a warp each: the lanes read
 * consecutive coordinates (coalesced) and reduce with shuffles. Small ones
 * (points, short lines: fewer than 16 coordinates on average) get a thread
 * each, the warp would idle otherwise.
 */
#include "filter/launch_bounds.h"

#include "gpu_internal.h"
#include "elements/filter/bounds.h"

namespace {

__global__ void bounds_per_thread(vsg_col_view v, double *boxes)
{
    for (int64_t g = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; g < v.n_geoms;
         g += (int64_t)gridDim.x * blockDim.x)
        vsg_bounds_geom(&v, g, boxes);
}

__global__ void bounds_per_warp(vsg_col_view v, double *boxes)
{
    const int lane = threadIdx.x & 31;
    const int64_t warp = (blockIdx.x * (int64_t)blockDim.x + threadIdx.x) >> 5;
    const int64_t nwarps = ((int64_t)gridDim.x * blockDim.x) >> 5;
    for (int64_t g = warp; g < v.n_geoms; g += nwarps) {
        int64_t k0, k1;
        if (!vsg_geom_coords(&v, g, &k0, &k1)) {    /* the same for every lane */
            if (lane == 0)
                vsg_box_set_inverted(boxes + 4 * g);
            continue;
        }
        double b[4];
        vsg_box_of_coords(v.x, v.y, k0 + lane, k1, 32, b);
        for (int d = 16; d > 0; d >>= 1) {
            b[0] = fmin(b[0], __shfl_xor_sync(0xffffffffu, b[0], d));
            b[1] = fmin(b[1], __shfl_xor_sync(0xffffffffu, b[1], d));
            b[2] = fmax(b[2], __shfl_xor_sync(0xffffffffu, b[2], d));
            b[3] = fmax(b[3], __shfl_xor_sync(0xffffffffu, b[3], d));
        }
        if (lane == 0) {
            boxes[4 * g] = b[0];
            boxes[4 * g + 1] = b[1];
            boxes[4 * g + 2] = b[2];
            boxes[4 * g + 3] = b[3];
        }
    }
}

} // namespace

extern "C" vsg_status vsg_launch_bounds(vsg_gpu *g, const vsg_col_view *v, double *boxes)
{
    if (v->n_geoms <= 0)
        return VSG_OK;
    const int block = 256;
    if (v->n_coords < 16 * v->n_geoms)
        bounds_per_thread<<<vsg_gpu_blocks(g, v->n_geoms, block), block, 0, vsg_gpu_stream(g)>>>(
            *v, boxes);
    else
        bounds_per_warp<<<vsg_gpu_blocks(g, v->n_geoms * 32, block), block, 0,
                          vsg_gpu_stream(g)>>>(*v, boxes);
    VSG_CUDA_TRY(g, cudaGetLastError());
    return VSG_OK;
}
