/*
 * test_stage_refine.c - the overlay refine stage on the host backend (the
 * device runs the same element code): GEOS is the oracle.
 *
 * For every pair the stage settles (pair_ok 1, or 2 for an empty answer
 * where the polygons meet) its output must equal the polygonal part of
 * GEOSIntersection(a, b): both empty, or a valid
 * MultiPolygon whose symmetric difference with GEOS's is at most 1e-9 of
 * the area, shells counter-clockwise and holes clockwise. A pair handed
 * back (pair_ok = 0) must say why.
 *
 *   - hand-made pairs: crossing squares, a triangle across a square, shared
 *     edges and half edges, a corner touch, identical squares, a square in
 *     a corner of a bigger one, holes, a U against a bar (two parts), a star
 *     against a 64-gon, a T-touch, a MultiPolygon, rings with no node
 *     (a square inside the other, in its hole or in a notch, a hole inside
 *     the other; rays through a vertex, a notch's tip, along an edge);
 *     each must be settled;
 *   - rows the stage does not take (lines, points, Z, NaN) go back with
 *     VSG_REF_BAD_INPUT, empty polygons give an empty answer or go back;
 *   - many pairs in one call (the stage is batched): every pair as above,
 *     and each pair's answer the same as when it runs alone;
 *   - seeded random pairs of star-shaped polygons (some with holes) on a
 *     coarse grid, so that shared vertices, collinear overlaps and vertices
 *     on edges are common, and pairs that share most of their boundary
 *     (translated by a grid step, vertices moved, rotated) or only touch
 *     (mirrored): every settled pair agrees with GEOS, and at least half
 *     are settled;
 *   - a square with a hole against the same square whose hole is one ulp
 *     away, at several magnitudes: settled pairs agree with GEOS;
 *   - the work of every launch item is bounded: a 10^5-vertex polygon
 *     against small squares costs no item more than a few thousand units
 *     (counted, not timed);
 *   - where a GPU backend opens, the device gives the host's output bit
 *     for bit (otherwise "skip").
 */
#include <math.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>   /* mallopt(M_PERTURB): fresh blocks are not zero */
#endif

#include <geos_c.h>

#include "vsg_test.h"
#include "stage_test_util.h"
#include "columnar/columnar.h"
#include "core/profile.h"
#include "elements/overlay/refine.h"
#include "exec/exec.h"
#include "stages/stages.h"

static GEOSContextHandle_t ctx;

static int rng_int(int lo, int hi) { return lo + (int)(rng_u64() % (uint64_t)(hi - lo + 1)); }

/* ---- a set of geometries: GEOS and their WKB -------------------------------- */
typedef struct {
    size_t n, cap;
    GEOSGeometry **g;
    unsigned char **wkb;
    size_t *size;
} geoset;

static void add(geoset *m, GEOSGeometry *g)
{
    if (m->n == m->cap) {
        m->cap = m->cap ? 2 * m->cap : 64;
        m->g = realloc(m->g, m->cap * sizeof *m->g);
        m->wkb = realloc(m->wkb, m->cap * sizeof *m->wkb);
        m->size = realloc(m->size, m->cap * sizeof *m->size);
    }
    GEOSWKBWriter *w = GEOSWKBWriter_create_r(ctx);
    GEOSWKBWriter_setOutputDimension_r(ctx, w, 3);   /* Z kept where there is one */
    m->wkb[m->n] = GEOSWKBWriter_write_r(ctx, w, g, &m->size[m->n]);
    GEOSWKBWriter_destroy_r(ctx, w);
    m->g[m->n] = g;
    m->n++;
}

static GEOSGeometry *from_wkt(const char *wkt)
{
    GEOSWKTReader *r = GEOSWKTReader_create_r(ctx);
    GEOSGeometry *g = GEOSWKTReader_read_r(ctx, r, wkt);
    GEOSWKTReader_destroy_r(ctx, r);
    return g;
}

static void add_wkt(geoset *m, const char *wkt) { add(m, from_wkt(wkt)); }

static void geoset_free(geoset *m)
{
    for (size_t i = 0; i < m->n; i++) {
        GEOSGeom_destroy_r(ctx, m->g[i]);
        GEOSFree_r(ctx, m->wkb[i]);
    }
    free(m->g);
    free(m->wkb);
    free(m->size);
    memset(m, 0, sizeof *m);
}

static void print_geom(const char *label, const GEOSGeometry *g, int limit)
{
    char *w = g ? GEOSGeomToWKT_r(ctx, g) : NULL;
    fprintf(stderr, "    %s: %.*s%s\n", label, limit, w ? w : "(null)",
            w && (int)strlen(w) > limit ? " ..." : "");
    if (w)
        GEOSFree_r(ctx, w);
}

/* ---- running the stage -------------------------------------------------------- */
typedef struct {
    int64_t n;
    uint8_t *ok;
    uint32_t *why;
    GEOSGeometry **out;      /* per settled pair */
    unsigned char **wkb;     /* per settled pair: the stage's own bytes */
    size_t *wkb_size;
    int64_t bad_shape;       /* settled pairs not a MultiPolygon, or EMPTY with parts */
    int64_t max_work;
    char max_work_stage[64];
} run_result;

/* Rows the union's noding check took (its stage's rows in), and the pairs
 * whose answer was one of their rows whole (gathered, not built), summed
 * over every run since the last reset. */
static int64_t g_noding_rows = 0, g_whole_pairs = 0;

/* The largest item of every stage the backend timed since its last flush. */
static int64_t max_work_of(vsg_exec *x, char *stage_out, size_t stage_len)
{
    vsg_profile *p = vsg_profile_create();
    if (!p)
        return -1;
    vsg_exec_flush_profile(x, p);
    int64_t most = 0;
    for (size_t i = 0; i < vsg_profile_count(p); i++) {
        const char *stage = NULL, *device = NULL;
        double e;
        int64_t rin, rout, h2d, d2h, peak;
        if (!vsg_profile_get(p, i, &stage, &device, &e, &rin, &rout, &h2d, &d2h, &peak) || !stage)
            continue;
        if (!strcmp(stage, "coverage_noding"))
            g_noding_rows += rin;
        if (!strcmp(stage, "refine_whole"))
            g_whole_pairs += rout;
        int64_t w = vsg_exec_max_work(x, stage);
        if (w > most) {
            most = w;
            if (stage_out)
                snprintf(stage_out, stage_len, "%s", stage);
        }
    }
    vsg_profile_destroy(p);
    return most;
}

/* The rows' boxes on x (the bounds stage), as the pipeline passes them. */
static double *boxes_on(vsg_exec *x, const vsg_col_view *v)
{
    double *b = NULL;
    if (vsg_exec_alloc(x, (size_t)(v->n_geoms ? v->n_geoms : 1) * 4 * sizeof(double),
                       (void **)&b) != VSG_OK)
        return NULL;
    if (vsg_stage_bounds(x, v, b) != VSG_OK) {
        vsg_exec_free(x, b);
        return NULL;
    }
    return b;
}

/* 1: run_stage runs classify on the pairs first and hands its chunk
 * tables and join to the refine, as the GPU pipeline's filter does. */
static int g_share = 0;

/* 1: run_stage screens both sides first (the valid_screen stage) and flags
 * the rows it passes VSG_GF_SIMPLE, as the GPU pipeline does: the refine
 * then leaves the noding check out for pairs whose nodes are all exact. */
static int g_screen = 0;

/* Rows of set c that the screen passes flagged simple (c on the host). */
static int screen_flags(vsg_exec *x, vsg_columnar *c)
{
    vsg_col_view v = vsg_columnar_view(c);
    uint32_t *why = calloc((size_t)c->n_geoms + 1, sizeof *why);
    int ok = why && vsg_stage_valid_screen(x, &v, why) == VSG_OK;
    for (int64_t g = 0; ok && g < c->n_geoms; g++)
        if (why[g] == 0)
            c->flags[g] |= VSG_GF_SIMPLE;
    free(why);
    return ok;
}

static vsg_status refine_on(vsg_exec *x, const vsg_col_view *va, const double *ba,
                            const vsg_col_view *vb, const double *bb, const int64_t *pa,
                            const int64_t *pb, int64_t n, vsg_columnar *out, uint8_t *ok,
                            uint32_t *why)
{
    if (!g_share)
        return vsg_stage_overlay_refine(x, va, ba, vb, bb, pa, pb, n, out, ok, why);
    vsg_chunks_shared sh;
    memset(&sh, 0, sizeof sh);
    uint8_t *cls = NULL;
    vsg_pairs pairs = {n, (int64_t *)pa, (int64_t *)pb};
    vsg_status st = vsg_exec_alloc(x, (size_t)(n ? n : 1), (void **)&cls);
    if (st == VSG_OK)
        st = vsg_stage_classify_keep(x, va, ba, vb, bb, &pairs, cls, &sh);
    if (st == VSG_OK && n > 0 && !sh.ring_chunk[0])
        st = VSG_ERR_INVALID_ARG;   /* nothing kept: the test would not test sharing */
    if (st == VSG_OK)
        st = vsg_stage_overlay_refine_shared(x, va, ba, vb, bb, pa, pb, n, &sh, out, ok, why);
    vsg_chunks_shared_free(x, &sh);
    vsg_exec_free(x, cls);
    return st;
}

