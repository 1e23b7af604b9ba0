/*
 * test_stage_valid_screen.c - the validity screen (stages.h,
 * vsg_stage_valid_screen) on the host backend against GEOS's IsValid: the
 * screen may let a geometry through (why = 0) only if GEOS calls it valid.
 *
 *   - hand-made invalid polygons of every kind GEOS rejects (self-crossing,
 *     spikes, rings touching or sharing edges, holes outside, crossing or
 *     nested, shells nested or overlapping, a hole inside another part's
 *     shell, too few points): each screened out;
 *   - valid polygons whose rings touch (a hole touching its shell, parts
 *     touching at a corner): screened out too, GEOS decides them;
 *   - plain valid polygons (holes, islands in lakes, repeated points):
 *     let through, so the screen spares GEOS its work;
 *   - seeded random polygons and multipolygons, valid and not: every one
 *     let through is valid for GEOS, and most valid ones are let through;
 *   - long rings crossing themselves between vertices 2 to 250 apart, in
 *     one chunk of the noding or two (VSG_COV_CHUNK), beside rows that
 *     overlap each other (not invalid: rows are screened alone), on the
 *     device-shaped host backend and on the CPU engine's own;
 *   - where a GPU backend opens, the device gives the host's verdicts.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <geos_c.h>

#include "vsg_test.h"
#include "union_test_util.h"
#include "columnar/columnar.h"
#include "exec/exec.h"
#include "stages/stages.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* The screen's verdicts for m's members (why[i], host backend: the
 * device-shaped one, or with plain the CPU engine's own). */
static int screen_on(const members *m, uint32_t *why, int plain)
{
    vsg_wkb_array in = {m->n, (const unsigned char *const *)m->wkb, m->size};
    vsg_columnar col;
    vsg_columnar_report rep;
    vsg_exec *x = NULL;
    if (vsg_columnar_from_wkb(&in, &col, &rep) != VSG_OK || vsg_exec_create_host(&x) != VSG_OK)
        return 0;
    if (plain)
        vsg_exec_set_host_plain(x);
    vsg_col_view v = vsg_columnar_view(&col);
    vsg_status st = vsg_stage_valid_screen(x, &v, why);
    vsg_exec_destroy(x);
    vsg_columnar_free(&col);
    return st == VSG_OK;
}

static int screen(const members *m, uint32_t *why) { return screen_on(m, why, 0); }

/* Every member let through is valid for GEOS; returns how many passed. */
static size_t sound(const members *m, const uint32_t *why)
{
    size_t passed = 0;
    for (size_t i = 0; i < m->n; i++) {
        if (why[i] != 0)
            continue;
        passed++;
        if (GEOSisValid_r(ctx, m->g[i]) != 1) {
            char *w = GEOSGeomToWKT_r(ctx, m->g[i]);
            fprintf(stderr, "  let through, GEOS says invalid: %.300s\n", w);
            GEOSFree_r(ctx, w);
            CHECK(0);
        }
    }
    return passed;
}

