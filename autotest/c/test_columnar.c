/*
 * test_columnar.c - WKB -> columnar -> WKB (algorithms/columnar/): every
 * simple type in 2D and Z, empty and null rows, big endian, EWKB, M and ZM
 * (M dropped), unsupported and non-finite rows, a corpus of corrupt input
 * (every truncation of valid geometries, huge counts, wrong types, deep
 * nesting, seeded byte flips) that must be reported and never crash, the
 * copies through the host execution backend, and the columnar gather with
 * the validity screen's kept decode it reads from (pipeline/screened.h).
 *
 * Expected WKB is built by hand here (ISO little endian is what the writer
 * must produce); the decoder's counts are checked against the structure
 * each case was built with.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vsg_test.h"
#include "core/prefault.h"
#include "columnar/columnar.h"
#include "exec/exec.h"
#include "stages/stages.h"
#include "pipeline/screened.h"

/* ---- hand-built WKB ---------------------------------------------------- */

typedef struct {
    unsigned char b[8192];
    size_t n;
    int big;        /* byte order of what is written                       */
    int dims;       /* ordinates written per coordinate: 2, 3 (Z or M), 4   */
} wb;

static void wb_init(wb *w, int big, int dims)
{
    w->n = 0;
    w->big = big;
    w->dims = dims;
}
static void put_u8(wb *w, unsigned v) { w->b[w->n++] = (unsigned char)v; }
static void put_u32(wb *w, uint32_t v)
{
    for (int k = 0; k < 4; k++)
        w->b[w->n + (w->big ? 3 - k : k)] = (unsigned char)(v >> (8 * k));
    w->n += 4;
}
static void put_f64(wb *w, double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    for (int k = 0; k < 8; k++)
        w->b[w->n + (w->big ? 7 - k : k)] = (unsigned char)(u >> (8 * k));
    w->n += 8;
}
static void header(wb *w, uint32_t type)
{
    put_u8(w, w->big ? 0 : 1);
    put_u32(w, type);
}
/* Coordinate i of a case: distinct values, ordinates k = 0 (x), 1, 2, 3. */
static double ord(int i, int k) { return 1000.0 * k + i + 0.25 * (i % 3); }
static void coord(wb *w, int i)
{
    for (int k = 0; k < w->dims; k++)
        put_f64(w, ord(i, k));
}
/* A ring/path of n coordinates starting at coordinate index i0; closed
 * rings repeat the first. */
static void path(wb *w, int i0, uint32_t n, int closed)
{
    put_u32(w, n);
    for (uint32_t i = 0; i + (closed ? 1 : 0) < n; i++)
        coord(w, i0 + (int)i);
    if (closed)
        coord(w, i0);
}

/* ISO type code of base type t for the writer's dims (3 means Z unless
 * m is set). */
static uint32_t iso(uint32_t t, int dims, int m)
{
    if (dims == 4) return 3000 + t;
    if (dims == 3) return (m ? 2000 : 1000) + t;
    return t;
}

/* The six simple types, written with type codes from `code` (so the
 * same shapes come out as ISO, EWKB, ...). */
typedef uint32_t (*code_fn)(uint32_t t, int dims);
static uint32_t code_iso(uint32_t t, int dims) { return iso(t, dims, 0); }
static uint32_t code_iso_m(uint32_t t, int dims) { return 2000 + t; }  /* XYM */

static void g_point(wb *w, code_fn c) { header(w, c(1, w->dims)); coord(w, 0); }
static void g_line(wb *w, code_fn c) { header(w, c(2, w->dims)); path(w, 0, 4, 0); }
static void g_polygon(wb *w, code_fn c)     /* shell of 5, hole of 4 */
{
    header(w, c(3, w->dims));
    put_u32(w, 2);
    path(w, 0, 5, 1);
    path(w, 10, 4, 1);
}
static void g_multipoint(wb *w, code_fn c)
{
    header(w, c(4, w->dims));
    put_u32(w, 3);
    for (int i = 0; i < 3; i++) {
        header(w, c(1, w->dims));
        coord(w, 20 + i);
    }
}
static void g_multiline(wb *w, code_fn c)
{
    header(w, c(5, w->dims));
    put_u32(w, 2);
    header(w, c(2, w->dims));
    path(w, 30, 2, 0);
    header(w, c(2, w->dims));
    path(w, 40, 3, 0);
}
static void g_multipolygon(wb *w, code_fn c)   /* one with a hole, one without */
{
    header(w, c(6, w->dims));
    put_u32(w, 2);
    header(w, c(3, w->dims));
    put_u32(w, 2);
    path(w, 50, 4, 1);
    path(w, 60, 4, 1);
    header(w, c(3, w->dims));
    put_u32(w, 1);
    path(w, 70, 6, 1);
}

typedef void (*shape_fn)(wb *w, code_fn c);
static const shape_fn shapes[6] = {g_point, g_line, g_polygon, g_multipoint, g_multiline,
                                   g_multipolygon};
/* Structure of each shape: parts, rings, coordinates. */
static const int64_t shape_counts[6][3] = {
    {1, 1, 1}, {1, 1, 4}, {1, 2, 9}, {3, 3, 3}, {2, 2, 5}, {2, 3, 14}};

/* ---- helpers ------------------------------------------------------------ */

typedef struct {
    const unsigned char *wkb[64];
    size_t size[64];
    size_t count;
} batch;

static void batch_add(batch *b, const unsigned char *p, size_t n)
{
    b->wkb[b->count] = p;
    b->size[b->count] = n;
    b->count++;
}

static vsg_wkb_array as_array(const batch *b)
{
    vsg_wkb_array a;
    a.count = b->count;
    a.wkb = b->wkb;
    a.size = b->size;
    return a;
}

/* Decodes one geometry; returns its flags (0xFF when the call failed). */
static int decode_one(const unsigned char *p, size_t n, vsg_columnar *c,
                      vsg_columnar_report *r)
{
    batch b = {0};
    batch_add(&b, p, n);
    vsg_wkb_array a = as_array(&b);
    if (vsg_columnar_from_wkb(&a, c, r) != VSG_OK)
        return 0xFF;
    return c->flags[0];
}

