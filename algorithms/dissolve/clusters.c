/*
 * clusters.c - the repaired members that do not fit, each with its
 * neighbours as one polygon (clusters.h says why that fits). One STR tree
 * over those members' boxes finds the neighbours (queried on the pool);
 * a union-find joins the clusters that share one; GEOS unions each
 * cluster (one pool task each).
 */
#include "dissolve/clusters.h"

#include <stdlib.h>
#include <string.h>

#include "core/fault.h"
#include "core/worker.h"
#include "dissolve/union_step.h"
#include "geometry/dimension.h"
#include "index/strtree.h"

static int64_t find(int64_t *up, int64_t i)
{
    while (up[i] != i) {
        up[i] = up[up[i]];
        i = up[i];
    }
    return i;
}

static void join(int64_t *up, int64_t a, int64_t b)
{
    a = find(up, a);
    b = find(up, b);
    if (a != b)
        up[a > b ? a : b] = a < b ? a : b;   /* the root: the first member */
}

/* ---- the neighbour search: one STR tree over the marked members' boxes,
 * queried by every asked member in slices on the engine's pool (the
 * queries were a serial loop over every row of the statement). Each
 * slice keeps its pairs (i, r): r marked, of i's group, its box meeting
 * i's; read in slice order they come by i, then r, as a serial loop
 * gives them. */

typedef struct {
    const dissolve_t *d;
    const vsg_strtree *t;       /* over the marked rows' boxes             */
    const int64_t *id_of;       /* the tree's ids: the marked rows         */
    const unsigned char *ask;   /* rows that query the tree                */
    size_t per;                 /* rows per slice                          */
    vsg_id_list *pairs;         /* per slice: i, r, i, r, ...              */
    unsigned char *nomem;       /* per slice                               */
} near_job;

static void near_task(void *vp, size_t k, int wid)
{
    (void)wid;
    near_job *j = vp;
    const dissolve_t *d = j->d;
    size_t i0 = k * j->per, i1 = i0 + j->per < d->b.n ? i0 + j->per : d->b.n;
    vsg_id_list hits = {0};
    for (size_t i = i0; i < i1 && !j->nomem[k]; i++) {
        if (!j->ask[i])
            continue;
        if (vsg_strtree_query(j->t, d->b.in[i].box, &hits) != VSG_OK) {
            j->nomem[k] = 1;
            break;
        }
        /* hits come sorted by id, so the r come in input order */
        for (size_t h = 0; h < hits.n; h++) {
            int64_t r = j->id_of[hits.ids[h]];
            if (d->group_of[r] != d->group_of[i])
                continue;
            if (vsg_id_list_push(&j->pairs[k], (int64_t)i) != VSG_OK ||
                vsg_id_list_push(&j->pairs[k], r) != VSG_OK) {
                j->nomem[k] = 1;
                break;
            }
        }
    }
    vsg_id_list_free(&hits);
}

/* The pairs of asked members and marked ones of their group whose boxes
 * meet, in *pairs (i, r, ...; by i, then r); free with vsg_id_list_free. */
static vsg_status near_pairs(const dissolve_t *d, const unsigned char *marked,
                             const unsigned char *ask, vsg_id_list *pairs)
{
    size_t n = d->b.n, m = 0;
    memset(pairs, 0, sizeof *pairs);
    for (size_t i = 0; i < n; i++)
        m += marked[i] != 0;
    /* the tree over the marked boxes only (a few per cent of the rows);
     * its ids index id_of, the marked rows in input order */
    double *boxes = vsg_malloc((m ? m : 1) * 4 * sizeof *boxes);
    int64_t *id_of = vsg_malloc((m ? m : 1) * sizeof *id_of);
    vsg_strtree *t = NULL;
    vsg_status st = boxes && id_of ? VSG_OK : VSG_ERR_NOMEM;
    for (size_t i = 0, k = 0; st == VSG_OK && i < n; i++)
        if (marked[i]) {
            memcpy(boxes + 4 * k, d->b.in[i].box, 4 * sizeof *boxes);
            id_of[k++] = (int64_t)i;
        }
    if (st == VSG_OK)
        st = vsg_strtree_build(boxes, NULL, m, &t);
    /* slices of at least 4,096 rows, a few per thread for the balance */
    size_t S = (size_t)vsg_engine_num_threads(d->b.e) * 4, per = n / (S ? S : 1) + 1;
    per = per < 4096 ? 4096 : per;
    S = (n + per - 1) / per;
    vsg_id_list *part = vsg_calloc(S ? S : 1, sizeof *part);
    unsigned char *nomem = vsg_calloc(S ? S : 1, 1);
    if (st == VSG_OK && (!part || !nomem))
        st = VSG_ERR_NOMEM;
    if (st == VSG_OK && S > 0) {
        near_job j = {d, t, id_of, ask, per, part, nomem};
        vsg_pool_run(d->b.e->pool, S, near_task, &j);
        if (memchr(nomem, 1, S))
            st = VSG_ERR_NOMEM;
    }
    for (size_t k = 0; st == VSG_OK && k < S; k++)
        for (size_t h = 0; st == VSG_OK && h < part[k].n; h++)
            st = vsg_id_list_push(pairs, part[k].ids[h]);
    for (size_t k = 0; part && k < S; k++)
        vsg_id_list_free(&part[k]);
    free(part);
    free(nomem);
    vsg_strtree_destroy(t);
    free(boxes);
    free(id_of);
    if (st != VSG_OK)
        vsg_id_list_free(pairs);
    return st;
}

