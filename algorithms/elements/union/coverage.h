/*
 * coverage.h - per-element logic of the coverage union stage
 * (stages/union/coverage.c), the same code on the host and the device.
 *
 * The union of a group of polygons that form a coverage is its members'
 * boundaries with every edge they share removed. Oriented with the
 * interior on the left (shells counter-clockwise, holes clockwise), the
 * boundaries add up as chains: the winding number of their sum at a point
 * is the number of members covering it. An interior edge appears twice,
 * in opposite directions, with the same endpoints: cancelling such pairs
 * leaves the sum, and so the winding numbers, unchanged. What is left (R)
 * bounds the union exactly when its winding number is 0 or 1 everywhere,
 * and the stage proves that instead of trusting the input:
 *
 *   - R is noded: two of its segments meet only at a shared endpoint,
 *     never crossing, overlapping or touching an interior (a T-junction);
 *   - around every node of R the edges alternate in, out, in, out;
 *   - for every ring of R, the winding number of the other rings at one
 *     of its vertices is 0 for a counter-clockwise ring and 1 for a
 *     clockwise one (so just outside a shell it is 0, outside a hole 1).
 *
 * Then the faces alternate 0 and 1 and the rings are the union's shells
 * (counter-clockwise) and holes. Any failure sends the group elsewhere
 * (the GEOS path), with the reason in bad[group]; the checks are exact
 * (orientation by adaptive arithmetic, coordinates compared as doubles),
 * never sums of floating-point areas.
 *
 * The work of every item is bounded (a segment, a node of at most
 * VSG_COV_MAX_DEGREE edges, a chunk of a ring): no item grows with the
 * size of a polygon or group (docs/gpu-stages.md).
 *
 * Rings are linked at a node by the interior-hugging rule: an edge
 * arriving at v continues along the first edge clockwise from its own
 * reverse, which bounds the same interior sector (GEOS's maximal rings).
 * Where that makes one ring pass a node twice (a shell touching itself,
 * enclosing a hole that touches it), its two visits are re-linked across
 * the exterior, which splits it into a shell and a hole touching at the
 * node (the minimal rings, coverage_steps.h); three visits hand the group
 * back. The stage never emits a self-touching ring.
 */
#ifndef VSG_ELEMENTS_UNION_COVERAGE_H
#define VSG_ELEMENTS_UNION_COVERAGE_H

#include "elements/atomics.h"
#include "elements/bits.h"
#include "elements/box.h"
#include "elements/col_view.h"
#include "elements/filter/bounds.h"
#include "elements/filter/chunks.h"
#include "elements/filter/grid.h"   /* vsg_grid_lower_bound */
#include "elements/predicates.h"

/* why a group leaves the fast path: bits of bad[group] */
enum {
    VSG_COV_BAD_INPUT = 1,    /* not polygons, Z, non-finite, bad offsets       */
    VSG_COV_BAD_RING = 2,     /* a ring unclosed, too short, or of no orientation */
    VSG_COV_BAD_MATCH = 4,    /* a segment met in the same direction, or 3 times */
    VSG_COV_BAD_NODE = 8,     /* a node of R the linking cannot settle           */
    VSG_COV_BAD_NODING = 16,  /* segments of R cross, overlap, or touch inside   */
    VSG_COV_BAD_NESTING = 32, /* winding number not 0/1: members overlap/nest    */
    VSG_COV_BAD_POINT = 64,   /* a ring of R with no test point (a guard: every
                                 ring has a segment whose midpoint serves)      */
    VSG_COV_BAD_EMPTY = 128,  /* nothing left to union (all members empty)       */
    /* the members' areas add up to more than the group's box: they overlap
     * (above the arrangement's VSG_REF_BAD_* bits, which share why) */
    VSG_COV_BAD_OVERLAP = 1 << 16
};

#define VSG_COV_NOKEY UINT64_MAX
#define VSG_COV_MAX_DEGREE 8
#define VSG_COV_NONE INT64_MAX
/* a ring walks back or forward over at most this many repeated points */
#define VSG_COV_MAX_REPEAT 16
/* coordinates per item of the per-coordinate steps (64, as
 * VSG_BOUNDS_BLOCK: one thread walks them alone) */
#define VSG_COV_BLOCK 64

/* ---- keys ------------------------------------------------------------------
 * Hashes of exact values: equal inputs give equal keys; distinct inputs
 * collide with probability about 2^-64, and every use of a key compares
 * the coordinates exactly afterwards (a collision hands the group back).
 * A key's words (group, coordinates' bits) are mixed side by side, then
 * once together: the chain of one mix per word it was cost the CPU
 * engine's union a tenth of its time. */

VSG_HD uint64_t vsg_cov_bits(double d)
{
    union { double d; uint64_t u; } c;
    c.d = d == 0.0 ? 0.0 : d;   /* -0.0 and +0.0 are the same point */
    return c.u;
}

VSG_HD uint64_t vsg_cov_fix(uint64_t h) { return h == VSG_COV_NOKEY ? h - 1 : h; }

VSG_HD int vsg_cov_lex_less(double ax, double ay, double bx, double by)
{
    return ax < bx || (ax == bx && ay < by);
}

VSG_HD int vsg_cov_same(double ax, double ay, double bx, double by)
{
    return ax == bx && ay == by;
}

/* One word of a segment key: its high bits folded into its low ones and
 * spread by a multiply, so that coordinates on a grid (whose low mantissa
 * bits are all zero) still reach every bit of the key. */
VSG_HD uint64_t vsg_cov_word(uint64_t v, uint64_t k)
{
    v ^= v >> 32;
    v *= k;
    return v ^ (v >> 29);
}

/* The final mix of a key's words (every input bit reaches every output
 * bit). */
VSG_HD uint64_t vsg_cov_final(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    return vsg_cov_fix(h ^ (h >> 33));
}

/* The key of node (x, y) of a group, its words mixed as a segment's. */
VSG_HD uint64_t vsg_cov_node_key(int64_t group, double x, double y)
{
    return vsg_cov_final(vsg_cov_word((uint64_t)group, 0x51ed270b27a3c6f1ull) +
                         vsg_cov_word(vsg_cov_bits(x), 0x9e3779b97f4a7c15ull) +
                         vsg_cov_word(vsg_cov_bits(y), 0xc2b2ae3d27d4eb4full));
}

/* The node keys that the refine and the overlap union sort (their piece
 * ends at nodes): the top VSG_NODE_KEY_BITS bits of vsg_cov_node_key, so
 * that their radix sorts take 7 passes of 8 bits, not 8. Two nodes whose
 * keys collide are still told apart by their owners and points (the
 * labels' collision checks), and the pair or group is handed back: for
 * 5·10^6 distinct nodes in one call, about 10^-4 collisions. */
#define VSG_NODE_KEY_BITS 56
VSG_HD uint64_t vsg_node_key(int64_t owner, double x, double y)
{
    return vsg_cov_node_key(owner, x, y) >> (64 - VSG_NODE_KEY_BITS);
}

/* The key of the undirected segment {a, b} of a group. Its five words are
 * mixed side by side, not in a chain, then once together: the key is
 * taken once per segment and only places it in the table (elements equal
 * or colliding are told apart by their coordinates). */
VSG_HD uint64_t vsg_cov_seg_key(int64_t group, double ax, double ay, double bx, double by)
{
    if (vsg_cov_lex_less(bx, by, ax, ay)) {
        double tx = ax, ty = ay;
        ax = bx; ay = by; bx = tx; by = ty;
    }
    uint64_t h = vsg_cov_word((uint64_t)group, 0x2545f4914f6cdd1dull) +
                 vsg_cov_word(vsg_cov_bits(ax), 0x9e3779b97f4a7c15ull) +
                 vsg_cov_word(vsg_cov_bits(ay), 0xc2b2ae3d27d4eb4full) +
                 vsg_cov_word(vsg_cov_bits(bx), 0x165667b19e3779f9ull) +
                 vsg_cov_word(vsg_cov_bits(by), 0xd6e8feb86659fd93ull);
    return vsg_cov_final(h);
}

/* A key's home slot in a table of cap slots: the high word of key * cap
 * (uniform for a uniform key, without a 64-bit division). */
VSG_HD int64_t vsg_cov_home(uint64_t h, int64_t cap)
{
#if defined(__CUDA_ARCH__)
    return (int64_t)__umul64hi(h, (uint64_t)cap);
#else
    return (int64_t)(((unsigned __int128)h * (uint64_t)cap) >> 64);
#endif
}

/* ---- step 1: the input, per geometry, ring and block of coordinates ---- */

/* Members that cannot be unioned here mark their group. Null and empty
 * members contribute nothing. */
VSG_HD void vsg_cov_geom_check(const vsg_col_view *v, const int64_t *group_of, int64_t n_groups,
                               int64_t g, uint32_t *bad)
{
    int64_t grp = group_of[g];
    if (grp < 0 || grp >= n_groups)
        return;
    uint8_t f = v->flags[g];
    int64_t p0, p1;
    if (f & (VSG_GF_UNSUPPORTED | VSG_GF_CORRUPT | VSG_GF_NONFINITE | VSG_GF_Z))
        VSG_OR_U32(bad + grp, VSG_COV_BAD_INPUT);
    else if (f & (VSG_GF_NULL | VSG_GF_EMPTY))
        return;
    else if (vsg_gt_dimension(v->type[g]) != 2 || !vsg_geom_parts(v, g, &p0, &p1))
        VSG_OR_U32(bad + grp, VSG_COV_BAD_INPUT);
}

