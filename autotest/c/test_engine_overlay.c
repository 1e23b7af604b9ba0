/*
 * test_engine_overlay.c - intersection, clip and clip by rectangle against
 * GEOS as the oracle (area of the symmetric difference), the type rules,
 * SKIP_FAILURES, and byte-for-byte determinism across thread counts.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */

#include "vsg_test.h"
#include "engine_fixtures.h"

#define RTOL 1e-9

/* Random blobs (buffered points: many vertices), some with holes. */
static void random_inputs(fx_array *a, int n, double extent, unsigned seed)
{
    fx_rand_state = seed;
    for (int i = 0; i < n; i++) {
        double x = fx_rand01() * extent, y = fx_rand01() * extent;
        double r = 0.5 + fx_rand01() * extent / 6;
        char wkt[64];
        snprintf(wkt, sizeof wkt, "POINT(%.6f %.6f)", x, y);
        GEOSGeometry *p = fx_geom(wkt);
        GEOSGeometry *g = GEOSBuffer_r(fx_ctx, p, r, 6);
        if (i % 4 == 1) {   /* a hole */
            GEOSGeometry *h = GEOSBuffer_r(fx_ctx, p, r / 3, 4);
            GEOSGeometry *d = GEOSDifference_r(fx_ctx, g, h);
            GEOSGeom_destroy_r(fx_ctx, g);
            GEOSGeom_destroy_r(fx_ctx, h);
            g = d;
        }
        fx_push_geom(a, g);
        GEOSGeom_destroy_r(fx_ctx, g);
        GEOSGeom_destroy_r(fx_ctx, p);
    }
}

/* A grid of cols x rows unit*unit squares from (0, 0). */
static void grid(fx_array *a, int cols, int rows, double unit)
{
    for (int y = 0; y < rows; y++)
        for (int x = 0; x < cols; x++) {
            char wkt[200];
            snprintf(wkt, sizeof wkt, "POLYGON((%g %g, %g %g, %g %g, %g %g, %g %g))", x * unit,
                     y * unit, (x + 1) * unit, y * unit, (x + 1) * unit, (y + 1) * unit,
                     x * unit, (y + 1) * unit, x * unit, y * unit);
            fx_push(a, wkt);
        }
}

static GEOSGeometry **read_all(fx_array *a)
{
    GEOSGeometry **g = calloc(a->count, sizeof *g);
    for (size_t i = 0; i < a->count; i++)
        g[i] = a->wkb[i] ? fx_read(a->wkb[i], a->size[i]) : NULL;
    return g;
}

static void free_all(GEOSGeometry **g, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (g[i])
            GEOSGeom_destroy_r(fx_ctx, g[i]);
    free(g);
}

/* Intersection of random blobs with a grid plus two big method polygons
 * (one covers some inputs, one is covered by an input), against a brute
 * force double loop of GEOSIntersection. */
static void intersection_matches_brute_force(void)
{
    fx_array in = {0}, me = {0};
    random_inputs(&in, 80, 100, 11);
    fx_push(&in, "POLYGON((-50 -50, 150 -50, 150 150, -50 150, -50 -50))");  /* covers many */
    grid(&me, 8, 8, 12.5);
    fx_push(&me, "POLYGON((20 20, 60 20, 60 60, 20 60, 20 20))");

    vsg_engine *e = fx_engine(4, VSG_INVALID_REPAIR, 0, 0, 0);
    vsg_method_index *idx = NULL;
    REQUIRE(vsg_method_index_build(e, fx_view(&me), &idx) == VSG_OK);
    CHECK(vsg_method_index_dimension(idx) == 2);
    vsg_result r;
    vsg_result_init(&r);
    REQUIRE(vsg_intersection_batch(e, idx, fx_view(&in), &r) == VSG_OK);

    GEOSGeometry **gi = read_all(&in), **gm = read_all(&me);
    size_t k = 0;
    int order_ok = 1, match_ok = 1, valid_ok = 1;
    double worst = 0;
    for (size_t i = 0; i < in.count; i++)
        for (size_t j = 0; j < me.count; j++) {
            GEOSGeometry *x = GEOSIntersection_r(fx_ctx, gi[i], gm[j]);
            double area = fx_area(x);
            if (area > 0) {
                if (k >= r.count || r.input_index[k] != (int64_t)i ||
                    r.method_index[k] != (int64_t)j) {
                    order_ok = 0;
                } else {
                    GEOSGeometry *got = fx_read(r.wkb[k], r.size[k]);
                    double d = fx_rel_symdiff(got, x);
                    if (d > worst)
                        worst = d;
                    match_ok &= d <= RTOL;
                    valid_ok &= got && GEOSisValid_r(fx_ctx, got) == 1;
                    GEOSGeom_destroy_r(fx_ctx, got);
                }
                k++;
            }
            GEOSGeom_destroy_r(fx_ctx, x);
        }
    CHECK(order_ok);
    CHECK(k == r.count);
    CHECK(match_ok);
    CHECK(valid_ok);
    if (!match_ok)
        fprintf(stderr, "  worst relative symdiff %g\n", worst);
    const vsg_counts *c = vsg_engine_counts(e);
    CHECK(c->candidate_pairs >= (int64_t)r.count);
    CHECK(c->contained_shortcuts > 0);
    CHECK(c->output_rows == (int64_t)r.count);
    CHECK(c->method_rows == (int64_t)me.count && c->input_rows == (int64_t)in.count);

    free_all(gi, in.count);
    free_all(gm, me.count);
    vsg_result_clear(&r);
    vsg_method_index_destroy(idx);
    vsg_engine_destroy(e);
    fx_array_free(&in);
    fx_array_free(&me);
}