/* up[i]: member i's union-find parent; in[i]: i is in a cluster. The
 * clusters do not depend on the order of the joins: a cluster's root is
 * its first member whatever the order. */
static vsg_status link_neighbours(dissolve_t *d, const unsigned char *aside, int64_t *up,
                                  unsigned char *in)
{
    size_t n = d->b.n;
    unsigned char *rep = vsg_calloc(n ? n : 1, 1), *ask = vsg_calloc(n ? n : 1, 1);
    vsg_id_list p = {0};
    vsg_status st = rep && ask ? VSG_OK : VSG_ERR_NOMEM;
    for (size_t i = 0; st == VSG_OK && i < n; i++) {
        rep[i] = aside[i] == 1;
        in[i] = rep[i];
        up[i] = (int64_t)i;
        ask[i] = d->b.in[i].outcome == VSG_READ_GEOM;
    }
    if (st == VSG_OK)
        st = near_pairs(d, rep, ask, &p);
    for (size_t h = 0; st == VSG_OK && h + 1 < p.n; h += 2) {
        in[p.ids[h]] = 1;
        join(up, p.ids[h], p.ids[h + 1]);
    }
    vsg_id_list_free(&p);
    free(rep);
    free(ask);
    return st;
}

vsg_status vsg_dissolve_near_marked(const dissolve_t *d, const unsigned char *marked,
                                    unsigned char *want)
{
    size_t n = d->b.n;
    if (!memchr(marked, 1, n)) {
        memset(want, 0, n);
        return VSG_OK;
    }
    vsg_id_list p = {0};
    vsg_status st = near_pairs(d, marked, want, &p);
    if (st == VSG_OK) {
        memset(want, 0, n);
        for (size_t h = 0; h + 1 < p.n; h += 2)
            want[p.ids[h]] = 1;
    }
    vsg_id_list_free(&p);
    return st;
}

typedef struct {
    dissolve_t *d;
    vsg_clusters *c;
    const size_t *first;     /* per cluster: its members in mem[]          */
    const int64_t *mem;      /* members by cluster, in input order         */
    unsigned char *nomem;    /* per cluster: our allocation failed         */
} cluster_job;

static void cluster_task(void *vp, size_t k, int wid)
{
    cluster_job *j = vp;
    dissolve_t *d = j->d;
    vsg_worker *w = &d->b.e->workers[wid];
    if (vsg_dissolve_stopped(d))
        return;
    size_t n = j->first[k + 1] - j->first[k];
    GEOSGeometry **parts = vsg_malloc((n ? n : 1) * sizeof *parts);
    if (!parts) {
        j->nomem[k] = 1;
        return;
    }
    size_t m = 0;
    for (; m < n; m++)
        if (!(parts[m] = GEOSGeom_clone_r(w->ctx, d->b.in[j->mem[j->first[k] + m]].geom)))
            break;
    GEOSGeometry *u = NULL;
    int used_coverage = 0;
    vsg_status st = VSG_ERR_GEOS;
    vsg_worker_clear_message(w);
    if (m == n)   /* takes the parts */
        st = vsg_union_parts(w, parts, n, 1, 0, &u, &used_coverage);
    else
        for (size_t i = 0; i < m; i++)
            GEOSGeom_destroy_r(w->ctx, parts[i]);
    free(parts);
    /* a GEOS failure leaves the cluster without WKB: the old way then */
    if (st == VSG_ERR_NOMEM ||
        (u && vsg_geom_to_wkb(w, u, &j->c->wkb[k], &j->c->size[k]) == VSG_ERR_NOMEM))
        j->nomem[k] = 1;
    if (u)
        GEOSGeom_destroy_r(w->ctx, u);
}

