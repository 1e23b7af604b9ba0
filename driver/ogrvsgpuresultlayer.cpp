/*
 * ogrvsgpuresultlayer.cpp - what every result layer shares: the engine's
 * life (one per stream: ResetReading starts from scratch), the end of the
 * stream (summary warning, metadata, profile, the end of the progress),
 * and the OGRLayer plumbing.
 * Arrow record batches are built in ogrvsgpuarrow.cpp from the same cursor.
 */
#include "ogr_vsgpu.h"

#include "cpl_conv.h"
#include "cpl_string.h"

#include <new>

OGRVSGPUResultLayer::OGRVSGPUResultLayer(std::unique_ptr<vsgpu::Plan> plan)
    : m_plan(std::move(plan))
{
    SetDescription(m_plan->defn->GetName());
}

OGRVSGPUResultLayer::~OGRVSGPUResultLayer()
{
    StopEngine();
    vsgpu::ClearSourceFilters(m_plan->input);
    if (m_plan->method.layer && m_plan->method.layer != m_plan->input.layer)
        vsgpu::ClearSourceFilters(m_plan->method);
}

bool OGRVSGPUResultLayer::StartEngine()
{
    const vsgpu::Options &o = m_plan->opts;
    vsg_engine_options eo;
    vsg_engine_options_init(&eo);
    /* ALL_CPUS stays all cores with read-ahead too: leaving one to the
     * writer was slower on the 16-core GPU host (16.8 s against 19.4 s,
     * world x grid, docs/benchmarks.md). */
    eo.num_threads = o.num_threads;
    eo.invalid = o.invalid;
    eo.skip_failures = o.skip_failures ? 1 : 0;
    eo.promote_to_multi = m_plan->engine_promote ? 1 : 0;
    eo.keep_lower_dim = o.keep_lower_dim ? 1 : 0;
    eo.coverage_union = o.coverage_union ? 1 : 0;
    eo.gpu_refine = o.gpu_refine ? 1 : 0;
    /* a diagnostic switch, not a statement option (docs/options.md) */
    eo.repair_clusters = CPLTestBool(CPLGetConfigOption("VSGPU_REPAIR_CLUSTERS", "YES")) ? 1 : 0;
    /* a diagnostic switch too: AUTO screens validity on a CUDA device, YES
     * on the host backend as well (tests), NO never */
    const char *screen = CPLGetConfigOption("VSGPU_VALID_SCREEN", "AUTO");
    eo.valid_screen = EQUAL(screen, "AUTO") ? 1 : CPLTestBool(screen) ? 2 : 0;
    /* The GPU pipeline, when the statement's one dispatch decision took
     * it (ExecuteVSGPU). */
    eo.gpu.enabled = m_plan->dispatch.selected == VSG_RUNTIME_GPU ? 1 : 0;
    eo.gpu.strict = o.mode == VSG_MODE_GPU ? 1 : 0;
    eo.gpu.backend =
        o.gpu_backend_host ? VSG_GPU_BACKEND_HOST : VSG_GPU_BACKEND_CUDA;
    eo.gpu.settings = o.gpu;
    const vsg_status st = vsg_engine_create(&eo, &m_engine);
    if (st != VSG_OK || m_engine == nullptr)
    {
        m_engine = nullptr;
        CPLError(CE_Failure,
                 st == VSG_ERR_NOMEM ? CPLE_OutOfMemory : CPLE_AppDefined,
                 "VSGPU: cannot create the engine: %s", vsg_status_name(st));
        return false;
    }
    CPLDebug(VSGPU_DEBUG, "%s: engine with %d threads",
             vsgpu::OpName(m_plan->op), vsg_engine_num_threads(m_engine));
    return true;
}

void OGRVSGPUResultLayer::StopEngine()
{
    if (m_engine)
        vsg_engine_destroy(m_engine);
    m_engine = nullptr;
}

void OGRVSGPUResultLayer::AddStage(const char *stage, double t0,
                                   int64_t rows_in, int64_t rows_out)
{
    if (m_engine)
        vsg_profile_add(vsg_engine_profile(m_engine), stage, "CPU",
                        vsg_now_s() - t0, rows_in, rows_out, 0, 0, 0);
}

void OGRVSGPUResultLayer::CopyField(OGRFeature *f, int dst,
                                    const OGRFeature &src, int src_field)
{
    if (!src.IsFieldSet(src_field))
        return;
    if (src.IsFieldNull(src_field))
        f->SetFieldNull(dst);
    else
        f->SetField(dst, const_cast<OGRFeature &>(src).GetRawFieldRef(
                             src_field));
}

