/*
 * classify.h - per candidate pair: can the refine be skipped? DISJOINT,
 * A_IN_B, B_IN_A or REFINE (the VSG_CLS_* of elements/filter/classify.h).
 *
 * For two polygonal geometries whose boundaries do not meet, every ring of
 * one is a connected curve missing the other's boundary, so it lies wholly
 * in the other's interior or wholly in its exterior, and one vertex per
 * ring tells which. Then (for valid polygons and multipolygons):
 *
 *   A_IN_B    every ring of a inside b and every ring of b outside a
 *             (a hole of b inside a's interior would cut a);
 *   B_IN_A    the same with a and b exchanged;
 *   DISJOINT  every ring of each outside the other.
 *
 * So the test is: (1) no edge of a meets an edge of b - every segment
 * pair is VSG_SEG_DISJOINT, any touch, crossing or uncertainty gives
 * REFINE; (2) one point-in-polygon per ring. Both are exact or say
 * "uncertain" (elements/predicates.h), so a class other than REFINE is
 * never wrong for valid input. Rows that are not polygonal, flagged,
 * with out-of-range offsets, rings with fewer than 4 coordinates or
 * not closed, or parts without rings, give REFINE. Input is assumed
 * OGC-valid (the engine repairs invalid rows before they get here).
 *
 * Cost: the edge test is O(|a| * |b|) segment pairs in the worst case;
 * it runs over chunks of VSG_CLASSIFY_CHUNK consecutive edges with the
 * chunk's box computed on the fly: a chunk of b outside a's box, or a
 * chunk pair whose boxes miss, is skipped as a whole, so only edges near
 * the other boundary are compared one by one. Point-in-polygon: O(rings of
 * one * coordinates of the other), skipped for points outside the box.
 */
#ifndef VSG_ELEMENTS_CLASSIFY_H
#define VSG_ELEMENTS_CLASSIFY_H

#include "elements/filter/bounds.h"
#include "elements/filter/chunks.h"
#include "elements/filter/pip.h"
#include "elements/predicates.h"

#define VSG_CLASSIFY_CHUNK 32

/* The class of a candidate pair: what the refine can skip. Conservative:
 * a class other than REFINE is only given when it is certain under a
 * filtered (error-bounded) orientation predicate; any doubt, any contact of
 * boundaries, and any non-polygonal row give REFINE. */
enum {
    VSG_CLS_REFINE = 0,     /* the CPU engine decides                         */
    VSG_CLS_DISJOINT = 1,   /* interiors and boundaries do not meet           */
    VSG_CLS_A_IN_B = 2,     /* a lies in the interior of b: a ∩ b = a         */
    VSG_CLS_B_IN_A = 3      /* b lies in the interior of a: a ∩ b = b         */
};

/* Whether geometry g is polygonal with only well-formed rings (>= 4
 * coordinates, closed); its box in box when so. */
VSG_HD int vsg_cls_polygonal(const vsg_col_view *v, int64_t g, double *box)
{
    int64_t p0, p1, r0, r1, k0, k1;
    if (!vsg_geom_parts(v, g, &p0, &p1) || vsg_gt_dimension(v->type[g]) != 2 ||
        (v->flags[g] & VSG_GF_NO_COORDS) || p0 == p1)
        return 0;
    for (int64_t p = p0; p < p1; p++) {
        if (!vsg_part_rings(v, p, &r0, &r1) || r0 == r1)
            return 0;
        for (int64_t r = r0; r < r1; r++) {
            if (!vsg_ring_coords(v, r, &k0, &k1) || k1 - k0 < 4 || v->x[k0] != v->x[k1 - 1] ||
                v->y[k0] != v->y[k1 - 1])
                return 0;
        }
    }
    if (!vsg_geom_coords(v, g, &k0, &k1))
        return 0;
    vsg_box_of_coords(v->x, v->y, k0, k1, 1, box);
    return 1;
}

/* Whether any edge of ring-range [ar0, ar1) of a meets any edge of b's
 * rings [br0, br1) (or the answer is uncertain): 1, else 0. */
