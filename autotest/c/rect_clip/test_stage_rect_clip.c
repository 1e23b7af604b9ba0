/*
 * test_stage_rect_clip.c - vsg_stage_rect_clip on the host backend against
 * the GEOS-backed engine (vsg_clip_rect_batch: GEOSClipByRect behind a box
 * shortcut, then the type rule). Every row must either be left to the CPU
 * engine (row_cpu = 1) or agree with it: polygons by the area of the
 * symmetric difference (relative, < 1e-9) and be valid (GEOSisValid);
 * lines by length and Hausdorff distance; points as point sets. Cases the
 * kernel must decide itself are asserted to have row_cpu = 0.
 *
 * Hand-made degenerate cases first, then seeded random polygons (star
 * shapes with holes, unions of grid cells, which put vertices and edges on
 * the rectangle's sides), lines and points against random rectangles.
 */
#include <geos_c.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_fixtures.h"
#include "vsg_test.h"
#include "columnar/columnar.h"
#include "exec/exec.h"
#include "stages/stages.h"

/* ---- running one set through both ---------------------------------------- */
typedef struct {
    int64_t rows, gpu_rows, cpu_rows, bad, invalid;
    double worst;            /* largest relative difference seen          */
} rc_tally;

enum { MUST_GPU = 1, MAY_CPU = 0, MUST_CPU = 2 };

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static double urand(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (double)(rng_state >> 11) * (1.0 / 9007199254740992.0);
}

static GEOSGeometry *geom_of_result(const vsg_result *res, size_t input)
{
    for (size_t k = 0; k < res->count; k++)
        if (res->input_index[k] == (int64_t)input)
            return fx_read(res->wkb[k], res->size[k]);
    return NULL;
}

static int is_empty(const GEOSGeometry *g)
{
    return !g || GEOSisEmpty_r(fx_ctx, g);
}

/* Compares one row; returns the relative difference (0 when equal). */
static double compare_row(const GEOSGeometry *gpu, const GEOSGeometry *ref, int dim,
                          int *invalid)
{
    *invalid = 0;
    if (is_empty(gpu) && is_empty(ref))
        return 0.0;
    if (is_empty(gpu) != is_empty(ref)) {
        /* an empty polygon result and a zero-area one are the same */
        const GEOSGeometry *g = is_empty(gpu) ? ref : gpu;
        if (dim == 2)
            return fx_area(g) > 0 ? 1.0 : 0.0;
        if (dim == 1) {
            double len = 0;
            GEOSLength_r(fx_ctx, g, &len);
            return len > 0 ? 1.0 : 0.0;
        }
        return 1.0;
    }
    if (dim == 2) {
        if (GEOSisValid_r(fx_ctx, gpu) != 1)
            *invalid = 1;
        return fx_rel_symdiff(gpu, ref);
    }
    if (dim == 1) {
        double la = 0, lb = 0, h = 0;
        GEOSLength_r(fx_ctx, gpu, &la);
        GEOSLength_r(fx_ctx, ref, &lb);
        GEOSHausdorffDistance_r(fx_ctx, gpu, ref, &h);
        double scale = fmax(fmax(la, lb), 1e-300);
        return fmax(fabs(la - lb) / scale, h / scale);
    }
    return GEOSEquals_r(fx_ctx, gpu, ref) == 1 ? 0.0 : 1.0;
}

/* Runs the stage and the engine on `in`; expect[i] (or NULL) says whether
 * row i must stay on the GPU path, may be deferred, or must be deferred. */