/* Writes row g into a fresh buffer; *n its size. */
static unsigned char *write_row(const vsg_columnar *c, int64_t g, size_t *n)
{
    *n = vsg_columnar_wkb_size(c, g);
    unsigned char *buf = malloc(*n ? *n : 1);
    if (buf && *n)
        vsg_columnar_write_wkb(c, g, buf);
    return buf;
}

/* True when row g writes exactly `want`. */
static int row_writes(const vsg_columnar *c, int64_t g, const unsigned char *want, size_t n)
{
    size_t got_n;
    unsigned char *got = write_row(c, g, &got_n);
    int same = got && got_n == n && memcmp(got, want, n) == 0;
    free(got);
    return same;
}

/* Offsets start at 0, never decrease, end at the totals. */
static int offsets_consistent(const vsg_columnar *c)
{
    if (c->geom_part[0] != 0 || c->part_ring[0] != 0 || c->ring_coord[0] != 0)
        return 0;
    for (int64_t g = 0; g < c->n_geoms; g++)
        if (c->geom_part[g + 1] < c->geom_part[g])
            return 0;
    for (int64_t p = 0; p < c->n_parts; p++)
        if (c->part_ring[p + 1] < c->part_ring[p])
            return 0;
    for (int64_t r = 0; r < c->n_rings; r++)
        if (c->ring_coord[r + 1] < c->ring_coord[r])
            return 0;
    return c->geom_part[c->n_geoms] == c->n_parts && c->part_ring[c->n_parts] == c->n_rings &&
           c->ring_coord[c->n_rings] == c->n_coords;
}

/* ---- tests ---------------------------------------------------------------- */

static void every_type_round_trips_bit_exact_2d_and_z(void)
{
    for (int dims = 2; dims <= 3; dims++) {
        for (int s = 0; s < 6; s++) {
            wb w;
            wb_init(&w, 0, dims);
            shapes[s](&w, code_iso);
            vsg_columnar c;
            vsg_columnar_report r;
            int f = decode_one(w.b, w.n, &c, &r);
            REQUIRE(f != 0xFF);
            CHECK(f == (dims == 3 ? VSG_GF_Z : 0));
            CHECK(c.type[0] == s + 1);
            CHECK(c.n_parts == shape_counts[s][0]);
            CHECK(c.n_rings == shape_counts[s][1]);
            CHECK(c.n_coords == shape_counts[s][2]);
            CHECK((c.z != NULL) == (dims == 3));
            CHECK(r.decoded == 1 && r.corrupt == 0 && r.first_corrupt == -1);
            CHECK(offsets_consistent(&c));
            CHECK(vsg_columnar_wkb_size(&c, 0) == w.n);
            CHECK(row_writes(&c, 0, w.b, w.n));
            vsg_columnar_free(&c);
        }
    }
}

static void coordinates_land_in_their_rings(void)
{
    wb w;
    wb_init(&w, 0, 3);
    g_multipolygon(&w, code_iso);
    vsg_columnar c;
    REQUIRE(decode_one(w.b, w.n, &c, NULL) != 0xFF);
    vsg_col_view v = vsg_columnar_view(&c);
    REQUIRE(v.n_rings == 3);
    /* part 0: rings 0 (shell from coordinate 50) and 1 (hole from 60). */
    CHECK(v.geom_part[1] == 2);
    CHECK(v.part_ring[1] == 2 && v.part_ring[2] == 3);
    CHECK(v.ring_coord[1] == 4 && v.ring_coord[2] == 8 && v.ring_coord[3] == 14);
    CHECK(v.x[0] == ord(50, 0) && v.y[0] == ord(50, 1) && v.z[0] == ord(50, 2));
    CHECK(v.x[3] == ord(50, 0));                 /* closed as stored */
    CHECK(v.x[4] == ord(60, 0) && v.y[5] == ord(61, 1) && v.z[6] == ord(62, 2));
    CHECK(v.x[13] == ord(70, 0) && v.y[12] == ord(74, 1));
    vsg_columnar_free(&c);
}

/* Big endian, EWKB (Z flag, SRID), M and ZM come back as ISO LE without M. */
static uint32_t code_ewkb(uint32_t t, int dims)
{
    return t | (dims >= 3 ? 0x80000000u : 0) | (dims == 4 ? 0x40000000u : 0);
}
static uint32_t code_ewkb_m(uint32_t t, int dims) { return t | 0x40000000u; }

/* Writes every shape with `code`, byte order `big` and `dims` ordinates
 * (with an EWKB SRID when srid); checks that each decodes and writes what
 * the ISO LE shape of out_dims ordinates (2 or 3) is. */
static void check_variant(code_fn code, int big, int dims, int out_dims, int srid)
{
    for (int s = 0; s < 6; s++) {
        wb in, want;
        wb_init(&in, big, dims);
        wb_init(&want, 0, out_dims);
        shapes[s](&in, code);
        shapes[s](&want, code_iso);
        if (srid) {
            /* EWKB SRID: flag on the top-level type, 4 bytes after it. */
            wb t;
            wb_init(&t, big, dims);
            header(&t, code((uint32_t)s + 1, dims) | 0x20000000u);
            put_u32(&t, 4326);
            memcpy(t.b + t.n, in.b + 5, in.n - 5);
            t.n += in.n - 5;
            in = t;
        }
        /* Ordinates 0, 1 (and 2 when Z) are the same in both: M, the last
         * ordinate of an M or ZM input, is what is dropped. */
        vsg_columnar c;
        int f = decode_one(in.b, in.n, &c, NULL);
        REQUIRE(f != 0xFF);
        CHECK(!(f & (VSG_GF_CORRUPT | VSG_GF_UNSUPPORTED)));
        CHECK(((f & VSG_GF_Z) != 0) == (out_dims == 3));
        CHECK(c.type[0] == s + 1);
        CHECK(row_writes(&c, 0, want.b, want.n));
        vsg_columnar_free(&c);
    }
}

