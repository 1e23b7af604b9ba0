/*
 * ogrvsgpuoverlaylayer.cpp - ST_Intersection (table function and join),
 * ST_Clip and ST_ClipByRect as a stream.
 *
 * Stream: the method layer is read once (fields kept, geometries into the
 * engine's method index); then the input layer is read BATCH_SIZE features
 * at a time, each batch goes through the engine in one call, and the
 * results (ordered by input, then method) are handed out as features whose
 * fields are copied from the batch's features and the method features.
 * Progress: the input features consumed, of the input's count.
 *
 * Read-ahead (READ_AHEAD=YES, the default): while the caller hands out
 * batch k (and GDAL writes it), a helper thread runs batch k+1 through the
 * engine, and a second one, the reader, reads batch k+2 from the input
 * layer. The reader starts on the first batch as soon as the method layer
 * is read, while the method's index is built (which waits for CUDA's
 * start-up on the GPU). The caller takes a batch when the one before is
 * used up: its counts, profile records and messages then, in the order
 * one thread would have made them (the reader's messages pass through
 * the helper's). Only the reader touches the input layer while it runs,
 * only the helper the engine; the caller touches them only when both are
 * idle (Quiesce waits for the helper, which touches the engine; Stop ends
 * both).
 */
#include "ogr_vsgpu.h"

#include "cpl_conv.h"
#include "cpl_multiproc.h"

#include <algorithm>
#include <atomic>

OGRVSGPUOverlayLayer::OGRVSGPUOverlayLayer(std::unique_ptr<vsgpu::Plan> plan)
    : OGRVSGPUResultLayer(std::move(plan))
{
    vsg_result_init(&m_result);
}

OGRVSGPUOverlayLayer::~OGRVSGPUOverlayLayer()
{
    Stop();
}

OGRVSGPUOverlayLayer::Batch::Batch()
{
    vsg_result_init(&result);
}

OGRVSGPUOverlayLayer::Batch::~Batch()
{
    vsg_result_clear(&result);
}

void OGRVSGPUOverlayLayer::Batch::Clear()
{
    in.Clear();
    vsg_result_clear(&result);
    counts = vsgpu::DriverCounts();
    read = false;
    ok = false;
    built.clear();
    build_s = 0;
    build_rows = 0;
    read_t0 = read_t1 = 0;
    read_thread = 0;
}

void OGRVSGPUOverlayLayer::QuitHelpers()
{
    m_helper.Quit();
    m_reader.Quit();
    m_reading = false;
}

void OGRVSGPUOverlayLayer::Stop()
{
    /* first the helpers: they may be using the engine and the input layer */
    QuitHelpers();
    m_reads = 0;
    m_arrow_in.Close();
    m_ahead = Ahead::None;
    m_next.Clear();
    m_staged.Clear();
    m_built.clear();
    vsg_result_clear(&m_result);
    if (m_index)
        vsg_method_index_destroy(m_index);
    m_index = nullptr;
    m_method_feats.clear();
    m_in.Clear();
    m_pos = 0;
    m_input_done = false;
    m_build_s = 0;
    m_build_rows = 0;
    m_input_total = -1;
}

bool OGRVSGPUOverlayLayer::Start()
{
    const bool method = m_plan->op != vsgpu::Op::ClipRect;
    vsgpu::SourceBatch method_batch;
    if (method && !ReadMethod(&method_batch))
        return false;
    if (!vsgpu::PrepareSource(m_plan->input, m_plan->spatial_filter.get()))
        return false;
    m_input_total = CountInputForProgress();
    /* the input through its Arrow stream where it can be (no feature per
     * row, no geometry built by the driver), as features otherwise */
    if (m_arrow_in.Start(m_plan->input))
        CPLDebug(VSGPU_DEBUG, "layer '%s' read through its Arrow stream, batch after batch",
                 m_plan->input.name.c_str());
    /* the first batch is read while the method is indexed */
    if (m_plan->opts.read_ahead)
        PostRead();
    if (method && !IndexMethod(&method_batch))
    {
        QuitHelpers();
        return false;
    }
    return true;
}

