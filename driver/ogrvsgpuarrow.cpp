/*
 * ogrvsgpuarrow.cpp - result layers served as Arrow record batches
 * (OGRLayer::GetArrowStream, RFC 86), so that a writer that reads Arrow
 * (ogr2ogr from GDAL 3.8 on) takes the statement's output in bulk.
 *
 * GDAL's default stream calls GetNextFeature for every row: the engine's
 * WKB is parsed into an OGRGeometry and written back to WKB, and every
 * field is copied into a new OGRFeature and out again. Here a record batch
 * is cut from the engine's current result batch instead: the geometry
 * column is the engine's WKB (ISO, little endian, exactly what GDAL would
 * write) copied as is, and the attribute columns are filled from the source
 * features the layer already holds for that batch.
 *
 * The schema is GDAL's own (OGRLayer::GetArrowSchema, not overridden): the
 * fast path is taken only when every column of that schema is one this file
 * knows how to fill, and otherwise the whole stream is GDAL's default
 * implementation, which reads the same cursor through GetNextFeature. Both
 * ways advance the same counters, so the VSGPU metadata domain and the end
 * of stream warning do not depend on how the layer was read.
 */
#include "ogr_vsgpu.h"

#include "cpl_conv.h"
#include "cpl_string.h"
#include "cpl_time.h"
#include "cpl_vsi.h"
#include "ogr_api.h"
#include "ogr_recordbatch.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <ctime>
#include <limits>
#include <new>

namespace
{

/* ---- memory of the arrays we hand out --------------------------------- */

/* private_data of every ArrowArray built here: owns its buffers and its
 * child structs. A consumer may move a child out (its release set to
 * nullptr), so children are released only when still owned. */
struct ArrayOwner
{
    std::vector<void *> owned;          /* VSIMallocAligned blocks       */
    std::vector<const void *> buffers;  /* what ArrowArray::buffers shows */
    std::vector<ArrowArray *> children; /* ArrowArray::children          */
};

void ReleaseOwnedArray(ArrowArray *a)
{
    if (a == nullptr || a->release == nullptr)
        return;
    auto *o = static_cast<ArrayOwner *>(a->private_data);
    if (o)
    {
        for (ArrowArray *c : o->children)
        {
            if (c && c->release)
                c->release(c);
            delete c;
        }
        for (void *p : o->owned)
            VSIFreeAligned(p);
        delete o;
    }
    a->private_data = nullptr;
    a->release = nullptr;
}

/* An array under construction. Released (buffers freed) when building
 * fails before it is handed over. */
class ArrayBuilder
{
  public:
    explicit ArrayBuilder(ArrowArray *a) : m_a(a)
    {
        std::memset(a, 0, sizeof(*a));
        m_o = new ArrayOwner();
        a->private_data = m_o;
        a->release = ReleaseOwnedArray;
    }

    /* Arrow wants 8-byte alignment at least and recommends 64. A zero-size
     * buffer still gets a block: some consumers reject NULL data buffers. */
    void *Alloc(size_t bytes)
    {
        void *p = VSIMallocAligned(64, std::max<size_t>(bytes, 1));
        if (p == nullptr)
            throw std::bad_alloc();
        m_o->owned.push_back(p);
        return p;
    }
    void SetBuffers(std::initializer_list<const void *> bufs)
    {
        m_o->buffers.assign(bufs.begin(), bufs.end());
        m_a->n_buffers = static_cast<int64_t>(m_o->buffers.size());
        m_a->buffers = m_o->buffers.data();
    }
    ArrowArray *AddChild()
    {
        m_o->children.push_back(nullptr); /* owned before it exists */
        ArrowArray *c = new ArrowArray();
        std::memset(c, 0, sizeof(*c));
        m_o->children.back() = c;
        m_a->n_children = static_cast<int64_t>(m_o->children.size());
        m_a->children = m_o->children.data();
        return c;
    }
    ArrowArray *Array()
    {
        return m_a;
    }

