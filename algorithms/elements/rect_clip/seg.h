/*
 * seg.h - the rectangle clip of polygons, segment-parallel: the same
 * result as the per-geometry walk of poly.h (docs/rect-clip.md), computed
 * in items whose work does not grow with the size of a geometry, ring or
 * chain (the rule of docs/gpu-stages.md). Each function below is one item
 * of one step; stages/rect_clip/rect_clip.c runs the steps in order on the
 * host (a loop) or the device (cuda/rect_clip/launch_rect_clip.cu), and
 * the per-ring, per-part and per-geometry results come from scans and
 * sorts between the steps, never from a loop over a geometry:
 *
 *   geom     (per row)    the row's kind; polygon clips are FAST
 *   ring     (per ring)   its part and geometry; closed and long enough
 *   coord    (per coord)  its ring; where it lies; the ring's lowest x
 *   seg      (per seg)    chain start / end here, vertex kept, the centre's
 *                         crossing parity, the lowest y at the lowest x
 *   -- scans of the three flags: chain ids, end ids, output vertex ranks
 *   scatter  (per seg)    chain -> start segment, end id -> segment; the
 *                         lowest-leftmost vertex (its index)
 *   ring2    (per ring)   orientation (exact, at the lowest-leftmost
 *                         vertex), class, interior holes
 *   chain    (per chain)  its entry and exit (points, boundary positions,
 *                         rays), the vertices it keeps
 *   -- radix sorts of the ends: by position along the side, then (part,
 *      side) (stable)
 *   group    (per end)    ends at one boundary point ordered by angle (at
 *                         most RC_GROUP_MAX; more: the per-geometry path)
 *   link     (per end)    exit -> next entry: successor chain, corners
 *   -- pointer jumping: cycle label (lowest chain); list ranking: each
 *      chain's offset in its output ring
 *   weight / group2 / part / cslot   checks, what each part and output
 *                         ring gives (output slots: one per part, one per
 *                         chain; a slot is a part of the output)
 *   -- scans over slots, then per geometry: the output counts
 *   fills per part, ring, chain and coordinate
 *
 * Anything the per-geometry path would hand to the CPU engine, and the few
 * cases this path does not settle itself (see rcs_slow callers), marks the
 * row SLOW: the per-geometry path (clip.h) then clips that row as before,
 * so the output and row_cpu are those of that path.
 */
#ifndef VSG_ELEMENTS_RECT_CLIP_SEG_H
#define VSG_ELEMENTS_RECT_CLIP_SEG_H

#include "elements/atomics.h"
#include "elements/filter/bounds.h"
#include "elements/rect_clip/clip.h"

enum { RCG_FAST = 1, RCG_SLOW = 2 };
/* ract: what a ring of a FAST row is */
enum { RCA_NONE = 0, RCA_POLY = 1, RCA_LINE = 2, RCA_POINT = 3 };
enum { RCR_NOTIN = 1, RCR_PIP = 2, RCR_ON = 4 };
enum { RCP_SHELLQ = 1, RCP_HOLEQ = 2, RCP_ON = 4, RCP_HOLE_NOT_INT = 8, RCP_MIXED = 16,
       RCP_MULTI = 32 };

/* coordinates per chunk of the touch check (16 x 16 vertex-segment tests
 * per pair of chunks) */
#define RC_TOUCH_CHUNK 16

/* ends at one boundary point ordered in one item: at most this many */
#define RC_GROUP_MAX 16

/* ---- helpers ---------------------------------------------------------------- */

VSG_HD void rcs_slow(const rc_args *a, int64_t g)
{
    if (g >= 0 && g < a->in.n_geoms)
        VSG_OR_U32(a->s.gflag + g, RCG_SLOW);
}

/* Whether row g is a polygon clip this path settles. */
VSG_HD int rcs_ok(const rc_args *a, int64_t g)
{
    return g >= 0 && a->kind[g] == RC_K_CLIP &&
           (a->s.gflag[g] & (RCG_FAST | RCG_SLOW)) == RCG_FAST;
}

VSG_HD int64_t rcs_part_geom(const rc_args *a, int64_t p)
{
    int64_t g = vsg_last_le(a->in.geom_part, a->in.n_geoms + 1, p);
    return g >= 0 && g < a->in.n_geoms ? g : -1;
}

/* Ring r: first coordinate and number of segments (closed ring). */
VSG_HD void rcs_ring(const rc_args *a, int64_t r, int64_t *c0, int64_t *n)
{
    *c0 = a->in.ring_coord[r];
    *n = a->in.ring_coord[r + 1] - *c0 - 1;
}

/* Vertices ring r keeps in the output (consecutive repeats once). */
VSG_HD int64_t rcs_ring_kept(const rc_args *a, int64_t r)
{
    int64_t c0, n;
    rcs_ring(a, r, &c0, &n);
    return a->s.s_fk[c0 + n] - a->s.s_fk[c0];
}

/* Chains before part p (p <= n_parts): the slot of p is p + this. */
VSG_HD int64_t rcs_pchain(const rc_args *a, int64_t p)
{
    return a->s.s_fs[a->in.ring_coord[a->in.part_ring[p]]];
}

VSG_HD int64_t rcs_gslot(const rc_args *a, int64_t g)
{
    int64_t p = a->in.geom_part[g];
    return p + rcs_pchain(a, p);
}

/* Where slot `slot` of row g starts in the output: part, ring, coord. */
VSG_HD void rcs_slot_out(const rc_args *a, int64_t g, int64_t slot, int64_t *op, int64_t *orr,
                         int64_t *ok)
{
    int64_t sb = rcs_gslot(a, g);
    *op = a->part_off[g] + a->s.ss_p[slot] - a->s.ss_p[sb];
    *orr = a->ring_off[g] + a->s.ss_r[slot] - a->s.ss_r[sb];
    *ok = a->coord_off[g] + a->s.ss_k[slot] - a->s.ss_k[sb];
}

/* The part an end is linked within (its key for the sort); the ends of
 * line pieces (rev < 0) are not linked: they sort after every part. */
VSG_HD int64_t rcs_end_part(const rc_args *a, int64_t e)
{
    return a->s.cend[e].rev < 0 ? a->in.n_parts : a->s.ring_part[a->s.cend[e].ring];
}

VSG_HD int64_t rcs_end_geom(const rc_args *a, int64_t e)
{
    return a->s.ring_geom[a->s.cend[e].ring];
}

/* Sorted positions i, j hold ends of one part at one boundary point. */
VSG_HD int rcs_same(const rc_args *a, int64_t i, int64_t j)
{
    int64_t ei = a->s.sval[i], ej = a->s.sval[j];
    if (a->s.cend[ei].rev < 0 || a->s.cend[ej].rev < 0)
        return 0;
    return rcs_end_part(a, ei) == rcs_end_part(a, ej) &&
           rc_same_pos(&a->s.cend[ei], &a->s.cend[ej]);
}