/* An input feature is consumed once all its results are handed out.
 * Results come in input order, so before result m_pos of the batch, the
 * batch's inputs up to input_index[m_pos] (excluded) are consumed; after
 * its last result, the whole batch. */
bool OGRVSGPUOverlayLayer::ReportConsumed()
{
    if (m_input_total <= 0)
        return true; /* unknown: only the end is reported */
    GIntBig consumed = m_counts.input_features;
    if (m_pos < m_result.count && m_result.input_index)
        consumed -= static_cast<GIntBig>(m_in.Size()) -
                    std::max<GIntBig>(0, m_result.input_index[m_pos]);
    return ReportProgress(vsgpu::PhaseFraction(0, 1, consumed, m_input_total));
}

/* Phase 1: the method layer, read once; its geometries go into the index. */
bool OGRVSGPUOverlayLayer::ReadMethod(vsgpu::SourceBatch *batch)
{
    const double t0 = vsg_now_s();
    const vsgpu::Source &method = m_plan->method;
    if (!vsgpu::PrepareSource(method, nullptr))
        return false;
    const bool keep_fields = m_plan->op != vsgpu::Op::Clip;
    if (!vsgpu::ReadWholeSource(method, keep_fields, batch, &m_counts))
        return false;
    m_method_feats = std::move(batch->feats);
    m_counts.method_features = static_cast<GIntBig>(batch->fids.size());
    AddStage("ogr_read_method", t0, static_cast<int64_t>(batch->fids.size()),
             static_cast<int64_t>(batch->fids.size()));
    return true;
}

bool OGRVSGPUOverlayLayer::IndexMethod(vsgpu::SourceBatch *batch)
{
    const vsgpu::Source &method = m_plan->method;
    const std::vector<GIntBig> &fids = batch->fids;
    vsg_wkb_array arr = batch->wkb.View();
    const vsg_status st = vsg_method_index_build(m_engine, &arr, &m_index);
    if (st != VSG_OK || m_index == nullptr)
    {
        vsgpu::ReportEngineError(*m_plan, m_engine, st, "method index", fids,
                                 method);
        return false;
    }
    CPLDebug(VSGPU_DEBUG, "%s: method '%s': " CPL_FRMT_GIB
             " features indexed (dimension %d)",
             vsgpu::OpName(m_plan->op), method.name.c_str(),
             m_counts.method_features, vsg_method_index_dimension(m_index));
    return true;
}

/* The GPU pipeline pays a fixed cost per batch (a few hundred launches,
 * and reads that wait for the device: about 6 ms a batch on an H200,
 * docs/gpu-stages.md "Batches"), so unless BATCH_SIZE is given it takes
 * batches 8 times the CPU engine's, capped by WKB bytes so that a batch
 * of large polygons stays within device memory (about 800 bytes of device
 * memory per input vertex at the peak: 64 MB of WKB, about 4 M vertices,
 * ~3 GB), and up to 4 times that where the device has room for it. */