static void big_endian_ewkb_m_and_zm_come_back_iso_le(void)
{
    check_variant(code_iso, 1, 2, 2, 0);          /* big endian 2D        */
    check_variant(code_iso, 1, 3, 3, 0);          /* big endian Z         */
    check_variant(code_ewkb, 0, 3, 3, 0);         /* EWKB Z               */
    check_variant(code_ewkb, 1, 3, 3, 1);         /* EWKB Z, BE, SRID     */
    check_variant(code_ewkb, 0, 2, 2, 1);         /* EWKB 2D with SRID    */
    check_variant(code_iso, 0, 4, 3, 0);          /* ISO ZM: M dropped    */
    check_variant(code_ewkb, 1, 4, 3, 0);         /* EWKB ZM, BE          */
    check_variant(code_iso_m, 0, 3, 2, 0);        /* ISO M (2000+t)       */
    check_variant(code_ewkb_m, 1, 3, 2, 0);       /* EWKB M               */
}

static void empty_and_null_rows(void)
{
    /* Top-level empties: no part, flag EMPTY, written back as they came. */
    for (int dims = 2; dims <= 3; dims++) {
        for (uint32_t t = 1; t <= 6; t++) {
            wb w;
            wb_init(&w, 0, dims);
            header(&w, iso(t, dims, 0));
            if (t == 1) {
                for (int k = 0; k < dims; k++)
                    put_f64(&w, NAN);
            } else {
                put_u32(&w, 0);
            }
            vsg_columnar c;
            vsg_columnar_report r;
            int f = decode_one(w.b, w.n, &c, &r);
            REQUIRE(f != 0xFF);
            CHECK(f == (VSG_GF_EMPTY | (dims == 3 ? VSG_GF_Z : 0)));
            CHECK(c.type[0] == t);
            CHECK(c.n_parts == 0 && c.n_coords == 0);
            CHECK(r.decoded == 1 && r.nonfinite == 0);
            CHECK(row_writes(&c, 0, w.b, w.n));
            vsg_columnar_free(&c);
        }
    }
    /* Empty members keep their parts: MULTIPOINT(EMPTY, (1 2)),
     * MULTILINESTRING(EMPTY), MULTIPOLYGON(EMPTY, EMPTY). */
    wb mp, ml, mpoly;
    wb_init(&mp, 0, 2);
    header(&mp, 4);
    put_u32(&mp, 2);
    header(&mp, 1);
    put_f64(&mp, NAN);
    put_f64(&mp, NAN);
    header(&mp, 1);
    coord(&mp, 7);
    wb_init(&ml, 0, 2);
    header(&ml, 5);
    put_u32(&ml, 1);
    header(&ml, 2);
    put_u32(&ml, 0);
    wb_init(&mpoly, 0, 2);
    header(&mpoly, 6);
    put_u32(&mpoly, 2);
    header(&mpoly, 3);
    put_u32(&mpoly, 0);
    header(&mpoly, 3);
    put_u32(&mpoly, 0);

    batch b = {0};
    batch_add(&b, mp.b, mp.n);
    batch_add(&b, NULL, 0);                  /* null */
    batch_add(&b, ml.b, ml.n);
    batch_add(&b, mpoly.b, mpoly.n);
    batch_add(&b, NULL, 123);                /* null whatever the size */
    vsg_wkb_array a = as_array(&b);
    vsg_columnar c;
    vsg_columnar_report r;
    REQUIRE(vsg_columnar_from_wkb(&a, &c, &r) == VSG_OK);
    CHECK(r.decoded == 3 && r.nulls == 2);
    CHECK(c.flags[0] == 0 && c.flags[1] == VSG_GF_NULL && c.flags[4] == VSG_GF_NULL);
    CHECK(c.flags[2] == VSG_GF_EMPTY && c.flags[3] == VSG_GF_EMPTY);
    CHECK(c.type[1] == VSG_GT_NONE);
    CHECK(c.n_parts == 2 + 1 + 2 && c.n_rings == 2 + 1 + 0 && c.n_coords == 1);
    CHECK(c.geom_part[1] == c.geom_part[2]);  /* the null has no part */
    CHECK(offsets_consistent(&c));
    CHECK(row_writes(&c, 0, mp.b, mp.n));
    CHECK(row_writes(&c, 2, ml.b, ml.n));
    CHECK(row_writes(&c, 3, mpoly.b, mpoly.n));
    CHECK(vsg_columnar_wkb_size(&c, 1) == 0);
    CHECK(vsg_columnar_wkb_size(&c, 5) == 0);   /* out of range */
    vsg_columnar_free(&c);
}

static void nonfinite_rows_are_decoded_and_flagged(void)
{
    /* NaN X, infinite Y, infinite Z: non-finite. NaN Z alone: fine. */
    const double bad[4][3] = {{NAN, 1, 2}, {1, INFINITY, 2}, {1, 2, -INFINITY}, {1, 2, NAN}};
    for (int k = 0; k < 4; k++) {
        wb w;
        wb_init(&w, 0, 3);
        header(&w, 1002);
        put_u32(&w, 2);
        coord(&w, 0);
        for (int j = 0; j < 3; j++)
            put_f64(&w, bad[k][j]);
        vsg_columnar c;
        vsg_columnar_report r;
        int f = decode_one(w.b, w.n, &c, &r);
        REQUIRE(f != 0xFF);
        int expect_nf = k < 3;
        CHECK(((f & VSG_GF_NONFINITE) != 0) == expect_nf);
        CHECK(r.nonfinite == expect_nf && r.decoded == !expect_nf);
        CHECK(c.n_coords == 2);
        CHECK(row_writes(&c, 0, w.b, w.n));      /* NaN bits kept too */
        vsg_columnar_free(&c);
    }
    /* A point with some (not all) NaN ordinates is not POINT EMPTY. */
    wb p;
    wb_init(&p, 0, 2);
    header(&p, 1);
    put_f64(&p, NAN);
    put_f64(&p, 3);
    vsg_columnar c;
    CHECK(decode_one(p.b, p.n, &c, NULL) == VSG_GF_NONFINITE);
    CHECK(c.n_coords == 1);
    vsg_columnar_free(&c);
}