/* ring_geom[r], ring_shell[r] (1 for the first ring of its part), its
 * part (ring_part: the validity screen's, NULL otherwise) and the ring's
 * lowest-leftmost vertex, reset for the min passes. */
VSG_HD void vsg_cov_ring_init(const vsg_col_view *v, int64_t r, int64_t *ring_geom,
                              uint8_t *ring_shell, int64_t *ring_part, uint64_t *ring_min)
{
    int64_t p = vsg_last_le(v->part_ring, v->n_parts + 1, r);
    if (ring_part)
        ring_part[r] = p;
    int64_t g = vsg_ring_geom(v, r);
    ring_geom[r] = g;
    ring_shell[r] = (uint8_t)(p >= 0 && p < v->n_parts && v->part_ring[p] == r);
    ring_min[3 * r] = ring_min[3 * r + 1] = ring_min[3 * r + 2] = VSG_COV_NOKEY;
}

/* coord_ring[k] for the coordinates of block b (-1 outside any ring).
 * Returns the coordinates written. */
VSG_HD int64_t vsg_cov_coord_ring(const vsg_col_view *v, int64_t b, int64_t *coord_ring)
{
    int64_t k0 = b * VSG_COV_BLOCK;
    int64_t k1 = k0 + VSG_COV_BLOCK < v->n_coords ? k0 + VSG_COV_BLOCK : v->n_coords;
    int64_t r = vsg_last_le(v->ring_coord, v->n_rings + 1, k0);
    for (int64_t k = k0; k < k1; k++) {
        if (r >= 0 && r < v->n_rings && v->ring_coord[r + 1] <= k)
            r = vsg_last_le(v->ring_coord, v->n_rings + 1, k);   /* next non-empty ring */
        coord_ring[k] = r >= 0 && r < v->n_rings ? r : -1;
    }
    return k1 - k0;
}

/* The three passes of the lowest-leftmost vertex of each ring (the last,
 * closing coordinate excluded): min y, then min x among those, then the
 * first index among those. */
VSG_HD void vsg_cov_min_pass(const vsg_col_view *v, const int64_t *coord_ring, int pass,
                             int64_t k, uint64_t *ring_min)
{
    int64_t r = coord_ring[k];
    if (r < 0 || k + 1 >= v->ring_coord[r + 1])
        return;
    uint64_t oy = vsg_ord_of(v->y[k]), ox = vsg_ord_of(v->x[k]);
    uint64_t *m = ring_min + 3 * r;
    if (pass == 0)
        VSG_MIN_U64(m, oy);
    else if (pass == 1 && oy == m[0])
        VSG_MIN_U64(m + 1, ox);
    else if (pass == 2 && oy == m[0] && ox == m[1])
        VSG_MIN_U64(m + 2, (uint64_t)k);
}

/* The orientation of ring [k0, k1) (closed, first == last) at its vertex
 * i, which must be an extreme one: VSG_ORIENT_CCW, _CW, or 0 when it has
 * none or cannot be told within VSG_COV_MAX_REPEAT repeated points. */
VSG_HD int vsg_cov_ring_orient(const double *x, const double *y, int64_t k0, int64_t k1,
                               int64_t i)
{
    int64_t m = k1 - k0 - 1;   /* distinct positions */
    if (m < 3 || i < k0 || i >= k0 + m)
        return 0;
    int64_t pi = i, ni = i;
    int s = 0;
    do {
        pi = pi == k0 ? k0 + m - 1 : pi - 1;
    } while (vsg_cov_same(x[pi], y[pi], x[i], y[i]) && ++s < VSG_COV_MAX_REPEAT);
    s = 0;
    do {
        ni = ni + 1 == k0 + m ? k0 : ni + 1;
    } while (vsg_cov_same(x[ni], y[ni], x[i], y[i]) && ++s < VSG_COV_MAX_REPEAT);
    if (vsg_cov_same(x[pi], y[pi], x[i], y[i]) || vsg_cov_same(x[ni], y[ni], x[i], y[i]))
        return 0;
    int o = vsg_orient2d(x[pi], y[pi], x[i], y[i], x[ni], y[ni]);
    return o == VSG_ORIENT_CCW || o == VSG_ORIENT_CW ? o : 0;
}

/* dir[r]: +1 when ring r already has its interior on the left (a
 * counter-clockwise shell, a clockwise hole), -1 when it must be
 * reversed, 0 for a ring that marks its group bad. */
VSG_HD void vsg_cov_ring_dir(const vsg_col_view *v, const int64_t *group_of, int64_t n_groups,
                             int64_t r, const int64_t *ring_geom, const uint8_t *ring_shell,
                             const uint64_t *ring_min, int8_t *dir, uint32_t *bad)
{
    int64_t g = ring_geom[r], k0, k1;
    dir[r] = 0;
    if (g < 0 || group_of[g] < 0 || group_of[g] >= n_groups)
        return;
    int ok = vsg_ring_coords(v, r, &k0, &k1) && k1 - k0 >= 4 &&
             vsg_cov_same(v->x[k0], v->y[k0], v->x[k1 - 1], v->y[k1 - 1]);
    int o = ok && ring_min[3 * r + 2] != VSG_COV_NOKEY
                ? vsg_cov_ring_orient(v->x, v->y, k0, k1, (int64_t)ring_min[3 * r + 2])
                : 0;
    if (o == 0) {
        VSG_OR_U32(bad + group_of[g], VSG_COV_BAD_RING);
        return;
    }
    int ccw = o == VSG_ORIENT_CCW;
    dir[r] = (int8_t)(ccw == (ring_shell[r] != 0) ? 1 : -1);
}

/* Segment k (from coordinate k to k + 1 of its ring), interior on the
 * left: its group and endpoints. 0 when k starts no segment (the closing
 * coordinate, a repeated point, a bad ring). */
VSG_HD int vsg_cov_seg(const vsg_col_view *v, const int64_t *group_of, const int64_t *coord_ring,
                       const int64_t *ring_geom, const int8_t *dir, int64_t k, int64_t *grp,
                       double *ax, double *ay, double *bx, double *by)
{
    int64_t r = coord_ring[k];
    *grp = -1;
    *ax = *ay = *bx = *by = 0.0;
    if (r < 0 || dir[r] == 0 || k + 1 >= v->ring_coord[r + 1])
        return 0;
    if (vsg_cov_same(v->x[k], v->y[k], v->x[k + 1], v->y[k + 1]))
        return 0;
    *grp = group_of[ring_geom[r]];
    int f = dir[r] > 0;
    *ax = v->x[f ? k : k + 1];
    *ay = v->y[f ? k : k + 1];
    *bx = v->x[f ? k + 1 : k];
    *by = v->y[f ? k + 1 : k];
    return 1;
}

/* ---- step 1b: groups whose members certainly overlap -------------------------
 * A coverage's members have disjoint interiors, so their areas add up to
 * at most the area of the group's box. Members whose areas add up to more
 * overlap, and the cancelling, linking and noding would only find that
 * out: such a group is marked VSG_COV_BAD_OVERLAP before its segments go
 * into the table, and none of them does, so no later step works for it
 * (the caller's overlap union takes it). The margin keeps a coverage from
 * ever being marked by the rounding of the sums: each segment's share is
 * taken from its ring's first vertex, so a share is at most twice the
 * ring's box, and a group is marked only when its members exceed its box
 * by a thousandth. On the overlapping counties (each county and a copy
 * moved by 30 % of a county's size) 55 % of the groups are marked; the rest
 * overlap less than their box's empty corners. */
#define VSG_COV_OVERLAP_MARGIN 1e-3

VSG_HD void vsg_cov_area_init(int64_t g, double *g_area, uint64_t *g_box)
{
    g_area[g] = 0.0;
    vsg_bounds_ord_init(g, g_box);
}

VSG_HD void vsg_cov_area_flush(int64_t g, double a, const double *box, double *g_area,
                               uint64_t *g_box)
{
    VSG_ADD_F64(g_area + g, a);
    vsg_ord_box_merge(g_box + 4 * g, box);
}

/* Block b of coordinates: each segment's share of its member's area (the
 * cross product of its ends from its ring's first vertex, halved, signed
 * by dir: shells add, holes take away) and its start in its group's box,
 * summed over runs of one group and flushed once a run. Returns the
 * coordinates walked. */