static void run_set(fx_array *in, const double rect[4], const int *expect, rc_tally *t,
                    int verbose)
{
    const vsg_wkb_array *view = fx_view(in);
    vsg_columnar col;
    vsg_columnar_report rep;
    REQUIRE(vsg_columnar_from_wkb(view, &col, &rep) == VSG_OK);
    vsg_col_view v = vsg_columnar_view(&col);

    vsg_exec *x = NULL;
    REQUIRE(vsg_exec_create_host(&x) == VSG_OK);
    void *boxes = NULL, *row_cpu = NULL;
    REQUIRE(vsg_exec_alloc(x, (size_t)v.n_geoms * 4 * sizeof(double), &boxes) == VSG_OK);
    REQUIRE(vsg_exec_alloc(x, (size_t)v.n_geoms, &row_cpu) == VSG_OK);
    REQUIRE(vsg_stage_bounds(x, &v, boxes) == VSG_OK);
    vsg_columnar out;
    vsg_status st = vsg_stage_rect_clip(x, &v, boxes, rect, &out, row_cpu);
    CHECK(st == VSG_OK);
    if (st != VSG_OK) {
        fprintf(stderr, "stage failed: %s\n", vsg_exec_last_error(x));
        vsg_exec_destroy(x);
        vsg_columnar_free(&col);
        return;
    }
    CHECK(out.n_geoms == v.n_geoms);

    vsg_engine *e = fx_engine(1, VSG_INVALID_REPAIR, 0, 0, 0);
    REQUIRE(e);
    vsg_result res;
    vsg_result_init(&res);
    st = vsg_clip_rect_batch(e, rect, view, &res);
    CHECK(st == VSG_OK);

    const uint8_t *cpu = row_cpu;
    for (int64_t i = 0; i < v.n_geoms && st == VSG_OK; i++) {
        t->rows++;
        int want = expect ? expect[i] : MAY_CPU;
        if (cpu[i]) {
            t->cpu_rows++;
            if (verbose)
                fprintf(stderr, "  (row %lld deferred)\n", (long long)i);
            if (want == MUST_GPU) {
                t->bad++;
                fprintf(stderr, "row %lld deferred to the CPU engine unexpectedly\n",
                        (long long)i);
            }
            continue;
        }
        t->gpu_rows++;
        if (want == MUST_CPU) {
            t->bad++;
            fprintf(stderr, "row %lld should have been deferred\n", (long long)i);
        }
        GEOSGeometry *gpu = NULL;
        if (!(out.flags[i] & VSG_GF_NULL)) {
            size_t n = vsg_columnar_wkb_size(&out, i);
            unsigned char *buf = malloc(n ? n : 1);
            vsg_columnar_write_wkb(&out, i, buf);
            gpu = n ? fx_read(buf, n) : NULL;
            free(buf);
        }
        CHECK(!(in->wkb[i] == NULL) || (out.flags[i] & VSG_GF_NULL));
        GEOSGeometry *ref = geom_of_result(&res, (size_t)i);
        int invalid = 0;
        double d = compare_row(gpu, ref, vsg_gt_dimension(v.type[i]), &invalid);
        if (d > t->worst)
            t->worst = d;
        if (d > 1e-9 || invalid) {
            t->bad++;
            t->invalid += invalid;
            char *wi = in->wkb[i] ? fx_wkt_of_wkb(in->wkb[i], in->size[i]) : NULL;
            GEOSWKTWriter *w = GEOSWKTWriter_create_r(fx_ctx);
            GEOSWKTWriter_setTrim_r(fx_ctx, w, 1);
            char *wg = gpu ? GEOSWKTWriter_write_r(fx_ctx, w, gpu) : NULL;
            char *wr = ref ? GEOSWKTWriter_write_r(fx_ctx, w, ref) : NULL;
            if (verbose || t->bad < 6)
                fprintf(stderr,
                        "row %lld rect (%.17g %.17g %.17g %.17g): diff %g valid %d\n"
                        "  in  %s\n  gpu %s\n  ref %s\n",
                        (long long)i, rect[0], rect[1], rect[2], rect[3], d, !invalid,
                        wi ? wi : "NULL", wg ? wg : "EMPTY", wr ? wr : "EMPTY");
            free(wi);
            if (wg) GEOSFree_r(fx_ctx, wg);
            if (wr) GEOSFree_r(fx_ctx, wr);
            GEOSWKTWriter_destroy_r(fx_ctx, w);
        }
        if (gpu) GEOSGeom_destroy_r(fx_ctx, gpu);
        if (ref) GEOSGeom_destroy_r(fx_ctx, ref);
    }
    vsg_result_clear(&res);
    vsg_engine_destroy(e);
    vsg_columnar_free(&out);
    vsg_exec_free(x, boxes);
    vsg_exec_free(x, row_cpu);
    vsg_exec_destroy(x);
    vsg_columnar_free(&col);
}

/* ---- hand-made cases -------------------------------------------------------- */
typedef struct {
    const char *wkt;     /* NULL: a null geometry */
    int expect;
} rc_case;

static void run_cases(const rc_case *cs, size_t n, const double rect[4], const char *what)
{
    fx_array in;
    memset(&in, 0, sizeof in);
    int *expect = malloc(n * sizeof *expect);
    for (size_t i = 0; i < n; i++) {
        fx_push(&in, cs[i].wkt);
        expect[i] = cs[i].expect;
    }
    rc_tally t;
    memset(&t, 0, sizeof t);
    run_set(&in, rect, expect, &t, 1);
    fprintf(stderr, "  %s: %lld rows, %lld on the GPU path, %lld deferred, worst %g\n", what,
            (long long)t.rows, (long long)t.gpu_rows, (long long)t.cpu_rows, t.worst);
    CHECK(t.bad == 0);
    CHECK(t.rows == (int64_t)n);
    free(expect);
    fx_array_free(&in);
}