static int run_stage(const geoset *A, const geoset *B, const int64_t *pa, const int64_t *pb,
                     int64_t n, run_result *rr)
{
    memset(rr, 0, sizeof *rr);
    vsg_wkb_array ina = {A->n, (const unsigned char *const *)A->wkb, A->size};
    vsg_wkb_array inb = {B->n, (const unsigned char *const *)B->wkb, B->size};
    vsg_columnar ca, cb, out;
    vsg_columnar_report rep;
    vsg_exec *x = NULL;
    if (vsg_columnar_from_wkb(&ina, &ca, &rep) != VSG_OK)
        return 0;
    if (vsg_columnar_from_wkb(&inb, &cb, &rep) != VSG_OK || vsg_exec_create_host(&x) != VSG_OK) {
        vsg_columnar_free(&ca);
        return 0;
    }
    if (g_screen && (!screen_flags(x, &ca) || !screen_flags(x, &cb))) {
        vsg_columnar_free(&ca);
        vsg_columnar_free(&cb);
        vsg_exec_destroy(x);
        return 0;
    }
    vsg_col_view va = vsg_columnar_view(&ca), vb = vsg_columnar_view(&cb);
    rr->n = n;
    rr->ok = calloc((size_t)n + 1, 1);
    rr->why = calloc((size_t)n + 1, sizeof *rr->why);
    rr->out = calloc((size_t)n + 1, sizeof *rr->out);
    rr->wkb = calloc((size_t)n + 1, sizeof *rr->wkb);
    rr->wkb_size = calloc((size_t)n + 1, sizeof *rr->wkb_size);
    double *ba = boxes_on(x, &va), *bb = boxes_on(x, &vb);
    vsg_status st = refine_on(x, &va, ba, &vb, bb, pa, pb, n, &out, rr->ok, rr->why);
    vsg_exec_free(x, ba);
    vsg_exec_free(x, bb);
    if (st != VSG_OK)
        fprintf(stderr, "  stage failed: %d %s\n", (int)st, vsg_exec_last_error(x));
    if (st == VSG_OK && out.n_geoms != n) {
        fprintf(stderr, "  the output has %lld geometries for %lld pairs\n",
                (long long)out.n_geoms, (long long)n);
        vsg_columnar_free(&out);
        st = VSG_ERR_INVALID_ARG;
    }
    if (st == VSG_OK) {
        GEOSWKBReader *r = GEOSWKBReader_create_r(ctx);
        for (int64_t k = 0; k < n; k++) {
            if (!rr->ok[k])
                continue;
            int64_t parts = out.geom_part[k + 1] - out.geom_part[k];
            int empty = (out.flags[k] & VSG_GF_EMPTY) != 0;
            if (out.type[k] != VSG_GT_MULTIPOLYGON || (empty && parts != 0) ||
                (!empty && parts == 0) ||
                (out.flags[k] & (VSG_GF_NULL | VSG_GF_CORRUPT | VSG_GF_UNSUPPORTED))) {
                rr->bad_shape++;
                fprintf(stderr, "  pair %lld: type %d flags %d parts %lld\n", (long long)k,
                        out.type[k], out.flags[k], (long long)parts);
            }
            size_t sz = vsg_columnar_wkb_size(&out, k);
            if (sz == 0) {
                if (empty)
                    rr->out[k] = GEOSGeom_createEmptyCollection_r(ctx, GEOS_MULTIPOLYGON);
                continue;
            }
            unsigned char *buf = malloc(sz);
            vsg_columnar_write_wkb(&out, k, buf);
            rr->out[k] = GEOSWKBReader_read_r(ctx, r, buf, sz);
            rr->wkb[k] = buf;
            rr->wkb_size[k] = sz;
        }
        GEOSWKBReader_destroy_r(ctx, r);
        vsg_columnar_free(&out);
    }
    rr->max_work = max_work_of(x, rr->max_work_stage, sizeof rr->max_work_stage);
    vsg_exec_destroy(x);
    vsg_columnar_free(&ca);
    vsg_columnar_free(&cb);
    return st == VSG_OK;
}

static void run_free(run_result *rr)
{
    for (int64_t k = 0; k < rr->n; k++) {
        if (rr->out[k])
            GEOSGeom_destroy_r(ctx, rr->out[k]);
        free(rr->wkb[k]);
    }
    free(rr->ok);
    free(rr->why);
    free(rr->out);
    free(rr->wkb);
    free(rr->wkb_size);
    memset(rr, 0, sizeof *rr);
}

/* ---- the oracle ------------------------------------------------------------------ */
static void collect_polygons(const GEOSGeometry *g, GEOSGeometry ***v, unsigned *n, unsigned *cap)
{
    int t = GEOSGeomTypeId_r(ctx, g);
    if (t == GEOS_POLYGON) {
        if (GEOSisEmpty_r(ctx, g))
            return;
        if (*n == *cap) {
            *cap = *cap ? 2 * *cap : 8;
            *v = realloc(*v, *cap * sizeof **v);
        }
        (*v)[(*n)++] = GEOSGeom_clone_r(ctx, g);
    } else if (t == GEOS_MULTIPOLYGON || t == GEOS_GEOMETRYCOLLECTION) {
        int k = GEOSGetNumGeometries_r(ctx, g);
        for (int i = 0; i < k; i++)
            collect_polygons(GEOSGetGeometryN_r(ctx, g, i), v, n, cap);
    }
}

/* The polygonal part of GEOS's intersection of a and b, as a MultiPolygon
 * (empty when there is none); NULL if GEOS fails. */
static GEOSGeometry *oracle(const GEOSGeometry *a, const GEOSGeometry *b)
{
    GEOSGeometry *i = GEOSIntersection_r(ctx, a, b);
    if (!i)
        return NULL;
    GEOSGeometry **v = NULL;
    unsigned n = 0, cap = 0;
    collect_polygons(i, &v, &n, &cap);
    GEOSGeom_destroy_r(ctx, i);
    GEOSGeometry *m = GEOSGeom_createCollection_r(ctx, GEOS_MULTIPOLYGON, v, n);
    free(v);
    return m;
}

static double area_of(const GEOSGeometry *g)
{
    double a = 0;
    if (g)
        GEOSArea_r(ctx, g, &a);
    return a;
}

/* shells counter-clockwise, holes clockwise */
static int ring_ccw(const GEOSGeometry *ring)
{
    char ccw = 0;
    const GEOSCoordSequence *s = GEOSGeom_getCoordSeq_r(ctx, ring);
    return s && GEOSCoordSeq_isCCW_r(ctx, s, &ccw) && ccw;
}

static int oriented(const GEOSGeometry *g)
{
    int n = GEOSGetNumGeometries_r(ctx, g);
    for (int i = 0; i < n; i++) {
        const GEOSGeometry *p = GEOSGetGeometryN_r(ctx, g, i);
        if (GEOSisEmpty_r(ctx, p))
            continue;
        if (!ring_ccw(GEOSGetExteriorRing_r(ctx, p)))
            return 0;
        for (int h = 0; h < GEOSGetNumInteriorRings_r(ctx, p); h++)
            if (ring_ccw(GEOSGetInteriorRingN_r(ctx, p, h)))
                return 0;
    }
    return 1;
}

/* ours (settled with pair_ok = ok) equals the polygonal part of GEOS's
 * intersection: both empty, or valid with a symmetric difference <= 1e-9
 * of the area; ok is 2 exactly for an empty answer where a and b meet
 * (GEOS gives a point or a line there), 1 otherwise. Prints the pair when
 * not. */
