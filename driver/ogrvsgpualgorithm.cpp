/*
 * ogrvsgpualgorithm.cpp - the arguments every `gdal vector gpu-*` algorithm
 * shares, and its run: VSGPU:<input>, one VSGPU statement, the result
 * written to the output (ogrvsgpualgwrite.cpp).
 */
#include "ogrvsgpualgorithm.h"

#if VSGPU_HAVE_GDAL_ALGORITHMS

#include "ogr_vsgpu.h"

#include "cpl_conv.h"
#include "cpl_string.h"

#include <cerrno>
#include <climits>
#include <cstdlib>

namespace vsgpu
{

namespace
{

/* Doubles the quote character inside text and puts it around it. */
std::string Quote(const std::string &text, char quote)
{
    std::string out(1, quote);
    for (char c : text)
    {
        out += c;
        if (c == quote)
            out += quote;
    }
    out += quote;
    return out;
}

/* The result set of ExecuteSQL, released before its dataset closes. */
class ResultSet
{
  public:
    ResultSet(GDALDataset *ds, OGRLayer *layer) : m_ds(ds), m_layer(layer)
    {
    }
    ~ResultSet()
    {
        if (m_layer)
            m_ds->ReleaseResultSet(m_layer);
    }
    ResultSet(const ResultSet &) = delete;
    ResultSet &operator=(const ResultSet &) = delete;

