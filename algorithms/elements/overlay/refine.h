/*
 * refine.h - per-element logic of the overlay refine stage
 * (stages/overlay/refine.c): the exact intersection of polygon pairs,
 * the same code on the host and the device.
 *
 * Both inputs' rings are oriented with the interior on the left (exactly,
 * at each ring's lowest-leftmost vertex: elements/union/coverage.h). For
 * a pair (a, b) the result's boundary is made of
 *
 *   - the pieces of a's boundary inside b,
 *   - the pieces of b's boundary inside a,
 *   - the pieces where both run along each other in the same direction
 *     (a's copy); opposite runs and touch points are lower-dimension
 *     results, left out as the default type rule leaves them out.
 *
 * The steps, each over bounded items (no item grows with a polygon):
 *
 *   instances   the segments of a that meet b's box and of b that meet
 *               a's box, found by joining chunk boxes (elements/filter/
 *               chunks.h) with the other side's geometry boxes; a segment
 *               outside the other's box is outside it and plays no part.
 *   events      chunk pairs of the pair (a join on chunk boxes), then the
 *               16 x 16 segment pairs of each, classified exactly
 *               (orientation by adaptive arithmetic): every endpoint of
 *               one segment lying on the other is a node on both; a
 *               proper crossing is a node on both at the crossing point,
 *               rounded once and clamped into both segments' boxes. A
 *               node at an end of a segment flags that end; one inside
 *               it is an event.
 *   pieces      events sorted along their segment (by the dominant axis,
 *               exact comparisons); each segment splits at them, and a
 *               piece's end at a flagged end or an event is a node.
 *   labels      at every node, each piece's side of the other polygon is
 *               read from the other polygon's pieces there, in exact
 *               angular order: the first of them clockwise from the piece
 *               bounds the sector the piece lies in (interior when that
 *               piece leaves the node, exterior when it arrives), or the
 *               piece runs along one of them. A piece that starts at an
 *               ordinary vertex outside the other's box is outside; any
 *               other piece has its predecessor's label (a fill along
 *               the ring: one max scan). A ring with no node at all has no
 *               label to pass on: its first vertex is not on the other
 *               polygon's boundary, so a ray from it counts crossings
 *               exactly (even-odd over the other's segments, chunks
 *               found by a box join), and the ring's pieces take that.
 *   checks      the label a piece gets at its end node must equal the one
 *               it carries; a piece still without a label is handed
 *               back; then the selected
 *               pieces go through the coverage union's boundary steps,
 *               which prove that they are noded, alternate at every node
 *               and nest with winding numbers 0 and 1
 *               (elements/union/coverage.h), and build the rings.
 *
 * Rounding a crossing point moves it by at most half an ulp and tilts the
 * pieces next to it; what that could break (a piece crossing another, a
 * label that changes along a piece) is caught by those checks, and the
 * pair is handed back to GEOS with its reason bits.
 */
#ifndef VSG_ELEMENTS_OVERLAY_REFINE_H
#define VSG_ELEMENTS_OVERLAY_REFINE_H

#include "elements/bits.h"
#include "elements/box.h"
#include "elements/filter/classify.h"   /* vsg_pair_find */
#include "elements/union/coverage.h"

/* why a pair leaves the GPU refine: bits of why[pair], beside the
 * coverage union's VSG_COV_BAD_* (which use bits 0-7) */
enum {
    VSG_REF_BAD_INPUT = 1 << 8,    /* not polygons, Z, non-finite, a bad ring      */
    VSG_REF_BAD_UNSURE = 1 << 9,   /* an orientation could not be decided exactly  */
    VSG_REF_BAD_ORDER = 1 << 10,   /* two nodes of a segment in no exact order     */
    VSG_REF_BAD_NODE = 1 << 11,    /* a node of too many pieces, or one-sided      */
    VSG_REF_BAD_LABEL = 1 << 12,   /* a piece labelled differently at its two ends */
    VSG_REF_BAD_NOLABEL = 1 << 13  /* a piece whose label no node, box or ray
                                      gives (a predecessor is missing)        */
};