static void unsupported_rows_are_flagged_not_decoded(void)
{
    wb gc, curve, mixed, deep_gc;
    wb_init(&gc, 0, 2);                 /* GEOMETRYCOLLECTION(POINT(0 0)) */
    header(&gc, 7);
    put_u32(&gc, 1);
    g_point(&gc, code_iso);
    wb_init(&curve, 1, 2);              /* CIRCULARSTRING, big endian */
    header(&curve, 8);
    path(&curve, 0, 3, 0);
    wb_init(&mixed, 0, 2);              /* MULTIPOINT holding a POINT Z */
    header(&mixed, 4);
    put_u32(&mixed, 1);
    mixed.dims = 3;
    header(&mixed, 1001);
    coord(&mixed, 0);
    wb_init(&deep_gc, 0, 2);            /* 20 collections deep: allowed */
    for (int i = 0; i < 20; i++) {
        header(&deep_gc, 7);
        put_u32(&deep_gc, 1);
    }
    g_point(&deep_gc, code_iso);

    batch b = {0};
    batch_add(&b, gc.b, gc.n);
    batch_add(&b, curve.b, curve.n);
    batch_add(&b, mixed.b, mixed.n);
    batch_add(&b, deep_gc.b, deep_gc.n);
    vsg_wkb_array a = as_array(&b);
    vsg_columnar c;
    vsg_columnar_report r;
    REQUIRE(vsg_columnar_from_wkb(&a, &c, &r) == VSG_OK);
    CHECK(r.unsupported == 4 && r.corrupt == 0 && r.decoded == 0);
    for (int i = 0; i < 4; i++) {
        CHECK(c.flags[i] == VSG_GF_UNSUPPORTED);
        CHECK(vsg_columnar_wkb_size(&c, i) == 0);
    }
    CHECK(c.n_parts == 0 && c.n_rings == 0 && c.n_coords == 0 && c.z == NULL);
    vsg_columnar_free(&c);
}

/* Decodes `n` bytes copied into an exact-size heap buffer (so that a read
 * past the end is caught by ASan) and returns the row's flags. */
static int decode_exact(const unsigned char *p, size_t n, vsg_columnar_report *r)
{
    unsigned char *copy = malloc(n ? n : 1);
    if (!copy)
        return 0xFF;
    memcpy(copy, p, n);
    vsg_columnar c;
    int f = decode_one(copy, n, &c, r);
    if (f != 0xFF && !(f & (VSG_GF_CORRUPT | VSG_GF_UNSUPPORTED | VSG_GF_NULL)) &&
        !offsets_consistent(&c))
        f = 0xFE;
    vsg_columnar_free(&c);
    free(copy);
    return f;
}

static void every_truncation_is_corrupt(void)
{
    for (int big = 0; big <= 1; big++) {
        for (int s = 0; s < 6; s++) {
            wb w;
            wb_init(&w, big, 3 + (s % 2));   /* Z, or ZM */
            shapes[s](&w, s % 2 ? code_iso : code_ewkb);
            for (size_t n = 0; n < w.n; n++) {
                vsg_columnar_report r;
                int f = decode_exact(w.b, n, &r);
                CHECK(f == VSG_GF_CORRUPT);
                CHECK(r.corrupt == 1 && r.first_corrupt == 0 &&
                      r.first_corrupt_reason[0] != '\0');
            }
            CHECK(!(decode_exact(w.b, w.n, NULL) & VSG_GF_CORRUPT));
        }
    }
}

static void hostile_counts_and_types_are_corrupt(void)
{
    struct { const char *what; wb w; const char *reason; } cases[16];
    int n = 0;
    wb *w;
#define CASE(name, why) (cases[n].what = (name), cases[n].reason = (why), \
                         w = &cases[n++].w, wb_init(w, 0, 2))
    CASE("huge point count", "does not fit");
    header(w, 2); put_u32(w, 0xFFFFFFFFu); coord(w, 0);
    CASE("huge ring count", "does not fit");
    header(w, 3); put_u32(w, 0x40000000u); put_u32(w, 0);
    CASE("huge ring point count", "does not fit");
    header(w, 3); put_u32(w, 1); put_u32(w, 0x10000001u); coord(w, 0);
    CASE("huge member count", "does not fit");
    header(w, 6); put_u32(w, 0xFFFFFFFFu); header(w, 3); put_u32(w, 0);
    CASE("point count one too many", "does not fit");
    header(w, 2); put_u32(w, 3); coord(w, 0); coord(w, 1);
    CASE("bad byte order", "byte order");
    put_u8(w, 2); put_u32(w, 1); coord(w, 0);
    CASE("type 0", "unknown geometry type");
    header(w, 0); coord(w, 0);
    CASE("type 18", "unknown geometry type");
    header(w, 18); coord(w, 0);
    CASE("ISO dimension 4000", "unknown geometry type");
    header(w, 4001); coord(w, 0);
    CASE("polygon inside a multipoint", "inside a MultiPoint");
    header(w, 4); put_u32(w, 1); header(w, 3); put_u32(w, 0);
    put_u32(w, 0); put_u32(w, 0); put_u32(w, 0);
    CASE("multipolygon inside a multipolygon", "inside a MultiPolygon");
    header(w, 6); put_u32(w, 1); header(w, 6); put_u32(w, 0);
    CASE("collection inside a multilinestring", "inside a");
    header(w, 5); put_u32(w, 1); header(w, 7); put_u32(w, 0);
    CASE("truncated SRID", "SRID");
    header(w, 0x20000001u); put_u8(w, 0); put_u8(w, 0);
    CASE("collection nested 40 deep", "nesting");
    for (int i = 0; i < 40; i++) { header(w, 7); put_u32(w, 1); }
    g_point(w, code_iso);
    CASE("collection with a truncated member", "truncated");
    header(w, 7); put_u32(w, 2); g_point(w, code_iso); header(w, 2);
#undef CASE
    batch b = {0};
    for (int i = 0; i < n; i++)
        batch_add(&b, cases[i].w.b, cases[i].w.n);
    wb good;
    wb_init(&good, 0, 2);
    g_polygon(&good, code_iso);
    batch_add(&b, good.b, good.n);
    vsg_wkb_array a = as_array(&b);
    vsg_columnar c;
    vsg_columnar_report r;
    REQUIRE(vsg_columnar_from_wkb(&a, &c, &r) == VSG_OK);
    CHECK(r.corrupt == n && r.decoded == 1 && r.first_corrupt == 0);
    CHECK(strstr(r.first_corrupt_reason, "does not fit") != NULL);
    for (int i = 0; i < n; i++) {
        if (c.flags[i] != VSG_GF_CORRUPT)
            fprintf(stderr, "  not corrupt: %s (flags %d)\n", cases[i].what, c.flags[i]);
        CHECK(c.flags[i] == VSG_GF_CORRUPT);
        vsg_columnar_report one;
        decode_exact(cases[i].w.b, cases[i].w.n, &one);
        if (!strstr(one.first_corrupt_reason, cases[i].reason))
            fprintf(stderr, "  %s: reason '%s'\n", cases[i].what, one.first_corrupt_reason);
        CHECK(strstr(one.first_corrupt_reason, cases[i].reason) != NULL);
    }
    /* Corrupt rows take no room: the good row after them is whole. */
    CHECK(c.n_parts == 1 && c.n_rings == 2 && c.n_coords == 9);
    CHECK(row_writes(&c, n, good.b, good.n));
    vsg_columnar_free(&c);
}