/* Clip by a layer: one output per input, == input ∩ union(method). */
static void clip_matches_brute_force(void)
{
    fx_array in = {0}, me = {0};
    random_inputs(&in, 60, 100, 23);
    fx_push(&in, "POLYGON((200 200, 210 200, 210 210, 200 210, 200 200))");   /* far away */
    fx_push(&in, "POLYGON((31 31, 32 31, 32 32, 31 32, 31 31))");            /* inside one */
    random_inputs(&me, 12, 100, 99);

    vsg_engine *e = fx_engine(3, VSG_INVALID_REPAIR, 0, 0, 0);
    vsg_method_index *idx;
    REQUIRE(vsg_method_index_build(e, fx_view(&me), &idx) == VSG_OK);
    vsg_result r;
    vsg_result_init(&r);
    REQUIRE(vsg_clip_batch(e, idx, fx_view(&in), &r) == VSG_OK);

    GEOSGeometry **gi = read_all(&in), **gm = read_all(&me);
    GEOSGeometry *coll = GEOSGeom_createCollection_r(fx_ctx, GEOS_GEOMETRYCOLLECTION, gm,
                                                     (unsigned)me.count);
    GEOSGeometry *u = GEOSUnaryUnion_r(fx_ctx, coll);
    size_t k = 0;
    int ok = 1;
    for (size_t i = 0; i < in.count; i++) {
        GEOSGeometry *x = GEOSIntersection_r(fx_ctx, gi[i], u);
        if (fx_area(x) > 0) {
            if (k < r.count && r.input_index[k] == (int64_t)i && r.method_index[k] == -1) {
                GEOSGeometry *got = fx_read(r.wkb[k], r.size[k]);
                ok &= fx_rel_symdiff(got, x) <= RTOL;
                GEOSGeom_destroy_r(fx_ctx, got);
            } else {
                ok = 0;
            }
            k++;
        }
        GEOSGeom_destroy_r(fx_ctx, x);
    }
    CHECK(ok);
    CHECK(k == r.count);
    GEOSGeom_destroy_r(fx_ctx, u);
    GEOSGeom_destroy_r(fx_ctx, coll);   /* owns gm's geometries */
    free(gm);
    free_all(gi, in.count);
    vsg_result_clear(&r);
    vsg_method_index_destroy(idx);
    vsg_engine_destroy(e);
    fx_array_free(&in);
    fx_array_free(&me);
}

/* Clip by rectangle, degenerate cases: expected output count and area
 * against GEOSIntersection with the rectangle polygon. */