/* ---- hand-made cases --------------------------------------------------------- */
static const char *const kInvalid[] = {
    /* self-crossing (bow-tie) */
    "POLYGON((0 0,2 2,2 0,0 2,0 0))",
    /* a spike: the ring runs back along itself */
    "POLYGON((0 0,4 0,4 4,2 4,2 6,2 4,0 4,0 0))",
    /* a ring touching itself at a vertex (an inverted hole) */
    "POLYGON((0 0,4 0,4 4,2 4,3 2,1 2,2 4,0 4,0 0))",
    /* a ring through its own first vertex again (two triangles at one
     * point), either orientation: the screen's link follows ring order,
     * its noding must fail the second visit */
    "POLYGON((2 2,0 0,4 0,2 2,4 4,0 4,2 2))",
    "POLYGON((2 2,0 4,4 4,2 2,4 0,0 0,2 2))",
    /* a vertex on another segment of the same ring */
    "POLYGON((0 0,4 0,4 4,2 0.0,0 4,0 0))",
    /* hole outside its shell */
    "POLYGON((0 0,4 0,4 4,0 4,0 0),(5 5,6 5,6 6,5 6,5 5))",
    /* hole crossing its shell */
    "POLYGON((0 0,4 0,4 4,0 4,0 0),(3 1,5 1,5 2,3 2,3 1))",
    /* nested holes */
    "POLYGON((0 0,10 0,10 10,0 10,0 0),(1 1,9 1,9 9,1 9,1 1),(2 2,3 2,3 3,2 3,2 2))",
    /* a hole touching its shell at two points: the interior disconnected */
    "POLYGON((0 0,4 0,4 4,0 4,0 0),(2 0,4 2,2 4,1 2,2 0))",
    /* a hole equal to its shell */
    "POLYGON((0 0,4 0,4 4,0 4,0 0),(0 0,0 4,4 4,4 0,0 0))",
    /* a hole sharing an edge with its shell */
    "POLYGON((0 0,4 0,4 4,0 4,0 0),(0 1,2 1,2 2,0 2,0 1))",
    /* too few distinct points */
    "POLYGON((0 0,1 1,0 0,0 0))",
    /* no area: collinear */
    "POLYGON((0 0,1 0,2 0,0 0))",
    /* parts overlapping */
    "MULTIPOLYGON(((0 0,2 0,2 2,0 2,0 0)),((1 1,3 1,3 3,1 3,1 1)))",
    /* a part inside another */
    "MULTIPOLYGON(((0 0,4 0,4 4,0 4,0 0)),((1 1,2 1,2 2,1 2,1 1)))",
    /* parts sharing an edge */
    "MULTIPOLYGON(((0 0,2 0,2 2,0 2,0 0)),((2 0,4 0,4 2,2 2,2 0)))",
    /* parts sharing part of an edge */
    "MULTIPOLYGON(((0 0,2 0,2 2,0 2,0 0)),((2 1,4 1,4 3,2 3,2 1)))",
    /* a part's hole lying in the other part's shell */
    "MULTIPOLYGON(((0 0,4 0,4 4,0 4,0 0)),((10 0,14 0,14 4,10 4,10 0),(1 1,2 1,2 2,1 2,1 1)))",
    /* a shell inside another part's shell, outside that part's hole */
    "MULTIPOLYGON(((0 0,10 0,10 10,0 10,0 0),(1 1,2 1,2 2,1 2,1 1)),((5 5,6 5,6 6,5 6,5 5)))",
    NULL};

static const char *const kValidTouching[] = {
    /* a hole touching its shell at one point */
    "POLYGON((0 0,4 0,4 4,0 4,0 0),(2 0,3 1,1 1,2 0))",
    /* parts touching at a corner */
    "MULTIPOLYGON(((0 0,1 0,1 1,0 1,0 0)),((1 1,2 1,2 2,1 2,1 1)))",
    /* a hole starting where its shell starts and ends, either
     * orientation: the shell's last segment and the hole's first are
     * neighbours in R without following one another */
    "POLYGON((0 0,4 0,4 4,0 4,0 0),(0 0,2 1,1 2,0 0))",
    "POLYGON((0 0,0 4,4 4,4 0,0 0),(0 0,1 2,2 1,0 0))",
    "POLYGON((0 0,4 0,4 4,0 4,0 0),(0 0,1 2,2 1,0 0))",
    /* parts touching at the first vertex of both */
    "MULTIPOLYGON(((1 1,0 1,0 0,1 0,1 1)),((1 1,2 1,2 2,1 2,1 1)))",
    /* two holes touching at a point */
    "POLYGON((0 0,10 0,10 10,0 10,0 0),(1 1,3 1,3 3,1 3,1 1),(3 3,5 3,5 5,3 5,3 3))",
    NULL};

