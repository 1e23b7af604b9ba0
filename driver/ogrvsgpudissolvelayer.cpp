/*
 * ogrvsgpudissolvelayer.cpp - SELECT keys, ST_Union(geom) ... GROUP BY keys.
 *
 * Reads every input feature, evaluates the group keys (typed like SQLite:
 * NULL first, numbers numerically, strings by byte value), numbers the
 * groups in sorted key order, and calls vsg_dissolve once. Features are
 * then handed out in group order. Progress: features read, groups
 * dissolved (the engine's count), groups handed out.
 */
#include "ogr_vsgpu.h"

#include "cpl_conv.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <unordered_map>
#include <cctype>
#include <numeric>

namespace
{

/* Byte offsets of the UTF-8 characters of s, plus s.size() at the end. */
std::vector<size_t> CharOffsets(const std::string &s)
{
    std::vector<size_t> off;
    for (size_t i = 0; i < s.size(); ++i)
        if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80)
            off.push_back(i);
    off.push_back(s.size());
    return off;
}

/* SQLite's substr(X, Y[, Z]) on characters. */
std::string Substr(const std::string &s, int start, bool has_len, int len)
{
    const std::vector<size_t> off = CharOffsets(s);
    const long long n = static_cast<long long>(off.size()) - 1;
    long long p1 = start;
    long long p2 = has_len ? len : n + 1;
    bool neg = false;
    if (p2 < 0)
    {
        p2 = -p2;
        neg = true;
    }
    if (p1 < 0)
    {
        p1 += n;
        if (p1 < 0)
        {
            p2 += p1;
            if (p2 < 0)
                p2 = 0;
            p1 = 0;
        }
    }
    else if (p1 > 0)
        --p1;
    else if (p2 > 0)
        --p2;
    if (neg)
    {
        p1 -= p2;
        if (p1 < 0)
        {
            p2 += p1;
            p1 = 0;
        }
    }
    if (p1 > n)
        p1 = n;
    long long p_end = std::min(n, p1 + p2);
    if (p_end < p1)
        p_end = p1;
    return s.substr(off[static_cast<size_t>(p1)],
                    off[static_cast<size_t>(p_end)] -
                        off[static_cast<size_t>(p1)]);
}

}  // namespace

OGRVSGPUDissolveLayer::OGRVSGPUDissolveLayer(
    std::unique_ptr<vsgpu::Plan> plan)
    : OGRVSGPUResultLayer(std::move(plan))
{
    vsg_result_init(&m_result);
}

OGRVSGPUDissolveLayer::~OGRVSGPUDissolveLayer()
{
    Stop();
}

void OGRVSGPUDissolveLayer::Stop()
{
    vsg_result_clear(&m_result);
    m_group_keys.clear();
    m_group_rep.clear();
    m_group_count.clear();
    m_pos = 0;
}

bool OGRVSGPUDissolveLayer::Start()
{
    return ReadAndDissolve();
}

OGRVSGPUDissolveLayer::KeyValue
OGRVSGPUDissolveLayer::Evaluate(const vsgpu::GroupKey &key,
                                const OGRFeature &f) const
{
    KeyValue v;
    if (!f.IsFieldSetAndNotNull(key.field))
        return v;
    const OGRFieldType t = f.GetFieldDefnRef(key.field)->GetType();
    if (key.kind == vsgpu::KeyKind::Column && (t == OFTInteger || t == OFTInteger64))
    {
        v.type = 1;
        v.i = f.GetFieldAsInteger64(key.field);
        return v;
    }
    if (key.kind == vsgpu::KeyKind::Column && t == OFTReal)
    {
        v.type = 2;
        v.d = f.GetFieldAsDouble(key.field);
        return v;
    }
    v.type = 3;
    v.s = f.GetFieldAsString(key.field);
    switch (key.kind)
    {
        case vsgpu::KeyKind::Substr:
            v.s = Substr(v.s, key.start, key.has_length, key.length);
            break;
        case vsgpu::KeyKind::Upper:
            for (char &c : v.s)
                if (c >= 'a' && c <= 'z')
                    c = static_cast<char>(c - 'a' + 'A');
            break;
        case vsgpu::KeyKind::Lower:
            for (char &c : v.s)
                if (c >= 'A' && c <= 'Z')
                    c = static_cast<char>(c - 'A' + 'a');
            break;
        case vsgpu::KeyKind::Column:
            break;
    }
    return v;
}

