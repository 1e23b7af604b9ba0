/*
 * dissolve.c - union of geometries grouped by group_of, one result per
 * group, in group order.
 *
 *   read         geometries to GEOS, bad-input policy applied; the
 *                members the GPU pipeline's screen proved valid are left
 *                unparsed (deferred), and parsed below only where GEOS
 *                must work on them
 *   type filter  keep the parts of the call's dimension d (the highest
 *                seen); other parts dropped and counted (type_skipped)
 *   plan         members of each group; a group larger than a chunk is
 *                ordered along a Morton curve and cut into chunks
 *   parse        the deferred neighbours of repaired members
 *   group union  polygons only: the group union handed in (the GPU
 *                pipeline's coverage union, exact, on the device or the
 *                host backend) settles every group that provably is a
 *                coverage (fast_groups.c)
 *   parse        the deferred members of the groups left
 *   coverage     the other polygon groups of several chunks: a coverage
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
 * Between the stages, and between the tasks the calling thread runs, the
 * number of groups finished goes to the engine's progress callback, which
 * can stop the call (progress.c).
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

#include "core/fault.h"
#include "dissolve/chunking.h"
#include "dissolve/dissolve_internal.h"
#include "dissolve/group_union.h"
#include "geometry/dimension.h"

/* ---- type filter --------------------------------------------------- */

