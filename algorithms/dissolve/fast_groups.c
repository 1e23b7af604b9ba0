/*
 * fast_groups.c - dissolve's first union stage: whole groups handed to the
 * group union given by the route (dissolve/group_union.h; the GPU
 * pipeline's exact coverage union), before any GEOS work. The groups it
 * settles are done; the rest (overlaps, members inside members, shapes
 * whose rings would touch themselves, Z, curves) go on to the GEOS stages
 * (coverage.c, levels.c) as before.
 *
 * What a group union reads is each member's input WKB, or for a member
 * the reader repaired, the repair. The union itself refuses unclosed
 * rings (which the reader closes), collections and Z.
 *
 * A repaired member (MakeValid's output) need not fit its neighbours: it
 * drops a spike or a collapsed loop whose vertices the neighbours still
 * have, and the group union then proves, rightly, that the group is no
 * coverage. Real layers have a few such members (22 of the 3,231 US
 * counties), and each used to send its whole group, a state or a nation,
 * to GEOS's merge tree. A repair that keeps its boundary edges fits like
 * any member (same_edges.h). Each of the others is first unioned by GEOS
 * with its same-group neighbours into one member that fits again
 * (clusters.h), and pass 0 offers every group so: one call, no probe, no
 * merge. A group pass 0 refuses goes the way before clusters
 * (VSGPU_REPAIR_CLUSTERS=NO takes it for every group): its repaired
 * members are kept out (set_aside), the rest is a coverage with holes
 * where they were; the group union settles it (pass 1, or pass 1b with
 * the repaired members' neighbours aside too), and GEOS unions the
 * members set aside into that outline (merge_aside): one small overlay
 * per group. Union is associative, so the answer is the same polygon set.
 */
#include <stdlib.h>
#include <string.h>

#include "dissolve/dissolve_internal.h"

#include "core/fault.h"
#include "dissolve/clusters.h"
#include "dissolve/same_edges.h"
#include "dissolve/union_step.h"
#include "geometry/dimension.h"
#include "index/strtree.h"

/* Whether member i's repair (MakeValid's output) still has the input's
 * boundary edges (dissolve/same_edges.h): then it fits its neighbours
 * like any member. An input GEOS cannot read here does not. */
static vsg_status repair_fits(dissolve_t *d, size_t i, GEOSWKBReader *rd, int *fits)
{
    vsg_worker *w = &d->b.e->workers[0];
    /* the input as read (invalid, which GEOS reads all the same) */
    GEOSGeometry *orig =
        GEOSWKBReader_read_r(w->ctx, rd, d->b.input->wkb[i], d->b.input->size[i]);
    *fits = 0;
    vsg_status st = orig ? vsg_same_edges(w->ctx, orig, d->b.in[i].geom, fits) : VSG_OK;
    if (orig)
        GEOSGeom_destroy_r(w->ctx, orig);
    return st;
}

/* Members kept out of the group union (aside[i] != 0), merged in
 * afterwards by GEOS (merge_aside). With redo NULL: each repaired member
 * whose repair does not keep the input's edges (1; one that keeps them
 * is no different from the others to the group union: a dropped spike,
 * a pinched ring re-threaded). A repair need not fit its neighbours, so with
 * it the group would be no coverage; without it the rest has a hole where
 * it was. That hole is mostly a simple ring, but where the repair dropped
 * a spike or a loop whose vertex the neighbours still touch, it is not,
 * and the group union refuses the group again. For the groups in redo
 * (redo[g] != 0), every member whose box meets a repaired member's box of
 * the same group goes aside too (2): the ring of members around those
 * neighbours is clean. One STR tree over the repaired members' boxes. */
