/*
 * from_wkb.c - WKB batches -> columnar geometry (columnar.h), in two
 * passes over the bytes: the first walks every geometry's structure to
 * judge it and count its parts, rings and coordinates; the arrays are then
 * allocated once; the second walks the good geometries again and fills
 * them (coordinates de-interleaved into x, y and z).
 *
 * The bytes are untrusted. Every count is checked against the bytes left
 * before it is used (n items of at least k bytes: n <= left / k, so no
 * product can overflow), the only nesting is a Multi* holding its own
 * simple type (depth 1), and totals are int64 (bounded by the input size).
 * A geometry that cannot be decoded is flagged and reported, never fatal:
 *
 *   corrupt      truncated, a count larger than the bytes left, a bad byte
 *                order or type code, a member of the wrong type;
 *   unsupported  GeometryCollection, curves and surfaces (codes 7-17), and
 *                a member whose Z/M differs from its container's: the CPU
 *                engine (geometry/wkb_scan.c) reads those, so they go to it.
 *                An unsupported one is checked with vsg_wkb_scan too, so
 *                that a corrupt collection (or one nested too deep) is
 *                reported as corrupt;
 *   nonfinite    decoded, but an X or Y is NaN or infinite, or a Z is
 *                infinite (NaN Z means "no Z" to some writers), as the CPU
 *                engine judges it.
 *
 * Large batches are walked in slices of rows on several threads, each
 * pass; the arrays are the same as one thread's.
 *
 * Accepted: both byte orders (per geometry, as WKB allows), ISO type codes
 * (1000 Z, 2000 M, 3000 ZM) and EWKB flags (Z 0x80000000, M 0x40000000,
 * SRID 0x20000000 followed by the SRID); M is read and dropped. A point
 * whose ordinates are all NaN is POINT EMPTY. Bytes after a geometry are
 * ignored, as in wkb_scan.c.
 *
 * Empty geometries: no coordinate at all sets VSG_GF_EMPTY. At the top
 * level an empty one has no part; inside a Multi* an empty member keeps
 * its part (a point or line member: one ring of 0 coordinates; a polygon
 * member: 0 rings), so that MULTIPOINT(EMPTY, 1 2) comes back as it came.
 */
#include "columnar/columnar.h"

#include "core/fault.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/threads.h"
#include "geometry/wkb_scan.h"

enum { V_OK = 0, V_CORRUPT, V_UNSUPPORTED };

/* What pass 1 decided for a geometry (kept for pass 2). */
enum { K_NULL = 0, K_DECODE, K_CORRUPT, K_UNSUPPORTED };

typedef struct {
    /* the geometry being walked */
    const unsigned char *buf;
    size_t size, pos;
    int verdict;
    char reason[160];
    /* structure counts (pass 1) or write positions (pass 2), cumulative */
    int64_t parts, rings, coords;
    int geom_type;          /* the top-level header's type and Z         */
    int geom_has_z;
    int nonfinite;
    /* pass 2 only: the arrays being filled (NULL in pass 1) */
    vsg_columnar *out;
} walker;

/* Per-geometry header facts. */
typedef struct {
    int big, type, has_z, has_m;
    size_t at;
} header;

static int host_is_big_endian(void)
{
    const uint16_t one = 1;
    unsigned char b;
    memcpy(&b, &one, 1);
    return b == 0;
}

