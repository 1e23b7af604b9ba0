/*
 * ogrvsgpudriver.cpp - registration of the VSGPU driver.
 *
 * Every GDAL process (QGIS included) loads the plugin at start-up, so
 * registration only declares metadata (and, from GDAL 3.11, the `gdal
 * vector gpu-*` algorithms): no CUDA, no engine, no I/O. The .vsgpu
 * descriptor is read in ogrvsgpudescriptor.cpp.
 */
#include "ogr_vsgpu.h"

#include "cpl_conv.h"
#include "cpl_string.h"

#ifndef VSGPU_VERSION
#define VSGPU_VERSION "unknown"
#endif

/* Identify: the connection prefix, or a .vsgpu descriptor (extension and
 * first line: GDAL calls this for every file a program browses). */
int OGRVSGPUDataset::Identify(GDALOpenInfo *info)
{
    if (info == nullptr || info->pszFilename == nullptr)
        return FALSE;
    return STARTS_WITH_CI(info->pszFilename, VSGPU_PREFIX) ||
           vsgpu::IsDescriptor(info);
}

GDALDataset *OGRVSGPUDataset::Open(GDALOpenInfo *info)
{
    if (!Identify(info))
        return nullptr;
    try
    {
        if (!STARTS_WITH_CI(info->pszFilename, VSGPU_PREFIX))
        {
            std::string source;
            CPLStringList options;
            if (!vsgpu::ReadDescriptor(info->pszFilename, &source, &options))
                return nullptr;
            /* Open options given at open time override the file's. */
            for (CSLConstList p = info->papszOpenOptions; p && *p; ++p)
            {
                char *key = nullptr;
                const char *value = CPLParseNameValue(*p, &key);
                if (key && value)
                    options.SetNameValue(key, value);
                CPLFree(key);
            }
            return OpenSource(info, source.c_str(), options.List(),
                              info->pszFilename);
        }
        const char *source = info->pszFilename + strlen(VSGPU_PREFIX);
        if (source[0] == '\0')
        {
            CPLError(CE_Failure, CPLE_OpenFailed,
                     "VSGPU: no source after the VSGPU: prefix "
                     "(use VSGPU:<any OGR dataset>)");
            return nullptr;
        }
        return OpenSource(info, source, info->papszOpenOptions, nullptr);
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

GDALDataset *OGRVSGPUDataset::OpenSource(GDALOpenInfo *info,
                                         const char *source,
                                         CSLConstList open_options,
                                         const char *descriptor)
{
    /* SRC_<name>=<value> goes to the wrapped source as <name>=<value>, and
     * so does NOLOCK; the rest are ours. */
    CPLStringList src_options;
    CPLStringList own_options;
    for (CSLConstList p = open_options; p && *p; ++p)
    {
        if (STARTS_WITH_CI(*p, "SRC_"))
            src_options.AddString(*p + 4);
        else if (STARTS_WITH_CI(*p, "NOLOCK="))
            src_options.AddString(*p); /* see OpenOptionListXML() */
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
    bool dialect_vsgpu = false;
    if (!vsgpu::ResolveDialect(own_options.List(), &dialect_vsgpu))
        return nullptr;

    unsigned flags = GDAL_OF_VECTOR | GDAL_OF_VERBOSE_ERROR;
    if (info->eAccess == GA_Update)
        flags |= GDAL_OF_UPDATE;
    GDALDataset *wrapped = GDALDataset::FromHandle(
        GDALOpenEx(source, flags, nullptr, src_options.List(), nullptr));
    if (wrapped == nullptr)
    {
        CPLError(CE_Failure, CPLE_OpenFailed,
                 "VSGPU: cannot open the source '%s'%s%s as a vector dataset",
                 source, descriptor ? " named by " : "",
                 descriptor ? descriptor : "");
        return nullptr;
    }

    auto ds = std::make_unique<OGRVSGPUDataset>();
    ds->m_wrapped = wrapped;
    ds->m_source = source;
    ds->m_open_options = own_options;
    ds->m_src_options = src_options;
    ds->m_dialect_vsgpu = dialect_vsgpu;
    ds->m_descriptor = descriptor ? descriptor : "";
    ds->SetDescription(info->pszFilename);
    ds->eAccess = info->eAccess;
    CPLDebug(VSGPU_DEBUG, "opened '%s'%s%s (%s, %d layers%s)", source,
             descriptor ? " from " : "", descriptor ? descriptor : "",
             wrapped->GetDriver() ? wrapped->GetDriver()->GetDescription()
                                  : "?",
             wrapped->GetLayerCount(),
             dialect_vsgpu ? ", DIALECT=VSGPU" : "");
    return ds.release();
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
    /* The .vsgpu descriptor: what file dialogs (QGIS) list and open. */
    driver->SetMetadataItem(GDAL_DMD_EXTENSIONS, "vsgpu");
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