void OGRVSGPUOverlayLayer::BatchLimits(size_t index, size_t *rows, size_t *bytes) const
{
    *rows = static_cast<size_t>(m_plan->opts.batch_size);
    *bytes = SIZE_MAX;
    if (m_plan->opts.batch_size_set || m_plan->dispatch.selected != VSG_RUNTIME_GPU)
        return;
    size_t scale = 1;
    const int64_t capacity = m_gpu_capacity.load();
    if (capacity > 0)
        scale = std::clamp<size_t>(static_cast<size_t>(capacity) / 8 /
                                       kGpuDeviceBytesPerWkbByte / kGpuBatchBytes,
                                   1, kGpuBatchScaleMax);
    const size_t full_rows = kGpuBatchRows * scale, full_bytes = kGpuBatchBytes * scale;
    *rows = full_rows;
    *bytes = full_bytes;
    /* With read-ahead nothing is written until the first batch is
     * computed: a smaller first batch starts the writer sooner. Writing a
     * batch takes about 4 times as long as computing it (on the H100 host,
     * 0.6 s against 0.16 s for 64 MB of WKB, docs/benchmarks.md run G), so
     * each next batch, 4 times the one before, is computed while the one
     * before is written, and the writer hardly waits for the large ones. */
    if (m_plan->opts.read_ahead)
    {
        size_t r = kGpuBatchRows / kGpuFirstBatchDivisor;
        size_t b = kGpuBatchBytes / kGpuFirstBatchDivisor;
        for (size_t k = 0; k < index && r < full_rows; ++k)
        {
            r *= kGpuBatchGrowth;
            b *= kGpuBatchGrowth;
        }
        *rows = std::min(r, full_rows);
        *bytes = std::min(b, full_bytes);
    }
}

/* The device's free memory as the engine found it, for the batches read
 * from now on (on this thread, while no batch computes). */
void OGRVSGPUOverlayLayer::NoteGpuCapacity()
{
    vsg_gpu_stats s;
    if (m_gpu_capacity.load() == 0 && vsg_engine_gpu_report(m_engine, &s))
        m_gpu_capacity.store(s.capacity_bytes);
}

/* Phase 2: the next batch of input features through the engine: the one
 * the helper computed ahead, or one computed now; then the helper starts
 * on the batch after it. */
bool OGRVSGPUOverlayLayer::NextBatch()
{
    bool ok = false;
    const double t_wait = vsg_now_s();
    const bool waited = m_ahead == Ahead::Posted;
    if (waited)
        ok = m_helper.Wait();
    else if (m_ahead == Ahead::Ready)
        ok = m_next.ok;
    else
        ok = RunBatch(&m_next, false);
    m_ahead = Ahead::None;
    /* the helper is idle: the profile is this thread's. How long this
     * thread waited for it: the helper's work that writing did not hide. */
    if (waited)
        AddStage("read_ahead_wait", t_wait, 1, 1);
    FlushBuildStage();
    NoteGpuCapacity();
    TakeBatch(&m_next);
    if (!ok)
    {
        m_failed = true;
        return false;
    }
    /* Features are built ahead too, unless the caller reads Arrow
     * batches (they are cut from the results, no feature is built). The
     * helper takes the reader's batch and starts it on the next. */
    const bool prebuild = !m_arrow_fast;
    if (!m_input_done && m_plan->opts.read_ahead &&
        m_helper.Post([this, prebuild] { return RunBatch(&m_next, prebuild); }))
        m_ahead = Ahead::Posted;
    return true;
}

bool OGRVSGPUOverlayLayer::RunBatch(Batch *b, bool prebuild)
{
    const bool ok = m_reading ? TakeRead(b) : ReadBatch(b, m_reads++);
    if (!ok)
        return false;
    /* the reader goes on with the next batch while this one computes */
    if (m_plan->opts.read_ahead && !b->in.at_end && !m_helper.Cancelled())
        PostRead();
    return ComputeBatch(b, prebuild);
}

/* On the reader when reading ahead: it touches the input layer and b,
 * nothing else (the engine's profile gets its times from ComputeBatch). */
bool OGRVSGPUOverlayLayer::ReadBatch(Batch *b, size_t index)
{
    b->Clear();
    b->read_t0 = vsg_now_s();
    b->read_thread = vsg_profile_thread_id();
    const vsgpu::Source &input = m_plan->input;
    size_t batch_rows = 0, batch_bytes = 0;
    BatchLimits(index, &batch_rows, &batch_bytes);
    const bool read =
        m_arrow_in.Active()
            ? m_arrow_in.Read(batch_rows, batch_bytes, &b->in, &b->counts)
            : vsgpu::ReadSourceBatch(input, batch_rows, true, &b->in, &b->counts, nullptr,
                                     batch_bytes);
    b->read_t1 = vsg_now_s();
    if (!read)
        return false;
    b->read = true;
    return true;
}

