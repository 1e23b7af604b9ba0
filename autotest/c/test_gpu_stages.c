/*
 * test_gpu_stages.c - every columnar stage on the CUDA backend against the
 * same stage on the host backend (which test_stage_*.c checks against
 * GEOS): bounds, candidate pairs, containment classes, the rectangle
 * clip and the columnar gather must agree bit for bit (cuda/ is built with --fmad=false so that
 * the shared element code rounds as on the host). Prints "skip: <reason>"
 * and passes where there is no usable CUDA device (CI).
 */
#include <stdint.h>

#include "vsg_test.h"
#include "engine_fixtures.h"
#include "columnar/columnar.h"
#include "exec/exec.h"
#include "stages/stages.h"

/* ---- synthetic layers -------------------------------------------------- */
static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static double urand(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (double)(rng_state >> 11) / 9007199254740992.0;
}

static void append(char **s, size_t *len, size_t *cap, const char *fmt, double a, double b)
{
    char tmp[96];
    int n = snprintf(tmp, sizeof tmp, fmt, a, b);
    if (*len + (size_t)n + 1 > *cap) {
        *cap = (*cap + (size_t)n + 1) * 2;
        *s = realloc(*s, *cap);
    }
    memcpy(*s + *len, tmp, (size_t)n + 1);
    *len += (size_t)n;
}

/* A star-shaped polygon (k vertices) around (cx, cy), with a hole half the
 * time; WKT. */
static char *star_wkt(double cx, double cy, double r, int k)
{
    char *s = NULL;
    size_t len = 0, cap = 0;
    append(&s, &len, &cap, "POLYGON((", 0, 0);
    double x0 = 0, y0 = 0;
    for (int i = 0; i < k; i++) {
        double t = 2 * 3.14159265358979323846 * i / k, rr = r * (0.55 + 0.45 * urand());
        double x = cx + rr * cos(t), y = cy + rr * sin(t);
        if (i == 0) x0 = x, y0 = y;
        append(&s, &len, &cap, "%.17g %.17g,", x, y);
    }
    append(&s, &len, &cap, "%.17g %.17g)", x0, y0);
    if (urand() < 0.5) {
        double h = 0.2 * r;
        append(&s, &len, &cap, ",(%.17g %.17g,", cx - h, cy - h);
        append(&s, &len, &cap, "%.17g %.17g,", cx - h, cy + h);
        append(&s, &len, &cap, "%.17g %.17g,", cx + h, cy + h);
        append(&s, &len, &cap, "%.17g %.17g,", cx + h, cy - h);
        append(&s, &len, &cap, "%.17g %.17g)", cx - h, cy - h);
    }
    append(&s, &len, &cap, ")", 0, 0);
    return s;
}

typedef struct {
    size_t n;
    unsigned char **wkb;
    size_t *size;
} layer;

static void layer_add(layer *l, const char *wkt)
{
    l->wkb = realloc(l->wkb, (l->n + 1) * sizeof *l->wkb);
    l->size = realloc(l->size, (l->n + 1) * sizeof *l->size);
    l->wkb[l->n] = wkt ? fx_wkb(wkt, &l->size[l->n]) : NULL;
    if (!wkt)
        l->size[l->n] = 0;
    l->n++;
}

static vsg_wkb_array layer_view(const layer *l)
{
    vsg_wkb_array a = {l->n, (const unsigned char *const *)l->wkb, l->size};
    return a;
}

static void layer_free(layer *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->wkb[i]);
    free(l->wkb);
    free(l->size);
}

/* ---- one run of every stage on a backend, results on the host --------- */
typedef struct {
    double *boxes_a;
    int64_t n_pairs;
    int64_t *pa, *pb;
    uint8_t *cls;
    vsg_columnar clip;
    vsg_columnar gathered;   /* rows of both layers, picked in any order */
    uint8_t *row_cpu;
    double seconds;
} run_out;

