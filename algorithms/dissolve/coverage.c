/*
 * coverage.c - the coverage phase of dissolve: for polygon groups of more
 * than one chunk, coverage unions of a few chunks as cheap probes, then,
 * where they all pass, of the whole group in one task. A coverage union is
 * linear in the input and its result is only the group's outline, so one
 * task per group is faster than any split. What the probes found also
 * decides whether the chunk unions of a group not done here try coverage
 * union first (see vsg_dissolve_coverage_phase).
 */
#include <stdlib.h>
#include <string.h>

#include "dissolve/dissolve_internal.h"

#include "core/fault.h"
#include "dissolve/union_step.h"

/* A collection of clones of members [first, first + n) of one kind:
 * repaired (MakeValid output) or not. The attempt must not consume the
 * members, which the unary path needs if it fails (GEOS 3.11 cannot take
 * parts back out of a collection). *count: how many were taken. */
static GEOSGeometry *clone_members(vsg_worker *w, dissolve_t *d, size_t first, size_t n,
                                   int repaired, size_t *count, int *nomem)
{
    GEOSGeometry **c = vsg_malloc((n ? n : 1) * sizeof *c);
    *count = 0;
    if (!c) {
        *nomem = 1;
        return NULL;
    }
    size_t k = 0;
    int ok = 1;
    for (size_t i = 0; i < n && ok; i++) {
        const vsg_read_result *in = &d->b.in[d->members[first + i]];
        if (in->repaired != repaired)
            continue;
        ok = (c[k] = GEOSGeom_clone_r(w->ctx, in->geom)) != NULL;
        k += ok;
    }
    GEOSGeometry *coll = ok ? GEOSGeom_createCollection_r(w->ctx, GEOS_GEOMETRYCOLLECTION, c,
                                                          (unsigned)k)
                            : NULL;
    if (!coll)
        for (size_t q = 0; q < k; q++)
            GEOSGeom_destroy_r(w->ctx, c[q]);
    free(c);
    *count = coll ? k : 0;
    return coll;
}

/* The coverage union of the members [first, first + n) that were not
 * repaired, with the repaired ones, if any, unioned in afterwards. A
 * repaired polygon (MakeValid's output) need not share its neighbours'
 * vertices, so it would make the whole coverage union fail; kept apart, it
 * costs one small union and one merge instead of sending the group to the
 * unary union. NULL: not a coverage (or GEOS failed): the caller takes the
 * unary path; or, with *nomem set, one of our allocations failed: an error,
 * not a property of the data (taking the other path would make the output
 * depend on memory). */
static GEOSGeometry *coverage_of_members(vsg_worker *w, dissolve_t *d, size_t first, size_t n,
                                         int *nomem)
{
    size_t n_clean = 0, n_repaired = 0;
    *nomem = 0;
    GEOSGeometry *clean = clone_members(w, d, first, n, 0, &n_clean, nomem);
    GEOSGeometry *u = clean && n_clean >= 2 ? vsg_coverage_union_checked(w, clean) : NULL;
    if (clean)
        GEOSGeom_destroy_r(w->ctx, clean);
    if (!u || n_clean == n)
        return u;
    GEOSGeometry *rep = clone_members(w, d, first, n, 1, &n_repaired, nomem);
    GEOSGeometry *r = rep ? vsg_worker_unary_union(w, -1, rep) : NULL;
    vsg_worker_clear_message(w);
    GEOSGeometry *all = r ? vsg_union_two_polygonal(w, u, r) : NULL;
    if (r && !all && !w->has_geos_msg)
        *nomem = 1;   /* GEOS reports its failures; none: an allocation */
    if (rep)
        GEOSGeom_destroy_r(w->ctx, rep);
    if (r)
        GEOSGeom_destroy_r(w->ctx, r);
    GEOSGeom_destroy_r(w->ctx, u);
    return all;
}

/* At most this many chunks of a group, spread evenly over it, are probed. */
#define VSG_COVERAGE_PROBES 5

/* One task of a pass: a whole group, or one probed chunk of a group. */
typedef struct {
    int64_t group;
    size_t first_chunk, n_chunks;
} coverage_job;

typedef struct {
    dissolve_t *d;
    const coverage_job *jobs;
    int whole;               /* 1: a success is the group's result */
    unsigned char *passed;   /* per job */
} coverage_pass;

static void coverage_task(void *vp, size_t t, int wid)
{
    coverage_pass *p = vp;
    dissolve_t *d = p->d;
    const coverage_job *job = &p->jobs[t];
    group_t *g = &d->groups[job->group];
    if (vsg_dissolve_stopped(d))
        return;   /* not passed: nothing is taken from the group */
    vsg_worker *w = &d->b.e->workers[wid];
    const chunk_t *c0 = &d->chunks[job->first_chunk];
    size_t n = 0;
    for (size_t k = 0; k < job->n_chunks; k++)
        n += d->chunks[job->first_chunk + k].count;
    int nomem = 0;
    GEOSGeometry *u = coverage_of_members(w, d, c0->first, n, &nomem);
    if (nomem)
        vsg_failure_record(&d->b.failure, (int64_t)t, VSG_ERR_NOMEM, -1, -1,
                           "group #%lld: coverage union: out of memory", (long long)job->group);
    p->passed[t] = u != NULL;
    if (!u || !p->whole) {
        if (u)
            GEOSGeom_destroy_r(w->ctx, u);
        vsg_dissolve_progress(d, wid);
        return;
    }
    /* Done: the union is the group's result; its members are not needed. */
    g->partials[0] = u;
    g->n_partials = 1;
    for (size_t k = 0; k < n; k++) {
        vsg_read_result *in = &d->b.in[d->members[c0->first + k]];
        GEOSGeom_destroy_r(w->ctx, in->geom);
        in->geom = NULL;
    }
    vsg_dissolve_group_finished(d);
    vsg_dissolve_progress(d, wid);
}

