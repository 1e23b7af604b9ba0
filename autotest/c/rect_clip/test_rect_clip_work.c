/*
 * test_rect_clip_work.c - the rule of docs/gpu-stages.md for the rectangle
 * clip: no launch item does work that grows with the size of one geometry.
 * Two polygons of 10^6 vertices each (a smooth one with holes strictly
 * inside the rectangle and its lowest-leftmost vertex repeated, and a
 * zigzag one whose teeth cross the rectangle's
 * sides thousands of times) plus 20,000 small stars (some with holes) are
 * clipped on the host backend; the stage must report its items to the work
 * meter and the largest must be at most 256 (segments, chain ends or
 * coordinates). The per-geometry clip reported nothing and walked each
 * large polygon in one item, so this test fails on it. The large rows must
 * be settled by the stage itself (row_cpu = 0) and every row must agree
 * with GEOSClipByRect (area of the symmetric difference, relative, <= 1e-9;
 * for the zigzag row, whose overlay takes GEOS a minute, the areas and the
 * number of parts) and be valid.
 */
#include "engine_fixtures.h"
#include "vsg_test.h"
#include "rc_fixture.h"

static uint64_t rng = 0x2545f4914f6cdd1dull;
static double urand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) * (1.0 / 9007199254740992.0);
}

/* A closed ring of n vertices about (cx, cy), counter-clockwise, radius
 * rad(k) for vertex k; with dup, its lowest-leftmost vertex repeated (the
 * vertex the stage orients the ring at). */
static GEOSGeometry *ring_of_dup(int n, double cx, double cy, double (*rad)(int, int), int cw,
                                 int dup)
{
    double *xs = malloc((size_t)n * sizeof *xs), *ys = malloc((size_t)n * sizeof *ys);
    int low = 0;
    for (int i = 0; i < n; i++) {
        int k = cw ? n - 1 - i : i;
        double a = 6.283185307179586 * k / n, rr = rad(k, n);
        xs[i] = cx + rr * cos(a);
        ys[i] = cy + rr * sin(a);
        if (xs[i] < xs[low] || (xs[i] == xs[low] && ys[i] < ys[low]))
            low = i;
    }
    int m = n + (dup != 0);
    GEOSCoordSequence *s = GEOSCoordSeq_create_r(fx_ctx, (unsigned)m + 1, 2);
    for (int i = 0, j = 0; i < n; i++) {
        GEOSCoordSeq_setXY_r(fx_ctx, s, (unsigned)j++, xs[i], ys[i]);
        if (dup && i == low)
            GEOSCoordSeq_setXY_r(fx_ctx, s, (unsigned)j++, xs[i], ys[i]);
    }
    GEOSCoordSeq_setXY_r(fx_ctx, s, (unsigned)m, xs[0], ys[0]);
    free(xs);
    free(ys);
    return GEOSGeom_createLinearRing_r(fx_ctx, s);
}

static GEOSGeometry *ring_of(int n, double cx, double cy, double (*rad)(int, int), int cw)
{
    return ring_of_dup(n, cx, cy, rad, cw, 0);
}

static double rad_smooth(int k, int n) { return 1.0 + 0.05 * sin(7.0 * 6.283185307179586 * k / n); }
static double rad_zigzag(int k, int n)
{
    return 1.0 + 0.03 * sin(50.0 * 6.283185307179586 * k / n) + ((k & 1) ? 0.004 : -0.004);
}
static double g_small_r[64];
static double rad_small(int k, int n) { (void)n; return g_small_r[k]; }
static double g_hole_r;
static double rad_hole(int k, int n) { (void)k; (void)n; return g_hole_r; }

static GEOSGeometry *square_hole(double x0, double y0, double w)
{
    GEOSCoordSequence *s = GEOSCoordSeq_create_r(fx_ctx, 5, 2);
    /* clockwise */
    GEOSCoordSeq_setXY_r(fx_ctx, s, 0, x0, y0);
    GEOSCoordSeq_setXY_r(fx_ctx, s, 1, x0, y0 + w);
    GEOSCoordSeq_setXY_r(fx_ctx, s, 2, x0 + w, y0 + w);
    GEOSCoordSeq_setXY_r(fx_ctx, s, 3, x0 + w, y0);
    GEOSCoordSeq_setXY_r(fx_ctx, s, 4, x0, y0);
    return GEOSGeom_createLinearRing_r(fx_ctx, s);
}

