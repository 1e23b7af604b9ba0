/*
 * test_engine_strtree.c - the STR tree against brute force, the thread
 * pool's contract, and the Morton order used to chunk dissolve groups.
 */
#include <stdatomic.h>
#include <stdlib.h>

#include "vsg_test.h"
#include "engine_fixtures.h"
#include "index/strtree.h"
#include "parallel/pool.h"
#include "dissolve/chunking.h"

static int box_meets(const double *a, const double *b)
{
    return !(a[2] < b[0] || a[0] > b[2] || a[3] < b[1] || a[1] > b[3]);
}

static void random_box(double *b, double extent, double max_size)
{
    double x = fx_rand01() * extent, y = fx_rand01() * extent;
    b[0] = x;
    b[1] = y;
    b[2] = x + fx_rand01() * max_size;
    b[3] = y + fx_rand01() * max_size;
}

/* Query == brute force, ascending, for sizes around node boundaries and
 * with excluded entries. */
static void strtree_query_equals_brute_force(void)
{
    const size_t sizes[] = {0, 1, 2, 15, 16, 17, 255, 256, 257, 5000};
    fx_rand_state = 42;
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        size_t n = sizes[s];
        double *boxes = malloc((n + 1) * 4 * sizeof *boxes);
        unsigned char *incl = malloc(n + 1);
        for (size_t i = 0; i < n; i++) {
            random_box(boxes + 4 * i, 1000, i % 7 == 0 ? 0 : 30);   /* some points */
            incl[i] = (i % 11) != 3;
        }
        vsg_strtree *t = NULL;
        REQUIRE(vsg_strtree_build(boxes, incl, n, &t) == VSG_OK);
        size_t expect_size = 0;
        for (size_t i = 0; i < n; i++)
            expect_size += incl[i];
        CHECK(vsg_strtree_size(t) == expect_size);
        vsg_id_list got = {0};
        int all_ok = 1;
        for (int q = 0; q < 300; q++) {
            double qb[4];
            random_box(qb, 1000, q % 5 == 0 ? 0 : 120);
            if (vsg_strtree_query(t, qb, &got) != VSG_OK) {
                all_ok = 0;
                break;
            }
            size_t k = 0;
            for (size_t i = 0; i < n; i++) {
                if (!incl[i] || !box_meets(boxes + 4 * i, qb))
                    continue;
                if (k >= got.n || got.ids[k] != (int64_t)i)
                    all_ok = 0;
                k++;
            }
            if (k != got.n)
                all_ok = 0;
        }
        CHECK(all_ok);
        /* Touching boxes meet (closed boxes). */
        if (n > 0 && incl[0]) {
            double touch[4] = {boxes[2], boxes[3], boxes[2] + 5, boxes[3] + 5};
            REQUIRE(vsg_strtree_query(t, touch, &got) == VSG_OK);
            int found = 0;
            for (size_t k = 0; k < got.n; k++)
                found |= got.ids[k] == 0;
            CHECK(found);
        }
        vsg_id_list_free(&got);
        vsg_strtree_destroy(t);
        free(boxes);
        free(incl);
    }
}

/* Identical boxes (ties everywhere) still come back complete and sorted. */
static void strtree_handles_duplicates(void)
{
    size_t n = 1000;
    double *boxes = malloc(n * 4 * sizeof *boxes);
    for (size_t i = 0; i < n; i++) {
        boxes[4 * i] = boxes[4 * i + 1] = 1;
        boxes[4 * i + 2] = boxes[4 * i + 3] = 2;
    }
    vsg_strtree *t;
    REQUIRE(vsg_strtree_build(boxes, NULL, n, &t) == VSG_OK);
    vsg_id_list got = {0};
    double q[4] = {1.5, 1.5, 1.5, 1.5};
    REQUIRE(vsg_strtree_query(t, q, &got) == VSG_OK);
    CHECK(got.n == n);
    int sorted = 1;
    for (size_t k = 0; k < got.n; k++)
        sorted &= got.ids[k] == (int64_t)k;
    CHECK(sorted);
    double far[4] = {3, 3, 4, 4};
    REQUIRE(vsg_strtree_query(t, far, &got) == VSG_OK);
    CHECK(got.n == 0);
    vsg_id_list_free(&got);
    vsg_strtree_destroy(t);
    free(boxes);
}

