/* vsgbench_measure: what a layer holds, as one JSON object, so that the
 * benchmark rail can compare every engine's output with the reference
 * without GDAL's Python bindings.
 *
 *   vsgbench_measure FILE LAYER [--group FIELD]
 *
 * {"features", "null_geometries", "empty_geometries", "vertices",
 *  "total_area", "total_length", "invalid", "geometry_types": {name: count},
 *  "groups": {value: area}}   ("groups" only with --group)
 *
 * vertices counts every point, ring closing points included (as OGR counts
 * them); total_area is OGR_G_Area summed (0 for points and lines);
 * total_length is the length of every linear component: rings of areal
 * geometries (their perimeter) and lines, so that it means the same with
 * every GDAL version; invalid counts non-empty geometries for which
 * OGR_G_IsValid (GEOS) is false. Sums are compensated (Neumaier): they do
 * not depend on the order of magnitude of the terms. Group keys are the
 * field's value as a string ("null" key for a NULL field); the object is
 * sorted by key.
 *
 * Exit status 0 on success, 1 on error (message on stderr), 2 on bad usage.
 */
#include "bench_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cpl_conv.h>
#include <cpl_error.h>
#include <gdal.h>
#include <ogr_api.h>

/* ---- a small string -> value table (open addressing, grows by doubling) */

typedef struct {
    char *key;
    double area;   /* groups: summed area */
    long long n;   /* geometry types: count */
} entry;

typedef struct {
    entry *slots;
    size_t cap;
    size_t used;
} table;