/* piece labels relative to the other polygon */
enum {
    VSG_REF_UNKNOWN = 0,
    VSG_REF_OUT = 1,
    VSG_REF_IN = 2,
    VSG_REF_SAME = 3,      /* along the other's boundary, same direction   */
    VSG_REF_OPPOSITE = 4   /* along it, opposite direction                 */
};

/* instance flags: the segment's own start / end is a node */
enum { VSG_REF_SNODE = 1, VSG_REF_ENODE = 2 };

/* the most piece ends at one node */
#define VSG_REF_MAX_DEGREE 16

/* ---- one side of the pair: a view, its rings' directions, chunks, boxes --- */
typedef struct {
    vsg_col_view v;
    const double *boxes;          /* 4 per geometry                         */
    int64_t *coord_ring, *ring_geom;
    uint8_t *ring_shell;
    uint64_t *ring_min;
    int8_t *dir;                  /* +1 as stored, -1 reversed, 0 bad ring  */
    int64_t *chunk_cnt, *ring_chunk, *chunk_geom;
    double *chunk_box;
    int64_t n_chunks;
} vsg_ref_side;

/* dir[r] of ring r: +1 when it has its interior on the left as stored, -1
 * when reversed, 0 when it has no exact orientation (its pairs go back). */
VSG_HD void vsg_ref_ring_dir(const vsg_ref_side *sd, int64_t r)
{
    const vsg_col_view *v = &sd->v;
    int64_t k0, k1;
    int ok = sd->ring_geom[r] >= 0 && vsg_ring_coords(v, r, &k0, &k1) && k1 - k0 >= 4 &&
             vsg_cov_same(v->x[k0], v->y[k0], v->x[k1 - 1], v->y[k1 - 1]);
    const uint64_t *m = sd->ring_min + 3 * r;
    int o = ok && m[2] != VSG_COV_NOKEY ? vsg_cov_ring_orient(v->x, v->y, k0, k1, (int64_t)m[2])
                                        : 0;
    sd->dir[r] = (int8_t)(o == 0 ? 0 : ((o == VSG_ORIENT_CCW) == (sd->ring_shell[r] != 0) ? 1 : -1));
}

/* Pairs of rows that the stage cannot take are marked. */
VSG_HD void vsg_ref_pair_init(const vsg_col_view *a, const vsg_col_view *b, const int64_t *pa,
                              const int64_t *pb, int64_t p, uint32_t *why)
{
    uint32_t w = 0;
    const vsg_col_view *vs[2] = {a, b};
    int64_t gs[2] = {pa[p], pb[p]};
    for (int s = 0; s < 2; s++) {
        const vsg_col_view *v = vs[s];
        int64_t g = gs[s], p0, p1;
        if (g < 0 || g >= v->n_geoms) {
            w |= VSG_REF_BAD_INPUT;
            continue;
        }
        uint8_t f = v->flags[g];
        if ((f & (VSG_GF_UNSUPPORTED | VSG_GF_CORRUPT | VSG_GF_NONFINITE | VSG_GF_Z |
                  VSG_GF_NULL | VSG_GF_EMPTY)) ||
            vsg_gt_dimension(v->type[g]) != 2 || !vsg_geom_parts(v, g, &p0, &p1))
            w |= VSG_REF_BAD_INPUT;
    }
    why[p] = w;
}

/* Whether both rows of pair p are proven simple (VSG_GF_SIMPLE): rings
 * that meet no other ring of their row and not themselves. Then every
 * contact between the pair's boundaries is a node of the refine, and a
 * boundary whose nodes are all exact (input vertices, not rounded
 * crossings) is noded by construction. */
