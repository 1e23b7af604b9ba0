/*
 * engine.c - the engine's life cycle and its counters; its error state is
 * in core/errors.c.
 * The operations live in overlay/ and dissolve/.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine_internal.h"
#include "core/options.h"
#include "core/profile.h"
#include "pipeline/screen.h"
#include "pipeline/state.h"

vsg_status vsg_engine_create(const vsg_engine_options *opts, vsg_engine **out)
{
    if (!out)
        return VSG_ERR_INVALID_ARG;
    *out = NULL;
    vsg_engine_options o;
    if (opts)
        o = *opts;
    else
        vsg_engine_options_init(&o);
    if (vsg_engine_options_check(&o) != VSG_OK)
        return VSG_ERR_INVALID_ARG;

    vsg_engine *e = calloc(1, sizeof *e);
    if (!e)
        return VSG_ERR_NOMEM;
    e->opts = o;
    e->n_threads = vsg_resolve_num_threads(o.num_threads);
    e->opts.num_threads = e->n_threads;
    e->error_input_index = -1;
    e->error_method_index = -1;

    vsg_status st = VSG_ERR_NOMEM;
    e->workers = calloc((size_t)e->n_threads, sizeof *e->workers);
    e->profile = vsg_profile_create();
    if (!e->workers || !e->profile)
        goto fail;
    for (int i = 0; i < e->n_threads; i++)
        if ((st = vsg_worker_init(&e->workers[i])) != VSG_OK)
            goto fail;
    if ((st = vsg_pool_create(e->n_threads, &e->pool)) != VSG_OK)
        goto fail;
    vsg_gpu_prestart(e);
    e->valid_screen = vsg_pipeline_valid_screen;
    *out = e;
    return VSG_OK;
fail:
    vsg_engine_destroy(e);
    return st;
}

void vsg_engine_destroy(vsg_engine *e)
{
    if (!e)
        return;
    vsg_gpu_state_destroy(e);
    vsg_pool_destroy(e->pool);
    if (e->workers)
        for (int i = 0; i < e->n_threads; i++)
            vsg_worker_destroy(&e->workers[i]);
    free(e->workers);
    vsg_profile_destroy(e->profile);
    free(e);
}

const vsg_counts *vsg_engine_counts(const vsg_engine *e)
{
    return e ? &e->counts : NULL;
}

vsg_profile *vsg_engine_profile(vsg_engine *e)
{
    return e ? e->profile : NULL;
}

int vsg_engine_num_threads(const vsg_engine *e)
{
    return e ? e->n_threads : 0;
}

void vsg_engine_parallel(vsg_engine *e, size_t n_tasks,
                         void (*fn)(void *ctx, size_t task, int worker), void *ctx)
{
    vsg_pool_run(e->pool, n_tasks, fn, ctx);
}

void vsg_engine_set_progress(vsg_engine *e, vsg_progress_fn fn, void *data)
{
    if (!e)
        return;
    e->progress_fn = fn;
    e->progress_data = data;
}

void vsg_engine_collect_counts(vsg_engine *e)
{
    for (int w = 0; w < e->n_threads; w++) {
        const vsg_counts *c = &e->workers[w].counts;
        vsg_counts *t = &e->counts;
        t->null_geometries += c->null_geometries;
        t->empty_geometries += c->empty_geometries;
        t->invalid_repaired += c->invalid_repaired;
        t->invalid_skipped += c->invalid_skipped;
        t->rings_closed += c->rings_closed;
        t->corrupt_skipped += c->corrupt_skipped;
        t->unsupported_skipped += c->unsupported_skipped;
        t->nonfinite_skipped += c->nonfinite_skipped;
        t->failures_skipped += c->failures_skipped;
        t->lower_dim_dropped += c->lower_dim_dropped;
        t->type_skipped += c->type_skipped;
        t->candidate_pairs += c->candidate_pairs;
        t->contained_shortcuts += c->contained_shortcuts;
        t->coverage_union_groups += c->coverage_union_groups;
        t->unary_union_groups += c->unary_union_groups;
        /* input_rows, method_rows and output_rows are counted by the
         * orchestrators, not per worker. */
        memset(&e->workers[w].counts, 0, sizeof e->workers[w].counts);
    }
}
