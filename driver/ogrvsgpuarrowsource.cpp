/*
 * ogrvsgpuarrowsource.cpp - reading a source layer through its Arrow
 * stream (RFC 86, OGR_L_GetArrowStream), whole (ReadSourceArrow: a
 * dissolve's input, an overlay's method layer) or batch after batch
 * (ArrowBatchReader: an overlay's input), where the layer's driver offers a
 * fast one (OLCFastGetArrowStream: GeoPackage from GDAL 3.6, FlatGeobuf,
 * Parquet and others later). The layer's driver hands out each row's WKB
 * as stored, without building an OGRGeometry and exporting it again, which
 * is most of what the feature path costs.
 *
 * The result is the feature path's, row for row (ReadSourceBatch in
 * ogrvsgpusource.cpp): the same FIDs, fields (geometry removed), WKB and
 * counts. Plain geometries (little-endian 2D Polygon or MultiPolygon whose
 * structure checks out to the last byte: what the feature path's ISO
 * export writes for them) are taken as they are, without a copy (the
 * batch keeps the record batches they lie in); any other WKB goes
 * through OGR (parse, linearise curves, export) as on the feature path;
 * a null, or WKB that OGR cannot parse, is read again at the end of its
 * batch as the feature path reads it (GetFeature: the driver's failure,
 * counted as unreadable, or a true NULL). The path is taken only where it
 * provably reads the same rows: no spatial or attribute filter, no
 * reprojection, one geometry field, and attribute fields of the Arrow
 * types read here (32/64-bit integers, reals, strings); otherwise, or with
 * VSGPU_ARROW_INPUT=NO, the caller reads features.
 */
#include "ogr_vsgpu.h"

#include "cpl_conv.h"
#include "ogr_api.h"
#include "ogr_recordbatch.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>