VSG_HD int vsg_ref_pair_simple(const vsg_col_view *a, const vsg_col_view *b, const int64_t *pa,
                               const int64_t *pb, int64_t p)
{
    int64_t i = pa[p], j = pb[p];
    return i >= 0 && i < a->n_geoms && j >= 0 && j < b->n_geoms &&
           (a->flags[i] & VSG_GF_SIMPLE) && (b->flags[j] & VSG_GF_SIMPLE);
}

/* ---- instances: the segments of each pair near the other polygon --------- */

/* Instance keys: (pair, side, coordinate index of the segment's start). */
VSG_HD uint64_t vsg_ref_inst_key(int64_t p, int side, int64_t k, int kbits)
{
    return ((uint64_t)p << (kbits + 1)) | ((uint64_t)side << kbits) | (uint64_t)k;
}

/* Candidate (chunk c of side s, geometry g of the other side): the pair it
 * belongs to, or -1. */
VSG_HD int64_t vsg_ref_item_pair(const vsg_ref_side *sd, int side, int64_t c, int64_t g,
                                 const int64_t *pa, const int64_t *pb, int64_t n_pairs)
{
    int64_t own = sd->chunk_geom[c];
    if (own < 0)
        return -1;
    return side == 0 ? vsg_pair_find(pa, pb, n_pairs, own, g)
                     : vsg_pair_find(pa, pb, n_pairs, g, own);
}

/* The chunks of row g of side sd: [*c0, *c0 + the count); none for a row
 * out of range. */
VSG_HD int64_t vsg_ref_row_chunks(const vsg_ref_side *sd, int64_t g, int64_t *c0)
{
    const vsg_col_view *v = &sd->v;
    *c0 = 0;
    if (g < 0 || g >= v->n_geoms)
        return 0;
    int64_t r0 = v->part_ring[v->geom_part[g]], r1 = v->part_ring[v->geom_part[g + 1]];
    *c0 = sd->ring_chunk[r0];
    return sd->ring_chunk[r1] - *c0;
}

/* The segments of chunk c: [k0, k1 - 1) start coordinates. */
VSG_HD int64_t vsg_ref_chunk_segs(const vsg_ref_side *sd, int64_t c, int64_t *k0, int64_t *ring)
{
    int64_t k1;
    *k0 = 0;
    *ring = -1;
    if (!vsg_chunk_range(&sd->v, sd->ring_chunk, c, ring, k0, &k1))
        return 0;
    return k1 - *k0 - 1 > 0 ? k1 - *k0 - 1 : 0;
}

/* ---- rows: the segments of one chunk that come near another -------------- */

/* A join's chunk pairs (n_join), their rows (one segment of the first
 * chunk against the second chunk) and the events each row finds, counted
 * then written: the refine's and the overlap union's arrangement's alike
 * (stages/overlay/refine_run.h allocates them). */
typedef struct {
    int64_t *cp_ka, *cp_kb;          /* n_join: both chunks' first segments */
    uint32_t *cp_cols;               /* n_join: the second chunk's segments
                                      * its rows test, as bits             */
    uint32_t *cp_rows;               /* n_join: its rows, as bits           */
    int64_t *rw_cnt, *rw_off;        /* n_join, n_join + 1                  */
    int64_t n_rows;
    int64_t *rw_cp;                  /* n_rows: the chunk pair              */
    uint8_t *rw_s;                   /* n_rows: the segment in the chunk    */
    uint32_t *rw_hits;               /* n_rows: the second chunk's segments
                                      * with nodes                          */
    int64_t *ev_cnt, *ev_off;        /* n_rows, n_rows + 1: its events      */
} vsg_ref_rows;

/* The segments k0 .. k0 + n - 1 of side sd whose box meets box bb, as
 * bits (the box tests are closed, as vsg_ref_seg_nodes's: a segment that
 * only touches the box is in). */
