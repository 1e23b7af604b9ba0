/*
 * ogrvsgpualgwrite.cpp - the output of the `gdal vector gpu-*` algorithms:
 * the driver (--output-format, or the one the name implies), --overwrite,
 * and the copy of the statement's result layer: its geometry type, SRS and
 * fields, features in transactions, progress, and the VSGPU metadata.
 */
#include "ogrvsgpualgorithm.h"

#if VSGPU_HAVE_GDAL_ALGORITHMS

#include "ogr_vsgpu.h"

#include "cpl_conv.h"
#include "cpl_string.h"
#include "cpl_vsi.h"

#include <algorithm>
#include <memory>

namespace vsgpu
{

namespace
{

/* Features per transaction, where the output driver has efficient ones:
 * large enough that commits cost nothing, small enough that a failure late
 * in a large output has written most of it (as ogr2ogr -gt). */
constexpr GIntBig kFeaturesPerTransaction = 20000;

/* The share of the progress that reading (and writing) the features takes;
 * the last commit and the flush take the rest. */
constexpr double kReadShare = 0.99;

/* Relays the result layer's progress to the algorithm's callback, scaled
 * into [0, kReadShare] and never going down. */
struct ProgressRelay
{
    GDALProgressFunc fn = nullptr;
    void *data = nullptr;
    double last = 0;

