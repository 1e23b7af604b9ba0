/*
 * launch_classify.h - C-callable launcher of the classify stage's kernel
 * (launch_classify.cu). Pointers are device memory; ordered on the stream.
 */
#ifndef VSGPU_LAUNCH_CLASSIFY_H
#define VSGPU_LAUNCH_CLASSIFY_H

#include "vsgpu_cuda.h"
#include "elements/col_view.h"

#ifdef __cplusplus
extern "C" {
#endif

/* cls[k] = vsg_classify_pair(a, pa[k], b, pb[k]) for k < n. */
vsg_status vsg_launch_classify(vsg_gpu *g, const vsg_col_view *a, const vsg_col_view *b,
                               const int64_t *pa, const int64_t *pb, int64_t n, uint8_t *cls);

#ifdef __cplusplus
}
#endif
#endif
