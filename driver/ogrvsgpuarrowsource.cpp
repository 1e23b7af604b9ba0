/*
 * ogrvsgpuarrowsource.cpp - reading a whole source layer through its Arrow
 * stream (RFC 86, OGR_L_GetArrowStream) where the layer's driver offers a
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
 * a null, or WKB that OGR cannot parse, is read again after the stream as
 * the feature path reads it (GetFeature: the driver's failure, counted as
 * unreadable, or a true NULL). The path is taken only where it
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
#include <condition_variable>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

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

/* What a stream's driver said while it filled record batches
 * (from_stream), and what was said around it (opening a range reader's
 * dataset, exporting a geometry): kept, and said again on the caller's
 * thread once every stream is read (GDAL's error handlers are per thread,
 * and a range reader runs on its own). From GDAL 3.10 on, GeoPackage's
 * stream reports an unreadable geometry itself ("Unable to read geometry")
 * and hands the row out as NULL; the row is read again as a feature
 * (ReadDeferred), which reports it once more, as the feature path does.
 * So the stream's failures are dropped when there are such rows;
 * everything else is passed on as it was said. */
struct Said
{
    CPLErr cls;
    CPLErrorNum no;
    std::string msg;
    bool from_stream;
};

struct SaidSink
{
    std::vector<Said> *said;
    bool from_stream;
};

void CPL_STDCALL Hold(CPLErr cls, CPLErrorNum no, const char *msg)
{
    auto *sink = static_cast<SaidSink *>(CPLGetErrorHandlerUserData());
    sink->said->push_back({cls, no, msg ? msg : "", sink->from_stream});
}