static int run_all(vsg_exec *x, const vsg_columnar *ha, const vsg_columnar *hb,
                   const double rect[4], run_out *o)
{
    memset(o, 0, sizeof *o);
    vsg_columnar_init(&o->clip);
    vsg_columnar da, db, dclip;
    vsg_columnar_init(&da);
    vsg_columnar_init(&db);
    vsg_columnar_init(&dclip);
    double *ba = NULL, *bb = NULL;
    uint8_t *cls = NULL, *rc = NULL;
    vsg_pairs pairs = {0, NULL, NULL};
    double t0 = vsg_now_s();
    int ok = vsg_columnar_upload(x, ha, &da) == VSG_OK && vsg_columnar_upload(x, hb, &db) == VSG_OK &&
             vsg_exec_alloc(x, (size_t)ha->n_geoms * 32, (void **)&ba) == VSG_OK &&
             vsg_exec_alloc(x, (size_t)hb->n_geoms * 32, (void **)&bb) == VSG_OK;
    vsg_col_view va = vsg_columnar_view(&da), vb = vsg_columnar_view(&db);
    ok = ok && vsg_stage_bounds(x, &va, ba) == VSG_OK && vsg_stage_bounds(x, &vb, bb) == VSG_OK;
    ok = ok && vsg_stage_candidates(x, ba, va.n_geoms, bb, vb.n_geoms, &pairs) == VSG_OK;
    ok = ok && vsg_exec_alloc(x, (size_t)pairs.n, (void **)&cls) == VSG_OK;
    ok = ok && vsg_stage_classify(x, &va, ba, &vb, bb, &pairs, cls) == VSG_OK;
    ok = ok && vsg_exec_alloc(x, (size_t)va.n_geoms, (void **)&rc) == VSG_OK;
    ok = ok && vsg_stage_rect_clip(x, &va, ba, rect, &dclip, rc) == VSG_OK;
    /* the gather: row g is row (g * 7919) mod n of layer g mod 2 */
    vsg_columnar dgat;
    vsg_columnar_init(&dgat);
    int64_t ng = va.n_geoms + vb.n_geoms;
    int32_t *gs = malloc((size_t)(ng + 1) * sizeof *gs), *gs_d = NULL;
    int64_t *gr = malloc((size_t)(ng + 1) * sizeof *gr), *gr_d = NULL;
    for (int64_t g = 0; gs && gr && g < ng; g++) {
        gs[g] = (int32_t)(g % 2);
        int64_t n = g % 2 ? vb.n_geoms : va.n_geoms;
        gr[g] = n ? (g * 7919) % n : 0;
    }
    vsg_col_view both[2] = {va, vb};
    ok = ok && gs && gr && va.n_geoms > 0 && vb.n_geoms > 0 &&
         vsg_exec_alloc(x, (size_t)ng * sizeof *gs, (void **)&gs_d) == VSG_OK &&
         vsg_exec_alloc(x, (size_t)ng * sizeof *gr, (void **)&gr_d) == VSG_OK &&
         vsg_exec_upload(x, gs_d, gs, (size_t)ng * sizeof *gs) == VSG_OK &&
         vsg_exec_upload(x, gr_d, gr, (size_t)ng * sizeof *gr) == VSG_OK &&
         vsg_stage_columnar_gather(x, both, 2, gs_d, gr_d, ng, &dgat) == VSG_OK;
    if (ok) {
        o->n_pairs = pairs.n;
        o->boxes_a = malloc((size_t)ha->n_geoms * 32);
        o->pa = malloc((size_t)(pairs.n + 1) * 8);
        o->pb = malloc((size_t)(pairs.n + 1) * 8);
        o->cls = malloc((size_t)pairs.n + 1);
        o->row_cpu = malloc((size_t)va.n_geoms + 1);
        ok = vsg_exec_download(x, o->boxes_a, ba, (size_t)ha->n_geoms * 32) == VSG_OK &&
             vsg_exec_download(x, o->pa, pairs.a, (size_t)pairs.n * 8) == VSG_OK &&
             vsg_exec_download(x, o->pb, pairs.b, (size_t)pairs.n * 8) == VSG_OK &&
             vsg_exec_download(x, o->cls, cls, (size_t)pairs.n) == VSG_OK &&
             vsg_exec_download(x, o->row_cpu, rc, (size_t)va.n_geoms) == VSG_OK &&
             vsg_columnar_download(x, &dclip, &o->clip) == VSG_OK &&
             vsg_columnar_download(x, &dgat, &o->gathered) == VSG_OK && vsg_exec_sync(x) == VSG_OK;
    }
    vsg_exec_free(x, gs_d);
    vsg_exec_free(x, gr_d);
    vsg_columnar_free(&dgat);
    free(gs);
    free(gr);
    o->seconds = vsg_now_s() - t0;
    if (!ok)
        fprintf(stderr, "%s backend: %s\n", vsg_exec_device(x), vsg_exec_last_error(x));
    vsg_exec_free(x, ba);
    vsg_exec_free(x, bb);
    vsg_exec_free(x, cls);
    vsg_exec_free(x, rc);
    vsg_exec_free(x, pairs.a);
    vsg_exec_free(x, pairs.b);
    vsg_columnar_free(&da);
    vsg_columnar_free(&db);
    vsg_columnar_free(&dclip);
    return ok;
}

static void run_free(run_out *o)
{
    free(o->boxes_a);
    free(o->pa);
    free(o->pb);
    free(o->cls);
    free(o->row_cpu);
    vsg_columnar_free(&o->clip);
    vsg_columnar_free(&o->gathered);
}

#define SAME(a, b, n) ((n) == 0 || memcmp((a), (b), (size_t)(n)) == 0)