void OGRVSGPUOverlayLayer::PostRead()
{
    const size_t index = m_reads;
    m_reading = m_reader.Post([this, index] { return ReadBatch(&m_staged, index); });
    if (m_reading)
        ++m_reads;
}

bool OGRVSGPUOverlayLayer::TakeRead(Batch *b)
{
    m_reading = false;
    const bool ok = m_reader.Wait();
    b->Clear();
    std::swap(b->in, m_staged.in);
    std::swap(b->counts, m_staged.counts);
    b->read = m_staged.read;
    b->read_t0 = m_staged.read_t0;
    b->read_t1 = m_staged.read_t1;
    b->read_thread = m_staged.read_thread;
    m_staged.Clear();
    return ok && b->read;
}

/* Runs b through the engine: on the helper when reading ahead, where it
 * touches the engine (and its profile) and b, nothing else. */
bool OGRVSGPUOverlayLayer::ComputeBatch(Batch *b, bool prebuild)
{
    const vsgpu::Source &input = m_plan->input;
    const int64_t n = static_cast<int64_t>(b->in.Size());
    if (m_engine)
        vsg_profile_add_span(vsg_engine_profile(m_engine), "ogr_read_input", "CPU", b->read_t0,
                             b->read_t1, b->read_thread, n, n);
    if (n == 0)
        return true;
    if (m_helper.Cancelled())
        return false; /* the stream is being stopped: nobody takes it */

    vsg_wkb_array arr = b->in.wkb.View();
    vsg_status st = VSG_OK;
    switch (m_plan->op)
    {
        case vsgpu::Op::Clip:
            st = vsg_clip_batch(m_engine, m_index, &arr, &b->result);
            break;
        case vsgpu::Op::ClipRect:
            st = vsg_clip_rect_batch(m_engine, m_plan->rect, &arr, &b->result);
            break;
        default:
            st = vsg_intersection_batch(m_engine, m_index, &arr, &b->result);
            break;
    }
    if (st != VSG_OK)
    {
        vsgpu::ReportEngineError(*m_plan, m_engine, st, "batch", b->in.fids,
                                 input);
        return false;
    }
    CPLDebug(VSGPU_DEBUG, "%s: batch of " CPL_FRMT_GIB " input features -> %u "
             "results",
             vsgpu::OpName(m_plan->op), static_cast<GIntBig>(n),
             static_cast<unsigned>(b->result.count));
    if (prebuild)
    {
        PrebuildFeatures(b);
        if (b->build_rows > 0 && m_engine)
            vsg_profile_add(vsg_engine_profile(m_engine), "prebuild_features", "CPU",
                            b->build_s, b->build_rows, b->build_rows, 0, 0, 0);
    }
    return true;
}