VSG_HD int64_t vsg_cov_area_block(const vsg_col_view *v, const int64_t *group_of,
                                  int64_t n_groups, const int64_t *coord_ring,
                                  const int64_t *ring_geom, const int8_t *dir, int64_t b,
                                  double *g_area, uint64_t *g_box)
{
    int64_t k0 = b * VSG_COV_BLOCK;
    int64_t k1 = k0 + VSG_COV_BLOCK < v->n_coords ? k0 + VSG_COV_BLOCK : v->n_coords;
    int64_t cur = -1, r_at = -2, g = -1, end = 0;
    double a = 0.0, box[4], x0 = 0.0, y0 = 0.0, d = 0.0;
    vsg_box_set_inverted(box);
    /* a ring's values are read once per run of its coordinates, and each
     * coordinate once (a segment's end is the next one's start; k0 is a
     * coordinate: the step has blocks of n_coords) */
    double nx = v->x[k0], ny = v->y[k0];
    for (int64_t k = k0; k < k1; k++) {
        double ax = nx, ay = ny;
        nx = k + 1 < v->n_coords ? v->x[k + 1] : 0.0;
        ny = k + 1 < v->n_coords ? v->y[k + 1] : 0.0;
        int64_t r = coord_ring[k];
        if (r != r_at) {
            r_at = r;
            g = -1;
            if (r >= 0 && dir[r] != 0) {
                int64_t f = v->ring_coord[r];
                end = v->ring_coord[r + 1];
                g = group_of[ring_geom[r]];
                d = 0.5 * (double)dir[r];
                x0 = v->x[f];
                y0 = v->y[f];
            }
        }
        if (g < 0 || g >= n_groups || k + 1 >= end)
            continue;
        if (g != cur) {
            if (cur >= 0)
                vsg_cov_area_flush(cur, a, box, g_area, g_box);
            cur = g;
            a = 0.0;
            vsg_box_set_inverted(box);
        }
        a += d * ((ax - x0) * (ny - y0) - (nx - x0) * (ay - y0));
        /* comparisons, not fmin/fmax (calls on the host): a non-finite
         * coordinate has marked its member's group already */
        box[0] = ax < box[0] ? ax : box[0];
        box[1] = ay < box[1] ? ay : box[1];
        box[2] = ax > box[2] ? ax : box[2];
        box[3] = ay > box[3] ? ay : box[3];
    }
    if (cur >= 0)
        vsg_cov_area_flush(cur, a, box, g_area, g_box);
    return k1 - k0;
}

/* Group g: marked when its members' areas exceed its box (a group with
 * no segment has no box, and is left alone). */
VSG_HD void vsg_cov_area_test(int64_t g, const double *g_area, const uint64_t *g_box,
                              uint32_t *bad)
{
    double w = vsg_double_of_ord(g_box[4 * g + 2]) - vsg_double_of_ord(g_box[4 * g]);
    double h = vsg_double_of_ord(g_box[4 * g + 3]) - vsg_double_of_ord(g_box[4 * g + 1]);
    if (w >= 0 && h >= 0 && g_area[g] > w * h * (1.0 + VSG_COV_OVERLAP_MARGIN))
        VSG_OR_U32(bad + g, VSG_COV_BAD_OVERLAP);
}

/* ---- step 2: cancel the shared edges ----------------------------------------
 * Equal segments are found by their key in a hash table (open addressing,
 * linear probing, two slots per segment, so a probe sequence stays short):
 * each slot keeps its key and the first two segments that carry it, or
 * that three or more do. Where a key lands and which segment comes first
 * depend on the order the items run in; a segment's verdict reads only
 * how many segments carry its key and the other member of a pair, which
 * do not. A slot is 16 bytes (it was 32, with a count and 64-bit
 * segments): the table's fill and its random probes were the largest
 * part of the CPU engine's union on rings that share few edges. */
#define VSG_COV_SLOT_NONE 0xffffffffu   /* no segment                          */
#define VSG_COV_SLOT_MANY 0xfffffffeu   /* second: three or more segments       */
#define VSG_COV_SLOT_MAX_COORDS ((int64_t)VSG_COV_SLOT_MANY)   /* a call's coordinates */

typedef struct {
    uint64_t key;            /* VSG_COV_NOKEY: an empty slot               */
    uint32_t first, second;  /* segments, or VSG_COV_SLOT_NONE / _MANY     */
} vsg_cov_slot;

/* cap slots; every byte set to 0xff empties them (key NOKEY, no segment). */
typedef struct {
    int64_t cap;
    vsg_cov_slot *slot;
} vsg_cov_table;

/* The key of segment k (VSG_COV_NOKEY: k starts no segment, or its group
 * is marked already: such a group keeps no segment, so no later step
 * works for it). */
VSG_HD uint64_t vsg_cov_seg_key_at(const vsg_col_view *v, const int64_t *group_of,
                                   const int64_t *coord_ring, const int64_t *ring_geom,
                                   const int8_t *dir, const uint32_t *bad, int64_t k)
{
    int64_t g;
    double ax, ay, bx, by;
    return vsg_cov_seg(v, group_of, coord_ring, ring_geom, dir, k, &g, &ax, &ay, &bx, &by) &&
                   !bad[g]
               ? vsg_cov_seg_key(g, ax, ay, bx, by)
               : VSG_COV_NOKEY;
}

/* Segment k, of key h, into the table (slot_of[k]: its slot, -1 without a
 * key); returns the probes made. The table has more slots than segments,
 * so a probe sequence ends. The first two segments of a key take first
 * and second; a third finds both taken and marks second MANY, whichever
 * of them it displaces (any order leaves the same count class). */
VSG_HD int64_t vsg_cov_table_insert(const vsg_cov_table *t, uint64_t h, int64_t k,
                                    int64_t *slot_of)
{
    slot_of[k] = -1;
    if (h == VSG_COV_NOKEY)
        return 1;
    int64_t s = vsg_cov_home(h, t->cap), probes = 1;
    for (;; probes++) {
        uint64_t was = VSG_CAS_U64(&t->slot[s].key, VSG_COV_NOKEY, h);
        if (was == VSG_COV_NOKEY || was == h)
            break;
        if (++s == t->cap)
            s = 0;
    }
    vsg_cov_slot *e = &t->slot[s];
    if (VSG_CAS_U32(&e->first, VSG_COV_SLOT_NONE, (uint32_t)k) != VSG_COV_SLOT_NONE) {
        uint32_t was = VSG_CAS_U32(&e->second, VSG_COV_SLOT_NONE, (uint32_t)k);
        if (was != VSG_COV_SLOT_NONE && was != VSG_COV_SLOT_MANY)
            VSG_CAS_U32(&e->second, was, VSG_COV_SLOT_MANY);
    }
    slot_of[k] = s;
    return probes;
}

/* keep[k] = 1 for segment k when it stays in R. A key of one segment
 * stays; two equal segments cancel when opposite and mark the group when
 * in the same direction (members overlapping along it); a key of three or
 * more marks the group. strict (the validity screen): two equal segments
 * mark it too. Two segments whose keys collide without being equal both
 * stay. */
VSG_HD void vsg_cov_cancel(const vsg_col_view *v, const int64_t *group_of,
                           const int64_t *coord_ring, const int64_t *ring_geom,
                           const int8_t *dir, const vsg_cov_table *t, const int64_t *slot_of,
                           int64_t k, int strict, int64_t *keep, uint32_t *bad)
{
    int64_t s = slot_of[k];
    if (s < 0)
        return;
    const vsg_cov_slot *e = &t->slot[s];
    uint32_t n = e->second == VSG_COV_SLOT_NONE ? 1u : e->second == VSG_COV_SLOT_MANY ? 3u : 2u;
    int64_t g, g2;
    double ax, ay, bx, by, cx, cy, dx, dy;
    vsg_cov_seg(v, group_of, coord_ring, ring_geom, dir, k, &g, &ax, &ay, &bx, &by);
    if (n >= 3) {
        VSG_OR_U32(bad + g, VSG_COV_BAD_MATCH);
        return;
    }
    if (n == 1) {
        keep[k] = 1;
        return;
    }
    int64_t k2 = (int64_t)(e->first == (uint32_t)k ? e->second : e->first);
    vsg_cov_seg(v, group_of, coord_ring, ring_geom, dir, k2, &g2, &cx, &cy, &dx, &dy);
    if (g2 == g && vsg_cov_same(ax, ay, dx, dy) && vsg_cov_same(bx, by, cx, cy)) {
        if (strict)   /* the validity screen: one polygon's rings share an edge */
            VSG_OR_U32(bad + g, VSG_COV_BAD_MATCH);
        return;   /* an interior edge: cancelled */
    }
    if (g2 == g && vsg_cov_same(ax, ay, cx, cy) && vsg_cov_same(bx, by, dx, dy)) {
        VSG_OR_U32(bad + g, VSG_COV_BAD_MATCH);
        return;
    }
    keep[k] = 1;   /* a collision of keys (within or across groups) */
}

/* ---- the boundary R ------------------------------------------------------------
 * R's segments, compacted in coordinate order (so rings start where the
 * input's do), interior on the left. */
typedef struct {
    int64_t n;
    int64_t *group;
    double *ax, *ay, *bx, *by;
    uint64_t *skey, *ekey;       /* node keys of starts and ends, sorted
                                    (NULL with the keys' arrays: the
                                    validity screen's R)                  */
    int64_t *sidx, *eidx;        /* the segments behind them               */
    int64_t *spos, *epos;        /* where each segment's keys sorted to    */
    uint8_t *smany, *emany;      /* 1: another segment's start (end) has
                                    the same key as this one's            */
} vsg_cov_r;

/* spos[sidx[q]] = q, epos[eidx[q]] = q: a segment finds its own node's run
 * in the sorted keys without a search; smany and emany say whether that
 * run holds more than the segment (a node of several segments, or keys
 * that collide), so that vsg_cov_link can settle the rest from R's order
 * alone. */
VSG_HD void vsg_cov_r_pos(const vsg_cov_r *R, int64_t q)
{
    const int64_t n = R->n;
    R->spos[R->sidx[q]] = q;
    R->epos[R->eidx[q]] = q;
    R->smany[R->sidx[q]] = (q > 0 && R->skey[q - 1] == R->skey[q]) ||
                           (q + 1 < n && R->skey[q + 1] == R->skey[q]);
    R->emany[R->eidx[q]] = (q > 0 && R->ekey[q - 1] == R->ekey[q]) ||
                           (q + 1 < n && R->ekey[q + 1] == R->ekey[q]);
}