static int agrees(int ok_value, const GEOSGeometry *ours, const GEOSGeometry *a,
                  const GEOSGeometry *b, const char *label)
{
    GEOSGeometry *ref = oracle(a, b);
    const char *what = "";
    double ar = area_of(ref), ao = area_of(ours), d = -1;
    int ok = 0;
    if (!ours) {
        what = "no output";
    } else if (!ref) {
        what = "GEOS failed";
    } else if (GEOSisValid_r(ctx, ours) != 1) {
        what = "ours is not valid";
    } else if (!oriented(ours)) {
        what = "a shell clockwise or a hole counter-clockwise";
    } else {
        int eo = GEOSisEmpty_r(ctx, ours) == 1, er = GEOSisEmpty_r(ctx, ref) == 1;
        int meet = eo && er ? GEOSIntersects_r(ctx, a, b) == 1 : 0;
        if (ok_value != 1 && ok_value != 2) {
            what = "pair_ok neither 1 nor 2";
        } else if (ok_value == 2 && !eo) {
            what = "pair_ok 2 for a non-empty answer";
        } else if (eo && er) {
            ok = ok_value == (meet ? 2 : 1);
            what = meet ? "pair_ok 1 for polygons that touch (2 expected)"
                        : "pair_ok 2 for disjoint polygons (1 expected)";
        } else if (eo != er) {
            what = eo ? "ours is empty, GEOS's not" : "GEOS's is empty, ours not";
        } else {
            GEOSGeometry *sd = GEOSSymDifference_r(ctx, ours, ref);
            if (sd) {
                d = area_of(sd);
                double big = ar > ao ? ar : ao;
                ok = d <= 1e-9 * (big > 1e-300 ? big : 1e-300);
                what = "symmetric difference too large";
                GEOSGeom_destroy_r(ctx, sd);
            } else {
                what = "GEOS symmetric difference failed";
            }
        }
    }
    if (!ok) {
        fprintf(stderr, "  %s: %s (pair_ok %d, area ours %.17g, GEOS %.17g, sym diff %g)\n",
                label, what, ok_value, ao, ar, d);
        print_geom("a", a, 3000);
        print_geom("b", b, 3000);
        print_geom("ours", ours, 3000);
        print_geom("GEOS", ref, 3000);
    }
    if (ref)
        GEOSGeom_destroy_r(ctx, ref);
    return ok;
}

/* ---- hand-made pairs ----------------------------------------------------------- */
enum { MUST_SETTLE = 1 };

typedef struct {
    const char *name;
    const char *a, *b;
    int flags;
    int n_parts;      /* polygons in the answer, -1: not checked */
} hand_case;

static char star_wkt[4096], circle_wkt[4096];

static void make_star_and_circle(void)
{
    int o = snprintf(star_wkt, sizeof star_wkt, "POLYGON((");
    for (int k = 0; k <= 20; k++) {
        double t = 2 * M_PI * (k % 20) / 20, r = k % 2 ? 4 : 10;
        o += snprintf(star_wkt + o, sizeof star_wkt - (size_t)o, "%s%.17g %.17g", k ? "," : "",
                      r * cos(t), r * sin(t));
    }
    snprintf(star_wkt + o, sizeof star_wkt - (size_t)o, "))");
    o = snprintf(circle_wkt, sizeof circle_wkt, "POLYGON((");
    for (int k = 0; k <= 64; k++) {
        double t = 2 * M_PI * (k % 64) / 64 + 0.01;
        o += snprintf(circle_wkt + o, sizeof circle_wkt - (size_t)o, "%s%.17g %.17g",
                      k ? "," : "", 7 * cos(t), 7 * sin(t));
    }
    snprintf(circle_wkt + o, sizeof circle_wkt - (size_t)o, "))");
}

static const hand_case kCases[] = {
    {"overlapping squares", "POLYGON((0 0,2 0,2 2,0 2,0 0))", "POLYGON((1 1,3 1,3 3,1 3,1 1))",
     MUST_SETTLE, 1},
    {"triangle across a square", "POLYGON((0 0,4 0,4 4,0 4,0 0))",
     "POLYGON((2 -1,6 2,2 5,2 -1))", MUST_SETTLE, 1},
    {"full shared edge", "POLYGON((0 0,1 0,1 1,0 1,0 0))", "POLYGON((1 0,2 0,2 1,1 1,1 0))",
     MUST_SETTLE, 0},
    {"half shared edge", "POLYGON((0 0,2 0,2 2,0 2,0 0))", "POLYGON((2 1,4 1,4 3,2 3,2 1))",
     MUST_SETTLE, 0},
    {"corner touch", "POLYGON((0 0,1 0,1 1,0 1,0 0))", "POLYGON((1 1,2 1,2 2,1 2,1 1))",
     MUST_SETTLE, 0},
    {"identical squares", "POLYGON((0 0,1 0,1 1,0 1,0 0))", "POLYGON((0 0,1 0,1 1,0 1,0 0))",
     MUST_SETTLE, 1},
    /* a's boundary inside b, and b's hole inside a: not a whole */
    {"inside a shell around its hole", "POLYGON((2 2,8 2,8 8,2 8,2 2))",
     "POLYGON((0 0,10 0,10 10,0 10,0 0),(4 4,6 4,6 6,4 6,4 4))", MUST_SETTLE, 1},
    /* a inside b, sharing two edges and a vertex on b's edge: whole
     * (gathered), then a cut one (built) */
    {"inside, sharing edges", "POLYGON((0 0,2 0,2 2,0 2,0 0))",
     "POLYGON((0 0,4 0,4 4,2 4,0 4,0 0))", MUST_SETTLE, 1},
    {"inside, b's vertex on a's edge", "POLYGON((0 0,2 0,2 3,0 3,0 0))",
     "POLYGON((0 0,4 0,4 4,0 4,0 2,0 0))", MUST_SETTLE, 1},
    /* the same the other way round: b's row whole, with a hole turned */
    {"b inside, sharing edges", "POLYGON((0 0,4 0,4 4,2 4,0 4,0 0))",
     "POLYGON((0 0,0 3,3 3,3 0,0 0),(1 1,2 1,2 2,1 2,1 1))", MUST_SETTLE, 1},
    {"square in a corner of a bigger one", "POLYGON((0 0,4 0,4 4,0 4,0 0))",
     "POLYGON((0 0,2 0,2 2,0 2,0 0))", MUST_SETTLE, 1},
    {"square across a hole and the shell",
     "POLYGON((0 0,10 0,10 10,0 10,0 0),(3 3,3 7,7 7,7 3,3 3))",
     "POLYGON((5 1,12 1,12 9,5 9,5 1))", MUST_SETTLE, 1},
    {"bar across a hole", "POLYGON((0 0,10 0,10 10,0 10,0 0),(3 3,3 7,7 7,7 3,3 3))",
     "POLYGON((2 4,8 4,8 6,2 6,2 4))", MUST_SETTLE, 2},
    {"square inside a hole", "POLYGON((0 0,10 0,10 10,0 10,0 0),(2 2,2 8,8 8,8 2,2 2))",
     "POLYGON((4 4,6 4,6 6,4 6,4 4))", MUST_SETTLE, 0},
    /* rings with no node inside the other's box: labelled by a ray count */
    {"a hole inside the other, no contact",
     "POLYGON((0 0,10 0,10 10,0 10,0 0),(4 4,4 6,6 6,6 4,4 4))",
     "POLYGON((2 2,12 2,12 8,2 8,2 2))", MUST_SETTLE, 1},
    {"islands inside and in a notch", "MULTIPOLYGON(((0 0,1 0,1 1,0 1,0 0)),((4 4,5 4,5 5,4 5,4 4)))",
     "POLYGON((-1 -1,8 -1,8 8,6 8,6 2,3 2,3 8,-1 8,-1 -1))", MUST_SETTLE, 1},
    {"a ray through the other's vertex", "POLYGON((2 2,3 2,3 3,2 3,2 2))",
     "POLYGON((0 0,10 0,10 2,12 5,10 8,10 10,0 10,0 0))", MUST_SETTLE, 1},
    {"a ray through a notch's tip", "POLYGON((2 2,3 2,3 3,2 3,2 2))",
     "POLYGON((0 0,10 0,10 10,8 10,9 2,7 10,0 10,0 0))", MUST_SETTLE, 1},
    {"a ray from a ring whose first segment is degenerate", "POLYGON((2 2,2 2,3 2,3 3,2 3,2 2))",
     "POLYGON((0 0,10 0,10 10,0 10,0 0))", MUST_SETTLE, 1},
    {"a ray along the other's edge", "POLYGON((2 2,3 2,3 3,2 3,2 2))",
     "POLYGON((0 0,10 0,10 2,11 2,11 3,10 3,10 10,0 10,0 0))", MUST_SETTLE, 1},
    {"U against a bar", "POLYGON((0 0,3 0,3 3,2 3,2 1,1 1,1 3,0 3,0 0))",
     "POLYGON((-1 2,4 2,4 2.5,-1 2.5,-1 2))", MUST_SETTLE, 2},
    {"star against a 64-gon", star_wkt, circle_wkt, MUST_SETTLE, 1},
    {"T-touch from outside", "POLYGON((0 0,2 0,2 2,0 2,0 0))", "POLYGON((1 2,3 3,0 3,1 2))",
     MUST_SETTLE, 0},
    {"T-touch going inside", "POLYGON((0 0,2 0,2 2,0 2,0 0))", "POLYGON((1 0,3 -1,3 1,1 0))",
     MUST_SETTLE, 1},
    {"MultiPolygon against a bar", "MULTIPOLYGON(((0 0,1 0,1 1,0 1,0 0)),((2 0,3 0,3 1,2 1,2 0)))",
     "POLYGON((0.5 0.25,2.5 0.25,2.5 0.75,0.5 0.75,0.5 0.25))", MUST_SETTLE, 2},
    /* beyond the brief's list: settled implies equal */
    {"clockwise shells", "POLYGON((0 0,0 2,2 2,2 0,0 0))", "POLYGON((1 1,1 3,3 3,3 1,1 1))", 0,
     1},
    {"a repeated vertex", "POLYGON((0 0,2 0,2 0,2 2,0 2,0 0))",
     "POLYGON((1 1,3 1,3 3,1 3,1 3,1 1))", 0, 1},
    {"collinear run, other vertices", "POLYGON((0 0,4 0,4 4,0 4,0 0))",
     "POLYGON((1 4,2 4,3 4,3 6,1 6,1 4))", 0, 0},
    {"collinear run inside", "POLYGON((0 0,4 0,4 4,0 4,0 0))",
     "POLYGON((0 1,0 2,0 3,-2 3,-2 1,0 1))", 0, 0},
    {"square within a square, no contact", "POLYGON((0 0,10 0,10 10,0 10,0 0))",
     "POLYGON((4 4,6 4,6 6,4 6,4 4))", MUST_SETTLE, 1},
    {"bigger square around", "POLYGON((4 4,6 4,6 6,4 6,4 4))",
     "POLYGON((0 0,10 0,10 10,0 10,0 0))", MUST_SETTLE, 1},
    {"disjoint", "POLYGON((0 0,1 0,1 1,0 1,0 0))", "POLYGON((5 5,6 5,6 6,5 6,5 5))", 0, 0},
    {"far from the origin",
     "POLYGON((1000000.125 -2000000.25,1000002.5 -2000000.25,1000002.5 -1999998,"
     "1000000.125 -1999998,1000000.125 -2000000.25))",
     "POLYGON((1000001 -1999999,1000003 -1999999,1000003 -1999997,1000001 -1999997,"
     "1000001 -1999999))",
     0, 1},
    {"crossing at a non-representable point", "POLYGON((0 0,3 1,3 3,0 3,0 0))",
     "POLYGON((1 -1,2 -1,2 5,1 5,1 -1))", 0, 1},
    {"shell touching the hole's vertex", "POLYGON((0 0,10 0,10 10,0 10,0 0),(2 2,2 8,8 8,8 2,2 2))",
     "POLYGON((1 1,2 2,1 3,1 1))", 0, 1},
    {"a hole touching the shell, covered",
     "POLYGON((0 0,4 0,4 4,0 4,0 0),(0 2,2 1,2 3,0 2))", "POLYGON((-1 -1,5 -1,5 5,-1 5,-1 -1))", 0,
     1},
    {"answer with a hole touching its shell", "POLYGON((0 0,4 0,4 4,0 4,0 0),(2 1,1 2,2 3,3 2,2 1))",
     "POLYGON((0 0,4 0,4 4,2.5 4,2 3,1.5 4,0 4,0 0))", 0, 1},
    {"two triangles meeting at a point", "POLYGON((0 0,2 0,2 2,0 2,0 0))",
     "MULTIPOLYGON(((0 0,2 0,1 1,0 0)),((1 1,2 2,0 2,1 1)))", 0, 2},
    {"crossing through a vertex", "POLYGON((0 0,2 0,2 2,0 2,0 0))",
     "POLYGON((-1 -1,1 -1,3 3,1 3,-1 -1))", 0, 1},
    /* the same square, holes one ulp apart (x and y of b's hole one ulp up):
     * the answer's hole is their union */
    {"holes one ulp apart",
     "POLYGON((100 -300,120 -300,120 -280,100 -280,100 -300),(113 -288,107 -288,106 -291,111 -294,"
     "113 -288))",
     "POLYGON((100 -300,120 -300,120 -280,100 -280,100 -300),(113.00000000000001 "
     "-287.99999999999994,107.00000000000001 -287.99999999999994,106.00000000000001 "
     "-290.99999999999994,111.00000000000001 -293.99999999999994,113.00000000000001 "
     "-287.99999999999994))",
     0, 1},
    {"two spikes into a notch", "POLYGON((0 0,4 0,4 4,3 4,2 1,1 4,0 4,0 0))",
     "POLYGON((0 2,4 2,4 5,0 5,0 2))", 0, 2},
};
#define N_CASES ((int)(sizeof kCases / sizeof kCases[0]))