OGRFeature *OGRVSGPUResultLayer::FeatureFromWkb(const unsigned char *wkb,
                                                size_t size) const
{
    auto f = std::make_unique<OGRFeature>(m_plan->defn);
    if (wkb != nullptr && size > 0)
    {
        OGRGeometry *g = vsgpu::GeometryFromWkb(
            wkb, size, m_plan->defn->GetGeomFieldDefn(0)->GetSpatialRef());
        if (g == nullptr)
            return nullptr;
        f->SetGeometryDirectly(g);
    }
    return f.release();
}

OGRFeature *OGRVSGPUResultLayer::NewFeature(const unsigned char *wkb,
                                            size_t size)
{
    OGRFeature *f = FeatureFromWkb(wkb, size);
    if (f == nullptr)
    {
        CPLError(CE_Failure, CPLE_AppDefined,
                 "VSGPU: %s: the engine returned an unreadable geometry "
                 "(%u bytes)",
                 vsgpu::OpName(m_plan->op), static_cast<unsigned>(size));
        m_failed = true;
        return nullptr;
    }
    f->SetFID(m_next_fid++);
    return f;
}

void OGRVSGPUResultLayer::Finish()
{
    m_elapsed = vsg_now_s() - m_t0;
    vsgpu::ReportState st;
    st.plan = m_plan.get();
    st.engine = m_engine;
    st.driver = &m_counts;
    st.complete = true;
    st.elapsed_s = m_elapsed;
    CPLDebug(VSGPU_DEBUG,
             "%s: done, " CPL_FRMT_GIB " input, " CPL_FRMT_GIB
             " method, " CPL_FRMT_GIB " output features in %.3f s",
             vsgpu::OpName(m_plan->op), m_counts.input_features,
             m_counts.method_features, m_counts.output_features, m_elapsed);
    if (!m_summary_emitted)
    {
        m_summary_emitted = true;
        vsgpu::WarnSummary(st);
    }
    vsgpu::WriteProfile(st, m_engine);
    m_complete_count = m_counts.output_features;
    m_final_metadata = vsgpu::BuildMetadata(st);
    /* Last, so that 100% means everything is done. */
    if (!m_progress.End())
        m_failed = true;
}

bool OGRVSGPUResultLayer::EnsureStarted()
{
    if (m_started)
        return !m_failed;
    m_started = true;
    m_t0 = vsg_now_s();
    void *progress_data = nullptr;
    GDALProgressFunc progress = ProgressFunc(&progress_data);
    if (!m_progress.Start(progress, progress_data) || !StartEngine() ||
        !Start())
    {
        m_failed = true;
        return false;
    }
    return true;
}

OGRFeature *OGRVSGPUResultLayer::GetNextRawFeature()
{
    if (m_failed || m_eof)
        return nullptr;
    try
    {
        if (!EnsureStarted())
            return nullptr;
        OGRFeature *f = NextResult();
        if (f != nullptr)
        {
            ++m_counts.output_features;
            return f;
        }
        if (!m_failed)
        {
            m_eof = true;
            Finish();
        }
        return nullptr;
    }
    catch (const std::bad_alloc &)
    {
        CPLError(CE_Failure, CPLE_OutOfMemory, "VSGPU: %s: out of memory",
                 vsgpu::OpName(m_plan->op));
    }
    catch (const std::exception &e)
    {
        CPLError(CE_Failure, CPLE_AppDefined, "VSGPU: %s: %s",
                 vsgpu::OpName(m_plan->op), e.what());
    }
    m_failed = true;
    return nullptr;
}

void OGRVSGPUResultLayer::ResetReading()
{
    try
    {
        Stop();
    }
    catch (...)
    {
    }
    StopEngine();
    m_progress.Start(nullptr, nullptr); /* the next read starts it again */
    m_counts = vsgpu::DriverCounts();
    m_next_fid = 0;
    m_started = false;
    m_eof = false;
    m_failed = false;
    m_elapsed = 0;
}

namespace
{

/* s with its runs of whitespace made one space, and trimmed: QGIS joins
 * the lines of a subset string before it runs it, not after. */
std::string Collapsed(const char *s)
{
    std::string out;
    for (const char *p = s; *p; ++p)
    {
        const bool space = *p == ' ' || *p == '\t' || *p == '\n' || *p == '\r';
        if (!space)
            out += *p;
        else if (!out.empty() && out.back() != ' ')
            out += ' ';
    }
    while (!out.empty() && (out.back() == ' ' || out.back() == ';'))
        out.pop_back();
    return out;
}

}  // namespace

/* QGIS's OGR provider runs a subset string that starts with SELECT through
 * ExecuteSQL and then, on some paths, sets the same text as the attribute
 * filter of the layer it got back. GDAL's own filter (OGR SQL) cannot read
 * a SELECT and would fail with a parse error; the statement is what the
 * layer already is, so that filter is no filter. Any other filter is
 * GDAL's, as for every layer. */