static void test_degenerate_polygons(void)
{
    static const double r[4] = {0, 0, 10, 10};
    static const rc_case cs[] = {
        /* rectangle sides through vertices */
        {"POLYGON((0 5, 5 -5, 15 5, 5 15, 0 5))", MUST_GPU},
        {"POLYGON((-5 5, 5 0, 15 5, 5 10, -5 5))", MUST_GPU},
        {"POLYGON((0 0, 12 3, 10 10, 3 12, 0 0))", MUST_GPU},
        {"POLYGON((-2 -2, 10 0, 12 12, 0 10, -2 -2))", MUST_GPU},
        /* polygon edges along the rectangle's sides */
        {"POLYGON((-1 0, 5 0, 5 5, -1 5, -1 0))", MUST_GPU},
        {"POLYGON((0 -1, 10 -1, 10 5, 0 5, 0 -1))", MUST_GPU},
        {"POLYGON((2 0, 8 0, 8 12, 2 12, 2 0))", MUST_GPU},
        {"POLYGON((-1 2, 5 2, 5 4, 2 4, 2 6, 5 6, 5 8, -1 8, -1 2))", MUST_GPU},
        {"POLYGON((-1 2, 10 2, 10 4, 2 4, 2 6, 10 6, 10 8, -1 8, -1 2))", MUST_GPU},
        {"POLYGON((-1 2, 12 2, 12 4, 10 4, 10 6, 12 6, 12 8, -1 8, -1 2))", MUST_GPU},
        /* touching from outside: a point, an edge, a corner */
        {"POLYGON((-5 -5, 0 5, -5 10, -5 -5))", MUST_GPU},
        {"POLYGON((-5 0, 0 0, 0 10, -5 10, -5 0))", MUST_GPU},
        {"POLYGON((10 10, 15 10, 15 15, 10 15, 10 10))", MUST_GPU},
        {"POLYGON((-3 2, 0 3, 0 6, -3 7, -3 2))", MUST_GPU},
        /* touching from inside at a point (a spike), a sharp spike through */
        {"POLYGON((2 2, 8 2, 8 8, 5.5 8, 5 10, 4.5 8, 2 8, 2 2))", MUST_GPU},
        {"POLYGON((2 2, 8 2, 8 8, 5.01 8, 5 25, 4.99 8, 2 8, 2 2))", MUST_GPU},
        {"POLYGON((-2 -2, 12 -2, 12 12, 5.5 12, 5 10, 4.5 12, -2 12, -2 -2))", MUST_GPU},
        {"POLYGON((2 2, 5 0, 8 2, 8 8, 2 8, 2 2))", MUST_GPU},
        {"POLYGON((0 0, 5 3, 10 0, 10 10, 0 10, 0 0))", MUST_GPU},
        /* a V notch from outside touching the far side: two polygons
         * meeting at a point */
        {"POLYGON((-1 -1, 11 -1, 11 11, 6 11, 5 0, 4 11, -1 11, -1 -1))", MUST_GPU},
        /* the rectangle inside the polygon; the polygon equal to it */
        {"POLYGON((-5 -5, 15 -5, 15 15, -5 15, -5 -5))", MUST_GPU},
        {"POLYGON((0 0, 10 0, 10 10, 0 10, 0 0))", MUST_GPU},
        {"POLYGON((0 0, 0 10, 10 10, 10 0, 0 0))", MUST_GPU},
        /* holes: inside, crossing, containing the rectangle, equal to it */
        {"POLYGON((-5 -5, 15 -5, 15 15, -5 15, -5 -5),(2 2, 3 2, 3 3, 2 3, 2 2))", MUST_GPU},
        {"POLYGON((-5 -5, 15 -5, 15 15, -5 15, -5 -5),(2 -2, 3 -2, 3 3, 2 3, 2 -2))", MUST_GPU},
        {"POLYGON((-5 -5, 15 -5, 15 15, -5 15, -5 -5),(-1 -1, 11 -1, 11 11, -1 11, -1 -1))",
         MUST_GPU},
        {"POLYGON((-5 -5, 15 -5, 15 15, -5 15, -5 -5),(0 0, 10 0, 10 10, 0 10, 0 0))", MUST_GPU},
        {"POLYGON((-5 -5, 15 -5, 15 15, -5 15, -5 -5),(2 -2, 8 -2, 8 12, 2 12, 2 -2))", MUST_GPU},
        {"POLYGON((-5 -5, 15 -5, 15 15, -5 15, -5 -5),(-2 2, 12 2, 12 3, -2 3, -2 2),"
         "(-2 5, 12 5, 12 6, -2 6, -2 5))", MUST_GPU},
        {"POLYGON((-5 -2, 15 -2, 15 8, -5 8, -5 -2),(3 -1, 7 -1, 7 5, 3 5, 3 -1))", MUST_GPU},
        {"POLYGON((1 1, 9 1, 9 12, 1 12, 1 1),(3 3, 7 3, 7 5, 3 5, 3 3),"
         "(3 7, 7 7, 7 11, 3 11, 3 7))", MUST_GPU},
        /* a hole touching the side from inside, a hole along a side */
        {"POLYGON((-5 -5, 15 -5, 15 15, -5 15, -5 -5),(5 0, 7 3, 3 3, 5 0))", MAY_CPU},
        {"POLYGON((-5 -5, 15 -5, 15 15, -5 15, -5 -5),(2 0, 4 0, 4 3, 2 3, 2 0))", MAY_CPU},
        {"POLYGON((-5 -5, 15 -5, 15 15, -5 15, -5 -5),(2 -3, 4 -3, 4 0, 2 0, 2 -3))", MUST_GPU},
        /* a hole and the shell meeting inside the rectangle: one output ring
         * would touch itself (GEOSClipByRect returns that ring): deferred */
        {"POLYGON((-5 -5, 15 -5, 15 8, 5 8, -5 8, -5 -5),(4 -1, 5 8, 6 -1, 4 -1))", MUST_CPU},
        {"POLYGON((-5 -5, 15 -5, 15 8, -5 8, -5 -5),(4 -1, 5 8, 6 -1, 4 -1))", MUST_CPU},
        /* two holes meeting at a point, each one chain: both sides of the
         * meeting point in one walk, which would touch itself: deferred */
        {"POLYGON((-5 -5, 15 -5, 15 15, -5 15, -5 -5),(4 -1, 5 5, 6 -1, 4 -1),"
         "(5 5, 7 12, 3 12, 5 5))", MUST_CPU},
        /* multipolygons */
        {"MULTIPOLYGON(((-1 -1, 4 -1, 4 4, -1 4, -1 -1)),((6 6, 11 6, 11 11, 6 11, 6 6)))",
         MUST_GPU},
        {"MULTIPOLYGON(((-1 -1, 4 -1, 4 4, -1 4, -1 -1)),((20 20, 21 20, 21 21, 20 20)))",
         MUST_GPU},
        {"MULTIPOLYGON(((-3 -3, 5 -3, 5 5, -3 5, -3 -3),(-1 -1, 3 -1, 3 3, -1 3, -1 -1)),"
         "((1 1, 2 1, 2 2, 1 2, 1 1)))", MUST_GPU},
        {"MULTIPOLYGON(((0 0, 5 0, 5 5, 0 5, 0 0)),((5 5, 10 5, 10 10, 5 10, 5 5)))", MUST_GPU},
        /* inside, outside, box touching */
        {"POLYGON((2 2, 4 2, 4 4, 2 2))", MUST_GPU},
        {"POLYGON((20 20, 24 20, 24 24, 20 20))", MUST_GPU},
        {"POLYGON((2 2, 12 5, 2 8, 2 2))", MUST_GPU},
        {"POLYGON((2 2, 10 5, 2 8, 2 2))", MUST_GPU},
        /* empty, null, Z */
        {"POLYGON EMPTY", MUST_GPU},
        {"MULTIPOLYGON EMPTY", MUST_GPU},
        {NULL, MUST_GPU},
        {"POLYGON Z ((-1 -1 1, 5 -1 2, 5 5 3, -1 5 4, -1 -1 1))", MUST_CPU},
    };
    run_cases(cs, sizeof cs / sizeof cs[0], r, "polygons");
}

