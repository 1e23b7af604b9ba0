/*
 * ogrvsgpudataset.cpp - the VSGPU:<source> dataset: forwards everything to
 * the wrapped dataset, except ExecuteSQL with the VSGPU dialect.
 */
#include "ogr_vsgpu.h"

#include "cpl_conv.h"
#include "cpl_string.h"

#include <memory>
#include <new>

namespace
{

/* The statement line that holds the error, and a caret under its column. */
std::string CaretLines(const char *sql, int line, int column)
{
    const char *p = sql;
    for (int l = 1; l < line && *p; ++p)
        if (*p == '\n')
            ++l;
    const char *end = p;
    while (*end && *end != '\n' && *end != '\r')
        ++end;
    std::string text(p, end);
    std::string caret;
    for (int i = 0; i < column - 1 && i < static_cast<int>(text.size()); ++i)
        caret += text[i] == '\t' ? '\t' : ' ';
    return text + "\n" + caret + "^";
}

/* The WKB bytes of a layer's first rows, for AUTO's large-rows rule
 * (vsgpu_dispatch.h): at most VSG_DISPATCH_SAMPLE_ROWS features, and no
 * more once they hold kSampleBytes (rows of 10^6 vertices would cost
 * their parse for nothing: a few already say the rows are large), read
 * quietly (what they would say is said again when the statement reads
 * them) and the layer rewound. */
constexpr int64_t kSampleBytes = int64_t(4) << 20;

void SampleRows(OGRLayer *layer, int64_t *sample_rows, int64_t *sample_bytes)
{
    CPLErrorStateBackuper keep;
    CPLPushErrorHandler(CPLQuietErrorHandler);
    layer->ResetReading();
    for (int i = 0; i < VSG_DISPATCH_SAMPLE_ROWS && *sample_bytes < kSampleBytes; ++i)
    {
        std::unique_ptr<OGRFeature> f(layer->GetNextFeature());
        if (!f)
            break;
        ++*sample_rows;
        if (const OGRGeometry *g = f->GetGeometryRef())
            *sample_bytes += static_cast<int64_t>(g->WkbSize());
    }
    layer->ResetReading();
    CPLPopErrorHandler();
}

}  // namespace

OGRVSGPUDataset::~OGRVSGPUDataset()
{
    /* Result layers read the wrapped layers: they go first. */
    for (OGRLayer *l : m_results)
        delete l;
    m_results.clear();
    for (auto &kv : m_fallback_results)
    {
        kv.second->ReleaseResultSet(kv.first);
        GDALClose(GDALDataset::ToHandle(kv.second));
    }
    m_fallback_results.clear();
    if (m_wrapped)
        GDALClose(GDALDataset::ToHandle(m_wrapped));
}

/* ---- forwarding --------------------------------------------------------- */

int OGRVSGPUDataset::GetLayerCount() VSGPU_CONST_ACCESSOR
{
    return m_wrapped->GetLayerCount();
}

OGRLayer *OGRVSGPUDataset::GetLayer(int i) VSGPU_CONST_ACCESSOR
{
    return m_wrapped->GetLayer(i);
}

OGRLayer *OGRVSGPUDataset::GetLayerByName(const char *name)
{
    return m_wrapped->GetLayerByName(name);
}

OGRErr OGRVSGPUDataset::DeleteLayer(int i)
{
    return m_wrapped->DeleteLayer(i);
}

int OGRVSGPUDataset::TestCapability(const char *cap) VSGPU_CONST_ACCESSOR
{
    return m_wrapped->TestCapability(cap);
}

OGRLayer *OGRVSGPUDataset::ICreateLayer(VSGPU_ICREATELAYER_PARAMS)
{
    return m_wrapped->CreateLayer(VSGPU_ICREATELAYER_ARGS);
}

OGRErr OGRVSGPUDataset::StartTransaction(int force)
{
    return m_wrapped->StartTransaction(force);
}

OGRErr OGRVSGPUDataset::CommitTransaction()
{
    return m_wrapped->CommitTransaction();
}

OGRErr OGRVSGPUDataset::RollbackTransaction()
{
    return m_wrapped->RollbackTransaction();
}

std::vector<std::string>
OGRVSGPUDataset::GetFieldDomainNames(CSLConstList options) const
{
    return m_wrapped->GetFieldDomainNames(options);
}

