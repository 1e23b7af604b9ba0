/*
 * launch_refine.cu - launches one step of the overlay refine
 * (launch_refine.h). Every item is bounded (elements/overlay/refine.h):
 * a segment, a piece, a node of at most VSG_REF_MAX_DEGREE piece ends, a
 * pair of chunks. The context is copied into the kernel's parameters: the
 * orchestrator may swap its double buffers right after.
 */
#include "overlay/launch_refine.h"

#include "gpu_internal.h"

extern "C" vsg_status vsg_launch_ref_step(vsg_gpu *g, const vsg_ref_ctx *c, int step, int64_t n)
{
    vsg_ref_ctx k = *c;
    int s = step;
    VSG_FOR_EACH(g, n, 256, [=] __device__(int64_t i) { vsg_ref_item(&k, s, i); });
    return VSG_OK;
}