VSG_HD uint32_t vsg_ref_segs_in_box(const vsg_ref_side *sd, int64_t k0, int64_t n,
                                    const double *bb)
{
    uint32_t bits = 0;
    for (int64_t s = 0; s < n; s++) {
        int64_t k = k0 + s;
        double p0x = sd->v.x[k], p0y = sd->v.y[k], p1x = sd->v.x[k + 1], p1y = sd->v.y[k + 1];
        if (!(fmax(p0x, p1x) < bb[0] || fmin(p0x, p1x) > bb[2] || fmax(p0y, p1y) < bb[1] ||
              fmin(p0y, p1y) > bb[3]))
            bits |= (uint32_t)1 << s;
    }
    return bits;
}

/* Chunk pair (ca of A, cb of B), taken (else no rows): the segments of ca
 * whose box meets cb's box, as bits of *rows (a segment off the other
 * chunk's box meets none of its segments), and the segments of cb whose
 * box meets ca's, as bits of *cols (the only ones a row tests: a segment
 * of ca lies in ca's box, so it meets no other); both chunks' first
 * segments. Returns the work, both chunks' segments + 1. */
VSG_HD int64_t vsg_ref_chunk_rows(const vsg_ref_side *A, int64_t ca, const vsg_ref_side *B,
                                  int64_t cb, int take, int64_t *ka, int64_t *kb,
                                  uint32_t *cols, uint32_t *rows)
{
    int64_t ra, rb, na = 0, n = 0;
    *ka = *kb = 0;
    *rows = *cols = 0;
    if (take) {
        na = vsg_ref_chunk_segs(A, ca, ka, &ra);
        n = vsg_ref_chunk_segs(B, cb, kb, &rb);
    }
    if (na > 0 && n > 0) {
        *rows = vsg_ref_segs_in_box(A, *ka, na, B->chunk_box + 4 * cb);
        if (*rows)
            *cols = vsg_ref_segs_in_box(B, *kb, n, A->chunk_box + 4 * ca);
        if (!*cols)
            *rows = 0;
    }
    return na + n + 1;
}

/* Chunk pair i's rows (the bits of rows) written from t: the pair and
 * the segment of each. */
VSG_HD void vsg_ref_rows_fill(uint32_t rows, int64_t i, int64_t t, int64_t *rw_cp, uint8_t *rw_s)
{
    for (int s = 0; rows; s++, rows >>= 1)
        if (rows & 1u) {
            rw_cp[t] = i;
            rw_s[t++] = (uint8_t)s;
        }
}

/* Piece end i, when it is at a node (flag[i]), into the packed keys at
 * off[i]: its node key and itself. */
VSG_HD void vsg_ref_node_pack(const uint64_t *all, const int64_t *flag, const int64_t *off,
                              uint64_t *key, int64_t *idx, int64_t i)
{
    if (flag[i]) {
        key[off[i]] = all[i];
        idx[off[i]] = i;
    }
}

/* The run of equal sorted keys around position q, [lo, hi), looked for no
 * further than max entries: 1 when it holds at most max, 0 when it is
 * longer (then [lo, hi) is max + 1 of it). */
VSG_HD int vsg_key_run(const uint64_t *key, int64_t n, int64_t q, int64_t max, int64_t *lo,
                       int64_t *hi)
{
    uint64_t k = key[q];
    *lo = q;
    *hi = q + 1;
    while (*lo > 0 && key[*lo - 1] == k && *hi - *lo <= max)
        (*lo)--;
    while (*hi < n && key[*hi] == k && *hi - *lo <= max)
        (*hi)++;
    return *hi - *lo <= max;
}

/* ---- events: nodes of the segment pairs of one chunk pair ------------------ */

/* Whether (ax, ay) comes after (bx, by), x then y. */
VSG_HD int vsg_ref_after(double ax, double ay, double bx, double by)
{
    return ax > bx || (ax == bx && ay > by);
}

/* The crossing point of segments p0p1 and q0q1, known to cross properly,
 * rounded and clamped into both segments' boxes. It is computed from each
 * segment's endpoints in a canonical order, so that the same two segments
 * give the same point whichever way their rings run: the clip's pieces
 * from two method polygons that share an edge (stored in opposite
 * directions) then meet at bit-equal nodes, as their union needs. */