static void compare(const run_out *h, const run_out *g, int64_t na)
{
    CHECK(SAME(h->boxes_a, g->boxes_a, na * 32));
    REQUIRE(h->n_pairs == g->n_pairs);
    CHECK(SAME(h->pa, g->pa, h->n_pairs * 8));
    CHECK(SAME(h->pb, g->pb, h->n_pairs * 8));
    CHECK(SAME(h->cls, g->cls, h->n_pairs));
    CHECK(SAME(h->row_cpu, g->row_cpu, na));
    for (int k = 0; k < 2; k++) {
        const vsg_columnar *a = k ? &h->gathered : &h->clip, *b = k ? &g->gathered : &g->clip;
        REQUIRE(a->n_geoms == b->n_geoms && a->n_parts == b->n_parts &&
                a->n_rings == b->n_rings && a->n_coords == b->n_coords);
        CHECK(SAME(a->type, b->type, a->n_geoms));
        CHECK(SAME(a->flags, b->flags, a->n_geoms));
        CHECK(SAME(a->geom_part, b->geom_part, (a->n_geoms + 1) * 8));
        CHECK(SAME(a->part_ring, b->part_ring, (a->n_parts + 1) * 8));
        CHECK(SAME(a->ring_coord, b->ring_coord, (a->n_rings + 1) * 8));
        CHECK(SAME(a->x, b->x, a->n_coords * 8));
        CHECK(SAME(a->y, b->y, a->n_coords * 8));
    }
    CHECK(h->gathered.n_geoms > 0 && h->gathered.n_coords > 0);
}

static void test_backends_agree(vsg_exec *gx, int n_stars, int grid)
{
    layer la = {0, NULL, NULL}, lb = {0, NULL, NULL};
    for (int i = 0; i < n_stars; i++) {
        if (i % 97 == 5) {
            layer_add(&la, NULL);
            continue;
        }
        if (i % 101 == 7) {
            layer_add(&la, "POLYGON EMPTY");
            continue;
        }
        char *w = star_wkt(100 * urand(), 100 * urand(), 0.3 + 2 * urand(), 8 + (int)(40 * urand()));
        layer_add(&la, w);
        free(w);
    }
    /* the method layer: a grid of cells sharing their edges exactly */
    double step = 100.0 / grid;
    for (int i = 0; i < grid; i++)
        for (int j = 0; j < grid; j++) {
            char w[256];
            double x0 = i * step, y0 = j * step, x1 = x0 + step, y1 = y0 + step;
            snprintf(w, sizeof w, "POLYGON((%.17g %.17g,%.17g %.17g,%.17g %.17g,%.17g %.17g,%.17g %.17g))",
                     x0, y0, x1, y0, x1, y1, x0, y1, x0, y0);
            layer_add(&lb, w);
        }
    vsg_wkb_array wa = layer_view(&la), wb = layer_view(&lb);
    vsg_columnar ha, hb;
    vsg_columnar_report rep;
    vsg_columnar_init(&ha);
    vsg_columnar_init(&hb);
    REQUIRE(vsg_columnar_from_wkb(&wa, &ha, &rep) == VSG_OK);
    REQUIRE(vsg_columnar_from_wkb(&wb, &hb, &rep) == VSG_OK);
    /* through cell corners and along cell edges on purpose */
    const double rect[4] = {step * 2, 10.0, 73.3, step * (grid - 3)};

    vsg_exec *hx = NULL;
    REQUIRE(vsg_exec_create_host(&hx) == VSG_OK);
    run_out h, g;
    int ok_h = run_all(hx, &ha, &hb, rect, &h);
    int ok_g = run_all(gx, &ha, &hb, rect, &g);
    CHECK(ok_h);
    CHECK(ok_g);
    if (ok_h && ok_g)
        compare(&h, &g, ha.n_geoms);
    printf("%d stars x %d cells: %lld pairs, %lld clipped coordinates; host %.3f s, GPU %.3f s\n",
           n_stars, grid * grid, (long long)h.n_pairs, (long long)h.clip.n_coords, h.seconds,
           g.seconds);
    run_free(&h);
    run_free(&g);
    vsg_exec_destroy(hx);
    vsg_columnar_free(&ha);
    vsg_columnar_free(&hb);
    layer_free(&la);
    layer_free(&lb);
}

static vsg_exec *gpu_x;
static void test_small(void) { test_backends_agree(gpu_x, 500, 7); }
static void test_large(void) { test_backends_agree(gpu_x, 60000, 60); }

int main(void)
{
    fx_init();
    vsg_gpu_settings cfg;
    vsg_gpu_settings_init(&cfg);
    char why[256] = "";
    if (vsg_exec_create_gpu(&cfg, &gpu_x, why, sizeof why) != VSG_OK) {
        printf("skip: %s\n", why);
        fx_finish();
        return 0;
    }
    printf("device: %s\n", vsg_exec_device_label(gpu_x));
    RUN(test_small);
    RUN(test_large);
    vsg_exec_destroy(gpu_x);
    fx_finish();
    return TEST_SUMMARY();
}