/* Segment j of R: group g, from a to b (interior on the left). */
VSG_HD void vsg_cov_r_set(const vsg_cov_r *R, int64_t j, int64_t g, double ax, double ay,
                          double bx, double by)
{
    R->group[j] = g;
    R->ax[j] = ax;
    R->ay[j] = ay;
    R->bx[j] = bx;
    R->by[j] = by;
    if (!R->skey)   /* the screen's R: linked by ring order, no node keys */
        return;
    R->skey[j] = vsg_cov_node_key(g, ax, ay);
    R->sidx[j] = j;
    R->ekey[j] = vsg_cov_node_key(g, bx, by);
    R->eidx[j] = j;
}

VSG_HD void vsg_cov_r_fill(const vsg_col_view *v, const int64_t *group_of,
                           const int64_t *coord_ring, const int64_t *ring_geom,
                           const int8_t *dir, const int64_t *keep, const int64_t *off, int64_t k,
                           const vsg_cov_r *R)
{
    if (!keep[k])
        return;
    int64_t g;
    double ax, ay, bx, by;
    vsg_cov_seg(v, group_of, coord_ring, ring_geom, dir, k, &g, &ax, &ay, &bx, &by);
    vsg_cov_r_set(R, off[k], g, ax, ay, bx, by);
}

/* ---- step 3: link each segment to the next one of its ring ----------------- */

/* The class of direction v->p seen from direction v->d, clockwise: 0 the
 * same direction, 1 to the right, 2 opposite, 3 to the left; -1 uncertain. */
VSG_HD int vsg_cov_cw_class(double vx, double vy, double dx, double dy, double px, double py)
{
    /* p at d: two pieces along one edge, the most of real data's labels
     * (shared edges); the orientation would be exactly 0, settled only
     * past the filter */
    if (px == dx && py == dy && (dx != vx || dy != vy))
        return 0;
    int o = vsg_orient2d(vx, vy, dx, dy, px, py);
    if (o == VSG_ORIENT_UNCERTAIN)
        return -1;
    if (o == VSG_ORIENT_CW)
        return 1;
    if (o == VSG_ORIENT_CCW)
        return 3;
    /* collinear: the same side of v on the line, or not */
    int same = (dx - vx > 0) == (px - vx > 0) && (dx - vx < 0) == (px - vx < 0) &&
               (dy - vy > 0) == (py - vy > 0) && (dy - vy < 0) == (py - vy < 0);
    return same ? 0 : 2;
}

/* Whether direction v->p comes strictly before v->q going clockwise from
 * v->d; *tie set when they are the same direction, *unsure on overflow. */
VSG_HD int vsg_cov_cw_before(double vx, double vy, double dx, double dy, double px, double py,
                             double qx, double qy, int *tie, int *unsure)
{
    int cp = vsg_cov_cw_class(vx, vy, dx, dy, px, py);
    int cq = vsg_cov_cw_class(vx, vy, dx, dy, qx, qy);
    if (cp < 0 || cq < 0) {
        *unsure = 1;
        return 0;
    }
    if (cp != cq)
        return cp < cq;
    if (cp == 0 || cp == 2) {
        *tie = 1;
        return 0;
    }
    int o = vsg_orient2d(vx, vy, px, py, qx, qy);   /* q right of v->p: after p */
    if (o == VSG_ORIENT_UNCERTAIN)
        *unsure = 1;
    if (o == 0)
        *tie = 1;
    return o == VSG_ORIENT_CW;
}

/* The segments of R with a start (starts = 1) or end at node (g, x, y):
 * up to VSG_COV_MAX_DEGREE of them in out[]; -1 when there are more, or a
 * key collides with another node. hint: a position in the sorted keys
 * that may hold the node's key (its run is found from there, in at most
 * VSG_COV_MAX_DEGREE steps back), or -1: a binary search. */
VSG_HD int vsg_cov_at_node(const vsg_cov_r *R, int starts, int64_t g, double x, double y,
                           int64_t hint, int64_t *out)
{
    const uint64_t *key = starts ? R->skey : R->ekey;
    const int64_t *idx = starts ? R->sidx : R->eidx;
    const double *px = starts ? R->ax : R->bx, *py = starts ? R->ay : R->by;
    uint64_t h = vsg_cov_node_key(g, x, y);
    int64_t q;
    if (hint >= 0 && hint < R->n && key[hint] == h) {
        q = hint;
        for (int back = 0; q > 0 && key[q - 1] == h; q--)
            if (++back > VSG_COV_MAX_DEGREE)
                return -1;
    } else {
        q = vsg_grid_lower_bound(key, R->n, h);
    }
    int n = 0;
    for (; q < R->n && key[q] == h; q++) {
        int64_t s = idx[q];
        if (n == VSG_COV_MAX_DEGREE || R->group[s] != g || !vsg_cov_same(px[s], py[s], x, y))
            return -1;
        out[n++] = s;
    }
    return n;
}

/* Whether segment k of R exists, is of group g, starts at (x, y) and is
 * the only segment whose start has its key. */
VSG_HD int vsg_cov_sole_start(const vsg_cov_r *R, int64_t k, int64_t g, double x, double y)
{
    return k >= 0 && k < R->n && !R->smany[k] && R->group[k] == g &&
           vsg_cov_same(R->ax[k], R->ay[k], x, y);
}

/* next[j]: the segment that follows j in its ring, the first leaving j's
 * end clockwise from j's reverse (the one that bounds j's interior
 * sector); deg_end[j]: the number of segments leaving that node. The node
 * must have as many segments in as out, alternating around it; otherwise
 * the group is marked. strict (the validity screen): a node of more than
 * one segment in marks it (rings touching). Work: at most VSG_COV_MAX_DEGREE^2 comparisons. */
VSG_HD int64_t vsg_cov_link(const vsg_cov_r *R, int64_t j, int strict, int64_t *next,
                            int32_t *deg_end, uint32_t *bad)
{
    int64_t g = R->group[j], outs[VSG_COV_MAX_DEGREE], ins[VSG_COV_MAX_DEGREE];
    double vx = R->bx[j], vy = R->by[j], dx = R->ax[j], dy = R->ay[j];
    /* Most nodes have one segment in and one out, and R keeps a ring in
     * order (or, reversed, in reverse): where j's end key is j's alone and
     * the segment after j (or before it) starts there with a key of its
     * own, that segment is the node's only one out, as the lookups below
     * would find, without their reads all over the sorted keys. */
    if (!R->emany[j]) {
        int64_t k = vsg_cov_sole_start(R, j + 1, g, vx, vy)   ? j + 1
                    : vsg_cov_sole_start(R, j - 1, g, vx, vy) ? j - 1
                                                              : -1;
        if (k >= 0) {
            next[j] = k;
            deg_end[j] = 1;
            return 1;
        }
    }
    /* hints: the next segment of R usually continues j's input ring */
    int no = vsg_cov_at_node(R, 1, g, vx, vy, j + 1 < R->n ? R->spos[j + 1] : -1, outs);
    int ni = vsg_cov_at_node(R, 0, g, vx, vy, R->epos[j], ins);
    next[j] = -1;
    deg_end[j] = no;
    if (no <= 0 || ni != no || (strict && no != 1)) {
        VSG_OR_U32(bad + g, VSG_COV_BAD_NODE);
        return 1;
    }
    if (no == 1) {
        next[j] = outs[0];
        return 1;
    }
    int tie = 0, unsure = 0;
    int64_t best = outs[0];
    for (int q = 1; q < no; q++)
        if (vsg_cov_cw_before(vx, vy, dx, dy, R->bx[outs[q]], R->by[outs[q]], R->bx[best],
                              R->by[best], &tie, &unsure))
            best = outs[q];
    /* no other arriving segment may lie between j's reverse and best */
    for (int q = 0; q < ni; q++)
        if (ins[q] != j &&
            !vsg_cov_cw_before(vx, vy, dx, dy, R->bx[best], R->by[best], R->ax[ins[q]],
                               R->ay[ins[q]], &tie, &unsure))
            tie = 1;
    if (tie || unsure || vsg_cov_cw_class(vx, vy, dx, dy, R->bx[best], R->by[best]) == 0) {
        VSG_OR_U32(bad + g, VSG_COV_BAD_NODE);
        return (int64_t)no * no;
    }
    next[j] = best;
    return (int64_t)no * no;
}

/* next[] must be a permutation: every segment one predecessor. */
VSG_HD void vsg_cov_pred_count(const vsg_cov_r *R, int64_t j, const int64_t *next,
                               const int32_t *deg_end, uint32_t *preds, int32_t *deg_start)
{
    int64_t s = next[j];
    if (s < 0 || s >= R->n)
        return;
    VSG_ADD_U32(preds + s, 1);
    deg_start[s] = deg_end[j];
}

VSG_HD void vsg_cov_pred_check(const vsg_cov_r *R, int64_t j, const int64_t *next,
                               const uint32_t *preds, uint32_t *bad)
{
    if (next[j] < 0 || preds[j] != 1)
        VSG_OR_U32(bad + R->group[j], VSG_COV_BAD_NODE);
}

