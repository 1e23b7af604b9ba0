/*
 * test_columnar_gdal.c - the columnar round trip on real data: every layer
 * of every .gpkg in a directory, each feature's geometry exported by OGR as
 * ISO little-endian WKB, decoded into columnar per layer, written back and
 * compared byte for byte. A geometry with M is compared with its export
 * once M is dropped (the columnar layout carries no M). The only C test
 * linked with GDAL: OGR is the independent writer of the expected bytes.
 *
 *   test_columnar_gdal [DIR] [--time REPEATS]
 *
 * DIR defaults to the project's data/ (the sanitizer suite runs every test
 * without arguments). --time also decodes each layer REPEATS times and
 * prints the median single-thread decode time and throughput (vertices/s;
 * the arrays allocated and freed each time, as a real batch would).
 *
 * Fails when a geometry does not come back bit-exact, when a simple-type
 * geometry is reported corrupt or unsupported, or when no layer was found.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gdal.h"
#include "ogr_api.h"

#include "columnar/columnar.h"

#ifndef VSGPU_DEFAULT_DATA_DIR
#define VSGPU_DEFAULT_DATA_DIR "data"
#endif

typedef struct {
    size_t count, cap;
    unsigned char **in;         /* what the decoder reads (NULL: null)     */
    size_t *in_size;
    unsigned char **want;       /* what the writer must give back          */
    size_t *want_size;
    int *simple;                /* one of the six simple types             */
} layer_wkb;

typedef struct {
    int64_t layers, features, vertices, mismatches, failures;
} totals;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void layer_free(layer_wkb *l)
{
    for (size_t i = 0; i < l->count; i++) {
        if (l->want[i] != l->in[i])
            free(l->want[i]);
        free(l->in[i]);
    }
    free(l->in);
    free(l->in_size);
    free(l->want);
    free(l->want_size);
    free(l->simple);
    memset(l, 0, sizeof *l);
}

static int layer_grow(layer_wkb *l)
{
    if (l->count < l->cap)
        return 1;
    size_t cap = l->cap ? 2 * l->cap : 256;
    void *a = realloc(l->in, cap * sizeof *l->in), *b, *c, *d, *e;
    if (a) l->in = a;
    b = realloc(l->in_size, cap * sizeof *l->in_size);
    if (b) l->in_size = b;
    c = realloc(l->want, cap * sizeof *l->want);
    if (c) l->want = c;
    d = realloc(l->want_size, cap * sizeof *l->want_size);
    if (d) l->want_size = d;
    e = realloc(l->simple, cap * sizeof *l->simple);
    if (e) l->simple = e;
    if (!a || !b || !c || !d || !e)
        return 0;
    l->cap = cap;
    return 1;
}

static unsigned char *export_iso(OGRGeometryH g, size_t *n)
{
    *n = (size_t)OGR_G_WkbSize(g);
    unsigned char *buf = malloc(*n ? *n : 1);
    if (buf && OGR_G_ExportToIsoWkb(g, wkbNDR, buf) != OGRERR_NONE) {
        free(buf);
        buf = NULL;
    }
    return buf;
}

/* Reads every feature's geometry: the ISO export, and the expectation
 * (the same bytes, or the export without M). */
static int read_layer(OGRLayerH lyr, layer_wkb *l)
{
    OGRFeatureH f;
    OGR_L_ResetReading(lyr);
    while ((f = OGR_L_GetNextFeature(lyr)) != NULL) {
        if (!layer_grow(l)) {
            OGR_F_Destroy(f);
            return 0;
        }
        size_t i = l->count;
        OGRGeometryH g = OGR_F_GetGeometryRef(f);
        l->in[i] = l->want[i] = NULL;
        l->in_size[i] = l->want_size[i] = 0;
        l->simple[i] = 0;
        l->count++;
        if (g) {
            OGRwkbGeometryType flat = wkbFlatten(OGR_G_GetGeometryType(g));
            l->simple[i] = flat >= wkbPoint && flat <= wkbMultiPolygon;
            l->in[i] = export_iso(g, &l->in_size[i]);
            l->want[i] = l->in[i];
            l->want_size[i] = l->in_size[i];
            if (l->in[i] && OGR_G_IsMeasured(g)) {
                OGRGeometryH no_m = OGR_G_Clone(g);
                OGR_G_SetMeasured(no_m, FALSE);
                l->want[i] = export_iso(no_m, &l->want_size[i]);
                OGR_G_DestroyGeometry(no_m);
            }
            if (!l->in[i] || !l->want[i]) {
                OGR_F_Destroy(f);
                return 0;
            }
        }
        OGR_F_Destroy(f);
    }
    return 1;
}

