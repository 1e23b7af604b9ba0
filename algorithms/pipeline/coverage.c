/*
 * coverage.c - the group union of dissolve (pipeline/coverage.h): the
 * members decoded to columnar, the coverage union stage run on the
 * statement's GPU backend (or the host backend when the statement runs on
 * the CPU engine), the settled groups written as WKB.
 *
 * On the GPU the groups the coverage union does not settle (members that
 * overlap, members inside members, T-junctions) go on to the overlap union
 * stage (stages/union/overlap.c), which unions any polygons it can node
 * exactly. The CPU engine leaves them to GEOS: the overlap union labels
 * each segment once per overlapping neighbour, and on a few cores GEOS's
 * unions are faster (docs/benchmarks.md, the overlap dissolve).
 *
 * On the GPU the failure rule is the pipeline's (pipeline/state.h): under
 * strict GPU mode a failure fails the statement; in AUTO every group goes
 * on to GEOS, counted. Groups the stage does not settle are not failures:
 * they are counted (GPU_GROUPS_RERUN_ON_CPU) and named in the warning.
 */
#include "pipeline/coverage.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "columnar/columnar.h"
#include "core/fault.h"
#include "exec/exec.h"
#include "pipeline/state.h"
#include "stages/stages.h"
#include "stages/step.h"

typedef vsg_status (*union_stage_fn)(vsg_exec *x, const vsg_col_view *in,
                                     const int64_t *group_of, int64_t n_groups,
                                     vsg_columnar *out, uint8_t *group_ok, uint32_t *why);

typedef struct {
    vsg_exec *x;
    int on_gpu;
    int gathered;             /* dev gathered on x already (no upload)  */
    union_stage_fn stage;
    vsg_columnar host, dev, out_dev, out;
    int64_t *group_of_dev;
    uint8_t *ok_dev;
    uint32_t *why, *why_dev;
} cov_run;

/* Where a union call runs: its backend (the statement's GPU backend, or
 * a host one of the CPU engine's), the validity screen's decode to gather
 * members from (NULL: none), and the engine's pool for the host work
 * around the stage (NULL: this thread, as inside a pool task). */
typedef struct {
    vsg_exec *x;
    int on_gpu;
    const vsg_screened *sc;
    vsg_pool *pool;
} union_env;

static void run_free(cov_run *r)
{
    vsg_columnar_free(&r->out);
    vsg_columnar_free(&r->out_dev);
    vsg_columnar_free(&r->dev);
    vsg_columnar_free(&r->host);
    if (r->on_gpu) {
        vsg_exec_free(r->x, r->group_of_dev);
        vsg_exec_free(r->x, r->ok_dev);
        vsg_exec_free(r->x, r->why_dev);
    }
    free(r->why);
}

/* The stage on the backend: members up (GPU), the result down. */
static vsg_status run_stage(cov_run *r, const int64_t *group_of, int64_t n_groups, uint8_t *ok)
{
    vsg_exec *x = r->x;
    vsg_status st;
    size_t G = (size_t)n_groups, n = (size_t)(r->gathered ? r->dev : r->host).n_geoms;
    if (!r->on_gpu) {
        vsg_col_view v = vsg_columnar_view(&r->host);
        return r->stage(x, &v, group_of, n_groups, &r->out, ok, r->why);
    }
    if (!r->gathered)
        TRY(vsg_columnar_upload(x, &r->host, &r->dev));
    TRY(vsg_exec_alloc(x, (n ? n : 1) * sizeof(int64_t), (void **)&r->group_of_dev));
    TRY(vsg_exec_alloc(x, G ? G : 1, (void **)&r->ok_dev));
    TRY(vsg_exec_alloc(x, (G ? G : 1) * sizeof(uint32_t), (void **)&r->why_dev));
    TRY(vsg_exec_upload(x, r->group_of_dev, group_of, n * sizeof(int64_t)));
    vsg_col_view v = vsg_columnar_view(&r->dev);
    TRY(r->stage(x, &v, r->group_of_dev, n_groups, &r->out_dev, r->ok_dev, r->why_dev));
    TRY(vsg_columnar_download(x, &r->out_dev, &r->out));
    TRY(vsg_exec_download(x, ok, r->ok_dev, G));
    TRY(vsg_exec_download(x, r->why, r->why_dev, G * sizeof(uint32_t)));
    st = vsg_exec_sync(x);
done:
    return st;
}