vsg_status vsg_dissolve_clusters(dissolve_t *d, const unsigned char *aside, vsg_clusters *c)
{
    size_t n = d->b.n;
    memset(c, 0, sizeof *c);
    if (!memchr(aside, 1, n))
        return VSG_OK;
    double t0 = vsg_now_s();
    int64_t *up = vsg_malloc((n ? n : 1) * sizeof *up);
    unsigned char *in = vsg_malloc(n ? n : 1);
    int64_t *mem = vsg_malloc((n ? n : 1) * sizeof *mem);
    size_t *first = NULL;
    unsigned char *nomem = NULL;
    c->of = vsg_malloc((n ? n : 1) * sizeof *c->of);
    vsg_status st = up && in && mem && c->of ? VSG_OK : VSG_ERR_NOMEM;
    if (st == VSG_OK)
        st = link_neighbours(d, aside, up, in);
    /* clusters numbered by their first member (the root), in input order */
    for (size_t i = 0; st == VSG_OK && i < n; i++) {
        c->of[i] = -1;
        if (in[i] && find(up, (int64_t)i) == (int64_t)i)
            c->of[i] = (int64_t)c->n++;
    }
    for (size_t i = 0; st == VSG_OK && i < n; i++)
        if (in[i])
            c->of[i] = c->of[find(up, (int64_t)i)];
    if (st == VSG_OK) {
        first = vsg_calloc(c->n + 1, sizeof *first);
        nomem = vsg_calloc(c->n ? c->n : 1, 1);
        c->group = vsg_malloc((c->n ? c->n : 1) * sizeof *c->group);
        c->wkb = vsg_calloc(c->n ? c->n : 1, sizeof *c->wkb);
        c->size = vsg_calloc(c->n ? c->n : 1, sizeof *c->size);
        if (!first || !nomem || !c->group || !c->wkb || !c->size)
            st = VSG_ERR_NOMEM;
    }
    if (st == VSG_OK && c->n > 0) {
        /* members by cluster (a counting sort, input order kept) */
        for (size_t i = 0; i < n; i++)
            if (c->of[i] >= 0)
                first[c->of[i] + 1]++;
        for (size_t k = 0; k < c->n; k++)
            first[k + 1] += first[k];
        size_t *at = vsg_malloc((c->n ? c->n : 1) * sizeof *at);
        if (!at) {
            st = VSG_ERR_NOMEM;
        } else {
            memcpy(at, first, c->n * sizeof *at);
            for (size_t i = 0; i < n; i++)
                if (c->of[i] >= 0) {
                    c->group[c->of[i]] = d->group_of[i];
                    mem[at[c->of[i]]++] = (int64_t)i;
                }
            free(at);
            cluster_job j = {d, c, first, mem, nomem};
            vsg_pool_run(d->b.e->pool, c->n, cluster_task, &j);
            if (memchr(nomem, 1, c->n))
                st = VSG_ERR_NOMEM;
        }
    }
    int64_t members = c->n && first ? (int64_t)first[c->n] : 0;
    free(up);
    free(in);
    free(mem);
    free(first);
    free(nomem);
    if (st == VSG_OK)
        vsg_profile_add(d->b.e->profile, "repair_clusters", "CPU", vsg_now_s() - t0, members,
                        (int64_t)c->n, 0, 0, 0);
    return st == VSG_OK ? VSG_OK : vsg_engine_fail(d->b.e, st, -1, -1, "out of memory");
}

void vsg_clusters_free(vsg_clusters *c)
{
    for (size_t k = 0; c->wkb && k < c->n; k++)
        free(c->wkb[k]);
    free(c->of);
    free(c->group);
    free(c->wkb);
    free(c->size);
    memset(c, 0, sizeof *c);
}
