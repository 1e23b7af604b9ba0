/*
 * test_stage_coverage.c - the coverage union stage on the host backend
 * (the device runs the same element code): GEOS is the oracle.
 *
 *   - hand-made coverages: a grid into one square, a gap into a hole,
 *     squares touching at corners into separate polygons;
 *   - what must be handed back: overlaps, a T-junction, a member inside
 *     another, a shared edge in the same direction; each by the check that
 *     finds it, and, where the members' areas exceed their box, by the
 *     area test before the table, with no segment kept;
 *   - seeded random coverages (jittered grids, random group labels, random
 *     gaps): every group the stage accepts equals GEOS's union of its
 *     members (symmetric difference <= 1e-9 of the area) and is valid;
 *   - the rings' jumping over runs of consecutive segments (forward and
 *     backward, of every length) gives every segment of a cycle the
 *     leader and distance of a walk along next, and a broken chain's
 *     segments their smallest reachable segment and a bounded distance;
 *   - a group handed back for a chain that ends costs memory in the
 *     chain's length, not in its square;
 *   - the work of every launch item is bounded: a 10^6-vertex polygon
 *     costs no item more than a few hundred units (counted, not timed);
 *   - where a GPU backend opens, the device gives the host's output bit
 *     for bit (otherwise "skip").
 */
#include <math.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#include <stdlib.h>
#include <string.h>

#include <geos_c.h>

#include "vsg_test.h"
#include "union_test_util.h"
#include "columnar/columnar.h"
#include "elements/union/coverage.h"
#include "elements/union/coverage_steps.h"
#include "exec/exec.h"
#include "stages/stages.h"

static const char *const kStages[] = {"coverage_segments", "coverage_link", "coverage_noding",
                                      "coverage_rings", "coverage_nesting", "coverage_output",
                                      NULL};

static int run_stage(const members *m, int64_t n_groups, run_result *rr)
{
    return run_union(vsg_stage_coverage_union, kStages, m, n_groups, rr);
}

/* ---- the rings' pointer jumping over runs ---------------------------------------
 * The steps run item by item here as the orchestrator runs them
 * (stages/union/coverage.c), against a walk along next: lab is the
 * smallest segment reachable from each one, and, cut before the leader,
 * dist the steps to the cut. */
static void jump_rounds(vsg_cov_ctx *c, int s, int64_t **a, int64_t **a2)
{
    for (int r = 0; r < 64; r++) {   /* 2^64 > any length */
        for (int64_t i = 0; i < c->n_runs; i++)
            vsg_cov_item(c, s, i);
        int64_t *t = *a; *a = *a2; *a2 = t;
        t = c->nx; c->nx = c->nx2; c->nx2 = t;
    }
}

