/*
 * rect_clip_poly.h - one polygon clipped by the rectangle (docs/rect-clip.md
 * has the algorithm with figures in words; this is its code).
 *
 * Rings are walked with the shell counter-clockwise and holes clockwise
 * (reversed on the fly where stored the other way), so the polygon's
 * interior is always on the left. A ring is cut into chains: maximal runs
 * in the open rectangle, from an entry point on the boundary to an exit
 * point on the boundary (a vertex on the boundary ends one chain and
 * starts the next). Chain ends are sorted along the boundary
 * counter-clockwise; ends at the same point are ordered by the angle of
 * the chain leaving it, from the side the walk arrives at to the side it
 * leaves by (exact). An exit is then followed, walking the boundary
 * counter-clockwise, by the next end in that order, which must be an
 * entry; following exit -> next entry -> its chain -> ... closes each
 * output shell. This gives spikes touching the boundary, V-shaped notches
 * touching it, edges along it and re-entries exactly; an output ring that
 * would pass twice through one boundary point (a hole touching the
 * boundary from inside, or a shell and a hole meeting on the boundary) is
 * detected and the row goes to the CPU engine.
 * Rings with no chain: strictly inside (kept; holes go to the output shell
 * that contains them) or not meeting the open rectangle (then the
 * rectangle's centre decides whether the rectangle is covered).
 *
 * Scratch per geometry (sized by the prepare pass): ends[2c] is the entry
 * and ends[2c+1] the exit of chain c; ord (sorted order), rank (its
 * inverse), aux (exit slot: next chain; entry slot: output ring label);
 * ring_cls per input ring (a class, or for a hole kept whole the output
 * polygon it belongs to).
 */
#ifndef VSG_ELEMENTS_RECT_CLIP_POLY_H
#define VSG_ELEMENTS_RECT_CLIP_POLY_H

#include "elements/col_view.h"
#include "elements/rect_clip/out.h"

typedef struct {
    double px, py;          /* the point on the boundary                     */
    double key;             /* position along its side                      */
    double ux, uy, vx, vy;  /* the chain leaves the point towards v - u      */
    int64_t ring;           /* input ring (global index)                     */
    int64_t seg;            /* entry: first segment; exit: last (oriented)   */
    int32_t side;
    int32_t rev;            /* ring walked against its storage order         */
} rc_end;

/* ring_cls values (>= 0: an interior hole's output polygon) */
enum {
    RC_RING_CHAINED = -1,   /* has chains                                   */
    RC_RING_OUTSIDE = -2,   /* no chain, does not meet the open rectangle   */
    RC_RING_INTERIOR = -3,  /* strictly inside                              */
    RC_PART_NONE = -4,      /* (shell slot, no chains) the clip is empty     */
    RC_PART_RECT = -5,      /* (shell slot, no chains) the rectangle itself  */
    RC_PART_ASIS = -6       /* (shell slot, no chains) the polygon itself    */
};

typedef struct {
    const vsg_col_view *v;
    const double *r;
    rc_end *ends;           /* this geometry's scratch                       */
    int32_t *ord, *rank, *aux;
    int64_t n_ends;         /* scratch capacity for this geometry           */
    int32_t *ring_cls;      /* global, one per input ring                   */
} rc_poly_ctx;

/* A ring walked in a chosen direction: vertex i in [0, n). */
typedef struct {
    const double *x, *y;
    int64_t c0, n;
    int rev;
} rc_ring;

VSG_HD int64_t rc_vi(const rc_ring *R, int64_t i)
{
    i %= R->n;
    return R->rev ? R->c0 + (R->n - i) : R->c0 + i;
}

/* Twice the signed area of ring r as stored (about its first vertex). */
VSG_HD double rc_ring_area2(const vsg_col_view *v, int64_t r)
{
    int64_t c0 = v->ring_coord[r], c1 = v->ring_coord[r + 1];
    double fx = v->x[c0], fy = v->y[c0], a = 0.0;
    for (int64_t k = c0 + 1; k + 1 < c1; k++)
        a += (v->x[k] - fx) * (v->y[k + 1] - fy) - (v->x[k + 1] - fx) * (v->y[k] - fy);
    return a;
}

/* Sets up ring r walked counter-clockwise (ccw = 1) or clockwise; 0 for
 * a ring the kernel does not take (open, too short, no area). */