OGRErr OGRVSGPUResultLayer::SetAttributeFilter(const char *query)
{
    if (query != nullptr && m_plan &&
        Collapsed(query) == Collapsed(m_plan->sql.c_str()))
    {
        CPLDebug(VSGPU_DEBUG,
                 "attribute filter equal to the layer's statement: none");
        return OGRLayer::SetAttributeFilter(nullptr);
    }
    return OGRLayer::SetAttributeFilter(query);
}

OGRFeatureDefn *OGRVSGPUResultLayer::GetLayerDefn() VSGPU_CONST_ACCESSOR
{
    return m_plan->defn;
}

const char *OGRVSGPUResultLayer::GetName() VSGPU_CONST_ACCESSOR
{
    return m_plan->defn->GetName();
}

OGRwkbGeometryType OGRVSGPUResultLayer::GetGeomType() VSGPU_CONST_ACCESSOR
{
    return m_plan->defn->GetGeomType();
}

GIntBig OGRVSGPUResultLayer::GetFeatureCount(int force)
{
    if (m_complete_count >= 0 && m_poFilterGeom == nullptr &&
        m_poAttrQuery == nullptr)
        return m_complete_count;
    try
    {
        return OGRLayer::GetFeatureCount(force);
    }
    catch (const std::bad_alloc &)
    {
        CPLError(CE_Failure, CPLE_OutOfMemory, "VSGPU: out of memory");
    }
    catch (const std::exception &e)
    {
        CPLError(CE_Failure, CPLE_AppDefined, "VSGPU: %s", e.what());
    }
    return -1;
}

int OGRVSGPUResultLayer::TestCapability(const char *cap) VSGPU_CONST_ACCESSOR
{
    if (EQUAL(cap, OLCStringsAsUTF8))
        return m_plan->input.layer->TestCapability(OLCStringsAsUTF8) &&
               (m_plan->method.layer == nullptr ||
                m_plan->method.layer->TestCapability(OLCStringsAsUTF8));
    if (EQUAL(cap, OLCFastFeatureCount))
        return m_complete_count >= 0 && m_poFilterGeom == nullptr &&
               m_poAttrQuery == nullptr;
    /* TRUE exactly when GetArrowStream() with default options builds its
     * batches from the engine's results (ogrvsgpuarrow.cpp). */
    if (EQUAL(cap, OLCFastGetArrowStream))
    {
        std::string why;
        return ArrowFastPossible(&why);
    }
    return FALSE;
}

/* The VSGPU domain is listed once a read has completed: ogr2ogr copies
 * every listed domain when it creates its output layer, before reading, and
 * must neither copy zeros nor trigger RunToCompletion. */
char **OGRVSGPUResultLayer::GetMetadataDomainList()
{
    if (m_final_metadata.empty())
        return OGRLayer::GetMetadataDomainList();
    return BuildMetadataDomainList(OGRLayer::GetMetadataDomainList(), TRUE,
                                   VSGPU_MD_DOMAIN, nullptr);
}

/* Asked for the VSGPU domain before any read (ogrinfo -mdd VSGPU prints
 * metadata before features): run the statement once, discarding its
 * features, so the counts are those of the whole statement, then rewind.
 * Reading the features afterwards computes them again. */
void OGRVSGPUResultLayer::RunToCompletion()
{
    CPLDebug(VSGPU_DEBUG, "%s: VSGPU metadata asked before reading: "
             "running the statement to completion first",
             vsgpu::OpName(m_plan->op));
    while (OGRFeature *f = GetNextRawFeature())
        delete f;
    if (!m_failed)
        ResetReading();
}

VSGPUMetadataList OGRVSGPUResultLayer::GetMetadata(const char *domain)
{
    if (domain == nullptr || !EQUAL(domain, VSGPU_MD_DOMAIN))
        return OGRLayer::GetMetadata(domain);
    if (!m_started && m_final_metadata.empty())
        RunToCompletion();
    if (!m_started && !m_final_metadata.empty())
        return m_final_metadata.List();
    if (m_started && !m_eof)
        Quiesce();
    vsgpu::ReportState st;
    st.plan = m_plan.get();
    st.engine = m_engine;
    st.driver = &m_counts;
    st.complete = m_eof;
    st.elapsed_s = m_eof ? m_elapsed : (m_started ? vsg_now_s() - m_t0 : 0);
    try
    {
        m_metadata = vsgpu::BuildMetadata(st);
    }
    catch (const std::exception &)
    {
        CPLError(CE_Failure, CPLE_OutOfMemory,
                 "VSGPU: out of memory while building the metadata");
        m_metadata.Clear();
    }
    return m_metadata.List();
}

const char *OGRVSGPUResultLayer::GetMetadataItem(const char *name,
                                                 const char *domain)
{
    if (domain == nullptr || !EQUAL(domain, VSGPU_MD_DOMAIN))
        return OGRLayer::GetMetadataItem(name, domain);
    return CSLFetchNameValue(GetMetadata(domain), name);
}
