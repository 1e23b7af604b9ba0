/*
 * filter_fixture.h - what the filter stage tests share: seeded random
 * numbers, a layer built as columnar and as GEOS geometries side by side,
 * shape generators and random layers. Test code only; each test program
 * includes it once.
 */
#ifndef VSG_TEST_FILTER_FIXTURE_H
#define VSG_TEST_FILTER_FIXTURE_H

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
static inline uint64_t rng_u64(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}
static inline double rng01(void) { return (double)(rng_u64() >> 11) / 9007199254740992.0; }
static inline int64_t rng_int(int64_t n) { return (int64_t)(rng_u64() % (uint64_t)n); }

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

static inline void *grow(void *p, int64_t n, size_t elem)
{
    return realloc(p, (size_t)(n + 1) * elem);
}

static inline void layer_init(layer *l)
{
    memset(l, 0, sizeof *l);
    l->gp = calloc(1, sizeof *l->gp);
    l->pr = calloc(1, sizeof *l->pr);
    l->rc = calloc(1, sizeof *l->rc);
    vsg_columnar_init(&l->col);
}

static inline void layer_free(layer *l)
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
static inline void ring(layer *l, const double *xy, int n)
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

static inline void part_end(layer *l)
{
    l->pr = grow(l->pr, l->np + 1, sizeof *l->pr);
    l->pr[++l->np] = l->nr;
    l->parts[l->nparts++] =
        GEOSGeom_createPolygon_r(ctx, l->rings[0], l->rings + 1, (unsigned)(l->nrings - 1));
    l->nrings = 0;
}

/* ends a geometry: multi != 0 makes a MultiPolygon of the parts */
static inline void geom_end(layer *l, int multi)
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

static inline void polygon(layer *l, const double *xy, int n)
{
    ring(l, xy, n);
    part_end(l);
    geom_end(l, 0);
}

/* a row without coordinates: null or empty */
static inline void geom_none(layer *l, int flag)
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
static inline vsg_col_view layer_view(layer *l)
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
static inline int star(double *xy, double cx, double cy, double rmin, double rmax, int n, int dup)
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

static inline void rect_xy(double *xy, double x0, double y0, double x1, double y1)
{
    double r[8] = {x0, y0, x1, y0, x1, y1, x0, y1};
    memcpy(xy, r, sizeof r);
}


/* ---- random layers ------------------------------------------------------------ */
/* kinds: 0 stars (some with repeated points), 1 integer rectangles (exact
 * touches), 2 stars with a hole, 3 multipolygons of two stars */
static inline void random_layer(layer *l, int n, double extent, double size, int kinds)
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


#endif