int OGRVSGPUDissolveLayer::CompareValue(const KeyValue &a, const KeyValue &b)
{
    const int ra = a.type == 0 ? 0 : a.type == 3 ? 2 : 1;
    const int rb = b.type == 0 ? 0 : b.type == 3 ? 2 : 1;
    if (ra != rb)
        return ra < rb ? -1 : 1;
    if (ra == 0)
        return 0;
    if (ra == 2)
    {
        const int c = a.s.compare(b.s);
        return c < 0 ? -1 : c > 0 ? 1 : 0;
    }
    if (a.type == 1 && b.type == 1)
        return a.i < b.i ? -1 : a.i > b.i ? 1 : 0;
    const double da = a.type == 1 ? static_cast<double>(a.i) : a.d;
    const double db = b.type == 1 ? static_cast<double>(b.i) : b.d;
    return da < db ? -1 : da > db ? 1 : 0;
}

int OGRVSGPUDissolveLayer::CompareKeys(const std::vector<KeyValue> &a,
                                       const std::vector<KeyValue> &b)
{
    for (size_t k = 0; k < a.size() && k < b.size(); ++k)
    {
        const int c = CompareValue(a[k], b[k]);
        if (c != 0)
            return c;
    }
    return 0;
}

/* A hash equal for keys that CompareKeys calls equal: numbers by their
 * value as a double (an integer and a real that compare equal hash
 * alike), strings by their bytes. */
uint64_t OGRVSGPUDissolveLayer::HashKey(const std::vector<KeyValue> &kv)
{
    uint64_t h = 0x9e3779b97f4a7c15ull;
    for (const auto &v : kv)
    {
        uint64_t x;
        if (v.type == 0)
            x = 0x51ed27ull;
        else if (v.type == 3)
            x = std::hash<std::string>()(v.s) ^ 0x3ull;
        else
        {
            double d = v.type == 1 ? static_cast<double>(v.i) : v.d;
            if (d == 0)
                d = 0; /* -0 and +0 compare equal */
            memcpy(&x, &d, sizeof x);
        }
        h = (h ^ x) * 0x100000001b3ull;
        h ^= h >> 29;
    }
    return h;
}

bool OGRVSGPUDissolveLayer::HasNaN(const std::vector<KeyValue> &kv)
{
    for (const auto &v : kv)
        if (v.type == 2 && std::isnan(v.d))
            return true;
    return false;
}

/* Rows into groups in sorted key order: group_of[row], and per group its
 * first row (in input order), which gives the group its key and fields.
 * The rows were hashed to their distinct key as they were read (first:
 * each distinct key's first row; id: each row's distinct key), so only
 * the distinct keys are sorted here (n hashes and G log G comparisons, not
 * n log n key comparisons). */
void OGRVSGPUDissolveLayer::GroupRows(const std::vector<std::vector<KeyValue>> &keys,
                                      const std::vector<size_t> &first,
                                      const std::vector<size_t> &id,
                                      std::vector<size_t> *rep_rows,
                                      std::vector<int64_t> *group_of)
{
    const size_t n = keys.size();
    std::vector<size_t> order(first.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b)
              { return CompareKeys(keys[first[a]], keys[first[b]]) < 0; });
    std::vector<int64_t> rank(first.size());
    rep_rows->resize(first.size());
    for (size_t r = 0; r < order.size(); ++r)
    {
        rank[order[r]] = static_cast<int64_t>(r);
        (*rep_rows)[r] = first[order[r]];
    }
    group_of->resize(n);
    for (size_t i = 0; i < n; ++i)
        (*group_of)[i] = rank[id[i]];
}

bool OGRVSGPUDissolveLayer::KeysMayBeNaN() const
{
    OGRFeatureDefn *defn = m_plan->input.layer->GetLayerDefn();
    for (const vsgpu::GroupKey &key : m_plan->keys)
        if (key.kind == vsgpu::KeyKind::Column &&
            defn->GetFieldDefn(key.field)->GetType() == OFTReal)
            return true;
    return false;
}

/* Progress phases, as fractions of the stream: reading the input (by
 * features read of its count), the union (by groups finished, from the
 * engine), handing out the groups (by groups written). The split is fixed:
 * each phase's own count drives it, so it goes forward only with work. */
namespace
{
constexpr double kReadEnd = 0.4;
constexpr double kUnionEnd = 0.9;
}  // namespace

int OGRVSGPUDissolveLayer::OnEngineProgress(int64_t done, int64_t total,
                                            void *data)
{
    auto *self = static_cast<OGRVSGPUDissolveLayer *>(data);
    return self->ReportProgress(
               vsgpu::PhaseFraction(kReadEnd, kUnionEnd, done, total))
               ? 1
               : 0;
}

bool OGRVSGPUDissolveLayer::ReportWritten()
{
    return ReportProgress(vsgpu::PhaseFraction(
        kUnionEnd, 1, static_cast<GIntBig>(m_pos),
        static_cast<GIntBig>(m_result.count)));
}