static void runs_give_the_walk(void)
{
    srand(7);
    for (int trial = 0; trial < 200; trial++) {
        int64_t n = 1 + rand() % 400;
        int64_t *next = malloc((size_t)n * sizeof *next), *perm = malloc((size_t)n * sizeof *perm);
        /* cycles and chains of runs: a random order of blocks of
         * consecutive segments, cut into rings */
        int64_t k = 0, nb = 0;
        int64_t *bs = malloc((size_t)(n + 1) * sizeof *bs);
        while (k < n) {
            bs[nb++] = k;
            k += 1 + (rand() % 4 == 0 ? rand() % 20 : 0);
        }
        bs[nb] = n;
        for (int64_t b = 0; b < nb; b++)
            perm[b] = b;
        for (int64_t b = nb - 1; b > 0; b--) {
            int64_t j = rand() % (b + 1), t = perm[b];
            perm[b] = perm[j];
            perm[j] = t;
        }
        /* each block walked forward or backward (a reversed ring's
         * segments, reversed in place) */
        int64_t *entry = malloc((size_t)nb * sizeof *entry), *exit_ = malloc((size_t)nb * sizeof *exit_);
        for (int64_t q = 0; q < nb; q++) {
            int64_t lo = bs[q], hi = bs[q + 1] - 1, fwd = rand() % 2;
            for (int64_t i = lo; i < hi; i++)
                if (fwd)
                    next[i] = i + 1;
                else
                    next[i + 1] = i;
            entry[q] = fwd ? lo : hi;
            exit_[q] = fwd ? hi : lo;
        }
        for (int64_t b = 0; b < nb;) {
            int64_t len = 1 + rand() % 6, chain = rand() % 5 == 0;
            if (b + len > nb)
                len = nb - b;
            for (int64_t q = b; q < b + len; q++) {
                int64_t nq = q + 1 < b + len ? q + 1 : b;
                next[exit_[perm[q]]] = chain && q + 1 == b + len ? -1 : entry[perm[nq]];
            }
            b += len;
        }
        free(entry);
        free(exit_);
        int64_t *arr[12];
        for (int a = 0; a < 12; a++)
            arr[a] = calloc((size_t)n + 1, sizeof(int64_t));
        vsg_cov_ctx c;
        memset(&c, 0, sizeof c);
        c.R.n = n;
        int64_t *group = calloc((size_t)n + 1, sizeof *group);   /* one group, not marked */
        uint32_t group_bad = 0;
        c.R.group = group;
        c.n_groups = 1;
        c.bad = &group_bad;
        c.next = next;
        c.lab = arr[0];
        c.dist = arr[1];
        c.is_head = arr[2];
        c.run_off = arr[3];
        c.run_head = arr[4];
        c.cnext = arr[5];
        c.rlab = arr[6];
        c.rlab2 = arr[7];
        c.rdist = arr[8];
        c.rdist2 = arr[9];
        c.nx = arr[10];
        c.nx2 = arr[11];
        int64_t changed = 0;
        c.changed = &changed;
        for (int64_t i = 0; i < n; i++)
            vsg_cov_item(&c, VSG_COV_RUN_HEAD, i);
        for (int64_t i = 0; i < n; i++)
            c.run_off[i + 1] = c.run_off[i] + c.is_head[i];
        c.n_runs = c.run_off[n];
        for (int64_t i = 0; i < n; i++)
            vsg_cov_item(&c, VSG_COV_RUN_INIT, i);
        for (int64_t r = 0; r < c.n_runs; r++)
            vsg_cov_item(&c, VSG_COV_RUN_LINK, r);
        jump_rounds(&c, VSG_COV_LABEL_ROUND, &c.rlab, &c.rlab2);
        for (int64_t i = 0; i < n; i++)
            vsg_cov_item(&c, VSG_COV_LABEL_EXPAND, i);
        for (int64_t r = 0; r < c.n_runs; r++)
            vsg_cov_item(&c, VSG_COV_CUT, r);
        jump_rounds(&c, VSG_COV_RANK_ROUND, &c.rdist, &c.rdist2);
        for (int64_t i = 0; i < n; i++)
            vsg_cov_item(&c, VSG_COV_DIST_EXPAND, i);
        int bad = 0;
        int64_t *lab = perm;   /* the walk's labels, then its distances */
        for (int64_t i = 0; i < n; i++) {
            lab[i] = i;
            for (int64_t j = next[i]; j >= 0 && j != i; j = next[j])
                lab[i] = j < lab[i] ? j : lab[i];
        }
        for (int64_t i = 0; i < n; i++) {
            int64_t dist = 0, cycle = 0;
            for (int64_t j = next[i], steps = 0; j >= 0 && steps < n && !cycle; j = next[j], steps++)
                cycle = j == i;
            for (int64_t j = i; cycle && next[j] != lab[j]; j = next[j])
                dist++;
            if (cycle)
                bad += c.lab[i] != lab[i] || c.dist[i] != dist;
            else   /* a broken chain (a bad group): bounded values */
                bad += c.lab[i] != lab[i] || c.dist[i] < 0 || c.dist[i] > 2 * n;
        }
        CHECK(bad == 0);
        free(group);
        for (int a = 0; a < 12; a++)
            free(arr[a]);
        free(next);
        free(perm);
        free(bs);
    }
}

/* ---- hand-made coverages ------------------------------------------------------ */
static void grid_into_one_square(void)
{
    members m = {0};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            add_square(&m, i, j, 1, 0);
    run_result rr;
    REQUIRE(run_stage(&m, 1, &rr));
    CHECK(rr.ok[0] == 1);
    CHECK(agrees(&m, &rr, 0));
    CHECK(n_polygons(rr.out[0]) == 1);
    run_free(&rr);
    members_free(&m);
}

