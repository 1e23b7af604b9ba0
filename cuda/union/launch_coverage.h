/*
 * launch_coverage.h - the coverage union stage's steps on the device
 * (launch_coverage.cu): one grid-stride thread per item of the step's
 * dispatcher, elements/union/coverage_steps.h. The orchestrator is
 * algorithms/stages/union/coverage.c. Pointers in c are device memory;
 * the call is ordered on the stream and does not wait for it.
 */
#ifndef VSGPU_LAUNCH_COVERAGE_H
#define VSGPU_LAUNCH_COVERAGE_H

#include "vsgpu_cuda.h"
#include "elements/union/coverage_steps.h"

#ifdef __cplusplus
extern "C" {
#endif

/* vsg_cov_item(c, step, i) for every i in [0, n). */
vsg_status vsg_launch_cov_step(vsg_gpu *g, const vsg_cov_ctx *c, int step, int64_t n);
/* Loads the step kernels (the warm-up thread: warmup.cu). */
void vsg_launch_cov_preload(void);

#ifdef __cplusplus
}
#endif
#endif
