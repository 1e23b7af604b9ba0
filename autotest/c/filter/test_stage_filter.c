/*
 * test_stage_filter.c - the filter stages (bounds, candidates, classify)
 * and their predicates, on the host backend, against GEOS and brute force:
 *
 *   predicates   orientation against GEOSOrientationIndex and exact integer
 *                determinants; segment relations against GEOS relate
 *   bounds       equal to GEOS envelopes; inverted for rows without coords
 *   candidates   equal to a brute-force box test and to the engine's STR
 *                tree; sorted, unique; touching boxes, points, huge boxes
 *   classify     every class other than REFINE agrees with GEOS
 *                (ContainsProperly / Disjoint), zero disagreements; the
 *                share of truly contained / disjoint pairs it decides is
 *                printed and must stay above a floor
 *
 * When a GPU backend can be opened (a GPU host), the same stages run on it
 * and must give the host's results bit for bit; otherwise that part prints
 * "skip".
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <geos_c.h>

#include "vsg_test.h"
#include "columnar/columnar.h"
#include "elements/filter/classify.h"
#include "elements/filter/grid.h"
#include "elements/filter/pip.h"
#include "elements/predicates.h"
#include "exec/exec.h"
#include "index/strtree.h"
#include "stages/stages.h"

static GEOSContextHandle_t ctx;

/* ---- seeded random numbers ------------------------------------------------ */
static uint64_t rng_state = 88172645463325252ull;
static uint64_t rng_u64(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}
static double rng01(void) { return (double)(rng_u64() >> 11) / 9007199254740992.0; }
static int64_t rng_int(int64_t n) { return (int64_t)(rng_u64() % (uint64_t)n); }

/* ---- a layer: the same geometries as columnar and as GEOS ----------------- */
#define MAXV 4096
typedef struct {
    /* growing columnar arrays */
    int64_t ng, np, nr, nc;
    uint8_t *type, *flags;
    int64_t *gp, *pr, *rc;
    double *x, *y;
    GEOSGeometry **geos;   /* per geometry, NULL for null rows */
    /* the geometry being built */
    GEOSGeometry *parts[64];
    int nparts;
    GEOSGeometry *rings[64];
    int nrings;
    vsg_columnar col;
} layer;

static void *grow(void *p, int64_t n, size_t elem)
{
    return realloc(p, (size_t)(n + 1) * elem);
}

static void layer_init(layer *l)
{
    memset(l, 0, sizeof *l);
    l->gp = calloc(1, sizeof *l->gp);
    l->pr = calloc(1, sizeof *l->pr);
    l->rc = calloc(1, sizeof *l->rc);
    vsg_columnar_init(&l->col);
}

static void layer_free(layer *l)
{
    for (int64_t g = 0; g < l->ng; g++)
        if (l->geos[g])
            GEOSGeom_destroy_r(ctx, l->geos[g]);
    free(l->type);
    free(l->flags);
    free(l->gp);
    free(l->pr);
    free(l->rc);
    free(l->x);
    free(l->y);
    free(l->geos);
    vsg_columnar_free(&l->col);
}

/* adds a ring (closed here if the points are not) to the current part */
static void ring(layer *l, const double *xy, int n)
{
    int closed = n > 0 && xy[0] == xy[2 * (n - 1)] && xy[1] == xy[2 * (n - 1) + 1];
    int m = closed ? n : n + 1;
    l->x = grow(l->x, l->nc + m, sizeof *l->x);
    l->y = grow(l->y, l->nc + m, sizeof *l->y);
    GEOSCoordSequence *cs = GEOSCoordSeq_create_r(ctx, (unsigned)m, 2);
    for (int k = 0; k < m; k++) {
        int s = k < n ? k : 0;
        l->x[l->nc + k] = xy[2 * s];
        l->y[l->nc + k] = xy[2 * s + 1];
        GEOSCoordSeq_setXY_r(ctx, cs, (unsigned)k, xy[2 * s], xy[2 * s + 1]);
    }
    l->nc += m;
    l->rc = grow(l->rc, l->nr + 1, sizeof *l->rc);
    l->rc[++l->nr] = l->nc;
    l->rings[l->nrings++] = GEOSGeom_createLinearRing_r(ctx, cs);
}

static void part_end(layer *l)
{
    l->pr = grow(l->pr, l->np + 1, sizeof *l->pr);
    l->pr[++l->np] = l->nr;
    l->parts[l->nparts++] =
        GEOSGeom_createPolygon_r(ctx, l->rings[0], l->rings + 1, (unsigned)(l->nrings - 1));
    l->nrings = 0;
}

/* ends a geometry: multi != 0 makes a MultiPolygon of the parts */
static void geom_end(layer *l, int multi)
{
    l->type = grow(l->type, l->ng, 1);
    l->flags = grow(l->flags, l->ng, 1);
    l->geos = grow(l->geos, l->ng, sizeof *l->geos);
    l->gp = grow(l->gp, l->ng + 1, sizeof *l->gp);
    l->type[l->ng] = multi ? VSG_GT_MULTIPOLYGON : VSG_GT_POLYGON;
    l->flags[l->ng] = 0;
    l->geos[l->ng] = multi ? GEOSGeom_createCollection_r(ctx, GEOS_MULTIPOLYGON, l->parts,
                                                         (unsigned)l->nparts)
                           : l->parts[0];
    l->gp[++l->ng] = l->np;
    l->nparts = 0;
}