typedef struct {
    const cov_run *r;
    const uint8_t *ok;
    const int64_t *g_of;
    int64_t n_groups, per_task;
    vsg_group_union_out *out;
    atomic_int nomem;          /* set by any task that runs out of memory */
} write_job;

static void write_task(void *vj, size_t t, int wid)
{
    (void)wid;
    write_job *w = vj;
    int64_t j1 = ((int64_t)t + 1) * w->per_task;
    for (int64_t j = (int64_t)t * w->per_task; j < j1 && j < w->n_groups; j++) {
        int64_t g = w->g_of ? w->g_of[j] : j;
        if (!w->ok[j])
            continue;
        size_t sz = vsg_columnar_wkb_size(&w->r->out, j);
        unsigned char *wkb = vsg_malloc(sz ? sz : 1);
        if (!wkb) {
            atomic_store(&w->nomem, 1);
            return;
        }
        vsg_columnar_write_wkb(&w->r->out, j, wkb);
        w->out->wkb[g] = wkb;
        w->out->size[g] = sz;
        w->out->ok[g] = 1;
    }
}

/* The WKB of the groups settled in r (its group j is out's group
 * g_of[j]; NULL: the same), in runs of groups on the pool where there is
 * one (the boroughs' 144 groups are 174 MB of WKB); VSG_ERR_NOMEM: the
 * caller reports it (and frees what was written). */
static vsg_status write_groups(const cov_run *r, vsg_pool *pool, const uint8_t *ok,
                               const int64_t *g_of, int64_t n_groups, vsg_group_union_out *out)
{
    /* one task per group where there are few (they may be large), runs
     * of 64 where there are many; one run of all on this thread */
    int64_t per_task = !pool ? (n_groups > 0 ? n_groups : 1) : n_groups < 256 ? 1 : 64;
    write_job w = {r, ok, g_of, n_groups, per_task, out, 0};
    atomic_init(&w.nomem, 0);
    size_t tasks = (size_t)((n_groups + per_task - 1) / per_task);
    if (pool)
        vsg_pool_run(pool, tasks, write_task, &w);
    else if (tasks)
        write_task(&w, 0, 0);
    return atomic_load(&w.nomem) ? VSG_ERR_NOMEM : VSG_OK;
}

/* Member vertices per overlap union call. One arrangement per group
 * (elements/union/arrange.h) takes about 1 KB of the pool per vertex on
 * real data where members overlap their neighbours: the overlapping
 * counties peaked at 3.7 GB in three calls of 11 M vertices in all (run H
 * of docs/benchmarks.md, 2026-11-28, H200; the pairwise route before it
 * took 6-8 KB, 27 GB). Each call pays fixed costs (launches, the host's
 * reads of sizes, scans over small arrays) that fill the device only when
 * its arrays are large (in calls of 2^20 vertices the pairwise union took
 * 264 ms of device time, in two calls 196 ms: run A, 2026-11-27). So a
 * batch takes as many whole groups as half the backend's capacity holds
 * at 2 KB a vertex, between 2^20 (and so where the capacity is unknown:
 * the host backend without a limit) and 2^24 vertices; a larger group
 * goes alone, and a batch the device still cannot hold is halved
 * (overlap_batch). VSGPU_GPU_POOL_LIMIT bounds it all. */
#define OVU_BYTES_PER_VERTEX ((int64_t)2048)
#define OVU_BATCH_MIN ((size_t)1 << 20)
#define OVU_BATCH_MAX ((size_t)1 << 24)

static size_t ovu_batch_vertices(vsg_exec *x)
{
    vsg_gpu_stats s;
    vsg_exec_get_stats(x, &s);
    int64_t v = s.capacity_bytes / 2 / OVU_BYTES_PER_VERTEX;
    if (v < (int64_t)OVU_BATCH_MIN)
        return OVU_BATCH_MIN;
    return v > (int64_t)OVU_BATCH_MAX ? OVU_BATCH_MAX : (size_t)v;
}

/* stage over members on x, in a run of its own freed before it returns
 * (the next stage has the backend's memory): ok[j] for its groups, their
 * WKB into out's groups g_of[j] (g_of NULL: the same). */
