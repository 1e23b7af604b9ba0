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

/* The repaired members' WKB, written once per statement (index: input
 * feature; NULL where the input's own WKB is read). */
typedef struct {
    unsigned char **wkb;
    size_t *size;
} repairs;

/* The WKB the group union reads for member i: the input's, or, for a
 * member the reader repaired, MakeValid's output (type-filtered), encoded
 * on first use and kept in r for the next pass. */
static vsg_status member_wkb(dissolve_t *d, size_t i, repairs *r, const unsigned char **wkb,
                             size_t *size)
{
    const vsg_read_result *in = &d->b.in[i];
    if (in->outcome != VSG_READ_GEOM || !in->repaired) {
        *wkb = d->b.input->wkb[i];
        *size = d->b.input->size[i];
        return VSG_OK;
    }
    if (!r->wkb[i]) {
        vsg_worker *w = &d->b.e->workers[0];
        vsg_status st = vsg_geom_to_wkb(w, in->geom, &r->wkb[i], &r->size[i]);
        if (st != VSG_OK)
            return vsg_engine_fail(d->b.e, st, (int64_t)i, -1, "input feature #%zu: %s", i,
                                   st == VSG_ERR_NOMEM ? "out of memory"
                                                       : vsg_worker_take_message(w));
    }
    *wkb = r->wkb[i];
    *size = r->size[i];
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

/* One call of the group union over the members whose "group" is key[i]
 * (keys in [0, n_keys)); in_key[i] < 0 leaves member i out. out's
 * arrays hold n_keys entries. */
static vsg_status call_union(dissolve_t *d, vsg_group_union_fn fast, repairs *r,
                             const int64_t *in_key, int64_t n_keys, vsg_group_union_out *o)
{
    vsg_engine *e = d->b.e;
    size_t cap = d->b.n ? d->b.n : 1, n = 0;
    const unsigned char **wkb = vsg_malloc(cap * sizeof *wkb);
    size_t *size = vsg_malloc(cap * sizeof *size);
    int64_t *key = vsg_malloc(cap * sizeof *key);
    vsg_status st = VSG_OK;
    if (!wkb || !size || !key) {
        st = vsg_engine_fail(e, VSG_ERR_NOMEM, -1, -1, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < d->b.n && st == VSG_OK; i++) {
        vsg_read_outcome oc = d->b.in[i].outcome;
        if (in_key[i] < 0 || (oc != VSG_READ_GEOM && oc != VSG_READ_EMPTY))
            continue;
        st = member_wkb(d, i, r, &wkb[n], &size[n]);
        key[n++] = in_key[i];
    }
    if (st == VSG_OK && n > 0) {
        vsg_wkb_array members = {n, wkb, size};
        st = fast(e, &members, key, n_keys, o);
    }
done:
    free(wkb);
    free(size);
    free(key);
    return st;
}

static vsg_status out_alloc(vsg_group_union_out *o, size_t n)
{
    o->ok = vsg_calloc(n ? n : 1, 1);
    o->wkb = vsg_calloc(n ? n : 1, sizeof(unsigned char *));
    o->size = vsg_calloc(n ? n : 1, sizeof(size_t));
    return o->ok && o->wkb && o->size ? VSG_OK : VSG_ERR_NOMEM;
}

static void out_free(vsg_group_union_out *o, size_t n)
{
    for (size_t g = 0; o->wkb && g < n; g++)
        free(o->wkb[g]);
    free(o->ok);
    free(o->wkb);
    free(o->size);
}

/* The settled chunks of one group meet along their members' shared edges,
 * so they are a coverage too (unless the overlaps that spoilt the group lie
 * across two of them): unioned once more, they leave GEOS one merge per
 * chunk that failed instead of a merge tree over all of them. A group's
 * union of its settled chunks takes the place of its first settled chunk
 * (o->wkb, o->size); the others are marked consumed. */
static vsg_status merge_settled(dissolve_t *d, vsg_group_union_fn fast, vsg_group_union_out *o)
{
    size_t nc = d->n_chunks, G = (size_t)d->n_groups, m = 0;
    size_t *count = vsg_calloc(G + 1, sizeof *count);
    int64_t *first = vsg_malloc((G ? G : 1) * sizeof *first);
    const unsigned char **wkb = vsg_malloc((nc ? nc : 1) * sizeof *wkb);
    size_t *size = vsg_malloc((nc ? nc : 1) * sizeof *size);
    int64_t *key = vsg_malloc((nc ? nc : 1) * sizeof *key);
    vsg_group_union_out u;
    memset(&u, 0, sizeof u);
    u.parts_of_groups = 1;
    vsg_status st = VSG_OK;
    d->chunk_consumed = vsg_calloc(nc ? nc : 1, 1);
    if (!count || !first || !wkb || !size || !key || !d->chunk_consumed ||
        out_alloc(&u, G) != VSG_OK) {
        st = vsg_engine_fail(d->b.e, VSG_ERR_NOMEM, -1, -1, "out of memory");
        goto done;
    }
    for (size_t g = 0; g < G; g++)
        first[g] = -1;
    for (size_t c = 0; c < nc; c++)
        if (o->ok[c]) {
            int64_t g = d->chunks[c].group;
            count[g]++;
            if (first[g] < 0)
                first[g] = (int64_t)c;
        }
    for (size_t c = 0; c < nc; c++) {
        int64_t g = d->chunks[c].group;
        if (!o->ok[c] || count[g] < 2)
            continue;
        wkb[m] = o->wkb[c];
        size[m] = o->size[c];
        key[m++] = g;
    }
    if (m == 0)
        goto done;
    vsg_wkb_array parts = {m, wkb, size};
    if ((st = fast(d->b.e, &parts, key, d->n_groups, &u)) != VSG_OK)
        goto done;
    for (size_t c = 0; c < nc; c++) {
        int64_t g = d->chunks[c].group;
        if (!o->ok[c] || count[g] < 2 || !u.ok[g])
            continue;
        if ((int64_t)c != first[g]) {
            d->chunk_consumed[c] = 1;   /* in the first chunk's union now */
            continue;
        }
        free(o->wkb[c]);
        o->wkb[c] = u.wkb[g];
        o->size[c] = u.size[g];
        u.wkb[g] = NULL;
    }
done:
    out_free(&u, G);
    free(count);
    free(first);
    free(wkb);
    free(size);
    free(key);
    return st;
}

/* The chunks of the groups the first pass did not settle: a group that is
 * no coverage (a nation whose few overlapping members spoil it) is still
 * mostly made of chunks that are; their unions become the group's
 * partials before the GEOS levels, which then union those and run only the
 * chunks that are not coverages. */
static vsg_status chunk_pass(dissolve_t *d, vsg_group_union_fn fast, repairs *rep)
{
    size_t n = d->b.n, nc = d->n_chunks, any = 0;
    int64_t *key = vsg_malloc((n ? n : 1) * sizeof *key);
    vsg_group_union_out o;
    memset(&o, 0, sizeof o);
    o.parts_of_groups = 1;
    vsg_status st = VSG_OK;
    if (!key || out_alloc(&o, nc) != VSG_OK) {
        st = vsg_engine_fail(d->b.e, VSG_ERR_NOMEM, -1, -1, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        key[i] = -1;
    for (size_t c = 0; c < nc; c++) {
        const group_t *gr = &d->groups[d->chunks[c].group];
        if (!gr->fast_tried || gr->n_chunks < 2)
            continue;
        for (size_t k = 0; k < d->chunks[c].count; k++)
            key[d->members[d->chunks[c].first + k]] = (int64_t)c;
        any = 1;
    }
    if (!any)
        goto done;
    d->chunk_partial = vsg_calloc(nc, sizeof *d->chunk_partial);
    if (!d->chunk_partial) {
        st = vsg_engine_fail(d->b.e, VSG_ERR_NOMEM, -1, -1, "out of memory");
        goto done;
    }
    if ((st = call_union(d, fast, rep, key, (int64_t)nc, &o)) != VSG_OK)
        goto done;
    if ((st = merge_settled(d, fast, &o)) != VSG_OK)
        goto done;
    vsg_worker *w = &d->b.e->workers[0];
    GEOSWKBReader *r = GEOSWKBReader_create_r(w->ctx);
    for (size_t c = 0; c < nc && r; c++) {
        if (!o.ok[c] || d->chunk_consumed[c])
            continue;
        d->chunk_partial[c] = GEOSWKBReader_read_r(w->ctx, r, o.wkb[c], o.size[c]);
        if (!d->chunk_partial[c]) {
            st = vsg_engine_fail(d->b.e, VSG_ERR_GEOS, -1, -1, "chunk #%zu: %s", c,
                                 vsg_worker_take_message(w));
            break;
        }
    }
    if (r)
        GEOSWKBReader_destroy_r(w->ctx, r);
    else
        st = vsg_engine_fail(d->b.e, VSG_ERR_NOMEM, -1, -1, "out of memory");
done:
    out_free(&o, nc);
    free(key);
    return st;
}

vsg_status vsg_dissolve_fast_groups(dissolve_t *d, vsg_group_union_fn fast)
{
    vsg_engine *e = d->b.e;
    if (!fast || d->dim != 2 || d->n_groups == 0)
        return VSG_OK;
    size_t G = (size_t)d->n_groups;
    unsigned char *offer = offered_groups(d);
    int64_t *key = vsg_malloc((d->b.n ? d->b.n : 1) * sizeof *key);
    repairs rep = {vsg_calloc(d->b.n ? d->b.n : 1, sizeof(unsigned char *)),
                   vsg_calloc(d->b.n ? d->b.n : 1, sizeof(size_t))};
    vsg_group_union_out o;
    memset(&o, 0, sizeof o);
    vsg_status st = VSG_OK;
    if (!offer || !key || !rep.wkb || !rep.size || out_alloc(&o, G) != VSG_OK) {
        st = vsg_engine_fail(e, VSG_ERR_NOMEM, -1, -1, "out of memory");
        goto done;
    }
    /* pass 1: whole groups, their members in input order (empties
     * included: they contribute nothing, as in GEOS) */
    for (size_t i = 0; i < d->b.n; i++)
        key[i] = offer[d->group_of[i]] ? d->group_of[i] : -1;
    if ((st = call_union(d, fast, &rep, key, d->n_groups, &o)) != VSG_OK)
        goto done;
    for (size_t g = 0; g < G; g++) {
        if (o.ok[g] && offer[g]) {
            take_group(d, (int64_t)g, o.wkb[g], o.size[g]);
            o.wkb[g] = NULL;
        } else if (offer[g]) {
            d->groups[g].fast_tried = 1;
        }
    }
    /* pass 2: the chunks of the others */
    st = chunk_pass(d, fast, &rep);
done:
    out_free(&o, G);
    for (size_t i = 0; rep.wkb && i < d->b.n; i++)
        free(rep.wkb[i]);
    free(rep.wkb);
    free(rep.size);
    free(offer);
    free(key);
    return st;
}