VSG_HD int vsg_cls_boundaries_meet(const vsg_col_view *a, int64_t ar0, int64_t ar1,
                                   const double *box_a, const vsg_col_view *b, int64_t br0,
                                   int64_t br1)
{
    const double *ax = a->x, *ay = a->y, *bx = b->x, *by = b->y;
    for (int64_t rb = br0; rb < br1; rb++) {
        int64_t kb0 = b->ring_coord[rb], kb1 = b->ring_coord[rb + 1];
        for (int64_t sb = kb0; sb < kb1 - 1; sb += VSG_CLASSIFY_CHUNK) {
            int64_t eb = sb + VSG_CLASSIFY_CHUNK < kb1 - 1 ? sb + VSG_CLASSIFY_CHUNK : kb1 - 1;
            double cb[4];
            vsg_box_of_coords(bx, by, sb, eb + 1, 1, cb);
            if (!vsg_box_meets(cb, box_a))
                continue;
            for (int64_t ra = ar0; ra < ar1; ra++) {
                int64_t ka0 = a->ring_coord[ra], ka1 = a->ring_coord[ra + 1];
                for (int64_t sa = ka0; sa < ka1 - 1; sa += VSG_CLASSIFY_CHUNK) {
                    int64_t ea =
                        sa + VSG_CLASSIFY_CHUNK < ka1 - 1 ? sa + VSG_CLASSIFY_CHUNK : ka1 - 1;
                    double ca[4];
                    vsg_box_of_coords(ax, ay, sa, ea + 1, 1, ca);
                    if (!vsg_box_meets(ca, cb))
                        continue;
                    for (int64_t i = sa; i < ea; i++) {
                        double s[4];
                        s[0] = fmin(ax[i], ax[i + 1]);
                        s[1] = fmin(ay[i], ay[i + 1]);
                        s[2] = fmax(ax[i], ax[i + 1]);
                        s[3] = fmax(ay[i], ay[i + 1]);
                        if (!vsg_box_meets(s, cb))
                            continue;
                        for (int64_t j = sb; j < eb; j++) {
                            if (vsg_segment_relation(ax[i], ay[i], ax[i + 1], ay[i + 1], bx[j],
                                                     by[j], bx[j + 1], by[j + 1]) !=
                                VSG_SEG_DISJOINT)
                                return 1;
                        }
                    }
                }
            }
        }
    }
    return 0;
}

/* Where the rings [r0, r1) of v lie relative to geometry g of w: sets
 * *any_in / *any_out; returns 0 when a ring's vertex is on w's boundary or
 * the test is uncertain. */
VSG_HD int vsg_cls_rings_vs(const vsg_col_view *v, int64_t r0, int64_t r1,
                            const vsg_col_view *w, int64_t g, const double *box_w, int *any_in,
                            int *any_out)
{
    for (int64_t r = r0; r < r1; r++) {
        int64_t k = v->ring_coord[r];
        double px = v->x[k], py = v->y[k];
        int s;
        if (px < box_w[0] || px > box_w[2] || py < box_w[1] || py > box_w[3])
            s = VSG_PIP_OUTSIDE;
        else
            s = vsg_pip_geom(w, g, px, py);
        if (s == VSG_PIP_INSIDE)
            *any_in = 1;
        else if (s == VSG_PIP_OUTSIDE)
            *any_out = 1;
        else
            return 0;
    }
    return 1;
}

/* The class from where the rings lie (the rule of the header comment). */
VSG_HD int vsg_cls_from_rings(int a_in, int a_out, int b_in, int b_out)
{
    if (!a_out && !b_in)
        return VSG_CLS_A_IN_B;
    if (!b_out && !a_in)
        return VSG_CLS_B_IN_A;
    if (!a_in && !b_in)
        return VSG_CLS_DISJOINT;
    return VSG_CLS_REFINE;
}

