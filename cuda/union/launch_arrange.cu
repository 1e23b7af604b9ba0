/*
 * launch_arrange.cu - launches one step of the overlap union by one
 * arrangement per group (launch_arrange.h). Every item is bounded
 * (elements/union/arrange.h): a chunk pair, a row of 16 segment tests, a
 * node event, a segment, a piece, a node entry of at most 16 ends, a
 * ray's chunk.
 */
#include "union/launch_arrange.h"

#include "gpu_internal.h"

/* the step a constant: see vsg_step_fn (gpu_internal.h) */
struct arr_item {
    static __device__ __forceinline__ void run(const vsg_arr_ctx *c, int s, int64_t i)
    {
        vsg_arr_item(c, s, i);
    }
};

extern "C" vsg_status vsg_launch_arr_step(vsg_gpu *g, const vsg_arr_ctx *c, int step, int64_t n)
{
    return vsg_step_launch<vsg_arr_ctx, arr_item>(g, c, step, n,
                                                 std::make_integer_sequence<int, VSG_ARR_N_STEPS>{});
}

extern "C" void vsg_launch_arr_preload(void)
{
    vsg_step_preload<vsg_arr_ctx, arr_item>(std::make_integer_sequence<int, VSG_ARR_N_STEPS>{});
}
