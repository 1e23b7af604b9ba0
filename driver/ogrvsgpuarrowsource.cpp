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
#include <cstring>
#include <memory>
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

/* One stream's rows, read before any is taken: its record batches (their
 * WKB is borrowed), each row's place in them, its geometry entry (the
 * borrowed bytes, WKB exported by OGR, or a null), and the rows the
 * feature path reads after the stream. A range reader's own dataset stays
 * open while a batch holds this (the record batches are released first). */
struct StreamRead
{
    std::vector<std::unique_ptr<ArrowArray>> arrays;
    std::vector<Columns> cols;                    /* per record batch     */
    std::vector<std::pair<size_t, int64_t>> rows; /* (record batch, row)  */
    WkbBatch wkb;                                 /* per row              */
    std::vector<size_t> defer;                    /* rows, ascending      */
    std::vector<Said> said;
    GIntBig curves_linearized = 0;
    int result = 1; /* 1 read, 0 not taken (nothing read), -1 failed */
    GDALDataset *ds = nullptr; /* a range reader's own */

    StreamRead() = default;
    StreamRead(const StreamRead &) = delete;
    StreamRead &operator=(const StreamRead &) = delete;
    ~StreamRead()
    {
        for (auto &a : arrays)
            if (a->release)
                a->release(a.get());
        arrays.clear();
        wkb.Clear();
        if (ds)
            GDALClose(GDALDataset::ToHandle(ds));
    }
};

/* Row `row` of a record batch: its geometry entry in out (a plain
 * geometry's WKB borrowed; any other exported by OGR as the feature path
 * exports it; a null, or WKB OGR cannot parse, left to the feature path's
 * own reading of that feature after the stream). */
bool TakeGeometry(const Columns &c, size_t batch_no, int64_t row, StreamRead *out)
{
    out->rows.emplace_back(batch_no, row);
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
        out->defer.push_back(out->rows.size() - 1);
        out->wkb.AddNull();
    }
    return true;
}

/* Every row of lyr's Arrow stream into out (lyr: the source layer, or a
 * range reader's own copy of it with its FID filter). */
void ReadStream(OGRLayer *lyr, const Source &src, StreamRead *out)
{
    ArrowArrayStream stream;
    memset(&stream, 0, sizeof stream);
    char **opts = CSLSetNameValue(nullptr, "INCLUDE_FID", "YES");
    /* rows per record batch (the driver's default otherwise): tests take
     * small batches, so that many are held at once */
    if (const char *rows = CPLGetConfigOption("VSGPU_ARROW_BATCH_ROWS", nullptr))
        opts = CSLSetNameValue(opts, "MAX_FEATURES_IN_BATCH", rows);
    const bool opened = OGR_L_GetArrowStream(OGRLayer::ToHandle(lyr), &stream, opts);
    CSLDestroy(opts);
    if (!opened)
    {
        out->result = 0; /* the layer reads features instead */
        return;
    }
    ArrowSchema schema;
    memset(&schema, 0, sizeof schema);
    if (stream.get_schema(&stream, &schema) != 0)
        out->result = 0;
    while (out->result == 1)
    {
        std::unique_ptr<ArrowArray> arr(new ArrowArray);
        memset(arr.get(), 0, sizeof *arr);
        SaidSink sink{&out->said, true};
        CPLPushErrorHandlerEx(Hold, &sink);
        const int got = stream.get_next(&stream, arr.get());
        CPLPopErrorHandler();
        if (got != 0)
        {
            const char *msg = stream.get_last_error ? stream.get_last_error(&stream) : nullptr;
            CPLError(CE_Failure, CPLE_AppDefined, "VSGPU: reading layer '%s': %s",
                     src.name.c_str(), msg ? msg : "Arrow stream error");
            out->result = -1;
            break;
        }
        if (arr->release == nullptr)
            break; /* the end */
        Columns c;
        if (!FindColumns(schema, *arr, lyr, &c))
        {
            arr->release(arr.get());
            /* a layout this reader does not take: nothing taken yet, or
             * the rows so far are lost for the feature path */
            out->result = out->arrays.empty() ? 0 : -1;
            if (out->result < 0)
                CPLError(CE_Failure, CPLE_AppDefined,
                         "VSGPU: layer '%s': its Arrow stream changed its columns",
                         src.name.c_str());
            break;
        }
        const size_t batch_no = out->arrays.size();
        out->cols.push_back(c);
        out->arrays.push_back(std::move(arr));
        const ArrowArray *a = out->arrays.back().get();
        for (int64_t r = 0; r < a->length && out->result == 1; ++r)
            if (!TakeGeometry(c, batch_no, r, out))
                out->result = -1;
    }
    if (schema.release)
        schema.release(&schema);
    stream.release(&stream);
}

