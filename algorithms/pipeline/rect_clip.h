/*
 * clip_rect_gpu.h - ST_ClipByRect on the GPU pipeline, end to end:
 *
 *   to_columnar (host) -> h2d -> bounds -> rect_clip -> d2h (one sync)
 *   -> encode (host, parallel)
 *
 * The rows it does not settle are handed back in *p (route/handback.c
 * runs them on the CPU engine and merges).
 */
#ifndef VSG_GPU_CLIP_RECT_H
#define VSG_GPU_CLIP_RECT_H

#include "pipeline/out.h"

/* *used = 0 (VSG_OK): the GPU pipeline did not run (not enabled, broken,
 * or a backend that could not open in AUTO): the caller runs the CPU
 * engine. A failing status with p->failed_step set is a GPU failure, for
 * the failure rule (vsg_gpu_fallback); any other failing status is final. */
vsg_status vsg_gpu_clip_rect(vsg_engine *e, const double rect[4], const vsg_wkb_array *input,
                             vsg_pipeline_out *p, int *used);

#endif
