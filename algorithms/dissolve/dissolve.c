/*
 * dissolve.c - union of geometries grouped by group_of, one result per
 * group, in group order.
 *
 *   read         geometries to GEOS, bad-input policy applied
 *   type filter  keep the parts of the call's dimension d (the highest
 *                seen); other parts dropped and counted (type_skipped)
 *   plan         members of each group; a group larger than a chunk is
 *                ordered along a Morton curve and cut into chunks
 *   coverage     polygons only, groups of several chunks: a coverage
 *                union of the first chunk (a cheap probe), and where it is
 *                accepted, of the whole group at once (coverage union is
 *                linear and its result is only the group's outline, so
 *                one task per group beats any split)
 *   union        every chunk of every group not yet done, in parallel
 *                (single-chunk groups try coverage union first)
 *   merge        pairwise unions of the partial results, level by level,
 *                all groups at once, until one result per group
 *   encode       Multi type of d, WKB; all-null group -> NULL; group of
 *                empties -> empty Multi
 *   assemble
 *
 * d is the call's dimension rather than each group's so that a group of
 * stray lines in a polygon layer cannot put a MultiLineString in a
 * MultiPolygon layer (docs/semantics.md: dissolve returns the Multi type
 * of the layer's dimension).
 *
 * Determinism: chunks have a fixed size and the merge tree a fixed shape,
 * and each level's coverage decision is made from the previous level's
 * outcome (after its barrier), so the output is the same for any number
 * of threads.
 */
#include <stdlib.h>
#include <string.h>

#include "core/result.h"
#include "dissolve/chunking.h"
#include "dissolve/union_step.h"
#include "geometry/dimension.h"
#include "overlay/batch.h"

typedef struct {
    int non_null;          /* has a member that is not null or dropped   */
    size_t n_chunks;
    size_t first_chunk;
    int done;              /* whole-group coverage union accepted        */
    int steps;             /* union steps made                           */
    int coverage_ok;       /* every step so far was an accepted coverage */
    GEOSGeometry **partials;
    size_t n_partials;
    unsigned char *wkb;
    size_t size;
} group_t;

typedef struct {
    int64_t group;
    size_t first, count;   /* into members[] */
} chunk_t;

/* One union task of a level: parts in, one partial out. */
typedef struct {
    int64_t group;
    GEOSGeometry **parts;  /* borrowed slots, taken by the task */
    size_t n_parts;
    GEOSGeometry *result;
    int used_coverage;
} step_t;

typedef struct {
    vsg_batch b;
    const int64_t *group_of;
    int64_t n_groups;
    int dim;
    group_t *groups;
    int64_t *members;
    chunk_t *chunks;
    size_t n_chunks;
    step_t *all_steps;     /* storage for every level's steps */
    step_t *steps;         /* the level running now           */
    size_t n_steps;
} dissolve_t;

/* ---- type filter --------------------------------------------------- */

static void filter_task(void *vd, size_t i, int wid)
{
    dissolve_t *d = vd;
    vsg_read_result *in = &d->b.in[i];
    if (in->outcome != VSG_READ_GEOM || vsg_failure_skip(&d->b.failure, (int64_t)i))
        return;
    vsg_worker *w = &d->b.e->workers[wid];
    int64_t other = 0;
    GEOSGeometry *kept = NULL;
    if (vsg_geom_keep_dim(w->ctx, in->geom, d->dim, &kept, &other) != VSG_OK) {
        in->geom = NULL;
        vsg_failure_record(&d->b.failure, (int64_t)i, VSG_ERR_GEOS, (int64_t)i, -1,
                           "input feature #%lld: %s", (long long)i, vsg_worker_take_message(w));
        return;
    }
    in->geom = kept;
    w->counts.type_skipped += other;
    if (!kept)
        in->outcome = VSG_READ_EMPTY;   /* nothing of dimension d: contributes nothing */
}

static vsg_status type_filter(dissolve_t *d)
{
    d->dim = -1;
    for (size_t i = 0; i < d->b.n; i++)
        if (d->b.in[i].outcome == VSG_READ_GEOM && d->b.in[i].dim > d->dim)
            d->dim = d->b.in[i].dim;
    if (d->dim < 0)
        return VSG_OK;
    return vsg_batch_stage(&d->b, "type_filter", filter_task, d, NULL);
}