static const char *const kValidPlain[] = {
    "POLYGON((0 0,4 0,4 4,0 4,0 0))",
    "POLYGON((0 0,0 4,4 4,4 0,0 0))",   /* clockwise shell */
    "POLYGON((0 0,10 0,10 10,0 10,0 0),(1 1,2 1,2 2,1 2,1 1),(5 5,5 6,6 6,6 5,5 5))",
    /* repeated points */
    "POLYGON((0 0,4 0,4 0,4 4,0 4,0 4,0 0))",
    /* an island in a lake */
    "MULTIPOLYGON(((0 0,10 0,10 10,0 10,0 0),(2 2,8 2,8 8,2 8,2 2)),((4 4,6 4,6 6,4 6,4 4)))",
    /* far-apart parts, one with a hole */
    "MULTIPOLYGON(((0 0,1 0,1 1,0 1,0 0)),((5 5,9 5,9 9,5 9,5 5),(6 6,7 6,7 7,6 7,6 6)))",
    /* a triangle */
    "POLYGON((0 0,1 0,0 1,0 0))",
    NULL};

static void add_all(members *m, const char *const *wkt)
{
    for (size_t k = 0; wkt[k]; k++)
        add_wkt(m, wkt[k], (int64_t)m->n);
}

static void hand_made(void)
{
    members m = {0};
    add_all(&m, kInvalid);
    size_t n_invalid = m.n;
    add_all(&m, kValidTouching);
    size_t n_touching = m.n;
    add_all(&m, kValidPlain);
    /* the cases are what they say: GEOS agrees */
    for (size_t i = 0; i < m.n; i++)
        CHECK(GEOSisValid_r(ctx, m.g[i]) == (i < n_invalid ? 0 : 1));
    uint32_t *why = calloc(m.n, sizeof *why);
    REQUIRE(screen(&m, why));
    for (size_t i = 0; i < n_touching; i++)
        if (why[i] == 0) {
            fprintf(stderr, "  case %zu let through\n", i);
            CHECK(0);
        }
    for (size_t i = n_touching; i < m.n; i++)
        if (why[i] != 0) {
            fprintf(stderr, "  plain valid case %zu screened out (why %u)\n", i - n_touching,
                    why[i]);
            CHECK(0);
        }
    sound(&m, why);
    free(why);
    members_free(&m);
}

/* Null, empty, points, lines and Z rows are GEOS's to decide, or the
 * reader's: never let through as valid polygons; null and empty rows
 * come out 0 (the reader settles them first). */
static void other_rows(void)
{
    members m = {0};
    add_wkt(&m, "POINT(1 2)", 0);
    add_wkt(&m, "LINESTRING(0 0,1 1)", 1);
    add_wkt(&m, "POLYGON Z((0 0 1,4 0 1,4 4 1,0 4 1,0 0 1))", 2);
    add_wkt(&m, "GEOMETRYCOLLECTION(POLYGON((0 0,1 0,1 1,0 1,0 0)))", 3);
    add_wkt(&m, "POLYGON EMPTY", 4);
    uint32_t why[5];
    REQUIRE(screen(&m, why));
    CHECK(why[0] != 0 && why[1] != 0 && why[2] != 0 && why[3] != 0);
    CHECK(why[4] == 0);
    members_free(&m);
}

/* ---- random polygons ---------------------------------------------------------------
 * A star-shaped ring of n vertices around (cx, cy) (simple), radius r
 * times a jitter; clockwise when cw. */
static void ring_wkt(char *buf, size_t cap, double cx, double cy, double r, int n, int cw)
{
    size_t o = (size_t)snprintf(buf, cap, "(");
    double x0 = 0, y0 = 0;
    for (int k = 0; k < n; k++) {
        double a = 2 * M_PI * (cw ? n - k : k) / n;
        double rr = r * (0.55 + 0.45 * rng01());
        double x = cx + rr * cos(a), y = cy + rr * sin(a);
        if (k == 0) {
            x0 = x;
            y0 = y;
        }
        o += (size_t)snprintf(buf + o, cap - o, "%.17g %.17g,", x, y);
    }
    snprintf(buf + o, cap - o, "%.17g %.17g)", x0, y0);
}

/* A polygon: a shell and up to 3 holes, each mostly well inside the
 * shell (apart from the others), else anywhere: inside, across or
 * outside the shell, or across another hole. */
