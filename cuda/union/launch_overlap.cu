/*
 * launch_overlap.cu - launches one step of the overlap union
 * (launch_overlap.h). Every item is bounded (elements/union/overlap.h):
 * a pair candidate, a geometry's flags, a ring's direction, a piece, a
 * segment's two events, one sorted event.
 */
#include "union/launch_overlap.h"

#include "gpu_internal.h"

/* the step a constant: see vsg_step_fn (gpu_internal.h) */
struct ovu_item {
    static __device__ __forceinline__ void run(const vsg_ovu_ctx *c, int s, int64_t i)
    {
        vsg_ovu_item(c, s, i);
    }
};

extern "C" vsg_status vsg_launch_ovu_step(vsg_gpu *g, const vsg_ovu_ctx *c, int step, int64_t n)
{
    return vsg_step_launch<vsg_ovu_ctx, ovu_item>(g, c, step, n,
                                                 std::make_integer_sequence<int, VSG_OVU_N_STEPS>{});
}

extern "C" void vsg_launch_ovu_preload(void)
{
    vsg_step_preload<vsg_ovu_ctx, ovu_item>(std::make_integer_sequence<int, VSG_OVU_N_STEPS>{});
}
