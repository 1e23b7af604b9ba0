/*
 * test_engine_wkb.c - the WKB scanner on hostile input, ring closing, the
 * invalid-input policy end to end, and the small core pieces (status
 * names, options, profile JSON).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <unistd.h>

#include "vsg_test.h"
#include "engine_fixtures.h"
#include "geometry/wkb_scan.h"
#include "geometry/wkb_form.h"
#include "geometry/dimension.h"
#include "core/worker.h"

/* ---- hand-built WKB ---------------------------------------------------- */

typedef struct {
    unsigned char b[4096];
    size_t n;
    int big;
} wb;

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
/* A polygon with one ring of n points (x[i], y[i]). */
static void polygon(wb *w, const double *xy, uint32_t n)
{
    header(w, 3);
    put_u32(w, 1);
    put_u32(w, n);
    for (uint32_t i = 0; i < n; i++) {
        put_f64(w, xy[2 * i]);
        put_f64(w, xy[2 * i + 1]);
    }
}

static const double square_open[] = {0, 0, 4, 0, 4, 4, 0, 4};          /* unclosed */
static const double square_closed[] = {0, 0, 4, 0, 4, 4, 0, 4, 0, 0};

static void scan_accepts_iso_ewkb_and_both_orders(void)
{
    fx_init();
    vsg_wkb_info in;
    const char *wkts[] = {"POLYGON((1 2, 5 2, 5 7, 1 7, 1 2))", "POINT Z (1 2 3)",
                          "MULTIPOLYGON(((0 0,1 0,1 1,0 0)),((5 5,6 5,6 6,5 5)))",
                          "GEOMETRYCOLLECTION(POINT(1 1), LINESTRING(0 0, 9 9))",
                          "MULTILINESTRING Z ((0 0 1, 1 1 1))"};
    const int types[] = {3, 1, 6, 7, 5};
    const int dims[] = {2, 0, 2, 1, 1};
    for (int k = 0; k < 5; k++)
        for (int big = 0; big < 2; big++)
            for (int ext = 0; ext < 2; ext++) {
                GEOSGeometry *g = fx_geom(wkts[k]);
                size_t n;
                unsigned char *b = fx_wkb_of(g, &n, big, ext);
                vsg_wkb_scan(b, n, &in);
                CHECK(in.verdict == VSG_WKB_OK);
                CHECK(in.type == types[k]);
                CHECK(in.dimension == dims[k]);
                CHECK(in.consumed == n);
                CHECK(in.has_z == (strstr(wkts[k], " Z ") != NULL));
                double xmin, xmax;
                GEOSGeom_getXMin_r(fx_ctx, g, &xmin);
                GEOSGeom_getXMax_r(fx_ctx, g, &xmax);
                CHECK(in.bounds[0] == xmin && in.bounds[2] == xmax);
                free(b);
                GEOSGeom_destroy_r(fx_ctx, g);
            }
    /* EWKB with an SRID. */
    GEOSGeometry *g = fx_geom("POLYGON((1 2, 5 2, 5 7, 1 7, 1 2))");
    GEOSSetSRID_r(fx_ctx, g, 4326);
    GEOSWKBWriter *w = GEOSWKBWriter_create_r(fx_ctx);
    GEOSWKBWriter_setIncludeSRID_r(fx_ctx, w, 1);
    GEOSWKBWriter_setFlavor_r(fx_ctx, w, GEOS_WKB_EXTENDED);
    size_t n;
    unsigned char *b = GEOSWKBWriter_write_r(fx_ctx, w, g, &n);
    vsg_wkb_scan(b, n, &in);
    CHECK(in.verdict == VSG_WKB_OK && in.has_srid && in.consumed == n);
    CHECK(in.bounds[1] == 2 && in.bounds[3] == 7);
    GEOSFree_r(fx_ctx, b);
    GEOSWKBWriter_destroy_r(fx_ctx, w);
    GEOSGeom_destroy_r(fx_ctx, g);
}

