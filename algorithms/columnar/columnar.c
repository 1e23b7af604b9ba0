/*
 * columnar.c - life of a vsg_columnar (see columnar.h): allocation on the
 * host or on an execution backend, the read-only view, and the copies
 * between host and backend.
 *
 * Every array of a columnar lives in the same place (host malloc, or the
 * memory of c->owner), so that free and the copies treat them as one set.
 * Sizes are computed with overflow checks: counts come from untrusted
 * input, and a count too large to allocate is VSG_ERR_NOMEM, never a
 * wrapped size.
 */
#include "columnar/columnar.h"

#include "core/fault.h"
#include "core/prefault.h"

#include <stdlib.h>
#include <string.h>

#include "exec/exec.h"

void vsg_columnar_init(vsg_columnar *c)
{
    memset(c, 0, sizeof *c);
}

/* The byte sizes of the arrays of a columnar with these counts. */
typedef struct {
    size_t type, flags, geom_part, part_ring, ring_coord, coord, z;
} col_sizes;

/* n elements of elem bytes (plus `extra` elements); 0 when it overflows
 * or n is negative, which callers treat as "cannot allocate". */
static int array_bytes(int64_t n, int64_t extra, size_t elem, size_t *out)
{
    if (n < 0 || n > INT64_MAX - extra)
        return 0;
    uint64_t count = (uint64_t)(n + extra);
    if (count > SIZE_MAX / elem)
        return 0;
    *out = (size_t)count * elem;
    return 1;
}

static int sizes_for(int64_t n_geoms, int64_t n_parts, int64_t n_rings, int64_t n_coords,
                     int has_z, col_sizes *s)
{
    memset(s, 0, sizeof *s);
    return array_bytes(n_geoms, 0, 1, &s->type) && array_bytes(n_geoms, 0, 1, &s->flags) &&
           array_bytes(n_geoms, 1, sizeof(int64_t), &s->geom_part) &&
           array_bytes(n_parts, 1, sizeof(int64_t), &s->part_ring) &&
           array_bytes(n_rings, 1, sizeof(int64_t), &s->ring_coord) &&
           array_bytes(n_coords, 0, sizeof(double), &s->coord) &&
           (!has_z || array_bytes(n_coords, 0, sizeof(double), &s->z));
}

static void set_counts(vsg_columnar *c, int64_t n_geoms, int64_t n_parts, int64_t n_rings,
                       int64_t n_coords)
{
    c->n_geoms = n_geoms;
    c->n_parts = n_parts;
    c->n_rings = n_rings;
    c->n_coords = n_coords;
}

vsg_status vsg_columnar_alloc_host(vsg_columnar *c, int64_t n_geoms, int64_t n_parts,
                                   int64_t n_rings, int64_t n_coords, int has_z)
{
    vsg_columnar_init(c);
    col_sizes s;
    if (!sizes_for(n_geoms, n_parts, n_rings, n_coords, has_z, &s))
        return VSG_ERR_NOMEM;
    /* vsg_malloc(0) may be NULL: zero-length arrays are simply NULL. */
    c->type = s.type ? vsg_malloc(s.type) : NULL;
    c->flags = s.flags ? vsg_malloc(s.flags) : NULL;
    c->geom_part = vsg_calloc(1, s.geom_part);
    c->part_ring = vsg_calloc(1, s.part_ring);
    c->ring_coord = vsg_calloc(1, s.ring_coord);
    c->x = s.coord ? vsg_malloc(s.coord) : NULL;
    c->y = s.coord ? vsg_malloc(s.coord) : NULL;
    c->z = s.z ? vsg_malloc(s.z) : NULL;
    if ((s.type && (!c->type || !c->flags)) || !c->geom_part || !c->part_ring ||
        !c->ring_coord || (s.coord && (!c->x || !c->y)) || (s.z && !c->z)) {
        vsg_columnar_free(c);
        return VSG_ERR_NOMEM;
    }
    /* Every caller writes the arrays whole next (a download, the WKB
     * decoder's fill): their fresh pages faulted in by several threads
     * first, not one by one under that one writer (core/prefault.h). */
    const vsg_prefault_span spans[] = {
        {c->type, s.type},           {c->flags, s.flags}, {c->geom_part, s.geom_part},
        {c->part_ring, s.part_ring}, {c->ring_coord, s.ring_coord},
        {c->x, s.coord},             {c->y, s.coord},     {c->z, s.z},
    };
    vsg_prefault(spans, (int)(sizeof spans / sizeof spans[0]));
    set_counts(c, n_geoms, n_parts, n_rings, n_coords);
    return VSG_OK;
}

