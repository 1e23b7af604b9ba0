/*
 * ogr_vsgpu.h - the VSGPU GDAL/OGR driver: the VSGPU:<source> dataset that
 * wraps any OGR source, the VSGPU SQL dialect bound to OGR layers, and the
 * result layers that stream the engine's output as OGR features.
 *
 * Flow of one `-dialect VSGPU` statement (OGRVSGPUDataset::ExecuteVSGPU):
 *   vsg_sql_parse -> vsgpu::Bind (layers, fields, WHERE, options, schema)
 *   -> vsg_dispatch_decide -> a result layer (overlay or dissolve) that
 *   reads its sources and calls the engine when GDAL reads features.
 *
 * Errors: CPLError + nullptr/false/OGRErr here; the parser and the engine
 * return status codes that are converted once, in this directory.
 */
#ifndef OGR_VSGPU_H_INCLUDED
#define OGR_VSGPU_H_INCLUDED

#include "gdal_priv.h"
#include "ogr_vsgpu_compat.h"
#include "ogr_spatialref.h"
#include "ogrsf_frmts.h"

#include "vsgpu_dispatch.h"
#include "vsgpu_engine.h"
#include "vsgpu_sql.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <map>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#define VSGPU_PREFIX "VSGPU:"
#define VSGPU_DEBUG "VSGPU"
#define VSGPU_MD_DOMAIN "VSGPU"

namespace vsgpu
{

/* ---- options (ogrvsgpuoptions.cpp) ----------------------------------- */

/* What a statement does when its two layers are in different CRSs. */
enum class CrsMismatch
{
    Error,     /* CE_Failure naming both (the default, as PostGIS) */
    Reproject, /* the method layer to the input's CRS (PROJ)       */
    Ignore     /* the coordinates as they are (VSGPU before 0.2)   */
};

struct Options
{
    bool skip_failures = false;
    bool promote_to_multi = false;
    bool keep_lower_dim = false;
    bool has_input_prefix = false;
    bool has_method_prefix = false;
    std::string input_prefix;
    std::string method_prefix;
    vsg_invalid_policy invalid = VSG_INVALID_REPAIR;
    CrsMismatch crs_mismatch = CrsMismatch::Error;
    bool method_sources_any = false; /* METHOD_SOURCES=ANY                 */
    vsg_exec_mode mode = VSG_MODE_AUTO;
    int num_threads = 0; /* 0: all cores (ALL_CPUS) */
    int batch_size = 16384;
    bool batch_size_set = false; /* BATCH_SIZE given, not the default */
    std::string profile_path; /* VSGPU_PROFILE, "" when unset */
    /* the GPU pipeline (docs/gpu-runtime.md): device and memory tiers */
    vsg_gpu_settings gpu{}; /* every field zero; the options set them */
    bool gpu_backend_host = false; /* VSGPU_GPU_BACKEND=HOST (tests) */
    GIntBig gpu_min_rows = -1;     /* VSGPU_GPU_MIN_ROWS, -1: measured */
    GIntBig gpu_min_bytes = -1;    /* VSGPU_GPU_MIN_BYTES, -1: measured */
    bool progress = false; /* PROGRESS / VSGPU_PROGRESS: GDALTermProgress */
    bool coverage_union = true; /* COVERAGE_UNION / VSGPU_COVERAGE_UNION */
    bool gpu_refine = true;     /* GPU_REFINE / VSGPU_GPU_REFINE */
    bool read_ahead = true;     /* READ_AHEAD / VSGPU_READ_AHEAD */
};

/* The GDAL_DMD_OPENOPTIONLIST XML of the driver. */
const char *OpenOptionListXML();

/* Resolves every option: statement ("K=V" strings) > open option > config
 * option > default. Emits CE_Failure naming the option and returns false on
 * an invalid value or an unknown statement option. */
bool ResolveOptions(char **stmt_options, int n_stmt_options,
                    CSLConstList open_options, Options *out);

/* SQL_FALLBACK (open option) / VSGPU_SQL_FALLBACK (config); NO by
 * default. Returns false (CE_Failure emitted) on an invalid value. */
bool ResolveSqlFallback(CSLConstList open_options, bool *enabled);

/* ogrvsgpusqlguard.cpp: whether sql is one read-only SELECT (or WITH ...
 * SELECT), the only statements the SQLite fallback may run; *why says
 * what else it is. */
bool IsReadOnlySelect(const char *sql, std::string *why);

/* Whether name is one of the driver's open options (SRC_* aside). */
bool IsOpenOption(const char *name);

/* DIALECT (open option): true for VSGPU, false for NONE or empty (the
 * default). Returns false (CE_Failure emitted) on any other value. */
bool ResolveDialect(CSLConstList open_options, bool *vsgpu_default);

/* ---- the .vsgpu descriptor (ogrvsgpudescriptor.cpp) ------------------- */

/* Whether a file GDAL is opening is a descriptor: the extension .vsgpu and
 * a first line "# VSGPU..." or "SOURCE=...". Reads only what info holds. */
bool IsDescriptor(GDALOpenInfo *info);

/* Reads the descriptor at path: *source (relative paths resolved against
 * the descriptor's folder) and its open options ("KEY=VALUE", SRC_* kept).
 * Returns false with a CE_Failure naming the file and line. */
bool ReadDescriptor(const char *path, std::string *source,
                    CPLStringList *options);

/* ---- gdal CLI algorithms (ogrvsgpualgorithms.cpp) ---------------------- */

/* Declares `gdal vector gpu-layer-algebra|gpu-clip|gpu-dissolve` in GDAL's
 * global algorithm registry (GDAL >= 3.11; nothing before). */
void RegisterAlgorithms();

/* ---- the bound statement (ogrvsgpubinder.cpp, ogrvsgpuschema.cpp) ----- */

enum class Op
{
    Intersection,
    Clip,
    ClipRect,
    Join,
    Dissolve
};

/* The user-facing name: ST_Intersection, ST_Clip, ST_ClipByRect, ST_Union. */
const char *OpName(Op op);
/* The engine's operation (the join form is an intersection). */
vsg_operation EngineOp(Op op);

struct DatasetCloser
{
    void operator()(GDALDataset *ds) const
    {
        if (ds)
            GDALClose(GDALDataset::ToHandle(ds));
    }
};
using DatasetPtr = std::unique_ptr<GDALDataset, DatasetCloser>;

/* One layer named in FROM. */
struct Source
{
    OGRLayer *layer = nullptr;
    /* the dataset the layer is in, where opening it again by its name and
     * driver gives the same layer (no source open options); else null */
    GDALDataset *dataset = nullptr;
    int geom_field = 0;
    std::string name;      /* the layer name, for messages                */
    std::string alias;     /* alias or layer name, as written             */
    std::string where;     /* OGR SQL attribute filter, "" when none      */
    int dimension = -1;    /* 0, 1, 2 from the declared type; -1 unknown  */
    bool has_z = false;
    bool is_multi = false; /* declared type is Multi*                     */
    /* CRS_MISMATCH=REPROJECT: the method layer's geometries to the input's
     * CRS as they are read (ogrvsgpucrs.cpp); null otherwise. */
    std::shared_ptr<OGRCoordinateTransformation> transform;
    bool strict_read = false; /* INVALID=ERROR: an unreadable geometry fails */
    bool transform_failure_fails = false; /* INVALID=ERROR               */
};

enum class KeyKind
{
    Column,
    Substr,
    Upper,
    Lower
};

/* A dissolve group key: a column, or substr/upper/lower of one. */
struct GroupKey
{
    KeyKind kind = KeyKind::Column;
    int field = -1; /* field index in the input layer */
    int start = 1;
    int length = 0;
    bool has_length = false;
};

/* Where the value of one output field comes from. */
struct OutField
{
    enum Kind
    {
        Input,  /* index: input field                                  */
        Method, /* index: method field                                 */
        Key,    /* index: group key                                    */
        Count   /* COUNT(*)                                            */
    } kind = Input;
    int index = -1;
};

struct Plan
{
    Op op = Op::Intersection;
    std::string sql;
    std::string dataset_name;
    Options opts;
    Source input;
    Source method; /* unset (layer == nullptr) for ClipRect, Dissolve */
    double rect[4] = {0, 0, 0, 0};
    std::vector<DatasetPtr> owned; /* datasets of 'path'.layer refs   */
    OGRFeatureDefn *defn = nullptr; /* referenced; released by ~Plan */
    std::vector<OutField> fields;  /* parallel to defn's fields        */
    std::vector<GroupKey> keys;    /* dissolve: GROUP BY, in order      */
    bool engine_promote = false;   /* promote every output to Multi     */
    std::unique_ptr<OGRGeometry> spatial_filter; /* on the input layer  */
    vsg_dispatch_decision dispatch{};