static void test_u_shapes(void)
{
    /* a comb whose teeth leave and re-enter through the top many times,
     * and a spiral-free zigzag through the sides */
    static const double r[4] = {0, 0, 100, 10};
    char buf[8192];
    size_t len = 0;
    len += (size_t)snprintf(buf + len, sizeof buf - len, "POLYGON((-5 -5, 105 -5");
    for (int k = 49; k >= 0; k--)
        len += (size_t)snprintf(buf + len, sizeof buf - len, ", %g 15, %g 15, %g 5, %g 5",
                                2.0 * k + 1.5, 2.0 * k + 1.0, 2.0 * k + 1.0, 2.0 * k + 0.5);
    len += (size_t)snprintf(buf + len, sizeof buf - len, ", -5 5, -5 -5))");
    char buf2[8192];
    len = 0;
    len += (size_t)snprintf(buf2 + len, sizeof buf2 - len, "POLYGON((-5 -5, 105 -5, 105 15");
    for (int k = 49; k >= 0; k--)
        len += (size_t)snprintf(buf2 + len, sizeof buf2 - len, ", %g 15, %g 10, %g 15",
                                2.0 * k + 1.5, 2.0 * k + 1.0, 2.0 * k + 0.5);
    len += (size_t)snprintf(buf2 + len, sizeof buf2 - len, ", -5 15, -5 -5))");
    const rc_case cs[] = {{buf, MUST_GPU}, {buf2, MUST_GPU}};
    run_cases(cs, 2, r, "U-shapes");
}