static void polygon(layer *l, const double *xy, int n)
{
    ring(l, xy, n);
    part_end(l);
    geom_end(l, 0);
}

/* a row without coordinates: null or empty */
static void geom_none(layer *l, int flag)
{
    l->type = grow(l->type, l->ng, 1);
    l->flags = grow(l->flags, l->ng, 1);
    l->geos = grow(l->geos, l->ng, sizeof *l->geos);
    l->gp = grow(l->gp, l->ng + 1, sizeof *l->gp);
    l->type[l->ng] = VSG_GT_POLYGON;
    l->flags[l->ng] = (uint8_t)flag;
    l->geos[l->ng] = flag == VSG_GF_EMPTY ? GEOSGeom_createEmptyPolygon_r(ctx) : NULL;
    l->gp[++l->ng] = l->np;
}

/* builds the columnar copy; returns its view */
static vsg_col_view layer_view(layer *l)
{
    vsg_columnar_free(&l->col);
    if (vsg_columnar_alloc_host(&l->col, l->ng, l->np, l->nr, l->nc, 0) != VSG_OK)
        abort();
    if (l->ng) {
        memcpy(l->col.type, l->type, (size_t)l->ng);
        memcpy(l->col.flags, l->flags, (size_t)l->ng);
    }
    memcpy(l->col.geom_part, l->gp, (size_t)(l->ng + 1) * sizeof *l->gp);
    memcpy(l->col.part_ring, l->pr, (size_t)(l->np + 1) * sizeof *l->pr);
    memcpy(l->col.ring_coord, l->rc, (size_t)(l->nr + 1) * sizeof *l->rc);
    if (l->nc) {
        memcpy(l->col.x, l->x, (size_t)l->nc * sizeof *l->x);
        memcpy(l->col.y, l->y, (size_t)l->nc * sizeof *l->y);
    }
    return vsg_columnar_view(&l->col);
}

/* ---- shape generators ------------------------------------------------------ */
/* star-shaped polygon around (cx, cy), radii in [rmin, rmax]; when dup,
 * some vertices repeated (valid in OGC, a degenerate case for edges) */
static int star(double *xy, double cx, double cy, double rmin, double rmax, int n, int dup)
{
    int m = 0;
    double a0 = rng01() * 6.283185307179586;
    for (int k = 0; k < n; k++) {
        double a = a0 + 6.283185307179586 * k / n;
        double r = rmin + (rmax - rmin) * rng01();
        xy[2 * m] = cx + r * cos(a);
        xy[2 * m + 1] = cy + r * sin(a);
        m++;
        if (dup && k % 5 == 2) {
            xy[2 * m] = xy[2 * m - 2];
            xy[2 * m + 1] = xy[2 * m - 1];
            m++;
        }
    }
    return m;
}

static void rect_xy(double *xy, double x0, double y0, double x1, double y1)
{
    double r[8] = {x0, y0, x1, y0, x1, y1, x0, y1};
    memcpy(xy, r, sizeof r);
}

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

/* ---- random layers ------------------------------------------------------------ */
/* kinds: 0 stars (some with repeated points), 1 integer rectangles (exact
 * touches), 2 stars with a hole, 3 multipolygons of two stars */
static void random_layer(layer *l, int n, double extent, double size, int kinds)
{
    static double xy[2 * MAXV], hole[2 * MAXV];
    for (int i = 0; i < n; i++) {
        int kind = (int)rng_int(kinds);
        double cx = rng01() * extent, cy = rng01() * extent;
        double r = size * (0.2 + rng01());
        if (kind == 0) {
            int m = star(xy, cx, cy, 0.3 * r, r, 3 + (int)rng_int(40), i % 3 == 0);
            polygon(l, xy, m);
        } else if (kind == 1) {
            double x0 = floor(cx), y0 = floor(cy);
            rect_xy(xy, x0, y0, x0 + 1 + (double)rng_int((int64_t)size + 1),
                    y0 + 1 + (double)rng_int((int64_t)size + 1));
            polygon(l, xy, 4);
        } else if (kind == 2) {
            int m = star(xy, cx, cy, 0.6 * r, r, 5 + (int)rng_int(30), 0);
            ring(l, xy, m);
            int h = star(hole, cx, cy, 0.1 * r, 0.5 * r, 3 + (int)rng_int(12), 0);
            ring(l, hole, h);
            part_end(l);
            geom_end(l, 0);
        } else {
            int m = star(xy, cx, cy, 0.2 * r, 0.45 * r, 3 + (int)rng_int(20), 0);
            ring(l, xy, m);
            part_end(l);
            m = star(xy, cx + r, cy, 0.2 * r, 0.45 * r, 3 + (int)rng_int(20), 0);
            ring(l, xy, m);
            part_end(l);
            geom_end(l, 1);
        }
    }
}

