/*
 * launch_refine.cu - launches one step of the overlay refine
 * (launch_refine.h). Every item is bounded (elements/overlay/refine.h):
 * a segment, a piece, a node of at most VSG_REF_MAX_DEGREE piece ends, a
 * pair of chunks. The context is copied into the kernel's parameters: the
 * orchestrator may swap its double buffers right after.
 */
#include "overlay/launch_refine.h"

#include "gpu_internal.h"

/* the step a constant: see vsg_step_fn (gpu_internal.h) */
struct ref_item {
    static __device__ __forceinline__ void run(const vsg_ref_ctx *c, int s, int64_t i)
    {
        vsg_ref_item(c, s, i);
    }
};

extern "C" vsg_status vsg_launch_ref_step(vsg_gpu *g, const vsg_ref_ctx *c, int step, int64_t n)
{
    return vsg_step_launch<vsg_ref_ctx, ref_item>(g, c, step, n,
                                                 std::make_integer_sequence<int, VSG_REF_N_STEPS>{});
}

extern "C" void vsg_launch_ref_preload(void)
{
    vsg_step_preload<vsg_ref_ctx, ref_item>(std::make_integer_sequence<int, VSG_REF_N_STEPS>{});
}