static vsg_status union_call(const union_env *env, const int64_t *rows, union_stage_fn stage,
                             const vsg_wkb_array *members, const int64_t *group_of,
                             int64_t n_groups, const int64_t *g_of, uint8_t *ok,
                             vsg_group_union_out *out)
{
    vsg_exec *x = env->x;
    const vsg_screened *sc = env->sc;
    int on_gpu = env->on_gpu;
    cov_run r;
    memset(&r, 0, sizeof r);
    r.x = x;
    r.on_gpu = on_gpu;
    r.stage = stage;
    vsg_columnar_report rep;
    vsg_status st = VSG_OK;
    r.why = vsg_calloc((size_t)n_groups + 1, sizeof *r.why);
    if (!r.why)
        st = VSG_ERR_NOMEM;
    if (st == VSG_OK && on_gpu && sc && rows)
        st = vsg_screened_gather(x, sc, members, rows, &r.dev, &r.gathered);
    if (st == VSG_OK && !r.gathered && vsg_columnar_from_wkb(members, &r.host, &rep) != VSG_OK)
        st = VSG_ERR_NOMEM;
    if (st == VSG_OK)
        st = run_stage(&r, group_of, n_groups, ok);
    if (st == VSG_OK)
        st = write_groups(&r, env->pool, ok, g_of, n_groups, out);
    run_free(&r);
    return st;
}

static vsg_status overlap_halves(const union_env *env, const int64_t *rows,
                                 const vsg_wkb_array *sub, const int64_t *grp, int64_t G,
                                 const int64_t *g_of, vsg_group_union_out *out);

/* One overlap union call over members sub (groups 0..G-1, out's groups
 * g_of[]; a group's members consecutive). A stage that cannot take them
 * settles nothing and is no failure: out of memory, the batch is halved
 * by groups and each half tried again; keys too wide, or out of memory
 * for one group, GEOS unions those groups, counted. */
static vsg_status overlap_batch(const union_env *env, const int64_t *rows,
                                const vsg_wkb_array *sub, const int64_t *grp, int64_t G,
                                const int64_t *g_of, vsg_group_union_out *out)
{
    uint8_t *ok = vsg_calloc((size_t)G + 1, 1);
    vsg_status st = ok ? union_call(env, rows, vsg_stage_overlap_union, sub, grp, G, g_of, ok,
                                    out)
                       : VSG_ERR_NOMEM;
    free(ok);
    if (st == VSG_ERR_GPU_OOM && G > 1)
        return overlap_halves(env, rows, sub, grp, G, g_of, out);
    if (st == VSG_ERR_INVALID_ARG || st == VSG_ERR_GPU_OOM)
        st = VSG_OK;   /* nothing settled: the stage failed before any WKB was written */
    return st;
}

/* overlap_batch on groups [0, G/2) and [G/2, G) of sub, one after the
 * other (the second's groups renumbered from 0). */
static vsg_status overlap_halves(const union_env *env, const int64_t *rows,
                                 const vsg_wkb_array *sub, const int64_t *grp, int64_t G,
                                 const int64_t *g_of, vsg_group_union_out *out)
{
    int64_t h = G / 2;
    size_t k = 0;
    while (k < sub->count && grp[k] < h)
        k++;
    int64_t *grp2 = vsg_malloc((sub->count - k + 1) * sizeof *grp2);
    if (!grp2)
        return VSG_ERR_NOMEM;
    for (size_t i = k; i < sub->count; i++)
        grp2[i - k] = grp[i] - h;
    vsg_wkb_array lo = {k, sub->wkb, sub->size};
    vsg_wkb_array hi = {sub->count - k, sub->wkb + k, sub->size + k};
    vsg_status st = overlap_batch(env, rows, &lo, grp, h, g_of, out);
    if (st == VSG_OK)
        st = overlap_batch(env, rows ? rows + k : NULL, &hi, grp2, G - h, g_of + h, out);
    free(grp2);
    return st;
}

