/*
 * test_stage_overlap.c - the overlap union stage on the host backend (the
 * device runs the same element code): GEOS is the oracle.
 *
 *   - hand-made groups it must settle: overlapping squares, the same
 *     square twice, a hole another member fills, a member inside another
 *     (free or along an edge), a T-junction, a ring of members that leaves
 *     a hole, corners that touch, disjoint members; rings of many chunks
 *     (an n-gon inside another, a hole inside another member, two n-gons
 *     overlapping by half, a hole covered in part or around another);
 *   - what it hands back: empty groups, lines, Z;
 *   - seeded random overlapping sets (jittered polygons with holes,
 *     rectangles on a grid so that edges overlap collinearly) and random
 *     coverages: every group settled equals GEOS's union of its members
 *     (symmetric difference <= 1e-9 of the area) and is valid, and most
 *     groups are settled;
 *   - the work of every launch item is bounded: a 10^6-vertex polygon under
 *     small overlapping squares costs no item more than a few hundred
 *     units (counted, not timed);
 *   - where a GPU backend opens, the device gives the host's output bit
 *     for bit (otherwise "skip").
 */
#include <math.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#include "vsg_test.h"
#include "union_test_util.h"
#include "elements/overlay/refine.h"   /* VSG_REF_BAD_* */
#include "elements/union/coverage.h"
#include "stages/stages.h"

/* The stage's own steps (the box join, "candidates", is the filter's and
 * bounded by boxes per grid cell, not by vertices). */
static const char *const kStages[] = {"refine_sides",   "arrange_nodes",   "arrange_pieces",
                                      "arrange_labels", "arrange_depth",   "arrange_select",
                                      "boundary_keys",  "coverage_link",   "coverage_noding",
                                      "coverage_rings", "coverage_nesting", "coverage_output",
                                      "bounds",         NULL};

static int run_stage(const members *m, int64_t n_groups, run_result *rr)
{
    return run_union(vsg_stage_overlap_union, kStages, m, n_groups, rr);
}

/* ---- hand-made groups, each must be settled and equal GEOS ------------------- */

/* Group 0 of m (and a plain square added as group 1) settled, equal to
 * GEOS's union, of `parts` polygons; m is freed. */
