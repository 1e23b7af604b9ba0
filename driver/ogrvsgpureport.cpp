/*
 * ogrvsgpureport.cpp - what a statement tells its user: the VSGPU metadata
 * domain of the result layer, the one end-of-stream CE_Warning that names
 * every dropped or changed feature count, and the VSGPU_PROFILE trace.
 */
#include "ogr_vsgpu.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "cpl_conv.h"
#include "cpl_string.h"

#include <cctype>
#include <map>

namespace vsgpu
{

namespace
{

struct Counter
{
    const char *key;
    int64_t value;
    const char *what; /* for the warning; nullptr: metadata only */
};

std::vector<Counter> Counters(const ReportState &st)
{
    vsg_counts zero{};
    const vsg_counts &c = st.engine ? *vsg_engine_counts(st.engine) : zero;
    const char *invalid = st.plan->opts.invalid == VSG_INVALID_SKIP
                              ? "invalid geometries skipped (INVALID=SKIP)"
                              : "invalid geometries skipped (not repairable)";
    return {
        {"INVALID_REPAIRED", c.invalid_repaired,
         "invalid geometries repaired (INVALID=REPAIR)"},
        {"INVALID_SKIPPED", c.invalid_skipped, invalid},
        {"RINGS_CLOSED", c.rings_closed, "unclosed rings closed"},
        {"NONFINITE_SKIPPED", c.nonfinite_skipped,
         "geometries with NaN or infinite coordinates skipped"},
        {"CORRUPT_SKIPPED", c.corrupt_skipped, "unreadable geometries skipped"},
        {"UNSUPPORTED_SKIPPED", c.unsupported_skipped,
         "geometries of an unsupported type (TIN, PolyhedralSurface, "
         "Triangle) skipped"},
        /* An unreadable geometry reaches the engine as a null one: it is
         * counted as unreadable, not as NULL. */
        {"NULL_GEOMETRIES",
         std::max<int64_t>(0, c.null_geometries -
                                  static_cast<int64_t>(
                                      st.driver->unreadable_geometries)),
         "null geometries ignored"},
        {"UNREADABLE_GEOMETRIES", st.driver->unreadable_geometries,
         "geometries the source driver could not read skipped"},
        {"EMPTY_GEOMETRIES", c.empty_geometries, "empty geometries ignored"},
        {"CURVES_LINEARIZED", st.driver->curves_linearized,
         "curve geometries linearised"},
        {"REPROJECTION_FAILED", st.driver->reprojection_failed,
         "method geometries that could not be reprojected (CRS_MISMATCH="
         "REPROJECT) ignored"},
        {"FAILURES_SKIPPED", c.failures_skipped,
         "GEOS failures skipped (SKIP_FAILURES=YES)"},
        {"LOWER_DIMENSION_DROPPED", c.lower_dim_dropped,
         "results of lower dimension dropped "
         "(KEEP_LOWER_DIMENSION_GEOMETRIES=NO)"},
        {"TYPE_SKIPPED", c.type_skipped,
         "parts of a lower dimension dropped from groups"},
        {"CANDIDATE_PAIRS", c.candidate_pairs, nullptr},
        {"CONTAINED_SHORTCUTS", c.contained_shortcuts, nullptr},
        {"COVERAGE_UNION_GROUPS", c.coverage_union_groups, nullptr},
        {"UNARY_UNION_GROUPS", c.unary_union_groups, nullptr},
        {"GPU_ROWS", c.gpu_rows, nullptr},
        /* named in the warning with its reason (WarnSummary) */
        {"GPU_ROWS_RERUN_ON_CPU", c.gpu_rows_rerun_on_cpu, nullptr},
        {"GPU_PAIRS", c.gpu_pairs, nullptr},
        {"GPU_PAIRS_RERUN_ON_CPU", c.gpu_pairs_rerun_on_cpu, nullptr},
        {"GPU_GROUPS", c.gpu_groups, nullptr},
        {"GPU_GROUPS_RERUN_ON_CPU", c.gpu_groups_rerun_on_cpu, nullptr},
    };
}

std::string StageKey(const char *stage)
{
    std::string k = "TIME_";
    for (const char *p = stage; *p; ++p)
        k += std::isalnum(static_cast<unsigned char>(*p))
                 ? static_cast<char>(
                       std::toupper(static_cast<unsigned char>(*p)))
                 : '_';
    return k + "_S";
}

/* The GPU pool's statistics as KEY=VALUE (none when the pipeline did not
 * run): the metadata domain and the trace's statement object share them. */
std::vector<std::string> GpuPoolReport(const vsg_engine *engine)
{
    vsg_gpu_stats r;
    if (engine == nullptr || !vsg_engine_gpu_report(engine, &r))
        return {};
    const struct
    {
        const char *key;
        int64_t value;
    } items[] = {{"GPU_POOL_PEAK_BYTES", r.peak_bytes},
                 {"GPU_POOL_ALLOCATIONS", r.allocations},
                 {"GPU_POOL_RETRIES", r.retries},
                 {"GPU_POOL_FAILED", r.failed},
                 {"GPU_BYTES_H2D", r.bytes_h2d},
                 {"GPU_BYTES_D2H", r.bytes_d2h}};
    std::vector<std::string> out;
    for (const auto &it : items)
        out.push_back(std::string(it.key) + "=" +
                      CPLSPrintf(CPL_FRMT_GIB, static_cast<GIntBig>(it.value)));
    return out;
}

}  // namespace

CPLStringList BuildMetadata(const ReportState &st)
{
    CPLStringList md;
    const Plan &p = *st.plan;
    md.SetNameValue("OPERATION", OpName(p.op));
    md.SetNameValue("REQUESTED_MODE", vsg_exec_mode_name(p.dispatch.requested));
    md.SetNameValue("SELECTED_RUNTIME",
                    vsg_runtime_name(p.dispatch.selected));
    md.SetNameValue("FALLBACK_REASON", p.dispatch.reason);
    md.SetNameValue("THREADS",
                    CPLSPrintf("%d", st.engine ? vsg_engine_num_threads(st.engine)
                                     : p.opts.num_threads > 0 ? p.opts.num_threads
                                                              : CPLGetNumCPUs()));
    md.SetNameValue("INPUT_FEATURES",
                    CPLSPrintf(CPL_FRMT_GIB, st.driver->input_features));
    md.SetNameValue("METHOD_FEATURES",
                    CPLSPrintf(CPL_FRMT_GIB, st.driver->method_features));
    md.SetNameValue("OUTPUT_FEATURES",
                    CPLSPrintf(CPL_FRMT_GIB, st.driver->output_features));
    for (const Counter &c : Counters(st))
        md.SetNameValue(c.key,
                        CPLSPrintf(CPL_FRMT_GIB, static_cast<GIntBig>(c.value)));
    md.SetNameValue("ELAPSED_S", CPLSPrintf("%.6f", st.elapsed_s));
    if (st.engine && vsg_engine_gpu_device(st.engine)[0])
        md.SetNameValue("GPU_DEVICE", vsg_engine_gpu_device(st.engine));
    if (st.engine && vsg_engine_gpu_note(st.engine)[0])
        md.SetNameValue("GPU_NOTE", vsg_engine_gpu_note(st.engine));
    for (const std::string &kv : GpuPoolReport(st.engine))
    {
        const size_t eq = kv.find('=');
        md.SetNameValue(kv.substr(0, eq).c_str(), kv.substr(eq + 1).c_str());
    }

    std::map<std::string, double> stages;
    if (st.engine)
    {
        const vsg_profile *prof =
            vsg_engine_profile(const_cast<vsg_engine *>(st.engine));
        const size_t n = prof ? vsg_profile_count(prof) : 0;
        for (size_t i = 0; i < n; ++i)
        {
            const char *stage = nullptr, *device = nullptr;
            double el = 0;
            int64_t a, b, c, d, e;
            if (vsg_profile_get(prof, i, &stage, &device, &el, &a, &b, &c, &d,
                                &e) &&
                stage)
                stages[StageKey(stage)] += el;
        }
    }
    for (const auto &kv : stages)
        md.SetNameValue(kv.first.c_str(), CPLSPrintf("%.6f", kv.second));
    md.SetNameValue("COMPLETE", st.complete ? "YES" : "NO");
    return md;
}

/* Why the GPU refine handed pairs back, for those who tune it
 * (CPL_DEBUG=VSGPU): the reason bits of elements/overlay/refine.h and
 * elements/union/coverage.h, each counted over the pairs that have it. */
void DebugRefineReasons(const ReportState &st, const vsg_counts *gc)
{
    static const char *const names[16] = {
        "cov_input", "cov_ring",  "cov_match", "cov_node",  "cov_noding",
        "cov_nesting", "cov_point", "cov_empty", "input",   "unsure",
        "order",     "node",      "label",     "nolabel",   "bit14",
        "bit15"};
    std::string why;
    for (int b = 0; b < 16; b++)
        if (gc->gpu_pairs_rerun_why[b] > 0)
            why += CPLSPrintf(" %s=" CPL_FRMT_GIB, names[b],
                              static_cast<GIntBig>(gc->gpu_pairs_rerun_why[b]));
    CPLDebug(VSGPU_DEBUG, "%s: GPU refine hand-backs by reason:%s",
             OpName(st.plan->op), why.c_str());
}

void WarnSummary(const ReportState &st)
{
    std::string text;
    for (const Counter &c : Counters(st))
    {
        if (c.what == nullptr || c.value == 0)
            continue;
        if (!text.empty())
            text += ", ";
        text += CPLSPrintf(CPL_FRMT_GIB " %s", static_cast<GIntBig>(c.value),
                           c.what);
    }
    /* Rows that left the GPU pipeline: counted, with the reason. */
    const vsg_counts *gc = st.engine ? vsg_engine_counts(st.engine) : nullptr;
    if (gc && gc->gpu_rows_rerun_on_cpu > 0)
    {
        if (!text.empty())
            text += ", ";
        text += CPLSPrintf(CPL_FRMT_GIB " rows re-run on the CPU engine (%s)",
                           static_cast<GIntBig>(gc->gpu_rows_rerun_on_cpu),
                           vsg_engine_gpu_note(st.engine));
    }
    else if (gc && vsg_engine_gpu_note(st.engine)[0])
    {
        /* The dispatch's quick probe found a driver, but the device did not
         * open (AUTO): the CPU engine ran everything. */
        if (!text.empty())
            text += ", ";
        text += CPLSPrintf("every row re-run on the CPU engine (%s)",
                           vsg_engine_gpu_note(st.engine));
    }
    if (gc && gc->gpu_pairs_rerun_on_cpu > 0)
        DebugRefineReasons(st, gc);
    if (text.empty())
        return;
    CPLError(CE_Warning, CPLE_AppDefined, "VSGPU: %s: %s",
             OpName(st.plan->op), text.c_str());
}

void WriteProfile(const ReportState &st, vsg_engine *engine)
{
    const Plan &p = *st.plan;
    if (p.opts.profile_path.empty() || engine == nullptr)
        return;
    const std::string meta_s[] = {
        std::string("OPERATION=") + OpName(p.op),
        "SQL=" + p.sql,
        std::string("REQUESTED_MODE=") +
            vsg_exec_mode_name(p.dispatch.requested),
        std::string("SELECTED_RUNTIME=") +
            vsg_runtime_name(p.dispatch.selected),
        std::string("FALLBACK_REASON=") + p.dispatch.reason,
        std::string("THREADS=") +
            CPLSPrintf("%d", vsg_engine_num_threads(engine)),
    };
    const std::vector<std::string> pool = GpuPoolReport(engine);
    std::vector<const char *> meta;
    for (const std::string &s : meta_s)
        meta.push_back(s.c_str());
    for (const std::string &s : pool)
        meta.push_back(s.c_str());
    meta.push_back(nullptr);
    errno = 0;
    const vsg_status rc = vsg_profile_write_json(
        vsg_engine_profile(engine), p.opts.profile_path.c_str(), meta.data());
    const int err = errno;
    if (rc != VSG_OK)
        CPLError(CE_Warning, CPLE_FileIO,
                 "VSGPU: cannot write the profile (VSGPU_PROFILE) to '%s': %s",
                 p.opts.profile_path.c_str(),
                 rc == VSG_ERR_IO && err != 0 ? strerror(err)
                                              : vsg_status_name(rc));
    else
        CPLDebug(VSGPU_DEBUG, "profile written to %s",
                 p.opts.profile_path.c_str());
}

}  // namespace vsgpu
