/*
 * test_stage_classify.c - the classify stage (the chunked classify) on the host
 * backend: every class other than REFINE agrees with GEOS (ContainsProperly /
 * Disjoint), every class equals the per-pair reference, no launch item
 * grows with one geometry (counted); and, where a GPU backend opens, bounds,
 * candidates and classify on it give the host's results bit for bit
 * (otherwise "skip").
 */
#include "filter/filter_fixture.h"

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
    RUN(classify_degenerate_cases);
    RUN(classify_work_is_bounded);
    RUN(classify_tessellations);
    RUN(classify_agrees_with_geos_on_random_layers);
    RUN(gpu_equals_host);
    GEOS_finish_r(ctx);
    return TEST_SUMMARY();
}