static void polygon_wkt(char *buf, size_t cap, double cx, double cy)
{
    char ring[16384];
    size_t o = (size_t)snprintf(buf, cap, "(");
    ring_wkt(ring, sizeof ring, cx, cy, 10, 8 + (int)(rng01() * 60), 0);
    o += (size_t)snprintf(buf + o, cap - o, "%s", ring);
    int holes = (int)(rng01() * 4);
    for (int h = 0; h < holes; h++) {
        int inside = rng01() < 0.8;
        double d = inside ? 2.5 + 0.5 * rng01() : rng01() * 14;
        double a = inside ? 2 * M_PI * (h + 0.2 * rng01()) / 3 : rng01() * 2 * M_PI;
        double r = inside ? 0.3 + 0.9 * rng01() : 0.5 + 2 * rng01();
        ring_wkt(ring, sizeof ring, cx + d * cos(a), cy + d * sin(a), r,
                 3 + (int)(rng01() * 12), 1);
        o += (size_t)snprintf(buf + o, cap - o, ",%s", ring);
    }
    snprintf(buf + o, cap - o, ")");
}

static void random_polygons(void)
{
    members m = {0};
    char *wkt = malloc(1 << 17), poly[65536];
    for (int t = 0; t < 600; t++) {
        int parts = 1 + (int)(rng01() * 3);
        size_t o = (size_t)snprintf(wkt, 1 << 17, parts > 1 ? "MULTIPOLYGON(" : "POLYGON");
        for (int p = 0; p < parts; p++) {
            /* parts near each other: some apart, some overlapping, some
             * nested */
            double cx = rng01() * 40 * (parts > 1), cy = rng01() * 40 * (parts > 1);
            polygon_wkt(poly, sizeof poly, cx, cy);
            o += (size_t)snprintf(wkt + o, (1 << 17) - o, "%s%s", p ? "," : "", poly);
        }
        if (parts > 1)
            snprintf(wkt + o, (1 << 17) - o, ")");
        add_wkt(&m, wkt, t);
    }
    free(wkt);
    uint32_t *why = calloc(m.n, sizeof *why);
    REQUIRE(screen(&m, why));
    size_t valid = 0;
    for (size_t i = 0; i < m.n; i++)
        valid += GEOSisValid_r(ctx, m.g[i]) == 1;
    size_t passed = sound(&m, why);
    fprintf(stderr, "  %zu polygons, %zu valid for GEOS, %zu let through\n", m.n, valid, passed);
    CHECK(valid > 100 && m.n - valid > 100);   /* both kinds well represented */
    CHECK(passed * 10 >= valid * 9);           /* and the valid ones mostly spared */
    free(why);
    members_free(&m);
}

/* ---- long rings: the noding's chunks ------------------------------------------------
 * A convex ring of 300 vertices with vertices k + 1 and k + d swapped
 * crosses itself between segments d apart: within one chunk of the
 * noding's join or across two, wherever k falls. */
static void circle_wkt(char *buf, size_t cap, double cx, int n, int k, int d)
{
    size_t o = (size_t)snprintf(buf, cap, "POLYGON((");
    for (int q = 0; q <= n; q++) {
        int u = q % n;
        if (d > 0 && u == k + 1)
            u = k + d;
        else if (d > 0 && u == k + d)
            u = k + 1;
        double a = 2 * M_PI * u / n;
        o += (size_t)snprintf(buf + o, cap - o, "%s%.17g %.17g", q ? "," : "", cx + 10 * cos(a),
                              10 * sin(a));
    }
    snprintf(buf + o, cap - o, "))");
}