  private:
    ArrowArray *m_a;
    ArrayOwner *m_o;
};

/* Validity bitmap: allocated only when a row is null (Arrow lets a column
 * without nulls have no bitmap). */
class Validity
{
  public:
    Validity(ArrayBuilder *b, size_t n) : m_b(b), m_n(n)
    {
    }
    void SetNull(size_t row)
    {
        if (m_bits == nullptr)
        {
            const size_t bytes = (m_n + 7) / 8;
            m_bits = static_cast<uint8_t *>(m_b->Alloc(bytes));
            std::memset(m_bits, 0xFF, std::max<size_t>(bytes, 1));
        }
        m_bits[row / 8] &= static_cast<uint8_t>(~(1u << (row % 8)));
        ++m_nulls;
    }
    const void *Bits() const
    {
        return m_bits;
    }
    int64_t Nulls() const
    {
        return m_nulls;
    }

  private:
    ArrayBuilder *m_b;
    size_t m_n;
    uint8_t *m_bits = nullptr;
    int64_t m_nulls = 0;
};

/* Offsets of a variable-size column are int32: a batch holding 2 GiB or
 * more in one column cannot be written. */
struct OverflowError
{
    const char *column;
};

/* ---- one column per field type ---------------------------------------- */

/* The row's value, or nullptr for a null row (counted as null only in a
 * nullable column: a NOT NULL column gets 0 / "" like GDAL writes it). */
inline const OGRField *Cell(const std::vector<const OGRField *> &cells,
                            size_t row)
{
    return cells[row];
}

template <class T, class Get>
void FillFixed(ArrayBuilder *b, const std::vector<const OGRField *> &cells,
               size_t n, bool nullable, Get get)
{
    T *v = static_cast<T *>(b->Alloc(sizeof(T) * n));
    Validity val(b, n);
    for (size_t r = 0; r < n; ++r)
    {
        const OGRField *f = Cell(cells, r);
        if (f)
            v[r] = get(*f);
        else
        {
            v[r] = T();
            if (nullable)
                val.SetNull(r);
        }
    }
    b->Array()->null_count = val.Nulls();
    b->SetBuffers({val.Bits(), v});
}

void FillBool(ArrayBuilder *b, const std::vector<const OGRField *> &cells,
              size_t n, bool nullable)
{
    const size_t bytes = (n + 7) / 8;
    uint8_t *v = static_cast<uint8_t *>(b->Alloc(bytes));
    std::memset(v, 0, std::max<size_t>(bytes, 1));
    Validity val(b, n);
    for (size_t r = 0; r < n; ++r)
    {
        const OGRField *f = Cell(cells, r);
        if (f && f->Integer != 0)
            v[r / 8] |= static_cast<uint8_t>(1u << (r % 8));
        else if (!f && nullable)
            val.SetNull(r);
    }
    b->Array()->null_count = val.Nulls();
    b->SetBuffers({val.Bits(), v});
}

/* Strings (len: strlen) and binaries (len: Binary.nCount), int32 offsets. */
template <class Len, class Data>
void FillVariable(ArrayBuilder *b, const std::vector<const OGRField *> &cells,
                  size_t n, bool nullable, const char *name, Len len,
                  Data data)
{
    int32_t *off = static_cast<int32_t *>(b->Alloc(sizeof(int32_t) * (n + 1)));
    Validity val(b, n);
    size_t total = 0;
    for (size_t r = 0; r < n; ++r)
    {
        off[r] = static_cast<int32_t>(total);
        const OGRField *f = Cell(cells, r);
        if (f)
        {
            total += len(*f);
            if (total > static_cast<size_t>(INT32_MAX))
                throw OverflowError{name};
        }
        else if (nullable)
            val.SetNull(r);
    }
    off[n] = static_cast<int32_t>(total);
    unsigned char *d = static_cast<unsigned char *>(b->Alloc(total));
    for (size_t r = 0; r < n; ++r)
    {
        const size_t l = static_cast<size_t>(off[r + 1] - off[r]);
        if (l)
            std::memcpy(d + off[r], data(*cells[r]), l);
    }
    b->Array()->null_count = val.Nulls();
    b->SetBuffers({val.Bits(), off, d});
}

void FillFixedBinary(ArrayBuilder *b,
                     const std::vector<const OGRField *> &cells, size_t n,
                     bool nullable, int width)
{
    const size_t w = static_cast<size_t>(width);
    unsigned char *d = static_cast<unsigned char *>(b->Alloc(w * n));
    std::memset(d, 0, std::max<size_t>(w * n, 1));
    Validity val(b, n);
    for (size_t r = 0; r < n; ++r)
    {
        const OGRField *f = Cell(cells, r);
        if (f)
        {
            const size_t l = std::min(
                w, static_cast<size_t>(std::max(f->Binary.nCount, 0)));
            if (l)
                std::memcpy(d + r * w, f->Binary.paData, l);
        }
        else if (nullable)
            val.SetNull(r);
    }
    b->Array()->null_count = val.Nulls();
    b->SetBuffers({val.Bits(), d});
}

/* Seconds since 1970-01-01 of a date and time read as UTC. */
GIntBig UnixSeconds(const OGRField &f, int second)
{
    struct tm t;
    std::memset(&t, 0, sizeof(t));
    t.tm_year = f.Date.Year - 1900;
    t.tm_mon = f.Date.Month - 1;
    t.tm_mday = f.Date.Day;
    t.tm_hour = f.Date.Hour;
    t.tm_min = f.Date.Minute;
    t.tm_sec = second;
    return CPLYMDHMSToUnixTime(&t);
}

/* date32: days since the epoch, rounded down (dates before 1970 too). */
int32_t DateDays(const OGRField &f)
{
    struct tm t;
    std::memset(&t, 0, sizeof(t));
    t.tm_year = f.Date.Year - 1900;
    t.tm_mon = f.Date.Month - 1;
    t.tm_mday = f.Date.Day;
    const GIntBig s = CPLYMDHMSToUnixTime(&t);
    GIntBig d = s / 86400;
    if (s % 86400 < 0)
        --d;
    return static_cast<int32_t>(d);
}

/* time32[ms]: milliseconds since midnight. */
int32_t TimeMs(const OGRField &f)
{
    return f.Date.Hour * 3600000 + f.Date.Minute * 60000 +
           static_cast<int>(f.Date.Second * 1000 + 0.5);
}

/* timestamp[ms] without a time zone: the wall-clock value, as GDAL's
 * default stream writes a DateTime field whose schema names no zone. */
int64_t DateTimeMs(const OGRField &f)
{
    const int ms = static_cast<int>(f.Date.Second * 1000 + 0.5);
    return static_cast<int64_t>(UnixSeconds(f, static_cast<int>(f.Date.Second))) *
               1000 +
           ms % 1000;
}

/* The geometry column: the engine's WKB as is. A null result is a null
 * row, or (NOT NULL geometry field) an empty geometry of the field's type,
 * as GDAL's default stream writes it. */
void FillGeometry(ArrayBuilder *b, const unsigned char *const *wkb,
                  const size_t *size, size_t n, bool nullable,
                  OGRwkbGeometryType type)
{
    std::vector<unsigned char> empty;
    if (!nullable)
    {
        std::unique_ptr<OGRGeometry> g(OGRGeometryFactory::createGeometry(
            wkbFlatten(type) == wkbUnknown || type == wkbNone
                ? wkbGeometryCollection
                : type));
        if (g)
        {
            empty.resize(g->WkbSize());
            g->exportToWkb(wkbNDR, empty.data(), wkbVariantIso);
        }
    }
    int32_t *off = static_cast<int32_t *>(b->Alloc(sizeof(int32_t) * (n + 1)));
    Validity val(b, n);
    size_t total = 0;
    for (size_t r = 0; r < n; ++r)
    {
        off[r] = static_cast<int32_t>(total);
        const bool has = wkb[r] != nullptr && size[r] > 0;
        if (has)
            total += size[r];
        else if (nullable)
            val.SetNull(r);
        else
            total += empty.size();
        if (total > static_cast<size_t>(INT32_MAX))
            throw OverflowError{"geometry"};
    }
    off[n] = static_cast<int32_t>(total);
    unsigned char *d = static_cast<unsigned char *>(b->Alloc(total));
    for (size_t r = 0; r < n; ++r)
    {
        const size_t l = static_cast<size_t>(off[r + 1] - off[r]);
        if (l == 0)
            continue;
        const bool has = wkb[r] != nullptr && size[r] > 0;
        std::memcpy(d + off[r], has ? wkb[r] : empty.data(), l);
    }
    b->Array()->null_count = val.Nulls();
    b->SetBuffers({val.Bits(), off, d});
}

/* ---- which columns the fast path fills -------------------------------- */

/* The type letter (ArrowColumn::type) and the format GDAL's default schema
 * gives a field; false for a type left to GDAL's default stream (lists,
 * coded domains, DateTime with a time zone in the schema). */
bool FieldFormat(const OGRFieldDefn *fd, char *type, std::string *format)
{
    if (!fd->GetDomainName().empty())
        return false; /* GDAL may add a dictionary to the column */
    const OGRFieldSubType st = fd->GetSubType();
    switch (fd->GetType())
    {
        case OFTInteger:
            *type = st == OFSTBoolean ? 'b' : st == OFSTInt16 ? 's' : 'i';
            *format = std::string(1, *type);
            return true;
        case OFTInteger64:
            *type = 'l';
            *format = "l";
            return true;
        case OFTReal:
            *type = st == OFSTFloat32 ? 'f' : 'g';
            *format = std::string(1, *type);
            return true;
        case OFTString:
            *type = 'u';
            *format = "u";
            return true;
        case OFTBinary:
            if (fd->GetWidth() > 0)
            {
                *type = 'w';
                *format = CPLSPrintf("w:%d", fd->GetWidth());
            }
            else
            {
                *type = 'z';
                *format = "z";
            }
            return true;
        case OFTDate:
            *type = 'D';
            *format = "tdD";
            return true;
        case OFTTime:
            *type = 't';
            *format = "ttm";
            return true;
        case OFTDateTime:
#if VSGPU_GDAL_ARROW_3_8
            /* From 3.8 a field with a known time zone gets a zoned
             * timestamp whose values GDAL converts: left to GDAL. */
            if (fd->GetTZFlag() != OGR_TZFLAG_UNKNOWN &&
                fd->GetTZFlag() != OGR_TZFLAG_LOCALTIME)
                return false;
#endif
            *type = 'T';
            *format = "tsm:";
            return true;
        default:
            return false; /* lists, deprecated wide strings */
    }
}

const char *DefaultGeometryName(const OGRGeomFieldDefn *gd)
{
    const char *name = gd->GetNameRef();
    return name[0] ? name : "wkb_geometry";
}

int MaxBatch(CSLConstList options)
{
    long v = atol(CSLFetchNameValueDef(options, "MAX_FEATURES_IN_BATCH",
                                       "65536"));
    if (v <= 0)
        v = 1;
    if (v > INT_MAX - 1)
        v = INT_MAX - 1;
    return static_cast<int>(v);
}

}  // namespace