static void clip_rect_degenerate_cases(void)
{
    const double rect[4] = {0, 0, 10, 10};
    struct {
        const char *wkt;
        int outputs;        /* 0 or 1 */
        double area;        /* expected; -1: a line, compare length */
    } cases[] = {
        {"POLYGON((0 0, 10 0, 10 10, 0 10, 0 0))", 1, 100},                 /* == rect   */
        {"POLYGON((-5 5, 5 -5, 15 5, 5 15, -5 5))", 1, 100},                /* corners on edges */
        {"POLYGON((0 5, 5 0, 10 5, 5 10, 0 5))", 1, 50},                    /* vertices on edges */
        {"POLYGON((0 0, 5 0, 5 -5, 0 -5, 0 0))", 0, 0},                     /* along an edge */
        {"POLYGON((10 10, 15 10, 15 15, 10 15, 10 10))", 0, 0},             /* a corner point */
        {"POLYGON((-5 -5, 15 -5, 15 15, -5 15, -5 -5), (8 8, 12 8, 12 12, 8 12, 8 8))", 1, 96},
        {"POLYGON((5 5, 20 5, 20 20, 5 20, 5 5))", 1, 25},
        {"POLYGON((20 20, 30 20, 30 30, 20 20))", 0, 0},                    /* outside */
        {"POLYGON EMPTY", 0, 0},
        {NULL, 0, 0},
        {"LINESTRING(-5 5, 15 5)", 1, -1},
        {"MULTIPOLYGON(((1 1, 2 1, 2 2, 1 1)), ((20 20, 21 20, 21 21, 20 20)))", 1, 0.5},
    };
    size_t n = sizeof cases / sizeof *cases;
    fx_array in = {0};
    for (size_t i = 0; i < n; i++)
        fx_push(&in, cases[i].wkt);
    vsg_engine *e = fx_engine(2, VSG_INVALID_REPAIR, 0, 0, 0);
    vsg_result r;
    vsg_result_init(&r);
    REQUIRE(vsg_clip_rect_batch(e, rect, fx_view(&in), &r) == VSG_OK);
    GEOSGeometry *rp = fx_geom("POLYGON((0 0, 10 0, 10 10, 0 10, 0 0))");
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (!cases[i].outputs) {
            CHECK(k >= r.count || r.input_index[k] != (int64_t)i);
            continue;
        }
        REQUIRE(k < r.count);
        CHECK(r.input_index[k] == (int64_t)i && r.method_index[k] == -1);
        GEOSGeometry *got = fx_read(r.wkb[k], r.size[k]);
        GEOSGeometry *src = fx_geom(cases[i].wkt);
        GEOSGeometry *x = GEOSIntersection_r(fx_ctx, src, rp);
        CHECK(got && GEOSisValid_r(fx_ctx, got) == 1);
        if (cases[i].area >= 0) {
            CHECK(fabs(fx_area(got) - cases[i].area) <= RTOL * 100);
            CHECK(fx_rel_symdiff(got, x) <= RTOL);
        } else {
            double lg = 0, lx = 0;
            GEOSLength_r(fx_ctx, got, &lg);
            GEOSLength_r(fx_ctx, x, &lx);
            CHECK(fabs(lg - 10) < 1e-12 && fabs(lx - 10) < 1e-12);
        }
        GEOSGeom_destroy_r(fx_ctx, got);
        GEOSGeom_destroy_r(fx_ctx, src);
        GEOSGeom_destroy_r(fx_ctx, x);
        k++;
    }
    CHECK(k == r.count);
    const vsg_counts *c = vsg_engine_counts(e);
    CHECK(c->contained_shortcuts == 2);   /* == rect, and the inner diamond */
    CHECK(c->null_geometries == 1 && c->empty_geometries == 1);
    /* Bad rectangles. */
    const double bad[4] = {10, 0, 0, 10};
    CHECK(vsg_clip_rect_batch(e, bad, fx_view(&in), &r) == VSG_ERR_INVALID_ARG);
    const double nan_rect[4] = {0, 0, NAN, 10};
    CHECK(vsg_clip_rect_batch(e, nan_rect, fx_view(&in), &r) == VSG_ERR_INVALID_ARG);
    GEOSGeom_destroy_r(fx_ctx, rp);
    vsg_result_clear(&r);
    vsg_engine_destroy(e);
    fx_array_free(&in);
}