    Plan() = default;
    Plan(const Plan &) = delete;
    Plan &operator=(const Plan &) = delete;
    ~Plan();
};

enum class BindResult
{
    Ok,
    Failed,   /* CE_Failure emitted                                      */
    NotVSGPU  /* *reason says why; the caller may hand it to SQLite      */
};

/* Resolves layers, columns, WHERE and options, and builds the output
 * schema. ds: the dataset that received ExecuteSQL. */
BindResult Bind(GDALDataset *ds, const char *ds_name, const char *sql,
                const vsg_statement *stmt, CSLConstList open_options,
                Plan *plan, std::string *reason);

/* ogrvsgpuschema.cpp: output schemas. */
int GeometryDimension(OGRwkbGeometryType t); /* -1 when unknown */
/* Dimension, Z and Multi from the declared type. sample_unknown: for a
 * layer declared Unknown, take the dimension of its first features. */
void DescribeSource(Source *src, bool sample_unknown = false);
OGRwkbGeometryType OverlayGeometryType(const Plan &plan);
OGRwkbGeometryType DissolveGeometryType(const Plan &plan);
/* Geometry field name, type and CRS for the result. */
void SetResultGeometry(Plan *plan, const char *alias);

/* ogrvsgpumethodsource.cpp: opens a dataset a statement names
 * ('path'.layer), read-only. Unless allow_any (METHOD_SOURCES=ANY), only
 * an existing local file or folder (no network VSI handler, no connection
 * string) through a file-based vector driver other than VRT, GDALG and
 * GPSBabel; otherwise CE_Failure naming the path and the option, and
 * *refused set (nullptr without *refused: GDAL could not open it). */
GDALDataset *OpenStatementDataset(const char *path, bool allow_any,
                                  bool *refused);

/* ---- coordinate systems (ogrvsgpucrs.cpp) ------------------------------ */

/* Compares the CRSs of the input and method layers (GDAL's IsSame) and
 * applies CRS_MISMATCH: CE_Failure naming both (false) under ERROR; the
 * method layer's transform set under REPROJECT; nothing under IGNORE. A
 * layer without a CRS is no mismatch, but gets one CE_Warning. */
bool CheckCrs(Plan *plan);

/* ---- reporting (ogrvsgpureport.cpp) ----------------------------------- */

/* Counters the driver keeps itself (the engine keeps the others). */
struct DriverCounts
{
    GIntBig curves_linearized = 0;
    GIntBig reprojection_failed = 0; /* method geometries PROJ refused   */
    GIntBig unreadable_geometries = 0; /* the source driver failed on them */
    GIntBig input_features = 0;
    GIntBig method_features = 0;
    GIntBig output_features = 0;