static void gap_becomes_hole(void)
{
    members m = {0};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            if (i != 1 || j != 1)
                add_square(&m, i, j, 1, 0);
    /* a second group with a clockwise shell and a member given as a hole */
    add_wkt(&m, "POLYGON((10 0,10 4,14 4,14 0,10 0),(11 1,13 1,13 2,13 3,11 3,11 2,11 1))", 1);
    add_wkt(&m, "POLYGON((11 1,13 1,13 2,11 2,11 1))", 1);
    run_result rr;
    REQUIRE(run_stage(&m, 2, &rr));
    CHECK(rr.ok[0] == 1 && rr.ok[1] == 1);
    CHECK(agrees(&m, &rr, 0));
    CHECK(agrees(&m, &rr, 1));
    CHECK(rr.out[0] && GEOSGetNumInteriorRings_r(ctx, GEOSGetGeometryN_r(ctx, rr.out[0], 0)) == 1);
    run_free(&rr);
    members_free(&m);
}

/* A hole that touches the outline at one point: the 3 x 3 grid without its
 * centre and its top-right square. The interior-hugging rule makes one ring
 * through (2, 2) twice; the stage splits it into a shell and a hole. */
static void hole_touching_shell(void)
{
    members m = {0};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            if (!(i == 1 && j == 1) && !(i == 2 && j == 2))
                add_square(&m, i, j, 1, 0);
    run_result rr;
    REQUIRE(run_stage(&m, 1, &rr));
    CHECK(rr.ok[0] == 1);
    CHECK(agrees(&m, &rr, 0));
    CHECK(rr.out[0] && n_polygons(rr.out[0]) == 1 &&
          GEOSGetNumInteriorRings_r(ctx, GEOSGetGeometryN_r(ctx, rr.out[0], 0)) == 1);
    run_free(&rr);
    members_free(&m);
}

static void corners_touching(void)
{
    members m = {0};
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            add_square(&m, i, j, 1, (i + j) % 2);   /* a checkerboard of two groups */
    run_result rr;
    REQUIRE(run_stage(&m, 2, &rr));
    CHECK(rr.ok[0] == 1 && rr.ok[1] == 1);
    if (!rr.ok[0] || !rr.ok[1])
        fprintf(stderr, "  why %u %u\n", rr.why[0], rr.why[1]);
    CHECK(agrees(&m, &rr, 0));
    CHECK(agrees(&m, &rr, 1));
    CHECK(n_polygons(rr.out[0]) == 8);
    run_free(&rr);
    members_free(&m);
}

/* Each statement is one group that must be handed back, with its reason:
 * first by the check that finds it (the area test off), then as the stage
 * runs (on), where members whose areas exceed their box (the nested
 * square, the same square twice, the half inside the whole) are marked
 * VSG_COV_BAD_OVERLAP before the table and keep no segment, and the
 * others (their areas fit their box) still go to the check. */
static void handed_back(void)
{
    static const struct {
        const char *a, *b;
        uint32_t why;
        int area;   /* the areas exceed the box */
    } cases[] = {
        /* overlapping squares: their boundaries cross */
        {"POLYGON((0 0,2 0,2 2,0 2,0 0))", "POLYGON((1 1,3 1,3 3,1 3,1 1))", VSG_COV_BAD_NODING,
         0},
        /* a T-junction: a vertex on the other's edge, a node of three
         * segments the link cannot settle (the noding, which skips a
         * group already marked, would find it too) */
        {"POLYGON((0 -1,2 -1,2 0,0 0,0 -1))", "POLYGON((0 0,1 0,1 1,0 1,0 0))",
         VSG_COV_BAD_NODE, 0},
        /* a member inside another, touching nothing */
        {"POLYGON((0 0,10 0,10 10,0 10,0 0))", "POLYGON((4 4,6 4,6 6,4 6,4 4))",
         VSG_COV_BAD_NESTING, 1},
        /* the same square twice: its edges meet in the same direction */
        {"POLYGON((0 0,1 0,1 1,0 1,0 0))", "POLYGON((0 0,1 0,1 1,0 1,0 0))", VSG_COV_BAD_MATCH,
         1},
        /* a member inside another, sharing an edge in the same direction */
        {"POLYGON((0 0,4 0,4 4,0 4,0 0))", "POLYGON((0 0,4 0,4 2,0 2,0 0))", VSG_COV_BAD_MATCH,
         1},
    };
    for (int area = 0; area < 2; area++) {
        vsg_stage_coverage_set_area_test(area);
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
            members m = {0};
            add_wkt(&m, cases[c].a, 0);
            add_wkt(&m, cases[c].b, 0);
            add_square(&m, 100, 100, 1, 1);   /* a good group beside it */
            run_result rr;
            REQUIRE(run_stage(&m, 2, &rr));
            int marked = area && cases[c].area;
            uint32_t want_why = marked ? VSG_COV_BAD_OVERLAP : cases[c].why;
            CHECK(rr.ok[0] == 0);
            CHECK(marked ? rr.why[0] == VSG_COV_BAD_OVERLAP : (rr.why[0] & want_why) != 0);
            if (rr.ok[0] || !(rr.why[0] & want_why))
                fprintf(stderr, "  case %zu, area test %d: ok %d why %u\n", c, area, rr.ok[0],
                        rr.why[0]);
            CHECK(rr.ok[1] == 1 && agrees(&m, &rr, 1));
            /* a group marked before its rings (all but the nested one, which
             * only the nesting finds) gets none: the good group's square is
             * the one ring built; one marked before the table keeps no
             * segment (the good square's four are R) */
            int64_t want = cases[c].why == VSG_COV_BAD_NESTING && !marked ? 3 : 1;
            CHECK(rr.rings == want);
            if (rr.rings != want)
                fprintf(stderr, "  case %zu, area test %d: %lld rings built, %lld wanted\n", c,
                        area, (long long)rr.rings, (long long)want);
            if (marked)
                CHECK(rr.r_segments == 4);
            run_free(&rr);
            members_free(&m);
        }
    }
    vsg_stage_coverage_set_area_test(1);
}

