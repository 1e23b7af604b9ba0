/*
 * coverage.c - the coverage phase of dissolve: for polygon groups of more
 * than one chunk, a coverage union of the first chunk as a cheap probe,
 * then, where it was accepted, of the whole group in one task. A coverage
 * union is linear in the input and its result is only the group's
 * outline, so one task per group is faster than any split; a group that
 * fails either attempt goes to the chunked unary path with no further
 * coverage attempts (a failed attempt costs about as much as a union).
 */
#include <stdlib.h>
#include <string.h>

#include "dissolve/dissolve_internal.h"
#include "dissolve/union_step.h"

/* A collection of clones of members [first, first + n): the attempt must
 * not consume the members, which the unary path needs if it fails (GEOS
 * 3.11 cannot take parts back out of a collection). */
static GEOSGeometry *clone_members(vsg_worker *w, dissolve_t *d, size_t first, size_t n)
{
    GEOSGeometry **c = malloc((n ? n : 1) * sizeof *c);
    if (!c)
        return NULL;
    size_t k = 0;
    for (; k < n; k++)
        if (!(c[k] = GEOSGeom_clone_r(w->ctx, d->b.in[d->members[first + k]].geom)))
            break;
    GEOSGeometry *coll = k == n ? GEOSGeom_createCollection_r(w->ctx, GEOS_GEOMETRYCOLLECTION, c,
                                                              (unsigned)n)
                                : NULL;
    if (!coll)
        for (size_t q = 0; q < k; q++)
            GEOSGeom_destroy_r(w->ctx, c[q]);
    free(c);
    return coll;
}

typedef struct {
    dissolve_t *d;
    const int64_t *groups;   /* the groups this pass works on */
    int whole;               /* 0: probe the first chunk; 1: whole group */
    unsigned char *passed;   /* per entry of groups */
} coverage_pass;

static void coverage_task(void *vp, size_t t, int wid)
{
    coverage_pass *p = vp;
    dissolve_t *d = p->d;
    group_t *g = &d->groups[p->groups[t]];
    vsg_worker *w = &d->b.e->workers[wid];
    const chunk_t *c0 = &d->chunks[g->first_chunk];
    size_t n = 0;
    for (size_t k = 0; k < (p->whole ? g->n_chunks : 1); k++)
        n += d->chunks[g->first_chunk + k].count;
    GEOSGeometry *coll = clone_members(w, d, c0->first, n);
    GEOSGeometry *u = coll ? vsg_coverage_union_checked(w, coll) : NULL;
    if (coll)
        GEOSGeom_destroy_r(w->ctx, coll);
    p->passed[t] = u != NULL;
    if (!u)
        return;
    if (!p->whole) {
        GEOSGeom_destroy_r(w->ctx, u);
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
}

vsg_status vsg_dissolve_coverage_phase(dissolve_t *d)
{
    double t0 = vsg_now_s();
    int64_t *groups = malloc(((size_t)d->n_groups + 1) * sizeof *groups);
    unsigned char *passed = calloc((size_t)d->n_groups + 1, 1);
    if (!groups || !passed) {
        free(groups);
        free(passed);
        return vsg_engine_fail(d->b.e, VSG_ERR_NOMEM, -1, -1, "out of memory");
    }
    size_t n = 0;
    for (int64_t g = 0; g < d->n_groups; g++) {
        if (d->groups[g].n_chunks > 1 && d->dim == 2)
            groups[n++] = g;
        else if (d->groups[g].n_chunks > 1)
            d->groups[g].coverage_ok = 0;
    }
    coverage_pass p = {d, groups, 0, passed};
    vsg_pool_run(d->b.e->pool, n, coverage_task, &p);      /* probe */
    size_t m = 0;
    for (size_t t = 0; t < n; t++) {
        if (passed[t])
            groups[m++] = groups[t];
        else
            d->groups[groups[t]].coverage_ok = 0;
    }
    memset(passed, 0, m);
    p.whole = 1;
    vsg_pool_run(d->b.e->pool, m, coverage_task, &p);      /* whole groups */
    int64_t accepted = 0;
    for (size_t t = 0; t < m; t++) {
        group_t *g = &d->groups[groups[t]];
        if (passed[t]) {
            g->done = 1;
            g->steps = 1;
            accepted++;
        } else {
            g->coverage_ok = 0;
        }
    }
    vsg_profile_add(d->b.e->profile, "coverage_union", "CPU", vsg_now_s() - t0, (int64_t)n,
                    accepted, 0, 0, 0);
    free(groups);
    free(passed);
    return VSG_OK;
}