    DriverCounts &operator+=(const DriverCounts &o)
    {
        curves_linearized += o.curves_linearized;
        reprojection_failed += o.reprojection_failed;
        unreadable_geometries += o.unreadable_geometries;
        input_features += o.input_features;
        method_features += o.method_features;
        output_features += o.output_features;
        return *this;
    }
};

struct ReportState
{
    const Plan *plan = nullptr;
    const vsg_engine *engine = nullptr;
    const DriverCounts *driver = nullptr;
    bool complete = false;
    double elapsed_s = 0;
};

/* "KEY=VALUE" list of the VSGPU metadata domain. */
CPLStringList BuildMetadata(const ReportState &st);
/* The one end-of-stream CE_Warning; nothing when every counter is zero. */
void WarnSummary(const ReportState &st);
/* Writes VSGPU_PROFILE when set. */
void WriteProfile(const ReportState &st, vsg_engine *engine);

/* ---- progress (ogrvsgpuprogress.cpp) ---------------------------------- */

/* One stream's progress as a GDALProgressFunc sees it: 0.0 when the stream
 * starts, fractions of the work done that never go down and move by 1%
 * steps at least (so the callback costs nothing next to the work), and 1.0
 * once, at the end. A FALSE from the callback is a CE_Failure
 * (CPLE_UserInterrupt) and turns the callback off for the stream. */
class Progress
{
  public:
    /* A new stream; fn nullptr: off. false: fn asked to stop. */
    bool Start(GDALProgressFunc fn, void *data);
    /* Another callback for the rest of the stream (nullptr: off). */
    void SetCallback(GDALProgressFunc fn, void *data);
    bool Active() const
    {
        return m_fn != nullptr;
    }
    /* fraction of the stream done; below 1.0 whatever it says (a count
     * that was too small must not end the progress early). */
    bool Update(double fraction);
    /* 1.0, once per stream. */
    bool End();

  private:
    bool Call(double fraction);
    GDALProgressFunc m_fn = nullptr;
    void *m_data = nullptr;
    double m_last = 0;
    bool m_ended = false;
};

/* lo + (hi - lo) * done / total, within [lo, hi]; lo when total <= 0 (an
 * unknown count says nothing). */
double PhaseFraction(double lo, double hi, GIntBig done, GIntBig total);

/* ---- a helper thread (ogrvsgpuhelper.cpp) ---------------------------- */

/* Runs one job at a time on a thread of its own: an overlay reads and
 * computes its next input batch there while the caller's thread hands out
 * the current one (READ_AHEAD). Only the job touches what it was given
 * (the input layer, the engine, its batch) until Wait() returns; the
 * mutex orders everything the job wrote before what the caller reads.
 *
 * Messages: what CPLError and CPLDebug raise during a job is kept, and
 * raised again in order on the caller's thread by Wait(). So the handlers
 * the caller installed (Python's exceptions, QGIS's message log) see every
 * message, at the point of the stream where it came without the helper:
 * when the caller takes the batch. */
class HelperThread
{
  public:
    HelperThread() = default;
    ~HelperThread();
    HelperThread(const HelperThread &) = delete;
    HelperThread &operator=(const HelperThread &) = delete;

    /* Starts job on the helper (the thread itself on the first call).
     * false: no thread could be started; nothing runs, the caller runs the
     * job itself. Call only when no job is pending. */
    bool Post(std::function<bool()> job);
    /* Waits for the posted job and raises its messages here; returns the
     * job's result (false, with a CE_Failure raised, when it threw). */
    bool Wait();
    /* Set by Quit() while a job runs: the job may stop early. */
    bool Cancelled() const
    {
        return m_cancel.load();
    }
    /* Set once the caller waits for the job: work the caller could do
     * itself later is better left to it from then on. */
    bool CallerWaiting() const
    {
        return m_waiting.load(std::memory_order_relaxed);
    }
    /* Cancels and waits for a pending job, drops its messages, and ends
     * the thread. Post() starts a new one. */
    void Quit();

  private:
    struct Message
    {
        CPLErr cls;
        CPLErrorNum no;
        std::string text;
    };
    static void CPL_STDCALL Capture(CPLErr cls, CPLErrorNum no, const char *msg);
    void Loop();

    std::thread m_thread;
    std::mutex m_mu;
    std::condition_variable m_cv;
    std::function<bool()> m_job; /* set: pending or running            */
    bool m_done = false;         /* the job has returned               */
    bool m_result = false;
    bool m_quit = false;
    std::atomic<bool> m_cancel{false};
    std::atomic<bool> m_waiting{false};
    std::vector<Message> m_messages; /* the job's, in order            */
};

/* ---- WKB batches ------------------------------------------------------ */

/* Geometries of one batch as WKB; null geometries have no bytes and a
 * NULL pointer in the array handed to the engine. The bytes live in
 * blocks of at least 4 MiB, each allocated once, an entry wholly in one:
 * entries never move once written, so a batch as large as a whole source
 * (100+ MB) costs no reallocation copies, as one growing buffer would.
 * Clear keeps the blocks for the next batch (no new pages to fault in). */
class WkbBatch
{
  public:
    void Clear();
    void AddNull();
    /* Appends WKB as it is, without copying it (the caller vouches that it
     * is what Add would write for its geometry, and has handed the bytes'
     * owner to Hold). */
    void AddBorrowed(const unsigned char *wkb, size_t n);
    /* Keeps owner (of bytes given to AddBorrowed) alive until Clear. */
    void Hold(std::shared_ptr<void> owner);
    /* Replaces entry i (a null so far) with geom, as Add writes it. */
    bool Set(size_t i, const OGRGeometry *geom, GIntBig *curves_linearized);
    /* Exports geom (linearised first if it has curves) as ISO WKB.
     * Returns false on failure (CE_Failure emitted). */
    bool Add(const OGRGeometry *geom, GIntBig *curves_linearized);
    size_t Count() const
    {
        return m_sizes.size();
    }
    /* Bytes of WKB held (the sum of the entries' sizes). */
    size_t Bytes() const
    {
        return m_bytes;
    }
    /* Valid until the next Add/Clear. */
    vsg_wkb_array View();

