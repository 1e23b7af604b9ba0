/*
 * test_engine_dissolve.c - dissolve against GEOSUnaryUnion as the oracle:
 * the coverage path on a grid, the unary path on overlaps, null / empty /
 * mixed-dimension groups, one huge group cut into chunks, and
 * byte-for-byte determinism across thread counts.
 */
#include "vsg_test.h"
#include "engine_fixtures.h"

#include "dissolve/same_edges.h"

#define RTOL 1e-9

static void grid(fx_array *a, int cols, int rows, double unit, double x0, double y0)
{
    for (int y = 0; y < rows; y++)
        for (int x = 0; x < cols; x++) {
            char wkt[256];
            /* Every vertex computed one way, so shared edges match bit
             * for bit: a true coverage. */
            double ax = x0 + x * unit, ay = y0 + y * unit;
            double bx = x0 + (x + 1) * unit, by = y0 + (y + 1) * unit;
            snprintf(wkt, sizeof wkt, "POLYGON((%.17g %.17g, %.17g %.17g, %.17g %.17g, %.17g %.17g, %.17g %.17g))",
                     ax, ay, bx, ay, bx, by, ax, by, ax, ay);
            fx_push(a, wkt);
        }
}

static void blobs(fx_array *a, int n, double extent, unsigned seed)
{
    fx_rand_state = seed;
    for (int i = 0; i < n; i++) {
        char wkt[80];
        snprintf(wkt, sizeof wkt, "POINT(%.6f %.6f)", fx_rand01() * extent, fx_rand01() * extent);
        GEOSGeometry *p = fx_geom(wkt);
        GEOSGeometry *g = GEOSBuffer_r(fx_ctx, p, 0.5 + fx_rand01() * extent / 20, 5);
        fx_push_geom(a, g);
        GEOSGeom_destroy_r(fx_ctx, g);
        GEOSGeom_destroy_r(fx_ctx, p);
    }
}

/* GEOSUnaryUnion of the members of group g (NULL if none). */
static GEOSGeometry *oracle(fx_array *a, const int64_t *group_of, int64_t g)
{
    GEOSGeometry **parts = malloc(a->count * sizeof *parts);
    unsigned n = 0;
    for (size_t i = 0; i < a->count; i++)
        if (group_of[i] == g && a->wkb[i])
            parts[n++] = fx_read(a->wkb[i], a->size[i]);
    if (!n) {
        free(parts);
        return NULL;
    }
    GEOSGeometry *c = GEOSGeom_createCollection_r(fx_ctx, GEOS_GEOMETRYCOLLECTION, parts, n);
    GEOSGeometry *u = GEOSUnaryUnion_r(fx_ctx, c);
    GEOSGeom_destroy_r(fx_ctx, c);
    free(parts);
    return u;
}

static int check_against_oracle(fx_array *a, const int64_t *group_of, int64_t n_groups,
                                const vsg_result *r)
{
    int ok = r->count == (size_t)n_groups;
    for (int64_t g = 0; ok && g < n_groups; g++) {
        GEOSGeometry *want = oracle(a, group_of, g);
        GEOSGeometry *got = fx_read(r->wkb[g], r->size[g]);
        ok &= r->input_index[g] == g && r->method_index[g] == -1;
        ok &= got && GEOSisValid_r(fx_ctx, got) == 1 &&
              GEOSGeomTypeId_r(fx_ctx, got) == GEOS_MULTIPOLYGON;
        /* Same number of parts as GEOS: no sliver or missed merge. */
        if (got && want && GEOSGetNumGeometries_r(fx_ctx, got) != GEOSGetNumGeometries_r(fx_ctx, want)) {
            fprintf(stderr, "  group %lld: %d parts, GEOS has %d\n", (long long)g,
                    GEOSGetNumGeometries_r(fx_ctx, got), GEOSGetNumGeometries_r(fx_ctx, want));
            ok = 0;
        }
        double d = fx_rel_symdiff(got, want);
        if (d > RTOL) {
            fprintf(stderr, "  group %lld: relative symdiff %g\n", (long long)g, d);
            ok = 0;
        }
        if (got)
            GEOSGeom_destroy_r(fx_ctx, got);
        if (want)
            GEOSGeom_destroy_r(fx_ctx, want);
    }
    return ok;
}

/* A grid grouped by column: a coverage, so every group takes the coverage
 * path, and each column dissolves into one rectangle. */