/* ---- plan ------------------------------------------------------------ */

static vsg_status plan(dissolve_t *d)
{
    double t0 = vsg_now_s();
    size_t n = d->b.n, G = (size_t)d->n_groups;
    size_t *count = calloc(G + 1, sizeof *count);
    d->members = malloc((n ? n : 1) * sizeof *d->members);
    if (!count || !d->members) {
        free(count);
        return vsg_engine_fail(d->b.e, VSG_ERR_NOMEM, -1, -1, "out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        vsg_read_outcome oc = d->b.in[i].outcome;
        group_t *g = &d->groups[d->group_of[i]];
        if (oc == VSG_READ_GEOM || oc == VSG_READ_EMPTY)
            g->non_null = 1;
        if (oc == VSG_READ_GEOM)
            count[d->group_of[i] + 1]++;
    }
    for (size_t g = 0; g < G; g++)
        count[g + 1] += count[g];
    size_t *fill = malloc((G ? G : 1) * sizeof *fill);
    if (!fill) {
        free(count);
        return vsg_engine_fail(d->b.e, VSG_ERR_NOMEM, -1, -1, "out of memory");
    }
    memcpy(fill, count, G * sizeof *fill);
    for (size_t i = 0; i < n; i++)   /* input order within each group */
        if (d->b.in[i].outcome == VSG_READ_GEOM)
            d->members[fill[d->group_of[i]]++] = (int64_t)i;
    free(fill);

    /* Boxes as one array for the Morton sort. */
    double *boxes = malloc((n ? n : 1) * 4 * sizeof *boxes);
    size_t n_chunks = 0;
    for (size_t g = 0; g < G; g++) {
        size_t m = count[g + 1] - count[g];
        n_chunks += (m + VSG_DISSOLVE_CHUNK - 1) / VSG_DISSOLVE_CHUNK;
    }
    d->chunks = malloc((n_chunks ? n_chunks : 1) * sizeof *d->chunks);
    if (!boxes || !d->chunks) {
        free(boxes);
        free(count);
        return vsg_engine_fail(d->b.e, VSG_ERR_NOMEM, -1, -1, "out of memory");
    }
    for (size_t i = 0; i < n; i++)
        memcpy(boxes + 4 * i, d->b.in[i].box, 4 * sizeof *boxes);

    vsg_status st = VSG_OK;
    for (size_t g = 0; g < G && st == VSG_OK; g++) {
        size_t first = count[g], m = count[g + 1] - count[g];
        if (m > VSG_DISSOLVE_CHUNK && vsg_morton_sort(d->members + first, m, boxes) != 0)
            st = vsg_engine_fail(d->b.e, VSG_ERR_NOMEM, -1, -1, "out of memory");
        d->groups[g].first_chunk = d->n_chunks;
        d->groups[g].coverage_ok = 1;
        if (m > 0) {
            /* One slot per chunk: merge levels only shrink the count. */
            size_t nc = (m + VSG_DISSOLVE_CHUNK - 1) / VSG_DISSOLVE_CHUNK;
            d->groups[g].n_chunks = nc;
            d->groups[g].partials = calloc(nc, sizeof(GEOSGeometry *));
            if (!d->groups[g].partials) {
                st = vsg_engine_fail(d->b.e, VSG_ERR_NOMEM, -1, -1, "out of memory");
                break;
            }
        }
        for (size_t s = 0; s < m; s += VSG_DISSOLVE_CHUNK) {
            chunk_t *c = &d->chunks[d->n_chunks++];
            c->group = (int64_t)g;
            c->first = first + s;
            c->count = m - s < VSG_DISSOLVE_CHUNK ? m - s : VSG_DISSOLVE_CHUNK;
        }
    }
    free(boxes);
    free(count);
    vsg_profile_add(d->b.e->profile, "plan", "CPU", vsg_now_s() - t0, (int64_t)n,
                    (int64_t)d->n_chunks, 0, 0, 0);
    return st;
}

/* ---- union levels ---------------------------------------------------- */

static void step_task(void *vd, size_t t, int wid)
{
    dissolve_t *d = vd;
    step_t *s = &d->steps[t];
    vsg_worker *w = &d->b.e->workers[wid];
    if (vsg_failure_skip(&d->b.failure, (int64_t)t)) {
        for (size_t k = 0; k < s->n_parts; k++)
            GEOSGeom_destroy_r(w->ctx, s->parts[k]);
        s->n_parts = 0;
        return;
    }
    int try_cov = d->dim == 2 && d->groups[s->group].coverage_ok;
    vsg_worker_clear_message(w);
    vsg_status st = vsg_union_parts(w, s->parts, s->n_parts, d->dim == 2, try_cov, &s->result,
                                    &s->used_coverage);
    s->n_parts = 0;   /* taken, whatever happened */
    if (st != VSG_OK)
        vsg_failure_record(&d->b.failure, (int64_t)t, st, -1, -1, "group #%lld: union: %s",
                           (long long)s->group,
                           st == VSG_ERR_NOMEM ? "out of memory" : vsg_worker_take_message(w));
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

/* ---- coverage phase ------------------------------------------------- */

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

static vsg_status coverage_phase(dissolve_t *d)
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

static vsg_status union_chunks(dissolve_t *d)
{
    d->all_steps = calloc(d->n_chunks + 1, sizeof *d->all_steps);
    GEOSGeometry **slots = malloc((d->b.n ? d->b.n : 1) * sizeof *slots);
    if (!d->all_steps || !slots) {
        free(slots);
        return vsg_engine_fail(d->b.e, VSG_ERR_NOMEM, -1, -1, "out of memory");
    }
    /* Geometries move from the batch into the steps. */
    for (size_t c = 0; c < d->n_chunks; c++) {
        step_t *s = &d->all_steps[c];
        s->group = d->chunks[c].group;
        s->parts = slots + d->chunks[c].first;
        s->n_parts = d->groups[s->group].done ? 0 : d->chunks[c].count;
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
        if (!d->groups[d->chunks[c].group].done)
            d->all_steps[n++] = d->all_steps[c];
    vsg_status st = run_level(d, d->all_steps, n, "union");
    free(slots);
    return st;
}

static vsg_status merge_levels(dissolve_t *d)
{
    vsg_status st = VSG_OK;
    for (;;) {
        /* Pair the partials of every group: (0,1), (2,3), ...; an odd last
         * one goes up unchanged. */
        size_t n = 0;
        for (int64_t g = 0; g < d->n_groups; g++)
            n += d->groups[g].n_partials / 2;
        if (n == 0)
            break;
        GEOSGeometry **pairs = malloc(2 * n * sizeof *pairs);
        if (!pairs)
            return vsg_engine_fail(d->b.e, VSG_ERR_NOMEM, -1, -1, "out of memory");
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
                s->used_coverage = 0;
                gr->partials[k] = gr->partials[k + 1] = NULL;
                t++;
            }
        }
        /* Carry the odd ones: remember them before run_level refills. */
        GEOSGeometry **odd = calloc((size_t)d->n_groups, sizeof *odd);
        if (!odd) {
            free(pairs);
            return vsg_engine_fail(d->b.e, VSG_ERR_NOMEM, -1, -1, "out of memory");
        }
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

/* ---- encode and assemble --------------------------------------------- */

static void encode_task(void *vd, size_t g, int wid)
{
    dissolve_t *d = vd;
    group_t *gr = &d->groups[g];
    vsg_worker *w = &d->b.e->workers[wid];
    if (!gr->non_null || vsg_failure_skip(&d->b.failure, (int64_t)g))
        return;   /* all null (or no member): the SQL NULL of an aggregate */

    GEOSGeometry *r = gr->n_partials ? gr->partials[0] : NULL;
    if (gr->n_partials)
        gr->partials[0] = NULL;
    gr->n_partials = 0;
    if (gr->steps > 0) {
        if (gr->coverage_ok)
            w->counts.coverage_union_groups++;
        else
            w->counts.unary_union_groups++;
    }
    vsg_worker_clear_message(w);
    vsg_status st = VSG_OK;
    if (r)
        st = vsg_geom_keep_dim(w->ctx, r, d->dim, &r, NULL);
    if (st == VSG_OK)
        r = r ? vsg_geom_promote_multi(w->ctx, r) : vsg_geom_empty_multi(w->ctx, d->dim);
    if (st == VSG_OK && !r)
        st = VSG_ERR_GEOS;
    if (st == VSG_OK) {
        st = vsg_geom_to_wkb(w, r, &gr->wkb, &gr->size);
        GEOSGeom_destroy_r(w->ctx, r);
    }
    if (st != VSG_OK)
        vsg_failure_record(&d->b.failure, (int64_t)g, st, -1, -1, "group #%lld: %s",
                           (long long)g,
                           st == VSG_ERR_NOMEM ? "out of memory" : vsg_worker_take_message(w));
}

static vsg_status encode_groups(dissolve_t *d)
{
    double t0 = vsg_now_s();
    vsg_pool_run(d->b.e->pool, (size_t)d->n_groups, encode_task, d);
    vsg_status st = vsg_engine_take_failure(d->b.e, &d->b.failure);
    vsg_profile_add(d->b.e->profile, "encode", "CPU", vsg_now_s() - t0, d->n_groups,
                    d->n_groups, 0, 0, 0);
    return st;
}

static vsg_status assemble(dissolve_t *d, vsg_result *out)
{
    double t0 = vsg_now_s();
    if (vsg_result_reserve(out, (size_t)d->n_groups) != VSG_OK)
        return vsg_engine_fail(d->b.e, VSG_ERR_NOMEM, -1, -1, "out of memory");
    for (int64_t g = 0; g < d->n_groups; g++) {
        vsg_result_push(out, g, -1, d->groups[g].wkb, d->groups[g].size);
        d->groups[g].wkb = NULL;
    }
    d->b.e->counts.output_rows += d->n_groups;
    vsg_profile_add(d->b.e->profile, "assemble", "CPU", vsg_now_s() - t0, d->n_groups,
                    d->n_groups, 0, 0, 0);
    return VSG_OK;
}

static void dissolve_free(dissolve_t *d)
{
    GEOSContextHandle_t ctx = d->b.e->workers[0].ctx;
    if (d->groups) {
        for (int64_t g = 0; g < d->n_groups; g++) {
            group_t *gr = &d->groups[g];
            for (size_t k = 0; k < gr->n_partials; k++)
                if (gr->partials[k])
                    GEOSGeom_destroy_r(ctx, gr->partials[k]);
            free(gr->partials);
            free(gr->wkb);
        }
    }
    free(d->groups);
    free(d->members);
    free(d->chunks);
    free(d->all_steps);
    vsg_batch_free(&d->b);
}

vsg_status vsg_dissolve(vsg_engine *e, const vsg_wkb_array *geoms, const int64_t *group_of,
                        int64_t n_groups, vsg_result *out)
{
    if (!e || !geoms || !out || n_groups < 0 || (geoms->count && !group_of))
        return e ? vsg_engine_fail(e, VSG_ERR_INVALID_ARG, -1, -1, "vsg_dissolve: bad arguments")
                 : VSG_ERR_INVALID_ARG;
    vsg_engine_begin_call(e);
    vsg_result_clear(out);
    for (size_t i = 0; i < geoms->count; i++)
        if (group_of[i] < 0 || group_of[i] >= n_groups)
            return vsg_engine_fail(e, VSG_ERR_INVALID_ARG, (int64_t)i, -1,
                                   "input feature #%zu: group %lld outside [0, %lld)", i,
                                   (long long)group_of[i], (long long)n_groups);

    dissolve_t d;
    memset(&d, 0, sizeof d);
    vsg_status st = vsg_batch_init(&d.b, e, geoms);
    if (st != VSG_OK)
        return st;
    d.group_of = group_of;
    d.n_groups = n_groups;
    d.groups = calloc(n_groups ? (size_t)n_groups : 1, sizeof *d.groups);
    if (!d.groups)
        st = vsg_engine_fail(e, VSG_ERR_NOMEM, -1, -1, "out of memory");

    if (st == VSG_OK)
        st = vsg_batch_read(&d.b);
    if (st == VSG_OK)
        st = type_filter(&d);
    if (st == VSG_OK)
        st = plan(&d);
    if (st == VSG_OK)
        st = coverage_phase(&d);
    if (st == VSG_OK)
        st = union_chunks(&d);
    if (st == VSG_OK)
        st = merge_levels(&d);
    if (st == VSG_OK)
        st = encode_groups(&d);
    if (st == VSG_OK)
        st = assemble(&d, out);

    dissolve_free(&d);
    vsg_engine_collect_counts(e);
    if (st != VSG_OK)
        vsg_result_clear(out);
    return st;
}