bool OGRVSGPUDissolveLayer::ReadAndDissolve()
{
    const vsgpu::Source &input = m_plan->input;
    if (!vsgpu::PrepareSource(input, m_plan->spatial_filter.get()))
        return false;
    const GIntBig input_total = CountInputForProgress();

    /* Read: key values and WKB of every feature, each row hashed to its
     * distinct key; only each distinct key's first row keeps its fields
     * (they give the group its key fields: BuildFeature). A NaN key, which
     * compares equal to every number, has no consistent hash: where a key
     * can be NaN (a column of reals) every row keeps its fields, and once
     * one is NaN the rows are sorted instead (below). */
    double t0 = vsg_now_s();
    vsgpu::SourceBatch batch;
    std::vector<std::vector<KeyValue>> keys;
    std::unordered_map<uint64_t, std::vector<size_t>> buckets;
    std::vector<size_t> first; /* distinct key -> its first row */
    std::vector<size_t> id;    /* row -> its distinct key        */
    const bool may_nan = KeysMayBeNaN();
    bool nan = false;
    const auto visit = [&](const OGRFeature &f) -> int
    {
        std::vector<KeyValue> kv;
        kv.reserve(m_plan->keys.size());
        for (const vsgpu::GroupKey &key : m_plan->keys)
            kv.push_back(Evaluate(key, f));
        int keep = 1;
        nan = nan || HasNaN(kv);
        if (!nan)
        {
            std::vector<size_t> &b = buckets[HashKey(kv)];
            size_t k = SIZE_MAX;
            for (size_t c : b)
                if (CompareKeys(keys[first[c]], kv) == 0)
                {
                    k = c;
                    break;
                }
            if (k == SIZE_MAX)
            {
                k = first.size();
                first.push_back(keys.size());
                b.push_back(k);
            }
            else if (!may_nan)
                keep = 0;
            id.push_back(k);
        }
        keys.push_back(std::move(kv));
        return ReportProgress(vsgpu::PhaseFraction(
                   0, kReadEnd, static_cast<GIntBig>(keys.size()), input_total))
                   ? keep
                   : -1;
    };
    std::vector<int> key_fields; /* what the visit reads */
    for (const vsgpu::GroupKey &key : m_plan->keys)
        key_fields.push_back(key.field);
    if (!vsgpu::ReadWholeSource(input, true, &batch, &m_counts, visit, &key_fields))
        return false;
    const std::vector<GIntBig> &fids = batch.fids;
    std::vector<std::unique_ptr<OGRFeature>> &feats = batch.feats;
    if (!ReportProgress(kReadEnd))
        return false;
    const size_t n = fids.size();
    m_counts.input_features = static_cast<GIntBig>(n);
    AddStage("ogr_read_input", t0, static_cast<int64_t>(n),
             static_cast<int64_t>(n));

    /* Group: ids in sorted key order. */
    t0 = vsg_now_s();
    std::vector<int64_t> group_of;
    std::vector<size_t> rep_rows;
    buckets.clear();
    if (!nan)
        GroupRows(keys, first, id, &rep_rows, &group_of);
    else
    {
        /* NaN keys: the stable sort of the rows, as SQLite orders them */
        std::vector<size_t> order(n);
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b)
                         { return CompareKeys(keys[a], keys[b]) < 0; });
        group_of.assign(n, 0);
        rep_rows.clear();
        for (size_t r = 0; r < n; ++r)
        {
            const size_t i = order[r];
            if (r == 0 || CompareKeys(keys[order[r - 1]], keys[i]) != 0)
                rep_rows.push_back(i);
            group_of[i] = static_cast<int64_t>(rep_rows.size()) - 1;
        }
    }
    m_group_count.assign(rep_rows.size(), 0);
    for (size_t i = 0; i < n; ++i)
        ++m_group_count[group_of[i]];
    for (size_t i : rep_rows)
    {
        if (!feats[i])   /* a group's first row always keeps its fields */
        {
            CPLError(CE_Failure, CPLE_AppDefined,
                     "VSGPU: ST_Union: internal error: no fields for group key row %u",
                     static_cast<unsigned>(i));
            return false;
        }
        m_group_keys.push_back(std::move(keys[i]));
        m_group_rep.push_back(std::move(feats[i]));
    }
    feats.clear();
    keys.clear();
    const int64_t n_groups = static_cast<int64_t>(m_group_keys.size());
    AddStage("group_keys", t0, static_cast<int64_t>(n), n_groups);
    CPLDebug(VSGPU_DEBUG, "ST_Union: %u features in " CPL_FRMT_GIB " groups",
             static_cast<unsigned>(n), static_cast<GIntBig>(n_groups));

    if (n == 0)
        return true;
    vsg_wkb_array arr = batch.wkb.View();
    vsg_engine_set_progress(
        m_engine, m_progress.Active() ? OnEngineProgress : nullptr, this);
    const vsg_status st =
        vsg_dissolve(m_engine, &arr, group_of.data(), n_groups, &m_result);
    if (st == VSG_ERR_INTERRUPTED)
        return false; /* ReportProgress said why */
    if (st != VSG_OK)
    {
        vsgpu::ReportEngineError(*m_plan, m_engine, st, "dissolve", fids,
                                 input);
        return false;
    }
    return ReportProgress(kUnionEnd);
}

