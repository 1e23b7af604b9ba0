/*
 * clusters.c - the repaired members that do not fit, each with its
 * neighbours as one polygon (clusters.h says why that fits). One STR tree
 * over those members' boxes finds the neighbours; a union-find joins the
 * clusters that share one; GEOS unions each cluster (one pool task each).
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

/* up[i]: member i's union-find parent; in[i]: i is in a cluster. */
static vsg_status link_neighbours(dissolve_t *d, const unsigned char *aside, int64_t *up,
                                  unsigned char *in)
{
    size_t n = d->b.n;
    double *boxes = vsg_malloc((n ? n : 1) * 4 * sizeof *boxes);
    unsigned char *rep = vsg_calloc(n ? n : 1, 1);
    vsg_strtree *t = NULL;
    vsg_id_list hits = {0};
    vsg_status st = boxes && rep ? VSG_OK : VSG_ERR_NOMEM;
    for (size_t i = 0; st == VSG_OK && i < n; i++) {
        memcpy(boxes + 4 * i, d->b.in[i].box, 4 * sizeof *boxes);
        rep[i] = aside[i] == 1;
        in[i] = rep[i];
        up[i] = (int64_t)i;
    }
    if (st == VSG_OK)
        st = vsg_strtree_build(boxes, rep, n, &t);
    for (size_t i = 0; st == VSG_OK && i < n; i++) {
        if (d->b.in[i].outcome != VSG_READ_GEOM)
            continue;
        if ((st = vsg_strtree_query(t, d->b.in[i].box, &hits)) != VSG_OK)
            break;
        for (size_t k = 0; k < hits.n; k++) {
            int64_t r = hits.ids[k];
            if (d->group_of[r] != d->group_of[i])
                continue;
            in[i] = 1;
            join(up, (int64_t)i, r);
        }
    }
    vsg_strtree_destroy(t);
    vsg_id_list_free(&hits);
    free(boxes);
    free(rep);
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
    double *boxes = vsg_malloc((n ? n : 1) * 4 * sizeof *boxes);
    vsg_strtree *t = NULL;
    vsg_id_list hits = {0};
    vsg_status st = boxes ? VSG_OK : VSG_ERR_NOMEM;
    for (size_t i = 0; st == VSG_OK && i < n; i++)
        memcpy(boxes + 4 * i, d->b.in[i].box, 4 * sizeof *boxes);
    if (st == VSG_OK)
        st = vsg_strtree_build(boxes, marked, n, &t);
    for (size_t i = 0; st == VSG_OK && i < n; i++) {
        if (!want[i] || (st = vsg_strtree_query(t, d->b.in[i].box, &hits)) != VSG_OK)
            continue;
        unsigned char meets = 0;
        for (size_t k = 0; k < hits.n; k++)
            meets |= d->group_of[hits.ids[k]] == d->group_of[i];
        want[i] = meets;
    }
    vsg_strtree_destroy(t);
    vsg_id_list_free(&hits);
    free(boxes);
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