/* The class of pair (geometry ga of a, geometry gb of b): VSG_CLS_*. */
VSG_HD int vsg_classify_pair(const vsg_col_view *a, int64_t ga, const vsg_col_view *b,
                             int64_t gb)
{
    double box_a[4], box_b[4];
    if (!vsg_cls_polygonal(a, ga, box_a) || !vsg_cls_polygonal(b, gb, box_b))
        return VSG_CLS_REFINE;
    if (!vsg_box_meets(box_a, box_b))
        return VSG_CLS_DISJOINT;   /* exact: closed boxes apart */

    /* the ring ranges (checked by vsg_cls_polygonal) */
    int64_t ar0 = a->part_ring[a->geom_part[ga]], ar1 = a->part_ring[a->geom_part[ga + 1]];
    int64_t br0 = b->part_ring[b->geom_part[gb]], br1 = b->part_ring[b->geom_part[gb + 1]];

    if (vsg_cls_boundaries_meet(a, ar0, ar1, box_a, b, br0, br1))
        return VSG_CLS_REFINE;

    int a_in = 0, a_out = 0, b_in = 0, b_out = 0;
    if (!vsg_cls_rings_vs(a, ar0, ar1, b, gb, box_b, &a_in, &a_out) ||
        !vsg_cls_rings_vs(b, br0, br1, a, ga, box_a, &b_in, &b_out))
        return VSG_CLS_REFINE;
    return vsg_cls_from_rings(a_in, a_out, b_in, b_out);
}

/* ---- the chunked classify ------------------------------------------------
 * The same classes as vsg_classify_pair (which stays as the reference the
 * tests compare with), computed in items of bounded work so that a pair of
 * a 10^5-vertex country and a small province costs about their segments,
 * spread over the whole device (stages/filter/classify.c runs the steps):
 *
 *   1 ok      per geometry, part and ring: is the row polygonal with
 *             well-formed rings (vsg_cls_polygonal, without a loop over
 *             the rings of one geometry)
 *   2 meet    per pair of chunks whose boxes meet (a grid join of the two
 *             chunk tables): does any segment of one meet any of the other;
 *             the chunk pair's geometries are a candidate pair (boxes that
 *             meet), found by binary search, and flagged
 *   3 start   per pair: REFINE, DISJOINT or "pending": boundaries apart,
 *             one point per ring must be located
 *   4 items   per (pending pair, ring of either side): the ring's first
 *             vertex outside the other's box is OUTSIDE; otherwise one
 *             sub-item per chunk of the other geometry
 *   5 crossings  per sub-item: the chunk's share of the crossing parity
 *             (vsg_pip_edge), xor-ed into its item
 *   6 resolve per item: inside / outside / doubt, or-ed into its pair
 *   7 final   per pair: the class from the pair's bits
 *
 * Items 2 and 5 touch at most VSG_CHUNK_SEGS^2 and VSG_CHUNK_SEGS segments;
 * the others a constant number of values and binary searches. */

#define VSG_CLS_PENDING 0xFF

/* One side of the pairs: its rows, their boxes, its chunk table and the
 * polygonal check (step 1). All arrays are backend memory. */
typedef struct {
    vsg_col_view v;
    const double *boxes;          /* per geometry (the bounds stage)       */
    int64_t n_chunks;
    const int64_t *ring_chunk;    /* n_rings + 1                           */
    const int64_t *chunk_geom;    /* n_chunks: -1 where offsets are bad    */
    const double *chunk_box;      /* 4 n_chunks                            */
    const uint8_t *ok;            /* n_geoms                               */
} vsg_cls_side;

/* pair bits (uint32 per pair) */
enum {
    VSG_CLSB_MEET = 1,     /* boundaries meet, or doubt: REFINE            */
    VSG_CLSB_A_IN = 2,     /* a ring of a inside b                         */
    VSG_CLSB_A_OUT = 4,
    VSG_CLSB_B_IN = 8,
    VSG_CLSB_B_OUT = 16
};

/* item state bits (uint32 per item): bit 0 the parity */
enum { VSG_CLSI_BOUNDARY = 2, VSG_CLSI_UNCERTAIN = 4 };

/* Step 1, per geometry: ok[g] = 1 when g is polygonal, has parts and
 * usable coordinates; the part and ring checks below clear it. */
VSG_HD void vsg_cls_ok_geom(const vsg_col_view *v, int64_t g, uint8_t *ok)
{
    int64_t p0, p1;
    ok[g] = (uint8_t)(vsg_geom_parts(v, g, &p0, &p1) && vsg_gt_dimension(v->type[g]) == 2 &&
                      !(v->flags[g] & VSG_GF_NO_COORDS) && p0 < p1);
}

/* Step 1, per part: a part without rings (or with bad offsets) clears its
 * geometry's ok. */
