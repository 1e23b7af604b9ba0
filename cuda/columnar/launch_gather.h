/*
 * launch_gather.h - the columnar gather stage's steps on the device
 * (launch_gather.cu): one grid-stride thread per item,
 * elements/columnar/gather.h. The orchestrator is
 * algorithms/stages/columnar/gather.c. Pointers in c are device memory;
 * the call is ordered on the stream and does not wait for it.
 */
#ifndef VSGPU_LAUNCH_GATHER_H
#define VSGPU_LAUNCH_GATHER_H

#include "vsgpu_cuda.h"
#include "elements/columnar/gather.h"

#ifdef __cplusplus
extern "C" {
#endif

/* vsg_gather_item(c, step, i) for every i in [0, n). */
vsg_status vsg_launch_gather_step(vsg_gpu *g, const vsg_gather_ctx *c, int step, int64_t n);
/* Loads the step kernels (the warm-up thread: warmup.cu). */
void vsg_launch_gather_preload(void);

#ifdef __cplusplus
}
#endif
#endif