static void test_lines_points(void)
{
    static const double r[4] = {0, 0, 10, 10};
    static const rc_case cs[] = {
        {"LINESTRING(-1 -1, 11 11)", MUST_GPU},
        {"LINESTRING(0 0, 0 10)", MUST_GPU},            /* covered: kept whole */
        {"LINESTRING(0 -1, 0 11)", MUST_GPU},           /* along a side: dropped */
        {"LINESTRING(-5 5, 0 5, 0 8, -5 8)", MUST_GPU},
        {"LINESTRING(-5 5, 5 5, -5 6)", MUST_GPU},
        {"LINESTRING(5 5, 0 5, 0 8, 5 8, 5 20)", MUST_GPU},
        {"LINESTRING(5 5, 10 5, 10 8, 5 8, 5 -8)", MUST_GPU},
        {"LINESTRING(-1 11, 1 9, 1 11, 2 9, 2 11)", MUST_GPU},
        {"LINESTRING(-1 5, 5 5, 10 5, 5 6, 12 6)", MUST_GPU},
        {"LINESTRING(-1 -1, 0 0, 5 5, 10 10, 11 11)", MUST_GPU},
        {"LINESTRING(-1 1, 1 -1)", MUST_GPU},           /* through a corner */
        {"LINESTRING(-1 0, 11 0)", MUST_GPU},
        {"LINESTRING(20 20, 30 30)", MUST_GPU},
        {"MULTILINESTRING((-1 5, 11 5),(5 -1, 5 11),(20 20, 21 21))", MUST_GPU},
        {"MULTILINESTRING((-1 5, 11 5),(0 0, 0 10))", MUST_GPU},
        {"LINESTRING EMPTY", MUST_GPU},
        {"POINT(5 5)", MUST_GPU},
        {"POINT(0 5)", MUST_GPU},                       /* covered box: kept */
        {"POINT(20 5)", MUST_GPU},
        {"MULTIPOINT(0 5, 5 5, 11 5, 10 0)", MUST_GPU}, /* boundary points dropped */
        {"MULTIPOINT(1 1, 2 2, 3 3, 12 12)", MUST_GPU},
        {"MULTIPOINT(1 1, 1 1, 20 20)", MUST_GPU},
        {"POINT EMPTY", MUST_GPU},
        {"LINESTRING Z (-1 -1 0, 11 11 1)", MUST_CPU},
        {"POINT Z (1 1 1)", MUST_CPU},
        {"GEOMETRYCOLLECTION(POINT(1 1))", MUST_CPU},
    };
    run_cases(cs, sizeof cs / sizeof cs[0], r, "lines and points");
}

/* A rectangle with no area: GEOSClipByRect refuses it, so rows it would
 * have to clip go to the CPU engine; the box shortcuts still apply. */
static void test_degenerate_rectangle(void)
{
    static const double r[4] = {5, 0, 5, 10};
    static const rc_case cs[] = {
        {"POINT(5 5)", MUST_GPU},
        {"LINESTRING(5 1, 5 2)", MUST_GPU},
        {"POLYGON((20 20, 24 20, 24 24, 20 20))", MUST_GPU},
        {NULL, MUST_GPU},
    };
    run_cases(cs, sizeof cs / sizeof cs[0], r, "zero-width rectangle");

    fx_array in;
    memset(&in, 0, sizeof in);
    fx_push(&in, "POLYGON((0 0, 10 0, 10 10, 0 0))");
    fx_push(&in, "LINESTRING(0 5, 10 5)");
    vsg_columnar col;
    REQUIRE(vsg_columnar_from_wkb(fx_view(&in), &col, NULL) == VSG_OK);
    vsg_col_view v = vsg_columnar_view(&col);
    vsg_exec *x = NULL;
    REQUIRE(vsg_exec_create_host(&x) == VSG_OK);
    double *boxes = NULL;
    uint8_t *row_cpu = NULL;
    REQUIRE(vsg_exec_alloc(x, 8 * sizeof(double), (void **)&boxes) == VSG_OK);
    REQUIRE(vsg_exec_alloc(x, 2, (void **)&row_cpu) == VSG_OK);
    REQUIRE(vsg_stage_bounds(x, &v, boxes) == VSG_OK);
    vsg_columnar out;
    CHECK(vsg_stage_rect_clip(x, &v, boxes, r, &out, row_cpu) == VSG_OK);
    CHECK(row_cpu[0] == 1 && row_cpu[1] == 1);
    vsg_columnar_free(&out);
    static const double bad[4] = {1, 0, 0, 1};
    CHECK(vsg_stage_rect_clip(x, &v, boxes, bad, &out, row_cpu) == VSG_ERR_INVALID_ARG);
    static const double nan_rect[4] = {0, 0, NAN, 1};
    CHECK(vsg_stage_rect_clip(x, &v, boxes, nan_rect, &out, row_cpu) == VSG_ERR_INVALID_ARG);
    vsg_columnar_free(&out);
    vsg_exec_free(x, boxes);
    vsg_exec_free(x, row_cpu);
    vsg_exec_destroy(x);
    vsg_columnar_free(&col);
    fx_array_free(&in);
}