/* ---- range readers ----------------------------------------------------- */

/* A GeoPackage table is read on several threads, each with its own
 * connection (its own GDAL dataset) and one range of FIDs, where the
 * layer is large enough: on the GPU host GDAL's stream was most of a
 * dissolve's read (docs/benchmarks.md). FIDs of a GeoPackage table are
 * its SQLite rowids, which its stream hands out in ascending order, so
 * the ranges read in order are the one stream's rows in its order. */
constexpr int kMaxRangeReaders = 8;

std::string QuoteName(const char *name)
{
    std::string q = "\"";
    for (const char *p = name; *p; ++p)
    {
        if (*p == '"')
            q += '"';
        q += *p;
    }
    return q + "\"";
}

/* The table's smallest and largest FID, through its own SQL. */
bool FidSpan(const Source &src, GIntBig *lo, GIntBig *hi)
{
    const char *fid = src.layer->GetFIDColumn();
    if (fid == nullptr || fid[0] == '\0')
        return false;
    /* one subquery each: SQLite answers a lone MIN or MAX of the rowid
     * from its b-tree, but scans the table for MIN and MAX together */
    const std::string c = QuoteName(fid), t = QuoteName(src.layer->GetName());
    const std::string sql = "SELECT (SELECT " + c + " FROM " + t + " ORDER BY " + c +
                            " LIMIT 1), (SELECT " + c + " FROM " + t + " ORDER BY " + c +
                            " DESC LIMIT 1)";
    CPLErrorStateBackuper keep;
    CPLPushErrorHandler(CPLQuietErrorHandler);
    OGRLayer *r = src.dataset->ExecuteSQL(sql.c_str(), nullptr, nullptr);
    bool ok = false;
    if (r != nullptr)
    {
        std::unique_ptr<OGRFeature> f(r->GetNextFeature());
        if (f && f->GetFieldCount() == 2 && f->IsFieldSetAndNotNull(0) &&
            f->IsFieldSetAndNotNull(1))
        {
            *lo = f->GetFieldAsInteger64(0);
            *hi = f->GetFieldAsInteger64(1);
            ok = *lo <= *hi;
        }
        src.dataset->ReleaseResultSet(r);
    }
    CPLPopErrorHandler();
    return ok;
}

/* How many range readers src's layer gets (0 or 1: it is read as one
 * stream): a read-only GeoPackage dataset that can be opened again by
 * its name, at least VSGPU_ARROW_RANGE_ROWS FIDs a reader (32,768 by
 * default), at most the statement's threads and kMaxRangeReaders. */
int RangeReaders(const Source &src, GIntBig *lo, GIntBig *hi)
{
    GDALDataset *ds = src.dataset;
    if (ds == nullptr || src.read_threads < 2 || ds->GetAccess() != GA_ReadOnly ||
        ds->GetDriver() == nullptr || !EQUAL(ds->GetDriver()->GetDescription(), "GPKG") ||
        ds->GetDescription()[0] == '\0')
        return 0;
    const GIntBig per =
        std::max<GIntBig>(1, CPLAtoGIntBig(CPLGetConfigOption("VSGPU_ARROW_RANGE_ROWS", "32768")));
    if (!FidSpan(src, lo, hi))
        return 0;
    const GIntBig span = *hi - *lo + 1;
    GIntBig k = std::min<GIntBig>(std::min(src.read_threads, kMaxRangeReaders), span / per);
    return static_cast<int>(std::max<GIntBig>(k, 0));
}

/* One range reader: its own dataset, src's layer in it filtered to one
 * range of FIDs (where), its stream. Everything it says is kept in out->said. */
void ReadRange(const std::string &path, const Source &src, int n_fields,
               const std::string &where, StreamRead *out)
{
    SaidSink sink{&out->said, false};
    CPLPushErrorHandlerEx(Hold, &sink);
    const char *const drivers[] = {"GPKG", nullptr};
    out->ds = GDALDataset::Open(path.c_str(), GDAL_OF_VECTOR | GDAL_OF_READONLY, drivers,
                                nullptr, nullptr);
    OGRLayer *lyr = out->ds ? out->ds->GetLayerByName(src.name.c_str()) : nullptr;
    if (lyr == nullptr || lyr->GetLayerDefn()->GetFieldCount() != n_fields ||
        lyr->SetAttributeFilter(where.c_str()) != OGRERR_NONE)
        out->result = 0;
    else
        ReadStream(lyr, src, out);
    CPLPopErrorHandler();
}

/* src's rows in k ranges of FIDs, on k threads; *reads empty where any
 * range could not be read that way (the caller reads one stream). */
