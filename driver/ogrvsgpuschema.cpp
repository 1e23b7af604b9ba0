/*
 * ogrvsgpuschema.cpp - geometry type, geometry field name and CRS of a
 * result layer (docs/semantics.md, "Geometry type of the result layer").
 */
#include "ogr_vsgpu.h"

#include "cpl_conv.h"

namespace vsgpu
{

int GeometryDimension(OGRwkbGeometryType t)
{
    const OGRwkbGeometryType flat = wkbFlatten(t);
    if (flat == wkbPoint || flat == wkbMultiPoint)
        return 0;
    if (OGR_GT_IsCurve(flat) || flat == wkbMultiLineString ||
        flat == wkbMultiCurve)
        return 1;
    if (OGR_GT_IsSurface(flat) || flat == wkbMultiPolygon ||
        flat == wkbMultiSurface || flat == wkbPolyhedralSurface ||
        flat == wkbTIN)
        return 2;
    return -1;
}

/* A layer declared Unknown/GeometryCollection: its dimension from the
 * first features, when they all agree (-1 otherwise). */
static void SampleDimension(Source *src)
{
    constexpr int kSample = 1000;
    OGRLayer *layer = src->layer;
    layer->ResetReading();
    int dim = -1;
    bool mixed = false;
    bool z = false;
    for (int i = 0; i < kSample && !mixed; ++i)
    {
        std::unique_ptr<OGRFeature> f(layer->GetNextFeature());
        if (!f)
            break;
        const OGRGeometry *g = f->GetGeomFieldRef(src->geom_field);
        if (g == nullptr || g->IsEmpty())
            continue;
        const int d = g->getDimension();
        z |= g->Is3D() != FALSE;
        if (dim < 0)
            dim = d;
        else if (d != dim)
            mixed = true;
    }
    layer->ResetReading();
    if (!mixed && dim >= 0)
    {
        src->dimension = dim;
        src->has_z = src->has_z || z;
        CPLDebug(VSGPU_DEBUG,
                 "bind: layer '%s' declares no geometry type; its features "
                 "have dimension %d",
                 src->name.c_str(), dim);
    }
}

void DescribeSource(Source *src, bool sample_unknown)
{
    OGRFeatureDefn *defn = src->layer->GetLayerDefn();
    const OGRGeomFieldDefn *g = defn->GetGeomFieldDefn(src->geom_field);
    const OGRwkbGeometryType t = g ? g->GetType() : wkbUnknown;
    const OGRwkbGeometryType flat = wkbFlatten(t);
    src->dimension = GeometryDimension(t);
    src->has_z = OGR_GT_HasZ(t) != 0;
    src->is_multi = flat == wkbMultiPoint || flat == wkbMultiLineString ||
                    flat == wkbMultiPolygon || flat == wkbMultiCurve ||
                    flat == wkbMultiSurface;
    if (src->dimension < 0 && sample_unknown)
        SampleDimension(src);
}

static OGRwkbGeometryType Family(int dim)
{
    switch (dim)
    {
        case 0:
            return wkbPoint;
        case 1:
            return wkbLineString;
        case 2:
            return wkbPolygon;
        default:
            return wkbUnknown;
    }
}

OGRwkbGeometryType OverlayGeometryType(const Plan &plan)
{
    const Source &in = plan.input;
    const bool two = plan.op != Op::ClipRect;
    const int dim_m = two ? plan.method.dimension : 2;
    if (plan.opts.keep_lower_dim || in.dimension < 0 || dim_m < 0)
        return wkbUnknown;
    OGRwkbGeometryType t = Family(std::min(in.dimension, dim_m));
    if (plan.opts.promote_to_multi || in.is_multi)
        t = OGR_GT_GetCollection(t);
    if (in.has_z || (two && plan.method.has_z))
        t = OGR_GT_SetZ(t);
    return t;
}

OGRwkbGeometryType DissolveGeometryType(const Plan &plan)
{
    const Source &in = plan.input;
    if (in.dimension < 0)
        return wkbUnknown;
    OGRwkbGeometryType t = OGR_GT_GetCollection(Family(in.dimension));
    if (in.has_z)
        t = OGR_GT_SetZ(t);
    return t;
}

void SetResultGeometry(Plan *plan, const char *alias)
{
    const Source &in = plan->input;
    const OGRGeomFieldDefn *src =
        in.layer->GetLayerDefn()->GetGeomFieldDefn(in.geom_field);
    OGRGeomFieldDefn *dst = plan->defn->GetGeomFieldDefn(0);
    if (dst == nullptr)
    {
        OGRGeomFieldDefn g("", wkbUnknown);
        plan->defn->AddGeomFieldDefn(&g);
        dst = plan->defn->GetGeomFieldDefn(0);
    }
    const OGRwkbGeometryType t = plan->op == Op::Dissolve
                                     ? DissolveGeometryType(*plan)
                                     : OverlayGeometryType(*plan);
    dst->SetType(t);
    dst->SetName(alias ? alias : (src ? src->GetNameRef() : ""));
    if (src && src->GetSpatialRef())
        dst->SetSpatialRef(src->GetSpatialRef());
    /* every output is promoted when the layer type is Multi */
    plan->engine_promote =
        plan->op != Op::Dissolve &&
        (plan->opts.promote_to_multi ||
         (!plan->opts.keep_lower_dim && in.is_multi));
    CPLDebug(VSGPU_DEBUG, "bind: %s result type %s, geometry '%s', %d fields",
             OpName(plan->op), OGRGeometryTypeToName(t), dst->GetNameRef(),
             plan->defn->GetFieldCount());
}

}  // namespace vsgpu
