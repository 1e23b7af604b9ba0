/*
 * ogrvsgpualgorithm.h - what the `gdal vector gpu-*` algorithms share
 * (GDAL >= 3.11, VSGPU_HAVE_GDAL_ALGORITHMS): the input and output
 * arguments of GDAL's own vector algorithms, the engine options as
 * arguments, and one run: open VSGPU:<input>, ExecuteSQL a VSGPU statement,
 * write its result layer to the output dataset.
 *
 * Running the dialect's statement, rather than calling the engine, is what
 * makes an algorithm's output, warnings and VSGPU metadata the dialect's.
 *
 *   ogrvsgpualgorithm.cpp   arguments, the run
 *   ogrvsgpualgwrite.cpp    the output dataset and the copy of the result
 *   ogrvsgpualgorithms.cpp  gpu-layer-algebra, gpu-clip, gpu-dissolve and
 *                           their registration
 */
#ifndef OGRVSGPUALGORITHM_H_INCLUDED
#define OGRVSGPUALGORITHM_H_INCLUDED

#include "ogr_vsgpu_compat.h"

#if VSGPU_HAVE_GDAL_ALGORITHMS

#include "gdalalgorithm.h"

#include <string>
#include <vector>

/* GDAL's own algorithms mark help texts with _() for translation; a plugin
 * has no catalogue, so the texts stay as written. */
#ifndef _
#define _(x) (x)
#endif

namespace vsgpu
{

/* SQL quoting for the statements the algorithms build. */
std::string QuoteIdentifier(const std::string &name); /* "a""b"     */
std::string QuoteString(const std::string &text);     /* 'it''s'    */

class VSGPUAlgorithm CPL_NON_FINAL : public GDALAlgorithm
{
  public:
    ~VSGPUAlgorithm() override;

  protected:
    VSGPUAlgorithm(const std::string &name, const std::string &description,
                   const std::string &help_url);

    /* Which engine options an algorithm takes (docs/options.md). */
    enum EngineArgs
    {
        kCommonEngineArgs = 0,  /* --execution-mode, --invalid, --num-threads */
        kOverlayEngineArgs = 1, /* + --keep-lower-dimension, --promote-to-multi,
                                   --skip-failures */
        kPrefixEngineArgs = 2   /* + --input-prefix, --method-prefix */
    };

    /* Positional arguments are declared in order, so the algorithms call
     * these in the order of their usage line. */
    void AddInputArgs(bool layer_short_names);
    void AddOutputArgs();
    void AddEngineArgs(int which);

    /* The VSGPU statement on `input` (a layer of src, the wrapped source
     * opened as VSGPU:<input>). false: ReportError emitted. */
    virtual bool BuildStatement(GDALDataset *src, OGRLayer *input,
                                std::string *sql) = 0;

    /* The input dataset's name as the user gave it. */
    std::string InputName() const;

    GDALArgDatasetValue m_inputDataset{};
    std::string m_inputLayerName{};
    std::vector<std::string> m_openOptions{};

  private:
    bool RunImpl(GDALProgressFunc pfnProgress, void *pProgressData) override;

    /* KEY=VALUE open options of VSGPU:<input>: the engine options given as
     * arguments (those not given keep their VSGPU_* configuration option),
     * SRC_<name> for --open-option, and SQL_FALLBACK=NO: an algorithm only
     * ever runs the engine. false: ReportError emitted. */
    bool OpenOptions(CPLStringList *out);
    OGRLayer *InputLayer(GDALDataset *src);

    /* ---- ogrvsgpualgwrite.cpp ---------------------------------------- */

    /* The driver of --output-format, or the one the output name implies. */
    GDALDriver *OutputDriver();
    /* An existing output: an error without --overwrite, deleted with it. */
    bool ClearOutput(GDALDriver *driver);
    /* Creates the output dataset and layer and copies `result` into it,
     * progress passed through from the result layer; a failed copy leaves
     * no output. */
    bool WriteResult(GDALDriver *driver, OGRLayer *result,
                     const std::string &layer_name, GDALProgressFunc progress,
                     void *progress_data);
    bool CopyResult(GDALDataset *out, OGRLayer *result,
                    const std::string &layer_name, GDALProgressFunc progress,
                    void *progress_data);

    GDALArgDatasetValue m_outputDataset{};
    std::string m_format{};
    std::vector<std::string> m_creationOptions{};
    std::vector<std::string> m_layerCreationOptions{};
    std::string m_outputLayerName{};
    bool m_overwrite = false;

    std::string m_executionMode{};
    std::string m_invalid{};
    std::string m_numThreads{};
    bool m_keepLowerDimension = false;
    bool m_promoteToMulti = false;
    bool m_skipFailures = false;
    std::string m_inputPrefix{};
    std::string m_methodPrefix{};
};

}  // namespace vsgpu

#endif /* VSGPU_HAVE_GDAL_ALGORITHMS */

#endif /* OGRVSGPUALGORITHM_H_INCLUDED */
