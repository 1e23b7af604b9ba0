/*
 * union_test_util.h - what the union stage tests share
 * (test_stage_coverage.c, test_stage_overlap.c): members as GEOS
 * geometries with their WKB and groups, a stage run on the host backend
 * with its output read back by GEOS, GEOS's unary union of a group as the
 * oracle, and a comparison with it (valid MultiPolygon, symmetric
 * difference <= 1e-9 of the area).
 */
#ifndef VSG_UNION_TEST_UTIL_H
#define VSG_UNION_TEST_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <geos_c.h>

#include "stage_test_util.h"
#include "columnar/columnar.h"
#include "core/profile.h"
#include "exec/exec.h"

static GEOSContextHandle_t ctx;


/* ---- a set of members: GEOS geometries, their WKB, their groups ----------- */
typedef struct {
    size_t n, cap;
    GEOSGeometry **g;
    unsigned char **wkb;
    size_t *size;
    int64_t *group;
} members;

static inline void add(members *m, GEOSGeometry *g, int64_t group)
{
    if (m->n == m->cap) {
        m->cap = m->cap ? 2 * m->cap : 64;
        m->g = realloc(m->g, m->cap * sizeof *m->g);
        m->wkb = realloc(m->wkb, m->cap * sizeof *m->wkb);
        m->size = realloc(m->size, m->cap * sizeof *m->size);
        m->group = realloc(m->group, m->cap * sizeof *m->group);
    }
    GEOSWKBWriter *w = GEOSWKBWriter_create_r(ctx);
    GEOSWKBWriter_setOutputDimension_r(ctx, w, 3);   /* Z where the member has it */
    m->wkb[m->n] = GEOSWKBWriter_write_r(ctx, w, g, &m->size[m->n]);
    GEOSWKBWriter_destroy_r(ctx, w);
    m->g[m->n] = g;
    m->group[m->n] = group;
    m->n++;
}

static inline void add_wkt(members *m, const char *wkt, int64_t group)
{
    GEOSWKTReader *r = GEOSWKTReader_create_r(ctx);
    add(m, GEOSWKTReader_read_r(ctx, r, wkt), group);
    GEOSWKTReader_destroy_r(ctx, r);
}

static inline void members_free(members *m)
{
    for (size_t i = 0; i < m->n; i++) {
        GEOSGeom_destroy_r(ctx, m->g[i]);
        GEOSFree_r(ctx, m->wkb[i]);
    }
    free(m->g);
    free(m->wkb);
    free(m->size);
    free(m->group);
    memset(m, 0, sizeof *m);
}

/* ---- running the stage -------------------------------------------------------- */
typedef struct {
    int64_t n_groups;
    uint8_t *ok;
    uint32_t *why;
    GEOSGeometry **out;   /* per ok group */
    int64_t max_work;
    int64_t peak_bytes;   /* the backend's pool at its fullest */
    int64_t rings;        /* the rings the coverage union built ("coverage_rings" out) */
    int64_t r_segments;   /* the segments it kept, R ("coverage_segments" out) */
} run_result;

typedef vsg_status (*union_stage)(vsg_exec *x, const vsg_col_view *in, const int64_t *group_of,
                                  int64_t n_groups, vsg_columnar *out, uint8_t *ok,
                                  uint32_t *why);

/* Which host backend run_union takes: 0 the device-shaped one (the GPU
 * pipeline's steps, item by item), 1 the CPU engine's own (plain: its
 * own steps where a core wants other ones, vsg_exec_set_host_plain). */
static int g_plain_host = 0;

/* fn over m's members on a host backend; names: the trace stages whose
 * largest work item goes to rr->max_work (NULL-terminated). */