static int by_time(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Decodes, checks the report and every row's bytes; returns mismatches
 * plus failures (0: the layer round trips). */
static int64_t check_layer(const char *name, const layer_wkb *l, int repeats, totals *t)
{
    vsg_wkb_array arr;
    arr.count = l->count;
    arr.wkb = (const unsigned char *const *)l->in;
    arr.size = l->in_size;
    vsg_columnar c;
    vsg_columnar_report r;
    vsg_status st = vsg_columnar_from_wkb(&arr, &c, &r);
    if (st != VSG_OK) {
        fprintf(stderr, "%s: from_wkb failed: %s\n", name, vsg_status_name(st));
        return 1;
    }
    double *dt = repeats > 1 ? malloc((size_t)repeats * sizeof *dt) : NULL;
    for (int k = 0; dt && k < repeats; k++) {
        vsg_columnar again;
        double t0 = now_s();
        vsg_columnar_from_wkb(&arr, &again, NULL);
        dt[k] = now_s() - t0;
        vsg_columnar_free(&again);
    }
    if (dt)
        qsort(dt, (size_t)repeats, sizeof *dt, by_time);
    int64_t bad = 0;
    for (size_t i = 0; i < l->count; i++) {
        uint8_t f = c.flags[i];
        if (!l->in[i]) {
            bad += f != VSG_GF_NULL;
            continue;
        }
        if (!l->simple[i]) {            /* collections, curves: not ours */
            bad += !(f & VSG_GF_UNSUPPORTED);
            continue;
        }
        size_t n = vsg_columnar_wkb_size(&c, (int64_t)i);
        unsigned char *out = malloc(n ? n : 1);
        if (n && out)
            vsg_columnar_write_wkb(&c, (int64_t)i, out);
        if (!out || n != l->want_size[i] || memcmp(out, l->want[i], n) != 0) {
            if (bad < 3)
                fprintf(stderr, "%s: feature #%zu does not come back bit-exact "
                        "(%zu bytes, want %zu; flags %u)\n", name, i, n, l->want_size[i], f);
            bad++;
        }
        free(out);
    }
    printf("%-48s %7zu geoms %9lld vertices  null %lld corrupt %lld unsupported %lld "
           "nonfinite %lld  %s", name, l->count, (long long)c.n_coords, (long long)r.nulls,
           (long long)r.corrupt, (long long)r.unsupported, (long long)r.nonfinite,
           bad ? "MISMATCH" : "bit-exact");
    if (dt) {
        double med = dt[repeats / 2];
        printf("  decode median %.3f ms (best %.3f), %.1f M vertices/s", med * 1e3,
               dt[0] * 1e3, med > 0 ? (double)c.n_coords / med / 1e6 : 0.0);
        free(dt);
    }
    printf("\n");
    t->layers++;
    t->features += (int64_t)l->count;
    t->vertices += c.n_coords;
    t->mismatches += bad;
    vsg_columnar_free(&c);
    return bad;
}

static void check_dataset(const char *path, int repeats, totals *t)
{
    GDALDatasetH ds = GDALOpenEx(path, GDAL_OF_VECTOR | GDAL_OF_READONLY, NULL, NULL, NULL);
    if (!ds) {
        fprintf(stderr, "%s: cannot open\n", path);
        t->failures++;
        return;
    }
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    for (int k = 0; k < GDALDatasetGetLayerCount(ds); k++) {
        OGRLayerH lyr = GDALDatasetGetLayer(ds, k);
        char name[512];
        snprintf(name, sizeof name, "%s:%s", base, OGR_L_GetName(lyr));
        layer_wkb l;
        memset(&l, 0, sizeof l);
        if (!read_layer(lyr, &l)) {
            fprintf(stderr, "%s: cannot read (out of memory or export failed)\n", name);
            t->failures++;
        } else if (check_layer(name, &l, repeats, t) != 0) {
            t->failures++;
        }
        layer_free(&l);
    }
    GDALClose(ds);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    const char *dir = VSGPU_DEFAULT_DATA_DIR;
    int repeats = 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--time") == 0 && i + 1 < argc)
            repeats = atoi(argv[++i]);
        else
            dir = argv[i];
    }
    if (repeats < 1)
        repeats = 1;
    GDALAllRegister();

    /* The .gpkg files of dir, in name order (the output is stable). */
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "cannot open directory %s\n", dir);
        return 1;
    }
    char *files[256];
    int n_files = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && n_files < 256) {
        size_t len = strlen(e->d_name);
        if (len > 5 && strcmp(e->d_name + len - 5, ".gpkg") == 0) {
            size_t need = strlen(dir) + len + 2;
            files[n_files] = malloc(need);
            if (files[n_files])
                snprintf(files[n_files++], need, "%s/%s", dir, e->d_name);
        }
    }
    closedir(d);
    qsort(files, (size_t)n_files, sizeof files[0], by_name);

    totals t;
    memset(&t, 0, sizeof t);
    for (int i = 0; i < n_files; i++) {
        check_dataset(files[i], repeats, &t);
        free(files[i]);
    }
    printf("%lld layers, %lld features, %lld vertices; %lld mismatches, %lld layer failures\n",
           (long long)t.layers, (long long)t.features, (long long)t.vertices,
           (long long)t.mismatches, (long long)t.failures);
    GDALDestroyDriverManager();
    OGRCleanupAll();
    if (t.layers == 0) {
        fprintf(stderr, "no layer found under %s\n", dir);
        return 1;
    }
    return t.failures || t.mismatches ? 1 : 0;
}
