/*
 * wkb_scan.c - see wkb_scan.h.
 *
 * One recursive walker serves both the scan and the normalising copy: in
 * copy mode it appends every byte it reads to an output buffer, except that
 * a ring found unclosed is written with its count plus one and its first
 * point repeated at the end, and M ordinates (with their type flags) are
 * left out.
 */
#include "wkb_scan.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { T_POINT = 1, T_LINESTRING, T_POLYGON, T_MULTIPOINT, T_MULTILINESTRING,
       T_MULTIPOLYGON, T_COLLECTION };

typedef struct {
    const unsigned char *buf;
    size_t size, pos;
    vsg_wkb_info *info;
    int nonfinite;
    /* copy mode */
    int emit;
    int drop_m;              /* copy mode: leave M ordinates out */
    unsigned char *out;
    size_t out_len, out_cap;
    int oom;
} walker;

static int host_is_big_endian(void)
{
    const uint16_t one = 1;
    unsigned char b;
    memcpy(&b, &one, 1);
    return b == 0;
}

/* Returns 0 so that callers can `return fail(...)`. The first failure
 * wins: the message names the innermost cause. */
static int fail(walker *w, vsg_wkb_verdict v, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(walker *w, vsg_wkb_verdict v, const char *fmt, ...)
{
    if (w->info->verdict == VSG_WKB_OK || w->info->verdict == VSG_WKB_NONFINITE) {
        w->info->verdict = v;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(w->info->message, sizeof w->info->message, fmt, ap);
        va_end(ap);
    }
    return 0;
}

static int put(walker *w, const void *src, size_t n)
{
    if (!w->emit)
        return 1;
    if (w->out_len + n > w->out_cap) {
        size_t cap = w->out_cap ? w->out_cap : 64;
        while (cap < w->out_len + n)
            cap *= 2;
        unsigned char *q = realloc(w->out, cap);
        if (!q) {
            w->oom = 1;
            return 0;
        }
        w->out = q;
        w->out_cap = cap;
    }
    memcpy(w->out + w->out_len, src, n);
    w->out_len += n;
    return 1;
}

static size_t left(const walker *w)
{
    return w->size - w->pos;
}

/* Reads (and in copy mode copies) n raw bytes. */
static int take(walker *w, void *dst, size_t n, const char *what)
{
    if (left(w) < n)
        return fail(w, VSG_WKB_CORRUPT, "truncated at byte %zu: %s needs %zu bytes, %zu left",
                    w->pos, what, n, left(w));
    memcpy(dst, w->buf + w->pos, n);
    w->pos += n;
    return put(w, dst, n);
}

static uint32_t decode_u32(const unsigned char *b, int big)
{
    return big ? ((uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3])
               : ((uint32_t)b[3] << 24 | (uint32_t)b[2] << 16 | (uint32_t)b[1] << 8 | b[0]);
}

static void encode_u32(unsigned char *b, uint32_t v, int big)
{
    for (int k = 0; k < 4; k++)
        b[big ? 3 - k : k] = (unsigned char)(v >> (8 * k));
}

static double decode_f64(const unsigned char *b, int big)
{
    unsigned char t[8];
    if (big != host_is_big_endian()) {
        for (int k = 0; k < 8; k++)
            t[k] = b[7 - k];
    } else {
        memcpy(t, b, 8);
    }
    double d;
    memcpy(&d, t, 8);
    return d;
}

/* Reads a count and checks that `count` items of at least `min_item` bytes
 * fit in what is left, before anything is allocated or looped over. The
 * count is copied only when copy_count is set (rings write their own). */
static int take_count(walker *w, int big, size_t min_item, const char *what,
                      uint32_t *count, int copy_count)
{
    unsigned char b[4];
    if (left(w) < 4)
        return fail(w, VSG_WKB_CORRUPT, "truncated at byte %zu: %s count", w->pos, what);
    memcpy(b, w->buf + w->pos, 4);
    w->pos += 4;
    if (copy_count && !put(w, b, 4))
        return 0;
    *count = decode_u32(b, big);
    if (min_item && (uint64_t)*count > left(w) / min_item)
        return fail(w, VSG_WKB_CORRUPT,
                    "%s count %u at byte %zu does not fit in the %zu bytes left",
                    what, *count, w->pos - 4, left(w));
    return 1;
}

static void add_point_to_bounds(walker *w, double x, double y)
{
    vsg_wkb_info *in = w->info;
    if (in->is_empty) {
        in->bounds[0] = in->bounds[2] = x;
        in->bounds[1] = in->bounds[3] = y;
        in->is_empty = 0;
        return;
    }
    if (x < in->bounds[0]) in->bounds[0] = x;
    if (y < in->bounds[1]) in->bounds[1] = y;
    if (x > in->bounds[2]) in->bounds[2] = x;
    if (y > in->bounds[3]) in->bounds[3] = y;
}

/* Checks one coordinate (x, y, then z and/or m) already known to be in
 * the buffer at p. */
static void check_coord(walker *w, const unsigned char *p, int big, int has_z)
{
    double x = decode_f64(p, big), y = decode_f64(p + 8, big);
    int bad = !isfinite(x) || !isfinite(y);
    if (has_z && isinf(decode_f64(p + 16, big)))
        bad = 1;
    if (bad) {
        w->nonfinite = 1;
        return;
    }
    add_point_to_bounds(w, x, y);
}

/* Copies one coordinate of `dims` doubles at p; M, always the last
 * ordinate, is left out when the copy drops M. */
static int put_coord(walker *w, const unsigned char *p, int dims, int has_m)
{
    return put(w, p, (size_t)(dims - (has_m && w->drop_m)) * 8);
}

/* A run of n coordinates of `dims` doubles (count already validated). */
static int take_coords(walker *w, int big, uint32_t n, int dims, int has_z, int has_m)
{
    size_t stride = (size_t)dims * 8;
    const unsigned char *p = w->buf + w->pos;
    for (uint32_t i = 0; i < n; i++)
        check_coord(w, p + (size_t)i * stride, big, has_z);
    size_t len = (size_t)n * stride;
    if (has_m && w->drop_m) {
        for (uint32_t i = 0; i < n; i++)
            if (!put_coord(w, p + (size_t)i * stride, dims, has_m))
                return 0;
    } else if (!put(w, p, len)) {
        return 0;
    }
    w->pos += len;
    w->info->n_points += n;
    return 1;
}

static void note_dimension(walker *w, int d)
{
    if (d > w->info->dimension)
        w->info->dimension = d;
}

static int walk_point(walker *w, int big, int dims, int has_z, int has_m)
{
    size_t len = (size_t)dims * 8;
    if (left(w) < len)
        return fail(w, VSG_WKB_CORRUPT, "truncated at byte %zu: point needs %zu bytes",
                    w->pos, len);
    const unsigned char *p = w->buf + w->pos;
    int all_nan = 1;
    for (int k = 0; k < dims; k++)
        if (!isnan(decode_f64(p + 8 * k, big)))
            all_nan = 0;
    if (!all_nan) {            /* all NaN: POINT EMPTY, no coordinate */
        check_coord(w, p, big, has_z);
        w->info->n_points++;
        note_dimension(w, 0);
    }
    if (!put_coord(w, p, dims, has_m))
        return 0;
    w->pos += len;
    return 1;
}

static int walk_linestring(walker *w, int big, int dims, int has_z, int has_m)
{
    uint32_t n;
    if (!take_count(w, big, (size_t)dims * 8, "point", &n, 1))
        return 0;
    if (n > 0)
        note_dimension(w, 1);
    return take_coords(w, big, n, dims, has_z, has_m);
}

static int walk_ring(walker *w, int big, int dims, int has_z, int has_m)
{
    size_t stride = (size_t)dims * 8;
    uint32_t n;
    if (!take_count(w, big, stride, "ring point", &n, 0))
        return 0;
    const unsigned char *first = w->buf + w->pos;
    int unclosed = 0;
    if (n >= 2) {
        const unsigned char *last = first + (size_t)(n - 1) * stride;
        /* Closure is judged in X and Y, as GEOS does. */
        unclosed = decode_f64(first, big) != decode_f64(last, big) ||
                   decode_f64(first + 8, big) != decode_f64(last + 8, big);
    }
    w->info->n_rings++;
    if (unclosed) {
        if (n == UINT32_MAX)
            return fail(w, VSG_WKB_CORRUPT, "ring at byte %zu is too long to close", w->pos);
        w->info->n_unclosed_rings++;
    }
    unsigned char cb[4];
    encode_u32(cb, n + (uint32_t)(unclosed && w->emit), big);
    if (!put(w, cb, 4))
        return 0;
    if (!take_coords(w, big, n, dims, has_z, has_m))
        return 0;
    if (unclosed && w->emit && !put_coord(w, first, dims, has_m))
        return 0;
    return 1;
}

static int walk_polygon(walker *w, int big, int dims, int has_z, int has_m)
{
    uint32_t n;
    if (!take_count(w, big, 4, "ring", &n, 1))
        return 0;
    int64_t before = w->info->n_points;
    for (uint32_t r = 0; r < n; r++)
        if (!walk_ring(w, big, dims, has_z, has_m))
            return 0;
    if (w->info->n_points > before)
        note_dimension(w, 2);
    return 1;
}

static int walk_geometry(walker *w, int depth, int expected);

/* Smallest possible sub-geometry: header (5) + a count (4). A point needs
 * more (5 + 16), but 9 is a safe lower bound for every member type. */
static int walk_collection(walker *w, int big, int depth, int member_type)
{
    uint32_t n;
    if (!take_count(w, big, 9, "member", &n, 1))
        return 0;
    for (uint32_t i = 0; i < n; i++)
        if (!walk_geometry(w, depth + 1, member_type))
            return 0;
    return 1;
}

static const char *type_name(int t)
{
    static const char *names[] = {"?", "Point", "LineString", "Polygon", "MultiPoint",
                                  "MultiLineString", "MultiPolygon", "GeometryCollection"};
    return t >= 1 && t <= 7 ? names[t] : "?";
}

/* expected: the member type a container requires, 0 for any. */
static int walk_geometry(walker *w, int depth, int expected)
{
    if (depth > VSG_WKB_MAX_DEPTH)
        return fail(w, VSG_WKB_CORRUPT, "nesting deeper than %d at byte %zu",
                    VSG_WKB_MAX_DEPTH, w->pos);
    size_t at = w->pos;
    unsigned char hdr[5];
    /* The header is read without copying: the copy writes its own, which
     * differs when M is dropped. */
    int emit = w->emit;
    w->emit = 0;
    int got_header = take(w, hdr, 5, "geometry header");
    w->emit = emit;
    if (!got_header)
        return 0;
    if (hdr[0] > 1)
        return fail(w, VSG_WKB_CORRUPT, "bad byte order %u at byte %zu", hdr[0], at);
    int big = hdr[0] == 0;
    uint32_t raw = decode_u32(hdr + 1, big);

    int has_z = (raw & 0x80000000u) != 0;
    int has_m = (raw & 0x40000000u) != 0;
    int has_srid = (raw & 0x20000000u) != 0;
    uint32_t code = raw & 0x0FFFFFFFu;
    uint32_t iso = code / 1000, t = code % 1000;
    if (iso > 3)
        return fail(w, VSG_WKB_CORRUPT, "unknown geometry type %u at byte %zu", raw, at);
    has_z |= iso == 1 || iso == 3;
    has_m |= iso == 2 || iso == 3;
    if (has_m)
        w->info->any_m = 1;
    if (w->emit) {
        /* Without M: ISO 2xxx becomes 2D, 3xxx becomes Z; EWKB loses its
         * M flag. Both spellings may be present at once (the EWKB flag on
         * an ISO 2xxx/3xxx code): both go, or the copy would still
         * announce the M ordinate it no longer has. */
        uint32_t out_raw = raw;
        if (has_m && w->drop_m)
            out_raw = (raw & 0xF0000000u & ~0x40000000u) |
                      ((iso == 3 || iso == 1 ? 1000u : 0u) + t);
        unsigned char oh[5];
        oh[0] = hdr[0];
        encode_u32(oh + 1, out_raw, big);
        if (!put(w, oh, 5))
            return 0;
    }
    if (has_srid) {
        unsigned char s[4];
        if (!take(w, s, 4, "SRID"))
            return 0;
    }
    if (depth == 0) {
        w->info->type = (int)t;
        w->info->has_z = has_z;
        w->info->has_m = has_m;
        w->info->has_srid = has_srid;
    }
    static const char *const curve_names[] = {
        "CircularString", "CompoundCurve", "CurvePolygon", "MultiCurve",
        "MultiSurface", "Curve", "Surface", "PolyhedralSurface", "TIN", "Triangle"};
    /* A member of a Multi* must be of its simple type: a curve there is
     * corrupt WKB, not an unsupported type (a MultiPolygon cannot hold a
     * CurvePolygon), as the columnar decoder judges it. */
    if (expected && t >= 1 && t <= 17 && (int)t != expected)
        return fail(w, VSG_WKB_CORRUPT, "%s at byte %zu inside a collection of %ss",
                    t <= 7 ? type_name((int)t) : curve_names[t - 8], at, type_name(expected));
    if (t >= 8 && t <= 17) {
        return fail(w, VSG_WKB_UNSUPPORTED, "unsupported geometry type %s (WKB type %u) at "
                    "byte %zu", curve_names[t - 8], t, at);
    }
    if (t < 1 || t > 7)
        return fail(w, VSG_WKB_CORRUPT, "unknown geometry type %u at byte %zu", raw, at);

    int dims = 2 + has_z + has_m;
    switch (t) {
    case T_POINT: return walk_point(w, big, dims, has_z, has_m);
    case T_LINESTRING: return walk_linestring(w, big, dims, has_z, has_m);
    case T_POLYGON: return walk_polygon(w, big, dims, has_z, has_m);
    case T_MULTIPOINT: return walk_collection(w, big, depth, T_POINT);
    case T_MULTILINESTRING: return walk_collection(w, big, depth, T_LINESTRING);
    case T_MULTIPOLYGON: return walk_collection(w, big, depth, T_POLYGON);
    default: return walk_collection(w, big, depth, 0);
    }
}

static void info_init(vsg_wkb_info *info)
{
    memset(info, 0, sizeof *info);
    info->verdict = VSG_WKB_OK;
    info->is_empty = 1;
    info->dimension = -1;
}

static int run(walker *w)
{
    if (!w->buf || w->size == 0)
        return fail(w, VSG_WKB_CORRUPT, "no bytes");
    if (!walk_geometry(w, 0, 0))
        return 0;
    w->info->consumed = w->pos;
    if (w->nonfinite)
        return fail(w, VSG_WKB_NONFINITE, "NaN or infinite coordinate");
    return 1;
}

void vsg_wkb_scan(const unsigned char *wkb, size_t size, vsg_wkb_info *info)
{
    walker w = {0};
    w.buf = wkb;
    w.size = size;
    w.info = info;
    info_init(info);
    run(&w);
}

vsg_status vsg_wkb_close_rings(const unsigned char *wkb, size_t size,
                               unsigned char **out, size_t *out_size)
{
    return vsg_wkb_normalize(wkb, size, 0, out, out_size);
}

vsg_status vsg_wkb_normalize(const unsigned char *wkb, size_t size, int drop_m,
                             unsigned char **out, size_t *out_size)
{
    *out = NULL;
    *out_size = 0;
    vsg_wkb_info info;
    walker w = {0};
    w.buf = wkb;
    w.size = size;
    w.info = &info;
    w.emit = 1;
    w.drop_m = drop_m;
    info_init(&info);
    run(&w);
    if (w.oom) {
        free(w.out);
        return VSG_ERR_NOMEM;
    }
    if (info.verdict != VSG_WKB_OK && info.verdict != VSG_WKB_NONFINITE) {
        free(w.out);
        return VSG_ERR_CORRUPT_WKB;
    }
    *out = w.out;
    *out_size = w.out_len;
    return VSG_OK;
}
