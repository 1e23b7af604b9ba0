/*
 * fast_groups.c - dissolve's first union stage: whole groups handed to the
 * group union given by the route (dissolve/group_union.h; the GPU
 * pipeline's exact coverage union), before any GEOS work. The groups it
 * settles are done; the rest (overlaps, members inside members, shapes
 * whose rings would touch themselves, Z, curves) go on to the GEOS stages
 * (coverage.c, levels.c) as before.
 *
 * What a group union reads is each member's input WKB, or for a member
 * the reader repaired, the repair (MakeValid's output, which need not fit
 * its neighbours: then the union proves the group is no coverage and
 * hands it back). The union itself refuses unclosed rings (which the
 * reader closes), collections and Z.
 */
#include <stdlib.h>
#include <string.h>

#include "dissolve/dissolve_internal.h"

#include "core/fault.h"
#include "geometry/dimension.h"

/* Groups with a member read as a geometry. */
static unsigned char *offered_groups(const dissolve_t *d)
{
    unsigned char *offer = vsg_calloc((size_t)d->n_groups + 1, 1);
    if (!offer)
        return NULL;
    for (size_t i = 0; i < d->b.n; i++)
        if (d->b.in[i].outcome == VSG_READ_GEOM)
            offer[d->group_of[i]] = 1;
    return offer;
}

/* The WKB the group union reads for member i: the input's, or, for a
 * member the reader repaired, MakeValid's output (type-filtered), written
 * here into *own (freed by the caller). */
static vsg_status member_wkb(dissolve_t *d, size_t i, const unsigned char **wkb, size_t *size,
                             unsigned char **own)
{
    const vsg_read_result *in = &d->b.in[i];
    *own = NULL;
    if (in->outcome != VSG_READ_GEOM || !in->repaired) {
        *wkb = d->b.input->wkb[i];
        *size = d->b.input->size[i];
        return VSG_OK;
    }
    vsg_worker *w = &d->b.e->workers[0];
    vsg_status st = vsg_geom_to_wkb(w, in->geom, own, size);
    if (st != VSG_OK)
        return vsg_engine_fail(d->b.e, st, (int64_t)i, -1, "input feature #%zu: %s", i,
                               st == VSG_ERR_NOMEM ? "out of memory" : vsg_worker_take_message(w));
    *wkb = *own;
    return VSG_OK;
}

/* One group settled: its WKB is the result; the GEOS stages skip it. */
static void take_group(dissolve_t *d, int64_t g, unsigned char *wkb, size_t size)
{
    group_t *gr = &d->groups[g];
    gr->wkb = wkb;
    gr->size = size;
    gr->done = 1;
    gr->fast = 1;
    gr->steps = 1;
    gr->coverage_ok = 1;
    vsg_dissolve_group_finished(d);
}

vsg_status vsg_dissolve_fast_groups(dissolve_t *d, vsg_group_union_fn fast)
{
    vsg_engine *e = d->b.e;
    if (!fast || d->dim != 2 || d->n_groups == 0)
        return VSG_OK;
    size_t G = (size_t)d->n_groups, cap = d->b.n ? d->b.n : 1;
    unsigned char *offer = offered_groups(d);
    const unsigned char **wkb = vsg_malloc(cap * sizeof *wkb);
    size_t *size = vsg_malloc(cap * sizeof *size);
    int64_t *group_of = vsg_malloc(cap * sizeof *group_of);
    unsigned char **own = vsg_calloc(cap, sizeof *own);
    vsg_group_union_out o = {vsg_calloc(G, 1), vsg_calloc(G, sizeof(unsigned char *)),
                             vsg_calloc(G, sizeof(size_t))};
    vsg_status st = VSG_OK;
    if (!offer || !wkb || !size || !group_of || !own || !o.ok || !o.wkb || !o.size) {
        st = vsg_engine_fail(e, VSG_ERR_NOMEM, -1, -1, "out of memory");
        goto done;
    }
    /* the offered groups' members, in input order (empties included: they
     * contribute nothing, as in GEOS) */
    size_t n = 0;
    for (size_t i = 0; i < d->b.n; i++) {
        vsg_read_outcome oc = d->b.in[i].outcome;
        if (!offer[d->group_of[i]] || (oc != VSG_READ_GEOM && oc != VSG_READ_EMPTY))
            continue;
        if ((st = member_wkb(d, i, &wkb[n], &size[n], &own[n])) != VSG_OK)
            goto done;
        group_of[n++] = d->group_of[i];
    }
    if (n == 0)
        goto done;
    vsg_wkb_array members = {n, wkb, size};
    st = fast(e, &members, group_of, d->n_groups, &o);
    for (size_t g = 0; g < G && st == VSG_OK; g++)
        if (o.ok[g] && offer[g]) {
            take_group(d, (int64_t)g, o.wkb[g], o.size[g]);
            o.wkb[g] = NULL;
        }
done:
    for (size_t g = 0; o.wkb && g < G; g++)
        free(o.wkb[g]);
    free(o.ok);
    free(o.wkb);
    free(o.size);
    for (size_t i = 0; own && i < cap; i++)
        free(own[i]);
    free(own);
    free(offer);
    free(wkb);
    free(size);
    free(group_of);
    return st;
}