/* The first sorted position of part p at or before position q. */
VSG_HD int64_t rcs_part_first(const rc_args *a, int64_t q, int64_t p)
{
    int64_t lo = 0, hi = q;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (rcs_end_part(a, a->s.sval[mid]) < p)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* One past the last sorted position of part p at or after position q. */
VSG_HD int64_t rcs_part_end(const rc_args *a, int64_t q, int64_t p)
{
    int64_t lo = q, hi = 2 * a->s.n_chains;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (rcs_end_part(a, a->s.sval[mid]) <= p)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The centre's horizontal ray (to +x) against segment a -> b, as the
 * point-in-ring walk of out.h counts it: 2 on the segment, 1 a crossing. */
VSG_HD int rcs_pip_edge(double ax, double ay, double bx, double by, double qx, double qy)
{
    int s = rc_orient(ax, ay, bx, by, qx, qy);
    if (s == 0 && qx >= fmin(ax, bx) && qx <= fmax(ax, bx) && qy >= fmin(ay, by) &&
        qy <= fmax(ay, by))
        return 2;
    return (ay > qy) != (by > qy) && (s > 0) == (by > ay);
}

/* ---- steps before the chain scans ---------------------------------------------- */

VSG_HD int64_t rcs_geom(const rc_args *a, int64_t g)
{
    int k = rc_kind_of(a, g);
    a->kind[g] = (uint8_t)k;
    a->row_cpu[g] = k == RC_K_CPU;
    a->ep_count[g] = 0;
    a->s.gflag[g] = k == RC_K_CLIP ? RCG_FAST : 0;   /* points, lines, polygons */
    return 1;
}

VSG_HD int64_t rcs_ring_step(const rc_args *a, int64_t r)
{
    const vsg_col_view *v = &a->in;
    int64_t p = vsg_last_le(v->part_ring, v->n_parts + 1, r);
    if (p >= v->n_parts)
        p = -1;
    int64_t g = p >= 0 ? rcs_part_geom(a, p) : -1;
    a->s.ring_part[r] = p;
    a->s.ring_geom[r] = g;
    a->s.rmin[4 * r] = a->s.rmin[4 * r + 1] = vsg_ord_of(INFINITY);
    a->s.rmin[4 * r + 2] = ~(uint64_t)0;
    a->s.rmin[4 * r + 3] = 0;
    a->s.rflag[r] = 0;
    int act = RCA_NONE;
    if (g >= 0 && (a->s.gflag[g] & RCG_FAST)) {
        int64_t c0, n;
        rcs_ring(a, r, &c0, &n);
        int dim = vsg_gt_dimension(v->type[g]);
        if (dim == 0)
            act = RCA_POINT;
        else if (dim == 1 && n >= 1)
            act = RCA_LINE;
        else if (dim == 2 && n >= 3 && v->x[c0] == v->x[c0 + n] && v->y[c0] == v->y[c0 + n])
            act = RCA_POLY;
        else
            rcs_slow(a, g);   /* the per-geometry path hands it to the CPU engine */
    }
    a->s.ract[r] = (uint8_t)act;
    return 1;
}

VSG_HD int64_t rcs_coord(const rc_args *a, int64_t k)
{
    const vsg_col_view *v = &a->in;
    int64_t r = vsg_last_le(v->ring_coord, v->n_rings + 1, k);
    if (r >= v->n_rings)
        r = -1;
    a->s.coord_ring[k] = r;
    int w = RC_OUT;
    if (r >= 0 && a->s.ract[r] != RCA_NONE) {
        int64_t c0, n;
        rcs_ring(a, r, &c0, &n);
        if (a->s.ract[r] != RCA_POLY) {
            w = rc_where(a->rect, v->x[k], v->y[k]);   /* every vertex of a path */
        } else if (k < c0 + n) {
            w = rc_where(a->rect, v->x[k], v->y[k]);
            VSG_ORD_MIN(a->s.rmin + 4 * r, vsg_ord_of(v->x[k]));
            if (w != RC_IN)
                VSG_OR_U32(a->s.rflag + r, RCR_NOTIN);
        }
    }
    a->s.cw[k] = (uint8_t)w;
    return 1;
}

VSG_HD int64_t rcs_seg(const rc_args *a, int64_t k)
{
    const vsg_col_view *v = &a->in;
    const double *R = a->rect;
    int64_t fs = 0, fe = 0, fk = 0;
    int64_t r = a->s.coord_ring[k];
    int act = r >= 0 ? a->s.ract[r] : RCA_NONE;
    if (act == RCA_POINT) {
        fk = a->s.cw[k] == RC_IN;   /* a point kept */
    } else if (act == RCA_LINE) {
        /* a path of n + 1 vertices: n segments; a piece starts at the
         * first segment or after a vertex not strictly inside, ends at the
         * last or before one; its inner vertices are kept once */
        int64_t c0, n;
        rcs_ring(a, r, &c0, &n);
        int64_t i = k - c0;
        int wa = a->s.cw[k];
        if (i < n) {
            double ax = v->x[k], ay = v->y[k], bx = v->x[k + 1], by = v->y[k + 1];
            int wb = a->s.cw[k + 1];
            int in = rc_seg_inside(R, ax, ay, bx, by);
            if (in && wa != RC_IN && wb != RC_IN) {
                double ex, ey, xx, xy;
                rc_cross_point(R, ax, ay, bx, by, 0, &ex, &ey);
                rc_cross_point(R, ax, ay, bx, by, 1, &xx, &xy);
                if (rc_same_side(R, ex, ey, xx, xy))
                    in = 0;
            }
            fs = in && (i == 0 || wa != RC_IN);
            fe = in && (i == n - 1 || wb != RC_IN);
        }
        fk = i >= 1 && i < n && wa == RC_IN && (v->x[k] != v->x[k - 1] || v->y[k] != v->y[k - 1]);
    } else if (act == RCA_POLY) {
        int64_t c0, n;
        rcs_ring(a, r, &c0, &n);
        int64_t i = k - c0;
        if (i < n) {
            int64_t kb = i + 1 < n ? k + 1 : c0;
            double ax = v->x[k], ay = v->y[k], bx = v->x[k + 1], by = v->y[k + 1];
            int wa = a->s.cw[k], wb = a->s.cw[kb];
            int in = wa == RC_IN || wb == RC_IN || rc_seg_meets(R, ax, ay, bx, by);
            if (in && wa != RC_IN && wb != RC_IN) {
                /* rounding made a piece along a side: not inside */
                double ex, ey, xx, xy;
                rc_cross_point(R, ax, ay, bx, by, 0, &ex, &ey);
                rc_cross_point(R, ax, ay, bx, by, 1, &xx, &xy);
                if (rc_same_side(R, ex, ey, xx, xy))
                    in = 0;
            }
            fs = in && wa != RC_IN;
            fe = in && wb != RC_IN;
            int64_t kp = i > 0 ? k - 1 : c0 + n - 1;
            fk = wa == RC_IN && (ax != v->x[kp] || ay != v->y[kp]);
            double qx = 0.5 * (R[0] + R[2]), qy = 0.5 * (R[1] + R[3]);
            int e = rcs_pip_edge(ax, ay, bx, by, qx, qy);
            if (e == 2)
                VSG_OR_U32(a->s.rflag + r, RCR_ON);
            else if (e == 1)
                VSG_XOR_U32(a->s.rflag + r, RCR_PIP);
            if (ax == vsg_double_of_ord(a->s.rmin[4 * r]))
                VSG_ORD_MIN(a->s.rmin + 4 * r + 1, vsg_ord_of(ay));
        }
    }
    a->s.fs[k] = fs;
    a->s.fe[k] = fe;
    a->s.fk[k] = fk;
    return 1;
}

/* ---- after the chain scans ------------------------------------------------------- */

VSG_HD int64_t rcs_scatter(const rc_args *a, int64_t k)
{
    int64_t r = a->s.coord_ring[k];
    if (r < 0 || !a->s.ract[r])
        return 1;
    if (a->s.fs[k])
        a->s.ch_s[a->s.s_fs[k]] = k;
    if (a->s.fe[k])
        a->s.end_seg[a->s.s_fe[k]] = k;
    int64_t c0, n;
    rcs_ring(a, r, &c0, &n);
    if (a->s.ract[r] == RCA_POLY && k < c0 + n &&
        a->in.x[k] == vsg_double_of_ord(a->s.rmin[4 * r]) &&
        a->in.y[k] == vsg_double_of_ord(a->s.rmin[4 * r + 1])) {
        VSG_ORD_MIN(a->s.rmin + 4 * r + 2, (uint64_t)k);
        VSG_ORD_MAX(a->s.rmin + 4 * r + 3, (uint64_t)k);
    }
    return 1;
}

VSG_HD int64_t rcs_ring2(const rc_args *a, int64_t r)
{
    const vsg_col_view *v = &a->in;
    a->s.hf[r] = a->s.hk[r] = 0;
    a->s.rrev[r] = 0;
    a->s.rcls[r] = RC_RING_OUTSIDE;
    if (a->s.ract[r] != RCA_POLY)
        return 1;
    int64_t c0, n;
    rcs_ring(a, r, &c0, &n);
    int64_t p = a->s.ring_part[r], g = a->s.ring_geom[r];
    int shell = v->part_ring[p] == r;
    /* orientation: exact, at the lowest-leftmost vertex (its repeats are
     * consecutive in a valid ring: the neighbours of the run) */
    int64_t m = (int64_t)a->s.rmin[4 * r + 2], mm = (int64_t)a->s.rmin[4 * r + 3];
    if (m < c0 || mm < m || mm >= c0 + n || (m == c0 && mm == c0 + n - 1)) {
        rcs_slow(a, g);   /* repeats across the ring's start: the walk decides */
        return 1;
    }
    int64_t pv = m == c0 ? c0 + n - 1 : m - 1, nx = mm + 1;
    int o = rc_orient(v->x[pv], v->y[pv], v->x[m], v->y[m], v->x[nx], v->y[nx]);
    if (o == 0)
        rcs_slow(a, g);   /* a repeated or collinear neighbour: the walk decides */
    a->s.rrev[r] = (uint8_t)((o > 0) != shell);
    int64_t nc = a->s.s_fs[c0 + n] - a->s.s_fs[c0];
    uint32_t fl = a->s.rflag[r];
    int cls = nc > 0 ? RC_RING_CHAINED : (fl & RCR_NOTIN) ? RC_RING_OUTSIDE : RC_RING_INTERIOR;
    a->s.rcls[r] = cls;
    int64_t kept = a->s.s_fk[c0 + n] - a->s.s_fk[c0];
    if (cls == RC_RING_INTERIOR && kept < 3)
        rcs_slow(a, g);
    if (!shell && cls == RC_RING_INTERIOR) {
        a->s.hf[r] = 1;
        a->s.hk[r] = kept + 1;
    }
    uint32_t pf = 0;
    if (shell) {
        pf |= (fl & RCR_ON) ? RCP_ON : 0;
        pf |= (fl & RCR_PIP) ? RCP_SHELLQ : 0;
    } else {
        if (cls == RC_RING_OUTSIDE) {
            pf |= (fl & RCR_ON) ? RCP_ON : 0;
            pf |= (fl & RCR_PIP) ? RCP_HOLEQ : 0;
        }
        if (cls != RC_RING_INTERIOR)
            pf |= RCP_HOLE_NOT_INT;
    }
    if (pf)
        VSG_OR_U32(a->s.pflag + p, pf);
    return 1;
}

/* Chain c: its ends (entry 2c, exit 2c + 1, in the direction the ring is
 * walked), the vertices it keeps, the sort keys of its ends. */
VSG_HD int64_t rcs_chain(const rc_args *a, int64_t c)
{
    const vsg_col_view *v = &a->in;
    const double *R = a->rect;
    const double *x = v->x, *y = v->y;
    int64_t s = a->s.ch_s[c], r = a->s.coord_ring[s];
    int64_t c0, n;
    rcs_ring(a, r, &c0, &n);
    int64_t b0 = a->s.s_fs[c0], nc = a->s.s_fs[c0 + n] - b0;
    a->s.succ[c] = c;
    a->s.ek[c] = 0;
    a->s.ncorn[c] = 0;
    a->s.skey[2 * c] = a->s.skey[2 * c + 1] = ~(uint64_t)0;
    a->s.sval[2 * c] = 2 * c;
    a->s.sval[2 * c + 1] = 2 * c + 1;
    if (a->s.ract[r] == RCA_LINE) {
        /* a piece of a path: entry, inner vertices, exit; its own output
         * part, never linked (rev = -1 marks it) */
        int64_t t = a->s.end_seg[a->s.s_fe[c0] + (c - b0)];
        a->s.ch_t[c] = t;
        rc_end A, B;
        A.key = B.key = A.ux = A.uy = A.vx = A.vy = B.ux = B.uy = B.vx = B.vy = 0.0;
        A.side = B.side = 0;
        A.px = x[s]; A.py = y[s];
        if (a->s.cw[s] != RC_IN)
            rc_cross_point(R, x[s], y[s], x[s + 1], y[s + 1], 0, &A.px, &A.py);
        B.px = x[t + 1]; B.py = y[t + 1];
        if (a->s.cw[t + 1] != RC_IN)
            rc_cross_point(R, x[t], y[t], x[t + 1], y[t + 1], 1, &B.px, &B.py);
        A.ring = B.ring = r;
        A.seg = s;
        B.seg = t;
        A.rev = B.rev = -1;
        a->s.cend[2 * c] = A;
        a->s.cend[2 * c + 1] = B;
        int64_t kin = a->s.s_fk[t + 1] - a->s.s_fk[s + 1];
        double lx = t > s ? x[t] : A.px, ly = t > s ? y[t] : A.py;
        a->s.kin[c] = kin;
        a->s.ncorn[c] = !(B.px == lx && B.py == ly);   /* lines: the exit is kept */
        return 1;
    }
    int64_t shift = a->s.cw[c0] == RC_IN;   /* a chain wraps the ring start */
    int64_t t = a->s.end_seg[a->s.s_fe[c0] + (c - b0 + shift) % nc];
    int rev = a->s.rrev[r];
    a->s.ch_t[c] = t;
    rc_end A, B;
    rc_cross_point(R, x[s], y[s], x[s + 1], y[s + 1], 0, &A.px, &A.py);
    A.ux = x[s]; A.uy = y[s]; A.vx = x[s + 1]; A.vy = y[s + 1];
    rc_cross_point(R, x[t], y[t], x[t + 1], y[t + 1], 1, &B.px, &B.py);
    B.ux = x[t + 1]; B.uy = y[t + 1]; B.vx = x[t]; B.vy = y[t];
    A.ring = B.ring = r;
    A.seg = s;
    B.seg = t;
    A.rev = B.rev = rev;
    rc_perim(R, A.px, A.py, &A.side, &A.key);
    rc_perim(R, B.px, B.py, &B.side, &B.key);
    A.key += 0.0;   /* -0.0 -> +0.0: one image per position */
    B.key += 0.0;
    a->s.cend[2 * c] = rev ? B : A;
    a->s.cend[2 * c + 1] = rev ? A : B;
    int64_t kin = 0;
    if (s != t) {
        const int64_t *P = a->s.s_fk + c0;
        int64_t f = (s - c0 + 1) % n, e = t - c0 + 1;
        kin = e > f ? P[e] - P[f] : (P[n] - P[f]) + (P[e] - P[0]);
    }
    if (kin == 0 && A.px == B.px && A.py == B.py)
        rcs_slow(a, a->s.ring_geom[r]);
    a->s.kin[c] = kin;
    a->s.skey[2 * c] = vsg_ord_of(a->s.cend[2 * c].key);
    a->s.skey[2 * c + 1] = vsg_ord_of(a->s.cend[2 * c + 1].key);
    return 1;
}

/* After the sort by position: the key of the stable sort by part, side. */
VSG_HD int64_t rcs_key2(const rc_args *a, int64_t q)
{
    int64_t e = a->s.sval[q];
    a->s.skey[q] = ((uint64_t)rcs_end_part(a, e) << 2) | (uint64_t)a->s.cend[e].side;
    return 1;
}

/* Ends at one boundary point (a group, found from its first position):
 * ordered by the angle of their rays (rc_end_cmp), at most RC_GROUP_MAX. */
VSG_HD int64_t rcs_group(const rc_args *a, int64_t q)
{
    int64_t M = 2 * a->s.n_chains;
    if ((q > 0 && rcs_same(a, q - 1, q)) || q + 1 >= M || !rcs_same(a, q, q + 1))
        return 1;
    int64_t gs = 2;
    while (q + gs < M && gs <= RC_GROUP_MAX && rcs_same(a, q, q + gs))
        gs++;
    if (gs > RC_GROUP_MAX) {
        rcs_slow(a, rcs_end_geom(a, a->s.sval[q]));
        return RC_GROUP_MAX;
    }
    int64_t *o = a->s.sval + q;
    for (int64_t i = 1; i < gs; i++) {
        int64_t t = o[i], j = i;
        while (j > 0 && rc_end_cmp(&a->s.cend[o[j - 1]], &a->s.cend[t]) > 0) {
            o[j] = o[j - 1];
            j--;
        }
        o[j] = t;
    }
    for (int64_t i = 0; i + 1 < gs; i++)
        if (rc_end_cmp(&a->s.cend[o[i]], &a->s.cend[o[i + 1]]) == 0)
            rcs_slow(a, rcs_end_geom(a, o[i]));   /* two chains leave together */
    return gs * gs;
}

/* Each exit is followed, along the boundary, by the next end of its part
 * (cyclically), which must be an entry: the successor chain, the corners
 * walked between, and whether the entry point repeats the last point. */
VSG_HD int64_t rcs_link(const rc_args *a, int64_t q)
{
    int64_t M = 2 * a->s.n_chains;
    int64_t e = a->s.sval[q];
    if (!(e & 1) || a->s.cend[e].rev < 0)
        return 1;
    int64_t p = rcs_end_part(a, e);
    int64_t qn = q + 1 < M && rcs_end_part(a, a->s.sval[q + 1]) == p ? q + 1
                                                                      : rcs_part_first(a, q, p);
    int64_t ne = a->s.sval[qn];
    if (ne & 1) {
        rcs_slow(a, rcs_end_geom(a, e));   /* two exits in a row: not valid */
        return 1;
    }
    int64_t c = e >> 1, d = ne >> 1;
    const rc_end *X = &a->s.cend[e], *E = &a->s.cend[ne];
    int zero = rc_same_pos(X, E) || (X->side == E->side && qn > q);
    int corners = zero ? 0 : ((E->side - X->side + 3) & 3) + 1;
    double lx = X->px, ly = X->py;
    if (!zero)
        rc_corner(a->rect, E->side, &lx, &ly);
    a->s.succ[c] = d;
    a->s.ncorn[c] = corners;
    a->s.ek[d] = (uint8_t)!(E->px == lx && E->py == ly);
    return 1;
}

VSG_HD int64_t rcs_lab_init(const rc_args *a, int64_t c)
{
    a->s.pj_a[0][c] = c;
    a->s.pj_b[0][c] = a->s.succ[c];
    return 1;
}

/* One round of pointer jumping: the lowest chain over twice the span. */
VSG_HD int64_t rcs_lab_round(const rc_args *a, int64_t c)
{
    int s = a->s.pj_src;
    const int64_t *m0 = a->s.pj_a[s], *j0 = a->s.pj_b[s];
    int64_t j = j0[c];
    a->s.pj_a[1 - s][c] = m0[c] < m0[j] ? m0[c] : m0[j];
    a->s.pj_b[1 - s][c] = j0[j];
    return 1;
}

/* The cycle (output ring) a chain is in is labelled by its lowest chain;
 * a ring mixing chains of two input rings may touch itself (a hole meeting
 * the shell): the per-geometry path checks it. Then the list ranking's
 * start: the chain's weight (points it emits) and the next chain, the
 * cycle cut before its head. */
VSG_HD int64_t rcs_weight(const rc_args *a, int64_t c)
{
    int64_t L = a->s.lab[c];
    if (a->s.cend[2 * L].ring != a->s.cend[2 * c].ring) {
        /* a ring of the output joining chains of several input rings: where
         * they touch inside the rectangle it would touch itself (the touch
         * steps check) */
        a->s.cmix[L] = 1;
        a->s.any_mixed[0] = 1;
        VSG_OR_U32(a->s.pflag + rcs_end_part(a, 2 * c), RCP_MIXED);
    }
    a->s.hs[c] = L == c;
    /* points the chain emits: (entry) inner vertices, exit, corners; a
     * line piece: entry, inner vertices, (exit) */
    a->s.pj_c[0][c] = a->s.cend[2 * c].rev < 0 ? 1 + a->s.kin[c] + a->s.ncorn[c]
                                               : a->s.ek[c] + a->s.kin[c] + 1 + a->s.ncorn[c];
    a->s.pj_d[0][c] = a->s.succ[c] == L ? -1 : a->s.succ[c];
    return 1;
}

VSG_HD int64_t rcs_rank_round(const rc_args *a, int64_t c)
{
    int s = a->s.pj_src;
    const int64_t *w0 = a->s.pj_c[s], *n0 = a->s.pj_d[s];
    int64_t nx = n0[c];
    a->s.pj_c[1 - s][c] = w0[c] + (nx >= 0 ? w0[nx] : 0);
    a->s.pj_d[1 - s][c] = nx >= 0 ? n0[nx] : -1;
    return 1;
}

/* An output ring may pass a boundary point once only (the check of
 * rc_link, per group of ends at one point, with the cycle labels). */
VSG_HD int64_t rcs_group2(const rc_args *a, int64_t q)
{
    int64_t M = 2 * a->s.n_chains;
    if ((q > 0 && rcs_same(a, q - 1, q)) || q + 1 >= M || !rcs_same(a, q, q + 1))
        return 1;
    int64_t q1 = q + 2;
    while (q1 < M && q1 - q <= RC_GROUP_MAX && rcs_same(a, q, q1))
        q1++;
    if (q1 - q > RC_GROUP_MAX)
        return RC_GROUP_MAX;   /* already left to the per-geometry path */
    int64_t g = rcs_end_geom(a, a->s.sval[q]);
    int64_t p = rcs_end_part(a, a->s.sval[q]);
    const int64_t *o = a->s.sval, *lab = a->s.lab;
    if (rcs_part_first(a, q, p) == q && rcs_part_end(a, q, p) == q1 && (o[q1 - 1] & 1)) {
        rcs_slow(a, g);   /* every end at one point, a walk all around */
        return q1 - q;
    }
    for (int64_t i = q - 1; i < q1; i++) {
        int64_t ea = i < q ? o[q] : o[i];
        if (i < q ? (ea & 1) : !(ea & 1))
            continue;
        int64_t la = lab[ea >> 1];
        for (int64_t j = i + 1; j < q1; j++)
            if ((o[j] & 1) && lab[o[j] >> 1] == la)
                rcs_slow(a, g);
    }
    return (q1 - q) * (q1 - q);
}

/* ---- the touch check (parts with a mixed output ring) ------------------------------ */

/* The chain holding vertex k (strictly inside, ring r of first coordinate
 * c0 and n segments, with chains): the last chain started before it. */
VSG_HD int64_t rcs_vertex_chain(const rc_args *a, int64_t k, int64_t c0, int64_t n)
{
    int64_t b0 = a->s.s_fs[c0], nc = a->s.s_fs[c0 + n] - b0, cnt = a->s.s_fs[k] - b0;
    return cnt == 0 ? b0 + nc - 1 : b0 + cnt - 1;
}

/* The chain segment k (ring of first coordinate c0, n segments) belongs
 * to, or -1. */
VSG_HD int64_t rcs_seg_chain(const rc_args *a, int64_t k, int64_t c0, int64_t n)
{
    int64_t b0 = a->s.s_fs[c0], nc = a->s.s_fs[c0 + n] - b0, cnt = a->s.s_fs[k + 1] - b0;
    if (nc == 0)
        return -1;
    int64_t c = cnt == 0 ? b0 + nc - 1 : b0 + cnt - 1;
    int64_t sc = a->s.ch_s[c], tc = a->s.ch_t[c];
    return ((k - sc) % n + n) % n <= ((tc - sc) % n + n) % n ? c : -1;
}

/* Coordinate k as a point the touch check tests (1) and as the start of a
 * segment it tests against (2): a vertex strictly inside on a chain or on
 * an interior hole, a segment of a chain, of a part with a mixed ring. */
VSG_HD int rcs_touch_role(const rc_args *a, int64_t k, int64_t *seg_chain)
{
    int64_t r = a->s.coord_ring[k];
    *seg_chain = -1;
    if (r < 0 || a->s.ract[r] != RCA_POLY)
        return 0;
    int64_t c0, n;
    rcs_ring(a, r, &c0, &n);
    if (k >= c0 + n || !(a->s.pflag[a->s.ring_part[r]] & RCP_MIXED) ||
        !rcs_ok(a, a->s.ring_geom[r]))
        return 0;
    int role = 0, cls = a->s.rcls[r];
    if (a->s.cw[k] == RC_IN && (cls == RC_RING_CHAINED || cls == RC_RING_INTERIOR))
        role |= 1;
    if (cls == RC_RING_CHAINED) {
        *seg_chain = rcs_seg_chain(a, k, c0, n);
        if (*seg_chain >= 0)
            role |= 2;
    }
    return role;
}

/* Chunk j's box: its points and segments that the check tests. */
VSG_HD int64_t rcs_tbox(const rc_args *a, int64_t j)
{
    const vsg_col_view *v = &a->in;
    double *b = a->s.tbox + 4 * j;
    vsg_box_set_inverted(b);
    int64_t k0 = j * RC_TOUCH_CHUNK, k1 = k0 + RC_TOUCH_CHUNK;
    if (k1 > v->n_coords)
        k1 = v->n_coords;
    for (int64_t k = k0; k < k1; k++) {
        int64_t sc;
        int role = rcs_touch_role(a, k, &sc);
        for (int e = 0; e < 2; e++) {
            if (e == 0 ? !role : !(role & 2))
                continue;
            double x = v->x[k + e], y = v->y[k + e];
            b[0] = fmin(b[0], x);
            b[1] = fmin(b[1], y);
            b[2] = fmax(b[2], x);
            b[3] = fmax(b[3], y);
        }
    }
    return k1 - k0;
}

/* Pair i of chunks whose boxes meet: does a point of one (a vertex on a
 * chain, or of an interior hole) lie on a segment of the other's chains,
 * of another ring of the same part, in one output ring (for a hole: in a
 * mixed output ring, the one it belongs to)? Then the output ring would
 * touch itself: the row goes to the per-geometry path (which defers it). */
VSG_HD int64_t rcs_touch(const rc_args *a, int64_t i)
{
    const vsg_col_view *v = &a->in;
    int64_t ka0 = a->s.tp_a[i] * RC_TOUCH_CHUNK, kb0 = a->s.tp_b[i] * RC_TOUCH_CHUNK;
    int64_t ka1 = ka0 + RC_TOUCH_CHUNK, kb1 = kb0 + RC_TOUCH_CHUNK;
    if (ka1 > v->n_coords)
        ka1 = v->n_coords;
    if (kb1 > v->n_coords)
        kb1 = v->n_coords;
    for (int64_t k = ka0; k < ka1; k++) {
        int64_t sk;
        if (!(rcs_touch_role(a, k, &sk) & 1))
            continue;
        int64_t rk = a->s.coord_ring[k];
        double qx = v->x[k], qy = v->y[k];
        for (int64_t m = kb0; m < kb1; m++) {
            int64_t cm;
            if (!(rcs_touch_role(a, m, &cm) & 2))
                continue;
            int64_t rm = a->s.coord_ring[m];
            if (rm == rk || a->s.ring_part[rm] != a->s.ring_part[rk])
                continue;
            double sx = v->x[m], sy = v->y[m], tx = v->x[m + 1], ty = v->y[m + 1];
            if (qx < fmin(sx, tx) || qx > fmax(sx, tx) || qy < fmin(sy, ty) ||
                qy > fmax(sy, ty) || rc_orient(sx, sy, tx, ty, qx, qy) != 0)
                continue;
            int64_t lm = a->s.lab[cm];
            int hit;
            if (a->s.rcls[rk] == RC_RING_INTERIOR) {
                hit = a->s.cmix[lm];
            } else {
                int64_t c0, n;
                rcs_ring(a, rk, &c0, &n);
                hit = a->s.lab[rcs_vertex_chain(a, k, c0, n)] == lm;
            }
            if (hit)
                rcs_slow(a, a->s.ring_geom[rk]);
        }
    }
    return (ka1 - ka0) * (kb1 - kb0);
}

/* ---- holes in parts of several output rings ---------------------------------------- */

/* The output-ring count of part p (chains: heads among them). */
VSG_HD int64_t rcs_part_ncyc(const rc_args *a, int64_t p)
{
    return a->s.s_hs[rcs_pchain(a, p + 1)] - a->s.s_hs[rcs_pchain(a, p)];
}

/* A hole strictly inside whose part has several output rings: the box of
 * the ray from its first vertex to the right side (inverted otherwise). */
VSG_HD int64_t rcs_hray(const rc_args *a, int64_t r)
{
    const vsg_col_view *v = &a->in;
    double *b = a->s.rbox + 4 * r;
    vsg_box_set_inverted(b);
    a->s.hacc[r] = 0;
    a->s.howner[r] = -1;
    if (!a->s.hf[r] || !rcs_ok(a, a->s.ring_geom[r]))
        return 1;
    int64_t p = a->s.ring_part[r];
    if (rcs_part_ncyc(a, p) < 2)
        return 1;
    int64_t k = v->ring_coord[r];
    b[0] = v->x[k];
    b[1] = b[3] = v->y[k];
    b[2] = a->rect[2];
    a->s.any_multi[0] = 1;
    VSG_OR_U32(a->s.pflag + p, RCP_MULTI);
    return 1;
}

/* Segment k as a piece of an output ring of a part with holes to place:
 * its chain (or -1) and the piece (the crossing points where an end is
 * not strictly inside, as the chain emits them). */
VSG_HD int64_t rcs_piece(const rc_args *a, int64_t k, double *px, double *py, double *qx,
                         double *qy)
{
    const vsg_col_view *v = &a->in;
    int64_t r = a->s.coord_ring[k];
    if (r < 0 || a->s.ract[r] != RCA_POLY || a->s.rcls[r] != RC_RING_CHAINED ||
        !(a->s.pflag[a->s.ring_part[r]] & RCP_MULTI))
        return -1;
    int64_t c0, n;
    rcs_ring(a, r, &c0, &n);
    if (k >= c0 + n)
        return -1;
    int64_t c = rcs_seg_chain(a, k, c0, n);
    if (c < 0)
        return -1;
    int64_t kb = k + 1 < c0 + n ? k + 1 : c0;
    *px = v->x[k];
    *py = v->y[k];
    *qx = v->x[k + 1];
    *qy = v->y[k + 1];
    if (a->s.cw[k] != RC_IN)
        rc_cross_point(a->rect, v->x[k], v->y[k], v->x[k + 1], v->y[k + 1], 0, px, py);
    if (a->s.cw[kb] != RC_IN)
        rc_cross_point(a->rect, v->x[k], v->y[k], v->x[k + 1], v->y[k + 1], 1, qx, qy);
    return c;
}

/* Chunk j's box over its pieces (parts with holes to place). */
VSG_HD int64_t rcs_pbox(const rc_args *a, int64_t j)
{
    double *b = a->s.pbox + 4 * j;
    vsg_box_set_inverted(b);
    int64_t k0 = j * RC_TOUCH_CHUNK, k1 = k0 + RC_TOUCH_CHUNK;
    if (k1 > a->in.n_coords)
        k1 = a->in.n_coords;
    for (int64_t k = k0; k < k1; k++) {
        double px, py, qx, qy;
        if (rcs_piece(a, k, &px, &py, &qx, &qy) < 0)
            continue;
        b[0] = fmin(b[0], fmin(px, qx));
        b[1] = fmin(b[1], fmin(py, qy));
        b[2] = fmax(b[2], fmax(px, qx));
        b[3] = fmax(b[3], fmax(py, qy));
    }
    return k1 - k0;
}

/* Pair i (hole ring, chunk): the chunk's pieces of the hole's part
 * crossed by the ray; each crossing xors (label + 1) into the hole's
 * accumulator (the point on a piece: the per-geometry path decides). */
VSG_HD int64_t rcs_hcross(const rc_args *a, int64_t i)
{
    const vsg_col_view *v = &a->in;
    int64_t r = a->s.hp_a[i], k0 = a->s.hp_b[i] * RC_TOUCH_CHUNK, k1 = k0 + RC_TOUCH_CHUNK;
    if (k1 > v->n_coords)
        k1 = v->n_coords;
    int64_t p = a->s.ring_part[r], kq = v->ring_coord[r];
    double x = v->x[kq], y = v->y[kq];
    for (int64_t k = k0; k < k1; k++) {
        double px, py, qx, qy;
        int64_t c = rcs_piece(a, k, &px, &py, &qx, &qy);
        if (c < 0 || a->s.ring_part[a->s.coord_ring[k]] != p)
            continue;
        int e = rcs_pip_edge(px, py, qx, qy, x, y);
        if (e == 2)
            rcs_slow(a, a->s.ring_geom[r]);
        else if (e == 1)
            VSG_XOR_U64(a->s.hacc + r, (uint64_t)a->s.lab[c] + 1);
    }
    return k1 - k0;
}

/* The boundary part of the crossing count: the ray ends on the right side
 * at (xmax, y); the walk between an exit and the next entry covering that
 * point (at most one: the last end at or before it along the boundary,
 * found by binary search among the part's sorted ends) crosses it. */
VSG_HD int64_t rcs_hwalk(const rc_args *a, int64_t r)
{
    if (a->s.rbox[4 * r] > a->s.rbox[4 * r + 2])
        return 1;
    int64_t p = a->s.ring_part[r];
    int64_t M = 2 * a->s.n_chains;
    /* the part's range [q0, q1) of sorted positions */
    int64_t lo = 0, hi = M;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (rcs_end_part(a, a->s.sval[mid]) < p)
            lo = mid + 1;
        else
            hi = mid;
    }
    int64_t q0 = lo, q1 = rcs_part_end(a, q0, p);
    if (q1 <= q0)
        return 1;
    double y = a->s.rbox[4 * r + 1];
    /* the last end with (side, key) <= (1, y) */
    lo = q0;
    hi = q1;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        const rc_end *e = &a->s.cend[a->s.sval[mid]];
        if (e->side < 1 || (e->side == 1 && e->key <= y))
            lo = mid + 1;
        else
            hi = mid;
    }
    int64_t j = lo > q0 ? lo - 1 : q1 - 1;   /* none: the last, cyclically */
    int64_t e = a->s.sval[j];
    if (e & 1)
        VSG_XOR_U64(a->s.hacc + r, (uint64_t)a->s.lab[e >> 1] + 1);
    return 64;
}