/* The validity screen's R (strict, nothing cancelled) keeps each input
 * ring's segments together, in coordinate order: segment j's ring r
 * (returned) holds R's segments [*lo, *hi]. */
VSG_HD int64_t vsg_cov_r_ring_span(int64_t j, const int64_t *r_ring, const int64_t *ring_coord,
                                   const int64_t *keep_off, int64_t *lo, int64_t *hi)
{
    int64_t r = r_ring[j];
    *lo = keep_off[ring_coord[r]];
    *hi = keep_off[ring_coord[r + 1]] - 1;
    return r;
}

/* The validity screen's link (strict: one group per row, nothing
 * cancelled): next[j] is the segment after j in its input ring, taken from
 * R's order, which keeps ring r's segments together, [lo, hi], in order
 * (dir > 0) or reversed in place, and checked to start where j ends. No
 * node keys are sorted or looked up: a point that two rings share, or
 * that one ring visits twice, is a pair of segments meeting at an
 * endpoint without following one another, which the screen's noding
 * fails (vsg_cov_noding with next). */
VSG_HD void vsg_cov_link_ring(const vsg_cov_r *R, int64_t j, const int64_t *r_ring,
                              const int64_t *ring_coord, const int64_t *keep_off,
                              const int8_t *dir, int64_t *next, int32_t *deg_end, uint32_t *bad)
{
    int64_t lo, hi, r = vsg_cov_r_ring_span(j, r_ring, ring_coord, keep_off, &lo, &hi);
    int64_t m = dir[r] > 0 ? (j < hi ? j + 1 : lo) : (j > lo ? j - 1 : hi);
    next[j] = m;
    deg_end[j] = 1;
    if (m == j || m < 0 || m >= R->n || R->group[m] != R->group[j] ||
        !vsg_cov_same(R->bx[j], R->by[j], R->ax[m], R->ay[m])) {
        next[j] = -1;
        VSG_OR_U32(bad + R->group[j], VSG_COV_BAD_NODE);
    }
}

/* ---- step 4: R is noded ------------------------------------------------------
 * Candidate pair (i, j) of R (boxes meeting): segments of one group may
 * meet only at a shared endpoint, and not run along each other there.
 * With next (the validity screen), only where one follows the other in
 * its ring: any other contact is a point two rings share or one ring
 * visits twice (vsg_cov_link_ring). */
VSG_HD void vsg_cov_noding(const vsg_cov_r *R, int64_t i, int64_t j, const int64_t *next,
                           uint32_t *bad)
{
    if (i >= j || R->group[i] != R->group[j])
        return;
    double p1x = R->ax[i], p1y = R->ay[i], p2x = R->bx[i], p2y = R->by[i];
    double q1x = R->ax[j], q1y = R->ay[j], q2x = R->bx[j], q2y = R->by[j];
    int rel = vsg_segment_relation(p1x, p1y, p2x, p2y, q1x, q1y, q2x, q2y);
    if (rel == VSG_SEG_DISJOINT)
        return;
    int ok = 0;
    if (rel == VSG_SEG_TOUCH) {
        /* the shared endpoint e and the far ends f (of i) and h (of j) */
        double ex, ey, fx, fy, hx, hy;
        int shared = 1;
        if (vsg_cov_same(p1x, p1y, q1x, q1y)) {
            ex = p1x; ey = p1y; fx = p2x; fy = p2y; hx = q2x; hy = q2y;
        } else if (vsg_cov_same(p1x, p1y, q2x, q2y)) {
            ex = p1x; ey = p1y; fx = p2x; fy = p2y; hx = q1x; hy = q1y;
        } else if (vsg_cov_same(p2x, p2y, q1x, q1y)) {
            ex = p2x; ey = p2y; fx = p1x; fy = p1y; hx = q2x; hy = q2y;
        } else if (vsg_cov_same(p2x, p2y, q2x, q2y)) {
            ex = p2x; ey = p2y; fx = p1x; fy = p1y; hx = q1x; hy = q1y;
        } else {
            shared = 0;
            ex = ey = fx = fy = hx = hy = 0;
        }
        ok = shared && !vsg_cov_same(fx, fy, hx, hy) && vsg_cov_cw_class(ex, ey, fx, fy, hx, hy) > 0;
        if (next && next[i] != j && next[j] != i)
            ok = 0;
    }
    if (!ok)
        VSG_OR_U32(bad + R->group[i], VSG_COV_BAD_NODING);
}

/* Whether segment i's group is already marked: the noding only marks
 * (VSG_COV_BAD_NODING), so its items skip a marked group. A group marked
 * before the step keeps its bits without BAD_NODING; one unmarked before
 * it gets BAD_NODING exactly when some pair fails, whichever items ran
 * first, so the verdicts stay equal on every backend. A group of buffers
 * (circles crossing everywhere) marked by its first crossing no longer
 * has every other pair tested (docs/benchmarks.md). */
VSG_HD int vsg_cov_marked(const vsg_cov_r *R, int64_t i, const uint32_t *bad)
{
    return bad[R->group[i]] != 0;
}

/* The noding's pairs come from chunks of R: runs of at most VSG_COV_CHUNK
 * consecutive segments of one group. R keeps its rings' segments in order,
 * so a chunk's box is about a ring's width across VSG_COV_CHUNK segments:
 * the join of chunk boxes holds a sixteenth of the entries a join of
 * segment boxes would, and it keeps pairs of chunks of one group only
 * (vsg_stage_candidates_grouped), so the pairs of neighbours sharing a
 * boundary, most of those whose boxes meet, cost no test. Every pair of
 * segments of one group whose boxes meet is still tested, once: (i,
 * i + 1) by NODING_NEXT, the others of one chunk by NODING_SELF, those
 * of two chunks by NODING_CHUNKS. */
#define VSG_COV_CHUNK 16
/* vsg_cov_noding_run keeps a chunk's pairs as bits of one word */
typedef char vsg_cov_chunk_fits_a_word[VSG_COV_CHUNK <= 32 ? 1 : -1];

/* Whether segment i of R starts a chunk. */
VSG_HD int64_t vsg_cov_chunk_head(const vsg_cov_r *R, int64_t i)
{
    return i == 0 || i % VSG_COV_CHUNK == 0 || R->group[i] != R->group[i - 1];
}

VSG_HD void vsg_cov_seg_box(const vsg_cov_r *R, int64_t i, double *b)
{
    double ax = R->ax[i], ay = R->ay[i], bx = R->bx[i], by = R->by[i];
    b[0] = ax < bx ? ax : bx;
    b[1] = ay < by ? ay : by;
    b[2] = ax < bx ? bx : ax;
    b[3] = ay < by ? by : ay;
}

/* cbox: the box of chunk k, segments [start[k], start[k + 1]): the box
 * of their starts and of their ends. */
VSG_HD int64_t vsg_cov_chunk_box(const vsg_cov_r *R, const int64_t *start, int64_t k,
                                 double *cbox)
{
    double e[4], *o = cbox + 4 * k;
    vsg_box_of_coords(R->ax, R->ay, start[k], start[k + 1], 1, o);
    vsg_box_of_coords(R->bx, R->by, start[k], start[k + 1], 1, e);
    o[0] = fmin(o[0], e[0]);
    o[1] = fmin(o[1], e[1]);
    o[2] = fmax(o[2], e[2]);
    o[3] = fmax(o[3], e[3]);
    return start[k + 1] - start[k];
}

/* Segment i (box a) against segments [j0, j1) of its group (at most a
 * chunk), (i, i + 1) aside. The boxes are tested first, and the pairs
 * whose boxes meet then in order: a warp's lanes take their first such
 * pair together, then their second, where a loop over every j ran the
 * tests of the lanes that met for each j (the same tests, in the same
 * order, marking alike). */
VSG_HD void vsg_cov_noding_run(const vsg_cov_r *R, int64_t i, const double *a, int64_t j0,
                               int64_t j1, const int64_t *next, uint32_t *bad)
{
    double b[4];
    uint32_t meet = 0;
    for (int64_t j = j0; j < j1; j++) {
        vsg_cov_seg_box(R, j, b);
        meet |= (uint32_t)(j != i + 1 && vsg_box_meets(a, b)) << (j - j0);
    }
    for (; meet && !vsg_cov_marked(R, i, bad); meet &= meet - 1)
        vsg_cov_noding(R, i, j0 + vsg_low_bit_u32(meet), next, bad);
}

/* Item i of NODING_NEXT: segments i and i + 1. Most are two consecutive
 * segments of a ring, in its order (i ends where i + 1 starts) or in
 * reverse (i + 1 ends where i starts; R keeps a reversed ring reversed in
 * place), that turn where they meet: then they meet only there, which
 * vsg_cov_noding would find with four orientation tests, and one says so.
 * The rest (collinear, of two rings or groups, a repeated point) take
 * vsg_cov_noding. */
VSG_HD void vsg_cov_noding_next(const vsg_cov_r *R, int64_t i, const int64_t *next,
                                uint32_t *bad)
{
    const int64_t j = i + 1;
    if (vsg_cov_marked(R, i, bad))
        return;
    if (R->group[i] == R->group[j]) {
        int o = VSG_ORIENT_UNCERTAIN;
        if (vsg_cov_same(R->bx[i], R->by[i], R->ax[j], R->ay[j]) && (!next || next[i] == j))
            o = vsg_orient2d(R->ax[i], R->ay[i], R->bx[i], R->by[i], R->bx[j], R->by[j]);
        else if (vsg_cov_same(R->ax[i], R->ay[i], R->bx[j], R->by[j]) && (!next || next[j] == i))
            o = vsg_orient2d(R->ax[i], R->ay[i], R->bx[i], R->by[i], R->ax[j], R->ay[j]);
        if (o == VSG_ORIENT_CW || o == VSG_ORIENT_CCW)
            return;
    }
    vsg_cov_noding(R, i, j, next, bad);
}

