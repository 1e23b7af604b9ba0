/*
 * launch_overlap.h - the overlap union stage's own steps on the device
 * (launch_overlap.cu): one grid-stride thread per item of the step's
 * dispatcher, elements/union/overlap.h. The orchestrator is
 * algorithms/stages/union/overlap.c; the refine's and the boundary's
 * steps run through their own launchers. Pointers in c are device
 * memory; the call is ordered on the stream and does not wait for it.
 */
#ifndef VSGPU_LAUNCH_OVERLAP_H
#define VSGPU_LAUNCH_OVERLAP_H

#include "vsgpu_cuda.h"
#include "elements/union/overlap.h"

#ifdef __cplusplus
extern "C" {
#endif

/* vsg_ovu_item(c, step, i) for every i in [0, n). */
vsg_status vsg_launch_ovu_step(vsg_gpu *g, const vsg_ovu_ctx *c, int step, int64_t n);
/* Loads the step kernels (the warm-up thread: warmup.cu). */
void vsg_launch_ovu_preload(void);

#ifdef __cplusplus
}
#endif
#endif
