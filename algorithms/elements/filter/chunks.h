/*
 * chunks.h - rings cut into chunks of at most VSG_CHUNK_SEGS segments: the
 * unit of work of every load-balanced filter stage.
 *
 * Real polygons have 10^3 - 10^5 vertices; a launch item that walks a
 * whole geometry or pair leaves the device idle behind one thread. So the
 * stages work on chunks: every item touches at most VSG_CHUNK_SEGS
 * segments (or, for a pair of chunks, their product), and results per
 * geometry or pair are combined afterwards, by key.
 *
 *   ring_chunk[r] .. ring_chunk[r+1]   the chunks of ring r (a scan of
 *                                      vsg_ring_chunk_count)
 *   chunk c of ring r                  coordinates [k0, k1) with
 *                                      k0 = ring_coord[r] + (c - ring_chunk[r]) * S,
 *                                      k1 = min(k0 + S + 1, ring_coord[r+1])
 *                                      (consecutive chunks share one vertex)
 *
 * A ring of one coordinate (a point) is one chunk of no segment; an empty
 * ring has no chunk. Every mapping back (chunk -> ring -> part ->
 * geometry) is a binary search over the offsets, so no item loops over a
 * geometry.
 */
#ifndef VSG_ELEMENTS_CHUNKS_H
#define VSG_ELEMENTS_CHUNKS_H

#include "elements/filter/bounds.h"

#define VSG_CHUNK_SEGS 16

/* The number of chunks of ring r. */
VSG_HD int64_t vsg_ring_chunk_count(const vsg_col_view *v, int64_t r)
{
    int64_t k0, k1;
    if (!vsg_ring_coords(v, r, &k0, &k1) || k1 <= k0)
        return 0;
    if (k1 - k0 == 1)
        return 1;
    return (k1 - k0 - 1 + VSG_CHUNK_SEGS - 1) / VSG_CHUNK_SEGS;
}

/* The geometry that holds ring r (-1 when the offsets do not say). */
VSG_HD int64_t vsg_ring_geom(const vsg_col_view *v, int64_t r)
{
    int64_t p = vsg_last_le(v->part_ring, v->n_parts + 1, r);
    if (p < 0 || p >= v->n_parts)
        return -1;
    int64_t g = vsg_last_le(v->geom_part, v->n_geoms + 1, p);
    return g < 0 || g >= v->n_geoms ? -1 : g;
}

/* Chunk c: its ring (by search over ring_chunk, n_rings + 1 entries) and
 * coordinate range. 0 when c is out of range. */
VSG_HD int vsg_chunk_range(const vsg_col_view *v, const int64_t *ring_chunk, int64_t c,
                           int64_t *ring, int64_t *k0, int64_t *k1)
{
    int64_t r = vsg_last_le(ring_chunk, v->n_rings + 1, c);
    int64_t rk0, rk1;
    if (r < 0 || r >= v->n_rings || !vsg_ring_coords(v, r, &rk0, &rk1))
        return 0;
    *ring = r;
    *k0 = rk0 + (c - ring_chunk[r]) * VSG_CHUNK_SEGS;
    *k1 = *k0 + VSG_CHUNK_SEGS + 1 < rk1 ? *k0 + VSG_CHUNK_SEGS + 1 : rk1;
    return *k0 < *k1;
}

/* The chunk table's row c: its geometry and box (inverted for a row with
 * no usable coordinates, so that it meets nothing). Work: the chunk's
 * coordinates, at most VSG_CHUNK_SEGS + 1. */
VSG_HD int64_t vsg_chunk_fill(const vsg_col_view *v, const int64_t *ring_chunk, int64_t c,
                              int64_t *chunk_geom, double *chunk_box)
{
    int64_t r, k0, k1, g = -1;
    double *box = chunk_box + 4 * c;
    if (vsg_chunk_range(v, ring_chunk, c, &r, &k0, &k1))
        g = vsg_ring_geom(v, r);
    chunk_geom[c] = g;
    if (g < 0 || (v->flags[g] & VSG_GF_NO_COORDS)) {
        vsg_box_set_inverted(box);
        return 0;
    }
    vsg_box_of_coords(v->x, v->y, k0, k1, 1, box);
    return k1 - k0;
}

#endif
