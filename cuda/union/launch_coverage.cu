/*
 * launch_coverage.cu - launches one step of the coverage union
 * (launch_coverage.h). Every item is bounded (elements/union/coverage.h),
 * so one thread per item keeps the device busy whatever the sizes of the
 * polygons and groups. The context is copied into the kernel's
 * parameters: the orchestrator may swap its double buffers right after.
 */
#include "union/launch_coverage.h"

#include "gpu_internal.h"

/* the step a constant: see vsg_step_fn (gpu_internal.h) */
struct cov_item {
    static __device__ __forceinline__ void run(const vsg_cov_ctx *c, int s, int64_t i)
    {
        vsg_cov_item(c, s, i);
    }
};

extern "C" vsg_status vsg_launch_cov_step(vsg_gpu *g, const vsg_cov_ctx *c, int step, int64_t n)
{
    return vsg_step_launch<vsg_cov_ctx, cov_item>(g, c, step, n,
                                                 std::make_integer_sequence<int, VSG_COV_N_STEPS>{});
}

extern "C" void vsg_launch_cov_preload(void)
{
    vsg_step_preload<vsg_cov_ctx, cov_item>(std::make_integer_sequence<int, VSG_COV_N_STEPS>{});
}