/* The owner of a hole from its accumulator: the xor of the labels of the
 * output rings crossed an odd number of times, which for a point inside
 * exactly one of them is that one; anything else: the per-geometry path. */
VSG_HD int64_t rcs_howner(const rc_args *a, int64_t r)
{
    a->s.hkey[r] = 0;
    a->s.hval[r] = r;
    a->s.hk2[r] = 0;
    if (a->s.rbox[4 * r] > a->s.rbox[4 * r + 2])
        return 1;
    int64_t p = a->s.ring_part[r];
    int64_t cb = rcs_pchain(a, p), ce = rcs_pchain(a, p + 1);
    uint64_t h = a->s.hacc[r];
    int64_t L = (int64_t)h - 1;
    if (h == 0 || L < cb || L >= ce || !a->s.hs[L]) {
        rcs_slow(a, a->s.ring_geom[r]);
        return 1;
    }
    a->s.howner[r] = L;
    a->s.hkey[r] = (uint64_t)L + 1;
    return 1;
}

/* After the sort of the holes by owner: each ring's position and its
 * coordinates in that order. */
VSG_HD int64_t rcs_hpos(const rc_args *a, int64_t i)
{
    int64_t r = a->s.hval[i];
    a->s.hpos[r] = i;
    a->s.hk2[i] = a->s.hkey[i] ? a->s.hk[r] : 0;
    return 1;
}