/* ---- bounds -------------------------------------------------------------------- */
static void bounds_equal_geos_envelopes(void)
{
    layer l;
    layer_init(&l);
    random_layer(&l, 400, 1000, 30, 4);
    geom_none(&l, VSG_GF_NULL);
    geom_none(&l, VSG_GF_EMPTY);
    vsg_col_view v = layer_view(&l);
    l.col.flags[5] |= VSG_GF_NONFINITE;       /* must be inverted like no coords */
    vsg_exec *x = NULL;
    REQUIRE(vsg_exec_create_host(&x) == VSG_OK);
    double *boxes = malloc((size_t)v.n_geoms * 4 * sizeof *boxes);
    REQUIRE(vsg_stage_bounds(x, &v, boxes) == VSG_OK);
    int bad = 0;
    for (int64_t g = 0; g < v.n_geoms; g++) {
        const double *b = boxes + 4 * g;
        if (!l.geos[g] || GEOSisEmpty_r(ctx, l.geos[g]) || g == 5) {
            bad += !(b[0] == INFINITY && b[1] == INFINITY && b[2] == -INFINITY &&
                     b[3] == -INFINITY);
            continue;
        }
        double e[4];
        GEOSGeom_getXMin_r(ctx, l.geos[g], &e[0]);
        GEOSGeom_getYMin_r(ctx, l.geos[g], &e[1]);
        GEOSGeom_getXMax_r(ctx, l.geos[g], &e[2]);
        GEOSGeom_getYMax_r(ctx, l.geos[g], &e[3]);
        bad += memcmp(e, b, sizeof e) != 0;
    }
    CHECK(bad == 0);
    free(boxes);
    vsg_exec_destroy(x);
    layer_free(&l);
}

/* ---- candidates ----------------------------------------------------------------- */
static int boxes_meet(const double *a, const double *b)
{
    return a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];
}

/* run the stage on the host and compare with brute force; returns pairs */
static int64_t check_candidates(const double *ba, int64_t na, const double *bb, int64_t nb)
{
    vsg_exec *x = NULL;
    vsg_pairs p;
    if (vsg_exec_create_host(&x) != VSG_OK)
        return -1;
    vsg_status st = vsg_stage_candidates(x, ba, na, bb, nb, &p);
    CHECK(st == VSG_OK);
    int64_t k = 0;
    int ok = st == VSG_OK;
    for (int64_t i = 0; i < na && ok; i++)
        for (int64_t j = 0; j < nb && ok; j++) {
            if (!boxes_meet(ba + 4 * i, bb + 4 * j))
                continue;
            if (k >= p.n || p.a[k] != i || p.b[k] != j)
                ok = 0;
            k++;
        }
    CHECK(ok && k == p.n);   /* same set, sorted by (a, b), each once */
    vsg_exec_free(x, p.a);
    vsg_exec_free(x, p.b);
    vsg_exec_destroy(x);
    return k;
}

static void random_box(double *b, double extent, double size)
{
    double x = rng01() * extent, y = rng01() * extent;
    b[0] = x;
    b[1] = y;
    b[2] = x + rng01() * size;
    b[3] = y + rng01() * size;
}

static void candidates_equal_brute_force(void)
{
    const int64_t sizes[][2] = {{0, 5}, {5, 0}, {1, 1}, {7, 300}, {300, 7}, {1000, 1500}};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        int64_t na = sizes[s][0], nb = sizes[s][1];
        double *ba = malloc((size_t)(na + 1) * 32), *bb = malloc((size_t)(nb + 1) * 32);
        for (int64_t i = 0; i < na; i++)
            random_box(ba + 4 * i, 1000, i % 9 == 0 ? 0 : 40);       /* some points */
        for (int64_t j = 0; j < nb; j++)
            random_box(bb + 4 * j, 1000, j % 13 == 0 ? 600 : 30);    /* some huge */
        if (nb > 3) {   /* inverted and NaN boxes meet nothing; infinite ones do */
            vsg_box_set_inverted(bb + 4);
            bb[8] = NAN;
            bb[12] = -INFINITY;
        }
        if (na > 3) {
            vsg_box_set_inverted(ba + 4);
            ba[10] = INFINITY;
        }
        int64_t n = check_candidates(ba, na, bb, nb);
        CHECK(n >= 0);
        free(ba);
        free(bb);
    }
}

/* a tessellation of unit squares against itself and against a shifted
 * copy: every edge and corner is shared exactly */
static void candidates_touching_boxes(void)
{
    const int G = 30;
    double *ba = malloc((size_t)G * G * 32), *bb = malloc((size_t)G * G * 32);
    for (int i = 0; i < G * G; i++) {
        double x = i % G, y = i / G;
        double a[4] = {x, y, x + 1, y + 1}, b[4] = {x + 0.5, y, x + 1.5, y + 2};
        memcpy(ba + 4 * i, a, sizeof a);
        memcpy(bb + 4 * i, b, sizeof b);
    }
    int64_t n = check_candidates(ba, G * G, ba, G * G);
    /* each square meets its 3x3 neighbourhood (itself, edges, corners) */
    int64_t expect = 0;
    for (int i = 0; i < G; i++)
        for (int j = 0; j < G; j++)
            expect += (int64_t)((i > 0) + 1 + (i < G - 1)) * ((j > 0) + 1 + (j < G - 1));
    CHECK(n == expect);
    CHECK(check_candidates(ba, G * G, bb, G * G) > 0);
    /* all boxes equal, and all boxes points at one place */
    for (int i = 0; i < 100; i++) {
        double b[4] = {3, 3, 3, 3};
        memcpy(bb + 4 * i, b, sizeof b);
    }
    CHECK(check_candidates(bb, 100, bb, 100) == 100 * 100);
    free(ba);
    free(bb);
}