/* ---- random ---------------------------------------------------------------- */
/* A star-shaped ring about (cx, cy): n vertices at increasing angles,
 * radii in [rmin, rmax]; ccw or clockwise. */
static void star_ring(GEOSCoordSequence *s, double cx, double cy, int n, double rmin,
                      double rmax, int ccw)
{
    double a0 = urand() * 6.283185307179586;
    for (int i = 0; i < n; i++) {
        int k = ccw ? i : n - 1 - i;
        double a = a0 + 6.283185307179586 * (k + 0.8 * urand()) / n;
        double rr = rmin + (rmax - rmin) * urand();
        GEOSCoordSeq_setXY_r(fx_ctx, s, (unsigned)i, cx + rr * cos(a), cy + rr * sin(a));
    }
    double x0, y0;
    GEOSCoordSeq_getXY_r(fx_ctx, s, 0, &x0, &y0);
    GEOSCoordSeq_setXY_r(fx_ctx, s, (unsigned)n, x0, y0);
}

static GEOSGeometry *random_star(void)
{
    double cx = 100 * urand(), cy = 100 * urand();
    double rmax = 5 + 40 * urand(), rmin = rmax * (0.2 + 0.6 * urand());
    int n = 3 + (int)(urand() * 60);
    GEOSCoordSequence *s = GEOSCoordSeq_create_r(fx_ctx, (unsigned)n + 1, 2);
    star_ring(s, cx, cy, n, rmin, rmax, urand() < 0.5);
    GEOSGeometry *shell = GEOSGeom_createLinearRing_r(fx_ctx, s);
    int nh = urand() < 0.5 ? 0 : 1 + (int)(urand() * 3);
    GEOSGeometry *holes[4];
    /* holes: small stars about points well inside the shell's inner disk */
    double inner = rmin * cos(6.283185307179586 / n * 0.9);
    int made = 0;
    for (int h = 0; h < nh; h++) {
        double hr = inner * 0.25;
        double hx = cx + (h == 0 ? 0 : (h == 1 ? 0.5 : -0.5) * inner);
        double hy = cy + (h == 2 ? 0.4 * inner : 0);
        if (inner <= 0)
            break;
        int hn = 3 + (int)(urand() * 12);
        GEOSCoordSequence *hs = GEOSCoordSeq_create_r(fx_ctx, (unsigned)hn + 1, 2);
        star_ring(hs, hx, hy, hn, hr * 0.3, hr, urand() < 0.5);
        holes[made++] = GEOSGeom_createLinearRing_r(fx_ctx, hs);
    }
    return GEOSGeom_createPolygon_r(fx_ctx, shell, made ? holes : NULL, (unsigned)made);
}

/* A union of random cells of an integer grid: vertices and edges on the
 * (integer) rectangle's sides, holes, several parts, touching corners. */
static GEOSGeometry *random_cells(void)
{
    int n = 3 + (int)(urand() * 25);
    GEOSGeometry *cells[32];
    int ox = (int)(urand() * 20), oy = (int)(urand() * 20);
    for (int i = 0; i < n; i++) {
        double x = ox + (int)(urand() * 8), y = oy + (int)(urand() * 8);
        cells[i] = GEOSGeom_createRectangle_r(fx_ctx, x, y, x + 1, y + 1);
    }
    GEOSGeometry *c = GEOSGeom_createCollection_r(fx_ctx, GEOS_GEOMETRYCOLLECTION, cells,
                                                  (unsigned)n);
    GEOSGeometry *u = GEOSUnaryUnion_r(fx_ctx, c);
    GEOSGeom_destroy_r(fx_ctx, c);
    return u;
}