VSG_HD int rc_ring_open(const vsg_col_view *v, int64_t r, int ccw, int orient, rc_ring *R)
{
    R->x = v->x;
    R->y = v->y;
    R->c0 = v->ring_coord[r];
    R->n = v->ring_coord[r + 1] - R->c0 - 1;
    R->rev = 0;
    if (R->n < 3 || v->x[R->c0] != v->x[R->c0 + R->n] || v->y[R->c0] != v->y[R->c0 + R->n])
        return 0;
    if (orient) {
        double a = rc_ring_area2(v, r);
        if (a == 0.0)
            return 0;
        R->rev = (a > 0.0) != (ccw != 0);
    }
    return 1;
}

/* The chains of ring R (global index ring): their number; with ends != 0,
 * the ends of the first `cap` chains are written from ends[0]. Counting
 * needs no orientation: a ring walked backwards has the same chains. */
VSG_HD int64_t rc_ring_chains(const double *r, const rc_ring *R, int64_t ring, rc_end *ends,
                              int64_t cap)
{
    int64_t n = R->n, nc = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t ia = rc_vi(R, i), ib = rc_vi(R, i + 1);
        double ax = R->x[ia], ay = R->y[ia], bx = R->x[ib], by = R->y[ib];
        if (rc_where(r, ax, ay) == RC_IN || !rc_seg_inside(r, ax, ay, bx, by))
            continue;
        /* an entry at segment i; the chain runs while vertices are inside */
        int64_t j = i;
        while (rc_where(r, R->x[rc_vi(R, j + 1)], R->y[rc_vi(R, j + 1)]) == RC_IN)
            j = (j + 1) % n;
        int64_t ja = rc_vi(R, j), jb = rc_vi(R, j + 1);
        double ex, ey, xx, xy;
        rc_cross_point(r, ax, ay, bx, by, 0, &ex, &ey);
        rc_cross_point(r, R->x[ja], R->y[ja], R->x[jb], R->y[jb], 1, &xx, &xy);
        if (j == i && rc_same_side(r, ex, ey, xx, xy))
            continue;   /* rounding made a piece along a side: not inside */
        if (ends && nc < cap) {
            rc_end *e = &ends[2 * nc], *x = &ends[2 * nc + 1];
            e->px = ex; e->py = ey;
            e->ux = ax; e->uy = ay; e->vx = bx; e->vy = by;
            x->px = xx; x->py = xy;
            x->ux = R->x[jb]; x->uy = R->y[jb]; x->vx = R->x[ja]; x->vy = R->y[ja];
            e->ring = x->ring = ring;
            e->seg = i;
            x->seg = j;
            e->rev = x->rev = R->rev;
            rc_perim(r, ex, ey, &e->side, &e->key);
            rc_perim(r, xx, xy, &x->side, &x->key);
        }
        nc++;
    }
    return nc;
}

/* Order of chain ends along the boundary: < 0 when a comes first, 0 for a
 * tie the kernel cannot order (two chains leaving a point together). */
VSG_HD int rc_end_cmp(const rc_end *a, const rc_end *b)
{
    if (a->side != b->side)
        return a->side < b->side ? -1 : 1;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    /* same point: the ray turned furthest from the side's direction first */
    return -rc_det_sign(b->ux, b->uy, b->vx, b->vy, a->ux, a->uy, a->vx, a->vy);
}

VSG_HD int rc_same_pos(const rc_end *a, const rc_end *b)
{
    return a->side == b->side && a->key == b->key;
}

/* Heap sort of ord[0, m) by rc_end_cmp (no allocation, O(m log m)). */
VSG_HD void rc_sort_ends(const rc_end *ends, int32_t *ord, int64_t m)
{
    for (int64_t k = 0; k < m; k++)
        ord[k] = (int32_t)k;
    for (int64_t pass = 0; pass < 2; pass++) {
        int64_t end = m;
        int64_t start = pass == 0 ? m / 2 : m - 1;
        for (;;) {
            int64_t root;
            if (pass == 0) {
                if (start == 0)
                    break;
                root = --start;
            } else {
                if (start <= 0)
                    break;
                int32_t t = ord[0]; ord[0] = ord[start]; ord[start] = t;
                end = start--;
                root = 0;
            }
            for (;;) {   /* sift down in [0, end) */
                int64_t c = 2 * root + 1;
                if (c >= end)
                    break;
                if (c + 1 < end && rc_end_cmp(&ends[ord[c]], &ends[ord[c + 1]]) < 0)
                    c++;
                if (rc_end_cmp(&ends[ord[root]], &ends[ord[c]]) >= 0)
                    break;
                int32_t t = ord[root]; ord[root] = ord[c]; ord[c] = t;
                root = c;
            }
        }
    }
}