VSG_HD void vsg_ref_cross_point(double p0x, double p0y, double p1x, double p1y, double q0x,
                                double q0y, double q1x, double q1y, double *x, double *y)
{
    double t0;
    if (vsg_ref_after(p0x, p0y, p1x, p1y)) {
        t0 = p0x; p0x = p1x; p1x = t0;
        t0 = p0y; p0y = p1y; p1y = t0;
    }
    if (vsg_ref_after(q0x, q0y, q1x, q1y)) {
        t0 = q0x; q0x = q1x; q1x = t0;
        t0 = q0y; q0y = q1y; q1y = t0;
    }
    double rx = p1x - p0x, ry = p1y - p0y, sx = q1x - q0x, sy = q1y - q0y;
    double den = rx * sy - ry * sx;
    double t = ((q0x - p0x) * sy - (q0y - p0y) * sx) / den;
    t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
    double cx = p0x + t * rx, cy = p0y + t * ry;
    double lox = fmax(fmin(p0x, p1x), fmin(q0x, q1x)), hix = fmin(fmax(p0x, p1x), fmax(q0x, q1x));
    double loy = fmax(fmin(p0y, p1y), fmin(q0y, q1y)), hiy = fmin(fmax(p0y, p1y), fmax(q0y, q1y));
    *x = cx < lox ? lox : (cx > hix ? hix : cx);
    *y = cy < loy ? loy : (cy > hiy ? hiy : cy);
}

/* Whether a rounded crossing point is too close to call: the segments
 * nearly parallel (the point's error grows like 1/sin of their angle), or
 * the point within a few hundred ulps of an endpoint of either segment,
 * where rounding can move it across a neighbouring piece and leave a
 * consistent but wrong labelling (two rings one ulp apart). Such a pair is
 * handed back rather than decided. */
VSG_HD int vsg_ref_cross_doubtful(double p0x, double p0y, double p1x, double p1y, double q0x,
                                  double q0y, double q1x, double q1y, double x, double y)
{
    double rx = p1x - p0x, ry = p1y - p0y, sx = q1x - q0x, sy = q1y - q0y;
    double lr = fabs(rx) + fabs(ry), ls = fabs(sx) + fabs(sy);
    if (fabs(rx * sy - ry * sx) <= 0x1p-20 * lr * ls)
        return 1;
    double m = fmax(fmax(fabs(x), fabs(y)), fmax(lr, ls));
    double tol = 0x1p-44 * m;
    const double px[4] = {p0x, p1x, q0x, q1x}, py[4] = {p0y, p1y, q0y, q1y};
    for (int k = 0; k < 4; k++)
        if (fabs(px[k] - x) <= tol && fabs(py[k] - y) <= tol)
            return 1;
    return 0;
}

/* Where node (x, y) lies on segment a -> b: at its start (VSG_REF_SNODE),
 * at its end (VSG_REF_ENODE), or inside it (0). */
VSG_HD uint32_t vsg_ref_node_end(double ax, double ay, double bx, double by, double x, double y)
{
    if (vsg_cov_same(x, y, ax, ay))
        return VSG_REF_SNODE;
    return vsg_cov_same(x, y, bx, by) ? VSG_REF_ENODE : 0u;
}

/* Whether segments p and q are one edge of positive length, in either
 * direction: its four nodes (vsg_ref_seg_nodes) are both segments' ends,
 * so callers flag the ends without the nodes. */
VSG_HD int vsg_ref_seg_shared(double p0x, double p0y, double p1x, double p1y, double q0x,
                              double q0y, double q1x, double q1y)
{
    if (p0x == p1x && p0y == p1y)
        return 0;
    return (p0x == q0x && p0y == q0y && p1x == q1x && p1y == q1y) ||
           (p0x == q1x && p0y == q1y && p1x == q0x && p1y == q0y);
}

