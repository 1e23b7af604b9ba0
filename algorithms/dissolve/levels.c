/*
 * levels.c - the union levels of dissolve: every chunk of every group in
 * parallel, then pairwise merges of the partial results, level by level,
 * all groups at once. Each level's results are folded into the groups
 * after its barrier, in step order, which keeps the output independent of
 * the thread count.
 */
#include <stdlib.h>
#include <string.h>

#include "dissolve/dissolve_internal.h"

#include "core/fault.h"
#include "dissolve/union_step.h"

static void step_task(void *vd, size_t t, int wid)
{
    dissolve_t *d = vd;
    step_t *s = &d->steps[t];
    vsg_worker *w = &d->b.e->workers[wid];
    if (s->preset) {   /* made by the group union: passed on as it is */
        s->result = s->preset;
        s->preset = NULL;
        s->used_coverage = 1;
        if (s->last)
            vsg_dissolve_group_finished(d);
        vsg_dissolve_progress(d, wid);
        return;
    }
    if (vsg_failure_skip(&d->b.failure, (int64_t)t) || vsg_dissolve_stopped(d)) {
        for (size_t k = 0; k < s->n_parts; k++)
            GEOSGeom_destroy_r(w->ctx, s->parts[k]);
        s->n_parts = 0;
        return;
    }
    int try_cov = d->dim == 2 && d->groups[s->group].coverage_ok &&
                  s->n_parts >= VSG_COVERAGE_MIN_PARTS;
    vsg_worker_clear_message(w);
    vsg_status st = vsg_union_parts(w, s->parts, s->n_parts, d->dim == 2, try_cov, &s->result,
                                    &s->used_coverage);
    s->n_parts = 0;   /* taken, whatever happened */
    if (st != VSG_OK)
        vsg_failure_record(&d->b.failure, (int64_t)t, st, -1, -1, "group #%lld: union: %s",
                           (long long)s->group,
                           st == VSG_ERR_NOMEM ? "out of memory" : vsg_worker_take_message(w));
    if (s->last)
        vsg_dissolve_group_finished(d);
    vsg_dissolve_progress(d, wid);
}

/* Runs the steps of one level, then folds their outcome into the groups
 * (serially, after the barrier: this is what keeps decisions
 * deterministic). Results are appended to each group's partials in step
 * order. */
static vsg_status run_level(dissolve_t *d, step_t *steps, size_t n_steps, const char *stage)
{
    double t0 = vsg_now_s();
    d->steps = steps;
    d->n_steps = n_steps;
    vsg_failure_destroy(&d->b.failure);
    vsg_failure_init(&d->b.failure);   /* task indexes restart per level */
    vsg_pool_run(d->b.e->pool, n_steps, step_task, d);
    vsg_status st = vsg_engine_take_failure(d->b.e, &d->b.failure);

    for (size_t t = 0; t < n_steps; t++) {
        step_t *s = &steps[t];
        group_t *g = &d->groups[s->group];
        g->steps++;
        g->coverage_ok = g->coverage_ok && s->used_coverage;
        if (s->result)
            g->partials[g->n_partials++] = s->result;
        s->result = NULL;
    }
    vsg_profile_add(d->b.e->profile, stage, "CPU", vsg_now_s() - t0, (int64_t)n_steps,
                    (int64_t)n_steps, 0, 0, 0);
    return st;
}