/* The CPU engine's overlap union (its own backend, one thread a group):
 * a group of more than OVU_HOST_GROUP_MAX vertices (WKB bytes / 16) is
 * left to GEOS's union, which splits one group's work across the threads
 * (dissolve/chunking.h), where one thread's arrangement would serialise
 * the statement. A fixed size, never derived from the thread count, so
 * that the output is the same on any number of threads. On this VM
 * (2026-11-28, docs/benchmarks.md) the arrangement dissolved the
 * overlapping counties 2.2 times and buffers of the counties 1.7 times
 * faster than GEOS's union, groups of at most about 13,000 vertices. */
#define OVU_HOST_GROUP_MAX ((size_t)1 << 14)

/* The overlap union of the groups with members that the coverage union
 * left (ok[g] = 0), renumbered 0.. in group order, their members grouped
 * in input order, in batches of whole groups; results written to out.
 * On the CPU engine's backend only groups of at most OVU_HOST_GROUP_MAX
 * vertices are offered, one a call: the stage's own limits (arrange.c)
 * then settle or refuse a group by itself, not by its batch, which the
 * thread count shapes. */
static vsg_status overlap_pass(const union_env *env, const int64_t *member_row,
                               const vsg_wkb_array *members,
                               const int64_t *group_of, int64_t n_groups, const uint8_t *ok,
                               vsg_group_union_out *out)
{
    size_t n = members->count, G1 = (size_t)n_groups + 1;
    int64_t G = 0;
    int64_t *new_id = vsg_malloc(G1 * sizeof *new_id), *g_of = vsg_malloc(G1 * sizeof *g_of);
    size_t *first = vsg_calloc(G1 + 1, sizeof *first), *verts = vsg_calloc(G1, sizeof *verts);
    const unsigned char **wkb = vsg_malloc((n ? n : 1) * sizeof *wkb);
    size_t *size = vsg_malloc((n ? n : 1) * sizeof *size);
    int64_t *grp = vsg_malloc((n ? n : 1) * sizeof *grp);
    int64_t *rows = vsg_malloc((n ? n : 1) * sizeof *rows);
    vsg_status st = new_id && g_of && first && verts && wkb && size && grp && rows
                        ? VSG_OK
                        : VSG_ERR_NOMEM;
    if (st != VSG_OK)
        goto done;
    /* verts[g]: the group's vertices, about 16 bytes of WKB each */
    for (size_t i = 0; i < n; i++)
        verts[group_of[i]] += members->size[i] / 16;
    for (int64_t g = 0; g < n_groups; g++)
        new_id[g] = -1;
    for (size_t i = 0; i < n; i++)
        if (!ok[group_of[i]])
            new_id[group_of[i]] = -2;   /* has members; numbered below, in group order */
    for (int64_t g = 0; g < n_groups; g++) {
        if (new_id[g] == -2 && (env->on_gpu || verts[g] <= OVU_HOST_GROUP_MAX)) {
            g_of[G] = g;
            verts[G] = verts[g];   /* renumbered in place: G <= g */
            new_id[g] = G++;
        } else {
            new_id[g] = -1;
        }
    }
    /* members by new group, input order within: a counting sort */
    for (size_t i = 0; i < n; i++)
        if (new_id[group_of[i]] >= 0)
            first[new_id[group_of[i]] + 2]++;
    for (int64_t j = 0; j < G; j++)
        first[j + 2] += first[j + 1];
    for (size_t i = 0; i < n; i++)
        if (new_id[group_of[i]] >= 0) {
            int64_t j = new_id[group_of[i]];
            size_t k = first[j + 1]++;
            wkb[k] = members->wkb[i];
            size[k] = members->size[i];
            rows[k] = member_row ? member_row[i] : -1;
            grp[k] = j;
        }
    /* batches of consecutive groups up to the vertex budget (the CPU
     * engine: one group a call) */
    const size_t budget = env->on_gpu ? ovu_batch_vertices(env->x) : 0;
    for (int64_t j0 = 0, j1; st == VSG_OK && j0 < G; j0 = j1) {
        size_t v = verts[j0];
        for (j1 = j0 + 1; j1 < G && v + verts[j1] <= budget; j1++)
            v += verts[j1];
        size_t k0 = first[j0], k1 = first[j1];
        for (size_t k = k0; k < k1; k++)
            grp[k] -= j0;
        vsg_wkb_array sub = {k1 - k0, wkb + k0, size + k0};
        st = overlap_batch(env, member_row ? rows + k0 : NULL, &sub, grp + k0, j1 - j0,
                           g_of + j0, out);
    }
done:
    free(new_id);
    free(g_of);
    free(first);
    free(verts);
    free(wkb);
    free(size);
    free(grp);
    free(rows);
    return st;
}