/* Returns 0 so that callers can `return fail(...)`; the first cause wins. */
static int fail(walker *w, int verdict, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(walker *w, int verdict, const char *fmt, ...)
{
    if (w->verdict == V_OK) {
        w->verdict = verdict;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(w->reason, sizeof w->reason, fmt, ap);
        va_end(ap);
    }
    return 0;
}

static size_t left(const walker *w)
{
    return w->size - w->pos;
}

static uint32_t decode_u32(const unsigned char *b, int big)
{
    return big ? ((uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3])
               : ((uint32_t)b[3] << 24 | (uint32_t)b[2] << 16 | (uint32_t)b[1] << 8 | b[0]);
}

/* swap: the geometry's byte order differs from the host's. */
static double decode_f64(const unsigned char *b, int swap)
{
    double d;
    if (swap) {
        unsigned char t[8];
        for (int k = 0; k < 8; k++)
            t[k] = b[7 - k];
        memcpy(&d, t, 8);
    } else {
        memcpy(&d, b, 8);
    }
    return d;
}

static const char *type_name(int t)
{
    static const char *names[] = {"?", "Point", "LineString", "Polygon", "MultiPoint",
                                  "MultiLineString", "MultiPolygon"};
    return t >= 1 && t <= 6 ? names[t] : "?";
}

static int read_header(walker *w, header *h)
{
    h->at = w->pos;
    if (left(w) < 5)
        return fail(w, V_CORRUPT, "truncated at byte %zu: geometry header needs 5 bytes, "
                    "%zu left", w->pos, left(w));
    const unsigned char *p = w->buf + w->pos;
    if (p[0] > 1)
        return fail(w, V_CORRUPT, "bad byte order %u at byte %zu", p[0], w->pos);
    h->big = p[0] == 0;
    uint32_t raw = decode_u32(p + 1, h->big);
    w->pos += 5;
    uint32_t code = raw & 0x0FFFFFFFu, iso = code / 1000, t = code % 1000;
    if (iso > 3)
        return fail(w, V_CORRUPT, "unknown geometry type %u at byte %zu", raw, h->at);
    h->has_z = (raw & 0x80000000u) != 0 || iso == 1 || iso == 3;
    h->has_m = (raw & 0x40000000u) != 0 || iso == 2 || iso == 3;
    if (raw & 0x20000000u) {
        if (left(w) < 4)
            return fail(w, V_CORRUPT, "truncated at byte %zu: SRID needs 4 bytes", w->pos);
        w->pos += 4;
    }
    h->type = (int)t;
    if (t >= 7 && t <= 17)
        return fail(w, V_UNSUPPORTED, "geometry type %u at byte %zu (collection, curve or "
                    "surface) has no columnar form", t, h->at);
    if (t < 1 || t > 17)
        return fail(w, V_CORRUPT, "unknown geometry type %u at byte %zu", raw, h->at);
    return 1;
}

/* A count of items of at least min_item bytes each, checked against the
 * bytes left before anyone loops over it or allocates for it. */
static int read_count(walker *w, const header *h, size_t min_item, const char *what,
                      uint32_t *n)
{
    if (left(w) < 4)
        return fail(w, V_CORRUPT, "truncated at byte %zu: %s count", w->pos, what);
    *n = decode_u32(w->buf + w->pos, h->big);
    w->pos += 4;
    if ((uint64_t)*n > left(w) / min_item)
        return fail(w, V_CORRUPT, "%s count %u at byte %zu does not fit in the %zu bytes "
                    "left", what, *n, w->pos - 4, left(w));
    return 1;
}

static size_t stride_of(const header *h)
{
    return (size_t)(2 + h->has_z + h->has_m) * 8;
}

/* Pass 2 writes only within the counts of pass 1 (the same bytes give the
 * same counts; this guards against a caller changing them in between). */
static int fits(walker *w, int64_t have, int64_t need)
{
    if (w->out && need > have)
        return fail(w, V_CORRUPT, "input changed between the count and fill passes");
    return 1;
}

/* n coordinates, already known to be in the buffer. Pass 1 skips them;
 * pass 2 de-interleaves them and judges finiteness. */
static int take_coords(walker *w, const header *h, uint32_t n)
{
    size_t stride = stride_of(h);
    const unsigned char *p = w->buf + w->pos;
    int64_t at = w->coords;
    if (w->out && !fits(w, w->out->n_coords, at + n))
        return 0;
    w->pos += (size_t)n * stride;
    w->coords += n;
    vsg_columnar *o = w->out;
    if (!o)
        return 1;
    int swap = h->big != host_is_big_endian();
    int bad = 0;
    for (uint32_t i = 0; i < n; i++, p += stride) {
        double x = decode_f64(p, swap), y = decode_f64(p + 8, swap);
        o->x[at + i] = x;
        o->y[at + i] = y;
        bad |= !isfinite(x) | !isfinite(y);
    }
    if (o->z) {
        p = w->buf + w->pos - (size_t)n * stride;
        for (uint32_t i = 0; i < n; i++, p += stride) {
            double z = h->has_z ? decode_f64(p + 16, swap) : NAN;
            o->z[at + i] = z;
            bad |= isinf(z);
        }
    }
    if (bad)
        w->nonfinite = 1;
    return 1;
}

/* Opens a ring (pass 2: its start offset) / a part (its first ring). */
static int open_ring(walker *w)
{
    if (w->out) {
        if (!fits(w, w->out->n_rings, w->rings + 1))
            return 0;
        w->out->ring_coord[w->rings] = w->coords;
    }
    w->rings++;
    return 1;
}

static int open_part(walker *w)
{
    if (w->out) {
        if (!fits(w, w->out->n_parts, w->parts + 1))
            return 0;
        w->out->part_ring[w->parts] = w->rings;
    }
    w->parts++;
    return 1;
}

/* member: inside a Multi* (an empty one keeps its part). */
static int walk_point(walker *w, const header *h, int member)
{
    size_t stride = stride_of(h);
    if (left(w) < stride)
        return fail(w, V_CORRUPT, "truncated at byte %zu: point needs %zu bytes, %zu left",
                    w->pos, stride, left(w));
    int swap = h->big != host_is_big_endian();
    int all_nan = 1;
    for (size_t k = 0; k < stride; k += 8)
        if (!isnan(decode_f64(w->buf + w->pos + k, swap)))
            all_nan = 0;
    if (all_nan && !member) {           /* POINT EMPTY: no part */
        w->pos += stride;
        return 1;
    }
    if (!open_part(w) || !open_ring(w))
        return 0;
    if (all_nan) {
        w->pos += stride;
        return 1;
    }
    return take_coords(w, h, 1);
}

static int walk_linestring(walker *w, const header *h, int member)
{
    uint32_t n;
    if (!read_count(w, h, stride_of(h), "point", &n))
        return 0;
    if (n == 0 && !member)
        return 1;
    return open_part(w) && open_ring(w) && take_coords(w, h, n);
}

static int walk_polygon(walker *w, const header *h, int member)
{
    uint32_t nr;
    if (!read_count(w, h, 4, "ring", &nr))
        return 0;
    if (nr == 0 && !member)
        return 1;
    if (!open_part(w))
        return 0;
    for (uint32_t r = 0; r < nr; r++) {
        uint32_t n;
        if (!read_count(w, h, stride_of(h), "ring point", &n) || !open_ring(w) ||
            !take_coords(w, h, n))
            return 0;
    }
    return 1;
}

static int walk_simple(walker *w, const header *h, int member)
{
    switch (h->type) {
    case VSG_GT_POINT: return walk_point(w, h, member);
    case VSG_GT_LINESTRING: return walk_linestring(w, h, member);
    default: return walk_polygon(w, h, member);
    }
}

static int walk_multi(walker *w, const header *h)
{
    int member_type = h->type - 3;
    /* Smallest member: a header and a point (21 bytes), or a header and a
     * count (9 bytes). */
    size_t min_member = member_type == VSG_GT_POINT ? 5 + 16 : 5 + 4;
    uint32_t n;
    if (!read_count(w, h, min_member, "member", &n))
        return 0;
    for (uint32_t i = 0; i < n; i++) {
        header m;
        if (!read_header(w, &m))
            return 0;
        if (m.type != member_type)
            return fail(w, V_CORRUPT, "%s at byte %zu inside a %s", type_name(m.type), m.at,
                        type_name(h->type));
        if (m.has_z != h->has_z || m.has_m != h->has_m)
            return fail(w, V_UNSUPPORTED, "member at byte %zu has other dimensions (Z/M) "
                        "than its %s", m.at, type_name(h->type));
        if (!walk_simple(w, &m, 1))
            return 0;
    }
    return 1;
}

/* Walks one geometry from the start of its bytes; the counters advance
 * only as far as the walk got (callers roll back on failure). */
static int walk_geometry(walker *w)
{
    header h;
    if (w->size == 0)
        return fail(w, V_CORRUPT, "no bytes");
    if (!read_header(w, &h))
        return 0;
    w->geom_type = h.type;
    w->geom_has_z = h.has_z;
    if (h.type >= VSG_GT_MULTIPOINT)
        return walk_multi(w, &h);
    return walk_simple(w, &h, 0);
}

/* Starts a walk over geometry bytes, keeping the cumulative counters. */
static void walker_begin(walker *w, const unsigned char *buf, size_t size)
{
    w->buf = buf;
    w->size = size;
    w->pos = 0;
    w->verdict = V_OK;
    w->reason[0] = '\0';
    w->nonfinite = 0;
    w->geom_type = 0;
    w->geom_has_z = 0;
}

/* An unsupported geometry may still be corrupt further on (or nest too
 * deep): the CPU engine's scanner has the last word. */
static int recheck_unsupported(walker *w)
{
    vsg_wkb_info info;
    vsg_wkb_scan(w->buf, w->size, &info);
    if (info.verdict == VSG_WKB_CORRUPT) {
        w->verdict = V_CORRUPT;
        snprintf(w->reason, sizeof w->reason, "%s", info.message);
        return K_CORRUPT;
    }
    return K_UNSUPPORTED;
}

static void report_init(vsg_columnar_report *r)
{
    memset(r, 0, sizeof *r);
    r->first_corrupt = -1;
}

/* Pass 1 over rows [a, b): judges every geometry (kind[i]), counts the
 * structure, and says whether any decoded geometry has Z. */
static void count_pass(const vsg_wkb_array *in, size_t a, size_t b, uint8_t *kind, walker *w,
                       int *any_z, vsg_columnar_report *rep)
{
    *any_z = 0;
    for (size_t i = a; i < b; i++) {
        if (!in->wkb[i]) {
            kind[i] = K_NULL;
            rep->nulls++;
            continue;
        }
        int64_t parts = w->parts, rings = w->rings, coords = w->coords;
        walker_begin(w, in->wkb[i], in->size[i]);
        kind[i] = walk_geometry(w) ? K_DECODE : K_CORRUPT;
        if (w->verdict == V_UNSUPPORTED)
            kind[i] = (uint8_t)recheck_unsupported(w);
        if (kind[i] != K_DECODE) {
            w->parts = parts;
            w->rings = rings;
            w->coords = coords;
        } else if (w->geom_has_z) {
            *any_z = 1;
        }
        if (kind[i] == K_UNSUPPORTED) {
            rep->unsupported++;
        } else if (kind[i] == K_CORRUPT) {
            if (rep->corrupt++ == 0) {
                rep->first_corrupt = (int64_t)i;
                snprintf(rep->first_corrupt_reason, sizeof rep->first_corrupt_reason, "%s",
                         w->reason);
            }
        }
    }
}

/* Pass 2 over rows [a, b), the walker's counters at the range's first
 * part, ring and coordinate: fills the arrays of the geometries pass 1
 * decoded. The bytes are the same, so every walk succeeds and lands on the
 * counts of pass 1; anything else means the caller changed the input in
 * between (the caller checks where each range ends). */
static vsg_status fill_pass(const vsg_wkb_array *in, size_t a, size_t b, const uint8_t *kind,
                            walker *w, vsg_columnar_report *rep)
{
    vsg_columnar *o = w->out;
    for (size_t i = a; i < b; i++) {
        o->geom_part[i] = w->parts;
        o->type[i] = VSG_GT_NONE;
        switch (kind[i]) {
        case K_NULL: o->flags[i] = VSG_GF_NULL; continue;
        case K_CORRUPT: o->flags[i] = VSG_GF_CORRUPT; continue;
        case K_UNSUPPORTED: o->flags[i] = VSG_GF_UNSUPPORTED; continue;
        default: break;
        }
        int64_t coords = w->coords;
        walker_begin(w, in->wkb[i], in->size[i]);
        if (!walk_geometry(w))
            return VSG_ERR_INVALID_ARG;
        uint8_t f = 0;
        if (w->geom_has_z)
            f |= VSG_GF_Z;
        if (w->coords == coords)
            f |= VSG_GF_EMPTY;
        if (w->nonfinite) {
            f |= VSG_GF_NONFINITE;
            rep->nonfinite++;
        } else {
            rep->decoded++;
        }
        o->flags[i] = f;
        o->type[i] = (uint8_t)w->geom_type;
    }
    return VSG_OK;
}

/* ---- the passes over slices of rows, on several threads ------------------
 * Each slice is walked by its own walker from zero (pass 1) or from the
 * slice's first part, ring and coordinate, the sums of the slices before
 * it (pass 2): the arrays are the same as one walk's, for any number of
 * slices. The calling thread takes slice 0. */
enum { MAX_SLICES = 16 };
#define MIN_SLICE_BYTES ((size_t)4 << 20)   /* WKB bytes per thread at least */

typedef struct {
    const vsg_wkb_array *in;
    size_t a, b;
    uint8_t *kind;
    int pass;
    walker w;
    int any_z;
    int64_t end[3];              /* pass 2: where the slice must end (parts,
                                    rings, coordinates)                     */
    vsg_columnar_report rep;
    vsg_status st;
} slice;

static void slice_run(void *item)
{
    slice *sl = item;
    if (sl->pass == 1)
        count_pass(sl->in, sl->a, sl->b, sl->kind, &sl->w, &sl->any_z, &sl->rep);
    else
        sl->st = fill_pass(sl->in, sl->a, sl->b, sl->kind, &sl->w, &sl->rep);
}

static void run_slices(slice *sl, int n)
{
    vsg_run_threads(slice_run, sl, sizeof *sl, n);
}

/* Slices of about equal bytes: `want` of them, or when want is 0 up to
 * MAX_SLICES of at least MIN_SLICE_BYTES each and no more than the cores.
 * Returns their number. */
static int make_slices(const vsg_wkb_array *in, uint8_t *kind, int want, slice *sl)
{
    size_t total = 0, n = in->count;
    for (size_t i = 0; i < n; i++)
        total += in->wkb[i] ? in->size[i] : 0;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    size_t t = total / MIN_SLICE_BYTES;
    t = t > MAX_SLICES ? MAX_SLICES : t;
    t = cpus > 0 && t > (size_t)cpus ? (size_t)cpus : t;
    if (want > 0)
        t = want > MAX_SLICES ? MAX_SLICES : (size_t)want;
    t = t > n ? n : t;
    t = t < 1 ? 1 : t;
    size_t k = 0, acc = 0;
    memset(sl, 0, t * sizeof *sl);
    sl[0].a = 0;
    for (size_t i = 0; i < n && k + 1 < t; i++) {
        acc += in->wkb[i] ? in->size[i] : 0;
        if (acc * t >= total * (k + 1)) {
            sl[k].b = i + 1;
            sl[++k].a = i + 1;
        }
    }
    sl[k].b = n;
    for (size_t j = 0; j <= k; j++) {
        sl[j].in = in;
        sl[j].kind = kind;
        report_init(&sl[j].rep);
    }
    return (int)k + 1;
}

/* The slices' reports in row order: sums, and the first corrupt row. */
static void merge_reports(const slice *sl, int n, vsg_columnar_report *rep)
{
    for (int k = 0; k < n; k++) {
        const vsg_columnar_report *r = &sl[k].rep;
        if (rep->corrupt == 0 && r->corrupt > 0) {
            rep->first_corrupt = r->first_corrupt;
            snprintf(rep->first_corrupt_reason, sizeof rep->first_corrupt_reason, "%s",
                     r->first_corrupt_reason);
        }
        rep->decoded += r->decoded;
        rep->nulls += r->nulls;
        rep->corrupt += r->corrupt;
        rep->unsupported += r->unsupported;
        rep->nonfinite += r->nonfinite;
    }
}

vsg_status vsg_columnar_from_wkb(const vsg_wkb_array *in, vsg_columnar *out,
                                 vsg_columnar_report *report)
{
    return vsg_columnar_from_wkb_sliced(in, out, report, 0);
}

vsg_status vsg_columnar_from_wkb_sliced(const vsg_wkb_array *in, vsg_columnar *out,
                                        vsg_columnar_report *report, int slices)
{
    vsg_columnar_report local;
    vsg_columnar_report *rep = report ? report : &local;
    report_init(rep);
    if (!out)
        return VSG_ERR_INVALID_ARG;
    vsg_columnar_init(out);
    if (!in || (in->count && (!in->wkb || !in->size)) || in->count > (size_t)INT64_MAX - 1)
        return VSG_ERR_INVALID_ARG;

    uint8_t *kind = vsg_malloc(in->count ? in->count : 1);
    if (!kind)
        return VSG_ERR_NOMEM;
    slice sl[MAX_SLICES];
    int ns = make_slices(in, kind, slices, sl), any_z = 0;
    for (int k = 0; k < ns; k++)
        sl[k].pass = 1;
    run_slices(sl, ns);
    merge_reports(sl, ns, rep);
    /* each slice's first part, ring and coordinate: the sums before it */
    int64_t parts = 0, rings = 0, coords = 0;
    for (int k = 0; k < ns; k++) {
        int64_t p = sl[k].w.parts, r = sl[k].w.rings, c = sl[k].w.coords;
        any_z |= sl[k].any_z;
        memset(&sl[k].w, 0, sizeof sl[k].w);
        sl[k].w.parts = parts;
        sl[k].w.rings = rings;
        sl[k].w.coords = coords;
        sl[k].w.out = out;
        sl[k].pass = 2;
        sl[k].st = VSG_OK;
        report_init(&sl[k].rep);
        parts += p;
        rings += r;
        coords += c;
        sl[k].end[0] = parts;
        sl[k].end[1] = rings;
        sl[k].end[2] = coords;
    }

    vsg_status st = vsg_columnar_alloc_host(out, (int64_t)in->count, parts, rings, coords, any_z);
    if (st == VSG_OK) {
        run_slices(sl, ns);
        /* every slice must end where pass 1 counted it would (the next
         * one's start, the last one's at the totals) */
        for (int k = 0; k < ns && st == VSG_OK; k++)
            if (sl[k].st != VSG_OK)
                st = sl[k].st;
            else if (sl[k].w.parts != sl[k].end[0] || sl[k].w.rings != sl[k].end[1] ||
                     sl[k].w.coords != sl[k].end[2])
                st = VSG_ERR_INVALID_ARG;
        if (st == VSG_OK) {
            vsg_columnar_report filled;
            report_init(&filled);
            merge_reports(sl, ns, &filled);
            rep->decoded += filled.decoded;
            rep->nonfinite += filled.nonfinite;
            out->geom_part[in->count] = parts;
            out->part_ring[parts] = rings;
            out->ring_coord[rings] = coords;
        } else {
            vsg_columnar_free(out);
        }
    }
    free(kind);
    return st;
}