static GEOSGeometry *random_line(void)
{
    int n = 2 + (int)(urand() * 30);
    GEOSCoordSequence *s = GEOSCoordSeq_create_r(fx_ctx, (unsigned)n, 2);
    double x = 100 * urand(), y = 100 * urand();
    int grid = urand() < 0.3;
    for (int i = 0; i < n; i++) {
        if (grid) {
            x = (int)(x + (int)(urand() * 11) - 5);
            y = (int)(y + (int)(urand() * 11) - 5);
        } else {
            x += 20 * (urand() - 0.5);
            y += 20 * (urand() - 0.5);
        }
        GEOSCoordSeq_setXY_r(fx_ctx, s, (unsigned)i, x, y);
    }
    return GEOSGeom_createLineString_r(fx_ctx, s);
}

static void random_rect(double r[4], int integer)
{
    if (integer) {
        r[0] = (int)(urand() * 24);
        r[1] = (int)(urand() * 24);
        r[2] = r[0] + 1 + (int)(urand() * 8);
        r[3] = r[1] + 1 + (int)(urand() * 8);
    } else {
        r[0] = 100 * urand() - 10;
        r[1] = 100 * urand() - 10;
        r[2] = r[0] + 1 + 60 * urand();
        r[3] = r[1] + 1 + 60 * urand();
    }
}

/* rounds of `per` geometries from gen against one random rectangle each */
static void run_random(GEOSGeometry *(*gen)(void), int rounds, int per, int integer,
                       const char *what, int64_t *deferred)
{
    rc_tally t;
    memset(&t, 0, sizeof t);
    int64_t skipped_invalid = 0;
    for (int k = 0; k < rounds; k++) {
        double r[4];
        random_rect(r, integer);
        fx_array in;
        memset(&in, 0, sizeof in);
        for (int i = 0; i < per; i++) {
            GEOSGeometry *g = gen();
            if (GEOSisValid_r(fx_ctx, g) != 1) {
                skipped_invalid++;
            } else {
                fx_push_geom(&in, g);
            }
            GEOSGeom_destroy_r(fx_ctx, g);
        }
        run_set(&in, r, NULL, &t, 0);
        fx_array_free(&in);
    }
    fprintf(stderr,
            "  %s: %lld rows (%lld invalid inputs not used), %lld on the GPU path, "
            "%lld deferred, %lld invalid outputs, worst difference %g\n",
            what, (long long)t.rows, (long long)skipped_invalid, (long long)t.gpu_rows,
            (long long)t.cpu_rows, (long long)t.invalid, t.worst);
    CHECK(t.bad == 0);
    CHECK(t.rows > 0);
    *deferred = t.cpu_rows;
}

static void test_random(void)
{
    int64_t d_star = 0, d_cells = 0, d_lines = 0;
    run_random(random_star, 40, 100, 0, "random star polygons with holes", &d_star);
    run_random(random_cells, 40, 50, 1, "random grid-cell unions", &d_cells);
    run_random(random_line, 20, 100, 0, "random lines", &d_lines);
    /* generic data never needs the CPU engine */
    CHECK(d_star == 0);
    CHECK(d_lines == 0);
}

/* ---- the GPU backend: the same rows give the same bytes -------------------- */
static int64_t arrays_differ(const vsg_columnar *a, const vsg_columnar *b)
{
    if (a->n_geoms != b->n_geoms || a->n_parts != b->n_parts || a->n_rings != b->n_rings ||
        a->n_coords != b->n_coords)
        return 1;
    size_t ng = (size_t)a->n_geoms;
    return memcmp(a->type, b->type, ng) || memcmp(a->flags, b->flags, ng) ||
           memcmp(a->geom_part, b->geom_part, (ng + 1) * 8) ||
           memcmp(a->part_ring, b->part_ring, ((size_t)a->n_parts + 1) * 8) ||
           memcmp(a->ring_coord, b->ring_coord, ((size_t)a->n_rings + 1) * 8) ||
           (a->n_coords && (memcmp(a->x, b->x, (size_t)a->n_coords * 8) ||
                            memcmp(a->y, b->y, (size_t)a->n_coords * 8)));
}

/* Runs the stage on x for a host columnar: output downloaded to *out,
 * row_cpu to rc (host, n bytes); seconds of the stage alone in *secs. */
