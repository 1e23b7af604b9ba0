/*
 * launch_bounds.h - C-callable launcher of the bounds stage
 * (launch_bounds.cu). Pointers are device memory; ordered on the stream.
 */
#ifndef VSGPU_LAUNCH_BOUNDS_H
#define VSGPU_LAUNCH_BOUNDS_H

#include "vsgpu_cuda.h"
#include "elements/col_view.h"

#ifdef __cplusplus
extern "C" {
#endif

/* boxes[4g .. 4g+3] for every geometry of v (elements/filter/bounds.h,
 * "the load-balanced bounds"); ord: scratch of 4 n_geoms uint64. */
vsg_status vsg_launch_bounds(vsg_gpu *g, const vsg_col_view *v, uint64_t *ord, double *boxes);

#ifdef __cplusplus
}
#endif
#endif