/* One pass of coverage tasks; an allocation failure in any of them fails
 * the statement (task indexes restart per pass, as the failure record's). */
static vsg_status run_pass(dissolve_t *d, coverage_pass *p, size_t n)
{
    vsg_failure_destroy(&d->b.failure);
    vsg_failure_init(&d->b.failure);
    vsg_pool_run(d->b.e->pool, n, coverage_task, p);
    return vsg_engine_take_failure(d->b.e, &d->b.failure);
}

/* Probes in two stages, so that the common cases cost one chunk:
 *  1. the group's first chunk. Passed: the whole group is tried at once;
 *     if that fails, the group is still mostly a coverage (real layers
 *     often are, but for a seam somewhere: two sources meeting without
 *     shared vertices), so its chunk unions try coverage union first, each
 *     falling back on its own.
 *  2. failed: up to VSG_COVERAGE_PROBES - 1 more chunks, spread evenly. If
 *     most of all probes pass, the chunk unions try coverage union first;
 *     otherwise it is not a coverage and they go straight to the unary
 *     union, since a failed attempt costs about as much as the union.
 * The choices depend on the data only, never on the thread count. */
vsg_status vsg_dissolve_coverage_phase(dissolve_t *d)
{
    double t0 = vsg_now_s();
    size_t cap = (size_t)d->n_groups * VSG_COVERAGE_PROBES + 1;
    coverage_job *jobs = vsg_malloc(cap * sizeof *jobs);
    unsigned char *passed = vsg_calloc(cap, 1);
    if (!jobs || !passed) {
        free(jobs);
        free(passed);
        return vsg_engine_fail(d->b.e, VSG_ERR_NOMEM, -1, -1, "out of memory");
    }
    /* Stage 1: the first chunk of every polygon group of several chunks. */
    size_t n = 0;
    for (int64_t g = 0; g < d->n_groups; g++) {
        group_t *gr = &d->groups[g];
        if (gr->done)
            continue;   /* settled by the group union */
        if (gr->fast_tried) {
            gr->coverage_ok = 0;   /* proven no coverage: unary unions */
            continue;
        }
        if (gr->n_chunks > 1 && d->dim == 2)
            jobs[n++] = (coverage_job){g, gr->first_chunk, 1};
        else if (gr->n_chunks > 1)
            gr->coverage_ok = 0;
    }
    coverage_pass p = {d, jobs, 0, passed};
    vsg_status st = run_pass(d, &p, n);
    if (st != VSG_OK)
        goto done;

    /* Passed: a whole-group job (front of jobs). Failed: stage-2 probes
     * (back of jobs, counted down from cap). */
    size_t m = 0, back = cap;
    for (size_t t = 0; t < n; t++) {
        int64_t g = jobs[t].group;
        group_t *gr = &d->groups[g];
        if (passed[t]) {
            jobs[m++] = (coverage_job){g, gr->first_chunk, gr->n_chunks};
            continue;
        }
        size_t probes = gr->n_chunks < VSG_COVERAGE_PROBES ? gr->n_chunks : VSG_COVERAGE_PROBES;
        for (size_t k = 1; k < probes; k++)
            jobs[--back] = (coverage_job){g, gr->first_chunk + k * (gr->n_chunks - 1) / (probes - 1), 1};
        gr->coverage_ok = 0;
    }
    /* Stage 2, then the tally: most of the probes, the first included,
     * passed -> the chunks try coverage union. */
    memset(passed, 0, cap);
    p.jobs = jobs + back;
    if ((st = run_pass(d, &p, cap - back)) != VSG_OK)
        goto done;
    for (size_t t = back; t < cap;) {
        int64_t g = jobs[t].group;
        size_t probes = 1, ok = 0;
        for (; t < cap && jobs[t].group == g; t++, probes++)
            ok += passed[t - back];
        d->groups[g].coverage_ok = 2 * ok > probes;
    }

    /* Whole groups: a success is the group's result. */
    memset(passed, 0, m);
    p.jobs = jobs;
    p.whole = 1;
    if ((st = run_pass(d, &p, m)) != VSG_OK)
        goto done;
    int64_t accepted = 0;
    for (size_t t = 0; t < m; t++) {
        if (passed[t]) {
            group_t *gr = &d->groups[jobs[t].group];
            gr->done = 1;
            gr->steps = 1;
            accepted++;
        }
    }
    vsg_profile_add(d->b.e->profile, "coverage_union", "CPU", vsg_now_s() - t0, (int64_t)n,
                    accepted, 0, 0, 0);
done:
    free(jobs);
    free(passed);
    return st;
}