/* Item k of NODING_SELF_CHUNKS (the CPU engine's own backend): the pairs
 * of chunk k's segments that NODING_SELF's items test, with each
 * segment's box taken once. Work: at most VSG_COV_CHUNK^2. */
VSG_HD int64_t vsg_cov_noding_chunk_self(const vsg_cov_r *R, const int64_t *start, int64_t k,
                                         const int64_t *next, uint32_t *bad)
{
    int64_t j0 = start[k], n = start[k + 1] - j0;
    double b[VSG_COV_CHUNK][4];
    if (n > VSG_COV_CHUNK)
        n = VSG_COV_CHUNK;   /* never: chunks are at most that long */
    if (n == 0 || vsg_cov_marked(R, j0, bad))
        return 1;
    for (int64_t q = 0; q < n; q++)
        vsg_cov_seg_box(R, j0 + q, b[q]);
    for (int64_t q = 0; q < n; q++)
        for (int64_t r = q + 2; r < n && !vsg_cov_marked(R, j0, bad); r++)
            if (vsg_box_meets(b[q], b[r]))
                vsg_cov_noding(R, j0 + q, j0 + r, next, bad);
    return n * n;
}

/* Item i of NODING_SELF: segment i against the later ones of its chunk,
 * which ends at j1. */
VSG_HD int64_t vsg_cov_noding_self(const vsg_cov_r *R, int64_t i, int64_t j1,
                                   const int64_t *next, uint32_t *bad)
{
    double a[4];
    vsg_cov_seg_box(R, i, a);
    vsg_cov_noding_run(R, i, a, i + 2, j1, next, bad);
    return j1 - i;
}

/* Item t of NODING_CHUNKS: segment t % VSG_COV_CHUNK of chunk pa[q]
 * against chunk pb[q] (q = t / VSG_COV_CHUNK, pa[q] < pb[q], so every i
 * is below every j; the join gives chunks of one group only, and the
 * test checks the group again); a segment off the other chunk's box
 * (most of them: chunks that meet do so at a few segments) is dropped by
 * one test. */
VSG_HD int64_t vsg_cov_noding_chunks(const vsg_cov_r *R, const int64_t *start,
                                     const double *cbox, const int64_t *pa, const int64_t *pb,
                                     int64_t t, const int64_t *next, uint32_t *bad)
{
    int64_t q = t / VSG_COV_CHUNK, ka = pa[q], kb = pb[q];
    int64_t i = start[ka] + t % VSG_COV_CHUNK, j0 = start[kb], j1 = start[kb + 1];
    if (i >= start[ka + 1] || vsg_cov_marked(R, i, bad))
        return 1;
    double a[4];
    vsg_cov_seg_box(R, i, a);
    if (!vsg_box_meets(a, cbox + 4 * kb))
        return 1;
    vsg_cov_noding_run(R, i, a, j0, j1, next, bad);
    return j1 - j0;
}

/* Item q of NODING_PAIRS (the CPU engine's own backend): chunk pair
 * (pa[q], pb[q]) whole. Two segments whose boxes meet do so inside the
 * overlap o of their chunks' boxes, so only the segments of each chunk
 * whose box meets o are paired: the same pairs as NODING_CHUNKS's items,
 * tested once each, for one pass over each chunk where NODING_CHUNKS
 * reads the second chunk once per segment of the first. Work: at most
 * 2 * VSG_COV_CHUNK box tests and VSG_COV_CHUNK^2 pairs. */
VSG_HD int64_t vsg_cov_noding_pair(const vsg_cov_r *R, const int64_t *start,
                                   const double *cbox, const int64_t *pa, const int64_t *pb,
                                   int64_t q, const int64_t *next, uint32_t *bad)
{
    int64_t ka = pa[q], kb = pb[q];
    if (vsg_cov_marked(R, start[ka], bad))
        return 1;
    const double *A = cbox + 4 * ka, *B = cbox + 4 * kb;
    double o[4] = {fmax(A[0], B[0]), fmax(A[1], B[1]), fmin(A[2], B[2]), fmin(A[3], B[3])};
    int64_t js[VSG_COV_CHUNK], work = 0;
    double jb[VSG_COV_CHUNK][4], a[4];
    int nj = 0;
    for (int64_t j = start[kb]; j < start[kb + 1] && nj < VSG_COV_CHUNK; j++) {
        vsg_cov_seg_box(R, j, jb[nj]);
        if (vsg_box_meets(jb[nj], o))
            js[nj++] = j;
    }
    work += start[kb + 1] - start[kb];
    for (int64_t i = start[ka]; nj > 0 && i < start[ka + 1]; i++) {
        vsg_cov_seg_box(R, i, a);
        work++;
        if (!vsg_box_meets(a, o))
            continue;
        for (int k = 0; k < nj && !vsg_cov_marked(R, i, bad); k++) {
            work++;
            if (js[k] != i + 1 && vsg_box_meets(a, jb[k]))
                vsg_cov_noding(R, i, js[k], next, bad);
        }
    }
    return work;
}

/* ---- step 5: rings by pointer jumping ------------------------------------------
 * lab: the smallest segment of each cycle of next (its leader); then the
 * cycle is cut before its leader and dist counts the steps to the cut.
 * Each round halves what is left; a round's items read only the previous
 * round's arrays.
 *
 * The rounds run on runs, not segments. R keeps its segments in input
 * order, a reversed ring's reversed in place, so most of a ring is runs
 * of consecutive segments linked one way, i -> i + 1 (forward) or
 * i + 1 -> i (backward): a ring of the input that nothing cancelled is
 * one run. The runs cut [0, R.n) into ranges, run r holds lo = head[r] ..
 * hi = head[r + 1] - 1; a forward run is entered at lo and left at hi, a
 * backward one entered at hi and left at lo. Jumping over runs costs
 * rounds in the log of the runs of the longest ring, over as many items
 * as there are runs, and gives every segment of a cycle the lab and dist
 * of jumping over segments:
 *   lab[i]  = the smallest lo of the cycle's runs (run ids grow with lo,
 *             so it is the lo of the smallest run id, r0);
 *   dist[i] = the steps from i to the cut before lab[i]. The rounds cut
 *             the cycle before r0's entry instead: D'(i) = the steps from
 *             i to the end of its run + the run's distance. Where r0 is
 *             backward its entry is hi0 and the leader lo0 comes m - 1 =
 *             hi0 - lo0 steps later, so dist = D' + m - 1, less the
 *             cycle's length where that passes it.
 * A chain that ends (next -1: a group already marked bad) gets bounded
 * values, lab[i] the smallest segment it reaches. */
typedef struct {
    int64_t lo, hi;
    int fwd;
} vsg_cov_run;

/* Is segment i the first of a run? It is not when linked to i - 1:
 * forward (next[i - 1] == i), or backward (next[i] == i - 1) unless
 * i - 1 is itself linked forward from i - 2 (then i - 1 would have two
 * predecessors, a bad group: the run ends there, so a run is one way). */
VSG_HD int64_t vsg_cov_run_is_head(int64_t i, const int64_t *next)
{
    if (i == 0)
        return 1;
    int64_t p = i - 1;
    if (next[p] == i)
        return 0;
    return !(next[i] == p && !(p > 0 && next[p - 1] == p));
}

/* The run of segment i, from the scan of the heads (run_off[i + 1] counts
 * the heads up to i). */
VSG_HD int64_t vsg_cov_run_of(const int64_t *run_off, int64_t i)
{
    return run_off[i + 1] - 1;
}

VSG_HD vsg_cov_run vsg_cov_run_at(const int64_t *run_head, const int64_t *next, int64_t r)
{
    vsg_cov_run u;
    u.lo = run_head[r];
    u.hi = run_head[r + 1] - 1;
    u.fwd = u.hi == u.lo || next[u.lo] == u.lo + 1;
    return u;
}

/* Steps from segment i of run u to the run's last segment. */
VSG_HD int64_t vsg_cov_run_to_end(vsg_cov_run u, int64_t i)
{
    return u.fwd ? u.hi - i : i - u.lo;
}

/* Run r's successor run (-1: the chain ends), and its label before the
 * rounds: its own id. */
VSG_HD void vsg_cov_run_link(int64_t r, const int64_t *next, const int64_t *run_off,
                             const int64_t *run_head, int64_t *cnext, int64_t *rlab, int64_t *nx)
{
    vsg_cov_run u = vsg_cov_run_at(run_head, next, r);
    int64_t t = next[u.fwd ? u.hi : u.lo];
    cnext[r] = nx[r] = t < 0 ? -1 : vsg_cov_run_of(run_off, t);
    rlab[r] = r;
}

VSG_HD void vsg_cov_label_expand(int64_t i, const int64_t *next, const int64_t *run_off,
                                 const int64_t *run_head, const int64_t *cnext,
                                 const int64_t *rlab, int64_t *lab)
{
    int64_t r = vsg_cov_run_of(run_off, i), n = cnext[r];
    vsg_cov_run u = vsg_cov_run_at(run_head, next, r);
    int64_t own = u.fwd ? i : u.lo;   /* the smallest segment i reaches in its run */
    int64_t h = n < 0 ? own : run_head[rlab[n]];
    lab[i] = h < own ? h : own;
}