/* ---- OGRVSGPUResultLayer: the stream -------------------------------- */

const OGRField *OGRVSGPUResultLayer::ArrowValue(const OGRFeature &f, int field)
{
    const OGRField *v = f.GetRawFieldRef(field);
    if (OGR_RawField_IsUnset(v) || OGR_RawField_IsNull(v))
        return nullptr;
    return v;
}

/* Whether the layer as it is now (filters, field types) can be served by
 * the fast path; why: the reason when not. */
bool OGRVSGPUResultLayer::ArrowFastPossible(std::string *why) const
{
    if (m_poFilterGeom != nullptr || m_poAttrQuery != nullptr)
    {
        *why = "a spatial or attribute filter is set on the result layer";
        return false;
    }
    OGRFeatureDefn *defn = m_plan->defn;
    if (defn->GetGeomFieldCount() > 1)
    {
        *why = "more than one geometry column";
        return false;
    }
    for (int i = 0; i < defn->GetFieldCount(); ++i)
    {
        const OGRFieldDefn *fd = defn->GetFieldDefn(i);
        char type = 0;
        std::string format;
        if (!fd->IsIgnored() && !FieldFormat(fd, &type, &format))
        {
            *why = std::string("column '") + fd->GetNameRef() + "' of type " +
                   OGRFieldDefn::GetFieldTypeName(fd->GetType());
            return false;
        }
    }
    return true;
}