static void expect_settled(members *m, int parts, const char *name)
{
    add_square(m, 100, 100, 1, 1);
    run_result rr;
    REQUIRE(run_stage(m, 2, &rr));
    int ok = rr.ok[0] == 1 && agrees(m, &rr, 0) && n_polygons(rr.out[0]) == parts;
    if (!ok)
        fprintf(stderr, "  %s: ok %d why %#x parts %d\n", name, rr.ok[0], rr.why[0],
                n_polygons(rr.out[0]));
    CHECK(ok);
    CHECK(rr.ok[1] == 1 && agrees(m, &rr, 1));
    run_free(&rr);
    members_free(m);
}
static void settles_hand_cases(void)
{
    static const struct {
        const char *name;
        const char *wkt[4];
        int parts;   /* polygons in GEOS's union */
    } cases[] = {
        {"overlapping squares",
         {"POLYGON((0 0,2 0,2 2,0 2,0 0))", "POLYGON((1 1,3 1,3 3,1 3,1 1))"}, 1},
        {"the same square twice",
         {"POLYGON((0 0,1 0,1 1,0 1,0 0))", "POLYGON((0 0,1 0,1 1,0 1,0 0))"}, 1},
        {"the same square twice, one clockwise and shifted in start",
         {"POLYGON((0 0,1 0,1 1,0 1,0 0))", "POLYGON((1 1,1 0,0 0,0 1,1 1))"}, 1},
        {"a hole filled by another member",
         {"POLYGON((0 0,4 0,4 4,0 4,0 0),(1 1,1 3,3 3,3 1,1 1))",
          "POLYGON((1 1,3 1,3 3,1 3,1 1))"}, 1},
        {"a hole partly filled",
         {"POLYGON((0 0,4 0,4 4,0 4,0 0),(1 1,1 3,3 3,3 1,1 1))",
          "POLYGON((0.5 0.5,2 0.5,2 2,0.5 2,0.5 0.5))"}, 1},
        {"a member inside another, touching nothing",
         {"POLYGON((0 0,10 0,10 10,0 10,0 0))", "POLYGON((4 4,6 4,6 6,4 6,4 4))"}, 1},
        {"a member inside another along an edge",
         {"POLYGON((0 0,4 0,4 4,0 4,0 0))", "POLYGON((0 0,4 0,4 2,0 2,0 0))"}, 1},
        {"a T-junction",
         {"POLYGON((0 -1,2 -1,2 0,0 0,0 -1))", "POLYGON((0 0,1 0,1 1,0 1,0 0))"}, 1},
        {"edges overlapping in part, opposite ways",
         {"POLYGON((0 0,2 0,2 2,0 2,0 0))", "POLYGON((2 1,3 1,3 3,2 3,2 1))"}, 1},
        {"corners touching",
         {"POLYGON((0 0,1 0,1 1,0 1,0 0))", "POLYGON((1 1,2 1,2 2,1 2,1 1))"}, 2},
        {"disjoint members",
         {"POLYGON((0 0,1 0,1 1,0 1,0 0))", "POLYGON((5 5,6 5,6 6,5 6,5 5))"}, 2},
        {"a ring of overlapping bars around a hole",
         {"POLYGON((0 0,5 0,5 1,0 1,0 0))", "POLYGON((4 0,5 0,5 5,4 5,4 0))",
          "POLYGON((0 4,5 4,5 5,0 5,0 4))", "POLYGON((0 0,1 0,1 5,0 5,0 0))"}, 1},
        {"three squares crossing at shared nodes",
         {"POLYGON((0 0,2 0,2 2,0 2,0 0))", "POLYGON((1 0,3 0,3 2,1 2,1 0))",
          "POLYGON((0.5 1,2.5 1,2.5 3,0.5 3,0.5 1))"}, 1},
        {"a triangle crossing a square's diagonal",
         {"POLYGON((0 0,3 0,3 3,0 3,0 0))", "POLYGON((-1 -1,4 4,-1 4,-1 -1))"}, 1},
        /* depths above 1, and the rays that give a ring's first depth */
        {"three nested squares, touching nothing",
         {"POLYGON((0 0,10 0,10 10,0 10,0 0))", "POLYGON((1 1,9 1,9 9,1 9,1 1))",
          "POLYGON((2 2,8 2,8 8,2 8,2 2))"}, 1},
        {"a member in another's hole, touching nothing",
         {"POLYGON((0 0,10 0,10 10,0 10,0 0),(2 2,8 2,8 8,2 8,2 2))",
          "POLYGON((4 4,6 4,6 6,4 6,4 4))"}, 2},
        {"a member in a hole, over a third member",
         {"POLYGON((0 0,10 0,10 10,0 10,0 0),(2 2,8 2,8 8,2 8,2 2))",
          "POLYGON((4 4,6 4,6 6,4 6,4 4))", "POLYGON((3 3,7 3,7 7,3 7,3 3))"}, 2},
        {"the same square three times", {"POLYGON((0 0,1 0,1 1,0 1,0 0))",
          "POLYGON((0 0,1 0,1 1,0 1,0 0))", "POLYGON((1 0,1 1,0 1,0 0,1 0))"}, 1},
        {"a square over the shared edge of two others",
         {"POLYGON((0 0,2 0,2 2,0 2,0 0))", "POLYGON((2 0,4 0,4 2,2 2,2 0))",
          "POLYGON((1 0.5,3 0.5,3 1.5,1 1.5,1 0.5))"}, 1},
        {"a ring starting on another's edge, inside a third",
         {"POLYGON((-5 -5,10 -5,10 10,-5 10,-5 -5))", "POLYGON((0 0,2 0,2 2,0 2,0 0))",
          "POLYGON((1 0,3 0,3 1,1 1,1 0))"}, 1},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        members m = {0};
        for (int k = 0; k < 4 && cases[c].wkt[k]; k++)
            add_wkt(&m, cases[c].wkt[k], 0);
        expect_settled(&m, cases[c].parts, cases[c].name);
    }
}

