/* vsgbench_algebra: GDAL's own OGR_L_Intersection / OGR_L_Clip, timed, for
 * the benchmark rail.
 *
 *   vsgbench_algebra {intersection|clip} IN.gpkg LAYER METHOD.gpkg LAYER
 *                    OUT.gpkg [--skip-failures]
 *
 * The GPU host has no GDAL Python bindings, so the reference engine "what a
 * GDAL user has today" is run through the C API. The result goes into a new
 * GeoPackage layer "result" of type MultiPolygon in the input's CRS, with
 * PROMOTE_TO_MULTI=YES and KEEP_LOWER_DIMENSION_GEOMETRIES=NO (VSGPU's
 * default: areal results only; a Polygon layer would otherwise receive
 * MultiPolygons), inside one transaction (without it every feature would be
 * its own SQLite transaction and the writing would dominate).
 *
 * Prints one JSON line: {"features": N, "wall_s": t, "error": null|"text"}.
 * wall_s runs from opening the inputs to closing the output (written and
 * flushed): the same span an ogr2ogr run would cover, without process start.
 * Exit status 0 on success, 1 on any failure (the JSON line is still
 * printed, with the features written so far); 2 on bad usage.
 */
#include "bench_json.h"

#include <stdio.h>
#include <string.h>

#include <cpl_conv.h>
#include <cpl_error.h>
#include <cpl_string.h>
#include <cpl_vsi.h>
#include <gdal.h>
#include <ogr_api.h>
#include <ogr_srs_api.h>

/* The first CE_Failure (or worse) message: the one that names the cause. */
static char g_first_error[1024];

static void CPL_STDCALL record_error(CPLErr cls, CPLErrorNum num, const char *msg)
{
    (void)num;
    if (cls >= CE_Failure && g_first_error[0] == '\0' && msg != NULL)
        snprintf(g_first_error, sizeof g_first_error, "%s", msg);
    if (cls >= CE_Warning)
        fprintf(stderr, "%s: %s\n", cls == CE_Warning ? "Warning" : "ERROR", msg);
}

static int usage(void)
{
    fprintf(stderr,
            "usage: vsgbench_algebra {intersection|clip} IN.gpkg LAYER "
            "METHOD.gpkg LAYER OUT.gpkg [--skip-failures]\n");
    return 2;
}

static GDALDatasetH open_vector(const char *path)
{
    return GDALOpenEx(path, GDAL_OF_VECTOR | GDAL_OF_READONLY, NULL, NULL, NULL);
}

static int report(long long features, double t0, const char *error)
{
    printf("{\"features\": %lld, \"wall_s\": ", features);
    bench_json_number(stdout, bench_now() - t0);
    fputs(", \"error\": ", stdout);
    bench_json_string(stdout, error);
    fputs("}\n", stdout);
    fflush(stdout);
    return error == NULL ? 0 : 1;
}

static const char *error_or(const char *fallback)
{
    return g_first_error[0] ? g_first_error : fallback;
}

int main(int argc, char **argv)
{
    if (argc != 7 && argc != 8)
        return usage();
    const char *op = argv[1];
    int is_clip = strcmp(op, "clip") == 0;
    if (!is_clip && strcmp(op, "intersection") != 0)
        return usage();
    int skip_failures = 0;
    if (argc == 8) {
        if (strcmp(argv[7], "--skip-failures") != 0)
            return usage();
        skip_failures = 1;
    }
    const char *in_path = argv[2], *in_layer = argv[3];
    const char *m_path = argv[4], *m_layer = argv[5], *out_path = argv[6];

    CPLPushErrorHandler(record_error);
    GDALAllRegister();

    double t0 = bench_now();
    GDALDatasetH in_ds = open_vector(in_path);
    GDALDatasetH m_ds = in_ds ? open_vector(m_path) : NULL;
    if (in_ds == NULL || m_ds == NULL) {
        if (in_ds)
            GDALClose(in_ds);
        return report(0, t0, error_or("cannot open an input dataset"));
    }
    OGRLayerH in_lyr = GDALDatasetGetLayerByName(in_ds, in_layer);
    OGRLayerH m_lyr = GDALDatasetGetLayerByName(m_ds, m_layer);
    if (in_lyr == NULL || m_lyr == NULL) {
        GDALClose(m_ds);
        GDALClose(in_ds);
        return report(0, t0, in_lyr == NULL ? "input layer not found"
                                            : "method layer not found");
    }

    GDALDriverH gpkg = GDALGetDriverByName("GPKG");
    if (gpkg == NULL) {
        GDALClose(m_ds);
        GDALClose(in_ds);
        return report(0, t0, "GDAL has no GPKG driver");
    }
    VSIUnlink(out_path);   /* a stale file would make Create fail */
    GDALDatasetH out_ds = GDALCreate(gpkg, out_path, 0, 0, 0, GDT_Unknown, NULL);
    OGRLayerH out_lyr = NULL;
    if (out_ds != NULL)
        out_lyr = GDALDatasetCreateLayer(out_ds, "result", OGR_L_GetSpatialRef(in_lyr),
                                         wkbMultiPolygon, NULL);
    if (out_lyr == NULL) {
        if (out_ds)
            GDALClose(out_ds);
        GDALClose(m_ds);
        GDALClose(in_ds);
        return report(0, t0, error_or("cannot create the output layer"));
    }

    char **options = NULL;
    options = CSLSetNameValue(options, "PROMOTE_TO_MULTI", "YES");
    options = CSLSetNameValue(options, "KEEP_LOWER_DIMENSION_GEOMETRIES", "NO");
    options = CSLSetNameValue(options, "SKIP_FAILURES", skip_failures ? "YES" : "NO");

    int in_txn = GDALDatasetStartTransaction(out_ds, FALSE) == OGRERR_NONE;
    OGRErr err = is_clip ? OGR_L_Clip(in_lyr, m_lyr, out_lyr, options, NULL, NULL)
                         : OGR_L_Intersection(in_lyr, m_lyr, out_lyr, options, NULL, NULL);
    CSLDestroy(options);
    OGRErr cerr = in_txn ? GDALDatasetCommitTransaction(out_ds) : OGRERR_NONE;
    long long features = (long long)OGR_L_GetFeatureCount(out_lyr, TRUE);

    GDALClose(out_ds);   /* writes the spatial index and flushes */
    GDALClose(m_ds);
    GDALClose(in_ds);

    const char *error = NULL;
    if (err != OGRERR_NONE)
        error = error_or(is_clip ? "OGR_L_Clip failed" : "OGR_L_Intersection failed");
    else if (cerr != OGRERR_NONE)
        error = error_or("cannot commit the output");
    return report(features, t0, error);
}