/* Pair dimension rule, KEEP_LOWER_DIMENSION_GEOMETRIES, PROMOTE_TO_MULTI. */
static void type_rules(void)
{
    fx_array in = {0}, me = {0};
    fx_push(&in, "POLYGON((0 0, 10 0, 10 10, 0 10, 0 0))");        /* 0: shares an edge with m0 */
    fx_push(&in, "LINESTRING(-5 15, 25 15)");                      /* 1: crosses m1           */
    fx_push(&in, "POLYGON((12 12, 18 12, 18 18, 12 18, 12 12))");  /* 2: inside m1            */
    fx_push(&in, "POLYGON Z ((11 11 5, 19 11 5, 19 19 7, 11 19 7, 11 11 5))");  /* 3: Z, crosses m1 boundary? no: inside */
    fx_push(&in, "POLYGON Z ((15 15 1, 25 15 1, 25 25 3, 15 25 3, 15 15 1))");  /* 4: Z, crosses */
    fx_push(&me, "POLYGON((10 0, 20 0, 20 10, 10 10, 10 0))");     /* m0 */
    fx_push(&me, "POLYGON((10 10, 20 10, 20 20, 10 20, 10 10))");  /* m1 */

    for (int variant = 0; variant < 3; variant++) {
        int keep = variant == 1, promote = variant == 2;
        vsg_engine *e = fx_engine(2, VSG_INVALID_REPAIR, 0, promote, keep);
        vsg_method_index *idx;
        REQUIRE(vsg_method_index_build(e, fx_view(&me), &idx) == VSG_OK);
        vsg_result r;
        vsg_result_init(&r);
        REQUIRE(vsg_intersection_batch(e, idx, fx_view(&in), &r) == VSG_OK);
        const vsg_counts *c = vsg_engine_counts(e);
        /* input 0 touches m0 along an edge and m1 at a point */
        if (keep) {
            CHECK(r.count == 6);
            CHECK(r.count == 6 && fx_type_of_wkb(r.wkb[0], r.size[0]) == GEOS_LINESTRING);
            CHECK(r.count == 6 && fx_type_of_wkb(r.wkb[1], r.size[1]) == GEOS_POINT);
            CHECK(c->lower_dim_dropped == 0);
        } else {
            CHECK(r.count == 4);
            CHECK(c->lower_dim_dropped == 2);
        }
        size_t base = keep ? 2 : 0;
        if (r.count >= base + 4) {
            CHECK(r.input_index[base] == 1 && r.method_index[base] == 1);
            CHECK(fx_type_of_wkb(r.wkb[base], r.size[base]) ==
                  (promote ? GEOS_MULTILINESTRING : GEOS_LINESTRING));
            CHECK(fx_type_of_wkb(r.wkb[base + 1], r.size[base + 1]) ==
                  (promote ? GEOS_MULTIPOLYGON : GEOS_POLYGON));
            /* Z kept: ISO type code 1003 (or 1006 promoted). */
            const unsigned char *w4 = r.wkb[base + 3];
            uint32_t t4 = (uint32_t)w4[1] | (uint32_t)w4[2] << 8;
            CHECK(r.input_index[base + 3] == 4);
            CHECK(t4 == (promote ? 1006u : 1003u));
        }
        vsg_result_clear(&r);
        vsg_method_index_destroy(idx);
        vsg_engine_destroy(e);
    }
    fx_array_free(&in);
    fx_array_free(&me);
}

/* A GEOS failure on input row 1. GEOS up to 3.12 throws on its own on the
 * GeometryCollection of overlapping polygons (valid to GEOSisValid); newer
 * GEOS computes it. The fault hook (core/worker.h) makes the failure the
 * same on every version. */
static void skip_failures(void)
{
    setenv("VSGPU_FAULT_GEOS_ROW", "1", 1);
    fx_array in = {0}, me = {0};
    fx_push(&in, "POLYGON((0 0, 6 0, 6 6, 0 6, 0 0))");
    fx_push(&in, "GEOMETRYCOLLECTION(POLYGON((0 0,10 0,10 10,0 10,0 0)), POLYGON((5 5,15 5,15 15,5 15,5 5)))");
    fx_push(&in, "POLYGON((1 1, 7 1, 7 7, 1 7, 1 1))");
    fx_push(&me, "POLYGON((5 5, 15 5, 15 15, 5 15, 5 5))");

    vsg_engine *e = fx_engine(2, VSG_INVALID_REPAIR, 0, 0, 0);
    vsg_method_index *idx;
    REQUIRE(vsg_method_index_build(e, fx_view(&me), &idx) == VSG_OK);
    vsg_result r;
    vsg_result_init(&r);
    CHECK(vsg_intersection_batch(e, idx, fx_view(&in), &r) == VSG_ERR_GEOS);
    CHECK(r.count == 0);
    CHECK(vsg_engine_error_input_index(e) == 1);
    CHECK(vsg_engine_error_method_index(e) == 0);
    CHECK(strstr(vsg_engine_last_error(e), "input feature #1 x method feature #0: ") != NULL);
    CHECK(strstr(vsg_engine_last_error(e), "TopologyException") != NULL);
    fprintf(stderr, "  error: %s\n", vsg_engine_last_error(e));
    vsg_method_index_destroy(idx);
    vsg_engine_destroy(e);

    e = fx_engine(2, VSG_INVALID_REPAIR, 1, 0, 0);
    REQUIRE(vsg_method_index_build(e, fx_view(&me), &idx) == VSG_OK);
    CHECK(vsg_intersection_batch(e, idx, fx_view(&in), &r) == VSG_OK);
    CHECK(r.count == 2 && r.input_index[0] == 0 && r.input_index[1] == 2);
    CHECK(vsg_engine_counts(e)->failures_skipped == 1);
    CHECK(vsg_clip_batch(e, idx, fx_view(&in), &r) == VSG_OK);
    CHECK(r.count == 2 && vsg_engine_counts(e)->failures_skipped == 2);
    vsg_result_clear(&r);
    vsg_method_index_destroy(idx);
    vsg_engine_destroy(e);
    fx_array_free(&in);
    fx_array_free(&me);
    unsetenv("VSGPU_FAULT_GEOS_ROW");
}