/* The columns of row (segments kb + u of the other chunk, u a set bit)
 * whose boxes meet segment p's: the only ones with a node on it
 * (vsg_ref_seg_nodes rejects the rest by the same comparisons, and an
 * equal segment's box is p's). A row's lanes on the device are rows of
 * one chunk pair, which loop together over their columns, and each
 * iteration ran the exact tests whenever one lane's column was near: on
 * the overlapping counties three in four columns are not. Looping over
 * the near ones alone leaves each lane its own few. */
VSG_HD void vsg_ref_seg_box(double ax, double ay, double bx, double by, double *box)
{
    /* comparisons, not fmin/fmax (calls on the host): a hot loop */
    box[0] = ax < bx ? ax : bx;
    box[1] = ay < by ? ay : by;
    box[2] = ax < bx ? bx : ax;
    box[3] = ay < by ? by : ay;
}

VSG_HD uint32_t vsg_ref_row_near(const double *x, const double *y, int64_t kb, uint32_t row,
                                 double p0x, double p0y, double p1x, double p1y)
{
    double a[4], b[4];
    uint32_t near = 0;
    vsg_ref_seg_box(p0x, p0y, p1x, p1y, a);
    for (uint32_t r = row; r; r &= r - 1) {
        int u = vsg_low_bit_u32(r);
        vsg_ref_seg_box(x[kb + u], y[kb + u], x[kb + u + 1], y[kb + u + 1], b);
        near |= (uint32_t)vsg_box_meets(a, b) << u;
    }
    return near;
}

/* The nodes of segment pair (s of side 0, t of side 1): up to 8 points, each
 * a node on both. Returns the count, or -1 when an orientation is not
 * decided (the pair is handed back). */
VSG_HD int vsg_ref_seg_nodes(double p0x, double p0y, double p1x, double p1y, double q0x,
                             double q0y, double q1x, double q1y, double *nx, double *ny)
{
    if (fmax(p0x, p1x) < fmin(q0x, q1x) || fmax(q0x, q1x) < fmin(p0x, p1x) ||
        fmax(p0y, p1y) < fmin(q0y, q1y) || fmax(q0y, q1y) < fmin(p0y, p1y))
        return 0;
    /* Two equal segments, in either direction: the shared edges of real
     * layers (a county and its state, two neighbours). The four
     * orientations below are then exactly 0, each settled only past the
     * filter, and every endpoint lies on the other segment: the same four
     * nodes, in the same order, without them. */
    if ((p0x == q0x && p0y == q0y && p1x == q1x && p1y == q1y) ||
        (p0x == q1x && p0y == q1y && p1x == q0x && p1y == q0y)) {
        nx[0] = q0x; ny[0] = q0y;
        nx[1] = q1x; ny[1] = q1y;
        nx[2] = p0x; ny[2] = p0y;
        nx[3] = p1x; ny[3] = p1y;
        return 4;
    }
    int o1 = vsg_orient2d(p0x, p0y, p1x, p1y, q0x, q0y);
    int o2 = vsg_orient2d(p0x, p0y, p1x, p1y, q1x, q1y);
    int o3 = vsg_orient2d(q0x, q0y, q1x, q1y, p0x, p0y);
    int o4 = vsg_orient2d(q0x, q0y, q1x, q1y, p1x, p1y);
    if (o1 == VSG_ORIENT_UNCERTAIN || o2 == VSG_ORIENT_UNCERTAIN ||
        o3 == VSG_ORIENT_UNCERTAIN || o4 == VSG_ORIENT_UNCERTAIN)
        return -1;
    if (o1 * o2 > 0 || o3 * o4 > 0)
        return 0;
    if (o1 != 0 && o2 != 0 && o3 != 0 && o4 != 0) {
        vsg_ref_cross_point(p0x, p0y, p1x, p1y, q0x, q0y, q1x, q1y, nx, ny);
        return vsg_ref_cross_doubtful(p0x, p0y, p1x, p1y, q0x, q0y, q1x, q1y, *nx, *ny) ? -1 : 1;
    }
    int n = 0;
    if (o1 == 0 && vsg_on_segment_collinear(p0x, p0y, p1x, p1y, q0x, q0y)) {
        nx[n] = q0x; ny[n++] = q0y;
    }
    if (o2 == 0 && vsg_on_segment_collinear(p0x, p0y, p1x, p1y, q1x, q1y)) {
        nx[n] = q1x; ny[n++] = q1y;
    }
    if (o3 == 0 && vsg_on_segment_collinear(q0x, q0y, q1x, q1y, p0x, p0y)) {
        nx[n] = p0x; ny[n++] = p0y;
    }
    if (o4 == 0 && vsg_on_segment_collinear(q0x, q0y, q1x, q1y, p1x, p1y)) {
        nx[n] = p1x; ny[n++] = p1y;
    }
    return n;
}