/* one case alone: its result kept for the batched test */
static uint8_t case_ok[N_CASES];
static unsigned char *case_wkb[N_CASES];
static size_t case_wkb_size[N_CASES];

static void hand_made_pairs(void)
{
    make_star_and_circle();
    int handed = 0;
    for (int c = 0; c < N_CASES; c++) {
        geoset A = {0}, B = {0};
        add_wkt(&A, kCases[c].a);
        add_wkt(&B, kCases[c].b);
        REQUIRE(A.g[0] && B.g[0]);
        CHECK(GEOSisValid_r(ctx, A.g[0]) == 1 && GEOSisValid_r(ctx, B.g[0]) == 1);
        int64_t zero = 0;
        run_result rr;
        REQUIRE(run_stage(&A, &B, &zero, &zero, 1, &rr));
        case_ok[c] = rr.ok[0];
        free(case_wkb[c]);   /* the run before's (main runs this test again) */
        case_wkb[c] = NULL;
        case_wkb_size[c] = 0;
        if (rr.ok[0] && rr.wkb[0]) {
            case_wkb[c] = malloc(rr.wkb_size[0]);
            memcpy(case_wkb[c], rr.wkb[0], rr.wkb_size[0]);
            case_wkb_size[c] = rr.wkb_size[0];
        }
        if (kCases[c].flags & MUST_SETTLE)
            CHECK(rr.ok[0] != 0);
        if (!rr.ok[0]) {
            handed++;
            fprintf(stderr, "  %s%s: handed back, why 0x%x\n",
                    kCases[c].flags & MUST_SETTLE ? "FAIL " : "", kCases[c].name,
                    (unsigned)rr.why[0]);
            CHECK(rr.why[0] != 0);
        } else {
            CHECK(agrees(rr.ok[0], rr.out[0], A.g[0], B.g[0], kCases[c].name));
            if (kCases[c].n_parts >= 0 && rr.out[0]) {
                int np = GEOSisEmpty_r(ctx, rr.out[0]) == 1 ? 0
                                                            : GEOSGetNumGeometries_r(ctx, rr.out[0]);
                if (np != kCases[c].n_parts)
                    fprintf(stderr, "  %s: %d parts, expected %d\n", kCases[c].name, np,
                            kCases[c].n_parts);
                CHECK(np == kCases[c].n_parts);
            }
        }
        CHECK(rr.bad_shape == 0);
        run_free(&rr);
        geoset_free(&A);
        geoset_free(&B);
    }
    fprintf(stderr, "  %d of %d hand-made pairs handed back\n", handed, N_CASES);
}

/* ---- rows the stage does not take ------------------------------------------------
 * Empty polygons may be settled (an empty answer) or handed back; lines,
 * points, Z and non-finite rows are handed back with VSG_REF_BAD_INPUT;
 * the good pair beside them is settled as usual. */
static void odd_rows(void)
{
    static const struct {
        const char *a;
        int must_go_back;
    } rows[] = {
        {"POLYGON EMPTY", 0},
        {"MULTIPOLYGON EMPTY", 0},
        {"LINESTRING(0 0,2 2)", 1},
        {"POINT(1 1)", 1},
        {"POLYGON Z((0 0 1,2 0 1,2 2 1,0 2 1,0 0 1))", 1},
        {NULL, 1},   /* a non-finite coordinate */
        {"POLYGON((0 0,2 0,2 2,0 2,0 0))", 0},
    };
    const int n = (int)(sizeof rows / sizeof rows[0]);
    geoset A = {0}, B = {0};
    for (int i = 0; i < n; i++) {
        if (rows[i].a) {
            add_wkt(&A, rows[i].a);
        } else {
            GEOSCoordSequence *sq = GEOSCoordSeq_create_r(ctx, 4, 2);
            GEOSCoordSeq_setXY_r(ctx, sq, 0, 0, 0);
            GEOSCoordSeq_setXY_r(ctx, sq, 1, 2, NAN);
            GEOSCoordSeq_setXY_r(ctx, sq, 2, 0, 2);
            GEOSCoordSeq_setXY_r(ctx, sq, 3, 0, 0);
            add(&A, GEOSGeom_createPolygon_r(ctx, GEOSGeom_createLinearRing_r(ctx, sq), NULL, 0));
        }
    }
    add_wkt(&B, "POLYGON((1 1,3 1,3 3,1 3,1 1))");
    int64_t pa[16], pb[16];
    for (int i = 0; i < n; i++) {
        pa[i] = i;
        pb[i] = 0;
    }
    run_result rr;
    REQUIRE(run_stage(&A, &B, pa, pb, n, &rr));
    for (int i = 0; i < n; i++) {
        const char *name = rows[i].a ? rows[i].a : "a NaN coordinate";
        if (rows[i].must_go_back) {
            CHECK(rr.ok[i] == 0 && (rr.why[i] & VSG_REF_BAD_INPUT));
            if (rr.ok[i] || !(rr.why[i] & VSG_REF_BAD_INPUT))
                fprintf(stderr, "  %s: pair_ok %d, why 0x%x\n", name, rr.ok[i], (unsigned)rr.why[i]);
        } else if (rr.ok[i]) {
            CHECK(agrees(rr.ok[i], rr.out[i], A.g[i], B.g[0], name));
        } else {
            CHECK(rr.why[i] != 0);
            fprintf(stderr, "  %s: handed back, why 0x%x\n", name, (unsigned)rr.why[i]);
        }
    }
    CHECK(rr.ok[n - 1] == 1);
    CHECK(rr.bad_shape == 0);
    run_free(&rr);
    geoset_free(&A);
    geoset_free(&B);
}