/* Seeded byte flips of valid geometries: never a crash; whatever decodes
 * writes WKB that decodes to the same columnar and writes the same bytes
 * again (the round trip is a fixed point). */
static uint64_t rng_state = 0x9E3779B97F4A7C15u;
static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)rng_state;
}

static void byte_flips_never_crash_and_round_trip_is_a_fixed_point(void)
{
    int decoded = 0, corrupt = 0;
    for (int iter = 0; iter < 3000; iter++) {
        wb w;
        int s = (int)(rnd() % 6);
        wb_init(&w, (int)(rnd() % 2), 2 + (int)(rnd() % 3));
        shapes[s](&w, rnd() % 2 ? code_iso : code_ewkb);
        int flips = 1 + (int)(rnd() % 4);
        for (int k = 0; k < flips; k++) {
            size_t at = rnd() % w.n;
            /* Mostly small changes, to counts and codes too. */
            w.b[at] = (unsigned char)(rnd() % 3 == 0 ? rnd() : w.b[at] ^ (1u << (rnd() % 8)));
        }
        unsigned char *copy = malloc(w.n);
        REQUIRE(copy);
        memcpy(copy, w.b, w.n);
        vsg_columnar c;
        vsg_columnar_report r;
        int f = decode_one(copy, w.n, &c, &r);
        CHECK(f != 0xFF);
        CHECK(r.decoded + r.nonfinite + r.corrupt + r.unsupported + r.nulls == 1);
        if (f != 0xFF && !(f & (VSG_GF_CORRUPT | VSG_GF_UNSUPPORTED))) {
            decoded++;
            CHECK(offsets_consistent(&c));
            size_t n1;
            unsigned char *w1 = write_row(&c, 0, &n1);
            vsg_columnar c2;
            int f2 = decode_one(w1, n1, &c2, NULL);
            CHECK(f2 == f);
            CHECK(f2 != 0xFF && row_writes(&c2, 0, w1, n1));
            if (f2 != 0xFF)
                vsg_columnar_free(&c2);
            free(w1);
        } else if (f & VSG_GF_CORRUPT) {
            corrupt++;
        }
        if (f != 0xFF)
            vsg_columnar_free(&c);
        free(copy);
    }
    /* Both outcomes were exercised. */
    CHECK(decoded > 100 && corrupt > 100);
}

static void mixed_batch_keeps_rows_apart(void)
{
    wb geoms[6];
    batch b = {0};
    for (int s = 0; s < 6; s++) {
        wb_init(&geoms[s], 0, s == 2 ? 3 : 2);     /* one Z row: z for all */
        shapes[s](&geoms[s], code_iso);
    }
    unsigned char junk[3] = {1, 3, 0};
    for (int s = 0; s < 6; s++) {
        batch_add(&b, geoms[s].b, geoms[s].n);
        if (s == 1) batch_add(&b, NULL, 0);
        if (s == 3) batch_add(&b, junk, sizeof junk);
    }
    vsg_wkb_array a = as_array(&b);
    vsg_columnar c;
    vsg_columnar_report r;
    REQUIRE(vsg_columnar_from_wkb(&a, &c, &r) == VSG_OK);
    CHECK(c.n_geoms == 8);
    CHECK(r.decoded == 6 && r.nulls == 1 && r.corrupt == 1 && r.first_corrupt == 5);
    REQUIRE(c.z != NULL);
    CHECK(offsets_consistent(&c));
    int64_t coords = 0;
    for (int s = 0; s < 6; s++)
        coords += shape_counts[s][2];
    CHECK(c.n_coords == coords);
    /* A 2D row's z slots hold NaN, its flags no Z. */
    CHECK(isnan(c.z[0]) && !(c.flags[0] & VSG_GF_Z));
    int row = 0;
    for (int s = 0; s < 6; s++, row++) {
        CHECK(row_writes(&c, row, geoms[s].b, geoms[s].n));
        if (s == 1 || s == 3) row++;
    }
    vsg_columnar_free(&c);
}

/* Two columnars hold the same arrays (z where either has it). */
static int same_arrays(const vsg_columnar *a, const vsg_columnar *b)
{
    if (a->n_geoms != b->n_geoms || a->n_parts != b->n_parts || a->n_rings != b->n_rings ||
        a->n_coords != b->n_coords || (a->z == NULL) != (b->z == NULL))
        return 0;
    size_t g = (size_t)a->n_geoms, p = (size_t)a->n_parts, r = (size_t)a->n_rings,
           k = (size_t)a->n_coords;
    return !memcmp(a->type, b->type, g) && !memcmp(a->flags, b->flags, g) &&
           !memcmp(a->geom_part, b->geom_part, (g + 1) * 8) &&
           !memcmp(a->part_ring, b->part_ring, (p + 1) * 8) &&
           !memcmp(a->ring_coord, b->ring_coord, (r + 1) * 8) && !memcmp(a->x, b->x, k * 8) &&
           !memcmp(a->y, b->y, k * 8) && (!a->z || !memcmp(a->z, b->z, k * 8));
}

/* Walked in 1 to 16 slices of rows (threads), a batch of every shape,
 * nulls, corrupt and unsupported rows decodes to the same arrays and the
 * same report: the first corrupt row is the batch's, whichever slice
 * holds it. */
