/*
 * bounds.c - the bounds stage (stages/stages.h): one box per geometry, from
 * elements/filter/bounds.h. The host loops over geometries; the GPU launches
 * cuda/launch_bounds.cu, which runs the same element code.
 */
#include "stages/stages.h"

#include "elements/filter/bounds.h"

#ifdef VSGPU_HAVE_CUDA
#include "filter/launch_bounds.h"
#endif

vsg_status vsg_stage_bounds(vsg_exec *x, const vsg_col_view *v, double *boxes)
{
    vsg_status st = VSG_OK;
    vsg_exec_stage_begin(x, "bounds");
    st = vsg_exec_launch(x, "bounds");
    if (st != VSG_OK) {
        /* the launch failed: nothing ran */
    } else if (vsg_exec_kind_of(x) == VSG_EXEC_GPU) {
#ifdef VSGPU_HAVE_CUDA
        st = vsg_launch_bounds(vsg_exec_gpu(x), v, boxes);
#else
        st = VSG_ERR_NO_GPU;
#endif
    } else {
        for (int64_t g = 0; g < v->n_geoms; g++)
            vsg_bounds_geom(v, g, boxes);
    }
    vsg_exec_stage_end(x, v->n_geoms, v->n_geoms);
    return st;
}