VSG_HD void vsg_cls_ok_part(const vsg_col_view *v, int64_t p, uint8_t *ok)
{
    int64_t r0, r1;
    if (vsg_part_rings(v, p, &r0, &r1) && r0 < r1)
        return;
    int64_t g = vsg_last_le(v->geom_part, v->n_geoms + 1, p);
    if (g >= 0 && g < v->n_geoms)
        ok[g] = 0;
}

/* Step 1, per ring: fewer than 4 coordinates, or not closed, clears ok. */
VSG_HD void vsg_cls_ok_ring(const vsg_col_view *v, int64_t r, uint8_t *ok)
{
    int64_t k0, k1;
    if (vsg_ring_coords(v, r, &k0, &k1) && k1 - k0 >= 4 && v->x[k0] == v->x[k1 - 1] &&
        v->y[k0] == v->y[k1 - 1])
        return;
    int64_t g = vsg_ring_geom(v, r);
    if (g >= 0)
        ok[g] = 0;
}

/* The index of pair (ga, gb) in pairs sorted by (a, b); -1 if absent. */
VSG_HD int64_t vsg_pair_find(const int64_t *pa, const int64_t *pb, int64_t n, int64_t ga,
                             int64_t gb)
{
    int64_t lo = 0, hi = n;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (pa[mid] < ga || (pa[mid] == ga && pb[mid] < gb))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && pa[lo] == ga && pb[lo] == gb ? lo : -1;
}

/* Step 2, per chunk pair (ca of a, cb of b): when any segment of one meets
 * any segment of the other (or doubt), sets MEET on their geometries' pair.
 * Returns the segment pairs tested (the work of the item). */
VSG_HD int64_t vsg_cls_chunk_pair(const vsg_col_view *a, const int64_t *ring_chunk_a,
                                  const int64_t *chunk_geom_a, const uint8_t *ok_a, int64_t ca,
                                  const vsg_col_view *b, const int64_t *ring_chunk_b,
                                  const int64_t *chunk_geom_b, const uint8_t *ok_b, int64_t cb,
                                  const int64_t *pa, const int64_t *pb, int64_t n_pairs,
                                  uint32_t *pair_bits)
{
    int64_t ga = chunk_geom_a[ca], gb = chunk_geom_b[cb];
    if (ga < 0 || gb < 0 || !ok_a[ga] || !ok_b[gb])
        return 0;
    int64_t k = vsg_pair_find(pa, pb, n_pairs, ga, gb);
    if (k < 0 || (pair_bits[k] & VSG_CLSB_MEET))
        return 0;
    int64_t ra, ka0, ka1, rb, kb0, kb1;
    if (!vsg_chunk_range(a, ring_chunk_a, ca, &ra, &ka0, &ka1) ||
        !vsg_chunk_range(b, ring_chunk_b, cb, &rb, &kb0, &kb1))
        return 0;
    const double *ax = a->x, *ay = a->y, *bx = b->x, *by = b->y;
    int64_t work = 0;
    for (int64_t i = ka0; i + 1 < ka1; i++) {
        double s[4];
        s[0] = fmin(ax[i], ax[i + 1]);
        s[1] = fmin(ay[i], ay[i + 1]);
        s[2] = fmax(ax[i], ax[i + 1]);
        s[3] = fmax(ay[i], ay[i + 1]);
        for (int64_t j = kb0; j + 1 < kb1; j++) {
            work++;
            if (fmax(bx[j], bx[j + 1]) < s[0] || fmin(bx[j], bx[j + 1]) > s[2] ||
                fmax(by[j], by[j + 1]) < s[1] || fmin(by[j], by[j + 1]) > s[3])
                continue;
            if (vsg_segment_relation(ax[i], ay[i], ax[i + 1], ay[i + 1], bx[j], by[j],
                                     bx[j + 1], by[j + 1]) != VSG_SEG_DISJOINT) {
                VSG_OR_U32(pair_bits + k, VSG_CLSB_MEET);
                return work;
            }
        }
    }
    return work;
}

/* The ring range of (ok) geometry g. */
VSG_HD void vsg_cls_geom_rings(const vsg_col_view *v, int64_t g, int64_t *r0, int64_t *r1)
{
    *r0 = v->part_ring[v->geom_part[g]];
    *r1 = v->part_ring[v->geom_part[g + 1]];
}

