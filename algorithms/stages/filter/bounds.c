/*
 * bounds.c - the bounds stage (stages/stages.h): one box per geometry, from
 * elements/filter/bounds.h ("the load-balanced bounds"): the coordinates
 * in blocks of VSG_BOUNDS_BLOCK, merged into per-geometry boxes by atomic
 * min/max, then one finishing pass per geometry. The host loops over the
 * same element functions; the GPU launches cuda/filter/launch_bounds.cu.
 */
#include "stages/stages.h"

#include "elements/filter/bounds.h"

#ifdef VSGPU_HAVE_CUDA
#include "filter/launch_bounds.h"
#endif

static vsg_status on_host(vsg_exec *x, const vsg_col_view *v, uint64_t *ord, double *boxes)
{
    for (int64_t g = 0; g < v->n_geoms; g++)
        vsg_bounds_ord_init(g, ord);
    int64_t blocks = (v->n_coords + VSG_BOUNDS_BLOCK - 1) / VSG_BOUNDS_BLOCK, most = 0;
    for (int64_t b = 0; b < blocks; b++) {
        int64_t w = vsg_bounds_block(v, b, ord);
        most = w > most ? w : most;
    }
    vsg_exec_note_work(x, most);
    for (int64_t g = 0; g < v->n_geoms; g++)
        vsg_bounds_finish(v, g, ord, boxes);
    return VSG_OK;
}

vsg_status vsg_stage_bounds(vsg_exec *x, const vsg_col_view *v, double *boxes)
{
    if (v->n_geoms <= 0)
        return VSG_OK;
    uint64_t *ord = NULL;
    vsg_exec_stage_begin(x, "bounds");
    vsg_status st = vsg_exec_alloc(x, (size_t)v->n_geoms * 4 * sizeof *ord, (void **)&ord);
    if (st == VSG_OK)
        st = vsg_exec_launch(x, "bounds");
    if (st == VSG_OK) {
        if (vsg_exec_kind_of(x) == VSG_EXEC_GPU) {
#ifdef VSGPU_HAVE_CUDA
            st = vsg_launch_bounds(vsg_exec_gpu(x), v, ord, boxes);
#else
            st = VSG_ERR_NO_GPU;
#endif
        } else {
            st = on_host(x, v, ord, boxes);
        }
    }
    vsg_exec_free(x, ord);
    vsg_exec_stage_end(x, v->n_geoms, v->n_geoms);
    return st;
}
