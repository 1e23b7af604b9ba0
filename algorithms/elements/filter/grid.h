/*
 * grid.h - per-element parts of the candidate join (stages/filter/candidates.c):
 * a uniform grid over the boxes of side b, probed by every box of side a.
 *
 *   1  statistics of b's boxes (extent, mean of log2 box size) -> the grid:
 *      cells about the typical box's size (geometric mean, so that a few
 *      huge boxes do not set it), never more cells than a cap the host
 *      fixes from nb (so the cell table is allocated without a read back).
 *   2  each b box goes into every cell it overlaps (entries keyed by cell);
 *      a box that would cover more than VSG_GRID_BIG_CELLS cells, or has
 *      an infinite side, goes into one extra "big" cell that every a box
 *      scans, which bounds the replication.
 *   3  each a box visits its cells and tests the entries there: the CPU
 *      engine's one-core join in blocks of VSG_GRID_PROBE_CELLS cells (the
 *      probe), the device-shaped join in chunks of at most VSG_GRID_CHUNK
 *      candidates (below, so that no thread's work depends on a box); a
 *      pair met in a cell is reported only in
 *      the cell holding the lower-left corner of the two boxes'
 *      intersection, so every pair comes out exactly once without a
 *      de-duplication pass. Cell indices come from one monotone function
 *      (clamped to the grid; NaN-safe) used for both sides and the corner,
 *      so that corner cell lies in both boxes' cell ranges.
 *
 * Boxes are closed; a box with min > max on an axis (the inverted box of
 * rows without coordinates) or a NaN meets nothing.
 */
#ifndef VSG_ELEMENTS_GRID_H
#define VSG_ELEMENTS_GRID_H

#include "elements/bits.h"
#include "elements/box.h"
#include "elements/hd.h"
#include "elements/owner.h"

#define VSG_GRID_BIG_CELLS 64

typedef struct {
    double xmin, ymin, xmax, ymax;   /* extent of the finite boxes        */
    double sum_log2;                 /* sum of log2(max(w, h, tiny))      */
    int64_t n;                       /* finite boxes counted              */
} vsg_grid_stats;

typedef struct {
    double x0, y0;          /* origin                                       */
    double sx, sy;          /* cells per unit                               */
    int64_t gx, gy;         /* cells per axis; cell (cx, cy) = cy * gx + cx */
    int64_t big;            /* the big cell: gx * gy                        */
} vsg_grid;

VSG_HD int vsg_grid_box_valid(const double *b)
{
    return b[0] <= b[2] && b[1] <= b[3];     /* false for NaN and inverted */
}

VSG_HD int vsg_grid_box_finite(const double *b)
{
    return isfinite(b[0]) && isfinite(b[1]) && isfinite(b[2]) && isfinite(b[3]);
}

VSG_HD void vsg_grid_stats_init(vsg_grid_stats *s)
{
    s->xmin = s->ymin = INFINITY;
    s->xmax = s->ymax = -INFINITY;
    s->sum_log2 = 0;
    s->n = 0;
}

VSG_HD void vsg_grid_stats_add(vsg_grid_stats *s, const double *b)
{
    if (!vsg_grid_box_valid(b) || !vsg_grid_box_finite(b))
        return;
    s->xmin = fmin(s->xmin, b[0]);
    s->ymin = fmin(s->ymin, b[1]);
    s->xmax = fmax(s->xmax, b[2]);
    s->ymax = fmax(s->ymax, b[3]);
    double size = fmax(b[2] - b[0], b[3] - b[1]);
    s->sum_log2 += log2(fmax(size, 1e-300));
    s->n++;
}

VSG_HD void vsg_grid_stats_merge(vsg_grid_stats *s, const vsg_grid_stats *o)
{
    s->xmin = fmin(s->xmin, o->xmin);
    s->ymin = fmin(s->ymin, o->ymin);
    s->xmax = fmax(s->xmax, o->xmax);
    s->ymax = fmax(s->ymax, o->ymax);
    s->sum_log2 += o->sum_log2;
    s->n += o->n;
}