const OGRFieldDomain *
OGRVSGPUDataset::GetFieldDomain(const std::string &name) const
{
    return m_wrapped->GetFieldDomain(name);
}

bool OGRVSGPUDataset::AddFieldDomain(std::unique_ptr<OGRFieldDomain> &&domain,
                                     std::string &failure)
{
    return m_wrapped->AddFieldDomain(std::move(domain), failure);
}

std::vector<std::string>
OGRVSGPUDataset::GetRelationshipNames(CSLConstList options) const
{
    return m_wrapped->GetRelationshipNames(options);
}

const GDALRelationship *
OGRVSGPUDataset::GetRelationship(const std::string &name) const
{
    return m_wrapped->GetRelationship(name);
}

char **OGRVSGPUDataset::GetMetadataDomainList()
{
    return m_wrapped->GetMetadataDomainList();
}

VSGPUMetadataList OGRVSGPUDataset::GetMetadata(const char *domain)
{
    return m_wrapped->GetMetadata(domain);
}

const char *OGRVSGPUDataset::GetMetadataItem(const char *name,
                                             const char *domain)
{
    return m_wrapped->GetMetadataItem(name, domain);
}

CPLErr OGRVSGPUDataset::SetMetadata(VSGPUMetadataList md, const char *domain)
{
    return m_wrapped->SetMetadata(md, domain);
}

CPLErr OGRVSGPUDataset::SetMetadataItem(const char *name, const char *value,
                                        const char *domain)
{
    return m_wrapped->SetMetadataItem(name, value, domain);
}

VSGPUFlushResult OGRVSGPUDataset::FlushCache(bool at_closing)
{
    return m_wrapped->FlushCache(at_closing);
}

char **OGRVSGPUDataset::GetFileList()
{
    char **files = m_wrapped->GetFileList();
    if (m_descriptor.empty())
        return files;
    /* The descriptor is part of the dataset: copying or removing it with
     * GDAL's tools takes it along. */
    CPLStringList list;
    list.AddString(m_descriptor.c_str());
    for (char **p = files; p && *p; ++p)
        list.AddString(*p);
    CSLDestroy(files);
    return list.StealList();
}

OGRStyleTable *OGRVSGPUDataset::GetStyleTable()
{
    return m_wrapped->GetStyleTable();
}

/* ---- SQL ---------------------------------------------------------------- */

/* Routing (docs/usage.md): the VSGPU dialect runs here; every other
 * dialect goes to the wrapped dataset. Under DIALECT=VSGPU a call with no
 * dialect (nullptr or "", what QGIS sends for subset strings and Execute
 * SQL) is offered to the VSGPU dialect first and otherwise forwarded as it
 * came, so that the caller's own SQL (feature counts, filters) is answered
 * by the wrapped dataset exactly as without the option. */