void PassOn(const std::vector<Said> &said, bool keep_stream_failures)
{
    for (const Said &m : said)
        if (m.cls != CE_Failure || !m.from_stream || keep_stream_failures)
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

/* One record batch's rows, as the stream's reader hands them over: the
 * record batch (its rows' WKB is borrowed), each row's geometry entry (the
 * borrowed bytes, WKB exported by OGR, or a null) and the rows the feature
 * path reads after the stream. A SourceBatch holds it until cleared. */
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

/* The stream's reader (a thread of its own) and the caller, who takes
 * each record batch's rows while the reader fills the next: GDAL's
 * stream and the rows' own work (fields, the visit) cost about the same
 * on a dissolve's read (docs/benchmarks.md), so they overlap. */
struct Handover
{
    std::mutex mu;
    std::condition_variable cv;
    std::deque<std::shared_ptr<Chunk>> ready;
    bool done = false; /* the reader has returned */
    bool stop = false; /* the caller takes no more */
    int result = 1;    /* 1 read, 0 not taken (nothing handed over), -1 failed */
    std::vector<Said> said; /* the reader's, once done */
    double read_s = 0;
};

/* Row `row` of record batch c: its geometry entry in out (a plain
 * geometry's WKB borrowed; any other exported by OGR as the feature path
 * exports it; a null, or WKB OGR cannot parse, left to the feature path's
 * own reading of that feature after the stream). */
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

/* The reader: every record batch of lyr's Arrow stream, handed over as a
 * Chunk. It touches lyr, and the caller does not until it is done; what
 * it says is kept for the caller. */
void ReadStream(OGRLayer *lyr, const Source &src, Handover *h)
{
    const double t0 = vsg_now_s();
    std::vector<Said> said;
    SaidSink around{&said, false};
    CPLPushErrorHandlerEx(Hold, &around);
    int result = 1;
    ArrowArrayStream stream;
    memset(&stream, 0, sizeof stream);
    char **opts = CSLSetNameValue(nullptr, "INCLUDE_FID", "YES");
    /* rows per record batch (the driver's default otherwise): tests take
     * small batches, so that many are held at once */
    if (const char *rows = CPLGetConfigOption("VSGPU_ARROW_BATCH_ROWS", nullptr))
        opts = CSLSetNameValue(opts, "MAX_FEATURES_IN_BATCH", rows);
    const bool opened = OGR_L_GetArrowStream(OGRLayer::ToHandle(lyr), &stream, opts);
    CSLDestroy(opts);
    ArrowSchema schema;
    memset(&schema, 0, sizeof schema);
    if (!opened || stream.get_schema(&stream, &schema) != 0)
        result = 0; /* the layer reads features instead */
    bool first = true;
    while (result == 1)
    {
        auto chunk = std::make_shared<Chunk>();
        chunk->array.reset(new ArrowArray);
        ArrowArray *arr = chunk->array.get();
        memset(arr, 0, sizeof *arr);
        SaidSink sink{&said, true};
        CPLPushErrorHandlerEx(Hold, &sink);
        const int got = stream.get_next(&stream, arr);
        CPLPopErrorHandler();
        if (got != 0)
        {
            const char *msg = stream.get_last_error ? stream.get_last_error(&stream) : nullptr;
            CPLError(CE_Failure, CPLE_AppDefined, "VSGPU: reading layer '%s': %s",
                     src.name.c_str(), msg ? msg : "Arrow stream error");
            result = -1;
            break;
        }
        if (arr->release == nullptr)
            break; /* the end */
        if (!FindColumns(schema, *arr, lyr, &chunk->cols))
        {
            /* a layout this reader does not take: nothing handed over
             * yet, or the rows so far are lost for the feature path */
            result = first ? 0 : -1;
            if (result < 0)
                CPLError(CE_Failure, CPLE_AppDefined,
                         "VSGPU: layer '%s': its Arrow stream changed its columns",
                         src.name.c_str());
            break;
        }
        first = false;
        for (int64_t r = 0; r < arr->length && result == 1; ++r)
            if (!TakeGeometry(chunk->cols, r, chunk.get()))
                result = -1;
        if (result != 1)
            break;
        std::lock_guard<std::mutex> lock(h->mu);
        if (h->stop)
            break;
        h->ready.push_back(std::move(chunk));
        h->cv.notify_one();
    }
    if (schema.release)
        schema.release(&schema);
    if (stream.release)
        stream.release(&stream);
    CPLPopErrorHandler();
    std::lock_guard<std::mutex> lock(h->mu);
    h->result = result;
    h->said = std::move(said);
    h->read_s = vsg_now_s() - t0;
    h->done = true;
    h->cv.notify_one();
}

/* Row `row` of record batch c into the caller's batch: fields, FID, and
 * the geometry entry ReadStream made for it (wkb, n; or, deferred, a null
 * the feature path fills after the stream). The fields are read into
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
bool ReadDeferred(const Source &src, SourceBatch *batch, size_t i, DriverCounts *counts)
{
    const GIntBig fid = batch->fids[i];
    const GUInt32 errors_before = CPLGetErrorCounter();
    std::unique_ptr<OGRFeature> f(src.layer->GetFeature(fid));
    const bool failed_read = DriverFailedSince(errors_before);
    const OGRGeometry *g = f ? f->GetGeomFieldRef(src.geom_field) : nullptr;
    if (g == nullptr)
        return !failed_read || NoteUnreadable(src, fid, counts);
    return batch->wkb.Set(i, g, &counts->curves_linearized);
}

}  // namespace

int ReadSourceArrow(const Source &src, bool keep_fields, SourceBatch *batch,
                    DriverCounts *counts, const RowVisit &visit,
                    const std::vector<int> *visit_fields)
{
    if (!Eligible(src))
        return 0;
    OGRLayer *lyr = src.layer;
    OGRFeatureDefn *defn = lyr->GetLayerDefn();
    Handover h;
    std::thread reader;
    try
    {
        reader = std::thread(ReadStream, lyr, std::cref(src), &h);
    }
    catch (const std::exception &)
    {
        ReadStream(lyr, src, &h); /* no thread: read it all, then take */
    }
    bool taking = true, any_deferred = false;
    size_t n_batches = 0;
    double take_s = 0;
    std::vector<size_t> deferred; /* batch entries the feature path reads */
    std::unique_ptr<OGRFeature> scratch; /* TakeRow's */
    while (true)
    {
        std::shared_ptr<Chunk> c;
        {
            std::unique_lock<std::mutex> lock(h.mu);
            h.cv.wait(lock, [&] { return !h.ready.empty() || h.done; });
            if (h.ready.empty())
                break;
            c = std::move(h.ready.front());
            h.ready.pop_front();
        }
        if (!taking)
            continue; /* stopped: what is left is dropped */
        const double t0 = vsg_now_s();
        ++n_batches;
        /* the batch keeps the record batch (its rows' WKB is borrowed) and
         * the exported WKB */
        batch->wkb.Hold(c);
        counts->curves_linearized += c->curves_linearized;
        any_deferred = any_deferred || !c->defer.empty();
        const vsg_wkb_array v = c->wkb.View();
        size_t d = 0;
        for (int64_t r = 0; r < c->array->length; ++r)
        {
            const bool deferred_row = d < c->defer.size() && c->defer[d] == r;
            d += deferred_row ? 1 : 0;
            if (!TakeRow(c->cols, r, defn, batch, keep_fields, visit, visit_fields, &scratch,
                         v.wkb[r], v.size[r], deferred_row, &deferred))
            {
                taking = false;
                std::lock_guard<std::mutex> lock(h.mu);
                h.stop = true;
                break;
            }
        }
        take_s += vsg_now_s() - t0;
    }
    if (reader.joinable())
        reader.join();
    lyr->ResetReading();
    int result = taking ? h.result : -1;
    PassOn(h.said, !any_deferred);
    for (size_t i = 0; result == 1 && i < deferred.size(); ++i)
        if (!ReadDeferred(src, batch, deferred[i], counts))
            result = -1;
    if (result == 0)
        batch->wkb.Clear();
    batch->at_end = result == 1;
    CPLDebug(VSGPU_DEBUG, "layer '%s' %s (%u record batches)", src.name.c_str(),
             result == 1  ? "read through its Arrow stream"
             : result < 0 ? "read through its Arrow stream: failed"
                          : "not read through an Arrow stream: read as features",
             static_cast<unsigned>(n_batches));
    CPLDebug(VSGPU_DEBUG,
             "layer '%s': its stream read in %.3f s on a thread of its own, its rows "
             "taken in %.3f s",
             src.name.c_str(), h.read_s, take_s);
    return result;
}

}  // namespace vsgpu