/* The grid for these statistics with at most cap cells (cap >= 1). */
VSG_HD void vsg_grid_make(const vsg_grid_stats *s, int64_t cap, vsg_grid *g)
{
    g->x0 = g->y0 = 0;
    g->sx = g->sy = 0;
    g->gx = g->gy = 1;
    if (s->n > 0) {
        double w = s->xmax - s->xmin, h = s->ymax - s->ymin;
        double typical = exp2(s->sum_log2 / (double)s->n);
        double dense = (w > 0 && h > 0) ? sqrt(w * h / (double)cap) : fmax(w, h) / (double)cap;
        double cell = fmax(typical, dense);
        g->x0 = s->xmin;
        g->y0 = s->ymin;
        if (cell > 0 && isfinite(cell)) {
            double fx = ceil(w / cell), fy = ceil(h / cell);
            int64_t gx = fx < 1 ? 1 : (fx > (double)cap ? cap : (int64_t)fx);
            int64_t gymax = cap / gx < 1 ? 1 : cap / gx;
            int64_t gy = fy < 1 ? 1 : (fy > (double)gymax ? gymax : (int64_t)fy);
            g->gx = gx;
            g->gy = gy;
            g->sx = w > 0 ? (double)gx / w : 0;
            g->sy = h > 0 ? (double)gy / h : 0;
            if (!isfinite(g->sx))
                g->sx = 0;
            if (!isfinite(g->sy))
                g->sy = 0;
        }
    }
    g->big = g->gx * g->gy;
}

/* Cell index along one axis: monotone in v, clamped to [0, n - 1]. */
VSG_HD int64_t vsg_grid_axis(double v, double origin, double scale, int64_t n)
{
    double t = (v - origin) * scale;
    if (!(t >= 0))
        return 0;                    /* also NaN (inf * 0) */
    if (t >= (double)(n - 1))
        return n - 1;
    return (int64_t)t;
}

/* Cell range of box b: [*cx0, *cx1] x [*cy0, *cy1]. */
VSG_HD void vsg_grid_range(const vsg_grid *g, const double *b, int64_t *cx0, int64_t *cy0,
                           int64_t *cx1, int64_t *cy1)
{
    *cx0 = vsg_grid_axis(b[0], g->x0, g->sx, g->gx);
    *cy0 = vsg_grid_axis(b[1], g->y0, g->sy, g->gy);
    *cx1 = vsg_grid_axis(b[2], g->x0, g->sx, g->gx);
    *cy1 = vsg_grid_axis(b[3], g->y0, g->sy, g->gy);
}

/* Entries b box j goes in: 0 (meets nothing), 1 (the big cell), or the
 * number of cells it overlaps. */
VSG_HD int64_t vsg_grid_b_count(const vsg_grid *g, const double *b)
{
    if (!vsg_grid_box_valid(b))
        return 0;
    if (!vsg_grid_box_finite(b))
        return 1;
    int64_t cx0, cy0, cx1, cy1;
    vsg_grid_range(g, b, &cx0, &cy0, &cx1, &cy1);
    int64_t n = (cx1 - cx0 + 1) * (cy1 - cy0 + 1);
    return n > VSG_GRID_BIG_CELLS ? 1 : n;
}

/* Writes b box j's entries (cell key, j) from position off. */
VSG_HD void vsg_grid_b_fill(const vsg_grid *g, const double *b, int64_t j, int64_t off,
                            uint64_t *keys, int64_t *vals)
{
    if (!vsg_grid_box_valid(b))
        return;
    int64_t cx0, cy0, cx1, cy1;
    vsg_grid_range(g, b, &cx0, &cy0, &cx1, &cy1);
    if (!vsg_grid_box_finite(b) || (cx1 - cx0 + 1) * (cy1 - cy0 + 1) > VSG_GRID_BIG_CELLS) {
        keys[off] = (uint64_t)g->big;
        vals[off] = j;
        return;
    }
    for (int64_t cy = cy0; cy <= cy1; cy++)
        for (int64_t cx = cx0; cx <= cx1; cx++) {
            keys[off] = (uint64_t)(cy * g->gx + cx);
            vals[off] = j;
            off++;
        }
}

