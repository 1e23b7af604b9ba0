/*
 * ogrvsgpumethodsource.cpp - opening the other datasets a statement names
 * ('path'.layer). A SQL string can come from anywhere (a QGIS project, a
 * script), so by default it reaches local files only, through file-based
 * vector drivers: no network file systems, no connection strings, and no
 * VRT or GDALG file that could chain to either (METHOD_SOURCES=LOCAL).
 * METHOD_SOURCES=ANY opens whatever GDAL can, as before.
 */
#include "ogr_vsgpu.h"

#include "cpl_conv.h"
#include "cpl_string.h"
#include "cpl_vsi.h"

namespace vsgpu
{

namespace
{

/* VSI handlers that reach the network or a process's standard input,
 * anywhere in the path (also inside /vsizip/ and the like). */
const char *const kRemoteHandlers[] = {
    "/vsicurl", "/vsis3",      "/vsigs",      "/vsiaz",  "/vsiadls",
    "/vsioss",  "/vsiswift",   "/vsihdfs",    "/vsiwebhdfs",
    "/vsistdin", "/vsicached?", "/vsiplugin"};

/* Drivers that read other sources named inside a local file, or run
 * programs: refused even for local files. */
const char *const kChainingDrivers[] = {"VRT", "OGR_VRT", "GDALG",
                                        "GPSBabel"};

bool IsChaining(const char *driver)
{
    for (const char *d : kChainingDrivers)
        if (EQUAL(driver, d))
            return true;
    return false;
}

/* The vector drivers a local path may be opened with. */
CPLStringList LocalVectorDrivers()
{
    CPLStringList out;
    for (int i = 0; i < GDALGetDriverCount(); ++i)
    {
        GDALDriver *d = GetGDALDriverManager()->GetDriver(i);
        if (d == nullptr || !CPLTestBool(CSLFetchNameValueDef(
                                d->GetMetadata(), GDAL_DCAP_VECTOR, "NO")))
            continue;
        if (d->GetMetadataItem(GDAL_DMD_CONNECTION_PREFIX) != nullptr ||
            IsChaining(d->GetDescription()) ||
            EQUAL(d->GetDescription(), "VSGPU"))
            continue;
        out.AddString(d->GetDescription());
    }
    return out;
}

bool Refuse(const char *path, const char *why)
{
    CPLError(CE_Failure, CPLE_NotSupported,
             "VSGPU: the dataset '%s' named in the statement is refused: %s. "
             "Statements reach local files through file-based vector drivers "
             "only; the open option METHOD_SOURCES=ANY (or --config "
             "VSGPU_METHOD_SOURCES ANY) allows any source GDAL can open",
             path, why);
    return false;
}

}  // namespace

GDALDataset *OpenStatementDataset(const char *path, bool allow_any,
                                  bool *refused)
{
    *refused = false;
    const unsigned flags =
        GDAL_OF_VECTOR | GDAL_OF_READONLY | GDAL_OF_VERBOSE_ERROR;
    if (allow_any)
        return GDALDataset::FromHandle(
            GDALOpenEx(path, flags, nullptr, nullptr, nullptr));
    const CPLString lower = CPLString(path).tolower();
    for (const char *h : kRemoteHandlers)
        if (strstr(lower.c_str(), h) != nullptr)
        {
            *refused = true;
            Refuse(path, CPLSPrintf("%s reaches beyond this machine", h));
            return nullptr;
        }
    VSIStatBufL st;
    if (VSIStatL(path, &st) != 0)
    {
        /* Not a file: a connection string (PG:..., WFS:...) or a typo. */
        *refused = true;
        Refuse(path, "it is not an existing local file or folder");
        return nullptr;
    }
    /* Identification reads the file's header only, and opens nothing it
     * names: a VRT or GDALG file is refused before it is opened. */
    GDALDriverH ident = GDALIdentifyDriverEx(path, GDAL_OF_VECTOR, nullptr, nullptr);
    if (ident != nullptr && IsChaining(GDALGetDescription(ident)))
    {
        *refused = true;
        Refuse(path, CPLSPrintf("the %s driver opens other sources",
                                GDALGetDescription(ident)));
        return nullptr;
    }
    const CPLStringList drivers = LocalVectorDrivers();
    GDALDataset *ds = GDALDataset::FromHandle(
        GDALOpenEx(path, flags, drivers.List(), nullptr, nullptr));
    if (ds == nullptr)
        return nullptr; /* GDAL said why (VERBOSE_ERROR) */
    const char *drv = ds->GetDriver() ? ds->GetDriver()->GetDescription() : "";
    if (IsChaining(drv))
    {
        GDALClose(GDALDataset::ToHandle(ds));
        *refused = true;
        Refuse(path, CPLSPrintf("the %s driver opens other sources", drv));
        return nullptr;
    }
    return ds;
}

}  // namespace vsgpu