void OGRVSGPUOverlayLayer::PrebuildFeatures(Batch *b) const
{
    const double t0 = vsg_now_s();
    const size_t n = b->result.count;
    b->built.clear();
    b->built.resize(n);
    /* runs of features on the engine's workers, idle between batches: the
     * caller's thread writes meanwhile, so leave it a core
     * (VSGPU_PREBUILD_THREADS, a diagnostic and test switch, sets the
     * count whatever the batch) */
    size_t runs = std::min<size_t>({kPrebuildThreads,
                                    static_cast<size_t>(std::max(1, CPLGetNumCPUs() - 2)),
                                    n / kPrebuildMinRows});
    if (const char *forced = CPLGetConfigOption("VSGPU_PREBUILD_THREADS", nullptr))
    {
        /* 0: none built ahead, the caller builds every feature as it hands
         * it out (to measure what building ahead gains the writer) */
        const int want = atoi(forced);
        if (want <= 0)
        {
            b->build_rows = 0;
            b->build_s = 0;
            return;
        }
        runs = static_cast<size_t>(std::min(64, want));
    }
    runs = std::max<size_t>(runs, 1);
    std::atomic<int64_t> built_rows{0};
    const auto build = [&](size_t run)
    {
        /* a failure is reported when the feature is handed out, not here */
        CPLPushErrorHandler(CPLQuietErrorHandler);
        int64_t k = 0;
        for (size_t i = n * run / runs;
             i < n * (run + 1) / runs && !m_helper.Cancelled() && !m_helper.CallerWaiting(); ++i)
        {
            int64_t in = -1, me = -1;
            if (!RowSources(b->in, b->result, i, false, &in, &me))
                break;
            std::unique_ptr<OGRFeature> f(FeatureFromWkb(b->result.wkb[i], b->result.size[i]));
            if (!f)
                break;
            CopyFields(f.get(), b->in, in, me);
            b->built[i] = std::move(f);
            ++k;
        }
        built_rows += k;
        CPLPopErrorHandler();
    };
    vsg_engine_parallel(
        m_engine, runs,
        [](void *ctx, size_t task, int) { (*static_cast<decltype(build) *>(ctx))(task); },
        const_cast<void *>(static_cast<const void *>(&build)));
    b->build_rows = built_rows;
    b->build_s = vsg_now_s() - t0;
}

void OGRVSGPUOverlayLayer::TakeBatch(Batch *b)
{
    m_in = std::move(b->in);
    b->in.Clear();
    m_built = std::move(b->built);
    b->built.clear();
    b->build_s = 0;
    b->build_rows = 0;
    vsg_result_clear(&m_result);
    m_result = b->result;
    vsg_result_init(&b->result);
    m_pos = 0;
    m_input_done = m_in.at_end;
    if (b->read)
        m_counts.input_features += static_cast<GIntBig>(m_in.Size());
    m_counts += b->counts;
    b->counts = vsgpu::DriverCounts();
}

/* GetMetadata mid-stream reads the engine: the helper's batch is finished
 * first, and taken later as usual. */
void OGRVSGPUOverlayLayer::Quiesce()
{
    if (m_ahead != Ahead::Posted)
        return;
    m_next.ok = m_helper.Wait();
    m_ahead = Ahead::Ready;
}

/* Phase 3: one output feature from result i of the current batch. */
bool OGRVSGPUOverlayLayer::NeedMethod() const
{
    return !m_method_feats.empty() && m_plan->op != vsgpu::Op::Clip &&
           m_plan->op != vsgpu::Op::ClipRect;
}

bool OGRVSGPUOverlayLayer::RowSources(const vsgpu::SourceBatch &batch,
                                      const vsg_result &r, size_t i, bool report,
                                      int64_t *in, int64_t *me) const
{
    const bool need_method = NeedMethod();
    *in = r.input_index ? r.input_index[i] : -1;
    *me = r.method_index ? r.method_index[i] : -1;
    if (*in < 0 || static_cast<size_t>(*in) >= batch.Size() ||
        (need_method &&
         (*me < 0 || static_cast<size_t>(*me) >= m_method_feats.size())))
    {
        if (report)
            CPLError(CE_Failure, CPLE_AppDefined,
                     "VSGPU: %s: the engine returned an out-of-range feature "
                     "index",
                     vsgpu::OpName(m_plan->op));
        return false;
    }
    return true;
}

void OGRVSGPUOverlayLayer::CopyFields(OGRFeature *f, const vsgpu::SourceBatch &batch,
                                      int64_t in, int64_t me) const
{
    const OGRFeature &src_in = *batch.feats[static_cast<size_t>(in)];
    const std::vector<vsgpu::OutField> &fields = m_plan->fields;
    for (size_t j = 0; j < fields.size(); ++j)
    {
        const vsgpu::OutField &of = fields[j];
        if (of.kind == vsgpu::OutField::Input)
            CopyField(f, static_cast<int>(j), src_in, of.index);
        else if (of.kind == vsgpu::OutField::Method && NeedMethod())
            CopyField(f, static_cast<int>(j),
                      *m_method_feats[static_cast<size_t>(me)], of.index);
    }
}

