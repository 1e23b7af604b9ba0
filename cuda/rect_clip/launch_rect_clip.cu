/*
 * launch_rect_clip.cu - the steps of the rectangle clip on the device: one
 * grid-stride thread per item calling the shared item function of
 * elements/rect_clip/seg.h (the host backend runs the very same functions
 * in a loop). Each step is its own kernel (one lambda per step), so a
 * step's registers are those of its own item function.
 *
 * Work layout: every item is bounded (a segment, a ring's or part's O(1)
 * decisions with a binary search, a chain's two ends, a group of at most
 * RC_GROUP_MAX ends at one boundary point), except the items of rows left
 * to the per-geometry path (lines, points, degenerate polygons:
 * docs/rect-clip.md), which walk their row.
 */
#include "gpu_internal.h"
#include "rect_clip/launch_rect_clip.h"

extern "C" vsg_status vsg_launch_rect_clip_step(vsg_gpu *g, const rc_args *a, int step, int64_t n)
{
    const int block = 256;
    rc_args A = *a;
    switch (step) {
#define RCS_LAUNCH(id, fn)                                                    \
    case id:                                                                  \
        VSG_FOR_EACH(g, n, block, [=] __device__(int64_t i) { fn(&A, i); }); \
        break;
        RCS_STEPS(RCS_LAUNCH)
#undef RCS_LAUNCH
    default:
        return VSG_ERR_INVALID_ARG;   /* no such step: nothing launched */
    }
    return VSG_OK;
}