static void grid_coverage_takes_coverage_path(void)
{
    const int C = 20, R = 20;
    fx_array a = {0};
    grid(&a, C, R, 0.1, -3.3, 7.7);   /* non-integer coordinates */
    int64_t *group_of = malloc(a.count * sizeof *group_of);
    for (size_t i = 0; i < a.count; i++)
        group_of[i] = (int64_t)(i % C);
    vsg_engine *e = fx_engine(2, VSG_INVALID_REPAIR, 0, 0, 0);
    vsg_result r;
    vsg_result_init(&r);
    REQUIRE(vsg_dissolve(e, fx_view(&a), group_of, C, &r) == VSG_OK);
    CHECK(check_against_oracle(&a, group_of, C, &r));
    const vsg_counts *c = vsg_engine_counts(e);
    CHECK(c->coverage_union_groups == C && c->unary_union_groups == 0);
    if (r.count == (size_t)C) {
        GEOSGeometry *g = fx_read(r.wkb[3], r.size[3]);
        CHECK(GEOSGetNumGeometries_r(fx_ctx, g) == 1);
        GEOSGeom_destroy_r(fx_ctx, g);
    }
    vsg_result_clear(&r);
    vsg_engine_destroy(e);
    free(group_of);
    fx_array_free(&a);
}

/* 400 disks of radius 1 in a 4 x 4 square (20 vertices each, 8,400 in
 * one group): each crosses most of the others, more nodes than vertices,
 * so the CPU engine's overlap union refuses the group and GEOS unions it
 * (the arrangement's cost grows with the crossings, GEOS's with what
 * survives: stages/union/arrange.c). */
static void dense_disks_go_to_geos(void)
{
    fx_array a = {0};
    fx_rand_state = 11;
    for (int i = 0; i < 400; i++) {
        char wkt[80];
        snprintf(wkt, sizeof wkt, "POINT(%.6f %.6f)", fx_rand01() * 4, fx_rand01() * 4);
        GEOSGeometry *p = fx_geom(wkt);
        GEOSGeometry *g = GEOSBuffer_r(fx_ctx, p, 1.0, 5);
        fx_push_geom(&a, g);
        GEOSGeom_destroy_r(fx_ctx, g);
        GEOSGeom_destroy_r(fx_ctx, p);
    }
    int64_t *zero = calloc(a.count, sizeof *zero);
    vsg_engine *e = fx_engine(2, VSG_INVALID_REPAIR, 0, 0, 0);
    vsg_result r;
    vsg_result_init(&r);
    REQUIRE(vsg_dissolve(e, fx_view(&a), zero, 1, &r) == VSG_OK);
    CHECK(check_against_oracle(&a, zero, 1, &r));
    const vsg_counts *c = vsg_engine_counts(e);
    CHECK(c->unary_union_groups == 1 && c->coverage_union_groups == 0);
    vsg_result_clear(&r);
    vsg_engine_destroy(e);
    free(zero);
    fx_array_free(&a);
}

/* Overlapping squares, a T-junction, a square twice: no group is a
 * coverage. The exact overlap union settles all three (CPU engine
 * included), each equal to GEOS's; with the exact unions off
 * (coverage_union = 0) GEOS's unary union takes every one. */
static void overlaps_settled_exactly(void)
{
    fx_array a = {0};
    fx_push(&a, "POLYGON((0 0, 2 0, 2 2, 0 2, 0 0))");          /* group 0: overlapping */
    fx_push(&a, "POLYGON((1 1, 3 1, 3 3, 1 3, 1 1))");
    fx_push(&a, "POLYGON((10 0, 12 0, 12 2, 10 2, 10 0))");     /* group 1: T-junction */
    fx_push(&a, "POLYGON((12 0, 13 0, 13 1, 12 1, 12 0))");
    fx_push(&a, "POLYGON((12 1, 13 1, 13 2, 12 2, 12 1))");
    fx_push(&a, "POLYGON((20 0, 22 0, 22 2, 20 2, 20 0))");     /* group 2: identical twice */
    fx_push(&a, "POLYGON((20 0, 22 0, 22 2, 20 2, 20 0))");
    int64_t group_of[] = {0, 0, 1, 1, 1, 2, 2};
    for (int exact = 1; exact >= 0; exact--) {
        vsg_engine_options o;
        vsg_engine_options_init(&o);
        o.num_threads = 2;
        o.invalid = VSG_INVALID_REPAIR;
        o.coverage_union = exact;
        vsg_engine *e = NULL;
        REQUIRE(vsg_engine_create(&o, &e) == VSG_OK);
        vsg_result r;
        vsg_result_init(&r);
        REQUIRE(vsg_dissolve(e, fx_view(&a), group_of, 3, &r) == VSG_OK);
        CHECK(check_against_oracle(&a, group_of, 3, &r));
        const vsg_counts *c = vsg_engine_counts(e);
        CHECK(c->unary_union_groups + c->coverage_union_groups == 3);
        CHECK(exact ? c->coverage_union_groups == 3 : c->unary_union_groups == 3);
        if (exact ? c->coverage_union_groups != 3 : c->unary_union_groups != 3)
            fprintf(stderr, "  exact %d: coverage %lld unary %lld\n", exact,
                    (long long)c->coverage_union_groups, (long long)c->unary_union_groups);
        vsg_result_clear(&r);
        vsg_engine_destroy(e);
    }
    fx_array_free(&a);
}