typedef struct {
    _Atomic int *calls;
    _Atomic int bad_worker;
    int size;
} pool_probe;

static void probe_task(void *ctx, size_t task, int worker)
{
    pool_probe *p = ctx;
    atomic_fetch_add(&p->calls[task], 1);
    if (worker < 0 || worker >= p->size)
        atomic_store(&p->bad_worker, 1);
}

/* Every task runs exactly once per run, worker ids are in range, and the
 * pool survives many runs (including empty ones). */
static void pool_runs_every_task_once(void)
{
    const int sizes[] = {1, 2, 4, 7};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        vsg_pool *pool;
        REQUIRE(vsg_pool_create(sizes[s], &pool) == VSG_OK);
        CHECK(vsg_pool_size(pool) == sizes[s]);
        size_t n = 10007;
        _Atomic int *calls = calloc(n, sizeof *calls);
        pool_probe p = {calls, 0, sizes[s]};
        for (int run = 0; run < 20; run++) {
            size_t m = run % 5 == 0 ? 0 : (size_t)(run * 497) % n + 1;
            for (size_t i = 0; i < n; i++)
                atomic_store(&calls[i], 0);
            vsg_pool_run(pool, m, probe_task, &p);
            int ok = 1;
            for (size_t i = 0; i < n; i++)
                ok &= atomic_load(&calls[i]) == (i < m ? 1 : 0);
            CHECK(ok);
        }
        CHECK(!atomic_load(&p.bad_worker));
        free(calls);
        vsg_pool_destroy(pool);
    }
    vsg_pool *bad;
    CHECK(vsg_pool_create(0, &bad) == VSG_ERR_INVALID_ARG);
}

/* The Morton order keeps neighbours together: consecutive cells of a
 * sorted grid are close, and the order is a permutation. */
static void morton_sort_is_local_permutation(void)
{
    const int N = 64;
    size_t n = (size_t)N * N;
    double *boxes = malloc(n * 4 * sizeof *boxes);
    int64_t *members = malloc(n * sizeof *members);
    for (int y = 0; y < N; y++)
        for (int x = 0; x < N; x++) {
            size_t i = (size_t)y * N + x;
            double b[4] = {x, y, x + 1, y + 1};
            memcpy(boxes + 4 * i, b, sizeof b);
            members[i] = (int64_t)(n - 1 - i);   /* any starting order */
        }
    REQUIRE(vsg_morton_sort(members, n, boxes) == 0);
    char *seen = calloc(n, 1);
    int perm = 1;
    for (size_t k = 0; k < n; k++) {
        if (members[k] < 0 || (size_t)members[k] >= n || seen[members[k]])
            perm = 0;
        else
            seen[members[k]] = 1;
    }
    CHECK(perm);
    /* Every run of 32 (a dissolve chunk) spans a small area. */
    int compact = 1;
    for (size_t s = 0; s < n; s += 32) {
        double minx = 1e9, miny = 1e9, maxx = -1e9, maxy = -1e9;
        for (size_t k = s; k < s + 32; k++) {
            const double *b = boxes + 4 * members[k];
            minx = fmin(minx, b[0]);
            miny = fmin(miny, b[1]);
            maxx = fmax(maxx, b[2]);
            maxy = fmax(maxy, b[3]);
        }
        if ((maxx - minx) * (maxy - miny) > 64)
            compact = 0;
    }
    CHECK(compact);
    free(seen);
    free(members);
    free(boxes);
}

int main(void)
{
    RUN(strtree_query_equals_brute_force);
    RUN(strtree_handles_duplicates);
    RUN(pool_runs_every_task_once);
    RUN(morton_sort_is_local_permutation);
    return TEST_SUMMARY();
}