static inline int run_union(union_stage fn, const char *const *names, const members *m,
                     int64_t n_groups, run_result *rr)
{
    memset(rr, 0, sizeof *rr);
    vsg_wkb_array in = {m->n, (const unsigned char *const *)m->wkb, m->size};
    vsg_columnar col, out;
    vsg_columnar_report rep;
    vsg_exec *x = NULL;
    if (vsg_columnar_from_wkb(&in, &col, &rep) != VSG_OK || vsg_exec_create_host(&x) != VSG_OK)
        return 0;
    if (g_plain_host)
        vsg_exec_set_host_plain(x);
    vsg_col_view v = vsg_columnar_view(&col);
    rr->n_groups = n_groups;
    rr->ok = calloc((size_t)n_groups + 1, 1);
    rr->why = calloc((size_t)n_groups + 1, sizeof *rr->why);
    rr->out = calloc((size_t)n_groups + 1, sizeof *rr->out);
    vsg_status st = fn(x, &v, m->group, n_groups, &out, rr->ok, rr->why);
    if (st == VSG_OK) {
        GEOSWKBReader *r = GEOSWKBReader_create_r(ctx);
        for (int64_t g = 0; g < n_groups; g++) {
            if (!rr->ok[g])
                continue;
            size_t sz = vsg_columnar_wkb_size(&out, g);
            unsigned char *buf = malloc(sz);
            vsg_columnar_write_wkb(&out, g, buf);
            rr->out[g] = GEOSWKBReader_read_r(ctx, r, buf, sz);
            free(buf);
        }
        GEOSWKBReader_destroy_r(ctx, r);
        vsg_columnar_free(&out);
    }
    for (size_t s = 0; names[s]; s++) {
        int64_t w = vsg_exec_max_work(x, names[s]);
        rr->max_work = w > rr->max_work ? w : rr->max_work;
    }
    vsg_profile *prof = vsg_profile_create();
    if (prof) {
        vsg_exec_flush_profile(x, prof);
        for (size_t i = 0; i < vsg_profile_count(prof); i++) {
            const char *stage = NULL, *device = NULL;
            double e;
            int64_t rin, rout, h2d, d2h, peak;
            if (!vsg_profile_get(prof, i, &stage, &device, &e, &rin, &rout, &h2d, &d2h, &peak) ||
                !stage)
                continue;
            if (!strcmp(stage, "coverage_rings"))
                rr->rings += rout;
            else if (!strcmp(stage, "coverage_segments"))
                rr->r_segments += rout;
        }
        vsg_profile_destroy(prof);
    }
    vsg_gpu_stats stats;
    vsg_exec_get_stats(x, &stats);
    rr->peak_bytes = stats.peak_bytes;
    vsg_exec_destroy(x);
    vsg_columnar_free(&col);
    return st == VSG_OK;
}

static inline void run_free(run_result *rr)
{
    for (int64_t g = 0; g < rr->n_groups; g++)
        if (rr->out[g])
            GEOSGeom_destroy_r(ctx, rr->out[g]);
    free(rr->ok);
    free(rr->why);
    free(rr->out);
}

/* GEOS's union of group g's members. */
static inline GEOSGeometry *oracle(const members *m, int64_t g)
{
    size_t k = 0;
    GEOSGeometry **parts = malloc((m->n + 1) * sizeof *parts);
    for (size_t i = 0; i < m->n; i++)
        if (m->group[i] == g)
            parts[k++] = GEOSGeom_clone_r(ctx, m->g[i]);
    GEOSGeometry *coll = GEOSGeom_createCollection_r(ctx, GEOS_GEOMETRYCOLLECTION, parts,
                                                     (unsigned)k);
    free(parts);
    GEOSGeometry *u = GEOSUnaryUnion_r(ctx, coll);
    GEOSGeom_destroy_r(ctx, coll);
    return u;
}

/* ours equals GEOS's union of the group: valid, same area, symmetric
 * difference below 1e-9 of it. */
static inline int agrees(const members *m, const run_result *rr, int64_t g)
{
    GEOSGeometry *ours = rr->out[g], *ref = oracle(m, g);
    double a = 0, d = 0;
    int ok = ours && ref && GEOSisValid_r(ctx, ours) == 1 &&
             GEOSGeomTypeId_r(ctx, ours) == GEOS_MULTIPOLYGON;
    GEOSGeometry *sd = ok ? GEOSSymDifference_r(ctx, ours, ref) : NULL;
    if (sd) {
        GEOSArea_r(ctx, ref, &a);
        GEOSArea_r(ctx, sd, &d);
        ok = d <= 1e-9 * (a > 1 ? a : 1);
        GEOSGeom_destroy_r(ctx, sd);
    } else {
        ok = 0;
    }
    if (!ok) {
        char *w = ours ? GEOSGeomToWKT_r(ctx, ours) : NULL;
        fprintf(stderr, "  group %lld differs (sym diff %g of %g): %.300s\n", (long long)g, d, a,
                w ? w : "(null)");
        if (w)
            GEOSFree_r(ctx, w);
    }
    if (ref)
        GEOSGeom_destroy_r(ctx, ref);
    return ok;
}

