/*
 * launch_overlap.cu - launches one step of the overlap union
 * (launch_overlap.h). Every item is bounded (elements/union/overlap.h):
 * a pair candidate, a geometry's flags, a ring's direction, a piece, a
 * segment's two events, one sorted event.
 */
#include "union/launch_overlap.h"

#include "gpu_internal.h"

extern "C" vsg_status vsg_launch_ovu_step(vsg_gpu *g, const vsg_ovu_ctx *c, int step, int64_t n)
{
    vsg_ovu_ctx k = *c;
    int s = step;
    VSG_FOR_EACH(g, n, 256, [=] __device__(int64_t i) { vsg_ovu_item(&k, s, i); });
    return VSG_OK;
}
