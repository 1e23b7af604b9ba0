/*
 * candidates.c - see candidates.h.
 */
#include "candidates.h"

#include "core/fault.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    vsg_batch *b;
    const vsg_method_index *idx;
    vsg_id_list *lists;
} cand_ctx;

static void cand_task(void *vc, size_t i, int wid)
{
    cand_ctx *c = vc;
    const vsg_read_result *in = &c->b->in[i];
    if (in->outcome != VSG_READ_GEOM || vsg_failure_skip(&c->b->failure, (int64_t)i))
        return;
    if (vsg_strtree_query(c->idx->tree, in->box, &c->lists[i]) != VSG_OK) {
        vsg_failure_record(&c->b->failure, (int64_t)i, VSG_ERR_NOMEM, (int64_t)i, -1,
                           "out of memory");
        return;
    }
    c->b->e->workers[wid].counts.candidate_pairs += (int64_t)c->lists[i].n;
}


vsg_status vsg_candidates_find(vsg_batch *b, const vsg_method_index *idx,
                               vsg_id_list **lists)
{
    *lists = vsg_calloc(b->n ? b->n : 1, sizeof **lists);
    if (!*lists)
        return vsg_engine_fail(b->e, VSG_ERR_NOMEM, -1, -1, "out of memory");
    cand_ctx c = {b, idx, *lists};
    double t0 = vsg_now_s();
    vsg_pool_run(b->e->pool, b->n, cand_task, &c);
    vsg_status st = vsg_engine_take_failure(b->e, &b->failure);
    int64_t pairs = 0;
    for (size_t i = 0; i < b->n; i++)
        pairs += (int64_t)(*lists)[i].n;
    vsg_profile_add(b->e->profile, "candidates", "CPU", vsg_now_s() - t0, (int64_t)b->n,
                    pairs, 0, 0, 0);
    return st;
}

void vsg_candidates_free(vsg_id_list *lists, size_t n)
{
    if (!lists)
        return;
    for (size_t i = 0; i < n; i++)
        vsg_id_list_free(&lists[i]);
    free(lists);
}

void vsg_pair_hints_free(vsg_pair_hints *h)
{
    free(h->flat);
    free(h->off);
    free(h->gpu);
    free(h->gpu_row);
    vsg_columnar_free(&h->gpu_out);
    free(h->row_gpu);
    vsg_columnar_free(&h->row_out);
    memset(h, 0, sizeof *h);
}