/* Reads GDAL's schema for this stream (its options are set) and maps each
 * of its columns to a layer field; false when a column is not one
 * FieldFormat() knows, or the schema is not laid out as expected. */
bool OGRVSGPUResultLayer::PlanArrowColumns(ArrowArrayStream *stream,
                                           std::string *why)
{
    m_arrow_cols.clear();
    m_arrow_fields.clear();
    if (!ArrowFastPossible(why))
        return false;
    ArrowSchema schema;
    std::memset(&schema, 0, sizeof(schema));
    if (OGRLayer::GetArrowSchema(stream, &schema) != 0)
    {
        *why = "GDAL's schema could not be built";
        return false;
    }
    struct SchemaGuard
    {
        ArrowSchema *s;
        ~SchemaGuard()
        {
            if (s->release)
                s->release(s);
        }
    } guard{&schema};

    OGRFeatureDefn *defn = m_plan->defn;
    const bool include_fid = CPLTestBool(
        m_aosArrowArrayStreamOptions.FetchNameValueDef("INCLUDE_FID", "YES"));
    std::vector<ArrowColumn> cols;
    std::vector<std::string> formats, names;
    if (include_fid)
    {
        ArrowColumn c;
        c.kind = ArrowColumn::Fid;
        cols.push_back(c);
        formats.push_back("l");
        names.push_back("");
    }
    for (int i = 0; i < defn->GetFieldCount(); ++i)
    {
        const OGRFieldDefn *fd = defn->GetFieldDefn(i);
        if (fd->IsIgnored())
            continue;
        ArrowColumn c;
        c.kind = ArrowColumn::Field;
        c.index = i;
        c.nullable = CPL_TO_BOOL(fd->IsNullable());
        c.width = fd->GetWidth();
        std::string format;
        FieldFormat(fd, &c.type, &format);
        cols.push_back(c);
        formats.push_back(format);
        names.push_back(fd->GetNameRef());
    }
    for (int i = 0; i < defn->GetGeomFieldCount(); ++i)
    {
        const OGRGeomFieldDefn *gd = defn->GetGeomFieldDefn(i);
        if (gd->IsIgnored())
            continue;
        ArrowColumn c;
        c.kind = ArrowColumn::Geometry;
        c.index = i;
        c.type = 'z';
        c.nullable = CPL_TO_BOOL(gd->IsNullable());
        cols.push_back(c);
        formats.push_back("z");
        names.push_back(DefaultGeometryName(gd));
    }
    if (schema.n_children != static_cast<int64_t>(cols.size()))
    {
        *why = "GDAL's schema has other columns than the layer";
        return false;
    }
    for (size_t k = 0; k < cols.size(); ++k)
    {
        const ArrowSchema *ch = schema.children[k];
        const bool same =
            ch != nullptr && ch->format != nullptr &&
            formats[k] == ch->format && ch->n_children == 0 &&
            ch->dictionary == nullptr &&
            (names[k].empty() ||
             (ch->name != nullptr && names[k] == ch->name));
        if (!same)
        {
            *why = CPLSPrintf("column %u ('%s', format '%s') is not one the "
                              "fast path fills",
                              static_cast<unsigned>(k),
                              ch && ch->name ? ch->name : "",
                              ch && ch->format ? ch->format : "");
            return false;
        }
    }
    m_arrow_cols = std::move(cols);
    for (const ArrowColumn &c : m_arrow_cols)
        if (c.kind == ArrowColumn::Field)
            m_arrow_fields.push_back(c.index);
    return true;
}

