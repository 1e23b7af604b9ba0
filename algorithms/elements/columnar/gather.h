/*
 * gather.h - per-element logic of the columnar gather stage
 * (stages/columnar/gather.c): a new columnar set whose geometry g is
 * geometry row[g] of source src[g], copied from columnar sets already on
 * the backend (the validity screen's decode of a layer, reused by the
 * group union instead of decoding and uploading the same rows again).
 *
 * In bounded items, level by level: a count per output geometry, part
 * and ring (each finds its source by a binary search over the offsets
 * made at the level above), scanned into the output's offsets by the
 * orchestrator; then one item per output coordinate. No item grows with
 * the size of a geometry.
 */
#ifndef VSG_ELEMENTS_COLUMNAR_GATHER_H
#define VSG_ELEMENTS_COLUMNAR_GATHER_H

#include "elements/col_view.h"
#include "elements/owner.h"

typedef struct {
    const vsg_col_view *src;   /* the sources (backend memory)           */
    const int8_t *const *turn; /* NULL, or per source NULL or one value a
                                * ring: negative where the ring is copied
                                * in reverse (backend memory)           */
    int32_t n_src;
    const int32_t *g_src;      /* output geometry g: its source           */
    const int64_t *g_row;      /*                    its geometry there   */
    int64_t n_geoms, n_parts, n_rings, n_coords;
    /* the output's offsets (scans of the counts) */
    const int64_t *goff;       /* n_geoms + 1 */
    const int64_t *poff;       /* n_parts + 1 */
    const int64_t *roff;       /* n_rings + 1 */
    /* per output part and ring: where it comes from */
    int64_t *p_from;           /* source part                            */
    int64_t *r_from;           /* source ring                            */
    int32_t *r_src;            /* the ring's source                       */
    int64_t *cnt;              /* the counts of the level being sized    */
    /* the output's own arrays */
    uint8_t *type, *flags;
    double *x, *y, *z;         /* z NULL: no source has Z                 */
} vsg_gather_ctx;

/* Output geometry g: its type and flags, and its part count. */
VSG_HD void vsg_gather_geom(const vsg_gather_ctx *c, int64_t g)
{
    const vsg_col_view *s = &c->src[c->g_src[g]];
    int64_t r = c->g_row[g];
    c->cnt[g] = s->geom_part[r + 1] - s->geom_part[r];
}

VSG_HD void vsg_gather_geom_fill(const vsg_gather_ctx *c, int64_t g)
{
    const vsg_col_view *s = &c->src[c->g_src[g]];
    int64_t r = c->g_row[g];
    c->type[g] = s->type[r];
    c->flags[g] = s->flags[r];
}

/* Output part p: its source part and its ring count. */
VSG_HD void vsg_gather_part(const vsg_gather_ctx *c, int64_t p)
{
    int64_t g = vsg_owner(c->goff, c->n_geoms, p);
    const vsg_col_view *s = &c->src[c->g_src[g]];
    int64_t sp = s->geom_part[c->g_row[g]] + (p - c->goff[g]);
    c->p_from[p] = sp;
    c->cnt[p] = s->part_ring[sp + 1] - s->part_ring[sp];
}

/* Output ring r: its source and source ring, and its coordinate count. */
VSG_HD void vsg_gather_ring(const vsg_gather_ctx *c, int64_t r)
{
    int64_t p = vsg_owner(c->poff, c->n_parts, r);
    int64_t g = vsg_owner(c->goff, c->n_geoms, p);
    int32_t k = c->g_src[g];
    const vsg_col_view *s = &c->src[k];
    int64_t sr = s->part_ring[c->p_from[p]] + (r - c->poff[p]);
    c->r_from[r] = sr;
    c->r_src[r] = k;
    c->cnt[r] = s->ring_coord[sr + 1] - s->ring_coord[sr];
}

/* Output coordinate i. */
VSG_HD void vsg_gather_coord(const vsg_gather_ctx *c, int64_t i)
{
    int64_t r = vsg_owner(c->roff, c->n_rings, i);
    int32_t k = c->r_src[r];
    const vsg_col_view *s = &c->src[k];
    int64_t sr = c->r_from[r], j = i - c->roff[r];
    if (c->turn && c->turn[k] && c->turn[k][sr] < 0)   /* reversed: a closed ring stays closed */
        j = c->roff[r + 1] - 1 - i;
    int64_t si = s->ring_coord[sr] + j;
    c->x[i] = s->x[si];
    c->y[i] = s->y[si];
    if (c->z)
        c->z[i] = s->z[si];
}

/* the steps, in order (the orchestrator scans cnt after the counting ones) */
enum {
    VSG_GATHER_GEOM = 0,    /* n_geoms: part counts              */
    VSG_GATHER_GEOM_FILL,   /* n_geoms: types and flags          */
    VSG_GATHER_PART,        /* n_parts: ring counts              */
    VSG_GATHER_RING,        /* n_rings: coordinate counts        */
    VSG_GATHER_COORD,       /* n_coords                          */
    VSG_GATHER_N_STEPS
};

/* One item of step s; returns its work (always bounded). */
VSG_HD int64_t vsg_gather_item(const vsg_gather_ctx *c, int s, int64_t i)
{
    switch (s) {
    case VSG_GATHER_GEOM: vsg_gather_geom(c, i); return 1;
    case VSG_GATHER_GEOM_FILL: vsg_gather_geom_fill(c, i); return 1;
    case VSG_GATHER_PART: vsg_gather_part(c, i); return 1;
    case VSG_GATHER_RING: vsg_gather_ring(c, i); return 1;
    case VSG_GATHER_COORD: vsg_gather_coord(c, i); return 1;
    default: return 0;
    }
}

#endif
