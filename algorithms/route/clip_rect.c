/*
 * clip_rect.c - vsg_clip_rect_batch: the GPU pipeline where the statement
 * took it, the rows it hands back (or the whole batch, when it fails in
 * AUTO or does not run) on the CPU engine.
 */
#include <math.h>

#include "pipeline/rect_clip.h"
#include "pipeline/state.h"
#include "overlay/clip_rect.h"
#include "route/handback.h"

static vsg_status clip_rect_cpu(vsg_engine *e, const void *rect, const vsg_wkb_array *rows,
                                vsg_result *out)
{
    return vsg_clip_rect_cpu(e, (const double *)rect, rows, out);
}

vsg_status vsg_clip_rect_batch(vsg_engine *e, const double rect[4],
                               const vsg_wkb_array *input, vsg_result *out)
{
    if (!e || !rect || !out)
        return e ? vsg_engine_fail(e, VSG_ERR_INVALID_ARG, -1, -1, "NULL argument")
                 : VSG_ERR_INVALID_ARG;
    vsg_engine_begin_call(e);
    vsg_result_clear(out);
    for (int k = 0; k < 4; k++)
        if (!isfinite(rect[k]))
            return vsg_engine_fail(e, VSG_ERR_INVALID_ARG, -1, -1,
                                   "clip rectangle has a non-finite bound");
    if (rect[0] > rect[2] || rect[1] > rect[3])
        return vsg_engine_fail(e, VSG_ERR_INVALID_ARG, -1, -1,
                               "clip rectangle has xmin > xmax or ymin > ymax");
    if (!input || (input->count && (!input->wkb || !input->size)))
        return vsg_engine_fail(e, VSG_ERR_INVALID_ARG, -1, -1, "bad input array");

    vsg_pipeline_out p;
    vsg_pipeline_out_init(&p);
    int on_gpu = 0;
    vsg_status st = vsg_gpu_clip_rect(e, rect, input, &p, &on_gpu);
    if (st != VSG_OK && p.failed_step)
        st = vsg_gpu_fallback(e, st, (int64_t)input->count, p.failed_step);
    if (st != VSG_OK || !on_gpu) {
        vsg_pipeline_out_clear(&p);
        return st != VSG_OK ? st : vsg_clip_rect_cpu(e, rect, input, out);
    }
    return vsg_handback(e, input, &p, clip_rect_cpu, rect, out);
}