static inline int n_polygons(const GEOSGeometry *g) { return g ? GEOSGetNumGeometries_r(ctx, g) : -1; }

static inline void add_square(members *m, double x, double y, double s, int64_t group)
{
    char wkt[256];
    snprintf(wkt, sizeof wkt, "POLYGON((%.17g %.17g,%.17g %.17g,%.17g %.17g,%.17g %.17g,%.17g %.17g))",
             x, y, x + s, y, x + s, y + s, x, y + s, x, y);
    add_wkt(m, wkt, group);
}

/* ---- random coverages ------------------------------------------------------------
 * A jittered n x n grid of quads (shared vertices, so a true coverage),
 * each cell in one of `groups` groups or left out (a gap). */
static inline void random_coverage(int n, int groups, double gap, members *m)
{
    double *px = malloc((size_t)(n + 1) * (n + 1) * sizeof *px);
    double *py = malloc((size_t)(n + 1) * (n + 1) * sizeof *py);
    for (int i = 0; i <= n; i++)
        for (int j = 0; j <= n; j++) {
            px[i * (n + 1) + j] = i + 0.6 * (rng01() - 0.5) + 1000.0;
            py[i * (n + 1) + j] = j + 0.6 * (rng01() - 0.5) + 2000.0;
        }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            if (rng01() < gap)
                continue;
            int a = i * (n + 1) + j, b = (i + 1) * (n + 1) + j;
            char wkt[512];
            snprintf(wkt, sizeof wkt,
                     "POLYGON((%.17g %.17g,%.17g %.17g,%.17g %.17g,%.17g %.17g,%.17g %.17g))",
                     px[a], py[a], px[b], py[b], px[b + 1], py[b + 1], px[a + 1], py[a + 1],
                     px[a], py[a]);
            /* groups in blocks of about 3 cells, with noise */
            int64_t g = ((i / 3) * 7 + (j / 3) * 3) % groups;
            if (rng01() < 0.15)
                g = (int64_t)(rng_u64() % (uint64_t)groups);
            add_wkt(m, wkt, g);
        }
    free(px);
    free(py);
}

/* fn over col's members (groups group[], G of them) on the device gx: its
 * output, ok[] and why[] brought back to the host. */
static inline vsg_status run_on_device(vsg_exec *gx, union_stage fn, const vsg_columnar *col,
                                       const int64_t *group, int64_t G, vsg_columnar *gout,
                                       uint8_t *gok, uint32_t *gwhy)
{
    vsg_columnar dcol, dout;
    int64_t *dgroup = NULL;
    uint8_t *dok = NULL;
    uint32_t *dwhy = NULL;
    size_t n = (size_t)col->n_geoms;
    vsg_columnar_init(&dcol);
    vsg_columnar_init(&dout);
    vsg_status st = vsg_columnar_upload(gx, col, &dcol);
    if (st == VSG_OK)
        st = vsg_exec_alloc(gx, (n ? n : 1) * 8, (void **)&dgroup);
    if (st == VSG_OK)
        st = vsg_exec_alloc(gx, (size_t)G, (void **)&dok);
    if (st == VSG_OK)
        st = vsg_exec_alloc(gx, (size_t)G * 4, (void **)&dwhy);
    if (st == VSG_OK)
        st = vsg_exec_upload(gx, dgroup, group, n * 8);
    if (st == VSG_OK) {
        vsg_col_view dv = vsg_columnar_view(&dcol);
        st = fn(gx, &dv, dgroup, G, &dout, dok, dwhy);
        if (st != VSG_OK)
            fprintf(stderr, "  device: %s\n", vsg_exec_last_error(gx));
    }
    if (st == VSG_OK)
        st = vsg_columnar_download(gx, &dout, gout);
    if (st == VSG_OK)
        st = vsg_exec_download(gx, gok, dok, (size_t)G);
    if (st == VSG_OK)
        st = vsg_exec_download(gx, gwhy, dwhy, (size_t)G * 4);
    if (st == VSG_OK)
        st = vsg_exec_sync(gx);
    vsg_exec_free(gx, dgroup);
    vsg_exec_free(gx, dok);
    vsg_exec_free(gx, dwhy);
    vsg_columnar_free(&dout);
    vsg_columnar_free(&dcol);
    return st;
}

#endif