/* One segment cut many times: a sawtooth crosses a bar's bottom edge 80
 * times, more than the events EV_ORDER places in one run, so the pieces
 * take the two sorts; 20 times, EV_ORDER places them. (Not on the CPU
 * engine's backend, which leaves a group with more crossings than
 * vertices to GEOS.) */
static void settles_long_runs_of_events(void)
{
    const int teeth[] = {80, 20};
    for (int c = 0; c < 2; c++) {
        char wkt[8192];
        int n = snprintf(wkt, sizeof wkt, "POLYGON((");
        for (int k = 0; k <= teeth[c]; k++)
            n += snprintf(wkt + n, sizeof wkt - (size_t)n, "%d %s,", 1 + k,
                          k % 2 ? "0.5" : "-0.5");
        snprintf(wkt + n, sizeof wkt - (size_t)n, "%d -2,1 -2,1 -0.5))", 1 + teeth[c]);
        members m = {0};
        add_wkt(&m, "POLYGON((0 0,100 0,100 1,0 1,0 0))", 0);
        add_wkt(&m, wkt, 0);
        expect_settled(&m, 1, teeth[c] > 32 ? "a sawtooth across an edge, 80 times"
                                            : "a sawtooth across an edge, 20 times");
    }
}

/* A regular n-gon of radius r around (cx, cy), with an n-gon hole of radius
 * h when h > 0 (clockwise, as written). */
static void add_ngon(members *m, double cx, double cy, double r, int n, double h, int64_t g)
{
    size_t cap = (size_t)(2 * n + 4) * 80, len = 0;
    char *wkt = malloc(cap);
    len += (size_t)snprintf(wkt + len, cap - len, "POLYGON((");
    for (int k = 0; k <= n; k++) {
        double t = 2 * M_PI * (k % n) / n;
        len += (size_t)snprintf(wkt + len, cap - len, "%.17g %.17g%s", cx + r * cos(t),
                                cy + r * sin(t), k < n ? "," : ")");
    }
    if (h > 0) {
        len += (size_t)snprintf(wkt + len, cap - len, ",(");
        for (int k = 0; k <= n; k++) {
            double t = -2 * M_PI * (k % n) / n;
            len += (size_t)snprintf(wkt + len, cap - len, "%.17g %.17g%s", cx + h * cos(t),
                                    cy + h * sin(t), k < n ? "," : ")");
        }
    }
    snprintf(wkt + len, cap - len, ")");
    add_wkt(m, wkt, g);
    free(wkt);
}

/* Rings of many chunks (16 segments each), whose members' boundaries meet
 * in few places or none: long runs of segments far from the other
 * member's boundary are labelled along the ring (or by a ray where the
 * ring has no node) and lost or kept whole. */
static void settles_runs_of_large_rings(void)
{
    static const struct {
        const char *name;
        double a[5], b[5];   /* cx, cy, r, n, hole radius */
        int parts;
    } cases[] = {
        {"an n-gon inside another, touching nothing", {0, 0, 20, 300, 0}, {1, 0, 10, 200, 0}, 1},
        {"two n-gons overlapping by half", {0, 0, 10, 200, 0}, {9, 0, 10, 200, 0}, 1},
        {"an n-gon with a hole, the hole inside another", {0, 0, 20, 300, 8}, {0.5, 0, 12, 250, 0},
         1},
        {"a hole partly covered", {0, 0, 20, 300, 10}, {10, 0, 6, 160, 0}, 1},
        {"an n-gon over another's hole, a ring around it left", {0, 0, 20, 300, 10},
         {0, 0, 5, 100, 0}, 2},
        {"disjoint n-gons in one another's box", {0, 0, 10, 200, 0}, {30, 0, 10, 200, 0}, 2},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        members m = {0};
        const double *a = cases[c].a, *b = cases[c].b;
        add_ngon(&m, a[0], a[1], a[2], (int)a[3], a[4], 0);
        add_ngon(&m, b[0], b[1], b[2], (int)b[3], b[4], 0);
        expect_settled(&m, cases[c].parts, cases[c].name);
    }
}