/* Step 3, per pair k: its class, or PENDING; n_items[k] = the rings to
 * locate (both sides) when pending, else 0. */
VSG_HD uint8_t vsg_cls_pair_start(const vsg_col_view *a, const uint8_t *ok_a,
                                  const double *boxes_a, int64_t ga, const vsg_col_view *b,
                                  const uint8_t *ok_b, const double *boxes_b, int64_t gb,
                                  uint32_t bits, int64_t *n_items)
{
    *n_items = 0;
    if (ga < 0 || ga >= a->n_geoms || gb < 0 || gb >= b->n_geoms || !ok_a[ga] || !ok_b[gb])
        return VSG_CLS_REFINE;
    if (!vsg_box_meets(boxes_a + 4 * ga, boxes_b + 4 * gb))
        return VSG_CLS_DISJOINT;
    if (bits & VSG_CLSB_MEET)
        return VSG_CLS_REFINE;
    int64_t ar0, ar1, br0, br1;
    vsg_cls_geom_rings(a, ga, &ar0, &ar1);
    vsg_cls_geom_rings(b, gb, &br0, &br1);
    *n_items = (ar1 - ar0) + (br1 - br0);
    return VSG_CLS_PENDING;
}

/* An item: pair k, the ring whose first vertex is located, the view it is
 * in, and the target geometry in the other view. */
typedef struct {
    int64_t pair, ring, target;
    int side_b;            /* 0: a ring of a located in b; 1: the reverse */
} vsg_cls_item;

VSG_HD int vsg_cls_item_of(const vsg_col_view *a, const vsg_col_view *b, const int64_t *pa,
                           const int64_t *pb, const int64_t *item_off, int64_t n_pairs,
                           int64_t t, vsg_cls_item *it)
{
    int64_t k = vsg_last_le(item_off, n_pairs + 1, t);
    if (k < 0 || k >= n_pairs)
        return 0;
    int64_t j = t - item_off[k], ar0, ar1, br0, br1;
    vsg_cls_geom_rings(a, pa[k], &ar0, &ar1);
    vsg_cls_geom_rings(b, pb[k], &br0, &br1);
    it->pair = k;
    if (j < ar1 - ar0) {
        it->side_b = 0;
        it->ring = ar0 + j;
        it->target = pb[k];
    } else {
        it->side_b = 1;
        it->ring = br0 + (j - (ar1 - ar0));
        it->target = pa[k];
    }
    return 1;
}

/* Step 4, per item t: a first vertex outside the target's box is OUTSIDE
 * (or-ed into the pair); otherwise n_sub[t] = the target's chunks. */
VSG_HD void vsg_cls_item_start(const vsg_col_view *a, const double *boxes_a,
                               const int64_t *ring_chunk_a, const vsg_col_view *b,
                               const double *boxes_b, const int64_t *ring_chunk_b,
                               const int64_t *pa, const int64_t *pb, const int64_t *item_off,
                               int64_t n_pairs, int64_t t, uint32_t *pair_bits, int64_t *n_sub)
{
    vsg_cls_item it;
    n_sub[t] = 0;
    if (!vsg_cls_item_of(a, b, pa, pb, item_off, n_pairs, t, &it))
        return;
    const vsg_col_view *v = it.side_b ? b : a, *w = it.side_b ? a : b;
    const double *box = (it.side_b ? boxes_a : boxes_b) + 4 * it.target;
    const int64_t *rc = it.side_b ? ring_chunk_a : ring_chunk_b;
    int64_t k = v->ring_coord[it.ring];
    double px = v->x[k], py = v->y[k];
    if (px < box[0] || px > box[2] || py < box[1] || py > box[3]) {
        VSG_OR_U32(pair_bits + it.pair, it.side_b ? VSG_CLSB_B_OUT : VSG_CLSB_A_OUT);
        return;
    }
    int64_t r0, r1;
    vsg_cls_geom_rings(w, it.target, &r0, &r1);
    n_sub[t] = rc[r1] - rc[r0];
}

/* Step 5, per sub-item s: the crossings of the ray from item t's vertex
 * with one chunk of the target, xor-ed (and doubts or-ed) into
 * item_state[t]. Returns the segments walked. */
