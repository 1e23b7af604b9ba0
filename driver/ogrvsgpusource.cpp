/*
 * ogrvsgpusource.cpp - reading the source layers (filters, features, WKB
 * export with curve linearisation) and turning engine output back into
 * OGR geometries and errors.
 */
#include "ogr_vsgpu.h"

#include "cpl_conv.h"
#include "ogr_geometry.h"

#include <algorithm>
#include <cinttypes>
#include <cstring>

namespace vsgpu
{

void WkbBatch::Clear()
{
    /* every block stays for the next batch, as a vector keeps its
     * capacity: the overlays reuse two batches, and fresh blocks would be
     * fresh pages to fault in, every batch */
    for (Block &b : m_blocks)
        b.used = 0;
    m_cur = 0;
    m_held.clear();
    m_ptrs.clear();
    m_sizes.clear();
    m_bytes = 0;
}

unsigned char *WkbBatch::Room(size_t n)
{
    /* the current block, else the next kept one with room, else a new one
     * at the end */
    while (m_cur < m_blocks.size() && m_blocks[m_cur].capacity - m_blocks[m_cur].used < n)
        ++m_cur;
    if (m_cur == m_blocks.size())
    {
        Block b;
        b.capacity = std::max<size_t>(size_t{4} << 20, n);
        b.data.reset(new unsigned char[b.capacity]); /* not zeroed */
        m_blocks.push_back(std::move(b));
    }
    return m_blocks[m_cur].data.get() + m_blocks[m_cur].used;
}

void WkbBatch::Commit(const unsigned char *p, size_t n)
{
    m_blocks[m_cur].used += n;
    AddBorrowed(p, n);   /* the bytes are in our own block */
}

bool WkbBatch::Set(size_t i, const OGRGeometry *geom, GIntBig *curves_linearized)
{
    if (!Add(geom, curves_linearized))
        return false;
    m_bytes -= m_sizes[i];
    m_ptrs[i] = m_ptrs.back();
    m_sizes[i] = m_sizes.back();
    m_ptrs.pop_back();
    m_sizes.pop_back();
    return true;
}

void WkbBatch::AddBorrowed(const unsigned char *wkb, size_t n)
{
    m_ptrs.push_back(n ? wkb : nullptr);
    m_sizes.push_back(n);
    m_bytes += n;
}

void WkbBatch::Hold(std::shared_ptr<void> owner)
{
    m_held.push_back(std::move(owner));
}

void WkbBatch::AddNull()
{
    m_ptrs.push_back(nullptr);
    m_sizes.push_back(0);
}

bool WkbBatch::Add(const OGRGeometry *geom, GIntBig *curves_linearized)
{
    if (geom == nullptr)
    {
        AddNull();
        return true;
    }
    std::unique_ptr<OGRGeometry> linear;
    if (geom->hasCurveGeometry(FALSE))
    {
        linear.reset(geom->getLinearGeometry());
        if (!linear)
        {
            CPLError(CE_Failure, CPLE_AppDefined,
                     "VSGPU: cannot linearise a %s geometry",
                     geom->getGeometryName());
            return false;
        }
        geom = linear.get();
        ++*curves_linearized;
    }
    const size_t n = geom->WkbSize();
    /* written in place; committed only once the export succeeded */
    unsigned char *p = Room(n);
    if (geom->exportToWkb(wkbNDR, p, wkbVariantIso) != OGRERR_NONE)
    {
        CPLError(CE_Failure, CPLE_AppDefined,
                 "VSGPU: cannot export a %s geometry as WKB",
                 geom->getGeometryName());
        return false;
    }
    Commit(p, n);
    return true;
}

vsg_wkb_array WkbBatch::View()
{
    vsg_wkb_array a;
    a.count = m_sizes.size();
    a.wkb = m_ptrs.data();
    a.size = m_sizes.data();
    return a;
}

bool DriverFailedSince(GUInt32 before)
{
    return CPLGetErrorCounter() != before && CPLGetLastErrorType() == CE_Failure;
}

bool NoteUnreadable(const Source &src, GIntBig fid, DriverCounts *counts)
{
    if (src.strict_read)
    {
        /* a copy: CPLError writes into the buffer it points to */
        const std::string cause = CPLGetLastErrorMsg();
        CPLError(CE_Failure, CPLE_AppDefined,
                 "VSGPU: feature " CPL_FRMT_GIB " of layer '%s': the "
                 "source driver could not read its geometry (%s); "
                 "INVALID=ERROR stops the statement",
                 fid, src.name.c_str(), cause.c_str());
        return false;
    }
    ++counts->unreadable_geometries;
    return true;
}

/* The next feature of src's layer: its fields (geometry removed) in *feat,
 * its WKB in batch. Returns false at the end, or with *error set. */
static bool ReadSourceFeature(const Source &src, std::unique_ptr<OGRFeature> *feat,
                              WkbBatch *batch, DriverCounts *counts, bool *error)
{
    *error = false;
    /* A driver that cannot decode a geometry says so with a CE_Failure
     * during GetNextFeature and hands out the feature without it (GPKG:
     * "Unable to read geometry"; Shapefile: fread errors): seen through the
     * error counter, without resetting the caller's error state. */
    const GUInt32 errors_before = CPLGetErrorCounter();
    OGRFeature *f = src.layer->GetNextFeature();
    const bool failed_read = DriverFailedSince(errors_before);
    if (f == nullptr)
        return false;
    feat->reset(f);
    OGRGeometry *g = f->GetGeomFieldRef(src.geom_field);
    if (g == nullptr && failed_read && !NoteUnreadable(src, f->GetFID(), counts))
    {
        *error = true;
        return false;
    }
    if (src.transform && g != nullptr && !g->IsEmpty() &&
        g->transform(src.transform.get()) != OGRERR_NONE)
    {
        /* PROJ refused it (outside the target's area, say): counted and
         * named, or the statement's error under INVALID=ERROR. */
        if (src.transform_failure_fails)
        {
            CPLError(CE_Failure, CPLE_AppDefined,
                     "VSGPU: feature " CPL_FRMT_GIB " of layer '%s' cannot be "
                     "reprojected to the input layer's CRS (CRS_MISMATCH="
                     "REPROJECT, INVALID=ERROR)",
                     f->GetFID(), src.name.c_str());
            *error = true;
            return false;
        }
        ++counts->reprojection_failed;
        f->SetGeomFieldDirectly(src.geom_field, nullptr);
    }
    if (!batch->Add(f->GetGeomFieldRef(src.geom_field),
                    &counts->curves_linearized))
    {
        *error = true;
        return false;
    }
    /* The fields stay for the output; the geometries are in the batch. */
    for (int i = 0; i < f->GetGeomFieldCount(); ++i)
        f->SetGeomFieldDirectly(i, nullptr);
    return true;
}

bool ReadSourceBatch(const Source &src, size_t max_rows, bool keep_fields,
                     SourceBatch *batch, DriverCounts *counts, const RowVisit &visit,
                     size_t max_bytes)
{
    batch->at_end = false;
    for (size_t n = 0; n < max_rows && batch->wkb.Bytes() < max_bytes; ++n)
    {
        std::unique_ptr<OGRFeature> f;
        bool error = false;
        if (!ReadSourceFeature(src, &f, &batch->wkb, counts, &error))
        {
            batch->at_end = !error;
            return !error;
        }
        const int seen = visit ? visit(*f) : 1;
        if (seen < 0)
            return false;
        batch->fids.push_back(f->GetFID());
        if (keep_fields)
            batch->feats.push_back(seen > 0 ? std::move(f) : nullptr);
    }
    return true;
}

bool ReadWholeSource(const Source &src, bool keep_fields, SourceBatch *batch,
                     DriverCounts *counts, const RowVisit &visit,
                     const std::vector<int> *visit_fields)
{
    const int arrow = ReadSourceArrow(src, keep_fields, batch, counts, visit, visit_fields);
    if (arrow != 0)
        return arrow > 0;
    return ReadSourceBatch(src, SIZE_MAX, keep_fields, batch, counts, visit);
}

bool PrepareSource(const Source &src, const OGRGeometry *spatial_filter)
{
    if (src.layer->SetAttributeFilter(src.where.empty() ? nullptr
                                                        : src.where.c_str()) !=
        OGRERR_NONE)
    {
        CPLError(CE_Failure, CPLE_AppDefined,
                 "VSGPU: the WHERE condition %s on layer '%s' was rejected",
                 src.where.c_str(), src.name.c_str());
        return false;
    }
    src.layer->SetSpatialFilter(src.geom_field,
                                const_cast<OGRGeometry *>(spatial_filter));
    src.layer->ResetReading();
    return true;
}

void ClearSourceFilters(const Source &src)
{
    if (src.layer == nullptr)
        return;
    src.layer->SetAttributeFilter(nullptr);
    src.layer->SetSpatialFilter(src.geom_field, nullptr);
    src.layer->ResetReading();
}

OGRGeometry *GeometryFromWkb(const unsigned char *wkb, size_t size,
                             const OGRSpatialReference *srs)
{
    if (wkb == nullptr || size == 0)
        return nullptr;
    OGRGeometry *g = nullptr;
    if (OGRGeometryFactory::createFromWkb(wkb, VSGPUWkbSRS(srs), &g, size) != OGRERR_NONE)
    {
        delete g;
        return nullptr;
    }
    return g;
}

void ReportEngineError(const Plan &plan, const vsg_engine *engine,
                       vsg_status st, const char *stage,
                       const std::vector<GIntBig> &batch_fids,
                       const Source &src)
{
    const char *msg = engine ? vsg_engine_last_error(engine) : nullptr;
    if (msg == nullptr || msg[0] == '\0')
        msg = vsg_status_name(st);
    int64_t idx = -1;
    if (engine)
        idx = vsg_engine_error_input_index(engine);
    const CPLErrorNum num =
        st == VSG_ERR_NOMEM ? CPLE_OutOfMemory : CPLE_AppDefined;
    if (idx >= 0 && static_cast<size_t>(idx) < batch_fids.size())
        CPLError(CE_Failure, num,
                 "VSGPU: %s (%s): layer '%s', FID " CPL_FRMT_GIB ": %s",
                 OpName(plan.op), stage, src.name.c_str(),
                 batch_fids[static_cast<size_t>(idx)], msg);
    else if (!batch_fids.empty())
        CPLError(CE_Failure, num,
                 "VSGPU: %s (%s): layer '%s', features FID " CPL_FRMT_GIB
                 " to " CPL_FRMT_GIB ": %s",
                 OpName(plan.op), stage, src.name.c_str(), batch_fids.front(),
                 batch_fids.back(), msg);
    else
        CPLError(CE_Failure, num, "VSGPU: %s (%s): layer '%s': %s",
                 OpName(plan.op), stage, src.name.c_str(), msg);
}

}  // namespace vsgpu