OGRFeature *OGRVSGPUOverlayLayer::BuildFeature(size_t i)
{
    if (i < m_built.size() && m_built[i])
    {
        OGRFeature *f = m_built[i].release();
        f->SetFID(m_next_fid++);
        return f;
    }
    const double t0 = vsg_now_s();
    int64_t in = -1, me = -1;
    if (!RowSources(i, &in, &me))
    {
        m_failed = true;
        return nullptr;
    }
    OGRFeature *f = NewFeature(m_result.wkb[i], m_result.size[i]);
    if (f == nullptr)
        return nullptr;
    CopyFields(f, m_in, in, me);
    m_build_s += vsg_now_s() - t0;
    ++m_build_rows;
    return f;
}

OGRFeature *OGRVSGPUOverlayLayer::NextResult()
{
    while (true)
    {
        if (m_pos < m_result.count)
        {
            OGRFeature *f = BuildFeature(m_pos++);
            if (f != nullptr && !ReportConsumed())
            {
                delete f;
                return nullptr;
            }
            return f;
        }
        if (m_input_done || m_failed)
            break;
        if (!ReportConsumed() || !NextBatch())
            return nullptr;
    }
    FlushBuildStage();
    return nullptr;
}

/* The helper may be computing: the Arrow rows' time is added with the
 * features' when it is idle (FlushBuildStage). */
void OGRVSGPUOverlayLayer::NoteArrowBuild(double t0, int64_t n)
{
    m_build_s += vsg_now_s() - t0;
    m_build_rows += n;
}

/* The time spent building the previous batch's features, as one record. */
void OGRVSGPUOverlayLayer::FlushBuildStage()
{
    Quiesce(); /* the profile is the helper's while it runs */
    /* a total over the batch's features, built one at a time: no span */
    if (m_build_rows > 0 && m_engine)
        vsg_profile_add_total(vsg_engine_profile(m_engine), "build_features", "CPU",
                              m_build_s, m_build_rows, m_build_rows, 0, 0, 0);
    m_build_s = 0;
    m_build_rows = 0;
}

/* Arrow fast path: the results of the current batch, loading the next
 * batch while this one is used up (a batch may have no result at all). */
size_t OGRVSGPUOverlayLayer::ArrowRowsReady()
{
    while (m_pos >= m_result.count)
    {
        if (m_input_done || m_failed)
        {
            FlushBuildStage();
            return 0;
        }
        if (!ReportConsumed() || !NextBatch())
            return 0;
    }
    return m_result.count - m_pos;
}

/* The rows' fields point into the batch's features and the method
 * features, as BuildFeature copies them; nothing is copied here. */
bool OGRVSGPUOverlayLayer::TakeArrowRows(size_t n,
                                         const std::vector<int> &fields,
                                         ArrowRows *rows)
{
    rows->Begin(m_result, m_pos, n, fields.size());
    for (size_t k = 0; k < n; ++k)
    {
        const size_t i = m_pos + k;
        int64_t in = -1, me = -1;
        if (!RowSources(i, &in, &me))
            return false;
        const OGRFeature &src_in = *m_in.feats[static_cast<size_t>(in)];
        for (size_t c = 0; c < fields.size(); ++c)
        {
            const vsgpu::OutField &of =
                m_plan->fields[static_cast<size_t>(fields[c])];
            const OGRField *v = nullptr;
            if (of.kind == vsgpu::OutField::Input)
                v = ArrowValue(src_in, of.index);
            else if (of.kind == vsgpu::OutField::Method && NeedMethod())
                v = ArrowValue(*m_method_feats[static_cast<size_t>(me)],
                               of.index);
            rows->cells[c][k] = v;
        }
    }
    m_pos += n;
    return ReportConsumed();
}