/* seen[g] = 1 for the groups with members in this call (NULL: out of
 * memory, and nothing is counted by group). */
static unsigned char *groups_seen(const int64_t *group_of, size_t n, int64_t n_groups)
{
    unsigned char *seen = vsg_calloc((size_t)n_groups + 1, 1);
    for (size_t i = 0; seen && i < n; i++)
        seen[group_of[i]] = 1;
    return seen;
}

/* GPU_GROUPS, GPU_GROUPS_RERUN_ON_CPU, and the rows of the groups that
 * GEOS dissolves with the reason in the statement's warning. */
static void count_gpu(vsg_engine *e, const int64_t *group_of, size_t n, int64_t n_groups,
                      const uint8_t *ok, const uint8_t *retried)
{
    int64_t settled = 0, offered = 0, back_rows = 0, later_rows = 0;
    unsigned char *seen = groups_seen(group_of, n, n_groups);
    for (int64_t g = 0; seen && g < n_groups; g++) {
        offered += seen[g] && (ok[g] || !retried || !retried[g]);
        settled += seen[g] && ok[g];
    }
    for (size_t i = 0; i < n; i++) {
        int64_t g = group_of[i];
        later_rows += !ok[g] && retried && retried[g];   /* counted by the later call */
        back_rows += !ok[g] && !(retried && retried[g]);
    }
    free(seen);
    e->counts.gpu_rows += (int64_t)n - back_rows - later_rows;
    e->counts.gpu_groups += settled;
    e->counts.gpu_groups_rerun_on_cpu += offered - settled;
    vsg_gpu_note_rerun(e, back_rows,
                       "groups the GPU unions could not settle (nodes they could not prove, "
                       "Z or M, curves, keys too wide) dissolved by GEOS");
}

/* The union on x (GPU: the statement's backend; else a private host one),
 * without touching the engine (host batches run it on several threads). */
static vsg_status union_core(const union_env *env, const vsg_wkb_array *members,
                             const int64_t *group_of, int64_t n_groups,
                             vsg_group_union_out *out)
{
    if (!env->on_gpu)
        vsg_exec_set_host_plain(env->x);
    uint8_t *ok = vsg_calloc((size_t)n_groups + 1, 1);
    const int64_t *rows = env->sc ? out->member_row : NULL;
    vsg_status st = ok ? union_call(env, rows, vsg_stage_coverage_union, members, group_of,
                                    n_groups, NULL, ok, out)
                       : VSG_ERR_NOMEM;
    if (st == VSG_OK && !out->coverage_only)
        st = overlap_pass(env, rows, members, group_of, n_groups, ok, out);
    free(ok);
    if (st != VSG_OK) {   /* nothing settled: what was written goes (a retry rewrites it) */
        memset(out->ok, 0, (size_t)n_groups);
        for (int64_t g = 0; g < n_groups; g++) {
            free(out->wkb[g]);
            out->wkb[g] = NULL;
        }
    }
    return st;
}

static void note_settled(vsg_engine *e, int on_gpu, double t0, const vsg_wkb_array *members,
                         int64_t n_groups, const vsg_group_union_out *out)
{
    int64_t settled = 0;
    for (int64_t g = 0; g < n_groups; g++)
        settled += out->ok[g];
    vsg_profile_add(e->profile,
                    out->stage ? out->stage
                               : out->parts_of_groups ? "chunk_union" : "group_union",
                    on_gpu ? "GPU" : "CPU", vsg_now_s() - t0, (int64_t)members->count, settled,
                    0, 0, 0);
}

/* ---- the CPU engine: groups in batches, one host backend per thread ------
 * Each group's union depends on its own members only (in input order), so
 * any batching gives the same output; batches are consecutive group ranges
 * of about equal WKB bytes, one per worker. */
/* WKB bytes per host batch (a group is never split). The stage's steps
 * sweep all of a batch's segments many times and gather at random
 * through sorted positions; in batches of about 4,000 vertices its arrays
 * stay in the core's cache. Measured on 1.8 M vertices of tiled counties
 * by state, one thread (docs/benchmarks.md): the whole group union took
 * 1.03 s in one batch, 0.66 s in batches of 4 MB, 0.45 s of 64 kB. */