static void null_empty_and_mixed_groups(void)
{
    fx_array a = {0};
    fx_push(&a, NULL);                                          /* g0: all null      */
    fx_push(&a, NULL);
    fx_push(&a, "POLYGON EMPTY");                               /* g1: all empty     */
    fx_push(&a, "MULTIPOLYGON EMPTY");
    fx_push(&a, NULL);                                          /* g2: null + empty  */
    fx_push(&a, "POLYGON EMPTY");
    fx_push(&a, "POLYGON((0 0, 1 0, 1 1, 0 1, 0 0))");          /* g3: poly + line   */
    fx_push(&a, "LINESTRING(5 5, 6 6)");
    fx_push(&a, NULL);
    fx_push(&a, "LINESTRING(0 0, 9 9)");                        /* g4: only a line   */
    /* g5: no member at all */
    fx_push(&a, "GEOMETRYCOLLECTION(POLYGON((2 2, 3 2, 3 3, 2 2)), POINT(0 0))");  /* g6 */
    int64_t group_of[] = {0, 0, 1, 1, 2, 2, 3, 3, 3, 4, 6};
    vsg_engine *e = fx_engine(3, VSG_INVALID_REPAIR, 0, 0, 0);
    vsg_result r;
    vsg_result_init(&r);
    REQUIRE(vsg_dissolve(e, fx_view(&a), group_of, 7, &r) == VSG_OK);
    REQUIRE(r.count == 7);
    CHECK(r.wkb[0] == NULL && r.size[0] == 0);
    char *t1 = fx_wkt_of_wkb(r.wkb[1], r.size[1]);
    CHECK(t1 && strcmp(t1, "MULTIPOLYGON EMPTY") == 0);
    free(t1);
    char *t2 = fx_wkt_of_wkb(r.wkb[2], r.size[2]);
    CHECK(t2 && strcmp(t2, "MULTIPOLYGON EMPTY") == 0);
    free(t2);
    char *t3 = fx_wkt_of_wkb(r.wkb[3], r.size[3]);
    CHECK(t3 && strncmp(t3, "MULTIPOLYGON (((", 16) == 0);
    free(t3);
    char *t4 = fx_wkt_of_wkb(r.wkb[4], r.size[4]);
    CHECK(t4 && strcmp(t4, "MULTIPOLYGON EMPTY") == 0);   /* the layer is polygonal */
    free(t4);
    CHECK(r.wkb[5] == NULL);
    CHECK(fx_type_of_wkb(r.wkb[6], r.size[6]) == GEOS_MULTIPOLYGON);
    const vsg_counts *c = vsg_engine_counts(e);
    CHECK(c->type_skipped == 3);        /* two lines and the point */
    CHECK(c->null_geometries == 4);
    CHECK(c->empty_geometries == 3);
    /* A group index out of range. */
    int64_t bad[] = {0, 0, 1, 1, 2, 2, 3, 3, 3, 4, 7};
    CHECK(vsg_dissolve(e, fx_view(&a), bad, 7, &r) == VSG_ERR_INVALID_ARG && r.count == 0);
    CHECK(vsg_engine_error_input_index(e) == 10);
    vsg_result_clear(&r);
    vsg_engine_destroy(e);
    fx_array_free(&a);
}