/* Three members on one edge (a triangle inside the right square, on
 * their shared side): the key of three segments is no coverage, whatever
 * order the table's inserts ran in, and the group goes back for it even
 * though each pair of the three would cancel or match alone. Twice, the
 * members in both orders. */
static void three_on_one_edge(void)
{
    static const char *const wkt[] = {
        "POLYGON((0 0,1 0,1 1,0 1,0 0))",
        "POLYGON((1 0,2 0,2 1,1 1,1 0))",
        "POLYGON((1 0,1.5 0.5,1 1,1 0))",
    };
    /* the areas (2.25) exceed the box (2): the table sees it with the area
     * test off */
    vsg_stage_coverage_set_area_test(0);
    for (int order = 0; order < 2; order++) {
        members m = {0};
        for (int i = 0; i < 3; i++)
            add_wkt(&m, wkt[order ? 2 - i : i], 0);
        add_square(&m, 100, 100, 1, 1);
        run_result rr;
        REQUIRE(run_stage(&m, 2, &rr));
        CHECK(rr.ok[0] == 0 && (rr.why[0] & VSG_COV_BAD_MATCH) != 0);
        if (rr.ok[0] || !(rr.why[0] & VSG_COV_BAD_MATCH))
            fprintf(stderr, "  order %d: ok %d why %u\n", order, rr.ok[0], rr.why[0]);
        CHECK(rr.ok[1] == 1 && agrees(&m, &rr, 1));
        run_free(&rr);
        members_free(&m);
    }
    vsg_stage_coverage_set_area_test(1);
}

/* Nulls, empties and non-polygons: an empty group is handed back, a
 * group with a line is handed back, nulls contribute nothing. */
static void odd_members(void)
{
    members m = {0};
    add_wkt(&m, "POLYGON EMPTY", 0);
    add_wkt(&m, "LINESTRING(0 0,1 1)", 1);
    add_square(&m, 5, 5, 1, 1);
    add_square(&m, 7, 7, 1, 2);
    add_wkt(&m, "POLYGON EMPTY", 2);
    run_result rr;
    REQUIRE(run_stage(&m, 3, &rr));
    CHECK(rr.ok[0] == 0 && (rr.why[0] & VSG_COV_BAD_EMPTY));
    CHECK(rr.ok[1] == 0 && (rr.why[1] & VSG_COV_BAD_INPUT));
    CHECK(rr.ok[2] == 1 && agrees(&m, &rr, 2));
    run_free(&rr);
    members_free(&m);
}

