/*
 * ogrvsgpualgorithms.cpp - `gdal vector gpu-layer-algebra`, `gpu-clip` and
 * `gpu-dissolve` (GDAL >= 3.11): each builds the VSGPU statement of its
 * arguments; VSGPUAlgorithm runs it and writes the result.
 *
 * Their arguments follow GDAL's own `gdal vector layer-algebra` and
 * `gdal vector clip`, so that a command line carries over with `gpu-` in
 * front. Before GDAL 3.11 a plugin cannot declare algorithms: then
 * RegisterAlgorithms() does nothing.
 */
#include "ogr_vsgpu.h"
#include "ogrvsgpualgorithm.h"

#if VSGPU_HAVE_GDAL_ALGORITHMS

#include "cpl_conv.h"
#include "cpl_string.h"

#include <memory>

namespace vsgpu
{

namespace
{

constexpr const char *kHelpURL = "docs/usage.md";

/* A dataset name without the VSGPU: prefix, to compare two names. */
std::string Unwrapped(const std::string &name)
{
    return STARTS_WITH_CI(name.c_str(), VSGPU_PREFIX)
               ? name.substr(strlen(VSGPU_PREFIX))
               : name;
}

/* ---- gpu-layer-algebra ------------------------------------------------ */

class GPULayerAlgebraAlgorithm final : public VSGPUAlgorithm
{
  public:
    static constexpr const char *NAME = "gpu-layer-algebra";

    GPULayerAlgebraAlgorithm()
        : VSGPUAlgorithm(NAME,
                         _("Intersection or clip of two layers on the VSGPU "
                           "engine (ST_Intersection, ST_Clip)."),
                         kHelpURL)
    {
        AddArg("operation", 0, _("Operation to perform"), &m_operation)
            .SetChoices("intersection", "clip")
            .SetRequired()
            .SetPositional();
        AddInputArgs(/* layer_short_names = */ false);
        AddArg("method", 0, _("Method vector dataset"), &m_methodDataset,
               GDAL_OF_VECTOR)
            .SetRequired()
            .SetPositional()
            .SetAutoOpenDataset(false);
        AddOutputArgs();
        AddArg("method-layer", 0,
               _("Method layer name (default: the only layer)"),
               &m_methodLayerName);
        AddEngineArgs(kOverlayEngineArgs | kPrefixEngineArgs);
    }

  private:
    std::string m_operation{};
    GDALArgDatasetValue m_methodDataset{};
    std::string m_methodLayerName{};

    std::string MethodName() const
    {
        if (!m_methodDataset.GetName().empty())
            return m_methodDataset.GetName();
        const GDALDataset *ds = m_methodDataset.GetDatasetRef();
        return ds ? ds->GetDescription() : std::string();
    }

    /* The method layer's name in ds, the dataset that holds it. */
    bool MethodLayer(GDALDataset *ds, std::string *name)
    {
        if (m_methodLayerName.empty())
        {
            if (ds->GetLayerCount() != 1)
            {
                ReportError(CE_Failure, CPLE_AppDefined,
                            "Method dataset '%s' has %d layers: name one "
                            "with --method-layer",
                            MethodName().c_str(), ds->GetLayerCount());
                return false;
            }
            *name = ds->GetLayer(0)->GetName();
            return true;
        }
        if (ds->GetLayerByName(m_methodLayerName.c_str()) == nullptr)
        {
            ReportError(CE_Failure, CPLE_AppDefined,
                        "Cannot get method layer '%s'",
                        m_methodLayerName.c_str());
            return false;
        }
        *name = m_methodLayerName;
        return true;
    }

    bool BuildStatement(GDALDataset *src, OGRLayer *input,
                        std::string *sql) override
    {
        /* The method layer is a layer of the input's dataset, or one of
         * another dataset written 'path'.layer (docs/dialect.md), which
         * the statement opens read-only. */
        const std::string method = Unwrapped(MethodName());
        std::string layer;
        std::string method_ref;
        if (method == Unwrapped(InputName()))
        {
            if (!MethodLayer(src, &layer))
                return false;
            method_ref = QuoteIdentifier(layer);
        }
        else
        {
            DatasetPtr ds(GDALDataset::Open(
                method.c_str(), GDAL_OF_VECTOR | GDAL_OF_VERBOSE_ERROR));
            if (!ds || !MethodLayer(ds.get(), &layer))
                return false;
            method_ref = QuoteString(method) + "." + QuoteIdentifier(layer);
        }
        *sql = std::string("SELECT * FROM ") +
               (m_operation == "clip" ? "ST_Clip(" : "ST_Intersection(") +
               QuoteIdentifier(input->GetName()) + ", " + method_ref + ")";
        return true;
    }
};

/* ---- gpu-clip ------------------------------------------------------------ */

class GPUClipAlgorithm final : public VSGPUAlgorithm
{
  public:
    static constexpr const char *NAME = "gpu-clip";