static void points_and_lines_dissolve_to_multi(void)
{
    fx_array a = {0};
    fx_push(&a, "POINT(1 1)");
    fx_push(&a, "POINT(1 1)");
    fx_push(&a, "MULTIPOINT(2 2, 3 3)");
    vsg_engine *e = fx_engine(1, VSG_INVALID_REPAIR, 0, 0, 0);
    int64_t group_of[] = {0, 0, 0};
    vsg_result r;
    vsg_result_init(&r);
    REQUIRE(vsg_dissolve(e, fx_view(&a), group_of, 1, &r) == VSG_OK);
    char *t = fx_wkt_of_wkb(r.wkb[0], r.size[0]);
    /* GEOS 3.12 and later write the members in parentheses. */
    int same = t && (strcmp(t, "MULTIPOINT (1 1, 2 2, 3 3)") == 0 ||
                     strcmp(t, "MULTIPOINT ((1 1), (2 2), (3 3))") == 0);
    CHECK(same);
    if (!same)
        fprintf(stderr, "  got %s\n", t ? t : "(null)");
    free(t);
    fx_array_free(&a);
    fx_push(&a, "LINESTRING(0 0, 2 0)");
    fx_push(&a, "LINESTRING(1 0, 3 0)");
    REQUIRE(vsg_dissolve(e, fx_view(&a), group_of, 1, &r) == VSG_OK);
    CHECK(fx_type_of_wkb(r.wkb[0], r.size[0]) == GEOS_MULTILINESTRING);
    vsg_result_clear(&r);
    vsg_engine_destroy(e);
    fx_array_free(&a);
}

/* Dissolve all: one group far larger than a chunk, on the coverage path
 * (a 60 x 60 grid) and on the unary path (overlapping blobs). */
static void one_huge_group(void)
{
    fx_array cov = {0}, ovl = {0};
    grid(&cov, 60, 60, 1.0, 0, 0);
    blobs(&ovl, 2000, 1000, 77);
    int64_t *zero = calloc(4000, sizeof *zero);
    for (int k = 0; k < 2; k++) {
        fx_array *a = k ? &ovl : &cov;
        /* the blobs (44,000 vertices in one group) go to GEOS's union,
         * which spreads one group's chunks over the threads: the CPU
         * engine's overlap union takes groups of at most 2^14 vertices */
        vsg_engine *e = fx_engine(0, VSG_INVALID_REPAIR, 0, 0, 0);
        vsg_result r;
        vsg_result_init(&r);
        double t0 = vsg_now_s();
        REQUIRE(vsg_dissolve(e, fx_view(a), zero, 1, &r) == VSG_OK);
        double t1 = vsg_now_s();
        fprintf(stderr, "  %s: %zu geometries dissolved in %.3fs on %d threads\n",
                k ? "2000 overlapping blobs" : "60x60 grid coverage", a->count, t1 - t0,
                vsg_engine_num_threads(e));
        CHECK(check_against_oracle(a, zero, 1, &r));
        const vsg_counts *c = vsg_engine_counts(e);
        CHECK(k ? c->unary_union_groups == 1 : c->coverage_union_groups == 1);
        if (!k) {
            GEOSGeometry *g = fx_read(r.wkb[0], r.size[0]);
            CHECK(GEOSGetNumGeometries_r(fx_ctx, g) == 1 && fabs(fx_area(g) - 3600) < 1e-9);
            GEOSGeom_destroy_r(fx_ctx, g);
        }
        vsg_result_clear(&r);
        vsg_engine_destroy(e);
    }
    free(zero);
    fx_array_free(&cov);
    fx_array_free(&ovl);
}


/* A coverage with flaws, dissolved into one polygon: the cells nearest the
 * origin (the first chunk along the Morton curve) carry an extra vertex on
 * an edge their neighbour lacks (not noded alike), and one cell in the
 * middle has a spike (invalid, repaired by MakeValid into its square). The
 * first-chunk probe fails, most later probes pass, so chunk unions try
 * coverage union and fall back where needed; the repaired cell is kept out
 * of coverage unions and merged after. The answer must not care: one
 * valid 60 x 60 square. */
