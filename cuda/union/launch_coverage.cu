/*
 * launch_coverage.cu - launches one step of the coverage union
 * (launch_coverage.h). Every item is bounded (elements/union/coverage.h),
 * so one thread per item keeps the device busy whatever the sizes of the
 * polygons and groups. The context is copied into the kernel's
 * parameters: the orchestrator may swap its double buffers right after.
 */
#include "union/launch_coverage.h"

#include "gpu_internal.h"

extern "C" vsg_status vsg_launch_cov_step(vsg_gpu *g, const vsg_cov_ctx *c, int step, int64_t n)
{
    vsg_cov_ctx k = *c;
    int s = step;
    VSG_FOR_EACH(g, n, 256, [=] __device__(int64_t i) { vsg_cov_item(&k, s, i); });
    return VSG_OK;
}
