/*
 * test_predicates.c - the predicates of the filter stages (elements/predicates.h):
 * orientation against exact integer determinants, GEOSOrientationIndex and
 * answers known by construction; segment relations against GEOS relate.
 */
#include "filter/filter_fixture.h"

/* ---- predicates -------------------------------------------------------------- */
static int sign128(__int128 v) { return v > 0 ? 1 : (v < 0 ? -1 : 0); }

static void orientation_is_exact_on_integer_grids(void)
{
    /* integer coordinates up to 2^40, scaled by 2^-20 and offset by 1e6:
     * the exact determinant is an integer one */
    int wrong = 0, uncertain = 0, collinear = 0;
    for (int t = 0; t < 200000; t++) {
        int64_t p[6];
        const int64_t R = (int64_t)1 << 40;
        for (int k = 0; k < 6; k++)
            p[k] = rng_int(R) - R / 2;
        if (t % 2 == 0) {   /* collinear or nearly: c = a + k (b - a) + tiny */
            int64_t k = rng_int(7) - 3;
            int64_t dx = (p[2] - p[0]) >> 4, dy = (p[3] - p[1]) >> 4;
            p[2] = p[0] + dx;
            p[3] = p[1] + dy;
            p[4] = p[0] + k * dx + (t % 4 == 0 ? 0 : rng_int(3) - 1);
            p[5] = p[1] + k * dy;
        }
        const double s = 1.0 / 1048576.0, off = 1e6;
        double d[6];
        for (int k = 0; k < 6; k++)
            d[k] = off + (double)p[k] * s;
        /* exact: the offset cancels in the differences; all are k * 2^-20 */
        __int128 det = (__int128)(p[0] - p[4]) * (p[3] - p[5]) - (__int128)(p[1] - p[5]) * (p[2] - p[4]);
        int o = vsg_orient2d(d[0], d[1], d[2], d[3], d[4], d[5]);
        if (o == VSG_ORIENT_UNCERTAIN)
            uncertain++;
        else if (o != sign128(det))
            wrong++;
        collinear += det == 0;
    }
    fprintf(stderr, "  orientation on grids: %d collinear cases, %d uncertain\n", collinear,
            uncertain);
    CHECK(wrong == 0);
    CHECK(collinear > 10000);     /* the degenerate case was exercised */
    CHECK(uncertain == 0);        /* differences are exact: stage B decides all */
}

static void orientation_agrees_with_geos_near_degenerate(void)
{
    int wrong = 0, uncertain = 0, decided = 0;
    for (int t = 0; t < 100000; t++) {
        /* points on y = m x + q evaluated in doubles: nearly collinear */
        double m = rng01() * 3 - 1.5, q = rng01() * 100;
        double x0 = rng01() * 1000, x1 = rng01() * 1000, x2 = rng01() * 1000;
        double ax = x0, ay = m * x0 + q, bx = x1, by = m * x1 + q, cx = x2, cy = m * x2 + q;
        int o = vsg_orient2d(ax, ay, bx, by, cx, cy);
        int g = GEOSOrientationIndex_r(ctx, ax, ay, bx, by, cx, cy);
        if (o == VSG_ORIENT_UNCERTAIN) {
            uncertain++;
            continue;
        }
        decided++;
        if (o != g)
            wrong++;
    }
    fprintf(stderr, "  orientation near-collinear: %d decided, %d uncertain\n", decided,
            uncertain);
    CHECK(wrong == 0);
    CHECK(decided > 0);
    /* simple cases */
    CHECK(vsg_orient2d(0, 0, 1, 0, 0, 1) == VSG_ORIENT_CCW);
    CHECK(vsg_orient2d(0, 0, 1, 0, 0, -1) == VSG_ORIENT_CW);
    CHECK(vsg_orient2d(0, 0, 1, 1, 2, 2) == VSG_ORIENT_COLLINEAR);
    CHECK(vsg_orient2d(0, 0, 0, 0, 5, 7) == VSG_ORIENT_COLLINEAR);
    CHECK(vsg_orient2d(0, 0, 1, 0, NAN, 1) == VSG_ORIENT_UNCERTAIN);
    CHECK(vsg_orient2d(0, 0, INFINITY, 0, 1, 1) == VSG_ORIENT_UNCERTAIN);
}

/* Points on y = x, y = 2x and y = -x (exactly representable) with wildly
 * different magnitudes, so that the coordinate differences are inexact:
 * stage B cannot decide, the expansion (stage D) must, and the answer is
 * known by construction: 0 on the line, and the side of a point moved off
 * it by one ulp. */