static void mostly_a_coverage(void)
{
    const int N = 60;
    fx_array a = {0};
    for (int y = 0; y < N; y++)
        for (int x = 0; x < N; x++) {
            char wkt[320];
            if (x < 2 && y < 2)          /* extra vertex on the right edge */
                snprintf(wkt, sizeof wkt, "POLYGON((%d %d, %d %d, %d %.1f, %d %d, %d %d, %d %d))",
                         x, y, x + 1, y, x + 1, y + 0.5, x + 1, y + 1, x, y + 1, x, y);
            else if (x == 30 && y == 30)  /* a spike: invalid */
                snprintf(wkt, sizeof wkt,
                         "POLYGON((%d %d, %d %d, %d %d, %.1f %d, %.1f %.1f, %.1f %d, %d %d, %d %d))",
                         x, y, x + 1, y, x + 1, y + 1, x + 0.5, y + 1, x + 0.5, y + 1.5, x + 0.5,
                         y + 1, x, y + 1, x, y);
            else
                snprintf(wkt, sizeof wkt, "POLYGON((%d %d, %d %d, %d %d, %d %d, %d %d))", x, y,
                         x + 1, y, x + 1, y + 1, x, y + 1, x, y);
            fx_push(&a, wkt);
        }
    int64_t *zero = calloc(a.count, sizeof *zero);
    for (int threads = 1; threads <= 3; threads += 2) {
        vsg_engine *e = fx_engine(threads, VSG_INVALID_REPAIR, 0, 0, 0);
        vsg_result r;
        vsg_result_init(&r);
        REQUIRE(vsg_dissolve(e, fx_view(&a), zero, 1, &r) == VSG_OK);
        REQUIRE(r.count == 1);
        GEOSGeometry *g = fx_read(r.wkb[0], r.size[0]);
        CHECK(g && GEOSisValid_r(fx_ctx, g) == 1);
        CHECK(g && GEOSGetNumGeometries_r(fx_ctx, g) == 1);
        CHECK(g && fabs(fx_area(g) - (double)N * N) < 1e-9);
        CHECK(vsg_engine_counts(e)->invalid_repaired == 1);
        if (g)
            GEOSGeom_destroy_r(fx_ctx, g);
        vsg_result_clear(&r);
        vsg_engine_destroy(e);
    }
    free(zero);
    fx_array_free(&a);
}

/* A Voronoi diagram is a coverage of irregular cells (like counties):
 * dissolve all and dissolve into strips both take the coverage path and
 * agree with GEOS. */
static void voronoi_coverage(void)
{
    const int n = 3000;
    fx_rand_state = 9;
    GEOSGeometry **pts = malloc(n * sizeof *pts);
    for (int i = 0; i < n; i++)
        pts[i] = GEOSGeom_createPointFromXY_r(fx_ctx, fx_rand01() * 1000, fx_rand01() * 500);
    GEOSGeometry *mp = GEOSGeom_createCollection_r(fx_ctx, GEOS_MULTIPOINT, pts, n);
    GEOSGeometry *v = GEOSVoronoiDiagram_r(fx_ctx, mp, 0, 0, 0);
    fx_array a = {0};
    int nv = v ? GEOSGetNumGeometries_r(fx_ctx, v) : 0;
    REQUIRE(nv > 0 && nv <= n);
    for (int i = 0; i < nv; i++)
        fx_push_geom(&a, GEOSGetGeometryN_r(fx_ctx, v, i));
    size_t m = (size_t)nv;
    int64_t *all = calloc(m, sizeof *all), *strips = malloc(m * sizeof *strips);
    for (int i = 0; i < nv; i++) {
        double x;
        GEOSGeom_getXMin_r(fx_ctx, GEOSGetGeometryN_r(fx_ctx, v, i), &x);
        strips[i] = x < 0 ? 0 : x >= 1000 ? 9 : (int64_t)(x / 100);
    }
    vsg_engine *e = fx_engine(0, VSG_INVALID_REPAIR, 0, 0, 0);
    vsg_result r;
    vsg_result_init(&r);
    double t0 = vsg_now_s();
    REQUIRE(vsg_dissolve(e, fx_view(&a), all, 1, &r) == VSG_OK);
    fprintf(stderr, "  %d Voronoi cells dissolved in %.3fs\n", nv, vsg_now_s() - t0);
    CHECK(check_against_oracle(&a, all, 1, &r));
    CHECK(vsg_engine_counts(e)->coverage_union_groups == 1);
    REQUIRE(vsg_dissolve(e, fx_view(&a), strips, 10, &r) == VSG_OK);
    CHECK(check_against_oracle(&a, strips, 10, &r));
    CHECK(vsg_engine_counts(e)->coverage_union_groups == 11);
    CHECK(vsg_engine_counts(e)->unary_union_groups == 0);
    vsg_result_clear(&r);
    vsg_engine_destroy(e);
    free(all);
    free(strips);
    GEOSGeom_destroy_r(fx_ctx, v);
    GEOSGeom_destroy_r(fx_ctx, mp);
    free(pts);
    fx_array_free(&a);
}