vsg_status vsg_columnar_alloc(vsg_exec *x, vsg_columnar *c, int64_t n_geoms, int64_t n_parts,
                              int64_t n_rings, int64_t n_coords, int has_z)
{
    vsg_columnar_init(c);
    if (!x)
        return VSG_ERR_INVALID_ARG;
    col_sizes s;
    if (!sizes_for(n_geoms, n_parts, n_rings, n_coords, has_z, &s))
        return VSG_ERR_NOMEM;
    c->owner = x;
    /* Allocated into plain void pointers (no type punning of the members),
     * in the order of the members. */
    const size_t bytes[8] = {s.type, s.flags, s.geom_part, s.part_ring, s.ring_coord,
                             s.coord, s.coord, s.z};
    void *p[8] = {0};
    vsg_status st = VSG_OK;
    for (int i = 0; i < 8 && st == VSG_OK; i++)
        st = vsg_exec_alloc(x, bytes[i], &p[i]);
    /* The offsets' leading 0 (and the rest, until a stage fills them). */
    for (int i = 2; i < 5 && st == VSG_OK; i++)
        st = vsg_exec_memset(x, p[i], 0, bytes[i]);
    c->type = p[0];
    c->flags = p[1];
    c->geom_part = p[2];
    c->part_ring = p[3];
    c->ring_coord = p[4];
    c->x = p[5];
    c->y = p[6];
    c->z = p[7];
    if (st != VSG_OK) {
        vsg_columnar_free(c);
        return st;
    }
    set_counts(c, n_geoms, n_parts, n_rings, n_coords);
    return VSG_OK;
}

void vsg_columnar_free(vsg_columnar *c)
{
    void *arr[] = {c->type, c->flags, c->geom_part, c->part_ring, c->ring_coord,
                   c->x, c->y, c->z};
    for (size_t i = 0; i < sizeof arr / sizeof arr[0]; i++) {
        if (c->owner)
            vsg_exec_free(c->owner, arr[i]);
        else
            free(arr[i]);
    }
    vsg_columnar_init(c);
}

vsg_col_view vsg_columnar_view(const vsg_columnar *c)
{
    vsg_col_view v;
    v.n_geoms = c->n_geoms;
    v.n_parts = c->n_parts;
    v.n_rings = c->n_rings;
    v.n_coords = c->n_coords;
    v.type = c->type;
    v.flags = c->flags;
    v.geom_part = c->geom_part;
    v.part_ring = c->part_ring;
    v.ring_coord = c->ring_coord;
    v.x = c->x;
    v.y = c->y;
    v.z = c->z;
    return v;
}

/* Copies every array of src into dst (same counts, already allocated) in
 * one direction. */
static vsg_status copy_arrays(vsg_exec *x, const vsg_columnar *src, vsg_columnar *dst,
                              int to_backend)
{
    col_sizes s;
    if (!sizes_for(src->n_geoms, src->n_parts, src->n_rings, src->n_coords, src->z != NULL,
                   &s))
        return VSG_ERR_NOMEM;
    struct { void *d; const void *s; size_t n; } arr[] = {
        {dst->type, src->type, s.type},
        {dst->flags, src->flags, s.flags},
        {dst->geom_part, src->geom_part, s.geom_part},
        {dst->part_ring, src->part_ring, s.part_ring},
        {dst->ring_coord, src->ring_coord, s.ring_coord},
        {dst->x, src->x, s.coord},
        {dst->y, src->y, s.coord},
        {dst->z, src->z, s.z},
    };
    for (size_t i = 0; i < sizeof arr / sizeof arr[0]; i++) {
        if (!arr[i].n)
            continue;
        vsg_status st = to_backend ? vsg_exec_upload(x, arr[i].d, arr[i].s, arr[i].n)
                                   : vsg_exec_download(x, arr[i].d, arr[i].s, arr[i].n);
        if (st != VSG_OK)
            return st;
    }
    return VSG_OK;
}

vsg_status vsg_columnar_upload(vsg_exec *x, const vsg_columnar *host, vsg_columnar *dst)
{
    vsg_columnar_init(dst);
    if (!x || !host || host->owner)
        return VSG_ERR_INVALID_ARG;
    vsg_status st = vsg_columnar_alloc(x, dst, host->n_geoms, host->n_parts, host->n_rings,
                                       host->n_coords, host->z != NULL);
    if (st == VSG_OK)
        st = copy_arrays(x, host, dst, 1);
    if (st != VSG_OK)
        vsg_columnar_free(dst);
    return st;
}

vsg_status vsg_columnar_download(vsg_exec *x, const vsg_columnar *dev, vsg_columnar *dst)
{
    vsg_columnar_init(dst);
    if (!x || !dev || dev->owner != x)
        return VSG_ERR_INVALID_ARG;
    vsg_status st = vsg_columnar_alloc_host(dst, dev->n_geoms, dev->n_parts, dev->n_rings,
                                            dev->n_coords, dev->z != NULL);
    if (st == VSG_OK)
        st = copy_arrays(x, dev, dst, 0);
    if (st != VSG_OK)
        vsg_columnar_free(dst);
    return st;
}