/* Nothing to union, lines, Z: handed back with a reason; the group beside
 * each is settled. */
static void hands_back(void)
{
    members m = {0};
    add_wkt(&m, "POLYGON EMPTY", 0);
    add_wkt(&m, "LINESTRING(0 0,1 1)", 1);
    add_square(&m, 5, 5, 1, 1);
    add_wkt(&m, "POLYGON Z((20 20 1,21 20 1,21 21 1,20 21 1,20 20 1))", 2);
    add_wkt(&m, "POLYGON((20.5 20.5,22 20.5,22 22,20.5 22,20.5 20.5))", 2);
    add_square(&m, 7, 7, 2, 3);
    add_square(&m, 8, 8, 2, 3);
    /* nine triangles around one point: 18 piece ends at one node, more
     * than a node's labels read (VSG_REF_MAX_DEGREE) */
    for (int k = 0; k < 9; k++) {
        char wkt[256];
        double a0 = 2 * M_PI * k / 9, a1 = 2 * M_PI * (k + 1) / 9;
        snprintf(wkt, sizeof wkt, "POLYGON((50 50,%.17g %.17g,%.17g %.17g,50 50))",
                 50 + cos(a0), 50 + sin(a0), 50 + cos(a1), 50 + sin(a1));
        add_wkt(&m, wkt, 4);
    }
    run_result rr;
    REQUIRE(run_stage(&m, 5, &rr));
    CHECK(rr.ok[0] == 0 && (rr.why[0] & VSG_COV_BAD_EMPTY));
    CHECK(rr.ok[1] == 0 && (rr.why[1] & VSG_COV_BAD_INPUT));
    CHECK(rr.ok[2] == 0 && (rr.why[2] & VSG_COV_BAD_INPUT));
    CHECK(rr.ok[3] == 1 && agrees(&m, &rr, 3));
    CHECK(rr.ok[4] == 0 && (rr.why[4] & VSG_REF_BAD_NODE));
    run_free(&rr);
    members_free(&m);
}

/* ---- random overlapping sets ----------------------------------------------------
 * A star-shaped polygon around (cx, cy): n vertices at jittered radii,
 * with a hole half the size on odd calls of the caller's choosing. */
static void add_blob(members *m, double cx, double cy, double r, int n, int hole, int64_t g)
{
    size_t cap = (size_t)(2 * n + 4) * 64 + 64, len = 0;
    char *wkt = malloc(cap);
    len += (size_t)snprintf(wkt + len, cap - len, "POLYGON((");
    double x0 = 0, y0 = 0;
    for (int k = 0; k < n; k++) {
        double t = 2 * M_PI * k / n, rr = r * (0.6 + 0.4 * rng01());
        double x = cx + rr * cos(t), y = cy + rr * sin(t);
        if (k == 0) {
            x0 = x;
            y0 = y;
        }
        len += (size_t)snprintf(wkt + len, cap - len, "%.17g %.17g,", x, y);
    }
    len += (size_t)snprintf(wkt + len, cap - len, "%.17g %.17g)", x0, y0);
    if (hole) {
        double h = 0.25 * r;
        len += (size_t)snprintf(wkt + len, cap - len,
                                ",(%.17g %.17g,%.17g %.17g,%.17g %.17g,%.17g %.17g,%.17g %.17g)",
                                cx - h, cy - h, cx - h, cy + h, cx + h, cy + h, cx + h, cy - h,
                                cx - h, cy - h);
    }
    snprintf(wkt + len, cap - len, ")");
    add_wkt(m, wkt, g);
    free(wkt);
}