/* Where a point lies along the segment a->b, as an ordered key: the
 * dominant axis's coordinate, increasing from a to b. Points of the
 * segment's box that differ on that axis get different keys. */
VSG_HD uint64_t vsg_ref_pos_key(double ax, double ay, double bx, double by, double x, double y)
{
    int use_x = fabs(bx - ax) >= fabs(by - ay);
    double c = use_x ? x : y;
    int up = use_x ? bx >= ax : by >= ay;
    uint64_t o = vsg_ord_of(c);
    return up ? o : ~o;
}

/* ---- labels of rings with no node: a ray count ---------------------------------- */

/* Whether the ray from (px, py) towards +x crosses segment a->b: the
 * half-open rule (a segment counts when exactly one end lies above py)
 * makes a vertex on the ray count once or not at all. Returns 1 or 0, or
 * -1 when the point lies on the segment or the side is not decided
 * exactly (the pair is handed back). */
VSG_HD int vsg_ref_ray_crosses(double px, double py, double ax, double ay, double bx, double by)
{
    if ((ay > py) == (by > py) || (ax < px && bx < px))
        return 0;
    int o = vsg_orient2d(ax, ay, bx, by, px, py);
    if (o == VSG_ORIENT_UNCERTAIN || o == 0)
        return -1;
    /* upwards the crossing lies right of P when P is on the left */
    return (by > ay) == (o == VSG_ORIENT_CCW);
}

/* ---- labels at nodes ------------------------------------------------------------ */

/* The label of a piece end at node v, whose ray runs from v to (dx, dy)
 * and which leaves v (out = 1) or arrives (out = 0), from the other
 * polygon's piece ends there: rays (ox[i], oy[i]) with their leaving flags.
 * Returns VSG_REF_* or -1 when undecided. */
VSG_HD int vsg_ref_sector_label(double vx, double vy, double dx, double dy, int out, int n,
                                const double *ox, const double *oy, const int *oout)
{
    int best = -1, along = -1, n_along = 0;
    for (int i = 0; i < n; i++) {
        int cls = vsg_cov_cw_class(vx, vy, dx, dy, ox[i], oy[i]);
        if (cls < 0)
            return -1;
        if (cls == 0) {
            along = i;
            n_along++;
            continue;
        }
        if (best < 0) {
            best = i;
            continue;
        }
        int tie = 0, unsure = 0;
        int before = vsg_cov_cw_before(vx, vy, dx, dy, ox[i], oy[i], ox[best], oy[best], &tie,
                                       &unsure);
        if (unsure)
            return -1;
        if (tie && oout[i] != oout[best])
            return -1;   /* the other polygon's boundary doubles back */
        if (before)
            best = i;
    }
    if (n_along > 1)
        return -1;
    if (along >= 0)
        return oout[along] == out ? VSG_REF_SAME : VSG_REF_OPPOSITE;
    if (best < 0)
        return -1;
    /* leaving: interior on its left, the counter-clockwise side, where the
     * piece lies; arriving: interior on the clockwise side of its ray */
    return oout[best] ? VSG_REF_IN : VSG_REF_OUT;
}

#endif