/* The sorted range [first, end) of the holes owned by chain L. */
VSG_HD void rcs_owned(const rc_args *a, int64_t L, int64_t *first, int64_t *end)
{
    uint64_t key = (uint64_t)L + 1;
    int64_t NR = a->in.n_rings, lo = 0, hi = NR;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (a->s.hkey[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    *first = lo;
    hi = NR;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (a->s.hkey[mid] <= key)
            lo = mid + 1;
        else
            hi = mid;
    }
    *end = lo;
}

/* What part p gives: its own slot's counts (a part without chains: the
 * rectangle or the polygon as it is, with its interior holes). */
VSG_HD int64_t rcs_part(const rc_args *a, int64_t p)
{
    const vsg_col_view *v = &a->in;
    int64_t cb = rcs_pchain(a, p), ce = rcs_pchain(a, p + 1), slot = p + cb;
    a->s.pd[p] = RC_PART_NONE;
    a->s.sc_p[slot] = a->s.sc_r[slot] = a->s.sc_k[slot] = 0;
    int64_t g = rcs_part_geom(a, p);
    if (g < 0 || !(a->s.gflag[g] & RCG_FAST) || vsg_gt_dimension(v->type[g]) != 2)
        return 1;
    int64_t r0 = v->part_ring[p], r1 = v->part_ring[p + 1];
    if (r0 == r1 || a->s.ract[r0] != RCA_POLY)
        return 1;
    int64_t nh = a->s.s_hf[r1] - a->s.s_hf[r0], hk = a->s.s_hk[r1] - a->s.s_hk[r0];
    if (ce > cb) {
        a->s.pd[p] = RC_RING_CHAINED;
        if (a->s.rcls[r0] == RC_RING_INTERIOR)
            rcs_slow(a, g);
        return 1;   /* holes: to the one output ring, or placed by rcs_howner */
    }
    uint32_t fl = a->s.pflag[p];
    int32_t d;
    if (a->s.rcls[r0] == RC_RING_INTERIOR) {
        d = RC_PART_ASIS;
        if (fl & RCP_HOLE_NOT_INT)
            rcs_slow(a, g);
    } else {
        if (fl & RCP_ON)
            rcs_slow(a, g);
        d = (fl & RCP_SHELLQ) && !(fl & RCP_HOLEQ) ? RC_PART_RECT : RC_PART_NONE;
    }
    a->s.pd[p] = d;
    if (d != RC_PART_NONE) {
        a->s.sc_p[slot] = 1;
        a->s.sc_r[slot] = 1 + nh;
        a->s.sc_k[slot] = (d == RC_PART_RECT ? 5 : rcs_ring_kept(a, r0) + 1) + hk;
    }
    return 1;
}

/* A chain's slot: the output ring (and part) it heads, if it does. */
VSG_HD int64_t rcs_cslot(const rc_args *a, int64_t c)
{
    int64_t r = a->s.cend[2 * c].ring, p = a->s.ring_part[r];
    int64_t slot = p + c + 1;
    a->s.sc_p[slot] = a->s.sc_r[slot] = a->s.sc_k[slot] = 0;
    if (!a->s.hs[c])
        return 1;
    int64_t total = a->s.sfx[c];
    if (a->s.cend[2 * c].rev < 0) {
        if (total >= 2) {   /* a piece that collapsed to a point is dropped */
            a->s.sc_p[slot] = a->s.sc_r[slot] = 1;
            a->s.sc_k[slot] = total;
        }
        return 1;
    }
    if (total < 3)
        rcs_slow(a, a->s.ring_geom[r]);
    int64_t r0 = a->in.part_ring[p], r1 = a->in.part_ring[p + 1];
    int64_t cb = rcs_pchain(a, p), ce = rcs_pchain(a, p + 1);
    int one = a->s.s_hs[ce] - a->s.s_hs[cb] == 1;
    a->s.sc_p[slot] = 1;
    if (one) {
        a->s.sc_r[slot] = 1 + a->s.s_hf[r1] - a->s.s_hf[r0];
        a->s.sc_k[slot] = total + 1 + a->s.s_hk[r1] - a->s.s_hk[r0];
    } else if (a->s.s_hf[r1] > a->s.s_hf[r0]) {
        int64_t f, e;
        rcs_owned(a, c, &f, &e);
        a->s.sc_r[slot] = 1 + (e - f);
        a->s.sc_k[slot] = total + 1 + a->s.s_hk2[e] - a->s.s_hk2[f];
    } else {
        a->s.sc_r[slot] = 1;
        a->s.sc_k[slot] = total + 1;
    }
    return 1;
}

/* ---- per geometry ------------------------------------------------------------ */

/* Rows left to the per-geometry path: its prepare (walks the row). */
VSG_HD int64_t rcs_slow_prepare(const rc_args *a, int64_t g)
{
    a->ep_count[g] = 0;
    if (a->kind[g] != RC_K_CLIP || rcs_ok(a, g))
        return 1;
    rc_prepare(a, g);
    const vsg_col_view *v = &a->in;
    return v->ring_coord[v->part_ring[v->geom_part[g + 1]]] -
           v->ring_coord[v->part_ring[v->geom_part[g]]];
}

VSG_HD int64_t rcs_gcount(const rc_args *a, int64_t g)
{
    if (!rcs_ok(a, g)) {
        rc_count(a, g);
        const vsg_col_view *v = &a->in;
        return a->kind[g] == RC_K_COPY ? 1
                                       : v->ring_coord[v->part_ring[v->geom_part[g + 1]]] -
                                             v->ring_coord[v->part_ring[v->geom_part[g]]];
    }
    const vsg_col_view *v = &a->in;
    if (vsg_gt_dimension(v->type[g]) == 0) {
        int64_t k0 = v->ring_coord[v->part_ring[v->geom_part[g]]];
        int64_t k1 = v->ring_coord[v->part_ring[v->geom_part[g + 1]]];
        a->cnt_parts[g] = a->cnt_rings[g] = a->cnt_coords[g] = a->s.s_fk[k1] - a->s.s_fk[k0];
        return 1;
    }
    int64_t sb = rcs_gslot(a, g), se = rcs_gslot(a, g + 1);
    a->cnt_parts[g] = a->s.ss_p[se] - a->s.ss_p[sb];
    a->cnt_rings[g] = a->s.ss_r[se] - a->s.ss_r[sb];
    a->cnt_coords[g] = a->s.ss_k[se] - a->s.ss_k[sb];
    return 1;
}

VSG_HD int64_t rcs_gfill(const rc_args *a, int64_t g)
{
    if (!rcs_ok(a, g)) {
        rc_fill(a, g);
        const vsg_col_view *v = &a->in;
        return a->kind[g] != RC_K_CLIP ? 1
                                       : v->ring_coord[v->part_ring[v->geom_part[g + 1]]] -
                                             v->ring_coord[v->part_ring[v->geom_part[g]]];
    }
    int64_t np = a->part_off[g + 1] - a->part_off[g];
    a->o_type[g] = np > 0 ? rc_type_of(vsg_gt_dimension(a->in.type[g]), np) : a->in.type[g];
    a->o_flags[g] = np > 0 ? 0 : VSG_GF_EMPTY;
    return 1;
}

/* ---- fills: per part, ring, chain, coordinate ------------------------------------ */

VSG_HD void rcs_put(const rc_args *a, int64_t k, double x, double y)
{
    a->o_x[k] = x;
    a->o_y[k] = y;
}

VSG_HD int64_t rcs_pfill(const rc_args *a, int64_t p)
{
    const vsg_col_view *v = &a->in;
    int64_t g = rcs_part_geom(a, p);
    if (g < 0)
        return 1;
    if (a->kind[g] == RC_K_COPY) {
        int64_t p0 = v->geom_part[g], ir0 = v->part_ring[p0];
        a->o_part_ring[a->part_off[g] + (p - p0) + 1] = a->ring_off[g] + (v->part_ring[p + 1] - ir0);
        return 1;
    }
    if (!rcs_ok(a, g))
        return 1;
    int32_t d = a->s.pd[p];
    if (d != RC_PART_RECT && d != RC_PART_ASIS)
        return 1;
    int64_t slot = p + rcs_pchain(a, p), op, orr, ok;
    rcs_slot_out(a, g, slot, &op, &orr, &ok);
    a->o_part_ring[op + 1] = orr + (a->s.ss_r[slot + 1] - a->s.ss_r[slot]);
    int64_t shellk = d == RC_PART_RECT ? 5 : rcs_ring_kept(a, v->part_ring[p]) + 1;
    a->o_ring_coord[orr + 1] = ok + shellk;
    if (d == RC_PART_RECT)
        for (int k = 0; k < 5; k++) {
            double x, y;
            rc_corner(a->rect, k & 3, &x, &y);
            rcs_put(a, ok + k, x, y);
        }
    return 1;
}

VSG_HD int64_t rcs_rfill(const rc_args *a, int64_t r)
{
    const vsg_col_view *v = &a->in;
    a->s.ring_ostart[r] = -1;
    int64_t g = a->s.ring_geom[r];
    if (g < 0)
        return 1;
    if (a->kind[g] == RC_K_COPY) {
        int64_t ir0 = v->part_ring[v->geom_part[g]], ic0 = v->ring_coord[ir0];
        a->o_ring_coord[a->ring_off[g] + (r - ir0) + 1] =
            a->coord_off[g] + (v->ring_coord[r + 1] - ic0);
        return 1;
    }
    if (!rcs_ok(a, g) || a->s.ract[r] != RCA_POLY)
        return 1;
    int64_t p = a->s.ring_part[r], r0 = v->part_ring[p];
    int32_t d = a->s.pd[p];
    int64_t slot, shellk;
    if (d == RC_PART_RECT || d == RC_PART_ASIS) {
        slot = p + rcs_pchain(a, p);
        shellk = d == RC_PART_RECT ? 5 : rcs_ring_kept(a, r0) + 1;
    } else if (d == RC_RING_CHAINED) {
        int64_t cb = rcs_pchain(a, p), ce = rcs_pchain(a, p + 1);
        if (a->s.s_hs[ce] - a->s.s_hs[cb] != 1) {
            /* several output rings: the hole's owner, its rank among them */
            int64_t L = r == r0 || !a->s.hf[r] ? -1 : a->s.howner[r];
            if (L < 0)
                return 1;
            int64_t f, e, op, orr, ok;
            rcs_owned(a, L, &f, &e);
            rcs_slot_out(a, g, p + L + 1, &op, &orr, &ok);
            int64_t i = a->s.hpos[r];
            int64_t start = ok + a->s.sfx[L] + 1 + (a->s.s_hk2[i] - a->s.s_hk2[f]);
            a->o_ring_coord[orr + 1 + (i - f) + 1] = start + a->s.hk[r];
            a->s.ring_ostart[r] = start;
            return 1;
        }
        int64_t head = cb + vsg_last_le(a->s.s_hs + cb, ce - cb + 1, a->s.s_hs[cb]);
        slot = p + head + 1;
        shellk = a->s.sfx[head] + 1;
    } else {
        return 1;
    }
    int64_t op, orr, ok;
    rcs_slot_out(a, g, slot, &op, &orr, &ok);
    if (r == r0) {
        if (d == RC_PART_ASIS)
            a->s.ring_ostart[r] = ok;
        return 1;
    }
    if (!a->s.hf[r])
        return 1;
    int64_t j = a->s.s_hf[r] - a->s.s_hf[r0], hoff = a->s.s_hk[r] - a->s.s_hk[r0];
    int64_t start = ok + shellk + hoff;
    a->o_ring_coord[orr + 1 + j + 1] = start + a->s.hk[r];
    a->s.ring_ostart[r] = start;
    return 1;
}

/* Chain c's points other than its inside vertices: the entry (unless it
 * repeats the last point), the exit, the corners walked to the next
 * entry; the head also closes the ring and ends its part and ring. */
VSG_HD int64_t rcs_cfill(const rc_args *a, int64_t c)
{
    const rc_end *E = &a->s.cend[2 * c], *X = &a->s.cend[2 * c + 1];
    int64_t r = E->ring, g = a->s.ring_geom[r];
    if (!rcs_ok(a, g))
        return 1;
    int64_t p = a->s.ring_part[r], L = a->s.lab[c], slot = p + L + 1;
    int64_t op, orr, ok;
    rcs_slot_out(a, g, slot, &op, &orr, &ok);
    int64_t total = a->s.sfx[L], base = ok + (total - a->s.sfx[c]);
    if (E->rev < 0) {   /* a line piece: its own part and ring */
        if (total < 2)
            return 1;
        rcs_put(a, ok, E->px, E->py);
        if (a->s.ncorn[c])
            rcs_put(a, ok + 1 + a->s.kin[c], X->px, X->py);
        a->o_part_ring[op + 1] = orr + 1;
        a->o_ring_coord[orr + 1] = ok + total;
        return 1;
    }
    int ek = a->s.ek[c];
    if (ek)
        rcs_put(a, base, E->px, E->py);
    int64_t xp = base + ek + a->s.kin[c];
    rcs_put(a, xp, X->px, X->py);
    for (int j = 0; j < a->s.ncorn[c]; j++) {
        double cx, cy;
        rc_corner(a->rect, (X->side + 1 + j) & 3, &cx, &cy);
        rcs_put(a, xp + 1 + j, cx, cy);
    }
    if (c == L) {
        if (ek)
            rcs_put(a, ok + total, E->px, E->py);
        else if (a->s.kin[c] == 0)
            rcs_put(a, ok + total, X->px, X->py);
        a->o_part_ring[op + 1] = orr + (a->s.ss_r[slot + 1] - a->s.ss_r[slot]);
        a->o_ring_coord[orr + 1] = ok + total + 1;
    }
    return 1;
}

VSG_HD int64_t rcs_kfill(const rc_args *a, int64_t k)
{
    const vsg_col_view *v = &a->in;
    int64_t r = a->s.coord_ring[k];
    if (r < 0)
        return 1;
    int64_t g = a->s.ring_geom[r];
    if (g < 0)
        return 1;
    if (a->kind[g] == RC_K_COPY) {
        int64_t ic0 = v->ring_coord[v->part_ring[v->geom_part[g]]];
        rcs_put(a, a->coord_off[g] + (k - ic0), v->x[k], v->y[k]);
        return 1;
    }
    if (!rcs_ok(a, g) || a->s.ract[r] == RCA_NONE || !a->s.fk[k])
        return 1;
    int64_t c0, n;
    rcs_ring(a, r, &c0, &n);
    if (a->s.ract[r] == RCA_POINT) {
        int64_t j = a->s.s_fk[k] - a->s.s_fk[v->ring_coord[v->part_ring[v->geom_part[g]]]];
        int64_t o = a->coord_off[g] + j;
        rcs_put(a, o, v->x[k], v->y[k]);
        a->o_part_ring[a->part_off[g] + j + 1] = a->ring_off[g] + j + 1;
        a->o_ring_coord[a->ring_off[g] + j + 1] = o + 1;
        return 1;
    }
    if (a->s.ract[r] == RCA_LINE) {
        int64_t c = a->s.s_fs[k] - 1;   /* the last piece started before k */
        int64_t op, orr, ok;
        rcs_slot_out(a, g, a->s.ring_part[r] + c + 1, &op, &orr, &ok);
        rcs_put(a, ok + 1 + (a->s.s_fk[k] - a->s.s_fk[a->s.ch_s[c] + 1]), v->x[k], v->y[k]);
        return 1;
    }
    int64_t i = k - c0;
    const int64_t *P = a->s.s_fk + c0;
    int64_t K = P[n] - P[0];
    int rev = a->s.rrev[r];
    int64_t os = a->s.ring_ostart[r];
    if (os >= 0) {
        int64_t rank = P[i] - P[0];
        int64_t pos = rev ? K - 1 - rank : rank;
        rcs_put(a, os + pos, v->x[k], v->y[k]);
        if (pos == 0)
            rcs_put(a, os + K, v->x[k], v->y[k]);
        return 1;
    }
    if (a->s.rcls[r] != RC_RING_CHAINED)
        return 1;
    int64_t b0 = a->s.s_fs[c0], nc = a->s.s_fs[c0 + n] - b0, cnt = a->s.s_fs[k] - b0;
    int64_t c = cnt == 0 ? b0 + nc - 1 : b0 + cnt - 1;
    int64_t f = (a->s.ch_s[c] - c0 + 1) % n;
    int64_t rank = i >= f ? P[i] - P[f] : (P[n] - P[f]) + (P[i] - P[0]);
    int64_t pos = a->s.ek[c] + (rev ? a->s.kin[c] - 1 - rank : rank);
    int64_t p = a->s.ring_part[r], L = a->s.lab[c], slot = p + L + 1;
    int64_t op, orr, ok;
    rcs_slot_out(a, g, slot, &op, &orr, &ok);
    int64_t total = a->s.sfx[L], base = ok + (total - a->s.sfx[c]);
    rcs_put(a, base + pos, v->x[k], v->y[k]);
    if (c == L && pos == 0)
        rcs_put(a, ok + total, v->x[k], v->y[k]);
    return 1;
}

/* ---- the steps, by number (one launch each) --------------------------------------- */
#define RCS_STEPS(X)                                                                       \
    X(RCS_GEOM, rcs_geom)                                                                  \
    X(RCS_RING, rcs_ring_step)                                                             \
    X(RCS_COORD, rcs_coord)                                                                \
    X(RCS_SEG, rcs_seg)                                                                    \
    X(RCS_SCATTER, rcs_scatter)                                                            \
    X(RCS_RING2, rcs_ring2)                                                                \
    X(RCS_CHAIN, rcs_chain)                                                                \
    X(RCS_KEY2, rcs_key2)                                                                  \
    X(RCS_GROUP, rcs_group)                                                                \
    X(RCS_LINK, rcs_link)                                                                  \
    X(RCS_LAB_INIT, rcs_lab_init)                                                          \
    X(RCS_LAB_ROUND, rcs_lab_round)                                                        \
    X(RCS_WEIGHT, rcs_weight)                                                              \
    X(RCS_RANK_ROUND, rcs_rank_round)                                                      \
    X(RCS_GROUP2, rcs_group2)                                                              \
    X(RCS_TBOX, rcs_tbox)                                                                  \
    X(RCS_TOUCH, rcs_touch)                                                                \
    X(RCS_HRAY, rcs_hray)                                                                  \
    X(RCS_PBOX, rcs_pbox)                                                                  \
    X(RCS_HCROSS, rcs_hcross)                                                              \
    X(RCS_HWALK, rcs_hwalk)                                                                \
    X(RCS_HOWNER, rcs_howner)                                                              \
    X(RCS_HPOS, rcs_hpos)                                                                  \
    X(RCS_PART, rcs_part)                                                                  \
    X(RCS_CSLOT, rcs_cslot)                                                                \
    X(RCS_SLOW_PREPARE, rcs_slow_prepare)                                                  \
    X(RCS_GCOUNT, rcs_gcount)                                                              \
    X(RCS_GFILL, rcs_gfill)                                                                \
    X(RCS_PFILL, rcs_pfill)                                                                \
    X(RCS_RFILL, rcs_rfill)                                                                \
    X(RCS_CFILL, rcs_cfill)                                                                \
    X(RCS_KFILL, rcs_kfill)

#define RCS_ENUM(id, fn) id,
enum { RCS_STEPS(RCS_ENUM) RCS_N_STEPS };
#undef RCS_ENUM

/* Item i of step `step`; returns its work (segments, ends or coordinates
 * touched) for the work meter. */
VSG_HD int64_t rcs_item(const rc_args *a, int step, int64_t i)
{
    switch (step) {
#define RCS_CASE(id, fn) case id: return fn(a, i);
        RCS_STEPS(RCS_CASE)
#undef RCS_CASE
    default: return 0;
    }
}

#endif