/* Rectangles with corners on a coarse grid: many edges overlap along
 * others, many vertices fall on others' edges, many duplicates. Every
 * group's sit in the same place: groups must not see each other. */
static void add_grid_rect(members *m, int64_t g)
{
    double x = (double)(rng_u64() % 8), y = (double)(rng_u64() % 8);
    double w = 1 + (double)(rng_u64() % 4), h = 1 + (double)(rng_u64() % 4);
    char wkt[256];
    snprintf(wkt, sizeof wkt, "POLYGON((%g %g,%g %g,%g %g,%g %g,%g %g))", x, y, x + w, y, x + w,
             y + h, x, y + h, x, y);
    add_wkt(m, wkt, g);
}

static void random_overlapping_sets(void)
{
    int64_t accepted = 0, total = 0, wrong = 0;
    for (int round = 0; round < 16; round++) {
        members m = {0};
        int groups = 3 + round % 4;
        for (int g = 0; g < groups; g++) {
            double ox = 100.0 * g, oy = 50.0 * (round % 3);
            int n = 3 + (int)(rng_u64() % 6);
            for (int k = 0; k < n; k++) {
                if (round % 2)
                    add_blob(&m, ox + 6 * rng01(), oy + 6 * rng01(), 1 + 3 * rng01(),
                             5 + (int)(rng_u64() % 40), k % 3 == 1, g);
                else
                    add_grid_rect(&m, g);
            }
        }
        run_result rr;
        REQUIRE(run_stage(&m, groups, &rr));
        for (int64_t g = 0; g < groups; g++) {
            total++;
            if (!rr.ok[g]) {
                fprintf(stderr, "  round %d group %lld handed back: why %#x\n", round,
                        (long long)g, rr.why[g]);
                continue;
            }
            accepted++;
            wrong += !agrees(&m, &rr, g);
        }
        run_free(&rr);
        members_free(&m);
    }
    fprintf(stderr, "  random overlapping sets: %lld of %lld groups settled, %lld wrong\n",
            (long long)accepted, (long long)total, (long long)wrong);
    CHECK(wrong == 0);
    CHECK(accepted * 10 >= total * 9);   /* nearly all are settled here */
}

static void random_coverages_too(void)
{
    int64_t accepted = 0, total = 0, wrong = 0;
    for (int round = 0; round < 6; round++) {
        members m = {0};
        int groups = 2 + round % 4;
        random_coverage(10 + round, groups, round % 2 ? 0.1 : 0.0, &m);
        run_result rr;
        REQUIRE(run_stage(&m, groups, &rr));
        for (int64_t g = 0; g < groups; g++) {
            total++;
            accepted += rr.ok[g];
            wrong += rr.ok[g] && !agrees(&m, &rr, g);
        }
        run_free(&rr);
        members_free(&m);
    }
    fprintf(stderr, "  random coverages: %lld of %lld groups settled, %lld wrong\n",
            (long long)accepted, (long long)total, (long long)wrong);
    CHECK(wrong == 0);
    CHECK(accepted * 2 >= total);
}

/* ---- bounded work ---------------------------------------------------------------
 * One polygon of 10^6 vertices (a disc) under 200 small squares that
 * straddle its edge: no item of any step does work that grows with it. */
