/*
 * by_index.h - the pipeline that intersection and clip by a layer share:
 * read -> candidates -> refine -> encode -> assemble. Only the refine task
 * differs between them; it receives a vsg_refine_ctx.
 */
#ifndef VSG_OVERLAY_BY_INDEX_H
#define VSG_OVERLAY_BY_INDEX_H

#include "overlay/batch.h"
#include "overlay/candidates.h"
#include "overlay/method_index.h"
#include "overlay/relate.h"

typedef struct {
    vsg_batch *b;
    const vsg_method_index *idx;
    const vsg_id_list *cands;    /* b->n lists, ascending method ids */
    const vsg_pair_hints *hints; /* GPU classes of the pairs, or NULL   */
} vsg_refine_ctx;

/* The refine of input row i begins here: its worker, and the row as the
 * subject of its pairs; 0 when the row takes part in nothing (not read as
 * a geometry, or already failed). */
static inline int vsg_refine_begin(const vsg_refine_ctx *c, size_t i, int wid,
                                   vsg_worker **w, vsg_subject *s)
{
    vsg_read_result *in = &c->b->in[i];
    if (in->outcome != VSG_READ_GEOM || vsg_failure_skip(&c->b->failure, (int64_t)i))
        return 0;
    *w = &c->b->e->workers[wid];
    s->in = in;
    s->wkb = c->b->input->wkb[i];
    s->prep = NULL;
    s->row = (int64_t)i;
    return 1;
}

/* The GPU class of pair (i, k-th candidate), -1 when there is none. */
static inline int vsg_refine_hint(const vsg_refine_ctx *c, size_t i, size_t k)
{
    return c->hints ? (int)c->hints->flat[c->hints->off[i] + (int64_t)k] : -1;
}

/* What the GPU refine settled for pair (i, k-th candidate): a
 * VSG_HINT_GPU_* value; *row: its row of hints->gpu_out. */
static inline int vsg_refine_gpu(const vsg_refine_ctx *c, size_t i, size_t k, int64_t *row)
{
    if (!c->hints || !c->hints->gpu)
        return VSG_HINT_GPU_NONE;
    int64_t q = c->hints->off[i] + (int64_t)k;
    *row = c->hints->gpu_row[q];
    return c->hints->gpu[q];
}

/* Where input row i (its subject s) is unparsed and method polygon j, of
 * dimension 2, covers it, its own bytes are the result (the overlay form,
 * geometry/wkb_form.h): pushed to the row's outputs under out_index (j,
 * or -1 for clip), *pushed = 1; *pushed = 0 where GEOS must make the
 * copy. VSG_ERR_NOMEM or VSG_OK. */
vsg_status vsg_refine_push_covered(const vsg_refine_ctx *c, const vsg_subject *s, size_t i,
                                   size_t j, int64_t out_index, int *pushed);

/* Runs the pipeline over one batch with the operation's refine task (called
 * once per input i with a vsg_refine_ctx). finder: a candidate search to
 * try first (the route passes the GPU pipeline's), NULL for the STR tree
 * alone. out holds the batch's results on success and nothing on failure
 * (the engine's last error is set). */
vsg_status vsg_overlay_by_index(vsg_engine *e, const vsg_method_index *idx,
                                const vsg_wkb_array *input, vsg_result *out,
                                vsg_task_fn refine, vsg_candidate_finder finder);

/* The refine tasks of intersection (intersection.c) and clip (clip.c). */
void vsg_intersection_refine(void *ctx, size_t i, int wid);
void vsg_clip_refine(void *ctx, size_t i, int wid);

#endif
