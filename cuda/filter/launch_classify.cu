/*
 * launch_classify.cu - the classify stage on the device: one thread per
 * candidate pair runs elements/filter/classify.h. The cost of a pair grows with
 * the product of its two sizes; pairs of huge geometries make their
 * threads long (docs/gpu-stages.md, "classify").
 */
#include "filter/launch_classify.h"

#include "gpu_internal.h"
#include "elements/filter/classify.h"

namespace {

__global__ void classify_pairs(vsg_col_view a, vsg_col_view b, const int64_t *pa,
                               const int64_t *pb, int64_t n, uint8_t *cls)
{
    for (int64_t k = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; k < n;
         k += (int64_t)gridDim.x * blockDim.x)
        cls[k] = (uint8_t)vsg_classify_pair(&a, pa[k], &b, pb[k]);
}

} // namespace

extern "C" vsg_status vsg_launch_classify(vsg_gpu *g, const vsg_col_view *a,
                                          const vsg_col_view *b, const int64_t *pa,
                                          const int64_t *pb, int64_t n, uint8_t *cls)
{
    if (n <= 0)
        return VSG_OK;
    const int block = 128;
    classify_pairs<<<vsg_gpu_blocks(g, n, block), block, 0, vsg_gpu_stream(g)>>>(*a, *b, pa, pb,
                                                                                n, cls);
    VSG_CUDA_TRY(g, cudaGetLastError());
    return VSG_OK;
}
