/*
 * test_stage_bounds.c - the bounds stage on the host backend: equal to GEOS
 * envelopes, inverted for rows without coordinates.
 */
#include "filter/filter_fixture.h"

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


int main(void)
{
    ctx = GEOS_init_r();
    RUN(bounds_equal_geos_envelopes);
    GEOS_finish_r(ctx);
    return TEST_SUMMARY();
}