static vsg_status clip_on(vsg_exec *x, const vsg_columnar *host, const double r[4],
                          vsg_columnar *out, uint8_t *rc, double *secs)
{
    vsg_columnar dev;
    vsg_status st = vsg_columnar_upload(x, host, &dev);
    if (st != VSG_OK)
        return st;
    vsg_col_view v = vsg_columnar_view(&dev);
    void *boxes = NULL, *row_cpu = NULL;
    vsg_columnar res;
    vsg_columnar_init(&res);
    st = vsg_exec_alloc(x, (size_t)v.n_geoms * 32, &boxes);
    if (st == VSG_OK)
        st = vsg_exec_alloc(x, (size_t)v.n_geoms, &row_cpu);
    if (st == VSG_OK)
        st = vsg_stage_bounds(x, &v, boxes);
    if (st == VSG_OK)
        st = vsg_exec_sync(x);
    double t0 = vsg_now_s();
    if (st == VSG_OK)
        st = vsg_stage_rect_clip(x, &v, boxes, r, &res, row_cpu);
    if (st == VSG_OK)
        st = vsg_exec_sync(x);
    *secs = vsg_now_s() - t0;
    if (st == VSG_OK)
        st = vsg_columnar_download(x, &res, out);
    if (st == VSG_OK)
        st = vsg_exec_download(x, rc, row_cpu, (size_t)v.n_geoms);
    if (st == VSG_OK)
        st = vsg_exec_sync(x);
    vsg_columnar_free(&res);
    vsg_exec_free(x, boxes);
    vsg_exec_free(x, row_cpu);
    vsg_columnar_free(&dev);
    return st;
}

static void test_gpu_backend(void)
{
    vsg_exec *gx = NULL;
    char why[256] = "";
    if (vsg_exec_create_gpu(NULL, &gx, why, sizeof why) != VSG_OK) {
        fprintf(stderr, "  skip: no GPU backend (%s)\n", why);
        return;
    }
    vsg_exec *hx = NULL;
    REQUIRE(vsg_exec_create_host(&hx) == VSG_OK);
    /* a layer of star polygons (some with holes), lines and grid cells
     * over a 1000 x 1000 extent; a rectangle over part of it */
    int n = 2000;
    const char *env = getenv("VSG_RECT_CLIP_BENCH_ROWS");
    if (env)
        n = atoi(env);
    fx_array in;
    memset(&in, 0, sizeof in);
    for (int i = 0; i < n; i++) {
        GEOSGeometry *g = i % 10 == 9 ? random_line() : i % 10 == 8 ? random_cells() : random_star();
        size_t sz = 0;
        unsigned char *wkb = fx_wkb_of(g, &sz, 0, 0);
        fx_push_raw(&in, wkb, sz);
        GEOSGeom_destroy_r(fx_ctx, g);
    }
    vsg_columnar col;
    REQUIRE(vsg_columnar_from_wkb(fx_view(&in), &col, NULL) == VSG_OK);
    /* spread the geometries over a 1000 x 1000 extent */
    for (int64_t g = 0; g < col.n_geoms; g++) {
        double dx = 900 * urand(), dy = 900 * urand();
        int64_t c0 = col.ring_coord[col.part_ring[col.geom_part[g]]];
        int64_t c1 = col.ring_coord[col.part_ring[col.geom_part[g + 1]]];
        for (int64_t k = c0; k < c1; k++) {
            col.x[k] += dx;
            col.y[k] += dy;
        }
    }
    static const double r[4] = {200.5, 150.25, 700.75, 800.125};
    vsg_columnar ho, go;
    uint8_t *hrc = malloc((size_t)col.n_geoms + 1), *grc = malloc((size_t)col.n_geoms + 1);
    double th = 0, tg = 0, tg2 = 0;
    REQUIRE(clip_on(hx, &col, r, &ho, hrc, &th) == VSG_OK);
    vsg_status st = clip_on(gx, &col, r, &go, grc, &tg);
    if (st != VSG_OK)
        fprintf(stderr, "GPU stage: %s\n", vsg_exec_last_error(gx));
    REQUIRE(st == VSG_OK);
    CHECK(col.n_coords > 0 && ho.n_coords > 0);
    CHECK(memcmp(hrc, grc, (size_t)col.n_geoms) == 0);
    CHECK(!arrays_differ(&ho, &go));
    vsg_columnar go2;
    REQUIRE(clip_on(gx, &col, r, &go2, grc, &tg2) == VSG_OK);   /* warm */
    fprintf(stderr,
            "  %lld rows, %lld vertices in, %lld out: host %.3f s, GPU %.4f s (warm %.4f s, "
            "%.2f G input vertices/s) on %s\n",
            (long long)col.n_geoms, (long long)col.n_coords, (long long)ho.n_coords, th, tg,
            tg2, col.n_coords / tg2 / 1e9, vsg_exec_device_label(gx));
    vsg_columnar_free(&go2);
    vsg_columnar_free(&ho);
    vsg_columnar_free(&go);
    free(hrc);
    free(grc);
    vsg_columnar_free(&col);
    fx_array_free(&in);
    vsg_exec_destroy(hx);
    vsg_exec_destroy(gx);
}

int main(void)
{
    fx_init();
    RUN(test_degenerate_polygons);
    RUN(test_u_shapes);
    RUN(test_lines_points);
    RUN(test_degenerate_rectangle);
    RUN(test_random);
    RUN(test_gpu_backend);
    fx_finish();
    return TEST_SUMMARY();
}
