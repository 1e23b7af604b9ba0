/*
 * to_wkb.c - columnar geometry -> ISO little-endian WKB (columnar.h), one
 * geometry at a time, on the host: the way results leave the engine.
 *
 * The inverse of from_wkb.c's layout: type codes 1-6, plus 1000 with Z;
 * a Multi* writes one member per part, with the container's Z; rings are
 * written as stored (closed when they came closed, as the layout keeps
 * them). An empty top-level geometry (no part) is written as the empty
 * form of its type; POINT EMPTY, and a point member whose ring holds no
 * coordinate, as NaN ordinates (the ISO convention GDAL and GEOS follow).
 * Null, corrupt and unsupported rows have no columnar form: size 0.
 *
 * The columnar is trusted here (it comes from from_wkb.c or a stage), but
 * the size and the writer walk it the same way, so the buffer the caller
 * sized with vsg_columnar_wkb_size is exactly what is written.
 */
#include "columnar/columnar.h"

#include <string.h>

static int row_has_form(const vsg_columnar *c, int64_t g)
{
    if (g < 0 || g >= c->n_geoms)
        return 0;
    if (c->flags[g] & (VSG_GF_NULL | VSG_GF_CORRUPT | VSG_GF_UNSUPPORTED))
        return 0;
    return c->type[g] >= VSG_GT_POINT && c->type[g] <= VSG_GT_MULTIPOLYGON;
}

/* An empty Z geometry is still written as Z: the flag decides, not the
 * z array (which is NULL when the set has no coordinate at all). */
static int row_has_z(const vsg_columnar *c, int64_t g)
{
    return (c->flags[g] & VSG_GF_Z) != 0;
}

/* Coordinates of ring r, or 0 when the part has no such ring. */
static int64_t ring_len(const vsg_columnar *c, int64_t r)
{
    return c->ring_coord[r + 1] - c->ring_coord[r];
}

static int64_t part_rings(const vsg_columnar *c, int64_t p)
{
    return c->part_ring[p + 1] - c->part_ring[p];
}

/* Bytes of part p written as a simple geometry of type t. */
static size_t member_size(const vsg_columnar *c, int t, int64_t p, size_t cs)
{
    if (t == VSG_GT_POINT)
        return 5 + cs;
    int64_t r0 = c->part_ring[p], nr = part_rings(c, p);
    if (t == VSG_GT_LINESTRING)
        return 9 + (nr > 0 ? (size_t)ring_len(c, r0) * cs : 0);
    size_t n = 9;
    for (int64_t r = r0; r < r0 + nr; r++)
        n += 4 + (size_t)ring_len(c, r) * cs;
    return n;
}

size_t vsg_columnar_wkb_size(const vsg_columnar *c, int64_t g)
{
    if (!row_has_form(c, g))
        return 0;
    int t = c->type[g];
    size_t cs = row_has_z(c, g) ? 24 : 16;
    int64_t p0 = c->geom_part[g], np = c->geom_part[g + 1] - p0;
    if (t >= VSG_GT_MULTIPOINT) {
        size_t n = 9;
        for (int64_t p = p0; p < p0 + np; p++)
            n += member_size(c, t - 3, p, cs);
        return n;
    }
    if (np == 0)
        return t == VSG_GT_POINT ? 5 + cs : 9;
    return member_size(c, t, p0, cs);
}

/* ---- little-endian output ------------------------------------------------ */

typedef struct {
    unsigned char *p;
    int z;                      /* write Z ordinates                       */
    int big_host;
} out_buf;

static void put_u32(out_buf *o, uint32_t v)
{
    for (int k = 0; k < 4; k++)
        o->p[k] = (unsigned char)(v >> (8 * k));
    o->p += 4;
}

static void put_f64(out_buf *o, double d)
{
    if (o->big_host) {
        unsigned char t[8];
        memcpy(t, &d, 8);
        for (int k = 0; k < 8; k++)
            o->p[k] = t[7 - k];
    } else {
        memcpy(o->p, &d, 8);
    }
    o->p += 8;
}

static void put_header(out_buf *o, int t)
{
    *o->p++ = 1;
    put_u32(o, (uint32_t)t + (o->z ? 1000u : 0u));
}

/* The quiet NaN GDAL and GEOS write for the ordinates of POINT EMPTY. */
static double empty_ordinate(void)
{
    const uint64_t bits = UINT64_C(0x7FF8000000000000);
    double d;
    memcpy(&d, &bits, 8);
    return d;
}

static void put_coords(out_buf *o, const vsg_columnar *c, int64_t from, int64_t n)
{
    for (int64_t i = from; i < from + n; i++) {
        put_f64(o, c->x[i]);
        put_f64(o, c->y[i]);
        if (o->z)
            put_f64(o, c->z ? c->z[i] : empty_ordinate());
    }
}

static void put_empty_point(out_buf *o)
{
    for (int k = 0; k < 2 + o->z; k++)
        put_f64(o, empty_ordinate());
}

static void put_member(out_buf *o, const vsg_columnar *c, int t, int64_t p)
{
    int64_t r0 = c->part_ring[p], nr = part_rings(c, p);
    put_header(o, t);
    if (t == VSG_GT_POINT) {
        if (nr > 0 && ring_len(c, r0) > 0)
            put_coords(o, c, c->ring_coord[r0], 1);
        else
            put_empty_point(o);
        return;
    }
    if (t == VSG_GT_LINESTRING) {
        int64_t n = nr > 0 ? ring_len(c, r0) : 0;
        put_u32(o, (uint32_t)n);
        if (n > 0)
            put_coords(o, c, c->ring_coord[r0], n);
        return;
    }
    put_u32(o, (uint32_t)nr);
    for (int64_t r = r0; r < r0 + nr; r++) {
        put_u32(o, (uint32_t)ring_len(c, r));
        put_coords(o, c, c->ring_coord[r], ring_len(c, r));
    }
}

void vsg_columnar_write_wkb(const vsg_columnar *c, int64_t g, unsigned char *buf)
{
    if (!row_has_form(c, g))
        return;
    const uint16_t one = 1;
    unsigned char first;
    memcpy(&first, &one, 1);
    out_buf o = {buf, row_has_z(c, g), first == 0};
    int t = c->type[g];
    int64_t p0 = c->geom_part[g], np = c->geom_part[g + 1] - p0;
    if (t >= VSG_GT_MULTIPOINT) {
        put_header(&o, t);
        put_u32(&o, (uint32_t)np);
        for (int64_t p = p0; p < p0 + np; p++)
            put_member(&o, c, t - 3, p);
        return;
    }
    if (np > 0) {
        put_member(&o, c, t, p0);
        return;
    }
    put_header(&o, t);
    if (t == VSG_GT_POINT)
        put_empty_point(&o);
    else
        put_u32(&o, 0);
}