    static int CPL_STDCALL Relay(double fraction, const char *message,
                                 void *self)
    {
        auto *r = static_cast<ProgressRelay *>(self);
        r->last = std::max(r->last, std::min(fraction, 1.0) * kReadShare);
        return r->fn(r->last, message, r->data);
    }
};

bool Exists(const std::string &name)
{
    VSIStatBufL st;
    return VSIStatExL(name.c_str(), &st, VSI_STAT_EXISTS_FLAG) == 0;
}

}  // namespace

GDALDriver *VSGPUAlgorithm::OutputDriver()
{
    const std::string &out = m_outputDataset.GetName();
    std::string format = m_format;
    if (format.empty())
    {
        const CPLStringList drivers(GDALGetOutputDriversForDatasetName(
            out.c_str(), GDAL_OF_VECTOR, /* bSingleMatch = */ true,
            /* bEmitWarning = */ true));
        if (drivers.size() != 1)
        {
            ReportError(CE_Failure, CPLE_AppDefined,
                        "Cannot guess the output format from '%s': give it "
                        "with --output-format",
                        out.c_str());
            return nullptr;
        }
        format = drivers[0];
    }
    GDALDriver *driver =
        GetGDALDriverManager()->GetDriverByName(format.c_str());
    if (driver == nullptr ||
        driver->GetMetadataItem(GDAL_DCAP_VECTOR) == nullptr ||
        driver->GetMetadataItem(GDAL_DCAP_CREATE) == nullptr)
    {
        ReportError(CE_Failure, CPLE_AppDefined,
                    "Output format '%s' is not a vector driver that can "
                    "create datasets",
                    format.c_str());
        return nullptr;
    }
    return driver;
}

bool VSGPUAlgorithm::ClearOutput(GDALDriver *driver)
{
    const std::string &out = m_outputDataset.GetName();
    if (!Exists(out))
        return true;
    if (!m_overwrite)
    {
        ReportError(CE_Failure, CPLE_AppDefined,
                    "'%s' already exists. Specify the --overwrite option to "
                    "overwrite it.",
                    out.c_str());
        return false;
    }
    /* The dataset's own driver deletes it with all its files; a file that
     * no driver recognises is unlinked. A directory that is not a dataset
     * is left alone: it may hold anything. */
    GDALDriver::QuietDelete(out.c_str());
    VSIStatBufL st;
    if (VSIStatL(out.c_str(), &st) == 0 && !VSI_ISDIR(st.st_mode))
        VSIUnlink(out.c_str());
    if (Exists(out))
    {
        ReportError(CE_Failure, CPLE_AppDefined,
                    "Cannot delete '%s' to overwrite it with the %s driver",
                    out.c_str(), driver->GetDescription());
        return false;
    }
    return true;
}

/* Creates the layer in out and copies result into it; false on failure
 * (ReportError or the driver's CPLError emitted). */
bool VSGPUAlgorithm::CopyResult(GDALDataset *out, OGRLayer *result,
                                const std::string &layer_name,
                                GDALProgressFunc progress, void *progress_data)
{
    /* The layer is the result's: geometry field (name, type, SRS) and
     * fields, as the dialect defines them. */
    OGRFeatureDefn *defn = result->GetLayerDefn();
    const CPLStringList lco(m_layerCreationOptions);
    OGRLayer *layer = out->CreateLayer(
        layer_name.c_str(),
        defn->GetGeomFieldCount() > 0 ? defn->GetGeomFieldDefn(0) : nullptr,
        lco.List());
    if (layer == nullptr)
        return false;
    /* Output field of each result field: a driver may rename fields
     * (Shapefile truncates names), so the map goes by index. */
    std::vector<int> field_map(defn->GetFieldCount(), -1);
    for (int i = 0; i < defn->GetFieldCount(); ++i)
    {
        OGRFieldDefn field(defn->GetFieldDefn(i));
        if (layer->CreateField(&field) != OGRERR_NONE)
            return false;
        field_map[i] = layer->GetLayerDefn()->GetFieldCount() - 1;
    }

    /* The result layer reports how far the statement is while it is read
     * (SetProgress), and the features are written as they are read: its
     * progress is the algorithm's. Without a callback (--quiet) none is
     * set, which also keeps the PROGRESS open option from printing. */
    ProgressRelay relay;
    relay.fn = progress;
    relay.data = progress_data;
    if (progress != nullptr && !progress(0.0, "", progress_data))
    {
        ReportError(CE_Failure, CPLE_UserInterrupt, "Interrupted by user");
        return false;
    }
    auto *vsgpu_layer = dynamic_cast<OGRVSGPUResultLayer *>(result);
    if (vsgpu_layer != nullptr)
        vsgpu_layer->SetProgress(progress ? ProgressRelay::Relay : nullptr,
                                 progress ? &relay : nullptr);

    const bool transactions = out->TestCapability(ODsCTransactions) != FALSE;
    bool in_transaction =
        transactions && out->StartTransaction(FALSE) == OGRERR_NONE;
    GIntBig written = 0;
    bool ok = true;
    while (ok)
    {
        std::unique_ptr<OGRFeature> feature(result->GetNextFeature());
        if (!feature)
            break;
        OGRFeature copy(layer->GetLayerDefn());
        copy.SetFieldsFrom(feature.get(), field_map.data(), TRUE);
        copy.SetGeometryDirectly(feature->StealGeometry());
        ok = layer->CreateFeature(&copy) == OGRERR_NONE;
        if (ok && in_transaction && ++written % kFeaturesPerTransaction == 0)
        {
            ok = out->CommitTransaction() == OGRERR_NONE;
            in_transaction =
                ok && out->StartTransaction(FALSE) == OGRERR_NONE;
        }
    }
    /* relay lives on this stack only. */
    if (vsgpu_layer != nullptr)
        vsgpu_layer->SetProgress(nullptr, nullptr);

    /* An engine error or an interruption ends the reading early: the
     * statement did not complete, whatever was written. */
    const char *complete = result->GetMetadataItem("COMPLETE", VSGPU_MD_DOMAIN);
    ok = ok && complete != nullptr && EQUAL(complete, "YES");
    if (in_transaction && ok)
        ok = out->CommitTransaction() == OGRERR_NONE;
    else if (in_transaction)
    {
        /* The output is discarded anyway: the error that counts is the
         * one that stopped the copy, not the rollback's. */
        CPLErrorStateBackuper quiet(CPLQuietErrorHandler);
        out->RollbackTransaction();
    }
    if (!ok)
        return false;

    /* The statement's report, complete now, goes with its output (drivers
     * that keep layer metadata store it; GPKG does). */
    VSGPUMetadataList md = result->GetMetadata(VSGPU_MD_DOMAIN);
    if (md != nullptr)
        layer->SetMetadata(md, VSGPU_MD_DOMAIN);
    return true;
}

bool VSGPUAlgorithm::WriteResult(GDALDriver *driver, OGRLayer *result,
                                 const std::string &layer_name,
                                 GDALProgressFunc progress,
                                 void *progress_data)
{
    const std::string &out_name = m_outputDataset.GetName();
    const CPLStringList dsco(m_creationOptions);
    std::unique_ptr<GDALDataset> out(driver->Create(
        out_name.c_str(), 0, 0, 0, GDT_Unknown, dsco.List()));
    if (!out)
    {
        ReportError(CE_Failure, CPLE_AppDefined, "Cannot create '%s'",
                    out_name.c_str());
        return false;
    }
    if (!CopyResult(out.get(), result, layer_name, progress, progress_data))
    {
        /* No partial output: what is there would pass for the result. */
        CPLErrorStateBackuper quiet(CPLQuietErrorHandler);
        out.reset();
        driver->Delete(out_name.c_str());
        return false;
    }
    if (out->FlushCache() != CE_None)
        return false;
    if (progress != nullptr && !progress(1.0, "", progress_data))
    {
        ReportError(CE_Failure, CPLE_UserInterrupt, "Interrupted by user");
        return false;
    }
    /* As GDAL's own algorithms: the output dataset is handed back in the
     * output argument, closed by Finalize() (or the algorithm's end). */
    m_outputDataset.Set(std::move(out));
    return true;
}

}  // namespace vsgpu

#endif /* VSGPU_HAVE_GDAL_ALGORITHMS */