  private:
    GDALDataset *m_ds;
    OGRLayer *m_layer;
};

bool IsPositiveInt(const std::string &s)
{
    errno = 0;
    char *end = nullptr;
    const long n = strtol(s.c_str(), &end, 10);
    return errno == 0 && end != s.c_str() && *end == '\0' && n >= 1 &&
           n <= INT_MAX;
}

}  // namespace

std::string QuoteIdentifier(const std::string &name)
{
    return Quote(name, '"');
}

std::string QuoteString(const std::string &text)
{
    return Quote(text, '\'');
}

VSGPUAlgorithm::VSGPUAlgorithm(const std::string &name,
                               const std::string &description,
                               const std::string &help_url)
    : GDALAlgorithm(name, description, help_url)
{
    AddProgressArg();
}

VSGPUAlgorithm::~VSGPUAlgorithm() = default;

void VSGPUAlgorithm::AddInputArgs(bool layer_short_names)
{
    /* Not opened by GDAL: the run opens VSGPU:<input>, the dataset whose
     * ExecuteSQL speaks the VSGPU dialect. */
    AddInputDatasetArg(&m_inputDataset, GDAL_OF_VECTOR)
        .SetAutoOpenDataset(false);
    auto &layer = AddArg("input-layer", layer_short_names ? 'l' : 0,
                         _("Input layer name (default: the only layer)"),
                         &m_inputLayerName);
    if (layer_short_names)
        layer.AddAlias("layer");
    AddOpenOptionsArg(&m_openOptions);
}

void VSGPUAlgorithm::AddOutputArgs()
{
    AddOutputDatasetArg(&m_outputDataset, GDAL_OF_VECTOR);
    AddOutputFormatArg(&m_format);
    AddCreationOptionsArg(&m_creationOptions);
    AddLayerCreationOptionsArg(&m_layerCreationOptions);
    AddOverwriteArg(&m_overwrite);
    AddArg("output-layer", 0,
           _("Output layer name (default: the input layer name)"),
           &m_outputLayerName);
}

void VSGPUAlgorithm::AddEngineArgs(int which)
{
    AddArg("execution-mode", 0,
           _("Where the statement runs (VSGPU_EXECUTION_MODE when not given)"),
           &m_executionMode)
        .SetChoices("AUTO", "CPU", "GPU");
    AddArg("invalid", 0,
           _("What invalid input polygons become (VSGPU_INVALID when not "
             "given)"),
           &m_invalid)
        .SetChoices("REPAIR", "SKIP", "ERROR");
    AddArg("num-threads", 'j',
           _("CPU engine threads: a number or ALL_CPUS (VSGPU_NUM_THREADS "
             "when not given)"),
           &m_numThreads);
    if (which & kOverlayEngineArgs)
    {
        AddArg("keep-lower-dimension", 0,
               _("Keep results of lower dimension than the inputs"),
               &m_keepLowerDimension);
        AddArg("promote-to-multi", 0, _("Every output geometry is Multi"),
               &m_promoteToMulti);
        AddArg("skip-failures", 0,
               _("Skip a pair whose GEOS operation fails instead of failing"),
               &m_skipFailures);
    }
    if (which & kPrefixEngineArgs)
    {
        AddArg("input-prefix", 0, _("Prefix for the fields of the input layer"),
               &m_inputPrefix)
            .SetCategory(GAAC_ADVANCED);
        AddArg("method-prefix", 0,
               _("Prefix for the fields of the method layer"), &m_methodPrefix)
            .SetCategory(GAAC_ADVANCED);
    }
}

std::string VSGPUAlgorithm::InputName() const
{
    if (!m_inputDataset.GetName().empty())
        return m_inputDataset.GetName();
    /* A dataset object (Python): reopened by its name. */
    const GDALDataset *ds = m_inputDataset.GetDatasetRef();
    return ds ? ds->GetDescription() : std::string();
}

bool VSGPUAlgorithm::OpenOptions(CPLStringList *out)
{
    CPLStringList oo;
    /* The engine options go to the VSGPU: dataset as its open options, one
     * slot for all three statement forms (a dissolve takes no statement
     * options): an argument wins over the VSGPU_* configuration option, as
     * in the dialect. */
    if (!m_executionMode.empty())
        oo.SetNameValue("EXECUTION_MODE", m_executionMode.c_str());
    if (!m_invalid.empty())
        oo.SetNameValue("INVALID", m_invalid.c_str());
    if (!m_numThreads.empty())
    {
        if (!EQUAL(m_numThreads.c_str(), "ALL_CPUS") &&
            !IsPositiveInt(m_numThreads))
        {
            ReportError(CE_Failure, CPLE_IllegalArg,
                        "Invalid value '%s' for argument 'num-threads': "
                        "expected a positive integer or ALL_CPUS",
                        m_numThreads.c_str());
            return false;
        }
        oo.SetNameValue("NUM_THREADS", m_numThreads.c_str());
    }
    if (m_keepLowerDimension)
        oo.SetNameValue("KEEP_LOWER_DIMENSION_GEOMETRIES", "YES");
    if (m_promoteToMulti)
        oo.SetNameValue("PROMOTE_TO_MULTI", "YES");
    if (m_skipFailures)
        oo.SetNameValue("SKIP_FAILURES", "YES");
    /* An explicit empty prefix means "no prefix", as in the dialect. */
    const GDALAlgorithmArg *ip = GetArg("input-prefix");
    if (ip && ip->IsExplicitlySet())
        oo.SetNameValue("INPUT_PREFIX", m_inputPrefix.c_str());
    const GDALAlgorithmArg *mp = GetArg("method-prefix");
    if (mp && mp->IsExplicitlySet())
        oo.SetNameValue("METHOD_PREFIX", m_methodPrefix.c_str());
    /* A statement that is not a VSGPU form would run with SQLite: an
     * algorithm promises the engine, so that is an error. */
    oo.SetNameValue("SQL_FALLBACK", "NO");
    for (const std::string &o : m_openOptions)
        oo.AddString(("SRC_" + o).c_str());
    *out = oo;
    return true;
}

OGRLayer *VSGPUAlgorithm::InputLayer(GDALDataset *src)
{
    if (m_inputLayerName.empty())
    {
        if (src->GetLayerCount() == 1)
            return src->GetLayer(0);
        ReportError(CE_Failure, CPLE_AppDefined,
                    "Input dataset '%s' has %d layers: name one with "
                    "--input-layer",
                    InputName().c_str(), src->GetLayerCount());
        return nullptr;
    }
    OGRLayer *layer = src->GetLayerByName(m_inputLayerName.c_str());
    if (layer == nullptr)
        ReportError(CE_Failure, CPLE_AppDefined, "Cannot get input layer '%s'",
                    m_inputLayerName.c_str());
    return layer;
}

bool VSGPUAlgorithm::RunImpl(GDALProgressFunc pfnProgress, void *pProgressData)
{
    /* Output problems first: they cost nothing to find. */
    GDALDriver *driver = OutputDriver();
    if (driver == nullptr || !ClearOutput(driver))
        return false;

    CPLStringList oo;
    if (!OpenOptions(&oo))
        return false;
    std::string name = InputName();
    if (!STARTS_WITH_CI(name.c_str(), VSGPU_PREFIX))
        name = VSGPU_PREFIX + name;
    const char *const vsgpu_only[] = {"VSGPU", nullptr};
    DatasetPtr src(GDALDataset::Open(name.c_str(),
                                     GDAL_OF_VECTOR | GDAL_OF_VERBOSE_ERROR,
                                     vsgpu_only, oo.List()));
    if (!src)
        return false;
    OGRLayer *input = InputLayer(src.get());
    if (input == nullptr)
        return false;

    std::string sql;
    if (!BuildStatement(src.get(), input, &sql))
        return false;
    CPLDebug(VSGPU_DEBUG, "%s: %s", GetName().c_str(), sql.c_str());
    OGRLayer *result = src->ExecuteSQL(sql.c_str(), nullptr, "VSGPU");
    if (result == nullptr)
        return false;
    ResultSet release(src.get(), result);

    const std::string layer_name =
        m_outputLayerName.empty() ? input->GetName() : m_outputLayerName;
    return WriteResult(driver, result, layer_name, pfnProgress,
                       pProgressData);
}

}  // namespace vsgpu

#endif /* VSGPU_HAVE_GDAL_ALGORITHMS */
