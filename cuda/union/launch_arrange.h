/*
 * launch_arrange.h - the overlap union by arrangement's own steps on the device
 * (launch_arrange.cu): one grid-stride thread per item of the step's
 * dispatcher, elements/union/arrange.h. The orchestrator is
 * algorithms/stages/union/arrange.c; the refine's and the boundary's
 * steps run through their own launchers. Pointers in c are device
 * memory; the call is ordered on the stream and does not wait for it.
 */
#ifndef VSGPU_LAUNCH_ARRANGE_H
#define VSGPU_LAUNCH_ARRANGE_H

#include "vsgpu_cuda.h"
#include "elements/union/arrange.h"

#ifdef __cplusplus
extern "C" {
#endif

/* vsg_arr_item(c, step, i) for every i in [0, n). */
vsg_status vsg_launch_arr_step(vsg_gpu *g, const vsg_arr_ctx *c, int step, int64_t n);
/* Loads the step kernels (the warm-up thread: warmup.cu). */
void vsg_launch_arr_preload(void);

#ifdef __cplusplus
}
#endif
#endif