  private:
    struct Block
    {
        std::unique_ptr<unsigned char[]> data;
        size_t capacity = 0;
        size_t used = 0;
    };
    /* Room for n bytes in the current block (the next one with room, or a
     * new one at the end, when it lacks it); taken only by Commit. */
    unsigned char *Room(size_t n);
    void Commit(const unsigned char *p, size_t n);

    std::vector<Block> m_blocks; /* kept by Clear, for the next batch */
    std::vector<std::shared_ptr<void>> m_held; /* borrowed bytes' owners */
    size_t m_cur = 0;            /* the block Room writes into        */
    std::vector<const unsigned char *> m_ptrs; /* per entry; NULL: null */
    std::vector<size_t> m_sizes;
    size_t m_bytes = 0;
};

/* One batch of a source's features, as every result layer reads them (and
 * the Arrow input path will): the WKB the engine takes, the FIDs errors
 * name, and the features' fields (geometry removed) when kept. */
struct SourceBatch
{
    WkbBatch wkb;
    std::vector<GIntBig> fids;
    std::vector<std::unique_ptr<OGRFeature>> feats;
    bool at_end = false;

    void Clear()
    {
        wkb.Clear();
        fids.clear();
        feats.clear();
    }
    size_t Size() const
    {
        return fids.size();
    }
};

/* What a read's visit says of a row it has seen: < 0 stops the read as
 * failed (the visit has emitted why), 0 goes on without keeping the row's
 * fields, > 0 goes on and keeps them (where the read keeps fields). */
using RowVisit = std::function<int(const OGRFeature &)>;

/* Reads up to max_rows more features of src into *batch (appending), and
 * stops after the feature that brings the batch's WKB to max_bytes or
 * more; keep_fields: keep the features' fields (every feature's, or, with
 * a visit, those it asks for; the others' entries in feats are null).
 * visit (optional) sees each feature before it is kept (RowVisit). Sets batch->at_end when
 * the source is exhausted. Returns false on a read error (CE_Failure
 * emitted) or when visit stopped it. Counts what it did in *counts
 * (curves linearised, method geometries reprojected or not, geometries the
 * source driver could not read). A geometry the source driver failed to
 * decode (a CE_Failure raised while reading the feature, and no geometry)
 * is unreadable, not NULL: counted, or, under INVALID=ERROR
 * (src.strict_read), a CE_Failure naming the FID. */
bool ReadSourceBatch(const Source &src, size_t max_rows, bool keep_fields,
                     SourceBatch *batch, DriverCounts *counts,
                     const RowVisit &visit = nullptr, size_t max_bytes = SIZE_MAX);

/* Every row of src (after PrepareSource), as ReadSourceBatch(src,
 * SIZE_MAX, ...) reads them: through the layer's Arrow stream where it
 * can be (ReadSourceArrow), else as features. visit_fields (optional):
 * the only fields visit reads; the Arrow reader then sets only those
 * before the visit, and the rest only for the rows whose fields are kept
 * (a feature read from the layer has them all). */
bool ReadWholeSource(const Source &src, bool keep_fields, SourceBatch *batch,
                     DriverCounts *counts, const RowVisit &visit = nullptr,
                     const std::vector<int> *visit_fields = nullptr);

/* Every row of src through its Arrow stream (ogrvsgpuarrowsource.cpp), as
 * ReadSourceBatch(src, SIZE_MAX, ...) would read them: 1 read, 0 not taken
 * (nothing read: the caller reads features), -1 failed (CE_Failure
 * emitted, or visit stopped it). Call after PrepareSource. */
int ReadSourceArrow(const Source &src, bool keep_fields, SourceBatch *batch,
                    DriverCounts *counts, const RowVisit &visit,
                    const std::vector<int> *visit_fields = nullptr);

/* The rows of a source layer's Arrow stream, batch after batch (the
 * overlays' input; ogrvsgpuarrowsource.cpp): the rows, FIDs, fields, WKB,
 * counts and messages of ReadSourceBatch's feature path, with no
 * geometry built by the layer's driver and none exported again. One
 * thread at a time uses it, and it touches the layer only in Start, Read
 * and Close. */
struct ArrowBatchState;
class ArrowBatchReader
{
  public:
    ArrowBatchReader();
    ~ArrowBatchReader();
    ArrowBatchReader(const ArrowBatchReader &) = delete;
    ArrowBatchReader &operator=(const ArrowBatchReader &) = delete;
    /* Opens src's stream where it can be read that way (after
     * PrepareSource; src.dataset set: a row the stream does not give is
     * read through a second handle of it); false: read src as features. */
    bool Start(const Source &src);
    bool Active() const;
    /* As ReadSourceBatch(src, max_rows, true, batch, counts, nullptr,
     * max_bytes). */
    bool Read(size_t max_rows, size_t max_bytes, SourceBatch *batch, DriverCounts *counts);
    /* Releases the stream and rewinds the layer (nothing if not active). */
    void Close();

