/*
 * ogrvsgpudriver.cpp - registration of the VSGPU driver.
 *
 * Every GDAL process (QGIS included) loads the plugin at start-up, so
 * registration only declares metadata (and, from GDAL 3.11, the `gdal
 * vector gpu-*` algorithms): no CUDA, no engine, no I/O.
 */
#include "ogr_vsgpu.h"

#include "cpl_conv.h"
#include "cpl_string.h"

#ifndef VSGPU_VERSION
#define VSGPU_VERSION "unknown"
#endif

/* Identify: the connection prefix, and nothing else. */
int OGRVSGPUDataset::Identify(GDALOpenInfo *info)
{
    return info != nullptr && info->pszFilename != nullptr &&
           STARTS_WITH_CI(info->pszFilename, VSGPU_PREFIX);
}

GDALDataset *OGRVSGPUDataset::Open(GDALOpenInfo *info)
{
    if (!Identify(info))
        return nullptr;
    try
    {
        const char *source = info->pszFilename + strlen(VSGPU_PREFIX);
        if (source[0] == '\0')
        {
            CPLError(CE_Failure, CPLE_OpenFailed,
                     "VSGPU: no source after the VSGPU: prefix "
                     "(use VSGPU:<any OGR dataset>)");
            return nullptr;
        }

        /* SRC_<name>=<value> goes to the wrapped source as <name>=<value>;
         * the rest are ours. */
        CPLStringList src_options;
        CPLStringList own_options;
        for (CSLConstList p = info->papszOpenOptions; p && *p; ++p)
        {
            if (STARTS_WITH_CI(*p, "SRC_"))
                src_options.AddString(*p + 4);
            else
                own_options.AddString(*p);
        }

        /* Validate our options now, so that a typo fails the open. */
        vsgpu::Options opts;
        if (!vsgpu::ResolveOptions(nullptr, 0, own_options.List(), &opts))
            return nullptr;
        bool fallback = true;
        if (!vsgpu::ResolveSqlFallback(own_options.List(), &fallback))
            return nullptr;

        unsigned flags = GDAL_OF_VECTOR | GDAL_OF_VERBOSE_ERROR;
        if (info->eAccess == GA_Update)
            flags |= GDAL_OF_UPDATE;
        GDALDataset *wrapped = GDALDataset::FromHandle(
            GDALOpenEx(source, flags, nullptr, src_options.List(), nullptr));
        if (wrapped == nullptr)
        {
            CPLError(CE_Failure, CPLE_OpenFailed,
                     "VSGPU: cannot open the source '%s' as a vector dataset",
                     source);
            return nullptr;
        }

        auto ds = std::make_unique<OGRVSGPUDataset>();
        ds->m_wrapped = wrapped;
        ds->m_source = source;
        ds->m_open_options = own_options;
        ds->SetDescription(info->pszFilename);
        ds->eAccess = info->eAccess;
        CPLDebug(VSGPU_DEBUG, "opened '%s' (%s, %d layers)", source,
                 wrapped->GetDriver() ? wrapped->GetDriver()->GetDescription()
                                      : "?",
                 wrapped->GetLayerCount());
        return ds.release();
    }
    catch (const std::bad_alloc &)
    {
        CPLError(CE_Failure, CPLE_OutOfMemory, "VSGPU: out of memory");
    }
    catch (const std::exception &e)
    {
        CPLError(CE_Failure, CPLE_AppDefined, "VSGPU: %s", e.what());
    }
    return nullptr;
}

static void RegisterDriver()
{
    if (GDALGetDriverByName("VSGPU") != nullptr)
        return;

    GDALDriver *driver = new GDALDriver();
    driver->SetDescription("VSGPU");
    driver->SetMetadataItem(GDAL_DCAP_VECTOR, "YES");
    driver->SetMetadataItem(GDAL_DMD_LONGNAME,
                            "VSGPU: GPU polygon intersection, clip and "
                            "dissolve");
    driver->SetMetadataItem(GDAL_DMD_HELPTOPIC, "docs/usage.md");
    driver->SetMetadataItem("DMD_HELPTOPIC_URL", "docs/usage.md");
    driver->SetMetadataItem(GDAL_DMD_CONNECTION_PREFIX, VSGPU_PREFIX);
    driver->SetMetadataItem(GDAL_DMD_SUPPORTED_SQL_DIALECTS,
                            "VSGPU NATIVE OGRSQL SQLITE");
    driver->SetMetadataItem(GDAL_DMD_OPENOPTIONLIST,
                            vsgpu::OpenOptionListXML());
    driver->SetMetadataItem(GDAL_DCAP_MULTIPLE_VECTOR_LAYERS, "YES");
    driver->SetMetadataItem("VSGPU_VERSION", VSGPU_VERSION);

    driver->pfnIdentify = OGRVSGPUDataset::Identify;
    driver->pfnOpen = OGRVSGPUDataset::Open;

    GetGDALDriverManager()->RegisterDriver(driver);
    /* Under the driver's guard: declared once per process as well. */
    vsgpu::RegisterAlgorithms();
}

CPL_C_START
__attribute__((visibility("default"))) void RegisterOGRVSGPU(void);
__attribute__((visibility("default"))) void GDALRegisterMe(void);
CPL_C_END

void RegisterOGRVSGPU(void)
{
    try
    {
        if (!GDAL_CHECK_VERSION("VSGPU"))
            return;
        RegisterDriver();
    }
    catch (...)
    {
        CPLError(CE_Failure, CPLE_AppDefined,
                 "VSGPU: the driver could not be registered");
    }
}

void GDALRegisterMe(void)
{
    RegisterOGRVSGPU();
}