/* Every proper prefix of a valid geometry is corrupt, never a crash. */
static void scan_rejects_every_truncation(void)
{
    size_t n;
    unsigned char *b = fx_wkb("GEOMETRYCOLLECTION(POLYGON((0 0,1 0,1 1,0 0),(0.1 0.05,0.2 0.05,0.2 0.1,0.1 0.05)), "
                              "MULTIPOINT(1 1, 2 2), LINESTRING Z (0 0 0, 1 1 1))", &n);
    int all = 1;
    vsg_wkb_info in;
    for (size_t k = 0; k < n; k++) {
        unsigned char *copy = malloc(k ? k : 1);   /* exact size: ASan-friendly */
        memcpy(copy, b, k);
        vsg_wkb_scan(k ? copy : NULL, k, &in);
        all &= in.verdict == VSG_WKB_CORRUPT;
        free(copy);
    }
    CHECK(all);
    free(b);
}

static void scan_rejects_corrupt_structures(void)
{
    vsg_wkb_info in;
    wb w = {{0}, 0, 0};

    /* Huge ring count, huge point count. */
    header(&w, 3);
    put_u32(&w, 0xFFFFFFFFu);
    vsg_wkb_scan(w.b, w.n, &in);
    CHECK(in.verdict == VSG_WKB_CORRUPT);
    w.n = 0;
    header(&w, 2);
    put_u32(&w, 0x10000000u);
    put_f64(&w, 1);
    put_f64(&w, 1);
    vsg_wkb_scan(w.b, w.n, &in);
    CHECK(in.verdict == VSG_WKB_CORRUPT);
    /* Multi with a huge member count. */
    w.n = 0;
    header(&w, 6);
    put_u32(&w, 0x7FFFFFFFu);
    vsg_wkb_scan(w.b, w.n, &in);
    CHECK(in.verdict == VSG_WKB_CORRUPT);

    /* Bad byte order, unknown type, curve type. */
    unsigned char bad_order[] = {2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    vsg_wkb_scan(bad_order, sizeof bad_order, &in);
    CHECK(in.verdict == VSG_WKB_CORRUPT);
    w.n = 0;
    header(&w, 99);
    put_u32(&w, 0);
    vsg_wkb_scan(w.b, w.n, &in);
    CHECK(in.verdict == VSG_WKB_CORRUPT);
    w.n = 0;
    header(&w, 8);   /* CircularString */
    put_u32(&w, 0);
    vsg_wkb_scan(w.b, w.n, &in);
    CHECK(in.verdict == VSG_WKB_UNSUPPORTED);
    w.n = 0;
    header(&w, 1010);   /* CurvePolygon Z (ISO) */
    put_u32(&w, 0);
    vsg_wkb_scan(w.b, w.n, &in);
    CHECK(in.verdict == VSG_WKB_UNSUPPORTED);

    /* A MultiPolygon holding a Point. */
    w.n = 0;
    header(&w, 6);
    put_u32(&w, 1);
    header(&w, 1);
    put_f64(&w, 1);
    put_f64(&w, 2);
    vsg_wkb_scan(w.b, w.n, &in);
    CHECK(in.verdict == VSG_WKB_CORRUPT);

    /* Nesting bomb: 40 collections deep. */
    w.n = 0;
    for (int d = 0; d < 40; d++) {
        header(&w, 7);
        put_u32(&w, 1);
    }
    header(&w, 1);
    put_f64(&w, 0);
    put_f64(&w, 0);
    vsg_wkb_scan(w.b, w.n, &in);
    CHECK(in.verdict == VSG_WKB_CORRUPT);

    vsg_wkb_scan(NULL, 0, &in);
    CHECK(in.verdict == VSG_WKB_CORRUPT);
}

static void scan_flags_nonfinite_and_reads_point_empty(void)
{
    vsg_wkb_info in;
    wb w = {{0}, 0, 0};
    double xy[] = {0, 0, 4, 0, NAN, 4, 0, 4, 0, 0};
    polygon(&w, xy, 5);
    vsg_wkb_scan(w.b, w.n, &in);
    CHECK(in.verdict == VSG_WKB_NONFINITE);
    w.n = 0;
    double xy2[] = {0, 0, INFINITY, 0, 4, 4, 0, 0};
    polygon(&w, xy2, 4);
    vsg_wkb_scan(w.b, w.n, &in);
    CHECK(in.verdict == VSG_WKB_NONFINITE);
    /* POINT EMPTY is NaN NaN: empty, not non-finite. */
    w.n = 0;
    header(&w, 1);
    put_f64(&w, NAN);
    put_f64(&w, NAN);
    vsg_wkb_scan(w.b, w.n, &in);
    CHECK(in.verdict == VSG_WKB_OK && in.is_empty && in.dimension == -1);
    /* NaN Z is tolerated ("no Z"), infinite Z is not. */
    w.n = 0;
    header(&w, 1001);
    put_f64(&w, 1);
    put_f64(&w, 2);
    put_f64(&w, NAN);
    vsg_wkb_scan(w.b, w.n, &in);
    CHECK(in.verdict == VSG_WKB_OK && !in.is_empty && in.has_z);
    w.n = 0;
    header(&w, 1001);
    put_f64(&w, 1);
    put_f64(&w, 2);
    put_f64(&w, -INFINITY);
    vsg_wkb_scan(w.b, w.n, &in);
    CHECK(in.verdict == VSG_WKB_NONFINITE);
    /* Corrupt wins over non-finite. */
    w.n = 0;
    polygon(&w, xy, 5);
    vsg_wkb_scan(w.b, w.n - 3, &in);
    CHECK(in.verdict == VSG_WKB_CORRUPT);
}

/* Unclosed rings are found and closed, in both byte orders; the copy is
 * what GEOS reads as the closed polygon. */
static void close_rings_fixes_unclosed(void)
{
    fx_init();
    for (int big = 0; big < 2; big++) {
        wb w = {{0}, 0, big};
        /* MultiPolygon: one open ring, one closed. */
        header(&w, 6);
        put_u32(&w, 2);
        polygon(&w, square_open, 4);
        polygon(&w, square_closed, 5);
        vsg_wkb_info in;
        vsg_wkb_scan(w.b, w.n, &in);
        CHECK(in.verdict == VSG_WKB_OK && in.n_unclosed_rings == 1 && in.n_rings == 2);
        unsigned char *out;
        size_t n;
        REQUIRE(vsg_wkb_close_rings(w.b, w.n, &out, &n) == VSG_OK);
        CHECK(n == w.n + 16);
        vsg_wkb_scan(out, n, &in);
        CHECK(in.verdict == VSG_WKB_OK && in.n_unclosed_rings == 0);
        GEOSGeometry *g = fx_read(out, n);
        REQUIRE(g != NULL);
        CHECK(GEOSGetNumCoordinates_r(fx_ctx, g) == 10);
        CHECK(fabs(fx_area(g) - 32.0) < 1e-12);   /* two identical squares, summed */
        GEOSGeom_destroy_r(fx_ctx, g);
        free(out);
    }
    unsigned char junk[] = {1, 99, 0, 0, 0};
    unsigned char *out;
    size_t n;
    CHECK(vsg_wkb_close_rings(junk, sizeof junk, &out, &n) == VSG_ERR_CORRUPT_WKB && !out);
}

/* Random byte corruption: never a crash, consumed stays in bounds. */
static void scan_survives_random_mutation(void)
{
    size_t n;
    unsigned char *b = fx_wkb("GEOMETRYCOLLECTION(MULTIPOLYGON(((0 0,1 0,1 1,0 0))), LINESTRING(0 0,2 2,3 1), POINT(5 5))", &n);
    unsigned char *m = malloc(n);
    fx_rand_state = 7;
    int ok = 1, ok_count = 0;
    for (int t = 0; t < 20000; t++) {
        memcpy(m, b, n);
        int flips = 1 + (int)(fx_rand01() * 4);
        for (int f = 0; f < flips; f++)
            m[(size_t)(fx_rand01() * n)] = (unsigned char)(fx_rand01() * 256);
        vsg_wkb_info in;
        vsg_wkb_scan(m, n, &in);
        if (in.verdict == VSG_WKB_OK) {
            ok_count++;
            ok &= in.consumed <= n;
        }
    }
    CHECK(ok);
    CHECK(ok_count > 0);
    free(m);
    free(b);
}

/* ---- the policy, end to end (clip by a rectangle that holds everything:
 * the output is the input as read) --------------------------------------- */

static const double everything[4] = {-1e9, -1e9, 1e9, 1e9};

static void push_hand(fx_array *a, const wb *w)
{
    unsigned char *c = malloc(w->n);
    memcpy(c, w->b, w->n);
    fx_push_raw(a, c, w->n);
}

static void build_bad_inputs(fx_array *a)
{
    fx_push(a, "POLYGON((0 0, 1 0, 1 1, 0 1, 0 0))");              /* 0 fine      */
    fx_push(a, "POLYGON((0 0, 2 2, 2 0, 0 2, 0 0))");              /* 1 bow-tie   */
    wb w = {{0}, 0, 0};
    polygon(&w, square_open, 4);                                   /* 2 unclosed  */
    push_hand(a, &w);
    w.n = 0;
    double xy[] = {0, 0, 4, 0, NAN, 4, 0, 0};
    polygon(&w, xy, 4);                                            /* 3 NaN       */
    push_hand(a, &w);
    unsigned char *junk = malloc(3);
    memcpy(junk, "\x01\x03\x00", 3);
    fx_push_raw(a, junk, 3);                                       /* 4 corrupt   */
    fx_push(a, NULL);                                              /* 5 null      */
    fx_push(a, "POLYGON EMPTY");                                   /* 6 empty     */
    w.n = 0;
    double line[] = {0, 0, 1, 1, 2, 2};
    polygon(&w, line, 3);                                          /* 7 collapsed */
    push_hand(a, &w);
}

static void invalid_policy_repair(void)
{
    fx_init();
    fx_array a = {0};
    build_bad_inputs(&a);
    vsg_engine *e = fx_engine(2, VSG_INVALID_REPAIR, 0, 0, 0);
    REQUIRE(e);
    vsg_result r;
    vsg_result_init(&r);
    REQUIRE(vsg_clip_rect_batch(e, everything, fx_view(&a), &r) == VSG_OK);
    const vsg_counts *c = vsg_engine_counts(e);
    CHECK(r.count == 3);
    CHECK(r.count == 3 && r.input_index[0] == 0 && r.input_index[1] == 1 && r.input_index[2] == 2);
    CHECK(c->invalid_repaired == 1);
    CHECK(c->rings_closed == 2);      /* the square and the collapsed ring */
    CHECK(c->nonfinite_skipped == 1);
    CHECK(c->corrupt_skipped == 1);
    CHECK(c->null_geometries == 1);
    CHECK(c->empty_geometries == 1);
    CHECK(c->invalid_skipped == 1);   /* the collapsed ring cannot be repaired */
    CHECK(c->input_rows == 8);
    CHECK(c->output_rows == 3);
    if (r.count == 3) {
        GEOSGeometry *bow = fx_read(r.wkb[1], r.size[1]);
        CHECK(bow && GEOSisValid_r(fx_ctx, bow) == 1);
        CHECK(bow && fabs(fx_area(bow) - 2.0) < 1e-12);   /* two triangles */
        CHECK(bow && GEOSGeomTypeId_r(fx_ctx, bow) == GEOS_MULTIPOLYGON);
        GEOSGeom_destroy_r(fx_ctx, bow);
        GEOSGeometry *sq = fx_read(r.wkb[2], r.size[2]);
        CHECK(sq && fabs(fx_area(sq) - 16.0) < 1e-12);
        GEOSGeom_destroy_r(fx_ctx, sq);
    }
    vsg_result_clear(&r);
    vsg_engine_destroy(e);
    fx_array_free(&a);
}

static void invalid_policy_skip(void)
{
    fx_array a = {0};
    build_bad_inputs(&a);
    vsg_engine *e = fx_engine(2, VSG_INVALID_SKIP, 0, 0, 0);
    vsg_result r;
    vsg_result_init(&r);
    REQUIRE(vsg_clip_rect_batch(e, everything, fx_view(&a), &r) == VSG_OK);
    const vsg_counts *c = vsg_engine_counts(e);
    CHECK(r.count == 2);
    CHECK(c->invalid_skipped == 2 && c->invalid_repaired == 0);
    CHECK(c->nonfinite_skipped == 1 && c->corrupt_skipped == 1);
    vsg_result_clear(&r);
    vsg_engine_destroy(e);
    fx_array_free(&a);
}

static void invalid_policy_error(void)
{
    fx_array a = {0};
    build_bad_inputs(&a);
    vsg_result r;
    vsg_result_init(&r);
    /* Threads 1 and 4 report the same (first) failure. */
    for (int threads = 1; threads <= 4; threads += 3) {
        vsg_engine *e = fx_engine(threads, VSG_INVALID_ERROR, 0, 0, 0);
        CHECK(vsg_clip_rect_batch(e, everything, fx_view(&a), &r) == VSG_ERR_INVALID_GEOMETRY);
        CHECK(r.count == 0);
        CHECK(vsg_engine_error_input_index(e) == 1);
        CHECK(strstr(vsg_engine_last_error(e), "input feature #1") != NULL);
        CHECK(strstr(vsg_engine_last_error(e), "Self-intersection") != NULL);
        vsg_engine_destroy(e);
    }
    /* Only the NaN one, then only the corrupt one. */
    fx_array b = {0};
    fx_push(&b, "POINT(1 1)");
    fx_push_raw(&b, a.wkb[3], a.size[3]);
    vsg_engine *e = fx_engine(2, VSG_INVALID_ERROR, 0, 0, 0);
    CHECK(vsg_clip_rect_batch(e, everything, fx_view(&b), &r) == VSG_ERR_INVALID_GEOMETRY);
    CHECK(strstr(vsg_engine_last_error(e), "NaN") != NULL);
    b.wkb[1] = a.wkb[4];
    b.size[1] = a.size[4];
    CHECK(vsg_clip_rect_batch(e, everything, fx_view(&b), &r) == VSG_ERR_CORRUPT_WKB);
    CHECK(vsg_engine_error_input_index(e) == 1);
    /* A good call afterwards clears the error. */
    b.count = b.view.count = 1;
    CHECK(vsg_clip_rect_batch(e, everything, fx_view(&b), &r) == VSG_OK);
    CHECK(vsg_engine_error_input_index(e) == -1 && vsg_engine_last_error(e)[0] == '\0');
    b.count = 0;   /* the borrowed buffers belong to a */
    free(b.wkb[0]);
    free(b.wkb);
    free(b.size);
    vsg_result_clear(&r);
    vsg_engine_destroy(e);
    fx_array_free(&a);
}


/* ISO ZM and EWKB M input: read, M dropped, Z kept on output. */
static void m_dropped_z_kept(void)
{
    fx_array a = {0};
    for (int variant = 0; variant < 2; variant++) {
        wb w = {{0}, 0, variant};
        header(&w, variant ? 0x40000000u | 3 : 3003);   /* EWKB M polygon / ISO ZM polygon */
        put_u32(&w, 1);
        put_u32(&w, 4);
        const double ring[] = {0, 0, 4, 0, 4, 4, 0, 0};
        for (int k = 0; k < 4; k++) {
            put_f64(&w, ring[2 * k]);
            put_f64(&w, ring[2 * k + 1]);
            if (!variant)
                put_f64(&w, 7);    /* Z */
            put_f64(&w, 99);       /* M */
        }
        push_hand(&a, &w);
    }
    vsg_engine *e = fx_engine(1, VSG_INVALID_ERROR, 0, 0, 0);
    vsg_result r;
    vsg_result_init(&r);
    REQUIRE(vsg_clip_rect_batch(e, everything, fx_view(&a), &r) == VSG_OK);
    REQUIRE(r.count == 2);
    uint32_t t0 = (uint32_t)r.wkb[0][1] | (uint32_t)r.wkb[0][2] << 8;
    uint32_t t1 = (uint32_t)r.wkb[1][1] | (uint32_t)r.wkb[1][2] << 8;
    CHECK(r.wkb[0][0] == 1 && t0 == 1003);   /* little endian, ISO Z, no M */
    CHECK(t1 == 3);
    CHECK(r.size[0] == 9 + 4 + 4 * 24 && r.size[1] == 9 + 4 + 4 * 16);
    vsg_result_clear(&r);
    vsg_engine_destroy(e);
    fx_array_free(&a);
}

/* Fuzz finding (fuzz_wkb): the EWKB M flag on an ISO M code (2xxx, 3xxx)
 * is one M ordinate spelled twice. Dropping M must clear both spellings:
 * the copy used to keep the ISO code, announcing an M its coordinates no
 * longer had (GEOS then read the wrong number of ordinates). */
static void normalize_drops_both_spellings_of_m(void)
{
    static const uint32_t codes[] = {0x40000000u | 2001, 0x40000000u | 3001,
                                     0x40000000u | 2004};
    static const uint32_t expect[] = {1, 1001, 4};
    for (int big = 0; big < 2; big++) {
        for (int k = 0; k < 3; k++) {
            wb w = {{0}, 0, big};
            int z = k == 1;
            header(&w, codes[k]);
            if (k == 2) {                 /* MULTIPOINT M of one point */
                put_u32(&w, 1);
                header(&w, 2001);
            }
            put_f64(&w, 1.5);
            put_f64(&w, -2);
            if (z)
                put_f64(&w, 3);
            put_f64(&w, 99);              /* M */

            vsg_wkb_info in;
            vsg_wkb_scan(w.b, w.n, &in);
            REQUIRE(in.verdict == VSG_WKB_OK && in.has_m);
            unsigned char *out = NULL;
            size_t n = 0;
            REQUIRE(vsg_wkb_normalize(w.b, w.n, 1, &out, &n) == VSG_OK);
            vsg_wkb_scan(out, n, &in);
            CHECK(in.verdict == VSG_WKB_OK && in.consumed == n);
            CHECK(!in.has_m && !in.any_m && in.has_z == z);
            CHECK(n == w.n - 8);
            uint32_t code = big ? (uint32_t)out[1] << 24 | (uint32_t)out[2] << 16 |
                                      (uint32_t)out[3] << 8 | out[4]
                                : (uint32_t)out[4] << 24 | (uint32_t)out[3] << 16 |
                                      (uint32_t)out[2] << 8 | out[1];
            CHECK(code == expect[k]);
            free(out);
        }
    }
}

/* Fuzz finding (fuzz_columnar): a curve inside a MultiPoint, MultiLineString
 * or MultiPolygon is corrupt (those hold their simple type only), as the
 * columnar decoder says; the scanner called it unsupported, so the CPU
 * engine and the GPU pipeline counted the same bytes differently. Inside a
 * GeometryCollection a curve stays unsupported. */
static void scan_curve_member_of_multi_is_corrupt(void)
{
    vsg_wkb_info in;
    for (uint32_t multi = 4; multi <= 7; multi++) {
        for (uint32_t curve = 8; curve <= 17; curve++) {
            wb w = {{0}, 0, 0};
            header(&w, multi);
            put_u32(&w, 1);
            header(&w, curve);
            put_u32(&w, 0);
            vsg_wkb_scan(w.b, w.n, &in);
            CHECK(in.verdict == (multi == 7 ? VSG_WKB_UNSUPPORTED : VSG_WKB_CORRUPT));
            if (multi != 7)
                CHECK(strstr(in.message, "inside a collection of") != NULL);
        }
    }
}

/* ---- core bits -------------------------------------------------------- */

static void status_names_and_options(void)
{
    CHECK(strcmp(vsg_status_name(VSG_OK), "VSG_OK") == 0);
    CHECK(strcmp(vsg_status_name(VSG_ERR_GEOS), "VSG_ERR_GEOS") == 0);
    CHECK(strcmp(vsg_status_name((vsg_status)12345), "VSG_ERR_UNKNOWN") == 0);
    vsg_engine_options o;
    memset(&o, 0x5A, sizeof o);
    vsg_engine_options_init(&o);
    CHECK(o.num_threads == 0 && o.invalid == VSG_INVALID_REPAIR && !o.skip_failures &&
          !o.promote_to_multi && !o.keep_lower_dim);
    vsg_engine *e = NULL;
    REQUIRE(vsg_engine_create(&o, &e) == VSG_OK);
    CHECK(vsg_engine_num_threads(e) >= 1);
    vsg_engine_destroy(e);
    o.num_threads = -1;
    CHECK(vsg_engine_create(&o, &e) == VSG_ERR_INVALID_ARG && e == NULL);
    CHECK(vsg_engine_create(NULL, &e) == VSG_OK && e);
    vsg_engine_destroy(e);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static void profile_accumulates_and_escapes(void)
{
    vsg_engine *e = fx_engine(1, VSG_INVALID_REPAIR, 0, 0, 0);
    vsg_profile *p = vsg_engine_profile(e);
    vsg_profile_add(p, "read", "CPU", 0.5, 10, 10, 0, 0, 100);
    vsg_profile_add(p, "read", "CPU", 0.25, 5, 4, 0, 0, 50);
    vsg_profile_add(p, "read", "GPU", 1.0, 1, 1, 8, 16, 7);
    CHECK(vsg_profile_count(p) == 2);
    const char *stage, *device;
    double el;
    int64_t ri, ro, h2d, d2h, peak;
    REQUIRE(vsg_profile_get(p, 0, &stage, &device, &el, &ri, &ro, &h2d, &d2h, &peak));
    CHECK(strcmp(stage, "read") == 0 && strcmp(device, "CPU") == 0);
    CHECK(el == 0.75 && ri == 15 && ro == 14 && peak == 100);
    CHECK(!vsg_profile_get(p, 2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));

    const char *meta[] = {"SQL=SELECT \"a\\b\"\nFROM t", "MODE=CPU", "NOVALUE", NULL};
    char path[] = "/tmp/vsg_profile_testXXXXXX";
    int fd = mkstemp(path);
    REQUIRE(fd >= 0);
    close(fd);
    REQUIRE(vsg_profile_write_json(p, path, meta) == VSG_OK);
    const char *j = slurp(path);
    REQUIRE(j);
    CHECK(strstr(j, "\"version\": 1") != NULL);
    CHECK(strstr(j, "\"SQL\": \"SELECT \\\"a\\\\b\\\"\\nFROM t\"") != NULL);
    CHECK(strstr(j, "\"MODE\": \"CPU\"") != NULL);
    CHECK(strstr(j, "\"NOVALUE\": \"\"") != NULL);
    CHECK(strstr(j, "\"stage\": \"read\", \"device\": \"GPU\"") != NULL);
    CHECK(strstr(j, "\"pool_peak_bytes\": 100") != NULL);
    CHECK(strstr(j, "\"total_s\": 1.75") != NULL);
    remove(path);
    CHECK(vsg_profile_write_json(p, "/nonexistent-dir/x.json", NULL) == VSG_ERR_IO);
    vsg_engine_destroy(e);
}

/* A covered input written from its own bytes (geometry/wkb_form.h) is
 * what GEOS writes for it: parse, the overlay form, Multi when promoted,
 * ISO little endian. Where the bytes are not plain little-endian 2D WKB
 * of non-empty polygons the copy declines, and GEOS does it. */
static void overlay_copy_is_geos_bytes(void)
{
    fx_init();
    vsg_worker w;
    REQUIRE(vsg_worker_init(&w) == VSG_OK);
    static const char *const plain[] = {
        "POLYGON((0 0,4 0,4 4,0 4,0 0))",
        "POLYGON((0 0,10 0,10 10,0 10,0 0),(1 1,2 1,2 2,1 2,1 1))",
        "MULTIPOLYGON(((0 0,4 0,4 4,0 4,0 0)))",
        "MULTIPOLYGON(((0 0,1 0,1 1,0 1,0 0)),((5 5,9 5,9 9,5 9,5 5),(6 6,7 6,7 7,6 7,6 6)))",
    };
    for (size_t k = 0; k < sizeof plain / sizeof *plain; k++)
        for (int promote = 0; promote < 2; promote++) {
            size_t n;
            unsigned char *in = fx_wkb(plain[k], &n);
            /* trailing bytes after the geometry are not the row's */
            unsigned char *padded = malloc(n + 3);
            memcpy(padded, in, n);
            memset(padded + n, 0xAB, 3);
            GEOSGeometry *g = GEOSWKBReader_read_r(w.ctx, w.reader, in, n);
            GEOSGeometry *f = vsg_geom_overlay_copy(w.ctx, g);
            if (promote)
                f = vsg_geom_promote_multi(w.ctx, f);
            unsigned char *ref;
            size_t ref_n;
            REQUIRE(vsg_geom_to_wkb(&w, f, &ref, &ref_n) == VSG_OK);
            unsigned char *got;
            size_t got_n;
            CHECK(vsg_wkb_overlay_copy(padded, n + 3, promote, &got, &got_n) == VSG_OK);
            CHECK(got != NULL);
            CHECK(got && got_n == ref_n && memcmp(got, ref, ref_n) == 0);
            free(got);
            free(ref);
            free(padded);
            free(in);
            GEOSGeom_destroy_r(w.ctx, g);
            GEOSGeom_destroy_r(w.ctx, f);
        }
    /* declined: big endian, EWKB, Z, an empty part, a point */
    struct { const char *wkt; int big, ext; } other[] = {
        {"POLYGON((0 0,4 0,4 4,0 4,0 0))", 1, 0},
        {"MULTIPOLYGON(((0 0,4 0,4 4,0 4,0 0)))", 1, 0},
        {"POLYGON Z((0 0 1,4 0 1,4 4 1,0 4 1,0 0 1))", 0, 0},
        {"POLYGON Z((0 0 1,4 0 1,4 4 1,0 4 1,0 0 1))", 0, 1},
        {"MULTIPOLYGON(((0 0,4 0,4 4,0 4,0 0)),EMPTY)", 0, 0},
        {"POINT(1 2)", 0, 0},
    };
    for (size_t k = 0; k < sizeof other / sizeof *other; k++) {
        GEOSGeometry *g = fx_geom(other[k].wkt);
        size_t n;
        unsigned char *in = fx_wkb_of(g, &n, other[k].big, other[k].ext);
        unsigned char *got = (unsigned char *)1;
        size_t got_n;
        CHECK(vsg_wkb_overlay_copy(in, n, 0, &got, &got_n) == VSG_OK);
        CHECK(got == NULL);
        /* truncated bytes are declined too, never read past */
        for (size_t cut = 0; cut < n; cut += 7) {
            CHECK(vsg_wkb_overlay_copy(in, cut, 1, &got, &got_n) == VSG_OK);
            CHECK(got == NULL);
        }
        free(in);
        GEOSGeom_destroy_r(fx_ctx, g);
    }
    vsg_worker_destroy(&w);
}

int main(void)
{
    fx_init();
    RUN(scan_accepts_iso_ewkb_and_both_orders);
    RUN(scan_rejects_every_truncation);
    RUN(scan_rejects_corrupt_structures);
    RUN(scan_flags_nonfinite_and_reads_point_empty);
    RUN(close_rings_fixes_unclosed);
    RUN(scan_survives_random_mutation);
    RUN(invalid_policy_repair);
    RUN(invalid_policy_skip);
    RUN(invalid_policy_error);
    RUN(m_dropped_z_kept);
    RUN(normalize_drops_both_spellings_of_m);
    RUN(scan_curve_member_of_multi_is_corrupt);
    RUN(status_names_and_options);
    RUN(profile_accumulates_and_escapes);
    RUN(overlay_copy_is_geos_bytes);
    fx_finish();
    return TEST_SUMMARY();
}