/* First position in sorted keys[0, n) whose key is >= c. */
VSG_HD int64_t vsg_grid_lower_bound(const uint64_t *keys, int64_t n, uint64_t c)
{
    int64_t lo = 0, hi = n;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (keys[mid] < c)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Cells one probe item visits at most: a box over more cells is probed by
 * several items, one per block of its cells (block 0 also scans the big
 * cell), so that no item's work grows with the size of one box. */
#define VSG_GRID_PROBE_CELLS 64

/* The probe items of box a: its cells in blocks; 0 for a box that meets
 * nothing. */
VSG_HD int64_t vsg_grid_probe_blocks(const vsg_grid *g, const double *a)
{
    if (!vsg_grid_box_valid(a))
        return 0;
    int64_t cx0, cy0, cx1, cy1;
    vsg_grid_range(g, a, &cx0, &cy0, &cx1, &cy1);
    int64_t cells = (cx1 - cx0 + 1) * (cy1 - cy0 + 1);
    return (cells + VSG_GRID_PROBE_CELLS - 1) / VSG_GRID_PROBE_CELLS;
}

/* The owner of piece t: the last i < n with off[i] <= t (off: the
 * exclusive scan of the owners' piece counts, n + 1 entries, off[n] > t):
 * the row of a probe item or of an item, the item of a chunk. */
VSG_HD int64_t vsg_grid_item_row(const int64_t *off, int64_t n, int64_t t)
{
    return vsg_owner(off, n, t);
}

/* Writes pair (i, j) at position k of the keys (i << bbits | j) and of
 * pb (j), when pkeys is not NULL (the count pass writes nothing). */
VSG_HD void vsg_grid_emit(uint64_t *pkeys, int64_t *pb, int64_t k, int64_t i, int64_t j,
                          int bbits)
{
    if (pkeys) {
        pkeys[k] = ((uint64_t)i << bbits) | (uint64_t)j;
        pb[k] = j;
    }
}

/* Which pairs (i, j) a join asks for: every pair (gap 0), or, in a join
 * of one set of boxes with itself, only those with j >= i + gap (gap >= 1:
 * each unordered pair once; 2 also leaves out i's neighbour i + 1, which
 * the caller tests on its own); with grp (a join of one set with itself),
 * only pairs of one group, grp[i] == grp[j]. */
typedef struct {
    int64_t gap;
    const int64_t *grp;
} vsg_grid_want;

VSG_HD int vsg_grid_wanted(int64_t i, int64_t j, vsg_grid_want w)
{
    return (w.gap <= 0 || j - i >= w.gap) && (!w.grp || w.grp[i] == w.grp[j]);
}

/* Probes the grid with block blk of box a (row i): counts the b entries it
 * pairs with in those cells (and, for block 0, the big cell), and when
 * pkeys is not NULL also writes pkeys[off + k] = (i << bbits) | j and
 * pb[off + k] = j; only pairs vsg_grid_wanted with want. cell_start has
 * big + 2 entries; ebox and eid are the entries' boxes and b rows, in cell
 * order. *work (may be NULL) gets the cells and entries visited. Returns
 * the count. */
VSG_HD int64_t vsg_grid_probe(const vsg_grid *g, const double *a, int64_t i, int64_t blk,
                              const int64_t *cell_start, const double *ebox,
                              const int64_t *eid, vsg_grid_want want, int bbits, int64_t off,
                              uint64_t *pkeys, int64_t *pb, int64_t *work)
{
    if (!vsg_grid_box_valid(a))
        return 0;
    int64_t n = 0, visited = 0;
    int64_t cx0, cy0, cx1, cy1;
    vsg_grid_range(g, a, &cx0, &cy0, &cx1, &cy1);
    int64_t w = cx1 - cx0 + 1, cells = w * (cy1 - cy0 + 1);
    int64_t t0 = blk * VSG_GRID_PROBE_CELLS;
    int64_t t1 = t0 + VSG_GRID_PROBE_CELLS < cells ? t0 + VSG_GRID_PROBE_CELLS : cells;
    for (int64_t t = t0; t < t1; t++) {
        int64_t cx = cx0 + t % w, cy = cy0 + t / w;
        int64_t c = cy * g->gx + cx;
        visited++;
        for (int64_t e = cell_start[c]; e < cell_start[c + 1]; e++) {
            const double *b = ebox + 4 * e;
            visited++;
            if (!vsg_grid_wanted(i, eid[e], want) || !vsg_box_meets(a, b))
                continue;
            /* report only in the cell of the intersection's low corner */
            if (vsg_grid_axis(fmax(a[0], b[0]), g->x0, g->sx, g->gx) != cx ||
                vsg_grid_axis(fmax(a[1], b[1]), g->y0, g->sy, g->gy) != cy)
                continue;
            vsg_grid_emit(pkeys, pb, off + n++, i, eid[e], bbits);
        }
    }
    for (int64_t e = blk == 0 ? cell_start[g->big] : 0;
         blk == 0 && e < cell_start[g->big + 1]; e++) {
        visited++;
        if (!vsg_grid_wanted(i, eid[e], want) || !vsg_box_meets(a, ebox + 4 * e))
            continue;
        vsg_grid_emit(pkeys, pb, off + n++, i, eid[e], bbits);
    }
    if (work)
        *work = visited;
    return n;
}

/* ---- the device-shaped probe (stages/filter/candidates.c) ----
 *
 * The probe above gives one thread a box's cells and every entry in them
 * (the CPU engine's one-core join): a thread may meet 2 entries and its
 * neighbour thousands (a county's box over a grid of segment chunks), and
 * a warp runs at the pace of its longest thread. The device-shaped join
 * cuts the work into bounded chunks instead:
 *
 *   items   one per (a box, grid row of its cell range): the row's cells
 *           are consecutive cell numbers, so their entries are ONE run of
 *           the cell-sorted entries, [cell_start[first], cell_start[last
 *           + 1]); a box's first item also holds the big cell's entries
 *           (a second run)
 *   chunks  an item's candidates (its runs) in pieces of at most
 *           VSG_GRID_CHUNK, one thread each
 *
 * A chunk never crosses items: a small item (the segments of a coverage
 * against themselves: a few entries each) is one chunk, as in the probe,
 * and a large one is shared by many threads. (A walk of equal chunks
 * across items, tried first, was slower on such small items: every
 * thread entered several items; run L, docs/benchmarks.md.) A pair is
 * reported in the cell of the intersection's lower-left corner, as in the
 * probe (an entry's own cell is its sort key), so it comes out once; a
 * row's pairs come out by grid row, by cell, then the big cell. */
#define VSG_GRID_CHUNK 32
#if VSG_GRID_CHUNK > 32
#error "a chunk's pairs are marked in the bits of one uint32_t"
#endif

/* Items of box a: one per grid row its cells span; 0 for a box that meets
 * nothing. */
VSG_HD int64_t vsg_grid_row_items(const vsg_grid *g, const double *a)
{
    if (!vsg_grid_box_valid(a))
        return 0;
    int64_t cx0, cy0, cx1, cy1;
    vsg_grid_range(g, a, &cx0, &cy0, &cx1, &cy1);
    return cy1 - cy0 + 1;
}

/* The runs of item k of box a (k < vsg_grid_row_items): entries [*e0, *e1)
 * of grid row *cy, then (k == 0 only) the big cell's [*b0, *b1). Returns
 * the candidates, (*e1 - *e0) + (*b1 - *b0). */
VSG_HD int64_t vsg_grid_item_runs(const vsg_grid *g, const double *a, int64_t k,
                                  const int64_t *cell_start, int64_t *cy, int64_t *e0,
                                  int64_t *e1, int64_t *b0, int64_t *b1)
{
    int64_t cx0, cy0, cx1, cy1;
    vsg_grid_range(g, a, &cx0, &cy0, &cx1, &cy1);
    *cy = cy0 + k;
    *e0 = cell_start[*cy * g->gx + cx0];
    *e1 = cell_start[*cy * g->gx + cx1 + 1];
    *b0 = *b1 = 0;
    if (k == 0) {
        *b0 = cell_start[g->big];
        *b1 = cell_start[g->big + 1];
    }
    return (*e1 - *e0) + (*b1 - *b0);
}

/* Chunks of an item of n candidates. */
VSG_HD int64_t vsg_grid_chunks(int64_t n)
{
    return (n + VSG_GRID_CHUNK - 1) / VSG_GRID_CHUNK;
}

/* Tests part p of item k of box a (row i): its candidates [p *
 * VSG_GRID_CHUNK, (p + 1) * VSG_GRID_CHUNK), r0 = p * VSG_GRID_CHUNK.
 * Counts the pairs (those vsg_grid_wanted with want) and sets bit r - r0
 * of *hits for each (the count pass; the fill pass, vsg_grid_emit_chunk,
 * writes them from the bits: no box is read or tested twice). *work (may
 * be NULL) gets the candidates tested. */
VSG_HD int64_t vsg_grid_probe_chunk(const vsg_grid *g, const double *a, int64_t i, int64_t k,
                                    int64_t p, const int64_t *cell_start,
                                    const uint64_t *ekeys, const double *ebox,
                                    const int64_t *eid, vsg_grid_want want, uint32_t *hits,
                                    int64_t *work)
{
    int64_t cy, e0, e1, b0, b1;
    int64_t len = vsg_grid_item_runs(g, a, k, cell_start, &cy, &e0, &e1, &b0, &b1);
    int64_t r0 = p * VSG_GRID_CHUNK, r1 = r0 + VSG_GRID_CHUNK < len ? r0 + VSG_GRID_CHUNK : len;
    int64_t n = 0, row_len = e1 - e0;
    uint32_t bits = 0;
    const int64_t row0 = cy * g->gx;
    /* the row's run: positions [r0, min(r1, row_len)) */
    for (int64_t r = r0; r < (r1 < row_len ? r1 : row_len); r++) {
        int64_t e = e0 + r;
        const double *b = ebox + 4 * e;
        if (!vsg_box_meets(a, b) || !vsg_grid_wanted(i, eid[e], want))
            continue;
        /* only in the cell of the intersection's low corner */
        if (vsg_grid_axis(fmax(a[1], b[1]), g->y0, g->sy, g->gy) != cy ||
            (uint64_t)(row0 + vsg_grid_axis(fmax(a[0], b[0]), g->x0, g->sx, g->gx)) != ekeys[e])
            continue;
        bits |= (uint32_t)1 << (r - r0);
        n++;
    }
    /* the big cell's run: positions [max(r0, row_len), r1) */
    for (int64_t r = r0 > row_len ? r0 : row_len; r < r1; r++) {
        int64_t e = b0 + (r - row_len);
        if (!vsg_box_meets(a, ebox + 4 * e) || !vsg_grid_wanted(i, eid[e], want))
            continue;
        bits |= (uint32_t)1 << (r - r0);
        n++;
    }
    *hits = bits;
    if (work)
        *work = r1 - r0;
    return n;
}

/* Writes the pairs of part p of item k of box a (row i) that the count
 * pass marked in hits, in position order (the order the count met them):
 * pkeys[off + n] = (i << bbits) | j, pb[off + n] = j. */
VSG_HD void vsg_grid_emit_chunk(const vsg_grid *g, const double *a, int64_t i, int64_t k,
                                int64_t p, const int64_t *cell_start, const int64_t *eid,
                                uint32_t hits, int bbits, int64_t off, uint64_t *pkeys,
                                int64_t *pb)
{
    int64_t cy, e0, e1, b0, b1;
    vsg_grid_item_runs(g, a, k, cell_start, &cy, &e0, &e1, &b0, &b1);
    int64_t r0 = p * VSG_GRID_CHUNK, row_len = e1 - e0, n = 0;
    while (hits) {
        int bit = vsg_low_bit_u32(hits);
        hits &= hits - 1;
        int64_t r = r0 + bit;
        int64_t e = r < row_len ? e0 + r : b0 + (r - row_len);
        vsg_grid_emit(pkeys, pb, off + n++, i, eid[e], bbits);
    }
}

/* Bits to hold values 0 .. n - 1 (at least 1). */
VSG_HD int vsg_grid_bits(int64_t n)
{
    int b = 1;
    while (b < 63 && ((int64_t)1 << b) < n)
        b++;
    return b;
}

#endif