static void slices_give_the_same_arrays(void)
{
    enum { N = 400 };
    const unsigned char **wkb = calloc(N, sizeof *wkb);
    size_t *size = calloc(N, sizeof *size);
    wb *geoms = calloc(N, sizeof *geoms);
    unsigned char junk[3] = {1, 3, 0};
    unsigned char coll[] = {1, 7, 0, 0, 0, 0, 0, 0, 0};   /* GEOMETRYCOLLECTION EMPTY */
    REQUIRE(wkb && size && geoms);
    for (int i = 0; i < N; i++) {
        uint64_t k = rnd() % 10;
        if (k < 6) {
            wb_init(&geoms[i], (int)(rnd() % 2), 2 + (i == 77));   /* one Z row */
            shapes[k](&geoms[i], rnd() % 2 ? code_iso : code_ewkb);
            wkb[i] = geoms[i].b;
            size[i] = geoms[i].n;
        } else if (k == 6) {
            wkb[i] = NULL;
        } else if (k == 7 && i > 150) {   /* the first corrupt row past slice 0 */
            wkb[i] = junk;
            size[i] = sizeof junk;
        } else if (k == 8) {
            wkb[i] = coll;
            size[i] = sizeof coll;
        } else {
            wb_init(&geoms[i], 0, 2);
            g_polygon(&geoms[i], code_iso);
            wkb[i] = geoms[i].b;
            size[i] = geoms[i].n;
        }
    }
    vsg_wkb_array a = {N, wkb, size};
    vsg_columnar one, many;
    vsg_columnar_report r1, rn;
    REQUIRE(vsg_columnar_from_wkb_sliced(&a, &one, &r1, 1) == VSG_OK);
    CHECK(offsets_consistent(&one) && r1.corrupt > 0 && r1.first_corrupt > 150);
    CHECK(r1.unsupported > 0 && r1.nulls > 0 && one.z != NULL);
    for (int slices = 2; slices <= 16; slices += 7) {
        REQUIRE(vsg_columnar_from_wkb_sliced(&a, &many, &rn, slices) == VSG_OK);
        CHECK(same_arrays(&one, &many));
        CHECK(rn.decoded == r1.decoded && rn.nulls == r1.nulls && rn.corrupt == r1.corrupt &&
              rn.unsupported == r1.unsupported && rn.nonfinite == r1.nonfinite &&
              rn.first_corrupt == r1.first_corrupt &&
              !strcmp(rn.first_corrupt_reason, r1.first_corrupt_reason));
        vsg_columnar_free(&many);
    }
    vsg_columnar_free(&one);
    free(wkb);
    free(size);
    free(geoms);
}

/* The columnar gather (stages/columnar/gather.c) on the host backend: rows
 * picked from three decoded sets, in any order and with repeats, come out
 * as the decode of the same rows' WKB, array for array, with Z (every set
 * has it) and without; a set with Z beside one without is refused. */
static void gather_equals_decoding_the_rows(void)
{
    enum { N = 300, M = 500, S = 3 };
    for (int with_z = 0; with_z < 2; with_z++) {
        const unsigned char **wkb = calloc(N, sizeof *wkb);
        size_t *size = calloc(N, sizeof *size);
        wb *geoms = calloc(N, sizeof *geoms);
        unsigned char junk[3] = {1, 3, 0};
        REQUIRE(wkb && size && geoms);
        for (int i = 0; i < N; i++) {
            uint64_t k = i % 100 == 7 ? rnd() % 6 : rnd() % 9;
            if (k < 6) {
                /* a Z row in every set when with_z */
                wb_init(&geoms[i], (int)(rnd() % 2), 2 + (with_z && i % 100 == 7));
                shapes[k](&geoms[i], code_iso);
                wkb[i] = geoms[i].b;
                size[i] = geoms[i].n;
            } else if (k == 6) {
                wkb[i] = NULL;
            } else if (k == 7) {
                wkb[i] = junk;
                size[i] = sizeof junk;
            } else {
                wb_init(&geoms[i], 0, 2);
                g_multipolygon(&geoms[i], code_iso);
                wkb[i] = geoms[i].b;
                size[i] = geoms[i].n;
            }
        }
        vsg_exec *x = NULL;
        REQUIRE(vsg_exec_create_host(&x) == VSG_OK);
        /* the sets: rows [0, 100), [100, 200), [200, 300) */
        vsg_columnar host[S], dev[S];
        vsg_col_view views[S];
        for (int k = 0; k < S; k++) {
            vsg_wkb_array part = {N / S, wkb + k * (N / S), size + k * (N / S)};
            REQUIRE(vsg_columnar_from_wkb(&part, &host[k], NULL) == VSG_OK);
            REQUIRE(vsg_columnar_upload(x, &host[k], &dev[k]) == VSG_OK);
            views[k] = vsg_columnar_view(&dev[k]);
            CHECK((views[k].z != NULL) == with_z);
        }
        int32_t *gs = malloc(M * sizeof *gs);
        int64_t *gr = malloc(M * sizeof *gr);
        const unsigned char **pw = malloc(M * sizeof *pw);
        size_t *ps = malloc(M * sizeof *ps);
        REQUIRE(gs && gr && pw && ps);
        for (int g = 0; g < M; g++) {
            int row = (int)(rnd() % N);
            gs[g] = row / (N / S);
            gr[g] = row % (N / S);
            pw[g] = wkb[row];
            ps[g] = size[row];
        }
        vsg_wkb_array picked = {M, pw, ps};
        vsg_columnar want, got;
        REQUIRE(vsg_columnar_from_wkb(&picked, &want, NULL) == VSG_OK);
        int32_t *gs_d;
        int64_t *gr_d;
        REQUIRE(vsg_exec_alloc(x, M * sizeof *gs, (void **)&gs_d) == VSG_OK);
        REQUIRE(vsg_exec_alloc(x, M * sizeof *gr, (void **)&gr_d) == VSG_OK);
        REQUIRE(vsg_exec_upload(x, gs_d, gs, M * sizeof *gs) == VSG_OK);
        REQUIRE(vsg_exec_upload(x, gr_d, gr, M * sizeof *gr) == VSG_OK);
        REQUIRE(vsg_stage_columnar_gather(x, views, S, gs_d, gr_d, M, &got) == VSG_OK);
        REQUIRE(vsg_exec_sync(x) == VSG_OK);
        CHECK(offsets_consistent(&got));
        CHECK(same_arrays(&want, &got));
        vsg_columnar_free(&got);
        /* nothing picked: an empty set */
        REQUIRE(vsg_stage_columnar_gather(x, views, S, gs_d, gr_d, 0, &got) == VSG_OK);
        CHECK(got.n_geoms == 0 && got.n_coords == 0);
        vsg_columnar_free(&got);
        if (with_z) {
            /* Z beside no Z: refused, the caller decodes */
            vsg_col_view mixed[2] = {views[0], views[1]};
            mixed[1].z = NULL;
            CHECK(vsg_stage_columnar_gather(x, mixed, 2, gs_d, gr_d, 1, &got) ==
                  VSG_ERR_INVALID_ARG);
        }
        vsg_exec_free(x, gs_d);
        vsg_exec_free(x, gr_d);
        vsg_columnar_free(&want);
        for (int k = 0; k < S; k++) {
            vsg_columnar_free(&dev[k]);
            vsg_columnar_free(&host[k]);
        }
        vsg_exec_destroy(x);
        free(gs);
        free(gr);
        free(pw);
        free(ps);
        free(wkb);
        free(size);
        free(geoms);
    }
}