void ReadRanges(const Source &src, int k, GIntBig lo, GIntBig hi,
                std::vector<std::shared_ptr<StreamRead>> *reads)
{
    const std::string path = src.dataset->GetDescription();
    /* read on the caller's thread before the readers start: a driver may
     * build its layer definition on first use */
    const int n_fields = src.layer->GetLayerDefn()->GetFieldCount();
    const std::string fid = QuoteName(src.layer->GetFIDColumn());
    const GIntBig span = hi - lo + 1;
    std::vector<std::thread> threads;
    for (int i = 0; i < k; ++i)
        reads->push_back(std::make_shared<StreamRead>());
    for (int i = 0; i < k; ++i)
    {
        const GIntBig a = lo + span / k * i + std::min<GIntBig>(i, span % k);
        const GIntBig b = lo + span / k * (i + 1) + std::min<GIntBig>(i + 1, span % k) - 1;
        StreamRead *out = (*reads)[static_cast<size_t>(i)].get();
        const std::string where = fid + " >= " + std::to_string(a) + " AND " + fid +
                                  " <= " + std::to_string(b);
        try
        {
            threads.emplace_back(ReadRange, path, std::cref(src), n_fields, where, out);
        }
        catch (const std::exception &)
        {
            out->result = 0; /* no thread: the caller reads one stream */
        }
    }
    for (std::thread &t : threads)
        t.join();
    for (const auto &r : *reads)
        if (r->result == 0)
        {
            reads->clear();
            return;
        }
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
    std::vector<std::shared_ptr<StreamRead>> reads;
    GIntBig lo = 0, hi = -1;
    const int k = RangeReaders(src, &lo, &hi);
    if (k >= 2)
        ReadRanges(src, k, lo, hi, &reads);
    const bool ranges = !reads.empty();
    if (!ranges)
    {
        reads.push_back(std::make_shared<StreamRead>());
        SaidSink sink{&reads[0]->said, false};
        CPLPushErrorHandlerEx(Hold, &sink);
        ReadStream(lyr, src, reads[0].get());
        CPLPopErrorHandler();
        lyr->ResetReading();
    }
    int result = 1;
    bool any_deferred = false;
    size_t n_batches = 0;
    for (const auto &r : reads)
    {
        if (r->result < 0 || (result == 1 && r->result == 0))
            result = r->result;
        any_deferred = any_deferred || !r->defer.empty();
        n_batches += r->arrays.size();
    }
    for (const auto &r : reads)
        PassOn(r->said, !any_deferred);
    std::vector<size_t> deferred; /* batch entries the feature path reads */
    std::unique_ptr<OGRFeature> scratch; /* TakeRow's */
    size_t n_rows = 0;
    for (const auto &r : reads)
        n_rows += r->rows.size();
    batch->fids.reserve(batch->fids.size() + n_rows);
    if (keep_fields)
        batch->feats.reserve(batch->feats.size() + n_rows);
    batch->wkb.Reserve(batch->wkb.Count() + n_rows);
    for (size_t s = 0; result == 1 && s < reads.size(); ++s)
    {
        StreamRead *r = reads[s].get();
        /* the batch keeps the record batches (their rows' WKB is borrowed),
         * the exported WKB and a range reader's dataset */
        batch->wkb.Hold(reads[s]);
        counts->curves_linearized += r->curves_linearized;
        const vsg_wkb_array v = r->wkb.View();
        size_t d = 0;
        for (size_t i = 0; i < r->rows.size(); ++i)
        {
            const bool deferred_row = d < r->defer.size() && r->defer[d] == i;
            d += deferred_row ? 1 : 0;
            if (!TakeRow(r->cols[r->rows[i].first], r->rows[i].second, defn, batch, keep_fields,
                         visit, visit_fields, &scratch, v.wkb[i], v.size[i], deferred_row,
                         &deferred))
            {
                result = -1;
                break;
            }
        }
    }
    reads.clear();
    for (size_t i = 0; result == 1 && i < deferred.size(); ++i)
        if (!ReadDeferred(src, batch, deferred[i], counts))
            result = -1;
    if (result == 0)
        batch->wkb.Clear();
    batch->at_end = result == 1;
    CPLDebug(VSGPU_DEBUG, "layer '%s' %s (%u record batches%s)", src.name.c_str(),
             result == 1  ? "read through its Arrow stream"
             : result < 0 ? "read through its Arrow stream: failed"
                          : "not read through an Arrow stream: read as features",
             static_cast<unsigned>(n_batches),
             ranges ? CPLSPrintf(", %d range readers", k) : "");
    return result;
}

}  // namespace vsgpu
