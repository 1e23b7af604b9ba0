/*
 * clip_rect.h - the CPU engine's rectangle clip, callable on a subset of a
 * batch by the GPU pipeline (rows it hands back), with the same semantics
 * as vsg_clip_rect_batch.
 */
#ifndef VSG_OVERLAY_CLIP_RECT_H
#define VSG_OVERLAY_CLIP_RECT_H

#include "vsgpu_engine.h"

/* rect is checked by the caller. Replaces out's contents. */
vsg_status vsg_clip_rect_cpu(vsg_engine *e, const double rect[4], const vsg_wkb_array *input,
                             vsg_result *out);

#endif