#define VSG_HOST_UNION_BATCH_BYTES ((size_t)1 << 16)

typedef struct {
    const vsg_wkb_array *members;
    const int64_t *group_of;
    vsg_group_union_out *out;
    const int64_t *g_first;      /* batch b: groups [g_first[b], g_first[b+1])   */
    const size_t *m_first;       /* batch b: members order[m_first[b] .. [b+1])  */
    const size_t *order;         /* members by batch, input order within          */
    vsg_exec **x;                /* per worker, kept for all its batches          */
    vsg_status *st;
    int *wid_of;                 /* batch b ran on worker wid_of[b]               */
} host_batches;

static void batch_task(void *vp, size_t b, int wid)
{
    host_batches *h = vp;
    size_t m0 = h->m_first[b], n = h->m_first[b + 1] - m0;
    int64_t g0 = h->g_first[b], ng = h->g_first[b + 1] - g0;
    const unsigned char **wkb = vsg_malloc((n ? n : 1) * sizeof *wkb);
    size_t *size = vsg_malloc((n ? n : 1) * sizeof *size);
    int64_t *grp = vsg_malloc((n ? n : 1) * sizeof *grp);
    vsg_status st = wkb && size && grp ? VSG_OK : VSG_ERR_NOMEM;
    h->wid_of[b] = wid;
    if (st == VSG_OK && !h->x[wid] && vsg_exec_create_host(&h->x[wid]) != VSG_OK)
        st = VSG_ERR_NOMEM;
    if (st == VSG_OK && n > 0) {
        for (size_t k = 0; k < n; k++) {
            size_t i = h->order[m0 + k];
            wkb[k] = h->members->wkb[i];
            size[k] = h->members->size[i];
            grp[k] = h->group_of[i] - g0;
        }
        vsg_wkb_array sub = {n, wkb, size};
        vsg_group_union_out o = {h->out->ok + g0, h->out->wkb + g0, h->out->size + g0,
                                 h->out->parts_of_groups, NULL, NULL,
                                 h->out->coverage_only, 0, NULL};
        union_env env = {h->x[wid], 0, NULL, NULL};   /* inside a pool task: no pool */
        st = union_core(&env, &sub, grp, ng, &o);
    }
    h->st[b] = st;
    free(wkb);
    free(size);
    free(grp);
}

static vsg_status union_on_host(vsg_engine *e, const vsg_wkb_array *members,
                                const int64_t *group_of, int64_t n_groups,
                                vsg_group_union_out *out)
{
    double t0 = vsg_now_s();
    size_t n = members->count, G = (size_t)n_groups, total = 0;
    for (size_t i = 0; i < n; i++)
        total += members->size[i];
    /* batches: at least one per thread, and none much above the cache
     * budget unless one group is */
    size_t T = (size_t)vsg_engine_num_threads(e), B = total / VSG_HOST_UNION_BATCH_BYTES + 1;
    T = B > T ? B : T;
    T = T < 1 ? 1 : T > G ? (G ? G : 1) : T;
    int64_t *g_first = vsg_calloc(T + 1, sizeof *g_first);
    size_t *m_first = vsg_calloc(T + 2, sizeof *m_first);
    size_t *order = vsg_malloc((n ? n : 1) * sizeof *order);
    size_t *weight = vsg_calloc(G + 1, sizeof *weight);
    size_t *batch = vsg_malloc((G ? G : 1) * sizeof *batch);
    size_t W = (size_t)vsg_engine_num_threads(e);
    vsg_exec **x = vsg_calloc(W, sizeof *x);
    vsg_status *bst = vsg_calloc(T, sizeof *bst);
    int *wid_of = vsg_calloc(T, sizeof *wid_of);
    vsg_status st = VSG_OK;
    if (!g_first || !m_first || !order || !weight || !batch || !x || !bst || !wid_of) {
        st = vsg_engine_fail(e, VSG_ERR_NOMEM, -1, -1, "out of memory");
        goto done;
    }
    /* consecutive group ranges of about equal bytes */
    for (size_t i = 0; i < n; i++)
        weight[group_of[i]] += members->size[i];
    size_t b = 0, acc = 0;
    for (size_t g = 0; g < G; g++) {
        batch[g] = b;
        acc += weight[g];
        if (b + 1 < T && acc * T >= total * (b + 1))
            g_first[++b] = (int64_t)g + 1;
    }
    for (size_t k = b + 1; k <= T; k++)
        g_first[k] = n_groups;
    /* members by batch, a counting sort that keeps input order */
    for (size_t i = 0; i < n; i++)
        m_first[batch[group_of[i]] + 2]++;
    for (size_t k = 0; k < T; k++)
        m_first[k + 2] += m_first[k + 1];
    for (size_t i = 0; i < n; i++)
        order[m_first[batch[group_of[i]] + 1]++] = i;
    host_batches h = {members, group_of, out, g_first, m_first, order, x, bst, wid_of};
    vsg_pool_run(e->pool, T, batch_task, &h);
    for (size_t w = 0; w < W; w++)
        if (x[w])
            vsg_exec_flush_profile(x[w], e->profile);
    for (size_t k = 0; k < T; k++) {
        vsg_exec *xk = x[wid_of[k]];
        if (bst[k] != VSG_OK && st == VSG_OK)
            st = vsg_engine_fail(e, bst[k], -1, -1, "coverage union: %s",
                                 bst[k] == VSG_ERR_NOMEM || !xk ? "out of memory"
                                                                : vsg_exec_last_error(xk));
    }
    if (st == VSG_OK)
        note_settled(e, 0, t0, members, n_groups, out);
done:
    for (size_t w = 0; x && w < W; w++)
        if (x[w])
            vsg_exec_destroy(x[w]);
    free(g_first);
    free(m_first);
    free(order);
    free(weight);
    free(batch);
    free(x);
    free(bst);
    free(wid_of);
    return st;
}