bool OGRVSGPUResultLayer::GetArrowStream(ArrowArrayStream *out_stream,
                                         CSLConstList options)
{
    const char *enc = CSLFetchNameValue(options, "GEOMETRY_ENCODING");
    bool fast = true;
    std::string why;
    if (enc != nullptr && !EQUAL(enc, "WKB"))
    {
#if VSGPU_GDAL_ARROW_3_8
        fast = false; /* GDAL's default stream encodes GeoArrow itself */
        why = std::string("GEOMETRY_ENCODING=") + enc;
#else
        std::memset(out_stream, 0, sizeof(*out_stream));
        CPLError(CE_Failure, CPLE_NotSupported,
                 "VSGPU: %s: GEOMETRY_ENCODING=%s is not supported: with "
                 "GDAL %s Arrow streams carry geometries as WKB only",
                 vsgpu::OpName(m_plan->op), enc, GDAL_RELEASE_NAME);
        return false;
#endif
    }
    /* Fails when a stream is already open on the layer: that stream's
     * state must be left as it is. Before GDAL 3.8 it rewinds the layer;
     * from 3.8 the stream reads on from the current position, as GDAL's
     * own layers do (docs/usage.md). */
    if (!OGRLayer::GetArrowStream(out_stream, options))
        return false;
    try
    {
        if (fast)
            fast = PlanArrowColumns(out_stream, &why);
    }
    catch (const std::exception &e)
    {
        fast = false;
        why = e.what();
    }
    m_arrow_fast = fast;
    CPLDebug(VSGPU_DEBUG, "%s: Arrow stream: %s%s",
             vsgpu::OpName(m_plan->op),
             fast ? "record batches built from the engine's results"
                  : "GDAL's default (row by row): ",
             fast ? "" : why.c_str());
    return true;
}

