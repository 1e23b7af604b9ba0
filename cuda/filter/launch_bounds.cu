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

} // namespace

extern "C" vsg_status vsg_launch_bounds(vsg_gpu *g, const vsg_col_view *v, uint64_t *ord,
                                        double *boxes)
{
    vsg_col_view w = *v;
    if (w.n_geoms <= 0)
        return VSG_OK;
    int64_t blocks = (w.n_coords + VSG_BOUNDS_BLOCK - 1) / VSG_BOUNDS_BLOCK;
    VSG_FOR_EACH(g, w.n_geoms, kBlock,
                 [=] __device__(int64_t i) { vsg_bounds_ord_init(i, ord); });
    VSG_FOR_EACH(g, blocks, kBlock,
                 [=] __device__(int64_t b) { vsg_bounds_block(&w, b, ord); });
    VSG_FOR_EACH(g, w.n_geoms, kBlock,
                 [=] __device__(int64_t i) { vsg_bounds_finish(&w, i, ord, boxes); });
    return VSG_OK;
}