VSG_HD int64_t vsg_cls_crossings(const vsg_col_view *a, const int64_t *ring_chunk_a,
                                 const double *chunk_box_a, const vsg_col_view *b,
                                 const int64_t *ring_chunk_b, const double *chunk_box_b,
                                 const int64_t *pa, const int64_t *pb, const int64_t *item_off,
                                 int64_t n_pairs, const int64_t *sub_off, int64_t n_items,
                                 int64_t s, uint32_t *item_state)
{
    int64_t t = vsg_last_le(sub_off, n_items + 1, s);
    vsg_cls_item it;
    if (t < 0 || t >= n_items || !vsg_cls_item_of(a, b, pa, pb, item_off, n_pairs, t, &it))
        return 0;
    const vsg_col_view *v = it.side_b ? b : a, *w = it.side_b ? a : b;
    const int64_t *rc = it.side_b ? ring_chunk_a : ring_chunk_b;
    const double *cbox = it.side_b ? chunk_box_a : chunk_box_b;
    int64_t k = v->ring_coord[it.ring];
    double px = v->x[k], py = v->y[k];
    int64_t r0, r1;
    vsg_cls_geom_rings(w, it.target, &r0, &r1);
    int64_t c = rc[r0] + (s - sub_off[t]);
    const double *cb = cbox + 4 * c;
    /* exact: no edge of the chunk can touch the ray's line right of p */
    if (cb[3] < py || cb[1] > py || cb[2] < px)
        return 0;
    int64_t ring, k0, k1;
    if (!vsg_chunk_range(w, rc, c, &ring, &k0, &k1))
        return 0;
    uint32_t st = 0;
    for (int64_t i = k0; i + 1 < k1; i++) {
        int e = vsg_pip_edge(w->x[i], w->y[i], w->x[i + 1], w->y[i + 1], px, py);
        if (e == VSG_PIP_BOUNDARY)
            st |= VSG_CLSI_BOUNDARY;
        else if (e == VSG_PIP_UNCERTAIN)
            st |= VSG_CLSI_UNCERTAIN;
        else
            st ^= (uint32_t)e;
    }
    if (st & 1)
        VSG_XOR_U32(item_state + t, 1);
    if (st & ~1u)
        VSG_OR_U32(item_state + t, st & ~1u);
    return k1 - k0 - 1;
}

/* Step 6, per item t with sub-items: inside, outside or doubt, into its
 * pair. */
VSG_HD void vsg_cls_item_resolve(const vsg_col_view *a, const vsg_col_view *b,
                                 const int64_t *pa, const int64_t *pb, const int64_t *item_off,
                                 int64_t n_pairs, const int64_t *sub_off, int64_t t,
                                 const uint32_t *item_state, uint32_t *pair_bits)
{
    vsg_cls_item it;
    if (sub_off[t + 1] == sub_off[t] ||
        !vsg_cls_item_of(a, b, pa, pb, item_off, n_pairs, t, &it))
        return;
    uint32_t st = item_state[t];
    uint32_t bit;
    if (st & (VSG_CLSI_BOUNDARY | VSG_CLSI_UNCERTAIN))
        bit = VSG_CLSB_MEET;
    else if (st & 1)
        bit = it.side_b ? VSG_CLSB_B_IN : VSG_CLSB_A_IN;
    else
        bit = it.side_b ? VSG_CLSB_B_OUT : VSG_CLSB_A_OUT;
    VSG_OR_U32(pair_bits + it.pair, bit);
}

/* Step 7, per pair: the class of a pending pair from its bits (the rule of
 * vsg_classify_pair). */
VSG_HD uint8_t vsg_cls_pair_final(uint8_t start, uint32_t bits)
{
    if (start != VSG_CLS_PENDING)
        return start;
    if (bits & VSG_CLSB_MEET)
        return VSG_CLS_REFINE;
    return (uint8_t)vsg_cls_from_rings((bits & VSG_CLSB_A_IN) != 0, (bits & VSG_CLSB_A_OUT) != 0,
                                       (bits & VSG_CLSB_B_IN) != 0, (bits & VSG_CLSB_B_OUT) != 0);
}

#endif
