/*
 * launch_refine.h - the overlay refine stage's steps on the device
 * (launch_refine.cu): one grid-stride thread per item of the step's
 * dispatcher, elements/overlay/refine_steps.h. The orchestrator is
 * algorithms/stages/overlay/refine.c. Pointers in c are device memory;
 * the call is ordered on the stream and does not wait for it.
 */
#ifndef VSGPU_LAUNCH_REFINE_H
#define VSGPU_LAUNCH_REFINE_H

#include "vsgpu_cuda.h"
#include "elements/overlay/refine_steps.h"

#ifdef __cplusplus
extern "C" {
#endif

/* vsg_ref_item(c, step, i) for every i in [0, n). */
vsg_status vsg_launch_ref_step(vsg_gpu *g, const vsg_ref_ctx *c, int step, int64_t n);
/* Loads the step kernels (the warm-up thread: warmup.cu). */
void vsg_launch_ref_preload(void);

#ifdef __cplusplus
}
#endif
#endif