/* ---- many pairs in one call ------------------------------------------------------ */
static int boxes_meet(const GEOSGeometry *a, const GEOSGeometry *b)
{
    double ax0, ay0, ax1, ay1, bx0, by0, bx1, by1;
    GEOSGeom_getXMin_r(ctx, a, &ax0);
    GEOSGeom_getYMin_r(ctx, a, &ay0);
    GEOSGeom_getXMax_r(ctx, a, &ax1);
    GEOSGeom_getYMax_r(ctx, a, &ay1);
    GEOSGeom_getXMin_r(ctx, b, &bx0);
    GEOSGeom_getYMin_r(ctx, b, &by0);
    GEOSGeom_getXMax_r(ctx, b, &bx1);
    GEOSGeom_getYMax_r(ctx, b, &by1);
    return ax0 <= bx1 && bx0 <= ax1 && ay0 <= by1 && by0 <= ay1;
}

/* Most hand-made a against most hand-made b whose box meets it (and a few
 * that do not; the ones left out have chunks that meet but no pair): a
 * geometry in many pairs, pairs sorted by (a, b). The case's own pair
 * (c, c) gives what it gave alone. */
/* Every hand-made case's a and b as two sets, and a batch of pairs of
 * them: each case's own, most others whose boxes meet, a few that do
 * not. Returns the pairs; *disjoint: those whose boxes do not meet. */
static int64_t case_batch(geoset *A, geoset *B, int64_t **pa_out, int64_t **pb_out,
                          int64_t *disjoint)
{
    for (int c = 0; c < N_CASES; c++) {
        add_wkt(A, kCases[c].a);
        add_wkt(B, kCases[c].b);
    }
    int64_t cap = (int64_t)N_CASES * N_CASES, n = 0;
    int64_t *pa = malloc((size_t)cap * 8), *pb = malloc((size_t)cap * 8);
    *disjoint = 0;
    for (int i = 0; i < N_CASES; i++)
        for (int j = 0; j < N_CASES; j++)
            if (i == j || (boxes_meet(A->g[i], B->g[j]) && (7 * i + j) % 5 != 0) ||
                (i + j) % 11 == 0) {
                pa[n] = i;
                pb[n] = j;
                *disjoint += !boxes_meet(A->g[i], B->g[j]);
                n++;
            }
    *pa_out = pa;
    *pb_out = pb;
    return n;
}

static void batched_pairs(void)
{
    geoset A = {0}, B = {0};
    int64_t *pa, *pb, disjoint;
    int64_t n = case_batch(&A, &B, &pa, &pb, &disjoint);
    run_result rr;
    REQUIRE(run_stage(&A, &B, pa, pb, n, &rr));
    int64_t settled = 0, wrong = 0, differ = 0, bytes_differ = 0;
    for (int64_t k = 0; k < n; k++) {
        if (!rr.ok[k]) {
            CHECK(rr.why[k] != 0);
            continue;
        }
        settled++;
        char label[64];
        snprintf(label, sizeof label, "pair (%lld, %lld)", (long long)pa[k], (long long)pb[k]);
        wrong += !agrees(rr.ok[k], rr.out[k], A.g[pa[k]], B.g[pb[k]], label);
    }
    for (int64_t k = 0; k < n; k++) {
        if (pa[k] != pb[k])
            continue;
        int c = (int)pa[k];
        if (rr.ok[k] != case_ok[c]) {
            differ++;
            fprintf(stderr, "  %s: settled %d alone, %d in the batch\n", kCases[c].name,
                    case_ok[c], rr.ok[k]);
        } else if (rr.ok[k] && (rr.wkb_size[k] != case_wkb_size[c] ||
                                (case_wkb[c] && memcmp(rr.wkb[k], case_wkb[c], case_wkb_size[c])))) {
            bytes_differ++;
            fprintf(stderr, "  %s: other bytes in the batch than alone\n", kCases[c].name);
        }
    }
    fprintf(stderr, "  batch: %lld pairs (%lld with disjoint boxes), %lld settled, %lld wrong\n",
            (long long)n, (long long)disjoint, (long long)settled, (long long)wrong);
    CHECK(wrong == 0);
    CHECK(differ == 0);
    CHECK(bytes_differ == 0);
    CHECK(rr.bad_shape == 0);
    run_free(&rr);
    free(pa);
    free(pb);
    geoset_free(&A);
    geoset_free(&B);
    for (int c = 0; c < N_CASES; c++) {
        free(case_wkb[c]);
        case_wkb[c] = NULL;
    }
}

/* Pairs whose verdict, reasons or bytes differ between two runs of one
 * batch (each printed). */
static int64_t runs_differ(const run_result *x, const run_result *y, const int64_t *pa,
                           const int64_t *pb, int64_t n)
{
    int64_t differ = 0;
    for (int64_t k = 0; k < n; k++)
        if (x->ok[k] != y->ok[k] || x->why[k] != y->why[k] || x->wkb_size[k] != y->wkb_size[k] ||
            (x->wkb[k] && memcmp(x->wkb[k], y->wkb[k], x->wkb_size[k]))) {
            differ++;
            fprintf(stderr, "  pair (%lld, %lld): ok %d why 0x%x, then ok %d why 0x%x\n",
                    (long long)pa[k], (long long)pb[k], x->ok[k], x->why[k], y->ok[k], y->why[k]);
        }
    return differ;
}

/* The refine's items and rays found from the pairs (one item per chunk of
 * a pair's row) and through box joins: the same batch to the byte. */
static void joins_settle_alike(void)
{
    geoset A = {0}, B = {0};
    int64_t *pa, *pb, disjoint;
    int64_t n = case_batch(&A, &B, &pa, &pb, &disjoint);
    run_result direct, joined;
    REQUIRE(run_stage(&A, &B, pa, pb, n, &direct));
    vsg_stage_refine_set_direct_max(0);
    int ran = run_stage(&A, &B, pa, pb, n, &joined);
    vsg_stage_refine_set_direct_max(-1);
    REQUIRE(ran);
    CHECK(runs_differ(&direct, &joined, pa, pb, n) == 0);
    run_free(&direct);
    run_free(&joined);
    free(pa);
    free(pb);
    geoset_free(&A);
    geoset_free(&B);
}

/* Rows the screen passes flagged simple leave the union's noding check out
 * for pairs whose nodes are all exact, and only where the check could find
 * nothing: every pair of the batch settles, or is handed back with the
 * same reasons, as it does with every pair checked, to the byte. */
static void screened_rows_settle_alike(void)
{
    geoset A = {0}, B = {0};
    int64_t *pa, *pb, disjoint;
    int64_t n = case_batch(&A, &B, &pa, &pb, &disjoint);
    run_result plain, screened;
    g_noding_rows = 0;
    REQUIRE(run_stage(&A, &B, pa, pb, n, &plain));
    int64_t checked = g_noding_rows;
    g_noding_rows = 0;
    g_screen = 1;
    int ran = run_stage(&A, &B, pa, pb, n, &screened);
    g_screen = 0;
    REQUIRE(ran);
    int64_t left = g_noding_rows, settled = 0;
    for (int64_t k = 0; k < n; k++)
        settled += plain.ok[k] != 0;
    int64_t differ = runs_differ(&plain, &screened, pa, pb, n);
    fprintf(stderr, "  %lld pairs, %lld settled, %lld differ; noding rows %lld checked, %lld "
            "screened\n", (long long)n, (long long)settled, (long long)differ,
            (long long)checked, (long long)left);
    CHECK(differ == 0);
    CHECK(left < checked);   /* some pairs did leave it out */
    run_free(&plain);
    run_free(&screened);
    free(pa);
    free(pb);
    geoset_free(&A);
    geoset_free(&B);
}