static void candidates_equal_strtree(void)
{
    const int64_t na = 3000, nb = 2000;
    double *ba = malloc((size_t)na * 32), *bb = malloc((size_t)nb * 32);
    for (int64_t i = 0; i < na; i++)
        random_box(ba + 4 * i, 5000, 60);
    for (int64_t j = 0; j < nb; j++)
        random_box(bb + 4 * j, 5000, j % 50 == 0 ? 2000 : 80);
    vsg_exec *x = NULL;
    REQUIRE(vsg_exec_create_host(&x) == VSG_OK);
    vsg_pairs p;
    REQUIRE(vsg_stage_candidates(x, ba, na, bb, nb, &p) == VSG_OK);
    vsg_strtree *t = NULL;
    REQUIRE(vsg_strtree_build(bb, NULL, (size_t)nb, &t) == VSG_OK);
    vsg_id_list ids = {0};
    int64_t k = 0;
    int ok = 1;
    for (int64_t i = 0; i < na && ok; i++) {
        ok = vsg_strtree_query(t, ba + 4 * i, &ids) == VSG_OK;
        for (size_t m = 0; m < ids.n && ok; m++, k++)
            ok = k < p.n && p.a[k] == i && p.b[k] == ids.ids[m];
    }
    CHECK(ok && k == p.n);
    fprintf(stderr, "  %lld pairs, equal to the STR tree's\n", (long long)p.n);
    vsg_id_list_free(&ids);
    vsg_strtree_destroy(t);
    vsg_exec_free(x, p.a);
    vsg_exec_free(x, p.b);
    vsg_exec_destroy(x);
    free(ba);
    free(bb);
}

/* ---- classify -------------------------------------------------------------------- */
typedef struct {
    int64_t pairs, refine, wrong;
    int64_t true_in, true_disjoint, got_in, got_disjoint;
} cls_tally;

/* Runs bounds, candidates and classify on the host; checks every class
 * other than REFINE against GEOS. */
static void classify_layers(layer *la, layer *lb, cls_tally *t)
{
    vsg_col_view va = layer_view(la), vb = layer_view(lb);
    vsg_exec *x = NULL;
    if (vsg_exec_create_host(&x) != VSG_OK)
        return;
    double *ba = malloc((size_t)(va.n_geoms + 1) * 32), *bb = malloc((size_t)(vb.n_geoms + 1) * 32);
    vsg_pairs p = {0};
    CHECK(vsg_stage_bounds(x, &va, ba) == VSG_OK);
    CHECK(vsg_stage_bounds(x, &vb, bb) == VSG_OK);
    CHECK(vsg_stage_candidates(x, ba, va.n_geoms, bb, vb.n_geoms, &p) == VSG_OK);
    uint8_t *cls = malloc((size_t)p.n + 1);
    CHECK(vsg_stage_classify(x, &va, ba, &vb, bb, &p, cls) == VSG_OK);
    /* the chunked stage gives the per-pair reference's class, pair for pair */
    int64_t differ = 0;
    for (int64_t k = 0; k < p.n; k++)
        differ += cls[k] != (uint8_t)vsg_classify_pair(&va, p.a[k], &vb, p.b[k]);
    CHECK(differ == 0);
    int64_t printed = t->wrong;
    for (int64_t k = 0; k < p.n; k++) {
        GEOSGeometry *ga = la->geos[p.a[k]], *gb = lb->geos[p.b[k]];
        if (!ga || !gb)
            continue;
        const GEOSPreparedGeometry *pa = GEOSPrepare_r(ctx, ga), *pb = GEOSPrepare_r(ctx, gb);
        int a_in_b = GEOSPreparedContainsProperly_r(ctx, pb, ga) == 1;
        int b_in_a = GEOSPreparedContainsProperly_r(ctx, pa, gb) == 1;
        int disjoint = GEOSDisjoint_r(ctx, ga, gb) == 1;
        GEOSPreparedGeom_destroy_r(ctx, pa);
        GEOSPreparedGeom_destroy_r(ctx, pb);
        t->pairs++;
        t->true_in += a_in_b || b_in_a;
        t->true_disjoint += disjoint;
        switch (cls[k]) {
        case VSG_CLS_REFINE: t->refine++; break;
        case VSG_CLS_DISJOINT: t->got_disjoint++; t->wrong += !disjoint; break;
        case VSG_CLS_A_IN_B: t->got_in++; t->wrong += !a_in_b; break;
        case VSG_CLS_B_IN_A: t->got_in++; t->wrong += !b_in_a; break;
        default: t->wrong++;
        }
        if (t->wrong > printed && printed < 3) {
            fprintf(stderr, "  disagreement: pair (%lld, %lld) class %d\n", (long long)p.a[k],
                    (long long)p.b[k], cls[k]);
            printed = t->wrong;
        }
    }
    free(cls);
    free(ba);
    free(bb);
    vsg_exec_free(x, p.a);
    vsg_exec_free(x, p.b);
    vsg_exec_destroy(x);
}