static void random_coverages(void)
{
    int64_t accepted = 0, total = 0, wrong = 0;
    for (int round = 0; round < 12; round++) {
        members m = {0};
        int groups = 2 + round % 5;
        random_coverage(12 + round, groups, round % 3 == 0 ? 0.1 : 0.0, &m);
        run_result rr;
        REQUIRE(run_stage(&m, groups, &rr));
        for (int64_t g = 0; g < groups; g++) {
            total++;
            if (!rr.ok[g])
                continue;
            accepted++;
            wrong += !agrees(&m, &rr, g);
        }
        run_free(&rr);
        members_free(&m);
    }
    fprintf(stderr, "  random coverages: %lld of %lld groups accepted, %lld wrong\n",
            (long long)accepted, (long long)total, (long long)wrong);
    CHECK(wrong == 0);
    CHECK(accepted * 2 >= total);   /* most are settled here, not handed back */
}

/* Blocks of whole 3x3 cells per group: no corner-only contacts, so every
 * group is accepted. */
static void block_coverage_all_accepted(void)
{
    members m = {0};
    for (int i = 0; i < 12; i++)
        for (int j = 0; j < 12; j++)
            add_square(&m, i, j, 1, (i / 3) * 4 + j / 3);
    run_result rr;
    REQUIRE(run_stage(&m, 16, &rr));
    int all = 1;
    for (int64_t g = 0; g < 16; g++)
        all &= rr.ok[g] && agrees(&m, &rr, g);
    CHECK(all);
    run_free(&rr);
    members_free(&m);
}

/* ---- bounded work ---------------------------------------------------------------
 * One polygon of 10^6 vertices (a circle, split in two members along a
 * diameter so that the shared edge cancels) beside small squares: no item
 * of any step does work that grows with it. */
static void work_is_bounded(void)
{
    const int N = 1000000;
    members m = {0};
    GEOSCoordSequence *s1 = GEOSCoordSeq_create_r(ctx, N / 2 + 2, 2);
    GEOSCoordSequence *s2 = GEOSCoordSeq_create_r(ctx, N / 2 + 2, 2);
    for (int k = 0; k <= N / 2; k++) {
        double t = M_PI * k / (N / 2), c = cos(t), s = sin(t);
        if (k == 0 || k == N / 2) {   /* the diameter's ends, exactly */
            c = k == 0 ? 1 : -1;
            s = 0;
        }
        GEOSCoordSeq_setXY_r(ctx, s1, (unsigned)k, 1000 * c, 1000 * s);
        GEOSCoordSeq_setXY_r(ctx, s2, (unsigned)k, -1000 * c, -1000 * s);
    }
    GEOSCoordSeq_setXY_r(ctx, s1, N / 2 + 1, 1000, 0);
    GEOSCoordSeq_setXY_r(ctx, s2, N / 2 + 1, -1000, 0);
    /* both halves end on the diameter's ends: the closing edges cancel */
    add(&m, GEOSGeom_createPolygon_r(ctx, GEOSGeom_createLinearRing_r(ctx, s1), NULL, 0), 0);
    add(&m, GEOSGeom_createPolygon_r(ctx, GEOSGeom_createLinearRing_r(ctx, s2), NULL, 0), 0);
    for (int i = 0; i < 100; i++)
        add_square(&m, 2000 + 2 * i, 0, 1, 1 + i % 3);
    run_result rr;
    REQUIRE(run_stage(&m, 4, &rr));
    CHECK(rr.ok[0] == 1);
    CHECK(rr.ok[0] && n_polygons(rr.out[0]) == 1);
    if (rr.ok[0]) {
        double a = 0;
        GEOSArea_r(ctx, rr.out[0], &a);
        CHECK(fabs(a - M_PI * 1e6) < 1.0);   /* the whole disc, within its polygon error */
    }
    fprintf(stderr, "  largest item: %lld units\n", (long long)rr.max_work);
    CHECK(rr.max_work > 0 && rr.max_work <= 256);
    run_free(&rr);
    members_free(&m);
}

/* A member that shares an edge in the same direction with another of its
 * group (the two overlap) leaves the rest of its ring a chain that ends:
 * the group is handed back, and its chain costs memory in its length, not
 * in the square of it (every segment of a chain that runs forward is the
 * smallest of what it reaches, as a ring's leader is). */
