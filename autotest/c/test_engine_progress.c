/*
 * test_engine_progress.c - the dissolve progress callback
 * (vsg_engine_set_progress): called on the calling thread only, with a
 * non-decreasing count of finished groups that ends at n_groups; a 0 from
 * it stops the call with VSG_ERR_INTERRUPTED and an empty result; the
 * result with a callback is the result without one, byte for byte.
 */
#include <pthread.h>

#include "vsg_test.h"
#include "engine_fixtures.h"

typedef struct {
    pthread_t caller;
    int calls;
    int other_thread;     /* calls from another thread than the caller */
    int decreasing;       /* done went down, or total changed           */
    int64_t last_done, total;
    int stop_at_call;     /* 0: never stop */
} probe;

static int on_progress(int64_t done, int64_t total, void *data)
{
    probe *p = data;
    p->calls++;
    if (!pthread_equal(pthread_self(), p->caller))
        p->other_thread++;
    if (done < p->last_done || (p->total && total != p->total) || done > total)
        p->decreasing++;
    p->last_done = done;
    p->total = total;
    return p->stop_at_call == 0 || p->calls < p->stop_at_call;
}

/* Squares: n_groups columns of `rows` squares each, every other column
 * overlapping its squares (unary path), the others a coverage; a group of
 * many chunks takes the merge levels. */
static void make_input(fx_array *a, int64_t **group_of, int cols, int rows)
{
    *group_of = malloc((size_t)cols * rows * sizeof **group_of);
    size_t k = 0;
    for (int x = 0; x < cols; x++)
        for (int y = 0; y < rows; y++) {
            double grow = x % 2 ? 0.25 : 0.0;
            char wkt[256];
            snprintf(wkt, sizeof wkt, "POLYGON((%d %d, %g %d, %g %g, %d %g, %d %d))", 2 * x, y,
                     2 * x + 1 + grow, y, 2 * x + 1 + grow, y + 1 + grow, 2 * x, y + 1 + grow, 2 * x,
                     y);
            fx_push(a, wkt);
            (*group_of)[k++] = x;
        }
}

static void progress_ends_at_groups_on_caller_thread(void)
{
    const int C = 9, R = 100;   /* 100 squares: 4 chunks per group */
    fx_array a = {0};
    int64_t *group_of = NULL;
    make_input(&a, &group_of, C, R);
    for (int threads = 1; threads <= 4; threads += 3) {
        vsg_engine *plain = fx_engine(threads, VSG_INVALID_REPAIR, 0, 0, 0);
        vsg_engine *e = fx_engine(threads, VSG_INVALID_REPAIR, 0, 0, 0);
        REQUIRE(plain && e);
        probe p = {pthread_self(), 0, 0, 0, 0, 0, 0};
        vsg_engine_set_progress(e, on_progress, &p);
        vsg_result r0, r1;
        vsg_result_init(&r0);
        vsg_result_init(&r1);
        REQUIRE(vsg_dissolve(plain, fx_view(&a), group_of, C, &r0) == VSG_OK);
        REQUIRE(vsg_dissolve(e, fx_view(&a), group_of, C, &r1) == VSG_OK);
        CHECK(fx_results_equal(&r0, &r1));
        CHECK(p.calls >= 1 && p.calls <= C);   /* only when the count moved */
        CHECK(p.other_thread == 0);
        CHECK(p.decreasing == 0);
        CHECK(p.last_done == C && p.total == C);
        /* A second call counts again from zero. */
        probe q = {pthread_self(), 0, 0, 0, 0, 0, 0};
        vsg_engine_set_progress(e, on_progress, &q);
        vsg_result_clear(&r1);
        REQUIRE(vsg_dissolve(e, fx_view(&a), group_of, C, &r1) == VSG_OK);
        CHECK(q.last_done == C && q.decreasing == 0 && q.other_thread == 0);
        vsg_result_clear(&r0);
        vsg_result_clear(&r1);
        vsg_engine_destroy(plain);
        vsg_engine_destroy(e);
    }
    free(group_of);
    fx_array_free(&a);
}

static void zero_from_callback_interrupts(void)
{
    const int C = 9, R = 100;
    fx_array a = {0};
    int64_t *group_of = NULL;
    make_input(&a, &group_of, C, R);
    vsg_engine *e = fx_engine(2, VSG_INVALID_REPAIR, 0, 0, 0);
    REQUIRE(e);
    probe p = {pthread_self(), 0, 0, 0, 0, 0, 1};
    vsg_engine_set_progress(e, on_progress, &p);
    vsg_result r;
    vsg_result_init(&r);
    CHECK(vsg_dissolve(e, fx_view(&a), group_of, C, &r) == VSG_ERR_INTERRUPTED);
    CHECK(r.count == 0);
    CHECK(p.calls == 1);   /* never called again once it said stop */
    CHECK(strstr(vsg_engine_last_error(e), "interrupted") != NULL);
    CHECK(strcmp(vsg_status_name(VSG_ERR_INTERRUPTED), "VSG_ERR_INTERRUPTED") == 0);
    /* The engine is usable afterwards; NULL turns the callback off. */
    vsg_engine_set_progress(e, NULL, NULL);
    CHECK(vsg_dissolve(e, fx_view(&a), group_of, C, &r) == VSG_OK && r.count == (size_t)C);
    CHECK(p.calls == 1);
    vsg_result_clear(&r);
    vsg_engine_destroy(e);
    free(group_of);
    fx_array_free(&a);
}

int main(void)
{
    fx_init();
    RUN(progress_ends_at_groups_on_caller_thread);
    RUN(zero_from_callback_interrupts);
    fx_finish();
    return TEST_SUMMARY();
}
