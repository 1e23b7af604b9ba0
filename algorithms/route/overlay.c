/*
 * overlay.c - vsg_intersection_batch and vsg_clip_batch: the CPU engine's
 * overlay by a method index (overlay/by_index.c), with the GPU pipeline's
 * candidate search and pair classes tried first where the statement took
 * the GPU (it hands back what it cannot take and the STR tree searches
 * those; with VSGPU_GPU_REFINE=YES the exact refine of intersection, and
 * of clip with the union of its pieces, runs there too).
 */
#include "pipeline/filter.h"
#include "pipeline/screen.h"
#include "overlay/by_index.h"

/* The batch through the CPU engine's overlay with the pipeline's finder;
 * the validity screen's decode of the batch is kept on the backend
 * meanwhile, for the finder to gather the rows from (pipeline/filter.c). */
static vsg_status overlay(vsg_engine *e, const vsg_method_index *idx, const vsg_wkb_array *input,
                          vsg_result *out, vsg_task_fn refine, vsg_candidate_finder finder)
{
    if (e)
        vsg_pipeline_screen_keep(e, 1);
    vsg_status st = vsg_overlay_by_index(e, idx, input, out, refine, finder);
    if (e)
        vsg_pipeline_screen_keep(e, 0);
    return st;
}

vsg_status vsg_intersection_batch(vsg_engine *e, const vsg_method_index *idx,
                                  const vsg_wkb_array *input, vsg_result *out)
{
    return overlay(e, idx, input, out, vsg_intersection_refine, vsg_gpu_candidates_refined);
}

vsg_status vsg_clip_batch(vsg_engine *e, const vsg_method_index *idx,
                          const vsg_wkb_array *input, vsg_result *out)
{
    return overlay(e, idx, input, out, vsg_clip_refine, vsg_gpu_candidates_clip);
}