/* ---- random star-shaped polygons on a grid ------------------------------------------ */
#define MAXV 512
typedef struct {
    int n;
    double x[MAXV], y[MAXV];
} ring;
typedef struct {
    int nr;
    ring r[2];
} spoly;

static double snap(double v, double grid) { return round(v / grid) * grid; }

static void ring_push(ring *r, double x, double y)
{
    if (r->n > 0 && r->x[r->n - 1] == x && r->y[r->n - 1] == y)
        return;
    if (r->n < MAXV) {
        r->x[r->n] = x;
        r->y[r->n] = y;
        r->n++;
    }
}

static void ring_tidy(ring *r)
{
    while (r->n > 1 && r->x[r->n - 1] == r->x[0] && r->y[r->n - 1] == r->y[0])
        r->n--;
}

/* n vertices at increasing angles around (cx, cy), radii in [r0, r1],
 * snapped to the grid; reversed (clockwise) when asked. */
static void star_ring(ring *r, double cx, double cy, double r0, double r1, int n, double grid,
                      int reverse)
{
    ring tmp;
    tmp.n = 0;
    double phase = rng01();
    for (int k = 0; k < n; k++) {
        double t = 2 * M_PI * (k + phase + 0.8 * (rng01() - 0.5)) / n;
        double rad = r0 + (r1 - r0) * rng01();
        ring_push(&tmp, snap(cx + rad * cos(t), grid), snap(cy + rad * sin(t), grid));
    }
    ring_tidy(&tmp);
    r->n = 0;
    for (int k = 0; k < tmp.n; k++) {
        int i = reverse ? tmp.n - 1 - k : k;
        ring_push(r, tmp.x[i], tmp.y[i]);
    }
    ring_tidy(r);
}

static GEOSGeometry *ring_geos(const ring *r)
{
    if (r->n < 3)
        return NULL;
    GEOSCoordSequence *s = GEOSCoordSeq_create_r(ctx, (unsigned)r->n + 1, 2);
    for (int k = 0; k <= r->n; k++)
        GEOSCoordSeq_setXY_r(ctx, s, (unsigned)k, r->x[k % r->n], r->y[k % r->n]);
    return GEOSGeom_createLinearRing_r(ctx, s);
}

/* NULL when a ring is too short or the polygon is not valid. */
static GEOSGeometry *spoly_geos(const spoly *p)
{
    GEOSGeometry *shell = ring_geos(&p->r[0]), *hole = p->nr > 1 ? ring_geos(&p->r[1]) : NULL;
    if (!shell || (p->nr > 1 && !hole)) {
        if (shell)
            GEOSGeom_destroy_r(ctx, shell);
        if (hole)
            GEOSGeom_destroy_r(ctx, hole);
        return NULL;
    }
    GEOSGeometry *g = GEOSGeom_createPolygon_r(ctx, shell, hole ? &hole : NULL, hole ? 1u : 0u);
    if (g && GEOSisValid_r(ctx, g) != 1) {
        GEOSGeom_destroy_r(ctx, g);
        return NULL;
    }
    return g;
}

static void random_star(spoly *p, double cx, double cy, double rmax, double grid)
{
    int n = rng_int(8, 200);
    double r1 = rmax * (0.5 + 0.5 * rng01()), r0 = r1 * (0.3 + 0.6 * rng01());
    p->nr = 1;
    star_ring(&p->r[0], cx, cy, r0, r1, n, grid, rng01() < 0.2);
    if (rng01() < 0.3 && r0 * 0.6 > 3 * grid) {
        p->nr = 2;
        star_ring(&p->r[1], cx, cy, r0 * 0.2, r0 * 0.6, rng_int(3, 40), grid, 1);
    }
}

/* b from a: moved by whole grid steps, some vertices moved, turned by 90
 * degrees about a grid point, or mirrored about the vertical line through
 * a's rightmost vertex (so that the two only touch). */
static void variant(const spoly *a, spoly *b, double cx, double cy, double grid, int kind)
{
    *b = *a;
    int dx = rng_int(-2, 2), dy = rng_int(-2, 2);
    double xmax = a->r[0].x[0];
    for (int k = 0; k < a->r[0].n; k++)
        xmax = a->r[0].x[k] > xmax ? a->r[0].x[k] : xmax;
    for (int i = 0; i < b->nr; i++) {
        ring *r = &b->r[i];
        for (int k = 0; k < r->n; k++) {
            double x = r->x[k], y = r->y[k];
            if (kind == 0) {
                x += dx * grid;
                y += dy * grid;
            } else if (kind == 1) {
                if (rng01() < 0.15) {
                    x += rng_int(-1, 1) * grid;
                    y += rng_int(-1, 1) * grid;
                }
            } else if (kind == 2) {
                double u = x - cx, v = y - cy;
                x = cx - v;
                y = cy + u;
            } else {
                x = 2 * xmax - x;
            }
            r->x[k] = x;
            r->y[k] = y;
        }
        /* drop repeats a move made */
        ring t = *r;
        r->n = 0;
        for (int k = 0; k < t.n; k++)
            ring_push(r, t.x[k], t.y[k]);
        ring_tidy(r);
    }
}

static void rect(spoly *p, double x0, double y0, double x1, double y1)
{
    p->nr = 1;
    p->r[0].n = 0;
    ring_push(&p->r[0], x0, y0);
    ring_push(&p->r[0], x1, y0);
    ring_push(&p->r[0], x1, y1);
    ring_push(&p->r[0], x0, y1);
}

static void shift(spoly *p, double ox, double oy)
{
    for (int i = 0; i < p->nr; i++)
        for (int k = 0; k < p->r[i].n; k++) {
            p->r[i].x[k] += ox;
            p->r[i].y[k] += oy;
        }
}

/* One random pair into A and B (valid, or nothing added). */
enum { N_KINDS = 6 };
static const char *const kKinds[N_KINDS] = {"independent", "translated", "vertices moved",
                                            "rotated",     "mirrored",   "rectangle"};
static int random_pair(geoset *A, geoset *B, int *kind_out)
{
    static spoly a, b;
    int coarse = rng01() < 0.5;
    double grid = coarse ? 1.0 : 0.125, c = coarse ? 32 : 8, rmax = coarse ? 30 : 7;
    double ox = 0, oy = 0;
    if (rng01() < 0.15) {   /* far from the origin: the same exact values, shifted */
        ox = 1048576;
        oy = -2097152;
    }
    random_star(&a, c, c, rmax, grid);
    int kind = rng_int(0, N_KINDS - 1);
    if (kind == 0) {
        double bx = snap(c + rmax * (rng01() - 0.5), grid), by = snap(c + rmax * (rng01() - 0.5), grid);
        random_star(&b, bx, by, rmax, grid);
    } else if (kind <= 4) {
        variant(&a, &b, c, c, grid, kind - 1);
    } else {
        double x0 = snap(c - rmax + 2 * rmax * rng01(), grid), x1 = snap(c - rmax + 2 * rmax * rng01(), grid);
        double y0 = snap(c - rmax + 2 * rmax * rng01(), grid), y1 = snap(c - rmax + 2 * rmax * rng01(), grid);
        if (x0 > x1) {
            double t = x0;
            x0 = x1;
            x1 = t;
        }
        if (y0 > y1) {
            double t = y0;
            y0 = y1;
            y1 = t;
        }
        if (x1 - x0 < grid)
            x1 = x0 + grid;
        if (y1 - y0 < grid)
            y1 = y0 + grid;
        rect(&b, x0, y0, x1, y1);
    }
    shift(&a, ox, oy);
    shift(&b, ox, oy);
    GEOSGeometry *ga = spoly_geos(&a), *gb = spoly_geos(&b);
    *kind_out = kind;
    if (!ga || !gb) {
        if (ga)
            GEOSGeom_destroy_r(ctx, ga);
        if (gb)
            GEOSGeom_destroy_r(ctx, gb);
        return 0;
    }
    add(A, ga);
    add(B, gb);
    return 1;
}

/* n_want valid random pairs, pair k = (k, k). */
static int64_t random_pairs(geoset *A, geoset *B, int n_want, int *kinds, int64_t *skipped)
{
    int64_t n = 0;
    *skipped = 0;
    while (n < n_want) {
        int kind;
        if (random_pair(A, B, &kind))
            kinds[n++] = kind;
        else
            (*skipped)++;
    }
    return n;
}