static void classify_agrees_with_geos_on_random_layers(void)
{
    cls_tally t = {0};
    for (int round = 0; round < 4; round++) {
        layer la, lb;
        layer_init(&la);
        layer_init(&lb);
        /* a: small shapes; b: larger ones (containment both ways occurs) */
        random_layer(&la, 600, 300, 6, round == 1 ? 2 : 4);
        random_layer(&lb, 150, 300, round == 3 ? 8 : 25, 4);
        int valid = 1;
        for (int64_t g = 0; g < la.ng; g++)
            valid &= GEOSisValid_r(ctx, la.geos[g]) == 1;
        for (int64_t g = 0; g < lb.ng; g++)
            valid &= GEOSisValid_r(ctx, lb.geos[g]) == 1;
        CHECK(valid);     /* the generators make valid polygons */
        classify_layers(&la, &lb, &t);
        layer_free(&la);
        layer_free(&lb);
    }
    double share_in = t.true_in ? (double)t.got_in / (double)t.true_in : 0;
    double share_dj = t.true_disjoint ? (double)t.got_disjoint / (double)t.true_disjoint : 0;
    fprintf(stderr,
            "  %lld pairs: %lld contained (%.1f%% decided), %lld disjoint (%.1f%% decided), "
            "%lld refine\n",
            (long long)t.pairs, (long long)t.true_in, 100 * share_in, (long long)t.true_disjoint,
            100 * share_dj, (long long)t.refine);
    CHECK(t.wrong == 0);
    CHECK(t.true_in > 100 && t.true_disjoint > 100);
    /* random shapes rarely touch: nearly every contained or disjoint pair
     * is decided (only integer rectangles touch exactly) */
    CHECK(share_in > 0.8);
    CHECK(share_dj > 0.8);
}

/* grid tessellations: fine squares vs coarse blocks on the same lines
 * (shared edges: REFINE, never a wrong class) and vs blocks shifted by
 * half a square (inner squares strictly inside: A_IN_B) */
static void classify_tessellations(void)
{
    for (int shift = 0; shift < 2; shift++) {
        layer la, lb;
        layer_init(&la);
        layer_init(&lb);
        double xy[8];
        for (int i = 0; i < 24; i++)
            for (int j = 0; j < 24; j++) {
                rect_xy(xy, i, j, i + 1, j + 1);
                polygon(&la, xy, 4);
            }
        for (int i = 0; i < 8; i++)
            for (int j = 0; j < 8; j++) {
                double o = shift ? 0.5 : 0;
                rect_xy(xy, 3 * i + o, 3 * j + o, 3 * i + 3 + o, 3 * j + 3 + o);
                polygon(&lb, xy, 4);
            }
        cls_tally t = {0};
        classify_layers(&la, &lb, &t);
        fprintf(stderr, "  tessellation shift %d: %lld pairs, %lld in, %lld decided in, %lld refine\n",
                shift, (long long)t.pairs, (long long)t.true_in, (long long)t.got_in,
                (long long)t.refine);
        CHECK(t.wrong == 0);
        if (shift) /* 8 x 8 blocks, each holding exactly 2 x 2 squares strictly inside */
            CHECK(t.got_in == 8 * 8 * 4 && t.true_in == t.got_in);
        else       /* the middle square of each block; all others share edges */
            CHECK(t.got_in == 8 * 8 && t.true_in == t.got_in);
        layer_free(&la);
        layer_free(&lb);
    }
}