/* The validity screen's decode kept for later stages (pipeline/screened.c):
 * rows found where a set holds them, -1 and out-of-range rows not; a set
 * of another layer refused; vsg_screened_gather of a layer's rows with a
 * repaired one (row -1, other bytes) equals decoding what each row now
 * reads. */
static void screened_rows_and_gather(void)
{
    enum { N = 60 };
    const unsigned char **wkb = calloc(N, sizeof *wkb);
    size_t *size = calloc(N, sizeof *size);
    wb *geoms = calloc(N, sizeof *geoms);
    REQUIRE(wkb && size && geoms);
    for (int i = 0; i < N; i++) {
        wb_init(&geoms[i], 0, 2);
        shapes[i % 6](&geoms[i], code_iso);
        wkb[i] = geoms[i].b;
        size[i] = geoms[i].n;
    }
    wkb[5] = NULL;   /* a null row: never screened */
    size[5] = 0;
    vsg_exec *x = NULL;
    REQUIRE(vsg_exec_create_host(&x) == VSG_OK);
    vsg_screened sc;
    memset(&sc, 0, sizeof sc);
    /* two screen calls over rows [0, 30) and [30, 60), the null row left out */
    size_t rows[N];
    for (int part = 0; part < 2; part++) {
        size_t m = 0;
        const unsigned char *pw[N];
        size_t ps[N];
        for (int i = 30 * part; i < 30 * part + 30; i++)
            if (wkb[i]) {
                rows[m] = (size_t)i;
                pw[m] = wkb[i];
                ps[m++] = size[i];
            }
        vsg_wkb_array a = {m, pw, ps};
        vsg_columnar host, dev;
        REQUIRE(vsg_columnar_from_wkb(&a, &host, NULL) == VSG_OK);
        REQUIRE(vsg_columnar_upload(x, &host, &dev) == VSG_OK);
        vsg_columnar_free(&host);
        REQUIRE(vsg_screened_add(&sc, &dev, rows, m, N, wkb) == VSG_OK);
        CHECK(dev.n_geoms == 0 && dev.x == NULL);   /* taken */
    }
    int32_t src;
    int64_t at;
    CHECK(sc.n_src == 2);
    CHECK(vsg_screened_find(&sc, 4, &src, &at) && src == 0 && at == 4);
    CHECK(vsg_screened_find(&sc, 31, &src, &at) && src == 1 && at == 1);
    CHECK(!vsg_screened_find(&sc, 5, &src, &at));    /* the null row */
    CHECK(!vsg_screened_find(&sc, -1, &src, &at) && !vsg_screened_find(&sc, N, &src, &at));
    /* another layer's set is refused (and freed) */
    {
        vsg_wkb_array a = {1, wkb, size};
        vsg_columnar host, dev;
        REQUIRE(vsg_columnar_from_wkb(&a, &host, NULL) == VSG_OK);
        REQUIRE(vsg_columnar_upload(x, &host, &dev) == VSG_OK);
        vsg_columnar_free(&host);
        size_t r0 = 0;
        CHECK(vsg_screened_add(&sc, &dev, &r0, 1, N, size) == VSG_ERR_INVALID_ARG);
        CHECK(sc.n_src == 2);
    }
    /* the layer's rows in reverse order, row 7 repaired (other bytes) */
    wb repair;
    wb_init(&repair, 0, 2);
    g_polygon(&repair, code_iso);
    const unsigned char *mw[N];
    size_t ms[N];
    int64_t mr[N];
    for (int k = 0; k < N; k++) {
        int i = N - 1 - k;
        mw[k] = i == 7 ? repair.b : wkb[i];
        ms[k] = i == 7 ? repair.n : size[i];
        mr[k] = i == 7 ? -1 : i;
    }
    vsg_wkb_array members = {N, mw, ms};
    vsg_columnar want, got;
    int done = 0;
    REQUIRE(vsg_columnar_from_wkb(&members, &want, NULL) == VSG_OK);
    REQUIRE(vsg_screened_gather(x, &sc, &members, mr, &got, &done) == VSG_OK);
    REQUIRE(vsg_exec_sync(x) == VSG_OK);
    CHECK(done == 1);
    CHECK(same_arrays(&want, &got));
    vsg_columnar_free(&got);
    /* no row held: nothing to reuse, the caller decodes */
    for (int k = 0; k < N; k++)
        mr[k] = -1;
    CHECK(vsg_screened_gather(x, &sc, &members, mr, &got, &done) == VSG_OK && done == 0);
    vsg_columnar_free(&want);
    vsg_screened_clear(&sc);
    CHECK(sc.n_src == 0 && sc.row_src == NULL);
    vsg_exec_destroy(x);
    free(wkb);
    free(size);
    free(geoms);
}

