/*
 * clip_rect_gpu.h - ST_ClipByRect on the GPU pipeline, end to end:
 *
 *   to_columnar (host) -> h2d -> bounds -> rect_clip -> d2h (one sync)
 *   -> encode (host, parallel) -> rows the GPU handed back run on the CPU
 *   engine -> merge in input order
 */
#ifndef VSG_GPU_CLIP_RECT_H
#define VSG_GPU_CLIP_RECT_H

#include "vsgpu_engine.h"

/* *used = 0 (VSG_OK): the GPU pipeline did not run (not enabled, broken,
 * or an AUTO failure): the caller runs the CPU engine. Under strict mode a
 * failure is returned. */
vsg_status vsg_gpu_clip_rect(vsg_engine *e, const double rect[4], const vsg_wkb_array *input,
                             vsg_result *out, int *used);

#endif