  private:
    bool StartStream(const Source &src);
    std::unique_ptr<ArrowBatchState> m_state;
    friend int ReadSourceArrow(const Source &, bool, SourceBatch *, DriverCounts *,
                               const RowVisit &, const std::vector<int> *);
};

/* Whether the source driver reported a failure since the error counter
 * read `before` (how a driver says it could not decode a geometry). */
bool DriverFailedSince(GUInt32 before);

/* An unreadable geometry of feature fid: counted, or under INVALID=ERROR
 * the statement's error (CE_Failure emitted, false). */
bool NoteUnreadable(const Source &src, GIntBig fid, DriverCounts *counts);

/* Sets (or clears, filter == nullptr) src's attribute and spatial filters
 * and resets reading. Returns false on an invalid WHERE (CE_Failure). */
bool PrepareSource(const Source &src, const OGRGeometry *spatial_filter);
void ClearSourceFilters(const Source &src);

/* Builds a result geometry from engine WKB (nullptr for size 0). */
OGRGeometry *GeometryFromWkb(const unsigned char *wkb, size_t size,
                             const OGRSpatialReference *srs);

/* Maps an engine failure to CE_Failure naming the layer and FID. */
void ReportEngineError(const Plan &plan, const vsg_engine *engine,
                       vsg_status st, const char *stage,
                       const std::vector<GIntBig> &batch_fids,
                       const Source &src);

}  // namespace vsgpu

/* ---- result layers ----------------------------------------------------- */

/* Base of the result layers: metadata, end-of-stream reporting, the
 * OGRLayer plumbing. Subclasses produce features in NextResult(). */
class OGRVSGPUResultLayer CPL_NON_FINAL
    : public OGRLayer,
      public OGRGetNextFeatureThroughRaw<OGRVSGPUResultLayer>
{
  protected:
    std::unique_ptr<vsgpu::Plan> m_plan;
    vsg_engine *m_engine = nullptr;
    vsgpu::DriverCounts m_counts;
    GIntBig m_next_fid = 0;
    bool m_started = false;
    bool m_eof = false;
    bool m_failed = false;
    bool m_summary_emitted = false;
    double m_t0 = 0;
    double m_elapsed = 0;
    GIntBig m_complete_count = -1;
    CPLStringList m_metadata;
    /* The VSGPU domain as the last complete read left it. */
    CPLStringList m_final_metadata;
    void RunToCompletion();

    /* Progress (SetProgress, else PROGRESS=YES: GDALTermProgress). */
    bool m_progress_set = false; /* SetProgress called: the option yields */
    GDALProgressFunc m_progress_fn = nullptr;
    void *m_progress_data = nullptr;
    vsgpu::Progress m_progress;  /* this stream's                        */
    GDALProgressFunc ProgressFunc(void **data) const;
    /* Reports fraction of the stream; false when the callback stopped it
     * (CPLError emitted, m_failed set). */
    bool ReportProgress(double fraction);
    /* The input layer's feature count (its filters set), taken when a
     * stream starts and progress is on; -1 when off or unknown. */
    GIntBig CountInputForProgress();

    bool StartEngine();
    void StopEngine();
    void Finish();
    /* A feature of the layer with the geometry of an engine result (no
     * FID); nullptr, nothing raised, when the WKB cannot be read. */
    OGRFeature *FeatureFromWkb(const unsigned char *wkb, size_t size) const;
    /* FeatureFromWkb with the next FID; CE_Failure (m_failed) when the WKB
     * cannot be read. */
    OGRFeature *NewFeature(const unsigned char *wkb, size_t size);
    /* Copies a source field into field `dst` of f (unset/null kept). */
    static void CopyField(OGRFeature *f, int dst, const OGRFeature &src,
                          int src_field);
    void AddStage(const char *stage, double t0, int64_t rows_in,
                  int64_t rows_out);

    virtual bool Start() = 0;           /* read what must come first      */
    virtual OGRFeature *NextResult() = 0; /* nullptr at the end or error  */
    virtual void Stop() = 0;            /* drop the stream's state        */
    /* Waits for work the stream runs on another thread, so that the
     * engine and the counters can be read (GetMetadata mid-stream). */
    virtual void Quiesce()
    {
    }
    /* The building of n Arrow rows from t0 (vsg_now_s): the stage
     * build_features. A stream whose engine runs on another thread must
     * not touch its profile meanwhile: it keeps the time and adds it when
     * that thread is idle. */
    virtual void NoteArrowBuild(double t0, int64_t n)
    {
        AddStage("build_features", t0, n, n);
    }


    /* Engine and Start() on the first read; false on failure (m_failed). */
    bool EnsureStarted();
    OGRFeature *GetNextRawFeature();

    /* ---- Arrow record batches (ogrvsgpuarrow.cpp) ---------------------
     * The fast path reads the same cursor as GetNextFeature (the engine's
     * current result batch): a record batch is cut from one engine batch,
     * its geometry column is the engine's WKB, its attribute columns come
     * straight from the source features held for that batch. */

    /* The next n result rows as the batch builder reads them. */
    struct ArrowRows
    {
        size_t count = 0;
        const unsigned char *const *wkb = nullptr; /* engine results      */
        const size_t *wkb_size = nullptr;
        /* [i][row]: value of output field fields[i]; nullptr: null      */
        std::vector<std::vector<const OGRField *>> cells;
        std::deque<OGRField> computed; /* values made for this batch      */

        /* n rows of r from pos: the engine's WKB as is, and an n-row
         * cell column per field, all null until the caller fills it. */
        void Begin(const vsg_result &r, size_t pos, size_t n, size_t n_fields)
        {
            count = n;
            wkb = r.wkb + pos;
            wkb_size = r.size + pos;
            cells.assign(n_fields, std::vector<const OGRField *>(n));
        }
    };
    /* One column of the stream's schema (GDAL's default schema). */
    struct ArrowColumn
    {
        enum Kind
        {
            Fid,
            Field,
            Geometry
        } kind = Fid;
        int index = -1;   /* field index in the layer definition          */
        char type = 'l';  /* b s i l f g u z w D t T (ogrvsgpuarrow.cpp)  */
        int width = 0;    /* fixed-size binary ('w')                      */
        bool nullable = false;
    };
    bool m_arrow_fast = false; /* this stream's batches built here        */
    std::vector<ArrowColumn> m_arrow_cols;
    std::vector<int> m_arrow_fields; /* output fields read, in order      */

    /* Rows left in the current engine batch, loading batches until one has
     * rows; 0 at the end of the stream or on error (then m_failed). */
    virtual size_t ArrowRowsReady() = 0;
    /* Describes the next n <= ArrowRowsReady() rows (values of the output
     * fields `fields`) and moves past them. false: CPLError emitted. */
    virtual bool TakeArrowRows(size_t n, const std::vector<int> &fields,
                               ArrowRows *rows) = 0;
    /* A source field's value for ArrowRows, nullptr when null or unset. */
    static const OGRField *ArrowValue(const OGRFeature &f, int field);

    bool ArrowFastPossible(std::string *why) const;
    bool PlanArrowColumns(struct ArrowArrayStream *stream, std::string *why);
    int BuildArrowBatch(const ArrowRows &rows, GIntBig first_fid,
                        struct ArrowArray *out);
    int GetNextArrowArray(struct ArrowArrayStream *stream,
                          struct ArrowArray *out_array) override;

  public:
    explicit OGRVSGPUResultLayer(std::unique_ptr<vsgpu::Plan> plan);
    ~OGRVSGPUResultLayer() override;

    /* Reports the statement's progress to fn (GDAL's GDALProgressFunc
     * contract: fraction in [0,1], message, data), called on the thread that
     * reads the layer, from values driven by work done (input features
     * consumed of the input's count, groups dissolved, rows written). A
     * FALSE return from fn cancels: reading stops with CE_Failure
     * "VSGPU: interrupted by the progress callback" (CPLE_UserInterrupt).
     * nullptr turns it off. */
    void SetProgress(GDALProgressFunc fn, void *data);
    /* (A call, nullptr included, overrides the PROGRESS option; it applies
     * at once, and to every later stream: ResetReading starts the progress
     * again from 0.) */

    DEFINE_GET_NEXT_FEATURE_THROUGH_RAW(OGRVSGPUResultLayer)

    void ResetReading() override;
    /* A filter that is the layer's own statement is the layer itself
     * (QGIS sets a SELECT subset string this way after ExecuteSQL). */
    OGRErr SetAttributeFilter(const char *query) override;
    OGRFeatureDefn *GetLayerDefn() VSGPU_CONST_ACCESSOR override;
    const char *GetName() VSGPU_CONST_ACCESSOR override;
    OGRwkbGeometryType GetGeomType() VSGPU_CONST_ACCESSOR override;
    GIntBig GetFeatureCount(int bForce) override;
    int TestCapability(const char *cap) VSGPU_CONST_ACCESSOR override;
    bool GetArrowStream(struct ArrowArrayStream *out_stream,
                        CSLConstList options = nullptr) override;
    char **GetMetadataDomainList() override;
    VSGPUMetadataList GetMetadata(const char *domain = "") override;
    const char *GetMetadataItem(const char *name,
                                const char *domain = "") override;
};

