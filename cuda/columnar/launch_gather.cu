/*
 * launch_gather.cu - launches one step of the columnar gather
 * (launch_gather.h). Every item is bounded (elements/columnar/gather.h).
 * The context is copied into the kernel's parameters.
 */
#include "columnar/launch_gather.h"

#include "gpu_internal.h"

/* the step a constant: see vsg_step_fn (gpu_internal.h) */
struct gather_item {
    static __device__ __forceinline__ void run(const vsg_gather_ctx *c, int s, int64_t i)
    {
        vsg_gather_item(c, s, i);
    }
};

extern "C" vsg_status vsg_launch_gather_step(vsg_gpu *g, const vsg_gather_ctx *c, int step,
                                             int64_t n)
{
    return vsg_step_launch<vsg_gather_ctx, gather_item>(
        g, c, step, n, std::make_integer_sequence<int, VSG_GATHER_N_STEPS>{});
}

extern "C" void vsg_launch_gather_preload(void)
{
    vsg_step_preload<vsg_gather_ctx, gather_item>(
        std::make_integer_sequence<int, VSG_GATHER_N_STEPS>{});
}