/* Links exits to entries and labels the output rings; 0 on a case the
 * kernel leaves to the CPU engine. Returns the number of output rings in
 * *n_cyc. */
VSG_HD int rc_link(rc_poly_ctx *c, int64_t m, int32_t *n_cyc)
{
    const rc_end *E = c->ends;
    rc_sort_ends(E, c->ord, m);
    for (int64_t q = 0; q + 1 < m; q++)
        if (rc_end_cmp(&E[c->ord[q]], &E[c->ord[q + 1]]) == 0)
            return 0;
    for (int64_t q = 0; q < m; q++)
        c->rank[c->ord[q]] = (int32_t)q;
    for (int64_t x = 1; x < m; x += 2) {
        int32_t nx = c->ord[(c->rank[x] + 1) % m];
        if (nx % 2 != 0)
            return 0;   /* two exits in a row: not a valid polygon */
        c->aux[x] = nx / 2;
        c->aux[x - 1] = -1;
    }
    int32_t L = 0;
    for (int64_t ch = 0; 2 * ch < m; ch++) {
        if (c->aux[2 * ch] >= 0)
            continue;
        int64_t d = ch, steps = 0;
        do {
            c->aux[2 * d] = L;
            d = c->aux[2 * d + 1];
        } while (d != ch && ++steps <= m);
        if (d != ch)
            return 0;
        L++;
    }
    *n_cyc = L;
    /* an output ring may pass a boundary point once only: at every point
     * shared by several ends, the walks through it (each exit there, and
     * the walk arriving at a first end that is an entry) must belong to
     * different rings */
    for (int64_t q0 = 0; q0 < m;) {
        int64_t q1 = q0 + 1;
        while (q1 < m && rc_same_pos(&E[c->ord[q0]], &E[c->ord[q1]]))
            q1++;
        if (q1 - q0 >= 2) {
            if (q0 == 0 && q1 == m && c->ord[m - 1] % 2 == 1)
                return 0;   /* every end at one point, a walk all around */
            for (int64_t a = q0 - 1; a < q1; a++) {
                int32_t ea = a < q0 ? c->ord[q0] : c->ord[a];
                if (a < q0 ? (ea % 2 != 0) : (ea % 2 == 0))
                    continue;
                int32_t la = c->aux[2 * (ea / 2)];
                for (int64_t b = a + 1; b < q1; b++) {
                    int32_t eb = c->ord[b];
                    if (eb % 2 == 1 && c->aux[2 * (eb / 2)] == la)
                        return 0;
                }
            }
        }
        q0 = q1;
    }
    return 1;
}

/* Emits output ring L (its chains and the boundary between them). */
VSG_HD void rc_emit_cycle(const rc_poly_ctx *c, int64_t first, rc_out *o)
{
    const rc_end *E = c->ends;
    int64_t ch = first;
    do {
        const rc_end *en = &E[2 * ch], *ex = &E[2 * ch + 1];
        rc_ring R;
        R.x = c->v->x;
        R.y = c->v->y;
        R.c0 = c->v->ring_coord[en->ring];
        R.n = c->v->ring_coord[en->ring + 1] - R.c0 - 1;
        R.rev = en->rev;
        rc_pt(o, en->px, en->py);
        int64_t cnt = (ex->seg - en->seg + R.n) % R.n;
        for (int64_t k = 1; k <= cnt; k++) {
            int64_t vi = rc_vi(&R, en->seg + k);
            rc_pt(o, R.x[vi], R.y[vi]);
        }
        rc_pt(o, ex->px, ex->py);
        int64_t nch = c->aux[2 * ch + 1];
        const rc_end *ne = &E[2 * nch];
        int zero = rc_same_pos(ex, ne) ||
                   (ex->side == ne->side && c->rank[2 * nch] > c->rank[2 * ch + 1]);
        if (!zero) {
            int s = ex->side;
            do {
                double cx, cy;
                s = (s + 1) & 3;
                rc_corner(c->r, s, &cx, &cy);
                rc_pt(o, cx, cy);
            } while (s != ne->side);
        }
        ch = nch;
    } while (ch != first);
}