/* ST_Intersection, ST_Clip, ST_ClipByRect and the join form: streams the
 * input layer in batches through the engine. */
class OGRVSGPUOverlayLayer final : public OGRVSGPUResultLayer
{
    /* method side, loaded once per stream */
    std::vector<std::unique_ptr<OGRFeature>> m_method_feats;
    vsg_method_index *m_index = nullptr;

    /* One input batch: its features and WKB, the engine's results, and
     * what reading it counted. */
    struct Batch
    {
        vsgpu::SourceBatch in;
        vsg_result result;
        vsgpu::DriverCounts counts; /* the reading's counters only      */
        bool read = false;          /* the input layer gave the batch   */
        bool ok = false;            /* its run's result, once Ready     */
        /* features of the results, built by the helper (FIDs set when
         * handed out); an entry it did not build (null, or past the end)
         * is built when handed out */
        std::vector<std::unique_ptr<OGRFeature>> built;
        double build_s = 0;
        int64_t build_rows = 0;
        /* when and on which thread it was read (the trace's span) */
        double read_t0 = 0, read_t1 = 0;
        uint64_t read_thread = 0;
        Batch();
        ~Batch();
        void Clear();
    };

    /* the current input batch and its results */
    vsgpu::SourceBatch m_in;   /* the current input batch */
    vsg_result m_result;
    std::vector<std::unique_ptr<OGRFeature>> m_built; /* Batch::built */
    size_t m_pos = 0;
    /* the next one, read and computed on m_helper while the current one is
     * handed out (READ_AHEAD) */
    Batch m_next;
    enum class Ahead
    {
        None,    /* m_next is empty                                       */
        Posted,  /* m_helper is computing it                              */
        Ready    /* computed (Quiesce waited for it), not yet taken       */
    } m_ahead = Ahead::None;
    vsgpu::HelperThread m_helper;
    /* The reader: reads the batch after the one being computed, so that
     * reading overlaps the engine (READ_AHEAD). It touches the input layer
     * and m_staged only; m_reading says a read is posted (touched by
     * whichever of the caller and m_helper drives the pipeline). */
    vsgpu::HelperThread m_reader;
    Batch m_staged;
    bool m_reading = false;
    size_t m_reads = 0; /* input batches read or being read */
    vsgpu::ArrowBatchReader m_arrow_in; /* the input through its Arrow stream */
    bool m_input_done = false;
    double m_build_s = 0;          /* features built when handed out   */
    int64_t m_build_rows = 0;
    GIntBig m_input_total = -1; /* the input's count, for progress      */

