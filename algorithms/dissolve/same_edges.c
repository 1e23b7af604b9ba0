/*
 * same_edges.c - see same_edges.h. The rings' edges of each geometry
 * (GEOS coordinate sequences), each written with its smaller endpoint
 * first, sorted, reduced to those met an odd number of times, compared.
 */
#include "dissolve/same_edges.h"

#include <stdlib.h>
#include <string.h>

#include "core/fault.h"

typedef struct {
    double x0, y0, x1, y1;
} edge;

typedef struct {
    edge *e;
    size_t n, cap;
    int bad;   /* not polygonal, or GEOS failed */
    int nomem;
} edges;

static int edge_cmp(const void *pa, const void *pb)
{
    const edge *a = pa, *b = pb;
    if (a->x0 != b->x0)
        return a->x0 < b->x0 ? -1 : 1;
    if (a->y0 != b->y0)
        return a->y0 < b->y0 ? -1 : 1;
    if (a->x1 != b->x1)
        return a->x1 < b->x1 ? -1 : 1;
    if (a->y1 != b->y1)
        return a->y1 < b->y1 ? -1 : 1;
    return 0;
}

static void add_ring(GEOSContextHandle_t ctx, const GEOSGeometry *ring, edges *out)
{
    const GEOSCoordSequence *cs = ring ? GEOSGeom_getCoordSeq_r(ctx, ring) : NULL;
    unsigned int n = 0;
    if (!cs || !GEOSCoordSeq_getSize_r(ctx, cs, &n)) {
        out->bad = 1;
        return;
    }
    if (out->n + n > out->cap) {
        size_t cap = 2 * (out->n + n) + 16;
        edge *e = vsg_realloc(out->e, cap * sizeof *e);
        if (!e) {
            out->nomem = 1;
            return;
        }
        out->e = e;
        out->cap = cap;
    }
    double ax = 0, ay = 0, bx, by;
    for (unsigned int k = 0; k < n; k++, ax = bx, ay = by) {
        if (!GEOSCoordSeq_getXY_r(ctx, cs, k, &bx, &by)) {
            out->bad = 1;
            return;
        }
        if (k == 0 || (ax == bx && ay == by))
            continue;
        int swap = bx < ax || (bx == ax && by < ay);
        out->e[out->n++] = swap ? (edge){bx, by, ax, ay} : (edge){ax, ay, bx, by};
    }
}

static void add_polygon(GEOSContextHandle_t ctx, const GEOSGeometry *p, edges *out)
{
    add_ring(ctx, GEOSGetExteriorRing_r(ctx, p), out);
    int holes = GEOSGetNumInteriorRings_r(ctx, p);
    for (int h = 0; h < holes && !out->bad && !out->nomem; h++)
        add_ring(ctx, GEOSGetInteriorRingN_r(ctx, p, h), out);
}

/* The boundary edges of g, sorted: those met an odd number of times (an
 * edge walked there and back, a spike, cancels as in the coverage
 * union), one copy each. */
static void boundary_edges(GEOSContextHandle_t ctx, const GEOSGeometry *g, edges *out)
{
    int type = GEOSGeomTypeId_r(ctx, g);
    if (type == GEOS_POLYGON) {
        add_polygon(ctx, g, out);
    } else if (type == GEOS_MULTIPOLYGON) {
        int n = GEOSGetNumGeometries_r(ctx, g);
        for (int i = 0; i < n && !out->bad && !out->nomem; i++)
            add_polygon(ctx, GEOSGetGeometryN_r(ctx, g, i), out);
    } else {
        out->bad = 1;
    }
    if (out->bad || out->nomem)
        return;
    qsort(out->e, out->n, sizeof *out->e, edge_cmp);
    size_t m = 0;
    for (size_t i = 0, j; i < out->n; i = j) {
        for (j = i + 1; j < out->n && edge_cmp(&out->e[i], &out->e[j]) == 0; j++)
            ;
        if ((j - i) % 2)
            out->e[m++] = out->e[i];
    }
    out->n = m;
}

vsg_status vsg_same_edges(GEOSContextHandle_t ctx, const GEOSGeometry *a, const GEOSGeometry *b,
                          int *same)
{
    edges ea = {0}, eb = {0};
    boundary_edges(ctx, a, &ea);
    if (!ea.bad && !ea.nomem)
        boundary_edges(ctx, b, &eb);
    int nomem = ea.nomem || eb.nomem;
    *same = !nomem && !ea.bad && !eb.bad && ea.n == eb.n && ea.n > 0 &&
            memcmp(ea.e, eb.e, ea.n * sizeof *ea.e) == 0;
    free(ea.e);
    free(eb.e);
    return nomem ? VSG_ERR_NOMEM : VSG_OK;
}