OGRFeature *OGRVSGPUDissolveLayer::BuildFeature(size_t i)
{
    const int64_t g = m_result.input_index ? m_result.input_index[i] : -1;
    if (g < 0 || static_cast<size_t>(g) >= m_group_keys.size())
    {
        CPLError(CE_Failure, CPLE_AppDefined,
                 "VSGPU: ST_Union: the engine returned an out-of-range group");
        m_failed = true;
        return nullptr;
    }
    const size_t gi = static_cast<size_t>(g);
    OGRFeature *f = NewFeature(m_result.wkb[i], m_result.size[i]);
    if (f == nullptr)
        return nullptr;
    const std::vector<vsgpu::OutField> &fields = m_plan->fields;
    for (size_t j = 0; j < fields.size(); ++j)
    {
        const vsgpu::OutField &of = fields[j];
        const int dst = static_cast<int>(j);
        if (of.kind == vsgpu::OutField::Count)
        {
            f->SetField(dst, static_cast<GIntBig>(m_group_count[gi]));
            continue;
        }
        if (of.kind != vsgpu::OutField::Key)
            continue;
        const vsgpu::GroupKey &key = m_plan->keys[static_cast<size_t>(of.index)];
        if (key.kind == vsgpu::KeyKind::Column)
        {
            CopyField(f, dst, *m_group_rep[gi], key.field);
            continue;
        }
        const KeyValue &v = m_group_keys[gi][static_cast<size_t>(of.index)];
        if (v.type == 0)
            f->SetFieldNull(dst);
        else
            f->SetField(dst, v.s.c_str());
    }
    return f;
}

OGRFeature *OGRVSGPUDissolveLayer::NextResult()
{
    if (m_pos < m_result.count)
    {
        const double t0 = vsg_now_s();
        OGRFeature *f = BuildFeature(m_pos++);
        AddStage("build_features", t0, 1, f ? 1 : 0);
        if (f != nullptr && !ReportWritten())
        {
            delete f;
            return nullptr;
        }
        return f;
    }
    return nullptr;
}

/* Arrow fast path: the groups not handed out yet (one engine call). */
size_t OGRVSGPUDissolveLayer::ArrowRowsReady()
{
    return m_pos < m_result.count ? m_result.count - m_pos : 0;
}

/* Key columns point into the group's first feature; COUNT(*) and the
 * substr/upper/lower keys are made once per row in rows->computed, as
 * BuildFeature sets them. */
bool OGRVSGPUDissolveLayer::TakeArrowRows(size_t n,
                                          const std::vector<int> &fields,
                                          ArrowRows *rows)
{
    rows->Begin(m_result, m_pos, n, fields.size());
    for (size_t k = 0; k < n; ++k)
    {
        const size_t i = m_pos + k;
        const int64_t g = m_result.input_index ? m_result.input_index[i] : -1;
        if (g < 0 || static_cast<size_t>(g) >= m_group_keys.size())
        {
            CPLError(CE_Failure, CPLE_AppDefined,
                     "VSGPU: ST_Union: the engine returned an out-of-range "
                     "group");
            return false;
        }
        const size_t gi = static_cast<size_t>(g);
        for (size_t c = 0; c < fields.size(); ++c)
        {
            const vsgpu::OutField &of =
                m_plan->fields[static_cast<size_t>(fields[c])];
            const OGRField *v = nullptr;
            if (of.kind == vsgpu::OutField::Count)
            {
                OGRField cnt;
                cnt.Integer64 = m_group_count[gi];
                rows->computed.push_back(cnt);
                v = &rows->computed.back();
            }
            else if (of.kind == vsgpu::OutField::Key)
            {
                const size_t ki = static_cast<size_t>(of.index);
                const vsgpu::GroupKey &key = m_plan->keys[ki];
                const KeyValue &kv = m_group_keys[gi][ki];
                if (key.kind == vsgpu::KeyKind::Column)
                    v = ArrowValue(*m_group_rep[gi], key.field);
                else if (kv.type != 0)
                {
                    OGRField str;
                    str.String = const_cast<char *>(kv.s.c_str());
                    rows->computed.push_back(str);
                    v = &rows->computed.back();
                }
            }
            rows->cells[c][k] = v;
        }
    }
    m_pos += n;
    return ReportWritten();
}