/* The cut over runs: before the entry of the cycle's smallest run; else
 * the steps from run r's last segment to the next run's last one. */
VSG_HD void vsg_cov_run_cut(int64_t r, const int64_t *next, const int64_t *run_head,
                            const int64_t *cnext, const int64_t *rlab, int64_t *nx,
                            int64_t *rdist)
{
    int64_t n = cnext[r];
    if (n < 0 || n == rlab[r]) {
        nx[r] = -1;
        rdist[r] = 0;
        return;
    }
    vsg_cov_run u = vsg_cov_run_at(run_head, next, r), v = vsg_cov_run_at(run_head, next, n);
    nx[r] = n;
    rdist[r] = 1 + vsg_cov_run_to_end(v, next[u.fwd ? u.hi : u.lo]);
}

VSG_HD void vsg_cov_dist_expand(int64_t i, const int64_t *next, const int64_t *run_off,
                                const int64_t *run_head, const int64_t *rlab,
                                const int64_t *rdist, int64_t *dist)
{
    int64_t r = vsg_cov_run_of(run_off, i), r0 = rlab[r];
    vsg_cov_run u = vsg_cov_run_at(run_head, next, r), w = vsg_cov_run_at(run_head, next, r0);
    int64_t m = w.hi - w.lo + 1, len = m + rdist[r0];
    int64_t d = vsg_cov_run_to_end(u, i) + rdist[r] + (w.fwd ? 0 : m - 1);
    dist[i] = d >= len ? d - len : d;
}

VSG_HD int vsg_cov_label_round(int64_t j, const int64_t *lab, const int64_t *nx, int64_t *lab2,
                               int64_t *nx2)
{
    int64_t s = nx[j];
    if (s < 0) {
        lab2[j] = lab[j];
        nx2[j] = s;
        return 0;
    }
    int64_t l = lab[s] < lab[j] ? lab[s] : lab[j];
    lab2[j] = l;
    nx2[j] = nx[s];
    return l != lab[j];
}

VSG_HD int vsg_cov_rank_round(int64_t j, const int64_t *dist, const int64_t *nx, int64_t *dist2,
                              int64_t *nx2)
{
    int64_t s = nx[j];
    if (s < 0) {
        dist2[j] = dist[j];
        nx2[j] = -1;
        return 0;
    }
    dist2[j] = dist[j] + dist[s];
    nx2[j] = nx[s];
    return 1;
}

/* The validity screen's rings (strict), without the rounds: R's ring
 * [lo, hi] is its input ring, linked in ring order (vsg_cov_link_ring),
 * so the leader is lo and the cycle from it runs lo, lo + 1, ..., hi
 * (forward) or lo, hi, hi - 1, ..., lo + 1 (reversed in place): the lab
 * and dist the rounds would give. */
VSG_HD void vsg_cov_ring_order(int64_t j, const int64_t *r_ring, const int64_t *ring_coord,
                               const int64_t *keep_off, const int8_t *dir, int64_t *lab,
                               int64_t *dist)
{
    int64_t lo, hi, r = vsg_cov_r_ring_span(j, r_ring, ring_coord, keep_off, &lo, &hi);
    lab[j] = lo;
    dist[j] = dir[r] > 0 || j == lo ? hi - j : j - lo - 1;   /* the steps to the cut */
}

/* ---- step 6: the rings of R as columnar rings ---------------------------------
 * Ring ids in leader order (is_leader scanned); ring q's coordinates are
 * its segments' starts from the leader on, then the leader's again; a
 * leader is the smallest segment of its cycle (lab[j] == j), of a group
 * not marked (coverage_steps.h, vsg_cov_leads). */

/* A group marked bad by now (a node, a chain that ends, a ring that
 * touches itself) gets rings of no coordinates: its answer comes from
 * elsewhere, and a chain that ends would cost the square of its length
 * (each segment of a chain run forward is the smallest of what it
 * reaches, so each would lead a "ring" of the rest). */
VSG_HD int vsg_cov_ring_wanted(const vsg_cov_r *R, const uint32_t *bad, int64_t j)
{
    return bad[R->group[j]] == 0;
}

VSG_HD void vsg_cov_ring_len(int64_t j, const int64_t *lab, const int64_t *dist,
                             const int64_t *leader_off, const vsg_cov_r *R, const uint32_t *bad,
                             int64_t *len, int64_t *ring_group)
{
    if (lab[j] != j)
        return;
    int64_t q = leader_off[j];
    /* segments + the closing coordinate */
    len[q] = vsg_cov_ring_wanted(R, bad, j) ? dist[j] + 2 : 0;
    ring_group[q] = R->group[j];
}

/* The test point of a ring (tp[q]): its first vertex of node degree 1
 * (position pos), or, when every vertex is shared with other rings (a
 * square of a checkerboard), the midpoint of its first segment
 * (VSG_COV_TP_MID + pos). A vertex of degree 1 lies on no other ring of a
 * noded R, so its point-in-ring tests are exact. The midpoint is rounded:
 * it can only land on the wrong side of another ring that passes within
 * an ulp of this one without touching it. */
#define VSG_COV_TP_MID (1ull << 40)

/* Writes segment j's start at its place and offers its test point. */
VSG_HD void vsg_cov_ring_fill(int64_t j, const vsg_cov_r *R, const int64_t *lab,
                              const int64_t *dist, const int64_t *leader_off,
                              const int64_t *ring_coord, const int32_t *deg_start, double *ox,
                              double *oy, int64_t *o_coord_ring, uint64_t *tp)
{
    int64_t L = lab[j], q = leader_off[L];
    int64_t pos = dist[L] - dist[j];
    int64_t k = ring_coord[q] + pos;
    ox[k] = R->ax[j];
    oy[k] = R->ay[j];
    o_coord_ring[k] = q;
    if (pos == 0) {
        int64_t e = ring_coord[q + 1] - 1;
        ox[e] = R->ax[j];
        oy[e] = R->ay[j];
        o_coord_ring[e] = q;
    }
    /* a vertex of degree 1 first; else the middle of a segment */
    VSG_MIN_U64(tp + q, (uint64_t)pos + (deg_start[j] == 1 ? 0 : VSG_COV_TP_MID));
}

/* ---- step 7: nesting -----------------------------------------------------------
 * Per output ring q: its orientation (exact, at the lowest-leftmost
 * vertex, found by the min passes above run on the output), box, and test
 * point; then, per candidate pair (ring q's test point in ring c's box),
 * the point-in-ring parity from crossing counts over c's chunks. */
VSG_HD void vsg_cov_out_ring(int64_t q, const double *ox, const double *oy,
                             const int64_t *ring_coord, const uint64_t *ring_min,
                             const uint64_t *tp, const int64_t *ring_group, int8_t *sign,
                             double *tp_box, uint32_t *bad)
{
    int64_t k0 = ring_coord[q], k1 = ring_coord[q + 1];
    int o = ring_min[3 * q + 2] == VSG_COV_NOKEY
                ? 0
                : vsg_cov_ring_orient(ox, oy, k0, k1, (int64_t)ring_min[3 * q + 2]);
    sign[q] = (int8_t)(o == VSG_ORIENT_CCW ? 1 : o == VSG_ORIENT_CW ? -1 : 0);
    if (o == 0)
        VSG_OR_U32(bad + ring_group[q], VSG_COV_BAD_RING);
    if (tp[q] == VSG_COV_NOKEY) {
        VSG_OR_U32(bad + ring_group[q], VSG_COV_BAD_POINT);
        tp_box[4 * q] = tp_box[4 * q + 1] = INFINITY;   /* meets nothing */
        tp_box[4 * q + 2] = tp_box[4 * q + 3] = -INFINITY;
        return;
    }
    double px, py;
    if (tp[q] < VSG_COV_TP_MID) {
        px = ox[k0 + (int64_t)tp[q]];
        py = oy[k0 + (int64_t)tp[q]];
    } else {
        int64_t k = k0 + (int64_t)(tp[q] - VSG_COV_TP_MID);
        px = 0.5 * ox[k] + 0.5 * ox[k + 1];
        py = 0.5 * oy[k] + 0.5 * oy[k + 1];
    }
    tp_box[4 * q] = tp_box[4 * q + 2] = px;
    tp_box[4 * q + 1] = tp_box[4 * q + 3] = py;
}

/* The validity screen (strict, one group per row): whether row g has one
 * ring, whose nesting has nothing to check (no ring of its row around it
 * or inside it). Its boxes are then inverted before the nesting's join,
 * which pairs rings of all rows and keeps those of one row: on rows of
 * one ring each (most counties) it paired every neighbour for nothing. */
VSG_HD int vsg_cov_lone_ring(const vsg_col_view *v, int64_t g)
{
    if (g < 0 || g >= v->n_geoms)
        return 0;
    return v->part_ring[v->geom_part[g + 1]] - v->part_ring[v->geom_part[g]] == 1;
}