static unsigned long long hash_str(const char *s)
{
    unsigned long long h = 1469598103934665603ULL;   /* FNV-1a */
    for (; *s; ++s)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

/* Returns the entry for key, created zeroed if absent; NULL when out of
 * memory. */
static entry *table_get(table *t, const char *key)
{
    if (2 * (t->used + 1) > t->cap) {
        size_t ncap = t->cap ? 2 * t->cap : 64;
        entry *ns = calloc(ncap, sizeof *ns);
        if (ns == NULL)
            return NULL;
        for (size_t i = 0; i < t->cap; ++i) {
            if (t->slots[i].key == NULL)
                continue;
            size_t j = hash_str(t->slots[i].key) & (ncap - 1);
            while (ns[j].key != NULL)
                j = (j + 1) & (ncap - 1);
            ns[j] = t->slots[i];
        }
        free(t->slots);
        t->slots = ns;
        t->cap = ncap;
    }
    size_t j = hash_str(key) & (t->cap - 1);
    while (t->slots[j].key != NULL) {
        if (strcmp(t->slots[j].key, key) == 0)
            return &t->slots[j];
        j = (j + 1) & (t->cap - 1);
    }
    size_t len = strlen(key) + 1;
    char *copy = malloc(len);
    if (copy == NULL)
        return NULL;
    memcpy(copy, key, len);
    t->slots[j].key = copy;
    t->used++;
    return &t->slots[j];
}

static int cmp_entry(const void *a, const void *b)
{
    return strcmp(((const entry *)a)->key, ((const entry *)b)->key);
}

/* Compacts the used slots to the front, sorted by key; returns their count. */
static size_t table_sorted(table *t)
{
    size_t n = 0;
    for (size_t i = 0; i < t->cap; ++i) {
        if (t->slots[i].key == NULL)
            continue;
        entry e = t->slots[i];
        t->slots[i].key = NULL;   /* one owner per key, for table_free */
        t->slots[n++] = e;
    }
    if (n > 0)
        qsort(t->slots, n, sizeof *t->slots, cmp_entry);
    return n;
}

static void table_free(table *t)
{
    for (size_t i = 0; i < t->cap; ++i)
        free(t->slots[i].key);
    free(t->slots);
}

/* ---- geometry walks ---------------------------------------------------- */

static long long count_vertices(OGRGeometryH g)
{
    int n = OGR_G_GetGeometryCount(g);
    if (n == 0)
        return OGR_G_GetPointCount(g);
    long long total = 0;
    for (int i = 0; i < n; ++i)
        total += count_vertices(OGR_G_GetGeometryRef(g, i));
    return total;
}

static void add_lengths(OGRGeometryH g, bench_sum *len)
{
    int n = OGR_G_GetGeometryCount(g);
    if (n > 0) {
        for (int i = 0; i < n; ++i)
            add_lengths(OGR_G_GetGeometryRef(g, i), len);
        return;
    }
    if (OGR_G_GetDimension(g) == 1)   /* line strings and rings */
        bench_sum_add(len, OGR_G_Length(g));
}

/* ---- output ------------------------------------------------------------ */

typedef struct {
    long long features, nulls, empties, vertices, invalid;
    bench_sum area, length;
    table types, groups;
    int grouped;
} measures;

static void print_json(measures *m)
{
    printf("{\"features\": %lld, \"null_geometries\": %lld, "
           "\"empty_geometries\": %lld, \"vertices\": %lld, \"total_area\": ",
           m->features, m->nulls, m->empties, m->vertices);
    bench_json_number(stdout, bench_sum_value(&m->area));
    fputs(", \"total_length\": ", stdout);
    bench_json_number(stdout, bench_sum_value(&m->length));
    printf(", \"invalid\": %lld, \"geometry_types\": {", m->invalid);
    size_t n = table_sorted(&m->types);
    for (size_t i = 0; i < n; ++i) {
        if (i)
            fputs(", ", stdout);
        bench_json_string(stdout, m->types.slots[i].key);
        printf(": %lld", m->types.slots[i].n);
    }
    fputc('}', stdout);
    if (m->grouped) {
        fputs(", \"groups\": {", stdout);
        n = table_sorted(&m->groups);
        for (size_t i = 0; i < n; ++i) {
            if (i)
                fputs(", ", stdout);
            bench_json_string(stdout, m->groups.slots[i].key);
            fputs(": ", stdout);
            bench_json_number(stdout, m->groups.slots[i].area);
        }
        fputc('}', stdout);
    }
    fputs("}\n", stdout);
}

static int usage(void)
{
    fprintf(stderr, "usage: vsgbench_measure FILE LAYER [--group FIELD]\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc != 3 && argc != 5)
        return usage();
    const char *group_field = NULL;
    if (argc == 5) {
        if (strcmp(argv[3], "--group") != 0)
            return usage();
        group_field = argv[4];
    }
    GDALAllRegister();
    GDALDatasetH ds = GDALOpenEx(argv[1], GDAL_OF_VECTOR | GDAL_OF_READONLY,
                                 NULL, NULL, NULL);
    if (ds == NULL) {
        fprintf(stderr, "vsgbench_measure: cannot open %s\n", argv[1]);
        return 1;
    }
    OGRLayerH lyr = GDALDatasetGetLayerByName(ds, argv[2]);
    if (lyr == NULL) {
        fprintf(stderr, "vsgbench_measure: no layer %s in %s\n", argv[2], argv[1]);
        GDALClose(ds);
        return 1;
    }
    int gidx = -1;
    if (group_field != NULL) {
        gidx = OGR_FD_GetFieldIndex(OGR_L_GetLayerDefn(lyr), group_field);
        if (gidx < 0) {
            fprintf(stderr, "vsgbench_measure: no field %s in layer %s\n",
                    group_field, argv[2]);
            GDALClose(ds);
            return 1;
        }
    }

    measures m;
    memset(&m, 0, sizeof m);
    m.grouped = group_field != NULL;
    int oom = 0;
    OGRFeatureH f;
    CPLErrorReset();
    OGR_L_ResetReading(lyr);
    while (!oom && (f = OGR_L_GetNextFeature(lyr)) != NULL) {
        m.features++;
        OGRGeometryH g = OGR_F_GetGeometryRef(f);
        double area = 0.0;
        if (g == NULL) {
            m.nulls++;
        } else {
            entry *t = table_get(&m.types, OGR_G_GetGeometryName(g));
            if (t == NULL)
                oom = 1;
            else
                t->n++;
            if (OGR_G_IsEmpty(g)) {
                m.empties++;
            } else {
                m.vertices += count_vertices(g);
                area = OGR_G_Area(g);
                bench_sum_add(&m.area, area);
                add_lengths(g, &m.length);
                if (!OGR_G_IsValid(g))
                    m.invalid++;
            }
        }
        if (gidx >= 0 && !oom) {
            const char *key = OGR_F_IsFieldSetAndNotNull(f, gidx)
                                  ? OGR_F_GetFieldAsString(f, gidx) : "null";
            entry *e = table_get(&m.groups, key);
            if (e == NULL)
                oom = 1;
            else
                e->area += area;
        }
        OGR_F_Destroy(f);
    }
    /* a read error ends GetNextFeature like the end of the layer does */
    int read_failed = CPLGetLastErrorType() >= CE_Failure;
    GDALClose(ds);
    int rc = 0;
    if (oom || read_failed) {
        fprintf(stderr, "vsgbench_measure: %s\n",
                oom ? "out of memory" : "error while reading the layer");
        rc = 1;
    } else {
        print_json(&m);
    }
    table_free(&m.types);
    table_free(&m.groups);
    return rc;
}
