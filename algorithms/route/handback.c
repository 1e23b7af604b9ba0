/*
 * handback.c - see handback.h.
 */
#include "route/handback.h"

#include "core/fault.h"

#include <stdlib.h>
#include <string.h>

#include "core/result.h"
#include "pipeline/state.h"

/* The handed-back rows as a sub-array, and the batch row of each. */
static vsg_status subset(const vsg_wkb_array *input, const vsg_pipeline_out *p,
                         const unsigned char ***wkb, size_t **size, int64_t **rows)
{
    size_t n = (size_t)p->n_handed_back;
    *wkb = vsg_malloc((n ? n : 1) * sizeof **wkb);
    *size = vsg_malloc((n ? n : 1) * sizeof **size);
    *rows = vsg_malloc((n ? n : 1) * sizeof **rows);
    if (!*wkb || !*size || !*rows)
        return VSG_ERR_NOMEM;
    size_t k = 0;
    for (size_t i = 0; i < input->count && k < n; i++) {
        if (!p->handed_back[i])
            continue;
        (*wkb)[k] = input->wkb[i];
        (*size)[k] = input->size[i];
        (*rows)[k++] = (int64_t)i;
    }
    return VSG_OK;
}

/* Settled rows and CPU rows (input_index relative to rows[]) into out, in
 * input order; takes every buffer. */
static vsg_status merge(size_t n, vsg_result *settled, vsg_result *cpu, const int64_t *rows,
                        vsg_result *out)
{
    if (vsg_result_reserve(out, settled->count + cpu->count) != VSG_OK)
        return VSG_ERR_NOMEM;
    size_t s = 0, k = 0;
    for (size_t i = 0; i < n; i++) {
        for (; s < settled->count && settled->input_index[s] == (int64_t)i; s++) {
            vsg_result_push(out, (int64_t)i, settled->method_index[s], settled->wkb[s],
                            settled->size[s]);
            settled->wkb[s] = NULL;
        }
        for (; k < cpu->count && rows[cpu->input_index[k]] == (int64_t)i; k++) {
            vsg_result_push(out, (int64_t)i, cpu->method_index[k], cpu->wkb[k], cpu->size[k]);
            cpu->wkb[k] = NULL;
        }
    }
    return VSG_OK;
}

static void add_counts(vsg_counts *t, const vsg_counts *c)
{
    t->input_rows += c->input_rows;
    t->null_geometries += c->null_geometries;
    t->empty_geometries += c->empty_geometries;
    t->candidate_pairs += c->candidate_pairs;
    t->gpu_rows += c->gpu_rows;
    t->output_rows += c->output_rows;
}

vsg_status vsg_handback(vsg_engine *e, const vsg_wkb_array *input, vsg_pipeline_out *p,
                        vsg_cpu_batch_fn cpu, const void *arg, vsg_result *out)
{
    vsg_result cpu_out;
    vsg_result_init(&cpu_out);
    const unsigned char **wkb = NULL;
    size_t *size = NULL;
    int64_t *rows = NULL;
    vsg_status st = VSG_OK;
    add_counts(&e->counts, &p->counts);
    if (p->n_handed_back > 0) {
        vsg_gpu_note_rerun(e, p->n_handed_back, p->why);
        st = subset(input, p, &wkb, &size, &rows);
        if (st != VSG_OK) {
            st = vsg_engine_fail(e, st, -1, -1, "out of memory");
        } else {
            vsg_wkb_array sub = {(size_t)p->n_handed_back, wkb, size};
            st = cpu(e, arg, &sub, &cpu_out);
            if (st != VSG_OK && e->error_input_index >= 0 &&
                e->error_input_index < p->n_handed_back)
                e->error_input_index = rows[e->error_input_index];   /* batch row */
        }
    }
    vsg_result_clear(out);
    if (st == VSG_OK && merge(input->count, &p->settled, &cpu_out, rows, out) != VSG_OK)
        st = vsg_engine_fail(e, VSG_ERR_NOMEM, -1, -1, "out of memory");
    if (st != VSG_OK)
        vsg_result_clear(out);
    vsg_result_clear(&cpu_out);
    free(wkb);
    free(size);
    free(rows);
    vsg_pipeline_out_clear(p);
    return st;
}