/* Emits input ring r walked counter-clockwise (ccw) or clockwise. */
VSG_HD void rc_emit_ring(const vsg_col_view *v, int64_t r, int ccw, rc_out *o)
{
    rc_ring R;
    if (!rc_ring_open(v, r, ccw, 1, &R)) {
        o->err = 1;
        return;
    }
    for (int64_t i = 0; i < R.n; i++) {
        int64_t k = rc_vi(&R, i);
        rc_pt(o, R.x[k], R.y[k]);
    }
}

VSG_HD void rc_emit_rect(const double *r, rc_out *o)
{
    for (int k = 0; k < 4; k++) {
        double x, y;
        rc_corner(r, k, &x, &y);
        rc_pt(o, x, y);
    }
}

/* Point (qx, qy) against output ring (first chain `first`), or against
 * input ring r when first < 0: 1 inside, 0 outside, -1 on the ring. */
VSG_HD int rc_pip(const rc_poly_ctx *c, int64_t first, int64_t r, double qx, double qy)
{
    rc_out o;
    rc_out_init(&o, RC_PIP);
    o.qx = qx;
    o.qy = qy;
    rc_ring_begin(&o);
    if (first >= 0) {
        rc_emit_cycle(c, first, &o);
    } else {
        for (int64_t k = c->v->ring_coord[r]; k < c->v->ring_coord[r + 1]; k++)
            rc_pt(&o, c->v->x[k], c->v->y[k]);
    }
    rc_ring_end(&o, 1);
    return o.on_ring ? -1 : o.inside;
}

/* First chain of each output ring, in label order: chain ch starts ring L
 * when it is the lowest chain with that label (labels were given in chain
 * order). */
VSG_HD int64_t rc_cycle_first(const rc_poly_ctx *c, int64_t m, int32_t L, int64_t from)
{
    for (int64_t ch = from; 2 * ch < m; ch++)
        if (c->aux[2 * ch] == L)
            return ch;
    return -1;
}

/* Which output ring a strictly-inside hole belongs to (-1: none found). */
VSG_HD int32_t rc_hole_owner(const rc_poly_ctx *c, int64_t m, int32_t n_cyc, int64_t r)
{
    if (n_cyc == 1)
        return 0;
    for (int64_t k = c->v->ring_coord[r]; k + 1 < c->v->ring_coord[r + 1]; k++) {
        double qx = c->v->x[k], qy = c->v->y[k];
        int on = 0;
        int64_t first = 0;
        for (int32_t L = 0; L < n_cyc && !on; L++) {
            first = rc_cycle_first(c, m, L, first);
            int s = rc_pip(c, first, -1, qx, qy);
            if (s > 0)
                return L;
            on = s < 0;
        }
        if (!on)
            return -1;
    }
    return -1;
}

/* The ring a chain runs on, walked as the chain walks it. */
VSG_HD void rc_chain_ring(const rc_poly_ctx *c, int64_t ch, rc_ring *R, int64_t *cnt)
{
    const rc_end *en = &c->ends[2 * ch], *ex = &c->ends[2 * ch + 1];
    R->x = c->v->x;
    R->y = c->v->y;
    R->c0 = c->v->ring_coord[en->ring];
    R->n = c->v->ring_coord[en->ring + 1] - R->c0 - 1;
    R->rev = en->rev;
    *cnt = (ex->seg - en->seg + R->n) % R->n;   /* vertices strictly inside */
}

/* Whether a vertex of chain ca strictly inside the rectangle lies on chain
 * cb; 1 also when the budget of point-segment tests runs out. */
VSG_HD int rc_chain_touches(const rc_poly_ctx *c, int64_t ca, int64_t cb, int64_t *budget)
{
    rc_ring A, B;
    int64_t na, nb;
    rc_chain_ring(c, ca, &A, &na);
    rc_chain_ring(c, cb, &B, &nb);
    *budget -= na * (nb + 1);
    if (*budget < 0)
        return 1;
    const rc_end *be = &c->ends[2 * cb], *bx = &c->ends[2 * cb + 1];
    for (int64_t i = 1; i <= na; i++) {
        int64_t qi = rc_vi(&A, c->ends[2 * ca].seg + i);
        double qx = A.x[qi], qy = A.y[qi];
        double sx = be->px, sy = be->py;
        for (int64_t j = 1; j <= nb + 1; j++) {
            double tx = bx->px, ty = bx->py;
            if (j <= nb) {
                int64_t k = rc_vi(&B, be->seg + j);
                tx = B.x[k];
                ty = B.y[k];
            }
            if (qx >= fmin(sx, tx) && qx <= fmax(sx, tx) && qy >= fmin(sy, ty) &&
                qy <= fmax(sy, ty) && rc_orient(sx, sy, tx, ty, qx, qy) == 0)
                return 1;
            sx = tx;
            sy = ty;
        }
    }
    return 0;
}