    GPUClipAlgorithm()
        : VSGPUAlgorithm(NAME,
                         _("Clip a vector layer by a rectangle on the VSGPU "
                           "engine (ST_ClipByRect)."),
                         kHelpURL)
    {
        AddInputArgs(/* layer_short_names = */ true);
        AddOutputArgs();
        AddBBOXArg(&m_bbox,
                   _("Clipping rectangle as xmin,ymin,xmax,ymax, in the "
                     "CRS of the input layer"))
            .SetRequired();
        AddEngineArgs(kOverlayEngineArgs);
    }

  private:
    std::vector<double> m_bbox{};

    bool BuildStatement(GDALDataset *, OGRLayer *input,
                        std::string *sql) override
    {
        if (m_bbox.size() != 4)
        {
            ReportError(CE_Failure, CPLE_IllegalArg,
                        "--bbox takes four values: xmin,ymin,xmax,ymax");
            return false;
        }
        /* %.17g gives the double back exactly; CPLsnprintf writes '.'
         * whatever the locale. */
        std::string rect;
        for (double v : m_bbox)
        {
            char buf[64];
            CPLsnprintf(buf, sizeof(buf), "%.17g", v);
            rect += std::string(", ") + buf;
        }
        *sql = "SELECT * FROM ST_ClipByRect(" +
               QuoteIdentifier(input->GetName()) + rect + ")";
        return true;
    }
};

/* ---- gpu-dissolve -------------------------------------------------------- */

class GPUDissolveAlgorithm final : public VSGPUAlgorithm
{
  public:
    static constexpr const char *NAME = "gpu-dissolve";

    GPUDissolveAlgorithm()
        : VSGPUAlgorithm(NAME,
                         _("Union the geometries of a vector layer per group "
                           "of field values on the VSGPU engine (ST_Union "
                           "... GROUP BY)."),
                         kHelpURL)
    {
        AddInputArgs(/* layer_short_names = */ true);
        AddOutputArgs();
        AddArg("group-by", 0,
               _("Field(s) whose values make the groups (default: the "
                 "whole layer is one group)"),
               &m_groupBy);
        AddEngineArgs(kCommonEngineArgs);
    }

  private:
    std::vector<std::string> m_groupBy{};

    bool BuildStatement(GDALDataset *, OGRLayer *input,
                        std::string *sql) override
    {
        OGRFeatureDefn *defn = input->GetLayerDefn();
        std::string keys;
        for (const std::string &field : m_groupBy)
        {
            if (defn->GetFieldIndex(field.c_str()) < 0)
            {
                ReportError(CE_Failure, CPLE_AppDefined,
                            "Field '%s' of --group-by is not a field of "
                            "layer '%s'",
                            field.c_str(), input->GetName());
                return false;
            }
            keys += (keys.empty() ? "" : ", ") + QuoteIdentifier(field);
        }
        /* The output keeps the input's geometry column name; a source
         * with an unnamed one (Shapefile) is named by the generic name
         * the dialect takes for it. */
        const std::string geom = input->GetGeometryColumn();
        const std::string geom_ref =
            QuoteIdentifier(geom.empty() ? "_ogr_geometry_" : geom);
        *sql = "SELECT " + (keys.empty() ? "" : keys + ", ") + "ST_Union(" +
               geom_ref + ")" + (geom.empty() ? "" : " AS " + geom_ref) +
               " FROM " + QuoteIdentifier(input->GetName()) +
               (keys.empty() ? "" : " GROUP BY " + keys);
        return true;
    }
};

template <class Algorithm> void Declare()
{
    GDALGlobalAlgorithmRegistry::GetSingleton().DeclareAlgorithm(
        {"vector", Algorithm::NAME},
        []() -> std::unique_ptr<GDALAlgorithm>
        { return std::make_unique<Algorithm>(); });
}

}  // namespace

void RegisterAlgorithms()
{
    /* Declaring costs a function object each: nothing is instantiated
     * until `gdal vector gpu-...` (or gdal.Run) asks for it. */
    Declare<GPULayerAlgebraAlgorithm>();
    Declare<GPUClipAlgorithm>();
    Declare<GPUDissolveAlgorithm>();
}

}  // namespace vsgpu

#else /* !VSGPU_HAVE_GDAL_ALGORITHMS */

void vsgpu::RegisterAlgorithms()
{
}

#endif /* VSGPU_HAVE_GDAL_ALGORITHMS */
