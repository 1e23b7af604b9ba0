/*
 * progress.c - progress of vsg_dissolve for the engine's progress callback
 * (vsg_engine_set_progress): the number of groups whose union is finished.
 *
 * Tasks on any thread bump an atomic count when they finish a group; only
 * the calling thread (pool worker 0, and the orchestrator between stages)
 * reads it and calls the callback, so the caller sees its callback on its
 * own thread, as GDAL's progress functions expect. Each group is counted
 * once: with no members (at plan), by its accepted whole-group coverage
 * union, or by the step whose result is its union (step_t.last). Skipped
 * failures can leave a group without such a step; the last checkpoint
 * reports every group, so the count still ends at n_groups.
 */
#include "dissolve/dissolve_internal.h"

void vsg_dissolve_group_finished(dissolve_t *d)
{
    atomic_fetch_add_explicit(&d->groups_done, 1, memory_order_relaxed);
}

int vsg_dissolve_stopped(dissolve_t *d)
{
    return atomic_load_explicit(&d->stop, memory_order_relaxed) != 0;
}

static void report(dissolve_t *d, int64_t done)
{
    vsg_engine *e = d->b.e;
    if (done > d->n_groups)
        done = d->n_groups;
    if (done <= d->groups_reported || vsg_dissolve_stopped(d))
        return;
    d->groups_reported = done;
    if (!e->progress_fn(done, d->n_groups, e->progress_data))
        atomic_store_explicit(&d->stop, 1, memory_order_relaxed);
}

void vsg_dissolve_progress(dissolve_t *d, int wid)
{
    if (wid != 0 || !d->b.e->progress_fn)
        return;
    report(d, atomic_load_explicit(&d->groups_done, memory_order_relaxed));
}

vsg_status vsg_dissolve_checkpoint(dissolve_t *d, int all)
{
    if (d->b.e->progress_fn)
        report(d, all ? d->n_groups
                      : atomic_load_explicit(&d->groups_done, memory_order_relaxed));
    if (vsg_dissolve_stopped(d))
        return vsg_engine_fail(d->b.e, VSG_ERR_INTERRUPTED, -1, -1,
                               "interrupted by the progress callback");
    return VSG_OK;
}