static void random_grid_pairs(void)
{
    enum { N = 300 };
    rng_state = 0x51ed270b2a8f3c4dull;
    geoset A = {0}, B = {0};
    int kinds[N];
    int64_t skipped;
    int64_t n = random_pairs(&A, &B, N, kinds, &skipped);
    int64_t *pk = malloc((size_t)n * 8);
    for (int64_t k = 0; k < n; k++)
        pk[k] = k;
    run_result rr;
    REQUIRE(run_stage(&A, &B, pk, pk, n, &rr));
    int64_t settled = 0, wrong = 0, empty = 0, by_kind[N_KINDS][2] = {{0}}, why_bits[32] = {0};
    int shown = 0;
    for (int64_t k = 0; k < n; k++) {
        by_kind[kinds[k]][1]++;
        if (!rr.ok[k]) {
            CHECK(rr.why[k] != 0);
            for (int bit = 0; bit < 32; bit++)
                why_bits[bit] += (rr.why[k] >> bit) & 1;
            if (shown < 4) {
                shown++;
                fprintf(stderr, "  handed back: pair %lld (%s), why 0x%x\n", (long long)k,
                        kKinds[kinds[k]], (unsigned)rr.why[k]);
            }
            continue;
        }
        settled++;
        by_kind[kinds[k]][0]++;
        empty += rr.out[k] && GEOSisEmpty_r(ctx, rr.out[k]) == 1;
        char label[64];
        snprintf(label, sizeof label, "random pair %lld (%s)", (long long)k, kKinds[kinds[k]]);
        wrong += !agrees(rr.ok[k], rr.out[k], A.g[k], B.g[k], label);
    }
    fprintf(stderr, "  random pairs: %lld of %lld settled (%.2f; %lld empty), %lld wrong, %lld "
            "invalid inputs skipped\n",
            (long long)settled, (long long)n, (double)settled / (double)n, (long long)empty,
            (long long)wrong, (long long)skipped);
    for (int t = 0; t < N_KINDS; t++)
        fprintf(stderr, "    %-15s %lld of %lld settled\n", kKinds[t], (long long)by_kind[t][0],
                (long long)by_kind[t][1]);
    for (int bit = 0; bit < 32; bit++)
        if (why_bits[bit])
            fprintf(stderr, "    why bit 0x%x: %lld pairs\n", 1u << bit, (long long)why_bits[bit]);
    fprintf(stderr, "  largest item: %lld units (%s)\n", (long long)rr.max_work, rr.max_work_stage);
    CHECK(wrong == 0);
    CHECK(rr.bad_shape == 0);
    CHECK(settled * 2 >= n);   /* the stage hands back only doubtful pairs */
    run_free(&rr);
    free(pk);
    geoset_free(&A);
    geoset_free(&B);
}

/* ---- rings one ulp apart ------------------------------------------------------------
 * A square with a quadrilateral hole against the same square whose hole
 * has every coordinate moved by one ulp (crossings next to every vertex,
 * rounded where the two rings are an ulp apart), at a few magnitudes:
 * every settled pair agrees with GEOS. */
static double ulp_step(double v, int up) { return nextafter(v, up ? INFINITY : -INFINITY); }

static void holes_one_ulp_apart(void)
{
    enum { N = 600 };
    static const double offs[][2] = {{0, 0}, {10, 10}, {100, -300}, {1000, 1000}, {1000, -3000}};
    rng_state = 0x7f4a7c159e3779b9ull;
    geoset A = {0}, B = {0};
    while (A.n < N) {
        const double *o = offs[rng_u64() % 5];
        double c = rng01() < 0.5 ? 5 : 10, t[4], hx[4], hy[4];
        for (int k = 0; k < 4; k++)
            t[k] = 2 * M_PI * rng01();
        for (int k = 1; k < 4; k++)   /* sorted angles: a star-shaped quadrilateral */
            for (int j = k; j > 0 && t[j] < t[j - 1]; j--) {
                double s = t[j];
                t[j] = t[j - 1];
                t[j - 1] = s;
            }
        for (int k = 0; k < 4; k++) {
            hx[k] = o[0] + round(c + 4 * cos(t[k]));
            hy[k] = o[1] + round(c + 4 * sin(t[k]));
        }
        int upx = rng_int(0, 1), upy = rng_int(0, 1);
        char wa[1024], wb[1024];
        int la = snprintf(wa, sizeof wa, "POLYGON((%.17g %.17g,%.17g %.17g,%.17g %.17g,%.17g %.17g,"
                          "%.17g %.17g),(", o[0], o[1], o[0] + 20, o[1], o[0] + 20, o[1] + 20, o[0],
                          o[1] + 20, o[0], o[1]);
        memcpy(wb, wa, (size_t)la + 1);
        int lb = la;
        for (int k = 0; k <= 4; k++) {
            la += snprintf(wa + la, sizeof wa - (size_t)la, "%s%.17g %.17g", k ? "," : "",
                           hx[k % 4], hy[k % 4]);
            lb += snprintf(wb + lb, sizeof wb - (size_t)lb, "%s%.17g %.17g", k ? "," : "",
                           ulp_step(hx[k % 4], upx), ulp_step(hy[k % 4], upy));
        }
        snprintf(wa + la, sizeof wa - (size_t)la, "))");
        snprintf(wb + lb, sizeof wb - (size_t)lb, "))");
        GEOSGeometry *ga = from_wkt(wa), *gb = from_wkt(wb);
        if (ga && gb && GEOSisValid_r(ctx, ga) == 1 && GEOSisValid_r(ctx, gb) == 1) {
            add(&A, ga);
            add(&B, gb);
        } else {
            if (ga)
                GEOSGeom_destroy_r(ctx, ga);
            if (gb)
                GEOSGeom_destroy_r(ctx, gb);
        }
    }
    int64_t pk[N];
    for (int64_t k = 0; k < N; k++)
        pk[k] = k;
    run_result rr;
    REQUIRE(run_stage(&A, &B, pk, pk, N, &rr));
    int64_t settled = 0, wrong = 0;
    for (int64_t k = 0; k < N; k++) {
        if (!rr.ok[k]) {
            CHECK(rr.why[k] != 0);
            continue;
        }
        settled++;
        char label[64];
        snprintf(label, sizeof label, "pair %lld one ulp apart", (long long)k);
        wrong += !agrees(rr.ok[k], rr.out[k], A.g[k], B.g[k], label);
    }
    fprintf(stderr, "  holes one ulp apart: %lld of %d settled, %lld wrong\n", (long long)settled, N,
            (long long)wrong);
    CHECK(wrong == 0);
    CHECK(rr.bad_shape == 0);
    run_free(&rr);
    geoset_free(&A);
    geoset_free(&B);
}

/* ---- bounded work ----------------------------------------------------------------
 * One wavy circle of 10^6 vertices against 50 small squares across its
 * boundary (and a few inside or outside, whose rings have no node: rays
 * cross the circle's box): no item does work that grows with the polygon,
 * the candidates joins' probes included. */
static void work_is_bounded(void)
{
    const int N = 1000000;
    geoset A = {0}, B = {0};
    GEOSCoordSequence *s = GEOSCoordSeq_create_r(ctx, (unsigned)N + 1, 2);
    for (int k = 0; k <= N; k++) {
        double t = 2 * M_PI * (k % N) / N, r = 1000 * (1 + 0.02 * sin(37 * t));
        GEOSCoordSeq_setXY_r(ctx, s, (unsigned)k, r * cos(t), r * sin(t));
    }
    add(&A, GEOSGeom_createPolygon_r(ctx, GEOSGeom_createLinearRing_r(ctx, s), NULL, 0));
    REQUIRE(GEOSisValid_r(ctx, A.g[0]) == 1);
    const int NSQ = 56;
    for (int i = 0; i < NSQ; i++) {
        double t = 2 * M_PI * (i + 0.37) / 50, r = 1000 * (1 + 0.02 * sin(37 * t));
        if (i >= 50)   /* a few well inside and well outside */
            r = i % 2 ? 500 : 1500;
        double cx = r * cos(t), cy = r * sin(t), h = 2.5 + (i % 5);
        char wkt[512];
        snprintf(wkt, sizeof wkt,
                 "POLYGON((%.17g %.17g,%.17g %.17g,%.17g %.17g,%.17g %.17g,%.17g %.17g))", cx - h,
                 cy - h, cx + h, cy - h, cx + h, cy + h, cx - h, cy + h, cx - h, cy - h);
        add_wkt(&B, wkt);
    }
    int64_t pa[64], pb[64];
    for (int i = 0; i < NSQ; i++) {
        pa[i] = 0;
        pb[i] = i;
    }
    run_result rr;
    REQUIRE(run_stage(&A, &B, pa, pb, NSQ, &rr));
    int64_t settled = 0, wrong = 0;
    for (int i = 0; i < NSQ; i++) {
        if (!rr.ok[i]) {
            CHECK(rr.why[i] != 0);
            if (i < 50)
                fprintf(stderr, "  square %d across the boundary handed back, why 0x%x\n", i,
                        (unsigned)rr.why[i]);
            continue;
        }
        settled++;
        char label[64];
        snprintf(label, sizeof label, "square %d", i);
        wrong += !agrees(rr.ok[i], rr.out[i], A.g[0], B.g[i], label);
    }
    fprintf(stderr, "  big polygon: %lld of %d pairs settled, %lld wrong; largest item: %lld "
            "units (%s)\n",
            (long long)settled, NSQ, (long long)wrong, (long long)rr.max_work, rr.max_work_stage);
    CHECK(wrong == 0);
    CHECK(rr.bad_shape == 0);
    CHECK(rr.max_work > 0 && rr.max_work <= 4096);
    run_free(&rr);
    geoset_free(&A);
    geoset_free(&B);
}