static vsg_status set_aside(dissolve_t *d, unsigned char *aside, const unsigned char *redo)
{
    size_t n = d->b.n;
    if (!redo) {
        GEOSWKBReader *rd = NULL;
        vsg_status st = VSG_OK;
        for (size_t i = 0; i < n && st == VSG_OK; i++) {
            int fits = 1;
            aside[i] = 0;
            if (d->b.in[i].outcome != VSG_READ_GEOM || !d->b.in[i].repaired)
                continue;
            if (!rd && !(rd = GEOSWKBReader_create_r(d->b.e->workers[0].ctx)))
                st = VSG_ERR_NOMEM;
            else
                st = repair_fits(d, i, rd, &fits);
            aside[i] = !fits;
        }
        if (rd)
            GEOSWKBReader_destroy_r(d->b.e->workers[0].ctx, rd);
        return st == VSG_OK ? VSG_OK : vsg_engine_fail(d->b.e, st, -1, -1, "out of memory");
    }
    unsigned char *rep = vsg_malloc(n ? n : 1), *near = vsg_malloc(n ? n : 1);
    vsg_status st = rep && near ? VSG_OK : VSG_ERR_NOMEM;
    for (size_t i = 0; st == VSG_OK && i < n; i++) {
        int redone = redo[d->group_of[i]] != 0;
        rep[i] = aside[i] == 1 && redone;
        near[i] = !aside[i] && redone && d->b.in[i].outcome == VSG_READ_GEOM;
    }
    if (st == VSG_OK)
        st = vsg_dissolve_near_marked(d, rep, near);
    for (size_t i = 0; st == VSG_OK && i < n; i++)
        if (near[i])
            aside[i] = 2;
    free(rep);
    free(near);
    return st == VSG_OK ? VSG_OK : vsg_engine_fail(d->b.e, st, -1, -1, "out of memory");
}

/* offer[g] bits: OFFERED, a member read as a geometry and not set aside
 * (the first pass unions those); ASIDE, a member set aside (merged in
 * afterwards, merge_aside). */
enum { OFFERED = 1, ASIDE = 2 };