/* hand-made degenerate pairs: expected class derived from the geometry */
static void classify_degenerate_cases(void)
{
    layer la, lb;
    layer_init(&la);
    layer_init(&lb);
    double xy[64], h[16];
    int expect[16], n = 0;
#define PAIR(e) expect[n++] = (e)
    /* 0 shared edge */
    rect_xy(xy, 0, 0, 2, 2); polygon(&la, xy, 4);
    rect_xy(xy, 2, 0, 4, 2); polygon(&lb, xy, 4); PAIR(VSG_CLS_REFINE);
    /* 1 vertex of a on an edge of b (a inside otherwise) */
    { double t[] = {1, 1, 2, 1.5, 1, 2}; polygon(&la, t, 3); }
    rect_xy(xy, 0, 0, 2, 3); polygon(&lb, xy, 4); PAIR(VSG_CLS_REFINE);
    /* 2 collinear overlap of edges from outside */
    rect_xy(xy, 0, 0, 2, 2); polygon(&la, xy, 4);
    rect_xy(xy, 1, 2, 3, 4); polygon(&lb, xy, 4); PAIR(VSG_CLS_REFINE);
    /* 3 a strictly inside b, with repeated points in a */
    { double t[] = {1, 1, 2, 1, 2, 1, 2, 2, 1, 2, 1, 2}; polygon(&la, t, 6); }
    rect_xy(xy, 0, 0, 3, 3); polygon(&lb, xy, 4); PAIR(VSG_CLS_A_IN_B);
    /* 4 b strictly inside a */
    rect_xy(xy, 0, 0, 10, 10); polygon(&la, xy, 4);
    rect_xy(xy, 4, 4, 5, 5); polygon(&lb, xy, 4); PAIR(VSG_CLS_B_IN_A);
    /* 5 a inside b's hole: disjoint (boxes meet) */
    rect_xy(xy, 4, 4, 6, 6); polygon(&la, xy, 4);
    rect_xy(xy, 0, 0, 10, 10); ring(&lb, xy, 4);
    rect_xy(h, 3, 3, 7, 7); ring(&lb, h, 4); part_end(&lb); geom_end(&lb, 0); PAIR(VSG_CLS_DISJOINT);
    /* 6 a surrounds b's hole (a inside b's shell): not contained */
    rect_xy(xy, 2, 2, 8, 8); polygon(&la, xy, 4);
    rect_xy(xy, 0, 0, 10, 10); ring(&lb, xy, 4);
    rect_xy(h, 4, 4, 6, 6); ring(&lb, h, 4); part_end(&lb); geom_end(&lb, 0); PAIR(VSG_CLS_REFINE);
    /* 7 a's hole holds b: disjoint */
    rect_xy(xy, 0, 0, 10, 10); ring(&la, xy, 4);
    rect_xy(h, 2, 2, 8, 8); ring(&la, h, 4); part_end(&la); geom_end(&la, 0);
    rect_xy(xy, 4, 4, 5, 5); polygon(&lb, xy, 4); PAIR(VSG_CLS_DISJOINT);
    /* 8 a and b both with holes, a inside b around b's hole, b's hole
     * inside a's hole: a in b */
    rect_xy(xy, 1, 1, 9, 9); ring(&la, xy, 4);
    rect_xy(h, 3, 3, 7, 7); ring(&la, h, 4); part_end(&la); geom_end(&la, 0);
    rect_xy(xy, 0, 0, 10, 10); ring(&lb, xy, 4);
    rect_xy(h, 4, 4, 6, 6); ring(&lb, h, 4); part_end(&lb); geom_end(&lb, 0); PAIR(VSG_CLS_A_IN_B);
    /* 9 identical polygons */
    rect_xy(xy, 0, 0, 1, 1); polygon(&la, xy, 4);
    rect_xy(xy, 0, 0, 1, 1); polygon(&lb, xy, 4); PAIR(VSG_CLS_REFINE);
    /* 10 corner touch */
    rect_xy(xy, 0, 0, 1, 1); polygon(&la, xy, 4);
    rect_xy(xy, 1, 1, 2, 2); polygon(&lb, xy, 4); PAIR(VSG_CLS_REFINE);
    /* 11 multipolygon: one part inside b, one outside */
    rect_xy(xy, 1, 1, 2, 2); ring(&la, xy, 4); part_end(&la);
    rect_xy(xy, 5, 5, 6, 6); ring(&la, xy, 4); part_end(&la); geom_end(&la, 1);
    rect_xy(xy, 0, 0, 3, 3); polygon(&lb, xy, 4); PAIR(VSG_CLS_REFINE);
    /* 12 crossing (plus shape) */
    rect_xy(xy, 0, 1, 3, 2); polygon(&la, xy, 4);
    rect_xy(xy, 1, 0, 2, 3); polygon(&lb, xy, 4); PAIR(VSG_CLS_REFINE);
    /* 13 a null row: refine */
    geom_none(&la, VSG_GF_NULL);
    rect_xy(xy, 0, 0, 1, 1); polygon(&lb, xy, 4); PAIR(VSG_CLS_REFINE);
#undef PAIR
    vsg_col_view va = layer_view(&la), vb = layer_view(&lb);
    REQUIRE(va.n_geoms == n && vb.n_geoms == n);
    int64_t ia[16], ib[16];
    for (int k = 0; k < n; k++)
        ia[k] = ib[k] = k;
    vsg_pairs p = {n, ia, ib};
    uint8_t cls[16];
    vsg_exec *x = NULL;
    REQUIRE(vsg_exec_create_host(&x) == VSG_OK);
    double ba[16 * 4], bb[16 * 4];
    REQUIRE(vsg_stage_bounds(x, &va, ba) == VSG_OK);
    REQUIRE(vsg_stage_bounds(x, &vb, bb) == VSG_OK);
    REQUIRE(vsg_stage_classify(x, &va, ba, &vb, bb, &p, cls) == VSG_OK);
    for (int k = 0; k < n; k++) {
        if (cls[k] != expect[k])
            fprintf(stderr, "  case %d: class %d, expected %d\n", k, cls[k], expect[k]);
        CHECK(cls[k] == expect[k]);
        /* and the expectation itself agrees with GEOS */
        if (expect[k] == VSG_CLS_A_IN_B) {
            const GEOSPreparedGeometry *pb = GEOSPrepare_r(ctx, lb.geos[k]);
            CHECK(GEOSPreparedContainsProperly_r(ctx, pb, la.geos[k]) == 1);
            GEOSPreparedGeom_destroy_r(ctx, pb);
        } else if (expect[k] == VSG_CLS_DISJOINT) {
            CHECK(GEOSDisjoint_r(ctx, la.geos[k], lb.geos[k]) == 1);
        }
    }
    /* point in polygon on the degenerate positions of case 5's b */
    CHECK(vsg_pip_geom(&vb, 5, 5, 5) == VSG_PIP_OUTSIDE);    /* in the hole */
    CHECK(vsg_pip_geom(&vb, 5, 1, 1) == VSG_PIP_INSIDE);
    CHECK(vsg_pip_geom(&vb, 5, 3, 5) == VSG_PIP_BOUNDARY);   /* on the hole's edge */
    CHECK(vsg_pip_geom(&vb, 5, 7, 7) == VSG_PIP_BOUNDARY);   /* the hole's vertex */
    CHECK(vsg_pip_geom(&vb, 5, 5, 0) == VSG_PIP_BOUNDARY);   /* horizontal edge */
    CHECK(vsg_pip_geom(&vb, 5, 11, 0) == VSG_PIP_OUTSIDE);   /* on an edge's line */
    CHECK(vsg_pip_geom(&vb, 5, -1, 3) == VSG_PIP_OUTSIDE);   /* ray through vertices */
    vsg_exec_destroy(x);
    layer_free(&la);
    layer_free(&lb);
}