static void long_rings(void)
{
    static const int ds[] = {2, 3, 5, 14, 15, 16, 17, 31, 33, 100, 250};
    static const int ks[] = {0, 7, 14, 15, 37};
    const int nd = (int)(sizeof ds / sizeof *ds), nk = (int)(sizeof ks / sizeof *ks);
    char wkt[32768];
    members m = {0};
    /* two valid circles that overlap each other, then a small row */
    circle_wkt(wkt, sizeof wkt, 0, 300, 0, 0);
    add_wkt(&m, wkt, 0);
    circle_wkt(wkt, sizeof wkt, 3, 300, 0, 0);
    add_wkt(&m, wkt, 1);
    add_wkt(&m, "POLYGON((0 0,1 0,1 1,0 1,0 0))", 2);
    for (int a = 0; a < nd; a++)
        for (int b = 0; b < nk; b++) {
            circle_wkt(wkt, sizeof wkt, 25.0 * (a * nk + b + 1), 300, ks[b], ds[a]);
            add_wkt(&m, wkt, (int64_t)m.n);
        }
    for (size_t i = 0; i < m.n; i++)
        CHECK(GEOSisValid_r(ctx, m.g[i]) == (i < 3 ? 1 : 0));
    for (int plain = 0; plain < 2; plain++) {
        uint32_t *why = calloc(m.n, sizeof *why);
        REQUIRE(screen_on(&m, why, plain));
        CHECK(why[0] == 0 && why[1] == 0 && why[2] == 0);
        size_t caught = 0;
        for (size_t i = 3; i < m.n; i++)
            caught += why[i] != 0;
        if (caught != m.n - 3)
            fprintf(stderr, "  %s backend: %zu of %zu crossings caught\n",
                    plain ? "CPU engine's" : "device-shaped", caught, m.n - 3);
        CHECK(caught == m.n - 3);
        free(why);
    }
    members_free(&m);
}

/* ---- the device gives the host's verdicts ---------------------------------------- */
static void device_matches_host(void)
{
    vsg_exec *gx = NULL, *hx = NULL;
    char msg[256] = "";
    if (vsg_exec_create_gpu(NULL, &gx, msg, sizeof msg) != VSG_OK) {
        fprintf(stderr, "  skip: %s\n", msg);
        return;
    }
    REQUIRE(vsg_exec_create_host(&hx) == VSG_OK);
    members m = {0};
    add_all(&m, kInvalid);
    add_all(&m, kValidTouching);
    add_all(&m, kValidPlain);
    char wkt[65536];
    for (int t = 0; t < 200; t++) {
        polygon_wkt(wkt + 7, sizeof wkt - 7, 0, 0);
        memcpy(wkt, "POLYGON", 7);
        add_wkt(&m, wkt, (int64_t)m.n);
    }
    vsg_wkb_array in = {m.n, (const unsigned char *const *)m.wkb, m.size};
    vsg_columnar col, dcol;
    vsg_columnar_report rep;
    REQUIRE(vsg_columnar_from_wkb(&in, &col, &rep) == VSG_OK);
    vsg_col_view hv = vsg_columnar_view(&col);
    uint32_t *hwhy = calloc(m.n, 4), *gwhy = calloc(m.n, 4), *dwhy = NULL;
    REQUIRE(vsg_stage_valid_screen(hx, &hv, hwhy) == VSG_OK);
    REQUIRE(vsg_columnar_upload(gx, &col, &dcol) == VSG_OK);
    REQUIRE(vsg_exec_alloc(gx, m.n * 4, (void **)&dwhy) == VSG_OK);
    vsg_col_view dv = vsg_columnar_view(&dcol);
    vsg_status st = vsg_stage_valid_screen(gx, &dv, dwhy);
    if (st != VSG_OK)
        fprintf(stderr, "  device: %s\n", vsg_exec_last_error(gx));
    REQUIRE(st == VSG_OK);
    REQUIRE(vsg_exec_download(gx, gwhy, dwhy, m.n * 4) == VSG_OK);
    REQUIRE(vsg_exec_sync(gx) == VSG_OK);
    CHECK(!memcmp(hwhy, gwhy, m.n * 4));
    size_t passed = sound(&m, gwhy);
    fprintf(stderr, "  device: %zu of %zu let through, identical to the host\n", passed, m.n);
    vsg_exec_free(gx, dwhy);
    vsg_columnar_free(&dcol);
    vsg_columnar_free(&col);
    free(hwhy);
    free(gwhy);
    members_free(&m);
    vsg_exec_destroy(hx);
    vsg_exec_destroy(gx);
}

int main(void)
{
    ctx = GEOS_init_r();
    RUN(hand_made);
    RUN(other_rows);
    RUN(random_polygons);
    RUN(long_rings);
    RUN(device_matches_host);
    GEOS_finish_r(ctx);
    return TEST_SUMMARY();
}