static void broken_chain_is_bounded(void)
{
    const int K = 4000;
    members m = {0};
    GEOSCoordSequence *s = GEOSCoordSeq_create_r(ctx, K + 1, 2);
    for (int k = 0; k < K; k++) {   /* counter-clockwise */
        double t = 2 * M_PI * k / K;
        GEOSCoordSeq_setXY_r(ctx, s, (unsigned)k, 1000 * cos(t), 1000 * sin(t));
    }
    GEOSCoordSeq_setXY_r(ctx, s, K, 1000, 0);
    add(&m, GEOSGeom_createPolygon_r(ctx, GEOSGeom_createLinearRing_r(ctx, s), NULL, 0), 0);
    double x1 = 1000 * cos(2 * M_PI / K), y1 = 1000 * sin(2 * M_PI / K);
    char wkt[256];   /* its first edge again, on the same side: inside it */
    snprintf(wkt, sizeof wkt, "POLYGON ((1000 0, %.17g %.17g, 0 0, 1000 0))", x1, y1);
    add_wkt(&m, wkt, 0);
    add_square(&m, 2000, 0, 1, 1);
    run_result rr;
    REQUIRE(run_stage(&m, 2, &rr));
    CHECK(rr.ok[0] == 0 && rr.why[0] != 0);
    CHECK(rr.ok[1] == 1 && agrees(&m, &rr, 1));
    fprintf(stderr, "  pool peak: %lld bytes\n", (long long)rr.peak_bytes);
    /* about 200 bytes a coordinate; the square of K would be K^2 / 2 = 8e6
     * coordinates of rings, some 200 MB */
    CHECK(rr.peak_bytes < (int64_t)K * 2000);
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
    int groups = 5 + 16;
    random_coverage(60, 5, 0.05, &m);
    /* an overlap with the grid's cells: group 0 handed back */
    add_wkt(&m, "POLYGON((1000.5 2000.5,1002.5 2000.5,1002.5 2002.5,1000.5 2002.5,1000.5 2000.5))",
            0);
    /* 16 groups of whole 3 x 3 blocks of squares: all settled */
    for (int i = 0; i < 12; i++)
        for (int j = 0; j < 12; j++)
            add_square(&m, 5000 + i, j, 1, 5 + (i / 3) * 4 + j / 3);
    vsg_wkb_array in = {m.n, (const unsigned char *const *)m.wkb, m.size};
    vsg_columnar col, hout, gout;
    vsg_columnar_report rep;
    REQUIRE(vsg_columnar_from_wkb(&in, &col, &rep) == VSG_OK);
    vsg_col_view hv = vsg_columnar_view(&col);
    uint8_t hok[32], gok[32];
    uint32_t hwhy[32], gwhy[32];
    REQUIRE(vsg_stage_coverage_union(hx, &hv, m.group, groups, &hout, hok, hwhy) == VSG_OK);
    REQUIRE(run_on_device(gx, vsg_stage_coverage_union, &col, m.group, groups, &gout, gok,
                          gwhy) == VSG_OK);
    CHECK(hok[0] == 0 && hwhy[0] != 0);
    for (int g = 5; g < groups; g++)
        CHECK(hok[g] == 1);
    CHECK(!memcmp(hok, gok, (size_t)groups) && !memcmp(hwhy, gwhy, (size_t)groups * 4));
    CHECK(same_columnar(&hout, &gout));
    int64_t settled = 0;
    for (int g = 0; g < groups; g++)
        settled += hok[g];
    fprintf(stderr, "  device: %lld of %d groups settled, identical to the host\n",
            (long long)settled, groups);
    vsg_columnar_free(&gout);
    vsg_columnar_free(&hout);
    vsg_columnar_free(&col);
    members_free(&m);
    vsg_exec_destroy(hx);
    vsg_exec_destroy(gx);
}

/* The tests whose answers do not depend on the backend's shape. */
static void answers(void)
{
    RUN(grid_into_one_square);
    RUN(gap_becomes_hole);
    RUN(corners_touching);
    RUN(hole_touching_shell);
    RUN(handed_back);
    RUN(three_on_one_edge);
    RUN(odd_members);
    RUN(block_coverage_all_accepted);
    RUN(random_coverages);
}

int main(void)
{
    ctx = GEOS_init_r();
    answers();
    RUN(runs_give_the_walk);
    RUN(work_is_bounded);
    RUN(broken_chain_is_bounded);
    RUN(device_matches_host);
    /* the CPU engine's own backend: the same answers through its own
     * noding and nesting steps (its items are not bounded: one core) */
    g_plain_host = 1;
    answers();
    GEOS_finish_r(ctx);
    return TEST_SUMMARY();
}