/* The groups with members, counted as re-run on the CPU engine: the GPU
 * broke before this call (rows too) or during it (its fallback counted the
 * rows). Calls over parts of groups count nothing: their groups were
 * counted by the pass that offered them whole. */
static void count_all_back(vsg_engine *e, const int64_t *group_of, size_t n, int64_t n_groups,
                           const vsg_group_union_out *out, int rows_too)
{
    if (out->parts_of_groups)
        return;
    unsigned char *seen = groups_seen(group_of, n, n_groups);
    int64_t groups = 0;
    for (int64_t g = 0; seen && g < n_groups; g++)
        groups += seen[g];
    free(seen);
    e->counts.gpu_groups_rerun_on_cpu += groups;
    if (rows_too)
        e->counts.gpu_rows_rerun_on_cpu += (int64_t)n;
}

vsg_status vsg_pipeline_coverage_union(vsg_engine *e, const vsg_wkb_array *members,
                                       const int64_t *group_of, int64_t n_groups,
                                       vsg_group_union_out *out)
{
    vsg_status st = VSG_OK;
    vsg_exec *x = vsg_gpu_acquire(e, &st);
    if (st != VSG_OK)
        return st;   /* strict GPU mode and no device: the statement fails */
    if (!x && vsg_gpu_dropped(e))
        count_all_back(e, group_of, members->count, n_groups, out, 1);
    if (x) {
        double t0 = vsg_now_s();
        const vsg_screened *sc = e->gpu && e->gpu->screened.n_src ? &e->gpu->screened : NULL;
        union_env env = {x, 1, sc, e->pool};
        st = union_core(&env, members, group_of, n_groups, out);
        vsg_exec_flush_profile(x, e->profile);
        if (st == VSG_OK) {
            if (!out->parts_of_groups)
                count_gpu(e, group_of, members->count, n_groups, out->ok, out->retried);
            note_settled(e, 1, t0, members, n_groups, out);
            return VSG_OK;
        }
        /* the pipeline's failure rule: strict fails; AUTO re-runs on the
         * CPU engine, whose first step is this union on the host */
        st = vsg_gpu_fallback(e, st, (int64_t)members->count, "coverage union");
        if (st != VSG_OK)
            return st;
        count_all_back(e, group_of, members->count, n_groups, out, 0);
    }
    if (out->gpu_only)
        return VSG_OK;   /* nothing settled: the caller's GEOS path */
    return union_on_host(e, members, group_of, n_groups, out);
}