/* Same bytes for 1 and 4 threads, for every operation. */
static void deterministic_across_threads(void)
{
    fx_array in = {0}, me = {0};
    random_inputs(&in, 400, 300, 5);
    random_inputs(&me, 150, 300, 6);
    vsg_result r1[3], r4[3];
    const double rect[4] = {50, 50, 220, 180};
    for (int pass = 0; pass < 2; pass++) {
        vsg_result *r = pass ? r4 : r1;
        vsg_engine *e = fx_engine(pass ? 4 : 1, VSG_INVALID_REPAIR, 0, 0, 0);
        CHECK(vsg_engine_num_threads(e) == (pass ? 4 : 1));
        vsg_method_index *idx;
        REQUIRE(vsg_method_index_build(e, fx_view(&me), &idx) == VSG_OK);
        for (int k = 0; k < 3; k++)
            vsg_result_init(&r[k]);
        double t0 = vsg_now_s();
        CHECK(vsg_intersection_batch(e, idx, fx_view(&in), &r[0]) == VSG_OK);
        double t1 = vsg_now_s();
        CHECK(vsg_clip_batch(e, idx, fx_view(&in), &r[1]) == VSG_OK);
        double t2 = vsg_now_s();
        CHECK(vsg_clip_rect_batch(e, rect, fx_view(&in), &r[2]) == VSG_OK);
        fprintf(stderr, "  %d thread(s): intersection %zu rows %.3fs, clip %zu rows %.3fs\n",
                pass ? 4 : 1, r[0].count, t1 - t0, r[1].count, t2 - t1);
        vsg_method_index_destroy(idx);
        vsg_engine_destroy(e);
    }
    for (int k = 0; k < 3; k++) {
        CHECK(r1[k].count > 0);
        CHECK(fx_results_equal(&r1[k], &r4[k]));
        vsg_result_clear(&r1[k]);
        vsg_result_clear(&r4[k]);
    }
    fx_array_free(&in);
    fx_array_free(&me);
}

static void empty_inputs(void)
{
    fx_array none = {0}, me = {0};
    fx_push(&me, "POLYGON((0 0, 1 0, 1 1, 0 0))");
    vsg_engine *e = fx_engine(2, VSG_INVALID_REPAIR, 0, 0, 0);
    vsg_method_index *idx, *empty_idx;
    REQUIRE(vsg_method_index_build(e, fx_view(&me), &idx) == VSG_OK);
    REQUIRE(vsg_method_index_build(e, fx_view(&none), &empty_idx) == VSG_OK);
    CHECK(vsg_method_index_dimension(empty_idx) == -1);
    vsg_result r;
    vsg_result_init(&r);
    const double rect[4] = {0, 0, 1, 1};
    CHECK(vsg_intersection_batch(e, idx, fx_view(&none), &r) == VSG_OK && r.count == 0);
    CHECK(vsg_clip_batch(e, idx, fx_view(&none), &r) == VSG_OK && r.count == 0);
    CHECK(vsg_clip_rect_batch(e, rect, fx_view(&none), &r) == VSG_OK && r.count == 0);
    CHECK(vsg_intersection_batch(e, empty_idx, fx_view(&me), &r) == VSG_OK && r.count == 0);
    CHECK(vsg_clip_batch(e, empty_idx, fx_view(&me), &r) == VSG_OK && r.count == 0);
    CHECK(vsg_dissolve(e, fx_view(&none), NULL, 0, &r) == VSG_OK && r.count == 0);
    CHECK(vsg_intersection_batch(e, NULL, fx_view(&me), &r) == VSG_ERR_INVALID_ARG);
    vsg_result_clear(&r);
    vsg_method_index_destroy(idx);
    vsg_method_index_destroy(empty_idx);
    vsg_engine_destroy(e);
    fx_array_free(&me);
}

int main(void)
{
    fx_init();
    RUN(intersection_matches_brute_force);
    RUN(clip_matches_brute_force);
    RUN(clip_rect_degenerate_cases);
    RUN(type_rules);
    RUN(skip_failures);
    RUN(deterministic_across_threads);
    RUN(empty_inputs);
    fx_finish();
    return TEST_SUMMARY();
}