/* Whether output ring (first chain `first`) may touch itself inside the
 * rectangle: only where chains of two input rings that touch each other
 * (a hole meeting the shell at a point, valid input) fall in one output
 * ring. Checked pairwise within a budget; beyond it the row is deferred. */
VSG_HD int rc_cycle_touches(const rc_poly_ctx *c, int64_t first)
{
    int mixed = 0;
    int64_t ch = first;
    do {
        mixed |= c->ends[2 * ch].ring != c->ends[2 * first].ring;
        ch = c->aux[2 * ch + 1];
    } while (ch != first);
    if (!mixed)
        return 0;
    int64_t budget = (int64_t)1 << 22;
    int64_t a = first;
    do {
        int64_t b = c->aux[2 * a + 1];
        while (b != first) {
            if (c->ends[2 * a].ring != c->ends[2 * b].ring &&
                (rc_chain_touches(c, a, b, &budget) || rc_chain_touches(c, b, a, &budget)))
                return 1;
            b = c->aux[2 * b + 1];
        }
        a = c->aux[2 * a + 1];
    } while (a != first);
    return 0;
}

/* Whether output ring (first chain `first`) has chains of two input rings. */
VSG_HD int rc_cycle_mixed(const rc_poly_ctx *c, int64_t first)
{
    int64_t ch = first;
    do {
        if (c->ends[2 * ch].ring != c->ends[2 * first].ring)
            return 1;
        ch = c->aux[2 * ch + 1];
    } while (ch != first);
    return 0;
}

/* Whether a vertex of input ring r lies on output ring (first chain
 * `first`); 1 also when the budget of point-ring tests runs out. A hole
 * strictly inside touching a ring made of chains of several input rings
 * may touch it twice (each touching one of the rings it joins), which
 * would cut the output polygon's interior: such rows are deferred. */
VSG_HD int rc_hole_on_cycle(const rc_poly_ctx *c, int64_t first, int64_t r, int64_t *budget)
{
    rc_out o;
    rc_out_init(&o, RC_COUNT);
    rc_ring_begin(&o);
    rc_emit_cycle(c, first, &o);
    int64_t k0 = c->v->ring_coord[r], k1 = c->v->ring_coord[r + 1];
    *budget -= (k1 - k0) * (o.n_coords + 1);
    if (*budget < 0)
        return 1;
    for (int64_t k = k0; k + 1 < k1; k++)
        if (rc_pip(c, first, -1, c->v->x[k], c->v->y[k]) < 0)
            return 1;
    return 0;
}

/* Polygon (part p) in COUNT or FILL mode; *cursor: this part's first end
 * in the geometry's scratch, advanced past them. */