int OGRVSGPUResultLayer::BuildArrowBatch(const ArrowRows &rows,
                                         GIntBig first_fid, ArrowArray *out)
{
    const size_t n = rows.count;
    ArrayBuilder top(out);
    try
    {
        out->length = static_cast<int64_t>(n);
        top.SetBuffers({nullptr}); /* a struct array has no nulls */
        size_t field_col = 0;
        for (const ArrowColumn &c : m_arrow_cols)
        {
            ArrayBuilder b(top.AddChild());
            b.Array()->length = static_cast<int64_t>(n);
            if (c.kind == ArrowColumn::Fid)
            {
                int64_t *v = static_cast<int64_t *>(b.Alloc(sizeof(int64_t) * n));
                for (size_t r = 0; r < n; ++r)
                    v[r] = first_fid + static_cast<GIntBig>(r);
                b.SetBuffers({nullptr, v});
                continue;
            }
            if (c.kind == ArrowColumn::Geometry)
            {
                FillGeometry(&b, rows.wkb, rows.wkb_size, n, c.nullable,
                             m_plan->defn->GetGeomFieldDefn(c.index)->GetType());
                continue;
            }
            const std::vector<const OGRField *> &cells = rows.cells[field_col++];
            const bool nl = c.nullable;
            const char *name = m_plan->defn->GetFieldDefn(c.index)->GetNameRef();
            switch (c.type)
            {
                case 'b':
                    FillBool(&b, cells, n, nl);
                    break;
                case 's':
                    FillFixed<int16_t>(&b, cells, n, nl, [](const OGRField &f)
                                       { return static_cast<int16_t>(f.Integer); });
                    break;
                case 'i':
                    FillFixed<int32_t>(&b, cells, n, nl, [](const OGRField &f)
                                       { return static_cast<int32_t>(f.Integer); });
                    break;
                case 'l':
                    FillFixed<int64_t>(&b, cells, n, nl, [](const OGRField &f)
                                       { return static_cast<int64_t>(f.Integer64); });
                    break;
                case 'f':
                    FillFixed<float>(&b, cells, n, nl, [](const OGRField &f)
                                     { return static_cast<float>(f.Real); });
                    break;
                case 'g':
                    FillFixed<double>(&b, cells, n, nl, [](const OGRField &f)
                                      { return f.Real; });
                    break;
                case 'u':
                    FillVariable(
                        &b, cells, n, nl, name,
                        [](const OGRField &f) { return std::strlen(f.String); },
                        [](const OGRField &f)
                        { return static_cast<const void *>(f.String); });
                    break;
                case 'z':
                    FillVariable(
                        &b, cells, n, nl, name,
                        [](const OGRField &f)
                        {
                            return static_cast<size_t>(
                                std::max(f.Binary.nCount, 0));
                        },
                        [](const OGRField &f)
                        { return static_cast<const void *>(f.Binary.paData); });
                    break;
                case 'w':
                    FillFixedBinary(&b, cells, n, nl, c.width);
                    break;
                case 'D':
                    FillFixed<int32_t>(&b, cells, n, nl, DateDays);
                    break;
                case 't':
                    FillFixed<int32_t>(&b, cells, n, nl, TimeMs);
                    break;
                case 'T':
                    FillFixed<int64_t>(&b, cells, n, nl, DateTimeMs);
                    break;
                default:
                    CPLError(CE_Failure, CPLE_AppDefined,
                             "VSGPU: Arrow column '%s': unexpected type", name);
                    ReleaseOwnedArray(out);
                    std::memset(out, 0, sizeof(*out));
                    return EINVAL;
            }
        }
        return 0;
    }
    catch (const OverflowError &e)
    {
        CPLError(CE_Failure, CPLE_AppDefined,
                 "VSGPU: %s: an Arrow batch of %u rows holds 2 GiB or more in "
                 "column '%s': lower MAX_FEATURES_IN_BATCH",
                 vsgpu::OpName(m_plan->op), static_cast<unsigned>(n),
                 e.column);
        ReleaseOwnedArray(out);
        std::memset(out, 0, sizeof(*out));
        return EOVERFLOW;
    }
    catch (const std::bad_alloc &)
    {
        CPLError(CE_Failure, CPLE_OutOfMemory,
                 "VSGPU: %s: out of memory building an Arrow batch of %u rows",
                 vsgpu::OpName(m_plan->op), static_cast<unsigned>(n));
        ReleaseOwnedArray(out);
        std::memset(out, 0, sizeof(*out));
        return ENOMEM;
    }
}