static unsigned char *offered_groups(const dissolve_t *d, const unsigned char *aside)
{
    unsigned char *offer = vsg_calloc((size_t)d->n_groups + 1, 1);
    if (!offer)
        return NULL;
    for (size_t i = 0; i < d->b.n; i++)
        if (d->b.in[i].outcome == VSG_READ_GEOM)
            offer[d->group_of[i]] |= aside[i] ? ASIDE : OFFERED;
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

/* ---- merge_aside: the members set aside into a settled outline -------- */

typedef struct {
    dissolve_t *d;
    const unsigned char *aside;
    const int64_t *groups;         /* the groups to merge                 */
    unsigned char *const *wkb;     /* per group: its outline without them  */
    const size_t *size;
    unsigned char *merged;         /* per task: the group is done          */
} repair_merge;

/* The union of the members of group g set aside (borrowed geometries), in
 * member order; NULL on a GEOS failure or, *nomem set, our allocation. */
static GEOSGeometry *aside_union(vsg_worker *w, dissolve_t *d, const unsigned char *aside,
                                 int64_t g, int *nomem)
{
    const group_t *gr = &d->groups[g];
    size_t n = 0, cap = 0;
    for (size_t c = gr->first_chunk; c < gr->first_chunk + gr->n_chunks; c++)
        cap += d->chunks[c].count;
    GEOSGeometry **parts = vsg_malloc((cap ? cap : 1) * sizeof *parts);
    if (!parts) {
        *nomem = 1;
        return NULL;
    }
    int ok = 1;
    for (size_t c = gr->first_chunk; ok && c < gr->first_chunk + gr->n_chunks; c++)
        for (size_t k = 0; ok && k < d->chunks[c].count; k++) {
            int64_t i = d->members[d->chunks[c].first + k];
            if (aside[i])
                ok = (parts[n++] = GEOSGeom_clone_r(w->ctx, d->b.in[i].geom)) != NULL;
        }
    n -= !ok;
    if (ok && n == 1) {   /* one member, valid (read or repaired): itself */
        GEOSGeometry *one = parts[0];
        free(parts);
        return one;
    }
    GEOSGeometry *coll = ok ? GEOSGeom_createCollection_r(w->ctx, GEOS_GEOMETRYCOLLECTION, parts,
                                                          (unsigned)n)
                            : NULL;
    if (!coll)
        for (size_t k = 0; k < n; k++)
            GEOSGeom_destroy_r(w->ctx, parts[k]);
    free(parts);
    GEOSGeometry *u = coll ? vsg_worker_unary_union(w, -1, coll) : NULL;
    if (coll)
        GEOSGeom_destroy_r(w->ctx, coll);
    return u;
}

static void repair_task(void *vp, size_t t, int wid)
{
    repair_merge *m = vp;
    dissolve_t *d = m->d;
    int64_t g = m->groups[t];
    group_t *gr = &d->groups[g];
    vsg_worker *w = &d->b.e->workers[wid];
    if (vsg_dissolve_stopped(d))
        return;
    int nomem = 0;
    vsg_worker_clear_message(w);
    GEOSWKBReader *rd = GEOSWKBReader_create_r(w->ctx);
    GEOSGeometry *outline = rd ? GEOSWKBReader_read_r(w->ctx, rd, m->wkb[g], m->size[g]) : NULL;
    GEOSGeometry *rep = outline ? aside_union(w, d, m->aside, g, &nomem) : NULL;
    GEOSGeometry *all = rep ? vsg_union_two_polygonal(w, outline, rep) : NULL;
    if (!rd || (rep && !all && !w->has_geos_msg))
        nomem = 1;   /* GEOS reports its failures; none: an allocation */
    if (rd)
        GEOSWKBReader_destroy_r(w->ctx, rd);
    if (outline)
        GEOSGeom_destroy_r(w->ctx, outline);
    if (rep)
        GEOSGeom_destroy_r(w->ctx, rep);
    if (nomem)
        vsg_failure_record(&d->b.failure, (int64_t)t, VSG_ERR_NOMEM, -1, -1,
                           "group #%lld: merging the members set aside: out of memory", (long long)g);
    if (!all)
        return;   /* GEOS could not: the GEOS stages union the whole group */
    gr->partials[0] = all;   /* the group's result, as the coverage phase leaves one */
    gr->n_partials = 1;
    m->merged[t] = 1;
    vsg_dissolve_group_finished(d);
    vsg_dissolve_progress(d, wid);
}

/* Group g's outline and its members set aside (their WKB as the group
 * union reads them), appended to the arrays at *n, keyed t; nothing for a
 * group with members aside because a probe failed (aside 2): the hole
 * they fill touches itself or meets them badly (on the US counties, a
 * vertex within rounding of a neighbour's edge), and the overlap union
 * mostly hands such groups back too (3 of the 4 such states). */
static vsg_status add_merge_members(dissolve_t *d, repairs *r, const unsigned char *aside,
                                    int64_t g, const vsg_group_union_out *o, int64_t t,
                                    const unsigned char **wkb, size_t *size, int64_t *key,
                                    size_t *n)
{
    const group_t *gr = &d->groups[g];
    size_t n0 = *n;
    wkb[*n] = o->wkb[g];
    size[*n] = o->size[g];
    key[(*n)++] = t;
    for (size_t c = gr->first_chunk; c < gr->first_chunk + gr->n_chunks; c++)
        for (size_t k = 0; k < d->chunks[c].count; k++) {
            int64_t i = d->members[d->chunks[c].first + k];
            if (aside[i] == 2) {
                *n = n0;   /* GEOS merges this group */
                return VSG_OK;
            }
            if (!aside[i])
                continue;
            vsg_status st = member_wkb(d, (size_t)i, r, &wkb[*n], &size[*n]);
            if (st != VSG_OK)
                return st;   /* member_wkb set the engine's error */
            key[(*n)++] = t;
        }
    return VSG_OK;
}

/* On the GPU, the merges as one more call of the group union, whose
 * overlap union nodes each outline with its members set aside (they fill
 * its holes, or overlap their edges where a repair moved them): the
 * groups it settles are taken, and *n shrinks to the rest, in order
 * (GEOS merges those). On the CPU engine (gpu_only) it settles nothing:
 * GEOS merges faster there than the host backend's unions
 * (docs/benchmarks.md, the overlap dissolve). */
static vsg_status merge_on_union(dissolve_t *d, vsg_group_union_fn fast, repairs *r,
                                 const unsigned char *aside, int64_t *groups, size_t *n,
                                 vsg_group_union_out *o)
{
    size_t cap = *n, n0 = *n;
    for (size_t t = 0; t < *n; t++) {
        const group_t *gr = &d->groups[groups[t]];
        for (size_t c = gr->first_chunk; c < gr->first_chunk + gr->n_chunks; c++)
            cap += d->chunks[c].count;
    }
    const unsigned char **wkb = vsg_malloc(cap * sizeof *wkb);
    size_t *size = vsg_malloc(cap * sizeof *size);
    int64_t *key = vsg_malloc(cap * sizeof *key);
    vsg_group_union_out u;
    memset(&u, 0, sizeof u);
    u.parts_of_groups = 1;   /* counted as groups by the pass that settled the outline */
    u.stage = "merge_union";
    u.gpu_only = 1;
    vsg_status st = VSG_OK;
    if (!wkb || !size || !key || out_alloc(&u, *n) != VSG_OK) {
        st = vsg_engine_fail(d->b.e, VSG_ERR_NOMEM, -1, -1, "out of memory");
        goto done;
    }
    size_t m = 0;
    for (size_t t = 0; t < *n && st == VSG_OK; t++)
        st = add_merge_members(d, r, aside, groups[t], o, (int64_t)t, wkb, size, key, &m);
    vsg_wkb_array members = {m, wkb, size};
    if (st != VSG_OK || m == 0 || (st = fast(d->b.e, &members, key, (int64_t)*n, &u)) != VSG_OK)
        goto done;
    size_t left = 0;
    for (size_t t = 0; t < *n; t++) {
        int64_t g = groups[t];
        if (!u.ok[t]) {
            groups[left++] = g;
            continue;
        }
        free(o->wkb[g]);   /* the outline: the union's result replaces it */
        o->wkb[g] = NULL;
        take_group(d, g, u.wkb[t], u.size[t]);
        u.wkb[t] = NULL;
    }
    *n = left;
done:
    out_free(&u, n0);
    free(wkb);
    free(size);
    free(key);
    return st;
}

/* The groups the first pass settled without the members set aside: each
 * outline unioned with those members, on the GPU by the group union,
 * else (and for what it does not settle) by GEOS, one task per group. */
static vsg_status merge_aside(dissolve_t *d, vsg_group_union_fn fast, repairs *r,
                              const unsigned char *aside, int64_t *groups, size_t n,
                              vsg_group_union_out *o)
{
    vsg_status st = n ? merge_on_union(d, fast, r, aside, groups, &n, o) : VSG_OK;
    if (st != VSG_OK || n == 0)
        return st;
    double t0 = vsg_now_s();
    repair_merge m = {d, aside, groups, o->wkb, o->size, vsg_calloc(n, 1)};
    if (!m.merged)
        return vsg_engine_fail(d->b.e, VSG_ERR_NOMEM, -1, -1, "out of memory");
    vsg_failure_destroy(&d->b.failure);
    vsg_failure_init(&d->b.failure);
    vsg_pool_run(d->b.e->pool, n, repair_task, &m);
    st = vsg_engine_take_failure(d->b.e, &d->b.failure);
    int64_t merged = 0;
    for (size_t t = 0; t < n; t++) {
        group_t *gr = &d->groups[groups[t]];
        if (m.merged[t]) {
            gr->done = 1;
            gr->steps = 1;
            gr->coverage_ok = 1;
            merged++;
        } else {
            gr->fast_tried = 1;
        }
    }
    free(m.merged);
    vsg_profile_add(d->b.e->profile, "merge_aside", "CPU", vsg_now_s() - t0, (int64_t)n,
                    merged, 0, 0, 0);
    return st;
}

/* One call of the group union over the members whose "group" is key[i]
 * (keys in [0, n_keys)); in_key[i] < 0 leaves member i out. With cl, the
 * members in a cluster are left out and cluster k comes after them, keyed
 * cl_key[k] (< 0: left out). out's arrays hold n_keys entries. */
static vsg_status call_union(dissolve_t *d, vsg_group_union_fn fast, repairs *r,
                             const int64_t *in_key, int64_t n_keys, const vsg_clusters *cl,
                             const int64_t *cl_key, vsg_group_union_out *o)
{
    vsg_engine *e = d->b.e;
    size_t cap = d->b.n + (cl ? cl->n : 0), n = 0;
    cap = cap ? cap : 1;
    const unsigned char **wkb = vsg_malloc(cap * sizeof *wkb);
    size_t *size = vsg_malloc(cap * sizeof *size);
    int64_t *key = vsg_malloc(cap * sizeof *key), *row = vsg_malloc(cap * sizeof *row);
    vsg_status st = VSG_OK;
    if (!wkb || !size || !key || !row) {
        st = vsg_engine_fail(e, VSG_ERR_NOMEM, -1, -1, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < d->b.n && st == VSG_OK; i++) {
        vsg_read_outcome oc = d->b.in[i].outcome;
        if (in_key[i] < 0 || (oc != VSG_READ_GEOM && oc != VSG_READ_EMPTY) ||
            (cl && cl->of && cl->of[i] >= 0))
            continue;
        st = member_wkb(d, i, r, &wkb[n], &size[n]);
        row[n] = wkb[n] == d->b.input->wkb[i] ? (int64_t)i : -1;   /* not a repair */
        key[n++] = in_key[i];
    }
    for (size_t k = 0; cl && k < cl->n; k++)
        if (cl_key[k] >= 0 && cl->wkb[k]) {
            wkb[n] = cl->wkb[k];
            size[n] = cl->size[k];
            row[n] = -1;
            key[n++] = cl_key[k];
        }
    if (st == VSG_OK && n > 0) {
        vsg_wkb_array members = {n, wkb, size};
        o->member_row = row;
        st = fast(e, &members, key, n_keys, o);
        o->member_row = NULL;
    }
done:
    free(wkb);
    free(size);
    free(key);
    free(row);
    return st;
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
    if ((st = call_union(d, fast, rep, key, (int64_t)nc, NULL, NULL, &o)) != VSG_OK)
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

/* Which repaired members need their neighbours aside (aside[i] = 2 for
 * those neighbours). One probe per repaired member r: its group's other
 * members whose box meets r's box (r's neighbours), unioned on their own
 * by the group union. They surround the hole r leaves; if the probe is
 * settled, that hole is a simple ring, and the group's union without r
 * will be too near r. A probe that fails (the hole touches itself, or the
 * neighbours meet badly among themselves) sets its members aside. The
 * probes are small (about ten members each) and run in one call, so a
 * nation with 22 repaired counties sets aside the neighbours of the few
 * that need it, not of all. Members already aside stay out of probes. */
static vsg_status probe_aside(dissolve_t *d, vsg_group_union_fn fast, repairs *r,
                              unsigned char *aside)
{
    vsg_engine *e = d->b.e;
    size_t n = d->b.n, n_probe = 0, n_ent = 0, cap = 0;
    int64_t *probe_of = vsg_malloc((n ? n : 1) * sizeof *probe_of);
    double *boxes = vsg_malloc((n ? n : 1) * 4 * sizeof *boxes);
    unsigned char *rep = vsg_calloc(n ? n : 1, 1);
    vsg_strtree *t = NULL;
    vsg_id_list hits = {0};
    int64_t *ent_i = NULL, *ent_p = NULL;
    const unsigned char **wkb = NULL;
    size_t *size = NULL;
    vsg_group_union_out o;
    memset(&o, 0, sizeof o);
    vsg_status st = probe_of && boxes && rep ? VSG_OK : VSG_ERR_NOMEM;
    for (size_t i = 0; st == VSG_OK && i < n; i++) {
        memcpy(boxes + 4 * i, d->b.in[i].box, 4 * sizeof *boxes);
        rep[i] = aside[i] == 1;
        probe_of[i] = rep[i] ? (int64_t)n_probe++ : -1;
    }
    if (st != VSG_OK || n_probe == 0)
        goto nomem;
    st = vsg_strtree_build(boxes, rep, n, &t);
    /* the entries (member, probe), in member order */
    for (size_t i = 0; st == VSG_OK && i < n; i++) {
        if (aside[i] || d->b.in[i].outcome != VSG_READ_GEOM)
            continue;
        if ((st = vsg_strtree_query(t, d->b.in[i].box, &hits)) != VSG_OK)
            break;
        for (size_t k = 0; k < hits.n; k++) {
            if (d->group_of[hits.ids[k]] != d->group_of[i])
                continue;
            if (n_ent == cap) {
                size_t c2 = cap ? 2 * cap : 1024;
                int64_t *a2 = vsg_realloc(ent_i, c2 * sizeof *a2);
                if (a2)
                    ent_i = a2;
                int64_t *b2 = vsg_realloc(ent_p, c2 * sizeof *b2);
                if (b2)
                    ent_p = b2;
                if (!a2 || !b2) {
                    st = VSG_ERR_NOMEM;
                    break;
                }
                cap = c2;
            }
            ent_i[n_ent] = (int64_t)i;
            ent_p[n_ent++] = probe_of[hits.ids[k]];
        }
    }
    if (st != VSG_OK || n_ent == 0)
        goto nomem;
    wkb = vsg_malloc(n_ent * sizeof *wkb);
    size = vsg_malloc(n_ent * sizeof *size);
    if (!wkb || !size || out_alloc(&o, n_probe) != VSG_OK) {
        st = VSG_ERR_NOMEM;
        goto nomem;
    }
    for (size_t k = 0; k < n_ent && st == VSG_OK; k++)
        st = member_wkb(d, (size_t)ent_i[k], r, &wkb[k], &size[k]);
    if (st != VSG_OK)
        goto out;   /* member_wkb set the engine's error */
    o.parts_of_groups = 1;   /* probes, not groups: not counted */
    o.stage = "aside_probes";
    o.coverage_only = 1;     /* the question is the coverage union's */
    vsg_wkb_array members = {n_ent, wkb, size};
    if ((st = fast(e, &members, ent_p, (int64_t)n_probe, &o)) != VSG_OK)
        goto out;   /* the group union set the engine's error */
    for (size_t k = 0; k < n_ent; k++)
        if (!o.ok[ent_p[k]])
            aside[ent_i[k]] = 2;
    goto out;
nomem:   /* VSG_OK here too: nothing to probe */
    if (st != VSG_OK)
        st = vsg_engine_fail(e, st, -1, -1, "out of memory");
out:
    out_free(&o, n_probe);
    vsg_strtree_destroy(t);
    vsg_id_list_free(&hits);
    free(probe_of);
    free(boxes);
    free(rep);
    free(ent_i);
    free(ent_p);
    free(wkb);
    free(size);
    return st;
}

/* One pass of the group union over the groups with want[g] set, their
 * members not set aside; each group it settles is taken, or listed in
 * merge[] (*n_merge) when members were set aside; the others are marked
 * in failed[] (if given) or as tried. o holds the settled outlines. */
static vsg_status group_pass(dissolve_t *d, vsg_group_union_fn fast, repairs *rep,
                             const unsigned char *aside, const unsigned char *want,
                             int64_t *key, vsg_group_union_out *o, int64_t *merge,
                             size_t *n_merge, unsigned char *failed)
{
    size_t G = (size_t)d->n_groups;
    unsigned char *offer = offered_groups(d, aside);
    if (!offer)
        return vsg_engine_fail(d->b.e, VSG_ERR_NOMEM, -1, -1, "out of memory");
    for (size_t i = 0; i < d->b.n; i++) {
        int64_t g = d->group_of[i];
        key[i] = want[g] && offer[g] & OFFERED && !aside[i] ? g : -1;
    }
    uint8_t *retried = failed ? vsg_calloc(G, 1) : NULL;
    if (failed && !retried) {
        free(offer);
        return vsg_engine_fail(d->b.e, VSG_ERR_NOMEM, -1, -1, "out of memory");
    }
    for (size_t g = 0; retried && g < G; g++)
        retried[g] = want[g] && offer[g] & OFFERED && offer[g] & ASIDE;
    o->retried = retried;   /* a failure there is counted by the retry */
    vsg_status st = call_union(d, fast, rep, key, d->n_groups, NULL, NULL, o);
    o->retried = NULL;
    free(retried);
    for (size_t g = 0; st == VSG_OK && g < G; g++) {
        if (!want[g] || !(offer[g] & OFFERED))
            continue;   /* nothing offered (all set aside, null or empty) */
        if (o->ok[g] && offer[g] & ASIDE) {
            merge[(*n_merge)++] = (int64_t)g;
        } else if (o->ok[g]) {
            take_group(d, (int64_t)g, o->wkb[g], o->size[g]);
            o->wkb[g] = NULL;
        } else if (failed && offer[g] & ASIDE) {
            failed[g] = 1;
        } else {
            d->groups[g].fast_tried = 1;
        }
    }
    free(offer);
    return st;
}

/* Pass 0: every group in one call, each cluster (clusters.h) in place of
 * its members. The groups it settles are taken; want[g] = 1 for a group
 * with clusters it did not settle (or whose cluster GEOS could not union):
 * that group goes the old way (probes, members aside, merges); any other
 * group it did not settle is tried, as group_pass marks it. */
static vsg_status cluster_pass(dissolve_t *d, vsg_group_union_fn fast, repairs *rep,
                               const vsg_clusters *cl, int64_t *key, vsg_group_union_out *o,
                               unsigned char *want)
{
    size_t G = (size_t)d->n_groups;
    /* has[g]: 1, the group has clusters; 2, one of them has no union */
    uint8_t *has = vsg_calloc(G, 1);
    unsigned char *offered = vsg_calloc(G, 1);
    int64_t *cl_key = vsg_malloc((cl->n ? cl->n : 1) * sizeof *cl_key);
    vsg_status st = has && offered && cl_key ? VSG_OK : VSG_ERR_NOMEM;
    if (st != VSG_OK) {
        st = vsg_engine_fail(d->b.e, st, -1, -1, "out of memory");
        goto done;
    }
    for (size_t k = 0; k < cl->n; k++)
        has[cl->group[k]] |= cl->wkb[k] ? 1 : 2;
    for (size_t k = 0; k < cl->n; k++)
        cl_key[k] = has[cl->group[k]] & 2 ? -1 : cl->group[k];
    for (size_t i = 0; i < d->b.n; i++) {
        int64_t g = d->group_of[i];
        key[i] = has[g] & 2 ? -1 : g;
        offered[g] |= d->b.in[i].outcome == VSG_READ_GEOM && !(has[g] & 2);
    }
    o->retried = has;   /* a group with clusters is offered again if refused */
    st = call_union(d, fast, rep, key, d->n_groups, cl, cl_key, o);
    o->retried = NULL;
    for (size_t g = 0; st == VSG_OK && g < G; g++) {
        if (o->ok[g]) {
            take_group(d, (int64_t)g, o->wkb[g], o->size[g]);
            o->wkb[g] = NULL;
        } else if (has[g]) {
            want[g] = 1;
        } else if (offered[g]) {
            d->groups[g].fast_tried = 1;
        }
    }
done:
    free(has);
    free(offered);
    free(cl_key);
    return st;
}

vsg_status vsg_dissolve_fast_groups(dissolve_t *d, vsg_group_union_fn fast)
{
    vsg_engine *e = d->b.e;
    if (!fast || d->dim != 2 || d->n_groups == 0)
        return VSG_OK;
    size_t G = (size_t)d->n_groups, n_merge = 0;
    unsigned char *aside = vsg_malloc(d->b.n ? d->b.n : 1);
    unsigned char *want = vsg_malloc(G), *retry = vsg_calloc(G, 1);
    int64_t *key = vsg_malloc((d->b.n ? d->b.n : 1) * sizeof *key);
    int64_t *merge = vsg_malloc(G * sizeof *merge);
    repairs rep = {vsg_calloc(d->b.n ? d->b.n : 1, sizeof(unsigned char *)),
                   vsg_calloc(d->b.n ? d->b.n : 1, sizeof(size_t))};
    vsg_group_union_out o0, o, o2;
    vsg_clusters cl;
    memset(&o0, 0, sizeof o0);
    memset(&o, 0, sizeof o);
    memset(&o2, 0, sizeof o2);
    memset(&cl, 0, sizeof cl);
    vsg_status st = VSG_OK;
    if (!aside || !want || !retry || !key || !merge || !rep.wkb || !rep.size ||
        out_alloc(&o0, G) != VSG_OK || out_alloc(&o, G) != VSG_OK ||
        out_alloc(&o2, G) != VSG_OK) {
        st = vsg_engine_fail(e, VSG_ERR_NOMEM, -1, -1, "out of memory");
        goto done;
    }
    /* pass 0: every group, each repaired member that does not fit its
     * neighbours unioned with them by GEOS first (clusters.h), in input
     * order (empties included: they contribute nothing, as in GEOS) */
    memset(want, !e->opts.repair_clusters, G);   /* off: every group the old way */
    if ((st = set_aside(d, aside, NULL)) != VSG_OK)
        goto done;
    if (e->opts.repair_clusters &&
        ((st = vsg_dissolve_clusters(d, aside, &cl)) != VSG_OK ||
         (st = cluster_pass(d, fast, &rep, &cl, key, &o0, want)) != VSG_OK))
        goto done;
    if (!memchr(want, 1, G))
        goto chunks;
    /* pass 1, for the groups pass 0 refused: whole groups but their
     * repaired members and the neighbours the probes set aside */
    for (size_t i = 0; i < d->b.n; i++)
        if (!want[d->group_of[i]])
            aside[i] = 0;   /* settled or tried: no probe, nothing aside */
    if ((st = probe_aside(d, fast, &rep, aside)) != VSG_OK)
        goto done;
    if (
        (st = group_pass(d, fast, &rep, aside, want, key, &o, merge, &n_merge, retry)) != VSG_OK)
        goto done;
    /* pass 1b: the groups that failed with repaired members aside, once
     * more with their neighbours aside too */
    if (memchr(retry, 1, G)) {
        if ((st = set_aside(d, aside, retry)) != VSG_OK ||
            (st = group_pass(d, fast, &rep, aside, retry, key, &o2, merge, &n_merge, NULL)) !=
                VSG_OK)
            goto done;
        for (size_t g = 0; g < G; g++)
            if (retry[g] && o2.ok[g]) {   /* its outline joins pass 1's */
                o.ok[g] = 1;
                o.wkb[g] = o2.wkb[g];
                o.size[g] = o2.size[g];
                o2.wkb[g] = NULL;
            }
    }
    if ((st = merge_aside(d, fast, &rep, aside, merge, n_merge, &o)) != VSG_OK)
        goto done;
chunks:
    /* pass 2: the chunks of the others */
    st = chunk_pass(d, fast, &rep);
done:
    vsg_clusters_free(&cl);
    out_free(&o0, G);
    out_free(&o, G);
    out_free(&o2, G);
    for (size_t i = 0; rep.wkb && i < d->b.n; i++)
        free(rep.wkb[i]);
    free(rep.wkb);
    free(rep.size);
    free(aside);
    free(want);
    free(retry);
    free(merge);
    free(key);
    return st;
}