static void deterministic_across_threads(void)
{
    fx_array a = {0};
    blobs(&a, 1500, 500, 3);
    grid(&a, 30, 30, 7.0, 600, 0);
    int64_t *group_of = malloc(a.count * sizeof *group_of);
    for (size_t i = 0; i < a.count; i++)
        group_of[i] = i < 1500 ? (int64_t)(i % 3) : 3;   /* 3 blob groups + a grid group */
    vsg_result r1, r4;
    vsg_result_init(&r1);
    vsg_result_init(&r4);
    vsg_engine *e1 = fx_engine(1, VSG_INVALID_REPAIR, 0, 0, 0);
    vsg_engine *e4 = fx_engine(4, VSG_INVALID_REPAIR, 0, 0, 0);
    REQUIRE(vsg_dissolve(e1, fx_view(&a), group_of, 4, &r1) == VSG_OK);
    REQUIRE(vsg_dissolve(e4, fx_view(&a), group_of, 4, &r4) == VSG_OK);
    CHECK(fx_results_equal(&r1, &r4));
    CHECK(check_against_oracle(&a, group_of, 4, &r4));
    /* the grid by the coverage union, the blob groups (10,500 vertices
     * each) by the overlap union, on 1 thread as on 4 */
    CHECK(vsg_engine_counts(e1)->coverage_union_groups == 4);
    CHECK(vsg_engine_counts(e4)->coverage_union_groups == 4);
    vsg_result_clear(&r1);
    vsg_result_clear(&r4);
    vsg_engine_destroy(e1);
    vsg_engine_destroy(e4);
    free(group_of);
    fx_array_free(&a);
}

/* dissolve/same_edges.h: which repairs the group union may keep */
static int same_edges(const char *a, const char *b)
{
    GEOSGeometry *ga = fx_geom(a), *gb = fx_geom(b);
    int same = -1;
    CHECK(vsg_same_edges(fx_ctx, ga, gb, &same) == VSG_OK);
    GEOSGeom_destroy_r(fx_ctx, ga);
    GEOSGeom_destroy_r(fx_ctx, gb);
    return same;
}

static void repairs_that_keep_their_edges(void)
{
    /* a spike walked there and back cancels: the repair fits */
    CHECK(same_edges("POLYGON((0 0,1 0,1 1,0.5 1,0.5 2,0.5 1,0 1,0 0))",
                     "POLYGON((0 0,1 0,1 1,0.5 1,0 1,0 0))") == 1);
    /* the same edges in other rings, parts, order and direction */
    CHECK(same_edges("MULTIPOLYGON(((0 0,1 0,1 1,0 1,0 0)),((2 0,3 0,3 1,2 0)))",
                     "MULTIPOLYGON(((3 1,3 0,2 0,3 1)),((0 1,1 1,1 0,0 0,0 1)))") == 1);
    /* a bow-tie's repair splits its edges at the crossing: not the same */
    CHECK(same_edges("POLYGON((0 0,2 2,2 0,0 2,0 0))",
                     "MULTIPOLYGON(((0 0,1 1,0 2,0 0)),((1 1,2 2,2 0,1 1)))") == 0);
    /* an edge dropped, or moved by a rounding */
    CHECK(same_edges("POLYGON((0 0,1 0,1 1,0 1,0 0))", "POLYGON((0 0,1 0,0 1,0 0))") == 0);
    CHECK(same_edges("POLYGON((0 0,1 0,1 1,0 1,0 0))",
                     "POLYGON((0 0,1 0,1 1.0000000000000002,0 1,0 0))") == 0);
    /* not polygons: never the same */
    CHECK(same_edges("LINESTRING(0 0,1 0)", "LINESTRING(0 0,1 0)") == 0);
}

int main(void)
{
    fx_init();
    RUN(grid_coverage_takes_coverage_path);
    RUN(overlaps_settled_exactly);
    RUN(dense_disks_go_to_geos);
    RUN(null_empty_and_mixed_groups);
    RUN(points_and_lines_dissolve_to_multi);
    RUN(one_huge_group);
    RUN(mostly_a_coverage);
    RUN(voronoi_coverage);
    RUN(deterministic_across_threads);
    RUN(repairs_that_keep_their_edges);
    fx_finish();
    return TEST_SUMMARY();
}