static void test_large_polygons_bounded_items(void)
{
    static const double rect[4] = {-0.5, -2.0, 2.0, 0.5};
    const int N = 1000000;
    fx_array in;
    memset(&in, 0, sizeof in);
    GEOSGeometry *geoms[20002];
    int ng = 0;

    GEOSGeometry *holes[3] = {square_hole(0.1, -0.3, 0.05), square_hole(0.3, 0.2, 0.1),
                              square_hole(-0.3, -0.6, 0.02)};
    geoms[ng++] =
        GEOSGeom_createPolygon_r(fx_ctx, ring_of_dup(N, 0, 0, rad_smooth, 0, 1), holes, 3);
    geoms[ng++] = GEOSGeom_createPolygon_r(fx_ctx, ring_of(N, 0, 0, rad_zigzag, 0), NULL, 0);
    while (ng < 20002) {
        int n = 3 + (int)(urand() * 40);
        double rmax = 0.01 + 0.04 * urand();
        for (int k = 0; k < n; k++)
            g_small_r[k] = rmax * (0.5 + 0.5 * urand());
        double cx = 3 * urand() - 1.5, cy = 3 * urand() - 1.5;
        GEOSGeometry *h = NULL;
        if (urand() < 0.3) {
            g_hole_r = 0.2 * rmax;
            h = ring_of(8, cx, cy, rad_hole, 1);
        }
        GEOSGeometry *g = GEOSGeom_createPolygon_r(fx_ctx, ring_of(n, cx, cy, rad_small, urand() < 0.5),
                                                   h ? &h : NULL, h ? 1 : 0);
        if (GEOSisValid_r(fx_ctx, g) == 1)
            geoms[ng++] = g;
        else
            GEOSGeom_destroy_r(fx_ctx, g);
    }
    for (int i = 0; i < ng; i++)
        fx_push_geom(&in, geoms[i]);

    rcfx_run r;
    double t0 = vsg_now_s();
    rcfx_clip(&r, &in, rect);
    fprintf(stderr, "  stage (host backend): %.2f s\n", vsg_now_s() - t0);
    REQUIRE(r.st == VSG_OK);
    int64_t most = vsg_exec_max_work(r.x, "rect_clip");
    fprintf(stderr, "  %lld coordinates in, %lld out; largest item %lld\n",
            (long long)r.col.n_coords, (long long)r.out.n_coords, (long long)most);
    CHECK(most > 0);      /* the stage reports its items */
    CHECK(most <= 256);   /* and none grows with a geometry */
    CHECK(r.row_cpu[0] == 0);
    CHECK(r.row_cpu[1] == 0);

    int64_t deferred = 0, bad = 0;
    double worst = 0;
    for (int i = 0; i < ng; i++) {
        if (r.row_cpu[i]) {
            deferred++;
            continue;
        }
        int invalid = 0;
        double t1 = vsg_now_s();
        double d = rcfx_vs_geos_light(&r, i, geoms[i], rect, &invalid, i == 1, NULL);
        if (i < 2)
            fprintf(stderr, "  row %d against GEOS: %.2f s\n", i, vsg_now_s() - t1);
        worst = fmax(worst, d);
        if (d > 1e-9 || invalid) {
            if (bad++ < 5)
                fprintf(stderr, "row %d: difference %g, valid %d\n", i, d, !invalid);
        }
    }
    fprintf(stderr, "  %d rows, %lld deferred, worst difference %g\n", ng, (long long)deferred,
            worst);
    CHECK(bad == 0);
    CHECK(deferred == 0);
    for (int i = 0; i < ng; i++)
        GEOSGeom_destroy_r(fx_ctx, geoms[i]);
    rcfx_free(&r);
    fx_array_free(&in);
}

int main(void)
{
    fx_init();
    RUN(test_large_polygons_bounded_items);
    fx_finish();
    return TEST_SUMMARY();
}