static void work_is_bounded(void)
{
    const int N = 1000000;
    members m = {0};
    GEOSCoordSequence *s = GEOSCoordSeq_create_r(ctx, N + 1, 2);
    for (int k = 0; k < N; k++) {
        double t = 2 * M_PI * k / N;
        GEOSCoordSeq_setXY_r(ctx, s, (unsigned)k, 1000 * cos(t), 1000 * sin(t));
    }
    GEOSCoordSeq_setXY_r(ctx, s, N, 1000, 0);
    add(&m, GEOSGeom_createPolygon_r(ctx, GEOSGeom_createLinearRing_r(ctx, s), NULL, 0), 0);
    for (int i = 0; i < 200; i++) {
        double t = 2 * M_PI * (i + 0.37) / 200;
        add_square(&m, 1000 * cos(t) - 3, 1000 * sin(t) - 3, 6, 0);
    }
    run_result rr;
    REQUIRE(run_stage(&m, 1, &rr));
    CHECK(rr.ok[0] == 1);
    CHECK(rr.ok[0] && n_polygons(rr.out[0]) == 1 && agrees(&m, &rr, 0));
    fprintf(stderr, "  largest item: %lld units\n", (long long)rr.max_work);
    CHECK(rr.max_work > 0 && rr.max_work <= 256);
    run_free(&rr);
    members_free(&m);
}

/* ---- the device gives the host's answer, bit for bit ------------------------------ */
static void device_matches_host(void)
{
    vsg_exec *gx = NULL, *hx = NULL;
    char why[256] = "";
    if (vsg_exec_create_gpu(NULL, &gx, why, sizeof why) != VSG_OK) {
        fprintf(stderr, "  skip: %s\n", why);
        return;
    }
    REQUIRE(vsg_exec_create_host(&hx) == VSG_OK);
    members m = {0};
    enum { G = 24 };
    for (int g = 0; g < G; g++)
        for (int k = 0; k < 6; k++)
            add_blob(&m, 100.0 * g + 6 * rng01(), 6 * rng01(), 1 + 3 * rng01(),
                     5 + (int)(rng_u64() % 40), k % 3 == 1, g);
    vsg_wkb_array in = {m.n, (const unsigned char *const *)m.wkb, m.size};
    vsg_columnar col, hout, gout;
    vsg_columnar_report rep;
    REQUIRE(vsg_columnar_from_wkb(&in, &col, &rep) == VSG_OK);
    vsg_col_view hv = vsg_columnar_view(&col);
    uint8_t hok[G], gok[G];
    uint32_t hwhy[G], gwhy[G];
    REQUIRE(vsg_stage_overlap_union(hx, &hv, m.group, G, &hout, hok, hwhy) == VSG_OK);
    REQUIRE(run_on_device(gx, vsg_stage_overlap_union, &col, m.group, G, &gout, gok, gwhy) ==
            VSG_OK);
    CHECK(!memcmp(hok, gok, G) && !memcmp(hwhy, gwhy, G * 4));
    CHECK(same_columnar(&hout, &gout));
    int64_t settled = 0;
    for (int g = 0; g < G; g++)
        settled += hok[g];
    CHECK(settled * 10 >= G * 9);
    fprintf(stderr, "  device: %lld of %d groups settled, identical to the host\n",
            (long long)settled, G);
    vsg_columnar_free(&gout);
    vsg_columnar_free(&hout);
    vsg_columnar_free(&col);
    members_free(&m);
    vsg_exec_destroy(hx);
    vsg_exec_destroy(gx);
}

int main(void)
{
    ctx = GEOS_init_r();
    RUN(settles_hand_cases);
    RUN(settles_long_runs_of_events);
    RUN(settles_runs_of_large_rings);
    RUN(hands_back);
    RUN(random_overlapping_sets);
    RUN(random_coverages_too);
    RUN(work_is_bounded);
    RUN(device_matches_host);
    /* the CPU engine's own backend (its own noding and nesting steps) */
    g_plain_host = 1;
    RUN(settles_hand_cases);
    RUN(settles_runs_of_large_rings);
    RUN(hands_back);
    RUN(random_overlapping_sets);
    RUN(random_coverages_too);
    GEOS_finish_r(ctx);
    return TEST_SUMMARY();
}