    /* Progress: the input features whose results are all handed out. */
    bool ReportConsumed();

    /* The GPU pipeline's batches when BATCH_SIZE is not given
     * (BatchLimits): a full batch is this, or up to kGpuBatchScaleMax
     * times more on a device with room for it (kGpuDeviceBytesPerWkbByte
     * of device memory per WKB byte at the peak, at most 1/8 of what the
     * device had free when it was opened). */
    static constexpr size_t kGpuBatchRows = 131072;
    static constexpr size_t kGpuBatchBytes = size_t{64} << 20;
    static constexpr size_t kGpuBatchScaleMax = 4;
    static constexpr size_t kGpuDeviceBytesPerWkbByte = 50;
    /* With read-ahead, the first of those batches is this many times
     * smaller than kGpuBatchRows / kGpuBatchBytes, and each next one
     * kGpuBatchGrowth times the one before (BatchLimits). */
    static constexpr size_t kGpuFirstBatchDivisor = 8;
    static constexpr size_t kGpuBatchGrowth = 4;
    /* The device's memory as the engine reported it after the last
     * batch (0: not known yet); read by the reader thread. */
    std::atomic<int64_t> m_gpu_capacity{0};
    void NoteGpuCapacity();
    /* PrebuildFeatures: at most this many runs at once, each at least
     * this many features */
    static constexpr size_t kPrebuildThreads = 8;
    static constexpr size_t kPrebuildMinRows = 4096;

    /* The method layer: read (GDAL), then indexed (the engine). */
    bool ReadMethod(vsgpu::SourceBatch *batch);
    bool IndexMethod(vsgpu::SourceBatch *batch);
    /* Rows and WKB bytes of input batch `index` (0: the stream's first). */
    void BatchLimits(size_t index, size_t *rows, size_t *bytes) const;
    bool NextBatch();
    /* The next input batch into b, read and computed: on the helper
     * thread when reading ahead, which starts the reader on the batch
     * after it first. false: CPLError raised. */
    bool RunBatch(Batch *b, bool prebuild);
    /* Reads input batch `index` into b (GDAL only: the reader's job). */
    bool ReadBatch(Batch *b, size_t index);
    /* Starts the reader on the next batch, into m_staged. */
    void PostRead();
    /* The reader's batch into b, once read. */
    bool TakeRead(Batch *b);
    /* Runs b, read, through the engine (and builds its features ahead). */
    bool ComputeBatch(Batch *b, bool prebuild);
    /* Ends the helper and the reader (in that order: a job of the helper
     * may wait for the reader). */
    void QuitHelpers();
    /* Builds b's features on the helper while the caller is still handing
     * out the current batch (the helper has time to spare), on the
     * engine's workers, each a run of them; a run stops at a feature that
     * fails (that one is built again when handed out, and fails there with
     * its message) or once the caller waits for the batch. What is not
     * built is built when handed out. */
    void PrebuildFeatures(Batch *b) const;
    /* Makes b the current batch. */
    void TakeBatch(Batch *b);
    void FlushBuildStage();
    OGRFeature *BuildFeature(size_t i);
    /* The input and method feature of result row i of (in, r), checked
     * against what the batch holds (false when the engine's index is out
     * of range, with a CE_Failure if `report`; *me is -1 when the operation
     * has no method row). */
    bool RowSources(const vsgpu::SourceBatch &in, const vsg_result &r, size_t i,
                    bool report, int64_t *in_row, int64_t *me_row) const;
    bool RowSources(size_t i, int64_t *in, int64_t *me) const
    {
        return RowSources(m_in, m_result, i, true, in, me);
    }
    /* Copies the output fields of result rows (in, me) into f. */
    void CopyFields(OGRFeature *f, const vsgpu::SourceBatch &in, int64_t in_row,
                    int64_t me_row) const;
    /* Whether result rows carry a method feature's fields. */
    bool NeedMethod() const;

  protected:
    bool Start() override;
    OGRFeature *NextResult() override;
    void Stop() override;
    void Quiesce() override;
    size_t ArrowRowsReady() override;
    bool TakeArrowRows(size_t n, const std::vector<int> &fields,
                       ArrowRows *rows) override;
    /* into m_build_s/m_build_rows, flushed by FlushBuildStage */
    void NoteArrowBuild(double t0, int64_t n) override;

  public:
    explicit OGRVSGPUOverlayLayer(std::unique_ptr<vsgpu::Plan> plan);
    ~OGRVSGPUOverlayLayer() override;
};

/* ST_Union ... GROUP BY: reads all, groups, one vsg_dissolve call. */
class OGRVSGPUDissolveLayer final : public OGRVSGPUResultLayer
{
    struct KeyValue
    {
        int type = 0; /* 0 null, 1 integer, 2 real, 3 string */
        GIntBig i = 0;
        double d = 0;
        std::string s;
    };
    std::vector<std::vector<KeyValue>> m_group_keys; /* per group */
    std::vector<std::unique_ptr<OGRFeature>> m_group_rep; /* fields   */
    std::vector<GIntBig> m_group_count;
    vsg_result m_result;
    size_t m_pos = 0;

