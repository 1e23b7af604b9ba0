/*
 * classify.c - the classify stage (stages/stages.h): for each candidate
 * pair, whether the refine can be skipped (elements/filter/classify.h). The host
 * loops over pairs; the GPU launches cuda/launch_classify.cu, which runs
 * the same element code, one thread per pair.
 */
#include "stages/stages.h"

#include "elements/filter/classify.h"

#ifdef VSGPU_HAVE_CUDA
#include "filter/launch_classify.h"
#endif

/* elements/filter/classify.h keeps its own names so that it needs no engine
 * header; they must be the stage's. */
_Static_assert((int)VSG_CLS_REFINE == (int)VSG_CLS_REFINE &&
                   (int)VSG_CLS_DISJOINT == (int)VSG_CLS_DISJOINT &&
                   (int)VSG_CLS_A_IN_B == (int)VSG_CLS_A_IN_B &&
                   (int)VSG_CLS_B_IN_A == (int)VSG_CLS_B_IN_A,
               "classify element and stage codes differ");

vsg_status vsg_stage_classify(vsg_exec *x, const vsg_col_view *a, const vsg_col_view *b,
                              const vsg_pairs *pairs, uint8_t *cls)
{
    vsg_status st = VSG_OK;
    vsg_exec_stage_begin(x, "classify");
    st = vsg_exec_launch(x, "classify");
    if (st != VSG_OK) {
        /* the launch failed: nothing ran */
    } else if (vsg_exec_kind_of(x) == VSG_EXEC_GPU) {
#ifdef VSGPU_HAVE_CUDA
        st = vsg_launch_classify(vsg_exec_gpu(x), a, b, pairs->a, pairs->b, pairs->n, cls);
#else
        st = VSG_ERR_NO_GPU;
#endif
    } else {
        for (int64_t k = 0; k < pairs->n; k++)
            cls[k] = (uint8_t)vsg_classify_pair(a, pairs->a[k], b, pairs->b[k]);
    }
    vsg_exec_stage_end(x, pairs->n, pairs->n);
    return st;
}
