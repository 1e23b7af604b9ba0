/*
 * by_index.c - see by_index.h.
 */
#include "overlay/by_index.h"

#include <string.h>

#include "geometry/wkb_form.h"

vsg_status vsg_overlay_by_index(vsg_engine *e, const vsg_method_index *idx,
                                const vsg_wkb_array *input, vsg_result *out,
                                vsg_task_fn refine, vsg_candidate_finder finder)
{
    if (!e || !idx || !out)
        return e ? vsg_engine_fail(e, VSG_ERR_INVALID_ARG, -1, -1, "NULL argument")
                 : VSG_ERR_INVALID_ARG;
    vsg_engine_begin_call(e);
    vsg_result_clear(out);
    if (idx->n_workers < e->n_threads)
        return vsg_engine_fail(e, VSG_ERR_INVALID_ARG, -1, -1,
                               "method index built by an engine with fewer threads");
    vsg_batch b;
    vsg_status st = vsg_batch_init(&b, e, input);
    if (st != VSG_OK)
        return st;

    vsg_id_list *cands = NULL;
    vsg_pair_hints hints;
    memset(&hints, 0, sizeof hints);
    int on_gpu = 0;
    /* Rows the GPU's validity screen proves valid stay unparsed: the GPU
     * pipeline reads their WKB, and GEOS parses only the rows a pair of
     * which it must work on (vsg_subject_geom). */
    b.defer_parse = 1;
    st = vsg_batch_read(&b);
    if (st == VSG_OK && finder)
        st = finder(&b, idx, &cands, &hints, &on_gpu);
    if (st == VSG_OK && !on_gpu)
        st = vsg_candidates_find(&b, idx, &cands);
    if (st == VSG_OK) {
        vsg_refine_ctx c = {&b, idx, cands, on_gpu ? &hints : NULL};
        st = vsg_batch_stage(&b, "refine", refine, &c, vsg_batch_count_outputs);
    }
    vsg_candidates_free(cands, b.n);
    vsg_pair_hints_free(&hints);
    return vsg_batch_finish(&b, st, out);
}

vsg_status vsg_refine_push_covered(const vsg_refine_ctx *c, const vsg_subject *s, size_t i,
                                   size_t j, int64_t out_index, int *pushed)
{
    *pushed = 0;
    if (!s->in->deferred || c->idx->dims[j] != 2)
        return VSG_OK;
    unsigned char *wkb;
    size_t size;
    vsg_status st = vsg_wkb_overlay_copy(s->wkb, s->in->wkb_bytes,
                                         c->b->e->opts.promote_to_multi, &wkb, &size);
    if (st != VSG_OK || !wkb)
        return st;
    *pushed = 1;
    return vsg_out_push_wkb(&c->b->outs[i], out_index, wkb, size);
}