/* ---- no item's work grows with one geometry ---------------------------------------- */
/* One polygon of 10^6 vertices (with a hole) against thousands of small
 * squares inside, across and outside it: the chunked classify's items stay
 * within VSG_CHUNK_SEGS^2 segment pairs (counted, not timed), and the
 * classes equal the per-pair reference on a sample. */
static void classify_work_is_bounded(void)
{
    const int nv = 1000000, nh = 1000;
    layer la, lb;
    layer_init(&la);
    layer_init(&lb);
    double *xy = malloc((size_t)(nv + 1) * 2 * sizeof *xy);
    for (int k = 0; k < nv; k++) {   /* counter-clockwise circle of radius 1000 */
        double t = 2 * 3.14159265358979323846 * k / nv;
        xy[2 * k] = 1000 * cos(t);
        xy[2 * k + 1] = 1000 * sin(t);
    }
    ring(&la, xy, nv);
    for (int k = 0; k < nh; k++) {   /* the hole: radius 100, clockwise */
        double t = -2 * 3.14159265358979323846 * k / nh;
        xy[2 * k] = 100 * cos(t);
        xy[2 * k + 1] = 100 * sin(t);
    }
    ring(&la, xy, nh);
    part_end(&la);
    geom_end(&la, 0);
    free(xy);
    double sq[8];
    for (int i = 0; i < 60; i++)
        for (int j = 0; j < 60; j++) {
            rect_xy(sq, -1200 + 40.0 * i, -1200 + 40.0 * j, -1190 + 40.0 * i, -1190 + 40.0 * j);
            polygon(&lb, sq, 4);
        }
    vsg_col_view va = layer_view(&la), vb = layer_view(&lb);
    vsg_exec *x = NULL;
    REQUIRE(vsg_exec_create_host(&x) == VSG_OK);
    double ba[4], *bb = malloc((size_t)vb.n_geoms * 32);
    vsg_pairs p = {0};
    REQUIRE(vsg_stage_bounds(x, &va, ba) == VSG_OK);
    REQUIRE(vsg_stage_bounds(x, &vb, bb) == VSG_OK);
    REQUIRE(vsg_stage_candidates(x, ba, 1, bb, vb.n_geoms, &p) == VSG_OK);
    uint8_t *cls = malloc((size_t)p.n + 1);
    REQUIRE(vsg_stage_classify(x, &va, ba, &vb, bb, &p, cls) == VSG_OK);
    int64_t n_cls[4] = {0, 0, 0, 0};
    for (int64_t k = 0; k < p.n; k++)
        n_cls[cls[k] & 3]++;
    fprintf(stderr, "  %lld pairs: %lld refine, %lld disjoint, %lld inside; largest items: "
                    "classify %lld, classify_chunks %lld segment(s)\n",
            (long long)p.n, (long long)n_cls[VSG_CLS_REFINE], (long long)n_cls[VSG_CLS_DISJOINT],
            (long long)n_cls[VSG_CLS_B_IN_A], (long long)vsg_exec_max_work(x, "classify"),
            (long long)vsg_exec_max_work(x, "classify_chunks"));
    CHECK(n_cls[VSG_CLS_REFINE] > 0 && n_cls[VSG_CLS_DISJOINT] > 0 && n_cls[VSG_CLS_B_IN_A] > 0);
    CHECK(vsg_exec_max_work(x, "classify") > 0);
    CHECK(vsg_exec_max_work(x, "classify") <= VSG_CHUNK_SEGS * VSG_CHUNK_SEGS);
    CHECK(vsg_exec_max_work(x, "classify_chunks") <= VSG_CHUNK_SEGS + 1);
    CHECK(vsg_exec_max_work(x, "bounds") > 0 && vsg_exec_max_work(x, "bounds") <= VSG_BOUNDS_BLOCK);
    /* the load-balanced boxes are the per-geometry walk's */
    double ref[4];
    vsg_bounds_geom(&va, 0, ref);
    CHECK(memcmp(ref, ba, sizeof ref) == 0);
    int64_t differ = 0;
    for (int64_t k = 0; k < p.n; k += 37)
        differ += cls[k] != (uint8_t)vsg_classify_pair(&va, p.a[k], &vb, p.b[k]);
    CHECK(differ == 0);
    vsg_exec_free(x, p.a);
    vsg_exec_free(x, p.b);
    vsg_exec_destroy(x);
    free(bb);
    free(cls);
    layer_free(&la);
    layer_free(&lb);
}