OGRLayer *OGRVSGPUDataset::ExecuteSQL(const char *sql,
                                      OGRGeometry *spatial_filter,
                                      const char *dialect)
{
    if (sql == nullptr)
        return nullptr;
    const bool no_dialect = dialect == nullptr || dialect[0] == '\0';
    Route route = Route::Explicit;
    if (no_dialect && m_dialect_vsgpu)
        route = Route::Default;
    else if (dialect == nullptr || !EQUAL(dialect, "VSGPU"))
        return m_wrapped->ExecuteSQL(sql, spatial_filter, dialect);
    try
    {
        return ExecuteVSGPU(sql, spatial_filter, route, dialect);
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

void OGRVSGPUDataset::ReleaseResultSet(OGRLayer *layer)
{
    if (layer == nullptr)
        return;
    auto it = m_results.find(layer);
    if (it != m_results.end())
    {
        m_results.erase(it);
        delete layer;
        return;
    }
    auto fb = m_fallback_results.find(layer);
    if (fb != m_fallback_results.end())
    {
        GDALDataset *ro = fb->second;
        m_fallback_results.erase(fb);
        ro->ReleaseResultSet(layer);
        GDALClose(GDALDataset::ToHandle(ro));
        return;
    }
    m_wrapped->ReleaseResultSet(layer);
}

OGRLayer *OGRVSGPUDataset::FallbackToSQLite(const char *sql,
                                            OGRGeometry *spatial_filter,
                                            const char *reason)
{
    bool enabled = false;
    if (!vsgpu::ResolveSqlFallback(m_open_options.List(), &enabled))
        return nullptr;
    if (!enabled)
    {
        CPLError(CE_Failure, CPLE_NotSupported,
                 "VSGPU: %s. This is not a VSGPU statement: run it with "
                 "-dialect SQLite (SQL_FALLBACK=YES runs a read-only SELECT "
                 "with the SQLite dialect instead)",
                 reason);
        return nullptr;
    }
    std::string why;
    if (!vsgpu::IsReadOnlySelect(sql, &why))
    {
        CPLError(CE_Failure, CPLE_NotSupported,
                 "VSGPU: %s, and the SQLite fallback runs only one read-only "
                 "SELECT (%s): -dialect VSGPU never changes data. Use "
                 "-dialect SQLite for this statement",
                 reason, why.c_str());
        return nullptr;
    }
    /* A read-only handle of the source: SQLite's own defences aside, a
     * statement run through -dialect VSGPU cannot write. */
    GDALDataset *ro = GDALDataset::FromHandle(
        GDALOpenEx(m_source.c_str(), GDAL_OF_VECTOR | GDAL_OF_VERBOSE_ERROR,
                   nullptr, m_src_options.List(), nullptr));
    if (ro == nullptr)
    {
        CPLError(CE_Failure, CPLE_OpenFailed,
                 "VSGPU: %s; the SQLite fallback could not open '%s' "
                 "read-only",
                 reason, m_source.c_str());
        return nullptr;
    }
    CPLError(CE_Warning, CPLE_AppDefined,
             "VSGPU: %s; running the SELECT with the SQLite dialect on a "
             "read-only handle of the source (SQL_FALLBACK=YES)",
             reason);
    OGRLayer *layer = ro->ExecuteSQL(sql, spatial_filter, "SQLITE");
    if (layer == nullptr)
    {
        GDALClose(GDALDataset::ToHandle(ro));
        return nullptr;
    }
    m_fallback_results[layer] = ro;
    return layer;
}

/* The DIALECT=VSGPU route for a statement VSGPU does not take: the
 * wrapped dataset gets it unchanged, without a warning (it is often the
 * caller's own SQL, not the user's). */
OGRLayer *OGRVSGPUDataset::Forward(const char *sql,
                                   OGRGeometry *spatial_filter,
                                   const char *dialect, const char *why)
{
    CPLDebug(VSGPU_DEBUG, "DIALECT=VSGPU: forwarding to the wrapped dataset "
             "(%s): %s", why, sql);
    return m_wrapped->ExecuteSQL(sql, spatial_filter, dialect);
}

/* The VSGPU dialect: parse, bind, decide the runtime, make the result
 * layer. The engine runs when the caller reads features. */
OGRLayer *OGRVSGPUDataset::ExecuteVSGPU(const char *sql,
                                        OGRGeometry *spatial_filter,
                                        Route route, const char *dialect)
{
    CPLDebug(VSGPU_DEBUG, "parse%s: %s",
             route == Route::Default ? " (DIALECT=VSGPU)" : "", sql);
    vsg_statement *raw = nullptr;
    vsg_parse_error err{};
    const vsg_parse_result pr = vsg_sql_parse(sql, &raw, &err);
    std::unique_ptr<vsg_statement, void (*)(vsg_statement *)> stmt(
        raw, vsg_statement_free);
    err.message[sizeof(err.message) - 1] = '\0';
    switch (pr)
    {
        case VSG_PARSE_OK:
            break;
        case VSG_PARSE_SYNTAX_ERROR:
            /* The VSGPU grammar is narrower than SQLite's: under DIALECT=
             * VSGPU a statement it cannot read is the wrapped dataset's,
             * unless it calls a construct only VSGPU has (a table function
             * after FROM, ST_Union with GROUP BY): then the user meant
             * VSGPU, and the syntax error is the useful answer. */
            if (route == Route::Default &&
                !vsg_sql_uses_vsgpu_construct(sql))
                return Forward(sql, spatial_filter, dialect,
                               "not VSGPU syntax");
            CPLError(CE_Failure, CPLE_AppDefined,
                     "VSGPU SQL syntax error at line %d, column %d: %s\n%s",
                     err.line, err.column, err.message,
                     CaretLines(sql, err.line, err.column).c_str());
            return nullptr;
        case VSG_PARSE_NOT_VSGPU:
            if (route == Route::Default)
                return Forward(sql, spatial_filter, dialect,
                               "not a VSGPU statement");
            return FallbackToSQLite(
                sql, spatial_filter,
                err.message[0] ? err.message
                               : "not one of the VSGPU statement forms");
        case VSG_PARSE_NOMEM:
        default:
            CPLError(CE_Failure, CPLE_OutOfMemory,
                     "VSGPU: out of memory while parsing the statement");
            return nullptr;
    }
    if (!stmt)
    {
        CPLError(CE_Failure, CPLE_AppDefined,
                 "VSGPU: the parser returned no statement");
        return nullptr;
    }

    CPLDebug(VSGPU_DEBUG, "bind");
    auto plan = std::make_unique<vsgpu::Plan>();
    std::string reason;
    switch (vsgpu::Bind(this, m_source.c_str(), sql, stmt.get(),
                        m_open_options.List(), plan.get(), &reason))
    {
        case vsgpu::BindResult::Ok:
            break;
        case vsgpu::BindResult::NotVSGPU:
            plan.reset();
            if (route == Route::Default)
                return Forward(sql, spatial_filter, dialect, reason.c_str());
            return FallbackToSQLite(sql, spatial_filter, reason.c_str());
        case vsgpu::BindResult::Failed:
        default:
            return nullptr;
    }

    /* -spat: the input layer only (docs/usage.md). */
    if (spatial_filter)
        plan->spatial_filter.reset(spatial_filter->clone());

    const char *op = vsgpu::OpName(plan->op);
    /* the rows the statement reads: the overlays' method layer counts too
     * (the GPU pipeline decodes and uploads it; vsgpu_dispatch.h) */
    GIntBig rows = -1, method_rows = -1;
    if (plan->input.layer->TestCapability(OLCFastFeatureCount))
        rows = plan->input.layer->GetFeatureCount(TRUE);
    const GIntBig input_rows = rows;
    if (rows >= 0 && plan->method.layer != nullptr &&
        plan->method.layer->TestCapability(OLCFastFeatureCount))
    {
        method_rows = plan->method.layer->GetFeatureCount(TRUE);
        if (method_rows >= 0)
            rows += method_rows;
    }
    vsg_dispatch_size size = {rows, {input_rows, method_rows}, {0, 0}, {0, 0}};
    if (vsg_dispatch_wants_sample(plan->opts.mode, vsgpu::EngineOp(plan->op), rows,
                                  plan->opts.gpu_backend_host ? 1 : 0, plan->opts.gpu_min_rows,
                                  plan->opts.gpu_min_bytes))
    {
        SampleRows(plan->input.layer, &size.sample_rows[0], &size.sample_bytes[0]);
        if (method_rows > 0)
            SampleRows(plan->method.layer, &size.sample_rows[1], &size.sample_bytes[1]);
    }
    vsg_dispatch_decide(plan->opts.mode, vsgpu::EngineOp(plan->op), &size,
                        plan->opts.gpu_backend_host ? 1 : 0, plan->opts.gpu_min_rows,
                        plan->opts.gpu_min_bytes, &plan->dispatch);
    plan->dispatch.reason[sizeof(plan->dispatch.reason) - 1] = '\0';
    CPLDebug(VSGPU_DEBUG, "dispatch: %s requested %s, selected %s%s%s", op,
             vsg_exec_mode_name(plan->dispatch.requested),
             vsg_runtime_name(plan->dispatch.selected),
             plan->dispatch.reason[0] ? ": " : "", plan->dispatch.reason);
    if (plan->dispatch.must_fail)
    {
        CPLError(CE_Failure, CPLE_NotSupported,
                 "VSGPU: VSGPU_EXECUTION_MODE=GPU but %s cannot run on the "
                 "GPU: %s",
                 op, plan->dispatch.reason);
        return nullptr;
    }
    if (plan->dispatch.is_fallback)
        CPLError(CE_Warning, CPLE_AppDefined,
                 "VSGPU: %s runs on the CPU engine: %s", op,
                 plan->dispatch.reason);

    OGRLayer *result = nullptr;
    if (plan->op == vsgpu::Op::Dissolve)
        result = new OGRVSGPUDissolveLayer(std::move(plan));
    else
        result = new OGRVSGPUOverlayLayer(std::move(plan));
    m_results.insert(result);
    return result;
}
