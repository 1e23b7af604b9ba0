/*
 * launch_rect_clip.h - the GPU steps of vsg_stage_rect_clip
 * (algorithms/stages/rect_clip/rect_clip.c): one thread per item (segment,
 * ring, part, chain, chain end or row, as the step says) running the item
 * functions of elements/rect_clip/seg.h. Plain C header.
 */
#ifndef VSGPU_LAUNCH_RECT_CLIP_H
#define VSGPU_LAUNCH_RECT_CLIP_H

#include "vsgpu_cuda.h"
#include "elements/rect_clip/seg.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Launches step (RCS_*) over items [0, n) on g's stream; every pointer of a
 * is device memory. Returns without waiting. */
vsg_status vsg_launch_rect_clip_step(vsg_gpu *g, const rc_args *a, int step, int64_t n);

#ifdef __cplusplus
}
#endif
#endif