namespace vsgpu
{
namespace
{

/* Whether field type t (with its subtype) is one this reader decodes. */
bool SimpleField(const OGRFieldDefn *fd)
{
    if (fd->GetSubType() != OFSTNone)
        return false;
    const OGRFieldType t = fd->GetType();
    return t == OFTInteger || t == OFTInteger64 || t == OFTReal || t == OFTString;
}

bool Eligible(const Source &src)
{
    OGRLayer *lyr = src.layer;
    if (!CPLTestBool(CPLGetConfigOption("VSGPU_ARROW_INPUT", "YES")))
        return false;
    if (!lyr->TestCapability(OLCFastGetArrowStream) || !src.where.empty() || src.transform)
        return false;
    OGRFeatureDefn *defn = lyr->GetLayerDefn();
    if (defn->GetGeomFieldCount() != 1 || src.geom_field != 0 ||
        lyr->GetSpatialFilter() != nullptr)
        return false;
    for (int i = 0; i < defn->GetFieldCount(); ++i)
        if (!SimpleField(defn->GetFieldDefn(i)))
            return false;
    return true;
}

/* Rows per record batch. GDAL's Arrow stream of a GeoPackage (3.6) reads
 * one record batch of many large rows much more slowly than several small
 * batches of the same rows: on the development VM (2026-11-27,
 * docs/benchmarks.md) the tiled boroughs (720 rows of 240 KB) took 0.18 s
 * in one batch and 0.06 s in batches of 5 to 20 rows; the tiled counties
 * (390,830 rows of 330 bytes) 0.10 s in batches of 65,536 and 0.07 s of
 * 4,096. Batches of about 2 MiB are the fast ones, so the rows' size is
 * taken from the first few features, read as features before the stream
 * opens (which starts the layer again). VSGPU_ARROW_BATCH_ROWS sets the
 * count instead (tests). */
std::string BatchRows(OGRLayer *lyr)
{
    if (const char *rows = CPLGetConfigOption("VSGPU_ARROW_BATCH_ROWS", nullptr))
        return rows;
    constexpr int kProbe = 16;
    constexpr double kBatchBytes = 2.0 * 1024 * 1024;
    lyr->ResetReading();
    double bytes = 0;
    int n = 0;
    /* what the probe's rows say (a bad blob) the stream says again */
    const CPLErr last_type = CPLGetLastErrorType();
    const CPLErrorNum last_no = CPLGetLastErrorNo();
    const std::string last_msg = CPLGetLastErrorMsg();
    CPLPushErrorHandler(CPLQuietErrorHandler);
    for (; n < kProbe; ++n)
    {
        std::unique_ptr<OGRFeature> f(lyr->GetNextFeature());
        if (!f)
            break;
        const OGRGeometry *g = f->GetGeomFieldRef(0);
        bytes += 16.0 * f->GetFieldCount() + (g != nullptr ? g->WkbSize() : 0);
    }
    lyr->ResetReading();
    CPLPopErrorHandler();
    CPLErrorSetState(last_type, last_no, last_msg.c_str());
    if (n == 0)
        return "65536";
    const double rows = kBatchBytes / std::max(bytes / n, 1.0);
    int r = 4;
    while (r < 65536 && 2.0 * r <= rows)
        r *= 2;
    return std::to_string(r);
}

bool IsNull(const ArrowArray *a, int64_t i)
{
    if (a->null_count == 0 || a->buffers[0] == nullptr)
        return false;
    const uint8_t *bits = static_cast<const uint8_t *>(a->buffers[0]);
    const int64_t j = i + a->offset;
    return (bits[j >> 3] & (1u << (j & 7))) == 0;
}

/* Little-endian reads that do not assume alignment. */
uint32_t U32(const unsigned char *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* Whether w[0, n) is exactly one little-endian 2D Polygon (type 3) or
 * MultiPolygon (6) of Polygons: counts within the buffer, no byte over. */
bool PlainPolygonal(const unsigned char *w, size_t n)
{
    const auto polygon = [&](size_t *o) -> bool
    {
        if (n - *o < 9 || w[*o] != 1 || U32(w + *o + 1) != 3)
            return false;
        uint32_t rings = U32(w + *o + 5);
        *o += 9;
        for (uint32_t r = 0; r < rings; ++r)
        {
            if (n - *o < 4)
                return false;
            const uint64_t pts = U32(w + *o);
            *o += 4;
            if (pts * 16 > n - *o)
                return false;
            *o += static_cast<size_t>(pts * 16);
        }
        return true;
    };
    if (n < 9 || w[0] != 1)
        return false;
    size_t o = 0;
    const uint32_t type = U32(w + 1);
    if (type == 3)
        return polygon(&o) && o == n;
    if (type != 6)
        return false;
    const uint32_t parts = U32(w + 5);
    o = 9;
    for (uint32_t k = 0; k < parts; ++k)
        if (!polygon(&o))
            return false;
    return o == n;
}

/* OGR's parse of w[0, n), its complaints kept from the error handler and
 * the error state (the row is read again as a feature when it fails). */
bool ParseQuietly(const unsigned char *w, size_t n, OGRGeometry **g)
{
    CPLErrorStateBackuper keep;
    CPLPushErrorHandler(CPLQuietErrorHandler);
    const bool ok = OGRGeometryFactory::createFromWkb(w, nullptr, g, n) == OGRERR_NONE && *g;
    CPLPopErrorHandler();
    return ok;
}

/* What the layer's driver said while it filled a record batch, kept until
 * the batch's rows are sorted. From GDAL 3.10 on, GeoPackage's stream
 * reports an unreadable geometry itself ("Unable to read geometry") and
 * hands the row out as NULL; the row is read again as a feature
 * (ReadDeferred), which reports it once more, as the feature path does.
 * So a record batch's failures are dropped when it has such rows;
 * everything else is passed on as it was said. */
struct Said
{
    CPLErr cls;
    CPLErrorNum no;
    std::string msg;
};

void CPL_STDCALL Hold(CPLErr cls, CPLErrorNum no, const char *msg)
{
    auto *said = static_cast<std::vector<Said> *>(CPLGetErrorHandlerUserData());
    said->push_back({cls, no, msg ? msg : ""});
}

void PassOn(const std::vector<Said> &said, bool keep_failures)
{
    for (const Said &m : said)
        if (m.cls != CE_Failure || keep_failures)
            CPLError(m.cls, m.no, "%s", m.msg.c_str());
}

/* The columns of one record batch this reader uses. */
struct Columns
{
    const ArrowArray *fid = nullptr, *geom = nullptr;
    std::vector<const ArrowArray *> field; /* by OGR field index */
};

bool FindColumns(const ArrowSchema &schema, const ArrowArray &batch, OGRLayer *lyr,
                 Columns *c)
{
    OGRFeatureDefn *defn = lyr->GetLayerDefn();
    const char *fid_name = lyr->GetFIDColumn();
    const char *geom_name = lyr->GetGeometryColumn();
    c->field.assign(static_cast<size_t>(defn->GetFieldCount()), nullptr);
    for (int64_t k = 0; k < schema.n_children && k < batch.n_children; ++k)
    {
        const char *name = schema.children[k]->name;
        const char *fmt = schema.children[k]->format;
        const ArrowArray *a = batch.children[k];
        if (name == nullptr || fmt == nullptr)
            continue;
        if (EQUAL(name, (fid_name && fid_name[0]) ? fid_name : "OGC_FID") && strcmp(fmt, "l") == 0)
            c->fid = a;
        else if (EQUAL(name, (geom_name && geom_name[0]) ? geom_name : "wkb_geometry") &&
                 strcmp(fmt, "z") == 0)
            c->geom = a;
        else
        {
            const int i = defn->GetFieldIndex(name);
            if (i < 0)
                continue;
            const OGRFieldType t = defn->GetFieldDefn(i)->GetType();
            const bool ok = (t == OFTInteger && strcmp(fmt, "i") == 0) ||
                            (t == OFTInteger64 && strcmp(fmt, "l") == 0) ||
                            (t == OFTReal && strcmp(fmt, "g") == 0) ||
                            (t == OFTString && strcmp(fmt, "u") == 0);
            if (!ok)
                return false;
            c->field[static_cast<size_t>(i)] = a;
        }
    }
    if (c->fid == nullptr || c->geom == nullptr)
        return false;
    for (const ArrowArray *a : c->field)
        if (a == nullptr)
            return false;
    return true;
}

void SetField(OGRFeature *f, int i, OGRFieldType t, const ArrowArray *a, int64_t row)
{
    if (IsNull(a, row))
    {
        f->SetFieldNull(i);
        return;
    }
    const int64_t j = row + a->offset;
    switch (t)
    {
        case OFTInteger:
            f->SetField(i, static_cast<const int32_t *>(a->buffers[1])[j]);
            break;
        case OFTInteger64:
            f->SetField(i, static_cast<GIntBig>(static_cast<const int64_t *>(a->buffers[1])[j]));
            break;
        case OFTReal:
            f->SetField(i, static_cast<const double *>(a->buffers[1])[j]);
            break;
        default:
        {
            const int32_t *off = static_cast<const int32_t *>(a->buffers[1]);
            const char *data = static_cast<const char *>(a->buffers[2]);
            f->SetField(i, std::string(data + off[j], static_cast<size_t>(off[j + 1] - off[j]))
                               .c_str());
            break;
        }
    }
}

/* One record batch's rows, as FetchChunk sorts them: the record batch (its
 * rows' WKB is borrowed), each row's geometry entry (the borrowed bytes,
 * WKB exported by OGR, or a null) and the rows left to the feature path.
 * Every SourceBatch that takes its rows holds it until cleared. */
struct Chunk
{
    std::unique_ptr<ArrowArray> array;
    Columns cols;
    WkbBatch wkb;               /* per row         */
    std::vector<int64_t> defer; /* rows, ascending */
    GIntBig curves_linearized = 0;

    Chunk() = default;
    Chunk(const Chunk &) = delete;
    Chunk &operator=(const Chunk &) = delete;
    ~Chunk()
    {
        if (array && array->release)
            array->release(array.get());
        wkb.Clear();
    }
};

/* Row `row` of record batch c: its geometry entry in out (a plain
 * geometry's WKB borrowed; any other exported by OGR as the feature path
 * exports it; a null, or WKB OGR cannot parse, left to the feature path's
 * own reading of that feature, ReadDeferred). */
bool TakeGeometry(const Columns &c, int64_t row, Chunk *out)
{
    bool defer = IsNull(c.geom, row);
    if (!defer)
    {
        const int32_t *off = static_cast<const int32_t *>(c.geom->buffers[1]);
        const int64_t j = row + c.geom->offset;
        const unsigned char *w = static_cast<const unsigned char *>(c.geom->buffers[2]) + off[j];
        const size_t n = static_cast<size_t>(off[j + 1] - off[j]);
        OGRGeometry *g = nullptr;
        if (PlainPolygonal(w, n))
            out->wkb.AddBorrowed(w, n);
        else if (ParseQuietly(w, n, &g))
        {
            std::unique_ptr<OGRGeometry> own(g);
            if (!out->wkb.Add(g, &out->curves_linearized))
                return false;
        }
        else
        {
            delete g;
            defer = true;
        }
    }
    if (defer)
    {
        out->defer.push_back(row);
        out->wkb.AddNull();
    }
    return true;
}

/* Row `row` of record batch c into the caller's batch: fields, FID, and
 * the geometry entry FetchChunk made for it (wkb, n; or, deferred, a null
 * ReadDeferred fills). The fields are read into
 * *scratch, one feature for every row whose fields are not kept; a kept
 * row takes it, and the next row gets a new one (a feature per row is
 * most of what reading a layer of small rows costs). */
bool TakeRow(const Columns &c, int64_t row, OGRFeatureDefn *defn, SourceBatch *batch,
             bool keep_fields, const RowVisit &visit, const std::vector<int> *visit_fields,
             std::unique_ptr<OGRFeature> *scratch, const unsigned char *wkb, size_t n,
             bool deferred_row, std::vector<size_t> *deferred)
{
    if (!*scratch)
        scratch->reset(new OGRFeature(defn));
    OGRFeature *f = scratch->get();
    const GIntBig fid = static_cast<const int64_t *>(c.fid->buffers[1])[row + c.fid->offset];
    f->SetFID(fid);
    const auto set = [&](int i)
    { SetField(f, i, defn->GetFieldDefn(i)->GetType(), c.field[static_cast<size_t>(i)], row); };
    /* only the visit's fields before it (the scratch feature's others are
     * stale until the row is kept and they are set below) */
    const bool some = visit && visit_fields != nullptr;
    if (some)
        for (int i : *visit_fields)
            set(i);
    else if (keep_fields || visit)
        for (int i = 0; i < defn->GetFieldCount(); ++i)
            set(i);
    if (deferred_row)
    {
        deferred->push_back(batch->wkb.Count());
        batch->wkb.AddNull();
    }
    else
        batch->wkb.AddBorrowed(wkb, n);
    const int seen = visit ? visit(*f) : 1;
    if (seen < 0)
        return false;   /* stopped by the caller (progress cancelled) */
    batch->fids.push_back(fid);
    if (keep_fields && seen > 0 && some)
        for (int i = 0; i < defn->GetFieldCount(); ++i)
            if (std::find(visit_fields->begin(), visit_fields->end(), i) == visit_fields->end())
                set(i);
    if (keep_fields)
        batch->feats.push_back(seen > 0 ? std::move(*scratch) : nullptr);
    return true;
}

/* Entry i of the batch as the feature path reads it: the feature by its
 * FID, a driver failure counted as unreadable (or the statement's error
 * under INVALID=ERROR), its geometry exported as Add does. */
bool ReadDeferred(const Source &src, SourceBatch *batch, size_t i, DriverCounts *counts,
                  OGRLayer *lyr = nullptr)
{
    const GIntBig fid = batch->fids[i];
    const GUInt32 errors_before = CPLGetErrorCounter();
    std::unique_ptr<OGRFeature> f((lyr ? lyr : src.layer)->GetFeature(fid));
    const bool failed_read = DriverFailedSince(errors_before);
    const OGRGeometry *g = f ? f->GetGeomFieldRef(src.geom_field) : nullptr;
    if (g == nullptr)
        return !failed_read || NoteUnreadable(src, fid, counts);
    return batch->wkb.Set(i, g, &counts->curves_linearized);
}

}  // namespace

/* ---- the overlays' input, batch after batch ------------------------------ */

struct ArrowBatchState
{
    const Source *src = nullptr;
    ArrowArrayStream stream;
    ArrowSchema schema;
    std::shared_ptr<Chunk> cur; /* the record batch rows are taken from */
    int64_t row = 0;            /* its next row                          */
    size_t defer_pos = 0;       /* its next row left to the feature path */
    bool end = false;
    size_t chunks = 0;          /* record batches fetched                */
    std::unique_ptr<OGRFeature> scratch; /* TakeRow's */
    /* batch after batch, rows left to the feature path are read through a
     * second handle of the dataset: GetFeature on the layer itself would
     * disturb its stream (GeoPackage's lost a row, 2026-11-27) */
    GDALDataset *aside = nullptr;
    OGRLayer *aside_layer = nullptr;
};

namespace
{

/* The stream's next record batch as st->cur: 1; 0 at the end; -1 failed
 * (CE_Failure raised); -2 a layout this reader does not take (nothing
 * taken from the stream yet: the caller reads features). What the driver
 * said while filling it is raised now, its failures dropped where rows are
 * left to the feature path (which says them again, as ReadSourceArrow). */
int FetchChunk(ArrowBatchState *st, bool first)
{
    auto chunk = std::make_shared<Chunk>();
    chunk->array.reset(new ArrowArray);
    ArrowArray *arr = chunk->array.get();
    memset(arr, 0, sizeof *arr);
    std::vector<Said> said;
    CPLPushErrorHandlerEx(Hold, &said);
    const int got = st->stream.get_next(&st->stream, arr);
    CPLPopErrorHandler();
    const std::string &name = st->src->name;
    if (got != 0)
    {
        PassOn(said, true);
        const char *msg = st->stream.get_last_error ? st->stream.get_last_error(&st->stream)
                                                    : nullptr;
        CPLError(CE_Failure, CPLE_AppDefined, "VSGPU: reading layer '%s': %s", name.c_str(),
                 msg ? msg : "Arrow stream error");
        return -1;
    }
    if (arr->release == nullptr)
    {
        PassOn(said, true);
        return 0;
    }
    if (!FindColumns(st->schema, *arr, st->src->layer, &chunk->cols))
    {
        if (first)
            return -2;
        PassOn(said, true);
        CPLError(CE_Failure, CPLE_AppDefined,
                 "VSGPU: layer '%s': its Arrow stream changed its columns", name.c_str());
        return -1;
    }
    for (int64_t r = 0; r < arr->length; ++r)
        if (!TakeGeometry(chunk->cols, r, chunk.get()))
        {
            PassOn(said, true);
            return -1;
        }
    PassOn(said, chunk->defer.empty());
    st->cur = std::move(chunk);
    st->row = 0;
    st->defer_pos = 0;
    ++st->chunks;
    return 1;
}

void CloseStream(ArrowBatchState *st)
{
    if (st->schema.release)
        st->schema.release(&st->schema);
    if (st->stream.release)
        st->stream.release(&st->stream);
    st->src->layer->ResetReading();
    if (st->aside)
        GDALClose(GDALDataset::ToHandle(st->aside));
    st->aside = nullptr;
    st->aside_layer = nullptr;
}

/* The same layer in a second, read-only handle of src's dataset (*ds),
 * where the rows left to the feature path are read batch after batch;
 * null, and *ds null, where the dataset does not open again by its name
 * and driver to the same layer. */
OGRLayer *OpenAside(const Source &src, GDALDataset **ds)
{
    const char *const drivers[] = {src.dataset->GetDriver()->GetDescription(), nullptr};
    CPLErrorStateBackuper keep;
    CPLPushErrorHandler(CPLQuietErrorHandler);
    *ds = GDALDataset::Open(src.dataset->GetDescription(), GDAL_OF_VECTOR | GDAL_OF_READONLY,
                            drivers, nullptr, nullptr);
    CPLPopErrorHandler();
    OGRLayer *lyr = *ds ? (*ds)->GetLayerByName(src.name.c_str()) : nullptr;
    if (lyr == nullptr ||
        lyr->GetLayerDefn()->GetFieldCount() != src.layer->GetLayerDefn()->GetFieldCount())
    {
        if (*ds)
            GDALClose(GDALDataset::ToHandle(*ds));
        *ds = nullptr;
        return nullptr;
    }
    return lyr;
}

}  // namespace

ArrowBatchReader::ArrowBatchReader() = default;

ArrowBatchReader::~ArrowBatchReader()
{
    Close();
}

bool ArrowBatchReader::Start(const Source &src)
{
    /* batch after batch, rows left aside are read through a second handle
     * of the dataset, opened now: where it does not open again by its name
     * (an in-memory dataset, say) the layer is read as features */
    if (src.dataset == nullptr || src.dataset->GetDriver() == nullptr || !Eligible(src))
        return false;
    GDALDataset *ds = nullptr;
    OGRLayer *aside = OpenAside(src, &ds);
    if (aside == nullptr)
        return false;
    if (!StartStream(src))
    {
        GDALClose(GDALDataset::ToHandle(ds));
        return false;
    }
    m_state->aside = ds;
    m_state->aside_layer = aside;
    return true;
}

bool ArrowBatchReader::StartStream(const Source &src)
{
    Close();
    if (!Eligible(src))
        return false;
    auto st = std::make_unique<ArrowBatchState>();
    memset(&st->stream, 0, sizeof st->stream);
    memset(&st->schema, 0, sizeof st->schema);
    st->src = &src;
    char **opts = CSLSetNameValue(nullptr, "INCLUDE_FID", "YES");
    opts = CSLSetNameValue(opts, "MAX_FEATURES_IN_BATCH", BatchRows(src.layer).c_str());
    const bool opened = OGR_L_GetArrowStream(OGRLayer::ToHandle(src.layer), &st->stream, opts);
    CSLDestroy(opts);
    if (!opened)
        return false;
    /* the first record batch now: a layout this reader does not take, or a
     * stream that fails at once, leaves the layer to the feature path */
    int got = st->stream.get_schema(&st->stream, &st->schema) == 0 ? 0 : -2;
    std::vector<Said> said; /* raised only if the stream is kept */
    if (got == 0)
    {
        CPLPushErrorHandlerEx(Hold, &said);
        got = FetchChunk(st.get(), true);
        CPLPopErrorHandler();
    }
    if (got < 0)
    {
        CloseStream(st.get());
        return false;
    }
    PassOn(said, true);
    st->end = got == 0;
    m_state = std::move(st);
    return true;
}

bool ArrowBatchReader::Active() const
{
    return m_state != nullptr;
}

namespace
{

/* Up to max_rows more rows of st's stream into batch, stopping after the
 * row that brings its WKB to max_bytes or more; keep_fields, visit and
 * visit_fields as ReadWholeSource's. false: failed (CE_Failure raised) or
 * stopped by the visit. */
bool ReadRows(ArrowBatchState *st, size_t max_rows, size_t max_bytes, bool keep_fields,
              const RowVisit &visit, const std::vector<int> *visit_fields, SourceBatch *batch,
              DriverCounts *counts, std::vector<size_t> *left_aside = nullptr)
{
    const Source &src = *st->src;
    OGRFeatureDefn *defn = src.layer->GetLayerDefn();
    batch->at_end = false;
    std::vector<size_t> deferred; /* batch entries the feature path reads */
    const Chunk *held = nullptr;
    for (size_t n = 0; n < max_rows && batch->wkb.Bytes() < max_bytes; ++n)
    {
        if (!st->cur || st->row == st->cur->array->length)
        {
            const int got = st->end ? 0 : FetchChunk(st, false);
            if (got < 0)
                return false;
            if (got == 0)
            {
                st->end = true;
                st->cur.reset();
                batch->at_end = true;
                break;
            }
        }
        Chunk *c = st->cur.get();
        if (held != c)
        {
            batch->wkb.Hold(st->cur); /* its rows' WKB is borrowed */
            held = c;
            if (st->row == 0)
                counts->curves_linearized += c->curves_linearized;
        }
        const int64_t r = st->row++;
        const bool deferred_row =
            st->defer_pos < c->defer.size() && c->defer[st->defer_pos] == r;
        st->defer_pos += deferred_row ? 1 : 0;
        const vsg_wkb_array v = c->wkb.View();
        if (!TakeRow(c->cols, r, defn, batch, keep_fields, visit, visit_fields, &st->scratch,
                     v.wkb[r], v.size[r], deferred_row, &deferred))
            return false;
    }
    if (left_aside != nullptr)
    {
        left_aside->insert(left_aside->end(), deferred.begin(), deferred.end());
        return true;
    }
    for (size_t i : deferred)
        if (!ReadDeferred(src, batch, i, counts, st->aside_layer))
            return false;
    return true;
}

}  // namespace

bool ArrowBatchReader::Read(size_t max_rows, size_t max_bytes, SourceBatch *batch,
                            DriverCounts *counts)
{
    return ReadRows(m_state.get(), max_rows, max_bytes, true, nullptr, nullptr, batch, counts);
}

void ArrowBatchReader::Close()
{
    if (!m_state)
        return;
    CloseStream(m_state.get());
    m_state.reset();
}

int ReadSourceArrow(const Source &src, bool keep_fields, SourceBatch *batch,
                    DriverCounts *counts, const RowVisit &visit,
                    const std::vector<int> *visit_fields)
{
    ArrowBatchReader reader;
    if (!reader.StartStream(src))
        return 0; /* the layer reads features instead */
    ArrowBatchState *st = reader.m_state.get();
    std::vector<size_t> left_aside; /* read after the stream, as features */
    bool ok = ReadRows(st, SIZE_MAX, SIZE_MAX, keep_fields, visit, visit_fields, batch, counts,
                       &left_aside);
    const unsigned chunks = static_cast<unsigned>(st->chunks);
    reader.Close();
    for (size_t k = 0; ok && k < left_aside.size(); ++k)
        ok = ReadDeferred(src, batch, left_aside[k], counts);
    CPLDebug(VSGPU_DEBUG, "layer '%s' %s (%u record batches)", src.name.c_str(),
             ok ? "read through its Arrow stream" : "read through its Arrow stream: failed",
             chunks);
    batch->at_end = ok;
    return ok ? 1 : -1;
}

}  // namespace vsgpu
