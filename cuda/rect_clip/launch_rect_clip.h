/*
 * launch_rect_clip.h - the GPU passes of vsg_stage_rect_clip
 * (algorithms/stages/rect_clip/rect_clip.c): one thread per geometry running the
 * per-geometry functions of elements/rect_clip/clip.h. Plain C header.
 */
#ifndef VSGPU_LAUNCH_RECT_CLIP_H
#define VSGPU_LAUNCH_RECT_CLIP_H

#include "vsgpu_cuda.h"
#include "elements/rect_clip/clip.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Launches pass (VSG_RC_PASS_*) over a->in.n_geoms rows on g's stream; every
 * pointer of a is device memory. Returns without waiting. */
vsg_status vsg_launch_rect_clip(vsg_gpu *g, const rc_args *a, int pass);

#ifdef __cplusplus
}
#endif
#endif