static void keep_dim(dissolve_t *d, size_t i, vsg_worker *w)
{
    vsg_read_result *in = &d->b.in[i];
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

static void filter_task(void *vd, size_t i, int wid)
{
    dissolve_t *d = vd;
    vsg_read_result *in = &d->b.in[i];
    /* a deferred row is a polygon, of the call's dimension: filtered when
     * it is parsed (parse_deferred) */
    if (in->outcome != VSG_READ_GEOM || in->deferred ||
        vsg_failure_skip(&d->b.failure, (int64_t)i))
        return;
    keep_dim(d, i, &d->b.e->workers[wid]);
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

/* ---- deferred parses -------------------------------------------------
 * The reader leaves the members the GPU pipeline's screen proved valid
 * unparsed (vsg_batch.defer_parse): the group union reads their WKB, and
 * GEOS needs only those of the groups it unions itself, and, before the
 * group union, the neighbours of repaired members (fast_groups.c unions
 * those with GEOS). */

typedef struct {
    dissolve_t *d;
    const unsigned char *want;   /* per row */
} parse_job;

static void parse_task(void *vp, size_t i, int wid)
{
    parse_job *p = vp;
    dissolve_t *d = p->d;
    vsg_read_result *in = &d->b.in[i];
    if (!in->deferred || !p->want[i] || vsg_failure_skip(&d->b.failure, (int64_t)i))
        return;
    vsg_worker *w = &d->b.e->workers[wid];
    char msg[512];
    vsg_status st = vsg_read_parse_deferred(w, d->b.input->wkb[i], in, msg, sizeof msg);
    if (st != VSG_OK) {
        vsg_failure_record(&d->b.failure, (int64_t)i, st, (int64_t)i, -1,
                           "input feature #%lld: %s", (long long)i, msg);
        return;
    }
    keep_dim(d, i, w);
}

/* Stage "parse_deferred" (rows in: those deferred; out: those parsed):
 * the deferred rows with want[i] (taken). */
static vsg_status parse_rows(dissolve_t *d, unsigned char *want)
{
    double t0 = vsg_now_s();
    int64_t deferred = 0, n = 0;
    for (size_t i = 0; i < d->b.n; i++) {
        deferred += d->b.in[i].deferred;
        n += want[i] = want[i] && d->b.in[i].deferred;
    }
    vsg_status st = VSG_OK;
    if (n > 0) {
        parse_job p = {d, want};
        vsg_pool_run(d->b.e->pool, d->b.n, parse_task, &p);
        st = vsg_engine_take_failure(d->b.e, &d->b.failure);
        vsg_profile_add(d->b.e->profile, "parse_deferred", "CPU", vsg_now_s() - t0, deferred, n,
                        0, 0, 0);
    }
    free(want);
    return st;
}

static int has_deferred(const dissolve_t *d)
{
    for (size_t i = 0; i < d->b.n; i++)
        if (d->b.in[i].deferred)
            return 1;
    return 0;
}

/* The deferred members whose box meets a repaired member's box of their
 * group: the repairs' neighbours, which the group union's passes may
 * union with GEOS (clusters.c, fast_groups.c's members set aside). */
static vsg_status parse_near_repairs(dissolve_t *d)
{
    size_t n = d->b.n;
    if (!has_deferred(d))
        return VSG_OK;
    unsigned char *rep = vsg_malloc(n ? n : 1), *want = vsg_malloc(n ? n : 1);
    vsg_status st = rep && want ? VSG_OK : VSG_ERR_NOMEM;
    for (size_t i = 0; st == VSG_OK && i < n; i++) {
        rep[i] = d->b.in[i].outcome == VSG_READ_GEOM && d->b.in[i].repaired;
        want[i] = (unsigned char)d->b.in[i].deferred;
    }
    if (st == VSG_OK)
        st = vsg_dissolve_near_marked(d, rep, want);
    free(rep);
    if (st != VSG_OK) {
        free(want);
        return vsg_engine_fail(d->b.e, VSG_ERR_NOMEM, -1, -1, "out of memory");
    }
    return parse_rows(d, want);
}

/* The deferred members of the groups the group union did not settle. */
static vsg_status parse_unsettled(dissolve_t *d)
{
    size_t n = d->b.n;
    if (!has_deferred(d))
        return VSG_OK;
    unsigned char *want = vsg_malloc(n ? n : 1);
    if (!want)
        return vsg_engine_fail(d->b.e, VSG_ERR_NOMEM, -1, -1, "out of memory");
    for (size_t i = 0; i < n; i++)
        want[i] = !d->groups[d->group_of[i]].fast;
    return parse_rows(d, want);
}

/* ---- plan ------------------------------------------------------------ */

/* The Morton sorts of the groups' members, one pool task per group (each
 * sorts its own range of d->members; the sort is serial within a group). */
typedef struct {
    dissolve_t *d;
    const size_t *count;     /* group g's members: [count[g], count[g + 1]) */
    const double *boxes;
    unsigned char *nomem;    /* per group */
} morton_job;

static void morton_task(void *vp, size_t g, int wid)
{
    (void)wid;
    morton_job *j = vp;
    size_t first = j->count[g], m = j->count[g + 1] - first;
    if (m > VSG_DISSOLVE_CHUNK && vsg_morton_sort(j->d->members + first, m, j->boxes) != 0)
        j->nomem[g] = 1;
}

static vsg_status plan(dissolve_t *d)
{
    double t0 = vsg_now_s();
    size_t n = d->b.n, G = (size_t)d->n_groups;
    size_t *count = vsg_calloc(G + 1, sizeof *count);
    d->members = vsg_malloc((n ? n : 1) * sizeof *d->members);
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
    size_t *fill = vsg_malloc((G ? G : 1) * sizeof *fill);
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
    double *boxes = vsg_malloc((n ? n : 1) * 4 * sizeof *boxes);
    size_t n_chunks = 0;
    for (size_t g = 0; g < G; g++) {
        size_t m = count[g + 1] - count[g];
        n_chunks += (m + VSG_DISSOLVE_CHUNK - 1) / VSG_DISSOLVE_CHUNK;
    }
    d->chunks = vsg_malloc((n_chunks ? n_chunks : 1) * sizeof *d->chunks);
    if (!boxes || !d->chunks) {
        free(boxes);
        free(count);
        return vsg_engine_fail(d->b.e, VSG_ERR_NOMEM, -1, -1, "out of memory");
    }
    for (size_t i = 0; i < n; i++)
        memcpy(boxes + 4 * i, d->b.in[i].box, 4 * sizeof *boxes);

    vsg_status st = VSG_OK;
    unsigned char *nomem = vsg_calloc(G ? G : 1, 1);
    if (nomem) {
        morton_job mj = {d, count, boxes, nomem};
        vsg_pool_run(d->b.e->pool, G, morton_task, &mj);
    }
    if (!nomem || memchr(nomem, 1, G))
        st = vsg_engine_fail(d->b.e, VSG_ERR_NOMEM, -1, -1, "out of memory");
    free(nomem);
    for (size_t g = 0; g < G && st == VSG_OK; g++) {
        size_t first = count[g], m = count[g + 1] - count[g];
        d->groups[g].first_chunk = d->n_chunks;
        d->groups[g].coverage_ok = 1;
        if (m == 0)
            vsg_dissolve_group_finished(d);   /* nothing to union */
        if (m > 0) {
            /* One slot per chunk: merge levels only shrink the count. */
            size_t nc = (m + VSG_DISSOLVE_CHUNK - 1) / VSG_DISSOLVE_CHUNK;
            d->groups[g].n_chunks = nc;
            d->groups[g].partials = vsg_calloc(nc, sizeof(GEOSGeometry *));
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

/* ---- encode and assemble --------------------------------------------- */

static void encode_task(void *vd, size_t g, int wid)
{
    dissolve_t *d = vd;
    group_t *gr = &d->groups[g];
    vsg_worker *w = &d->b.e->workers[wid];
    if (!gr->non_null || vsg_failure_skip(&d->b.failure, (int64_t)g))
        return;   /* all null (or no member): the SQL NULL of an aggregate */
    if (gr->fast) {
        w->counts.coverage_union_groups++;
        return;   /* the group union wrote its WKB */
    }

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
    for (size_t c = 0; d->chunk_partial && c < d->n_chunks; c++)
        if (d->chunk_partial[c])
            GEOSGeom_destroy_r(ctx, d->chunk_partial[c]);
    free(d->chunk_partial);
    free(d->chunk_consumed);
    free(d->groups);
    free(d->members);
    free(d->chunks);
    free(d->all_steps);
    vsg_batch_free(&d->b);
}

vsg_status vsg_dissolve_with(vsg_engine *e, const vsg_wkb_array *geoms, const int64_t *group_of,
                             int64_t n_groups, vsg_group_union_fn fast, vsg_result *out)
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
    atomic_init(&d.groups_done, 0);
    atomic_init(&d.stop, 0);
    vsg_status st = vsg_batch_init(&d.b, e, geoms);
    if (st != VSG_OK)
        return st;
    d.group_of = group_of;
    d.n_groups = n_groups;
    d.groups = vsg_calloc(n_groups ? (size_t)n_groups : 1, sizeof *d.groups);
    if (!d.groups)
        st = vsg_engine_fail(e, VSG_ERR_NOMEM, -1, -1, "out of memory");

    d.b.defer_parse = 1;
    if (st == VSG_OK)
        st = vsg_batch_read(&d.b);
    if (st == VSG_OK)
        st = type_filter(&d);
    if (st == VSG_OK)
        st = plan(&d);
    if (st == VSG_OK)
        st = vsg_dissolve_checkpoint(&d, 0);
    if (st == VSG_OK)
        st = parse_near_repairs(&d);
    if (st == VSG_OK)
        st = vsg_dissolve_fast_groups(&d, fast);
    if (st == VSG_OK)
        st = parse_unsettled(&d);
    if (st == VSG_OK)
        st = vsg_dissolve_checkpoint(&d, 0);
    if (st == VSG_OK)
        st = vsg_dissolve_coverage_phase(&d);
    if (st == VSG_OK)
        st = vsg_dissolve_checkpoint(&d, 0);
    if (st == VSG_OK)
        st = vsg_dissolve_union_chunks(&d);
    if (st == VSG_OK)
        st = vsg_dissolve_checkpoint(&d, 0);
    if (st == VSG_OK)
        st = vsg_dissolve_merge_levels(&d);
    if (st == VSG_OK)
        st = vsg_dissolve_checkpoint(&d, 1);
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