static void orientation_exact_when_differences_are_not(void)
{
    int wrong = 0, uncertain = 0, tested = 0;
    for (int t = 0; t < 100000; t++) {
        double v[3];
        for (int k = 0; k < 3; k++) {
            double mag = ldexp(1.0, (int)rng_int(60) - 30);
            v[k] = (rng01() - 0.5) * mag;
        }
        if (v[0] == v[1])
            continue;
        int line = (int)rng_int(3);                 /* y = x, y = 2x, y = -x */
        double m = line == 0 ? 1.0 : line == 1 ? 2.0 : -1.0;
        double ax = v[0], ay = m * v[0], bx = v[1], by = m * v[1], cx = v[2], cy = m * v[2];
        int expect = 0;
        int move = (int)rng_int(3) - 1;             /* c moved up, not, or down by one ulp */
        if (move != 0 && cy != 0) {
            cy = nextafter(cy, move > 0 ? INFINITY : -INFINITY);
            /* moving c up puts it left of a->b when a->b points to +x */
            expect = (move > 0) == (bx > ax) ? VSG_ORIENT_CCW : VSG_ORIENT_CW;
        }
        int o = vsg_orient2d(ax, ay, bx, by, cx, cy);
        tested++;
        if (o == VSG_ORIENT_UNCERTAIN)
            uncertain++;
        else if (o != expect)
            wrong++;
    }
    fprintf(stderr, "  orientation with inexact differences: %d tested, %d uncertain, %d wrong\n",
            tested, uncertain, wrong);
    CHECK(wrong == 0);
    CHECK(uncertain == 0);
}

static GEOSGeometry *seg_geom(double x0, double y0, double x1, double y1)
{
    GEOSCoordSequence *cs = GEOSCoordSeq_create_r(ctx, 2, 2);
    GEOSCoordSeq_setXY_r(ctx, cs, 0, x0, y0);
    GEOSCoordSeq_setXY_r(ctx, cs, 1, x1, y1);
    return GEOSGeom_createLineString_r(ctx, cs);
}

static void segment_relation_agrees_with_geos(void)
{
    /* small integer grid: shared endpoints, T-contacts, collinear overlaps */
    int wrong = 0, counts[4] = {0};
    for (int t = 0; t < 40000; t++) {
        double c[8];
        for (int k = 0; k < 8; k++)
            c[k] = (double)rng_int(5);
        if ((c[0] == c[2] && c[1] == c[3]) || (c[4] == c[6] && c[5] == c[7]))
            continue;   /* zero-length: below */
        int r = vsg_segment_relation(c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]);
        counts[r]++;
        GEOSGeometry *s1 = seg_geom(c[0], c[1], c[2], c[3]), *s2 = seg_geom(c[4], c[5], c[6], c[7]);
        int expect;
        if (!GEOSIntersects_r(ctx, s1, s2))
            expect = VSG_SEG_DISJOINT;
        else if (GEOSRelatePattern_r(ctx, s1, s2, "0F*FF****") == 1)
            expect = VSG_SEG_CROSS;
        else
            expect = VSG_SEG_TOUCH;
        wrong += r != expect;
        GEOSGeom_destroy_r(ctx, s1);
        GEOSGeom_destroy_r(ctx, s2);
    }
    fprintf(stderr, "  segments: %d disjoint, %d cross, %d touch, %d uncertain\n", counts[0],
            counts[1], counts[2], counts[3]);
    CHECK(wrong == 0);
    CHECK(counts[1] > 100 && counts[2] > 100 && counts[3] == 0);
    /* zero-length segments act as points */
    CHECK(vsg_segment_relation(1, 1, 1, 1, 0, 0, 2, 2) == VSG_SEG_TOUCH);
    CHECK(vsg_segment_relation(1, 1, 1, 1, 0, 0, 2, 0) == VSG_SEG_DISJOINT);
    CHECK(vsg_segment_relation(1, 1, 1, 1, 1, 1, 1, 1) == VSG_SEG_TOUCH);
    CHECK(vsg_segment_relation(0, 0, 2, 2, 0, 2, 2, 0) == VSG_SEG_CROSS);
    CHECK(vsg_segment_relation(0, 0, 2, 0, 3, 0, 4, 0) == VSG_SEG_DISJOINT);
}


int main(void)
{
    ctx = GEOS_init_r();
    RUN(orientation_is_exact_on_integer_grids);
    RUN(orientation_agrees_with_geos_near_degenerate);
    RUN(orientation_exact_when_differences_are_not);
    RUN(segment_relation_agrees_with_geos);
    GEOS_finish_r(ctx);
    return TEST_SUMMARY();
}