/* ---- the GPU backend gives the host's results ------------------------------------ */
static void gpu_equals_host(void)
{
    vsg_exec *gx = NULL, *hx = NULL;
    char why[256] = "";
    if (vsg_exec_create_gpu(NULL, &gx, why, sizeof why) != VSG_OK) {
        fprintf(stderr, "  skip: %s\n", why);
        return;
    }
    REQUIRE(vsg_exec_create_host(&hx) == VSG_OK);
    layer la, lb;
    layer_init(&la);
    layer_init(&lb);
    random_layer(&la, 20000, 2000, 6, 4);
    random_layer(&lb, 3000, 2000, 25, 4);
    vsg_col_view hva = layer_view(&la), hvb = layer_view(&lb);
    vsg_columnar da, db;
    REQUIRE(vsg_columnar_upload(gx, &la.col, &da) == VSG_OK);
    REQUIRE(vsg_columnar_upload(gx, &lb.col, &db) == VSG_OK);
    vsg_col_view dva = vsg_columnar_view(&da), dvb = vsg_columnar_view(&db);
    int64_t na = hva.n_geoms, nb = hvb.n_geoms;
    double *hba = malloc((size_t)na * 32), *hbb = malloc((size_t)nb * 32);
    double *gba = malloc((size_t)na * 32), *gbb = malloc((size_t)nb * 32);
    double *dba = NULL, *dbb = NULL;
    REQUIRE(vsg_exec_alloc(gx, (size_t)na * 32, (void **)&dba) == VSG_OK);
    REQUIRE(vsg_exec_alloc(gx, (size_t)nb * 32, (void **)&dbb) == VSG_OK);
    REQUIRE(vsg_stage_bounds(hx, &hva, hba) == VSG_OK);
    REQUIRE(vsg_stage_bounds(hx, &hvb, hbb) == VSG_OK);
    REQUIRE(vsg_stage_bounds(gx, &dva, dba) == VSG_OK);
    REQUIRE(vsg_stage_bounds(gx, &dvb, dbb) == VSG_OK);
    REQUIRE(vsg_exec_download(gx, gba, dba, (size_t)na * 32) == VSG_OK);
    REQUIRE(vsg_exec_download(gx, gbb, dbb, (size_t)nb * 32) == VSG_OK);
    REQUIRE(vsg_exec_sync(gx) == VSG_OK);
    CHECK(memcmp(hba, gba, (size_t)na * 32) == 0 && memcmp(hbb, gbb, (size_t)nb * 32) == 0);

    vsg_pairs hp, dp;
    REQUIRE(vsg_stage_candidates(hx, hba, na, hbb, nb, &hp) == VSG_OK);
    REQUIRE(vsg_stage_candidates(gx, dba, na, dbb, nb, &dp) == VSG_OK);
    CHECK(hp.n == dp.n);
    int64_t n = hp.n < dp.n ? hp.n : dp.n;
    int64_t *ga = malloc((size_t)(n + 1) * 8), *gb = malloc((size_t)(n + 1) * 8);
    uint8_t *hc = malloc((size_t)n + 1), *gc = malloc((size_t)n + 1), *dc = NULL;
    REQUIRE(vsg_exec_download(gx, ga, dp.a, (size_t)n * 8) == VSG_OK);
    REQUIRE(vsg_exec_download(gx, gb, dp.b, (size_t)n * 8) == VSG_OK);
    REQUIRE(vsg_exec_sync(gx) == VSG_OK);
    CHECK(memcmp(ga, hp.a, (size_t)n * 8) == 0 && memcmp(gb, hp.b, (size_t)n * 8) == 0);

    REQUIRE(vsg_stage_classify(hx, &hva, hba, &hvb, hbb, &hp, hc) == VSG_OK);
    REQUIRE(vsg_exec_alloc(gx, (size_t)n + 1, (void **)&dc) == VSG_OK);
    dp.n = n;
    REQUIRE(vsg_stage_classify(gx, &dva, dba, &dvb, dbb, &dp, dc) == VSG_OK);
    REQUIRE(vsg_exec_download(gx, gc, dc, (size_t)n) == VSG_OK);
    REQUIRE(vsg_exec_sync(gx) == VSG_OK);
    CHECK(memcmp(hc, gc, (size_t)n) == 0);
    int64_t decided = 0;
    for (int64_t k = 0; k < n; k++)
        decided += hc[k] != VSG_CLS_REFINE;
    fprintf(stderr, "  GPU = host: %lld geometries, %lld pairs, %lld decided\n",
            (long long)(na + nb), (long long)n, (long long)decided);
    vsg_exec_free(gx, dc);
    vsg_exec_free(gx, dp.a);
    vsg_exec_free(gx, dp.b);
    vsg_exec_free(gx, dba);
    vsg_exec_free(gx, dbb);
    vsg_exec_free(hx, hp.a);
    vsg_exec_free(hx, hp.b);
    vsg_columnar_free(&da);
    vsg_columnar_free(&db);
    free(hba); free(hbb); free(gba); free(gbb); free(ga); free(gb); free(hc); free(gc);
    layer_free(&la);
    layer_free(&lb);
    vsg_exec_destroy(hx);
    vsg_exec_destroy(gx);
}

int main(void)
{
    ctx = GEOS_init_r();
    RUN(orientation_is_exact_on_integer_grids);
    RUN(orientation_agrees_with_geos_near_degenerate);
    RUN(orientation_exact_when_differences_are_not);
    RUN(segment_relation_agrees_with_geos);
    RUN(bounds_equal_geos_envelopes);
    RUN(candidates_equal_brute_force);
    RUN(candidates_touching_boxes);
    RUN(candidates_equal_strtree);
    RUN(classify_degenerate_cases);
    RUN(classify_work_is_bounded);
    RUN(classify_tessellations);
    RUN(classify_agrees_with_geos_on_random_layers);
    RUN(gpu_equals_host);
    GEOS_finish_r(ctx);
    return TEST_SUMMARY();
}