/* ---- the device gives the host's answer, bit for bit ------------------------------ */
/* geometry k of a and b, as WKB, the same bytes */
static int same_row(const vsg_columnar *a, const vsg_columnar *b, int64_t k)
{
    size_t sa = vsg_columnar_wkb_size(a, k), sb = vsg_columnar_wkb_size(b, k);
    if (sa != sb || a->flags[k] != b->flags[k] || a->type[k] != b->type[k])
        return 0;
    unsigned char *ba = malloc(sa + 1), *bb = malloc(sb + 1);
    vsg_columnar_write_wkb(a, k, ba);
    vsg_columnar_write_wkb(b, k, bb);
    int same = !memcmp(ba, bb, sa);
    free(ba);
    free(bb);
    return same;
}

static void device_matches_host(void)
{
    vsg_exec *gx = NULL, *hx = NULL;
    char why[256] = "";
    if (vsg_exec_create_gpu(NULL, &gx, why, sizeof why) != VSG_OK) {
        fprintf(stderr, "  skip: %s\n", why);
        return;
    }
    REQUIRE(vsg_exec_create_host(&hx) == VSG_OK);
    geoset A = {0}, B = {0};
    rng_state = 0x2545f4914f6cdd1dull;
    int kinds[400];
    int64_t skipped;
    int64_t n = random_pairs(&A, &B, 400, kinds, &skipped);
    int64_t *pk = malloc((size_t)n * 8);
    for (int64_t k = 0; k < n; k++)
        pk[k] = k;
    vsg_wkb_array ina = {A.n, (const unsigned char *const *)A.wkb, A.size};
    vsg_wkb_array inb = {B.n, (const unsigned char *const *)B.wkb, B.size};
    vsg_columnar ca, cb, dca, dcb, hout, dout, gout;
    vsg_columnar_report rep;
    REQUIRE(vsg_columnar_from_wkb(&ina, &ca, &rep) == VSG_OK);
    REQUIRE(vsg_columnar_from_wkb(&inb, &cb, &rep) == VSG_OK);
    vsg_col_view hva = vsg_columnar_view(&ca), hvb = vsg_columnar_view(&cb);
    uint8_t *hok = calloc((size_t)n, 1), *gok = calloc((size_t)n, 1);
    uint32_t *hwhy = calloc((size_t)n, 4), *gwhy = calloc((size_t)n, 4);
    double *hba = boxes_on(hx, &hva), *hbb = boxes_on(hx, &hvb);
    REQUIRE(vsg_stage_overlay_refine(hx, &hva, hba, &hvb, hbb, pk, pk, n, &hout, hok, hwhy) ==
            VSG_OK);
    int64_t *dpk = NULL;
    uint8_t *dok = NULL;
    uint32_t *dwhy = NULL;
    REQUIRE(vsg_columnar_upload(gx, &ca, &dca) == VSG_OK);
    REQUIRE(vsg_columnar_upload(gx, &cb, &dcb) == VSG_OK);
    REQUIRE(vsg_exec_alloc(gx, (size_t)n * 8, (void **)&dpk) == VSG_OK);
    REQUIRE(vsg_exec_alloc(gx, (size_t)n, (void **)&dok) == VSG_OK);
    REQUIRE(vsg_exec_alloc(gx, (size_t)n * 4, (void **)&dwhy) == VSG_OK);
    REQUIRE(vsg_exec_upload(gx, dpk, pk, (size_t)n * 8) == VSG_OK);
    vsg_col_view dva = vsg_columnar_view(&dca), dvb = vsg_columnar_view(&dcb);
    double *dba = boxes_on(gx, &dva), *dbb = boxes_on(gx, &dvb);
    vsg_status gst = vsg_stage_overlay_refine(gx, &dva, dba, &dvb, dbb, dpk, dpk, n, &dout, dok,
                                              dwhy);
    if (gst != VSG_OK)
        fprintf(stderr, "  device: %s\n", vsg_exec_last_error(gx));
    REQUIRE(gst == VSG_OK);
    REQUIRE(vsg_columnar_download(gx, &dout, &gout) == VSG_OK);
    REQUIRE(vsg_exec_download(gx, gok, dok, (size_t)n) == VSG_OK);
    REQUIRE(vsg_exec_download(gx, gwhy, dwhy, (size_t)n * 4) == VSG_OK);
    REQUIRE(vsg_exec_sync(gx) == VSG_OK);
    CHECK(!memcmp(hok, gok, (size_t)n) && !memcmp(hwhy, gwhy, (size_t)n * 4));
    int64_t settled = 0, rows_differ = 0;
    for (int64_t k = 0; k < n; k++) {
        settled += hok[k] != 0;
        if (hok[k] && gok[k] && !same_row(&hout, &gout, k)) {
            if (rows_differ++ < 4)
                fprintf(stderr, "  pair %lld: the device's geometry differs\n", (long long)k);
        }
    }
    CHECK(rows_differ == 0);
    int whole = same_columnar(&hout, &gout);
    CHECK(whole);
    fprintf(stderr, "  device: %lld of %lld pairs settled, %s the host\n", (long long)settled,
            (long long)n, whole ? "identical to" : "NOT identical to");
    vsg_exec_free(gx, dpk);
    vsg_exec_free(gx, dok);
    vsg_exec_free(gx, dwhy);
    vsg_exec_free(gx, dba);
    vsg_exec_free(gx, dbb);
    vsg_exec_free(hx, hba);
    vsg_exec_free(hx, hbb);
    vsg_columnar_free(&gout);
    vsg_columnar_free(&dout);
    vsg_columnar_free(&dca);
    vsg_columnar_free(&dcb);
    vsg_columnar_free(&hout);
    vsg_columnar_free(&ca);
    vsg_columnar_free(&cb);
    free(hok);
    free(gok);
    free(hwhy);
    free(gwhy);
    free(pk);
    geoset_free(&A);
    geoset_free(&B);
    vsg_exec_destroy(hx);
    vsg_exec_destroy(gx);
}

int main(void)
{
#if defined(__GLIBC__) && defined(M_PERTURB)
    /* every block malloc hands out is filled with a non-zero byte, so that
     * an array the stage reads before writing gives garbage here, not the
     * zeros of fresh pages (the host backend allocates with malloc) */
    mallopt(M_PERTURB, 0x5a);
#endif
    ctx = GEOS_init_r();
    RUN(hand_made_pairs);
    RUN(odd_rows);
    RUN(batched_pairs);
    RUN(random_grid_pairs);
    RUN(holes_one_ulp_apart);
    RUN(work_is_bounded);
    RUN(device_matches_host);
    /* pairs whose answer is one of their rows whole (a square inside
     * another, sharing edges) were gathered, every answer GEOS's; and built
     * from their pieces as any other pair, every answer GEOS's too */
    printf("pairs gathered whole: %lld\n", (long long)g_whole_pairs);
    CHECK(g_whole_pairs > 0);
    vsg_stage_refine_set_whole(0);
    RUN(hand_made_pairs);
    RUN(batched_pairs);
    RUN(random_grid_pairs);
    vsg_stage_refine_set_whole(1);
    /* the rays and the items through their box joins, as batches with many
     * of them take them */
    vsg_stage_refine_set_direct_max(0);
    RUN(hand_made_pairs);
    RUN(batched_pairs);
    RUN(random_grid_pairs);
    RUN(device_matches_host);
    vsg_stage_refine_set_direct_max(-1);
    RUN(joins_settle_alike);
    /* classify's chunk tables and join handed to the refine */
    g_share = 1;
    RUN(hand_made_pairs);
    RUN(batched_pairs);
    RUN(random_grid_pairs);
    g_share = 0;
    /* rows the screen passes flagged simple: pairs whose nodes are all exact
     * leave the noding check out; every answer stays GEOS's, and each
     * pair's verdict and bytes what they are with every pair checked */
    RUN(screened_rows_settle_alike);
    g_screen = 1;
    RUN(hand_made_pairs);
    RUN(random_grid_pairs);
    g_share = 1;
    RUN(batched_pairs);
    g_share = 0;
    g_screen = 0;
    GEOS_finish_r(ctx);
    return TEST_SUMMARY();
}
