/*
 * test_stage_candidates.c - the candidates stage (grid join) on the host backend:
 * equal to a brute-force box test and to the engine's STR tree; sorted,
 * unique; touching boxes, points, huge boxes; a huge box's probe split into
 * bounded items; the unsorted pairs are the same pairs, by row; a set
 * joined with itself above a gap.
 */
#include "filter/filter_fixture.h"

/* ---- candidates ----------------------------------------------------------------- */
static int boxes_meet(const double *a, const double *b)
{
    return a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];
}

/* The unsorted pairs: by row, and the same set as the sorted ones (n of
 * them), each once. */
static int check_unsorted_on(vsg_exec *x, const double *ba, int64_t na, const double *bb,
                             int64_t nb, int64_t n)
{
    vsg_pairs p;
    if (vsg_stage_candidates_unsorted(x, ba, na, bb, nb, &p) != VSG_OK)
        return 0;
    unsigned char *seen = calloc((size_t)(na * nb + 1), 1);
    int ok = seen != NULL && p.n == n;
    for (int64_t k = 0; ok && k < p.n; k++)
        ok = (k == 0 || p.a[k - 1] <= p.a[k]) && boxes_meet(ba + 4 * p.a[k], bb + 4 * p.b[k]) &&
             seen[p.a[k] * nb + p.b[k]]++ == 0;
    free(seen);
    vsg_exec_free(x, p.a);
    vsg_exec_free(x, p.b);
    return ok;
}

/* run the stage on a host backend (plain: the CPU engine's own, which
 * takes the one-pass join of candidates_host.c) and compare with brute
 * force; returns pairs */
static int64_t check_candidates_on(const double *ba, int64_t na, const double *bb, int64_t nb,
                                   int plain)
{
    vsg_exec *x = NULL;
    vsg_pairs p;
    if (vsg_exec_create_host(&x) != VSG_OK)
        return -1;
    if (plain)
        vsg_exec_set_host_plain(x);
    CHECK(vsg_exec_host_plain(x) == plain);
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
    CHECK(check_unsorted_on(x, ba, na, bb, nb, k));
    vsg_exec_destroy(x);
    return k;
}