VSG_HD void rc_poly_part(rc_poly_ctx *c, int64_t p, rc_out *o, int64_t *cursor)
{
    const vsg_col_view *v = c->v;
    const double *r = c->r;
    int64_t r0 = v->part_ring[p], r1 = v->part_ring[p + 1];
    if (r1 <= r0)
        return;
    int64_t base = *cursor, m = 0;
    rc_poly_ctx pc = *c;
    pc.ends = c->ends + base;
    pc.ord = c->ord + base;
    pc.rank = c->rank + base;
    pc.aux = c->aux + base;
    int32_t n_cyc = 0;

    if (o->mode == RC_COUNT) {
        for (int64_t ri = r0; ri < r1; ri++) {
            rc_ring R;
            if (!rc_ring_open(v, ri, ri == r0, 1, &R)) {
                o->err = 1;
                return;
            }
            int64_t cap = (c->n_ends - base - m) / 2;
            int64_t nc = rc_ring_chains(r, &R, ri, pc.ends + m, cap);
            if (nc > cap) {
                o->err = 1;   /* the prepare pass counted fewer */
                return;
            }
            m += 2 * nc;
            if (nc > 0) {
                c->ring_cls[ri] = RC_RING_CHAINED;
            } else {
                int inside = 1;
                for (int64_t k = R.c0; k < R.c0 + R.n && inside; k++)
                    inside = rc_where(r, v->x[k], v->y[k]) == RC_IN;
                c->ring_cls[ri] = inside ? RC_RING_INTERIOR : RC_RING_OUTSIDE;
            }
        }
        if (base + m > c->n_ends || m > 2147483647) {
            o->err = 1;
            return;
        }
        if (m > 0) {
            if (!rc_link(&pc, m, &n_cyc) || c->ring_cls[r0] == RC_RING_INTERIOR) {
                o->err = 1;
                return;
            }
            int64_t first = 0;
            for (int32_t L = 0; L < n_cyc; L++) {
                first = rc_cycle_first(&pc, m, L, first);
                if (rc_cycle_touches(&pc, first)) {
                    o->err = 1;
                    return;
                }
            }
            for (int64_t ri = r0 + 1; ri < r1; ri++)
                if (c->ring_cls[ri] == RC_RING_INTERIOR) {
                    int32_t L = rc_hole_owner(&pc, m, n_cyc, ri);
                    if (L < 0) {
                        o->err = 1;
                        return;
                    }
                    c->ring_cls[ri] = L;
                }
            int64_t budget = (int64_t)1 << 22;
            for (int64_t ri = r0 + 1; ri < r1; ri++)
                if (c->ring_cls[ri] >= 0) {
                    int64_t fc = rc_cycle_first(&pc, m, c->ring_cls[ri], 0);
                    if (fc < 0 || (rc_cycle_mixed(&pc, fc) &&
                                   rc_hole_on_cycle(&pc, fc, ri, &budget))) {
                        o->err = 1;
                        return;
                    }
                }
        } else {
            int32_t d;
            if (c->ring_cls[r0] == RC_RING_INTERIOR) {
                d = RC_PART_ASIS;
                for (int64_t ri = r0 + 1; ri < r1; ri++)
                    if (c->ring_cls[ri] != RC_RING_INTERIOR)
                        o->err = 1;
            } else {
                /* no ring crosses the open rectangle: it is covered or not
                 * as a whole, and its centre says which */
                double qx = 0.5 * (r[0] + r[2]), qy = 0.5 * (r[1] + r[3]);
                int s = rc_pip(&pc, -1, r0, qx, qy);
                d = s > 0 ? RC_PART_RECT : RC_PART_NONE;
                for (int64_t ri = r0 + 1; ri < r1 && s >= 0; ri++)
                    if (c->ring_cls[ri] == RC_RING_OUTSIDE) {
                        int h = rc_pip(&pc, -1, ri, qx, qy);
                        if (h != 0)
                            d = RC_PART_NONE;
                        if (h < 0)
                            s = -1;
                    }
                if (s < 0)
                    o->err = 1;
            }
            c->ring_cls[r0] = d;
        }
        if (o->err)
            return;
    } else {
        while (base + m < c->n_ends && pc.ends[m].ring < r1)
            m += 2;
        if (m > 0)
            n_cyc = (int32_t)0x7fffffff;   /* emitted while labels are found */
    }

    if (m > 0) {
        int64_t first = 0;
        for (int32_t L = 0; L < n_cyc; L++) {
            first = rc_cycle_first(&pc, m, L, first);
            if (first < 0)
                break;
            rc_ring_begin(o);
            rc_emit_cycle(&pc, first, o);
            rc_ring_end(o, 1);
            for (int64_t ri = r0 + 1; ri < r1; ri++)
                if (c->ring_cls[ri] == L) {
                    rc_ring_begin(o);
                    rc_emit_ring(v, ri, 0, o);
                    rc_ring_end(o, -1);
                }
            rc_part_end(o);
        }
    } else if (c->ring_cls[r0] != RC_PART_NONE) {
        rc_ring_begin(o);
        if (c->ring_cls[r0] == RC_PART_RECT)
            rc_emit_rect(r, o);
        else
            rc_emit_ring(v, r0, 1, o);
        rc_ring_end(o, 1);
        for (int64_t ri = r0 + 1; ri < r1; ri++)
            if (c->ring_cls[ri] == RC_RING_INTERIOR) {
                rc_ring_begin(o);
                rc_emit_ring(v, ri, 0, o);
                rc_ring_end(o, -1);
            }
        rc_part_end(o);
    }
    *cursor = base + m;
}

#endif