vsg_status vsg_dissolve_union_chunks(dissolve_t *d)
{
    d->all_steps = vsg_calloc(d->n_chunks + 1, sizeof *d->all_steps);
    GEOSGeometry **slots = vsg_malloc((d->b.n ? d->b.n : 1) * sizeof *slots);
    if (!d->all_steps || !slots) {
        free(slots);
        return vsg_engine_fail(d->b.e, VSG_ERR_NOMEM, -1, -1, "out of memory");
    }
    /* Geometries move from the batch into the steps. */
    for (size_t c = 0; c < d->n_chunks; c++) {
        step_t *s = &d->all_steps[c];
        s->group = d->chunks[c].group;
        s->parts = slots + d->chunks[c].first;
        s->preset = d->chunk_partial ? d->chunk_partial[c] : NULL;
        if (d->chunk_partial)
            d->chunk_partial[c] = NULL;   /* the step owns it now */
        /* a preset chunk's members stay in the batch (freed with it) */
        int consumed = d->chunk_consumed && d->chunk_consumed[c];
        s->n_parts = d->groups[s->group].done || s->preset || consumed ? 0 : d->chunks[c].count;
        s->last = d->groups[s->group].n_chunks == 1;
        for (size_t k = 0; k < s->n_parts; k++) {
            int64_t i = d->members[d->chunks[c].first + k];
            s->parts[k] = d->b.in[i].geom;
            d->b.in[i].geom = NULL;
        }
    }
    /* Chunks of groups already dissolved by the coverage phase are
     * skipped; their members were freed there. */
    size_t n = 0;
    for (size_t c = 0; c < d->n_chunks; c++)
        if (!d->groups[d->chunks[c].group].done &&
            !(d->chunk_consumed && d->chunk_consumed[c]))
            d->all_steps[n++] = d->all_steps[c];
    vsg_status st = run_level(d, d->all_steps, n, "union");
    free(slots);
    return st;
}

vsg_status vsg_dissolve_merge_levels(dissolve_t *d)
{
    vsg_status st = VSG_OK;
    for (;;) {
        /* Pair the partials of every group: (0,1), (2,3), ...; an odd last
         * one goes up unchanged. */
        size_t n = 0;
        for (int64_t g = 0; g < d->n_groups; g++)
            n += d->groups[g].n_partials / 2;
        if (n == 0 || vsg_dissolve_stopped(d))
            break;
        /* Both arrays before any partial moves: a failure leaves every
         * partial with its group (freed by dissolve_free). */
        /* n_groups >= 1 here (a level has work); the bound also tells
         * the compiler the size cannot wrap. */
        size_t n_odd = d->n_groups > 0 ? (size_t)d->n_groups : 1;
        GEOSGeometry **pairs = vsg_malloc(2 * n * sizeof *pairs);
        GEOSGeometry **odd = vsg_calloc(n_odd, sizeof *odd);
        if (!pairs || !odd) {
            free(pairs);
            free(odd);
            return vsg_engine_fail(d->b.e, VSG_ERR_NOMEM, -1, -1, "out of memory");
        }
        size_t t = 0;
        for (int64_t g = 0; g < d->n_groups; g++) {
            group_t *gr = &d->groups[g];
            size_t np = gr->n_partials;
            for (size_t k = 0; k + 1 < np; k += 2) {
                step_t *s = &d->all_steps[t];
                s->group = g;
                s->parts = pairs + 2 * t;
                s->parts[0] = gr->partials[k];
                s->parts[1] = gr->partials[k + 1];
                s->n_parts = 2;
                s->result = NULL;
                s->preset = NULL;
                s->used_coverage = 0;
                s->last = np == 2;   /* one pair and no odd one left */
                gr->partials[k] = gr->partials[k + 1] = NULL;
                t++;
            }
        }
        /* Carry the odd ones: remember them before run_level refills. */
        for (int64_t g = 0; g < d->n_groups; g++) {
            group_t *gr = &d->groups[g];
            if (gr->n_partials % 2 == 1) {
                odd[g] = gr->partials[gr->n_partials - 1];
                gr->partials[gr->n_partials - 1] = NULL;
            }
        }
        for (int64_t g = 0; g < d->n_groups; g++)
            d->groups[g].n_partials = 0;   /* all taken into pairs or odd */
        st = run_level(d, d->all_steps, n, "merge");
        for (int64_t g = 0; g < d->n_groups; g++)
            if (odd[g])
                d->groups[g].partials[d->groups[g].n_partials++] = odd[g];
        free(odd);
        free(pairs);
        if (st != VSG_OK)
            break;
    }
    return st;
}