static void invalid_arguments_and_impossible_sizes(void)
{
    vsg_columnar c;
    CHECK(vsg_columnar_from_wkb(NULL, &c, NULL) == VSG_ERR_INVALID_ARG);
    vsg_wkb_array a = {2, NULL, NULL};
    CHECK(vsg_columnar_from_wkb(&a, &c, NULL) == VSG_ERR_INVALID_ARG);
    CHECK(c.n_geoms == 0 && c.type == NULL);
    vsg_wkb_array empty = {0, NULL, NULL};
    CHECK(vsg_columnar_from_wkb(&empty, &c, NULL) == VSG_OK);
    CHECK(c.n_geoms == 0 && c.geom_part && c.geom_part[0] == 0);
    vsg_columnar_free(&c);
    CHECK(vsg_columnar_alloc_host(&c, INT64_MAX, 0, 0, 0, 0) == VSG_ERR_NOMEM);
    CHECK(vsg_columnar_alloc_host(&c, 1, 0, 0, INT64_MAX / 2, 1) == VSG_ERR_NOMEM);
    CHECK(vsg_columnar_alloc_host(&c, -1, 0, 0, 0, 0) == VSG_ERR_NOMEM);
    CHECK(c.x == NULL && c.n_geoms == 0);
    vsg_columnar_free(&c);      /* freeing an empty one is harmless */
}

static void upload_download_through_the_host_backend(void)
{
    wb geoms[6];
    batch b = {0};
    for (int s = 0; s < 6; s++) {
        wb_init(&geoms[s], 0, 3);
        shapes[s](&geoms[s], code_iso);
        batch_add(&b, geoms[s].b, geoms[s].n);
    }
    batch_add(&b, NULL, 0);
    vsg_wkb_array a = as_array(&b);
    vsg_columnar host, dev, back;
    REQUIRE(vsg_columnar_from_wkb(&a, &host, NULL) == VSG_OK);
    vsg_exec *x = NULL;
    REQUIRE(vsg_exec_create_host(&x) == VSG_OK);
    REQUIRE(vsg_columnar_upload(x, &host, &dev) == VSG_OK);
    CHECK(dev.owner == x && dev.n_coords == host.n_coords && dev.z != NULL);
    CHECK(vsg_columnar_download(x, &host, &back) == VSG_ERR_INVALID_ARG); /* not x's */
    REQUIRE(vsg_columnar_download(x, &dev, &back) == VSG_OK);
    REQUIRE(vsg_exec_sync(x) == VSG_OK);
    CHECK(back.owner == NULL);
    CHECK(memcmp(back.flags, host.flags, 7) == 0 && memcmp(back.type, host.type, 7) == 0);
    CHECK(memcmp(back.ring_coord, host.ring_coord, 8 * (size_t)(host.n_rings + 1)) == 0);
    CHECK(memcmp(back.z, host.z, 8 * (size_t)host.n_coords) == 0);
    for (int s = 0; s < 6; s++)
        CHECK(row_writes(&back, s, geoms[s].b, geoms[s].n));
    vsg_gpu_stats st;
    vsg_exec_get_stats(x, &st);
    CHECK(st.bytes_h2d > 0 && st.bytes_d2h == st.bytes_h2d);
    vsg_columnar_free(&dev);
    vsg_columnar_free(&back);
    vsg_columnar_free(&host);
    /* An empty set goes through too. */
    vsg_wkb_array none = {0, NULL, NULL};
    REQUIRE(vsg_columnar_from_wkb(&none, &host, NULL) == VSG_OK);
    CHECK(vsg_columnar_upload(x, &host, &dev) == VSG_OK);
    CHECK(vsg_columnar_download(x, &dev, &back) == VSG_OK);
    CHECK(vsg_exec_sync(x) == VSG_OK && back.n_geoms == 0 && back.geom_part[0] == 0);
    vsg_columnar_free(&dev);
    vsg_columnar_free(&back);
    vsg_columnar_free(&host);
    vsg_exec_destroy(x);
}

/* The pre-fault of fresh host arrays (core/prefault.h) writes a zero in every
 * memory page each span covers, and only one or two per page (the page's
 * first byte or the span's, and where a thread's share starts), whatever
 * the split over threads: spans of odd sizes, a NULL span skipped, sizes
 * from below a page to several threads' shares. */
static void prefault_touches_each_page_and_little_else(void)
{
    const size_t sizes[][3] = {{1, 0, 4095}, {4096, 4097, 12345},
                               {(size_t)5 << 20, 3, (size_t)9 << 20 | 77},
                               {(size_t)33 << 20, 1, 4096 * 3 + 5}};
    for (size_t c = 0; c < sizeof sizes / sizeof sizes[0]; c++) {
        unsigned char *buf[3];
        vsg_prefault_span sp[4];
        for (int i = 0; i < 3; i++) {
            buf[i] = sizes[c][i] ? malloc(sizes[c][i]) : NULL;
            REQUIRE(!sizes[c][i] || buf[i]);
            if (buf[i])
                memset(buf[i], 0xAA, sizes[c][i]);
            sp[i].p = buf[i];
            sp[i].bytes = sizes[c][i];
        }
        sp[3].p = NULL;          /* skipped */
        sp[3].bytes = 1000;
        vsg_prefault(sp, 4);
        int bad = 0;
        for (int i = 0; i < 3; i++) {
            size_t k = 0;
            while (k < sizes[c][i]) {
                /* the part of the span in one memory page */
                uintptr_t a = (uintptr_t)(buf[i] + k);
                size_t n = 4096 - a % 4096, zeros = 0;
                n = n < sizes[c][i] - k ? n : sizes[c][i] - k;
                for (size_t j = 0; j < n; j++)
                    zeros += buf[i][k + j] == 0;
                bad += zeros < 1 || zeros > 2;
                k += n;
            }
            free(buf[i]);
        }
        CHECK(bad == 0);
    }
}

int main(void)
{
    RUN(every_type_round_trips_bit_exact_2d_and_z);
    RUN(coordinates_land_in_their_rings);
    RUN(big_endian_ewkb_m_and_zm_come_back_iso_le);
    RUN(empty_and_null_rows);
    RUN(nonfinite_rows_are_decoded_and_flagged);
    RUN(unsupported_rows_are_flagged_not_decoded);
    RUN(every_truncation_is_corrupt);
    RUN(hostile_counts_and_types_are_corrupt);
    RUN(byte_flips_never_crash_and_round_trip_is_a_fixed_point);
    RUN(mixed_batch_keeps_rows_apart);
    RUN(slices_give_the_same_arrays);
    RUN(invalid_arguments_and_impossible_sizes);
    RUN(upload_download_through_the_host_backend);
    RUN(prefault_touches_each_page_and_little_else);
    RUN(screened_rows_and_gather);
    RUN(gather_equals_decoding_the_rows);   /* last: it draws from the shared seed */
    return TEST_SUMMARY();
}