/* both paths, the same pairs */
static int64_t check_candidates(const double *ba, int64_t na, const double *bb, int64_t nb)
{
    int64_t n = check_candidates_on(ba, na, bb, nb, 0);
    CHECK(check_candidates_on(ba, na, bb, nb, 1) == n);
    return n;
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

/* One box over the whole extent, a thin one across it (a ray) and a few
 * small ones, against 40,000 small boxes: the grid has ~80,000 cells, and
 * the device-shaped join cuts each (box, grid row) item into chunks of at
 * most VSG_GRID_CHUNK candidates, so no thread's work grows with the box:
 * at most a chunk's candidates and its item (counted by the work meter,
 * not timed); the pairs equal the brute-force ones. */
static void candidates_big_box_probe_is_split(void)
{
    const int64_t na = 8, nb = 40000;
    double *ba = malloc((size_t)na * 32), *bb = malloc((size_t)nb * 32);
    for (int64_t j = 0; j < nb; j++) {   /* a 200 x 200 lattice of 1 x 1 boxes */
        double x = (double)(j % 200) * 5, y = (double)(j / 200) * 5;
        bb[4 * j] = x;
        bb[4 * j + 1] = y;
        bb[4 * j + 2] = x + 1;
        bb[4 * j + 3] = y + 1;
    }
    const double a[8][4] = {{-1, -1, 1001, 1001}, {0, 500.5, 1000, 500.5},
                            {10, 10, 12, 12},     {500, 500, 510, 520},
                            {0, 0, 0, 0},         {999, 999, 2000, 2000},
                            {3, 3, 4, 4},         {-5, 250, 1005, 260}};
    memcpy(ba, a, sizeof a);
    vsg_exec *x = NULL;
    REQUIRE(vsg_exec_create_host(&x) == VSG_OK);
    vsg_pairs p;
    CHECK(vsg_stage_candidates(x, ba, na, bb, nb, &p) == VSG_OK);
    int64_t most = vsg_exec_max_work(x, "candidates");
    fprintf(stderr, "  big box: %lld pairs; largest chunk: %lld units\n", (long long)p.n,
            (long long)most);
    CHECK(most > 0 && most <= VSG_GRID_CHUNK + 1);
    CHECK(p.n >= nb);   /* the big box meets every b box */
    vsg_exec_free(x, p.a);
    vsg_exec_free(x, p.b);
    vsg_exec_destroy(x);
    CHECK(check_candidates(ba, na, bb, nb) == p.n);
    free(ba);
    free(bb);
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

/* One set joined with itself, pairs with j >= i + gap (and grouped, of
 * one group only: vsg_stage_candidates_grouped): on both host paths,
 * sorted and not, equal to the brute force (sorted: in (i, j) order;
 * unsorted: by row, the same set), each once. Boxes in runs, as a ring's
 * segments are, and some huge, some points, an inverted one; groups by
 * run, some boxes of a run in another group. */
static void candidates_above_equal_brute_force(void)
{
    const int64_t n = 1200;
    double *b = malloc((size_t)n * 32);
    double x = 500, y = 500;
    for (int64_t i = 0; i < n; i++) {
        double nx = x + (rng01() - 0.5) * 30, ny = y + (rng01() - 0.5) * 30;
        if (i % 50 == 0)   /* a new run elsewhere */
            nx = rng01() * 1000, ny = rng01() * 1000;
        b[4 * i] = fmin(x, nx);
        b[4 * i + 1] = fmin(y, ny);
        b[4 * i + 2] = fmax(x, nx);
        b[4 * i + 3] = fmax(y, ny);
        x = nx;
        y = ny;
        if (i % 97 == 0)
            random_box(b + 4 * i, 1000, i % 2 ? 0 : 700);
    }
    vsg_box_set_inverted(b + 4 * 7);
    int64_t *grp = malloc((size_t)n * sizeof *grp);
    for (int64_t i = 0; i < n; i++)
        grp[i] = i % 7 == 3 ? 5 : (i / 50) % 3;
    for (int grouped = 0; grouped < 2; grouped++)
    for (int plain = 0; plain < 2; plain++)
        for (int64_t gap = 1; gap <= 2; gap++)
            for (int sorted = 0; sorted < 2; sorted++) {
                vsg_exec *xe = NULL;
                vsg_pairs p;
                REQUIRE(vsg_exec_create_host(&xe) == VSG_OK);
                if (plain)
                    vsg_exec_set_host_plain(xe);
                const int64_t *g = grouped ? grp : NULL;
                REQUIRE(vsg_stage_candidates_grouped(xe, b, g, n, gap, sorted, &p) == VSG_OK);
                unsigned char *seen = calloc((size_t)(n * n), 1);
                int64_t want = 0, k = 0;
                int ok = 1;
                for (int64_t i = 0; i < n; i++)
                    for (int64_t j = i + gap; j < n; j++) {
                        if (!boxes_meet(b + 4 * i, b + 4 * j) || (g && g[i] != g[j]))
                            continue;
                        if (sorted && (k >= p.n || p.a[k] != i || p.b[k] != j))
                            ok = 0;
                        k++;
                        want++;
                    }
                for (int64_t q = 0; q < p.n; q++)
                    ok = ok && (q == 0 || p.a[q - 1] <= p.a[q]) && p.b[q] >= p.a[q] + gap &&
                         boxes_meet(b + 4 * p.a[q], b + 4 * p.b[q]) &&
                         (!g || g[p.a[q]] == g[p.b[q]]) &&
                         seen[p.a[q] * n + p.b[q]]++ == 0;
                CHECK(ok && p.n == want && want > n / 4);
                CHECK(vsg_stage_candidates_above(xe, b, n, 0, sorted, &p) ==
                      VSG_ERR_INVALID_ARG);
                free(seen);
                vsg_exec_free(xe, p.a);
                vsg_exec_free(xe, p.b);
                vsg_exec_destroy(xe);
            }
    free(grp);
    free(b);
}

int main(void)
{
    ctx = GEOS_init_r();
    RUN(candidates_equal_brute_force);
    RUN(candidates_touching_boxes);
    RUN(candidates_equal_strtree);
    RUN(candidates_big_box_probe_is_split);
    RUN(candidates_above_equal_brute_force);
    GEOS_finish_r(ctx);
    return TEST_SUMMARY();
}