    bool ReadAndDissolve();
    /* vsg_engine_set_progress's callback: groups dissolved. */
    static int OnEngineProgress(int64_t done, int64_t total, void *data);
    /* Progress of handing out the groups; false when stopped. */
    bool ReportWritten();
    OGRFeature *BuildFeature(size_t i);
    static int CompareKeys(const std::vector<KeyValue> &a,
                           const std::vector<KeyValue> &b);
    static int CompareValue(const KeyValue &a, const KeyValue &b);
    static uint64_t HashKey(const std::vector<KeyValue> &kv);
    static bool HasNaN(const std::vector<KeyValue> &kv);
    static void GroupRows(const std::vector<std::vector<KeyValue>> &keys,
                          const std::vector<size_t> &first, const std::vector<size_t> &id,
                          std::vector<size_t> *rep_rows, std::vector<int64_t> *group_of);
    /* Whether a key can be NaN (a column of reals). */
    bool KeysMayBeNaN() const;
    KeyValue Evaluate(const vsgpu::GroupKey &key, const OGRFeature &f) const;

  protected:
    bool Start() override;
    OGRFeature *NextResult() override;
    void Stop() override;
    size_t ArrowRowsReady() override;
    bool TakeArrowRows(size_t n, const std::vector<int> &fields,
                       ArrowRows *rows) override;

  public:
    explicit OGRVSGPUDissolveLayer(std::unique_ptr<vsgpu::Plan> plan);
    ~OGRVSGPUDissolveLayer() override;
};

/* ---- the dataset -------------------------------------------------------- */

class OGRVSGPUDataset final : public GDALDataset
{
    GDALDataset *m_wrapped = nullptr;
    std::string m_source;
    CPLStringList m_open_options; /* ours, without SRC_* */
    CPLStringList m_src_options;  /* the source's (SRC_* without prefix) */
    /* SQLite fallback results and the read-only handles they run on. */
    std::map<OGRLayer *, GDALDataset *> m_fallback_results;
    std::string m_descriptor;     /* the .vsgpu file, "" when none */
    bool m_dialect_vsgpu = false; /* DIALECT=VSGPU */
    std::set<OGRLayer *> m_results;

    /* Explicit: -dialect VSGPU. Default: no dialect under DIALECT=VSGPU,
     * where what VSGPU does not take goes to the wrapped dataset as sent
     * (dialect: what the caller passed, nullptr or ""). */
    enum class Route
    {
        Explicit,
        Default
    };
    OGRLayer *ExecuteVSGPU(const char *sql, OGRGeometry *spatial_filter,
                           Route route, const char *dialect);
    OGRLayer *Forward(const char *sql, OGRGeometry *spatial_filter,
                      const char *dialect, const char *why);
    OGRLayer *FallbackToSQLite(const char *sql, OGRGeometry *spatial_filter,
                               const char *reason);

  protected:
    OGRLayer *ICreateLayer(VSGPU_ICREATELAYER_PARAMS) override;

  public:
    OGRVSGPUDataset() = default;
    ~OGRVSGPUDataset() override;

    /* The source dataset its layers are in, where it was opened without
     * source open options (SRC_*), so that opening it again by its name
     * gives the same layers; nullptr otherwise. */
    GDALDataset *PlainSource() const
    {
        return m_src_options.Count() == 0 ? m_wrapped : nullptr;
    }

    static int Identify(GDALOpenInfo *info);
    static GDALDataset *Open(GDALOpenInfo *info);
    /* Opens source with the open options (ours and SRC_*). descriptor:
     * the .vsgpu file it came from, or nullptr. */
    static GDALDataset *OpenSource(GDALOpenInfo *info, const char *source,
                                   CSLConstList open_options,
                                   const char *descriptor);

    GDALDataset *Wrapped() const
    {
        return m_wrapped;
    }

    int GetLayerCount() VSGPU_CONST_ACCESSOR override;
    OGRLayer *GetLayer(int i) VSGPU_CONST_ACCESSOR override;
    OGRLayer *GetLayerByName(const char *name) override;
    OGRErr DeleteLayer(int i) override;
    int TestCapability(const char *cap) VSGPU_CONST_ACCESSOR override;

    OGRLayer *ExecuteSQL(const char *sql, OGRGeometry *spatial_filter,
                         const char *dialect) override;
    void ReleaseResultSet(OGRLayer *layer) override;

    OGRErr StartTransaction(int force = FALSE) override;
    OGRErr CommitTransaction() override;
    OGRErr RollbackTransaction() override;

    std::vector<std::string>
    GetFieldDomainNames(CSLConstList options = nullptr) const override;
    const OGRFieldDomain *GetFieldDomain(const std::string &name) const override;
    bool AddFieldDomain(std::unique_ptr<OGRFieldDomain> &&domain,
                        std::string &failure) override;
    std::vector<std::string>
    GetRelationshipNames(CSLConstList options = nullptr) const override;
    const GDALRelationship *
    GetRelationship(const std::string &name) const override;

    char **GetMetadataDomainList() override;
    VSGPUMetadataList GetMetadata(const char *domain = "") override;
    const char *GetMetadataItem(const char *name,
                                const char *domain = "") override;
    CPLErr SetMetadata(VSGPUMetadataList md, const char *domain = "") override;
    CPLErr SetMetadataItem(const char *name, const char *value,
                           const char *domain = "") override;

    VSGPUFlushResult FlushCache(bool at_closing = false) override;
    char **GetFileList() override;
    OGRStyleTable *GetStyleTable() override;
};

#endif /* OGR_VSGPU_H_INCLUDED */