/* Chunks of ring c to test pair t against (0 when the pair does not count). */
VSG_HD int64_t vsg_cov_pip_items(int64_t t, const int64_t *pr, const int64_t *pc,
                                 const int64_t *ring_group, const int64_t *ring_coord)
{
    int64_t r = pr[t], c = pc[t];
    if (r == c || ring_group[r] != ring_group[c])
        return 0;
    int64_t segs = ring_coord[c + 1] - ring_coord[c] - 1;
    return (segs + VSG_CHUNK_SEGS - 1) / VSG_CHUNK_SEGS;
}

/* The crossings of the ray from (px, py) to +x (half-open in y) with the
 * segments [k0, k1) of a ring, mod 2. */
VSG_HD uint32_t vsg_cov_pip_flips(const double *ox, const double *oy, int64_t k0, int64_t k1,
                                  double px, double py)
{
    uint32_t flips = 0;
    for (int64_t k = k0; k < k1; k++) {
        double ux = ox[k], uy = oy[k], wx = ox[k + 1], wy = oy[k + 1];
        if ((uy > py) == (wy > py))
            continue;
        if (ux < px && wx < px)
            continue;
        int o = vsg_orient2d(ux, uy, wx, wy, px, py);
        if ((wy > uy && o == VSG_ORIENT_CCW) || (wy < uy && o == VSG_ORIENT_CW))
            flips ^= 1u;
    }
    return flips;
}

/* Item u: one chunk of ring c against pair t's test point; its crossings
 * flip parity[t]. The point is not on c (see VSG_COV_TP_MID). */
VSG_HD int64_t vsg_cov_pip(int64_t u, const int64_t *item_off, int64_t n_pairs,
                           const int64_t *pr, const int64_t *pc, const double *tp_box,
                           const double *ox, const double *oy, const int64_t *ring_coord,
                           uint32_t *parity)
{
    int64_t t = vsg_last_le(item_off, n_pairs + 1, u);
    if (t < 0 || t >= n_pairs)
        return 0;
    int64_t c = pc[t];
    double px = tp_box[4 * pr[t]], py = tp_box[4 * pr[t] + 1];
    int64_t k0 = ring_coord[c] + (u - item_off[t]) * VSG_CHUNK_SEGS;
    int64_t k1 = k0 + VSG_CHUNK_SEGS < ring_coord[c + 1] - 1 ? k0 + VSG_CHUNK_SEGS
                                                              : ring_coord[c + 1] - 1;
    if (vsg_cov_pip_flips(ox, oy, k0, k1, px, py))
        VSG_XOR_U32(parity + t, 1u);
    return k1 - k0;
}

/* Item t of PIP_PAIRS (the CPU engine's own backend, whose items run one
 * after another): pair t's parity over all of ring c at once, what
 * PIP_ITEMS and PIP's items give, without PIP's search for its pair.
 * Work: ring c's segments. */
VSG_HD int64_t vsg_cov_pip_pair(int64_t t, const int64_t *pr, const int64_t *pc,
                                const int64_t *ring_group, const double *tp_box,
                                const double *ox, const double *oy, const int64_t *ring_coord,
                                uint32_t *parity)
{
    int64_t r = pr[t], c = pc[t];
    parity[t] = 0;
    if (vsg_cov_pip_items(t, pr, pc, ring_group, ring_coord) == 0)
        return 1;
    int64_t k0 = ring_coord[c], k1 = ring_coord[c + 1] - 1;
    parity[t] = vsg_cov_pip_flips(ox, oy, k0, k1, tp_box[4 * r], tp_box[4 * r + 1]);
    return k1 - k0;
}

/* Pair t inside: ring r's depth and the winding number of the rings
 * around it. */
VSG_HD void vsg_cov_wind(int64_t t, const int64_t *pr, const int64_t *pc, const uint32_t *parity,
                         const int8_t *sign, int64_t *depth, int64_t *wind)
{
    if (!parity[t])
        return;
    VSG_ADD_I64(depth + pr[t], 1);
    VSG_ADD_I64(wind + pr[t], sign[pc[t]]);
}

/* Just outside a shell (counter-clockwise) the winding number is 0, just
 * outside a hole 1; anything else is an overlap or a nesting of members. */
VSG_HD void vsg_cov_wind_check(int64_t q, const int8_t *sign, const int64_t *wind,
                               const int64_t *ring_group, uint32_t *bad)
{
    if (sign[q] != 0 && wind[q] != (sign[q] > 0 ? 0 : 1))
        VSG_OR_U32(bad + ring_group[q], VSG_COV_BAD_NESTING);
}

/* A hole's shell: the deepest shell around it. */
VSG_HD void vsg_cov_parent(int64_t t, const int64_t *pr, const int64_t *pc,
                           const uint32_t *parity, const int8_t *sign, const int64_t *depth,
                           uint64_t *parent)
{
    int64_t r = pr[t], c = pc[t];
    if (!parity[t] || sign[r] >= 0 || sign[c] <= 0)
        return;
    VSG_MAX_U64(parent + r, ((uint64_t)depth[c] << 40) | (uint64_t)c);
}

/* The validity screen (strict): a hole's deepest shell must be its own
 * part's shell (o_part: the input part of each ring of R). Rings that
 * nest correctly but whose hole lies in another part's shell are a
 * polygon set GEOS calls invalid ("Hole lies outside shell"). */
VSG_HD void vsg_cov_hole_own(int64_t q, const int8_t *sign, const uint64_t *parent,
                             const int64_t *o_part, const int64_t *o_group, uint32_t *bad)
{
    if (sign[q] >= 0)
        return;
    int64_t c = (int64_t)(parent[q] & ((1ull << 40) - 1));
    if (o_part[c] != o_part[q])
        VSG_OR_U32(bad + o_group[q], VSG_COV_BAD_NESTING);
}

/* ---- step 8: the output, one MultiPolygon per good group ------------------------
 * Rings of good groups are ordered by (group, shell, hole after shell,
 * ring id) with stable sorts of these keys, least significant first. */
VSG_HD int64_t vsg_cov_shell_of(int64_t q, const int8_t *sign, const uint64_t *parent)
{
    return sign[q] > 0 ? q : (int64_t)(parent[q] & ((1ull << 40) - 1));
}

/* pass 0: hole flag; 1: shell id; 2: group. */
VSG_HD void vsg_cov_order_key(int pass, int64_t i, const int64_t *order, const int8_t *sign,
                              const uint64_t *parent, const int64_t *ring_group, uint64_t *key)
{
    int64_t q = order[i];
    key[i] = pass == 0 ? (uint64_t)(sign[q] < 0)
             : pass == 1 ? (uint64_t)vsg_cov_shell_of(q, sign, parent)
                         : (uint64_t)ring_group[q];
}

VSG_HD void vsg_cov_ring_keep(int64_t q, const int64_t *ring_group, const uint32_t *bad,
                              int64_t *keep)
{
    keep[q] = bad[ring_group[q]] == 0;
}

/* Output position i of the kept rings in order: ring counts per group
 * (rings) and shells per group (parts); len: coordinates. */
VSG_HD void vsg_cov_out_counts(int64_t i, const int64_t *order, const int8_t *sign,
                               const int64_t *ring_group, const int64_t *ring_coord,
                               int64_t *geom_parts, int64_t *is_shell, int64_t *len)
{
    int64_t q = order[i];
    is_shell[i] = sign[q] > 0;
    len[i] = ring_coord[q + 1] - ring_coord[q];
    if (sign[q] > 0)
        VSG_ADD_I64(geom_parts + ring_group[q], 1);
}

/* part_ring: a shell at output position i starts part shell_off[i]. */
VSG_HD void vsg_cov_out_parts(int64_t i, const int64_t *is_shell, const int64_t *shell_off,
                              int64_t *part_ring)
{
    if (is_shell[i])
        part_ring[shell_off[i]] = i;
}

/* Block b of the output coordinates, copied from ring order to output
 * order (at_out[q]: output position of ring q). */
VSG_HD int64_t vsg_cov_out_coords(int64_t b, int64_t n_coords, const int64_t *coord_ring,
                                  const int64_t *ring_coord, const int64_t *at_out,
                                  const int64_t *out_ring_coord, const double *ox,
                                  const double *oy, double *x, double *y)
{
    int64_t k0 = b * VSG_COV_BLOCK;
    int64_t k1 = k0 + VSG_COV_BLOCK < n_coords ? k0 + VSG_COV_BLOCK : n_coords;
    for (int64_t k = k0; k < k1; k++) {
        int64_t q = coord_ring[k], i = q < 0 ? -1 : at_out[q];
        if (i < 0)
            continue;
        int64_t d = out_ring_coord[i] + (k - ring_coord[q]);
        x[d] = ox[k];
        y[d] = oy[k];
    }
    return k1 - k0;
}

VSG_HD void vsg_cov_at_out(int64_t i, const int64_t *order, int64_t *at_out)
{
    at_out[order[i]] = i;
}

/* Per group: its type and flags; a group that is bad, or has no shell
 * (nothing but empty members), is NULL here and not ok: the caller hands
 * it back. */
VSG_HD void vsg_cov_out_geom(int64_t g, uint32_t *bad, const int64_t *shells, uint8_t *type,
                             uint8_t *flags, uint8_t *ok)
{
    if (bad[g] == 0 && shells[g] == 0)
        bad[g] = VSG_COV_BAD_EMPTY;
    type[g] = VSG_GT_MULTIPOLYGON;
    ok[g] = bad[g] == 0;
    flags[g] = bad[g] ? VSG_GF_NULL : 0;
}

#endif