/* get_next(): one record batch from the engine's current result batch, at
 * most MAX_FEATURES_IN_BATCH rows, never spanning two engine batches (the
 * source features of the previous one are gone). A released array ends the
 * stream; an error code (the CPLError says why) too. */
int OGRVSGPUResultLayer::GetNextArrowArray(ArrowArrayStream *stream,
                                           ArrowArray *out)
{
    if (!m_arrow_fast || m_poFilterGeom != nullptr || m_poAttrQuery != nullptr)
    {
        const int rc = OGRLayer::GetNextArrowArray(stream, out);
        /* GDAL's default ends the stream quietly when GetNextFeature fails:
         * make the failure an error of the stream. */
        if (rc == 0 && out->release == nullptr && m_failed)
            return EIO;
        return rc;
    }
    std::memset(out, 0, sizeof(*out));
    if (m_failed)
        return EIO;
    if (m_eof)
        return 0;
    try
    {
        if (!EnsureStarted())
            return EIO;
        const size_t ready = ArrowRowsReady();
        if (ready == 0)
        {
            if (m_failed)
                return EIO;
            m_eof = true;
            Finish();
            return m_failed ? EIO : 0; /* the progress callback stopped it */
        }
        const size_t n = std::min(
            ready, static_cast<size_t>(MaxBatch(m_aosArrowArrayStreamOptions.List())));
        const double t0 = vsg_now_s();
        ArrowRows rows;
        if (!TakeArrowRows(n, m_arrow_fields, &rows))
        {
            m_failed = true;
            return EIO;
        }
        const int rc = BuildArrowBatch(rows, m_next_fid, out);
        if (rc != 0)
        {
            m_failed = true;
            return rc;
        }
        m_next_fid += static_cast<GIntBig>(n);
        m_counts.output_features += static_cast<GIntBig>(n);
        NoteArrowBuild(t0, static_cast<int64_t>(n));
        return 0;
    }
    catch (const std::bad_alloc &)
    {
        CPLError(CE_Failure, CPLE_OutOfMemory, "VSGPU: %s: out of memory",
                 vsgpu::OpName(m_plan->op));
        m_failed = true;
        return ENOMEM;
    }
    catch (const std::exception &e)
    {
        CPLError(CE_Failure, CPLE_AppDefined, "VSGPU: %s: %s",
                 vsgpu::OpName(m_plan->op), e.what());
        m_failed = true;
        return EIO;
    }
}
