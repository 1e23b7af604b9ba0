/*
 * ogrvsgpucrs.cpp - the input and method layers' coordinate reference
 * systems: a statement over two layers in different CRSs computes nonsense
 * unless one is reprojected, so by default it fails, naming both, as
 * PostGIS does for mixed SRIDs (CRS_MISMATCH, docs/semantics.md).
 */
#include "ogr_vsgpu.h"

#include "cpl_conv.h"
#include "cpl_string.h"

namespace vsgpu
{

namespace
{

/* The layer's CRS, or nullptr when it has none. GeoPackage layers written
 * without one report GPKG's placeholders, "Undefined geographic SRS"
 * (srs_id 0) and "Undefined Cartesian SRS" (srs_id -1): no CRS either. */
const OGRSpatialReference *LayerCrs(const Source &src)
{
    const OGRFeatureDefn *defn = src.layer->GetLayerDefn();
    if (src.geom_field < 0 || src.geom_field >= defn->GetGeomFieldCount())
        return nullptr;
    const OGRSpatialReference *srs =
        defn->GetGeomFieldDefn(src.geom_field)->GetSpatialRef();
    if (srs == nullptr || srs->IsEmpty())
        return nullptr;
    const char *name = srs->GetName();
    if (srs->GetAuthorityCode(nullptr) == nullptr && name &&
        STARTS_WITH_CI(name, "Undefined "))
        return nullptr;
    return srs;
}

/* "EPSG:4326 (WGS 84)", or the CRS's name, for messages. */
std::string Describe(const OGRSpatialReference *srs)
{
    const char *name = srs->GetName();
    const char *auth = srs->GetAuthorityName(nullptr);
    const char *code = srs->GetAuthorityCode(nullptr);
    std::string s;
    if (auth && code)
        s = std::string(auth) + ":" + code;
    if (name && *name)
        s += s.empty() ? std::string(name) : " (" + std::string(name) + ")";
    return s.empty() ? std::string("an unnamed CRS") : s;
}

}  // namespace

bool CheckCrs(Plan *plan)
{
    const OGRSpatialReference *in = LayerCrs(plan->input);
    const OGRSpatialReference *me = LayerCrs(plan->method);
    const char *op = OpName(plan->op);
    if (in == nullptr || me == nullptr)
    {
        /* Not a mismatch (nothing says the coordinates differ), but the
         * user should know which side is unlabelled. */
        if (in != me)
            CPLError(CE_Warning, CPLE_AppDefined,
                     "VSGPU: %s: the %s layer '%s' has no CRS; its coordinates "
                     "are taken to be in the %s layer's %s",
                     op, in ? "method" : "input",
                     in ? plan->method.name.c_str() : plan->input.name.c_str(),
                     in ? "input" : "method", Describe(in ? in : me).c_str());
        return true;
    }
    /* GDAL's rule: the same CRS and the same axis order of the data. */
    if (in->IsSame(me))
        return true;
    switch (plan->opts.crs_mismatch)
    {
        case CrsMismatch::Ignore:
            return true;
        case CrsMismatch::Reproject:
        {
            OGRCoordinateTransformation *ct =
                OGRCreateCoordinateTransformation(me, in);
            if (ct == nullptr)
            {
                CPLError(CE_Failure, CPLE_AppDefined,
                         "VSGPU: %s: no coordinate transformation from %s "
                         "(method layer '%s') to %s (input layer '%s')",
                         op, Describe(me).c_str(), plan->method.name.c_str(),
                         Describe(in).c_str(), plan->input.name.c_str());
                return false;
            }
            plan->method.transform.reset(ct);
            plan->method.transform_failure_fails =
                plan->opts.invalid == VSG_INVALID_ERROR;
            CPLDebug(VSGPU_DEBUG, "%s: method layer reprojected from %s to %s",
                     op, Describe(me).c_str(), Describe(in).c_str());
            return true;
        }
        case CrsMismatch::Error:
        default:
            CPLError(CE_Failure, CPLE_AppDefined,
                     "VSGPU: %s: the input layer '%s' is in %s and the method "
                     "layer '%s' in %s. Reproject one of them (ogr2ogr "
                     "-t_srs), or set CRS_MISMATCH=REPROJECT to reproject the "
                     "method layer to the input's CRS, or CRS_MISMATCH=IGNORE "
                     "to compute with the coordinates as they are",
                     op, plan->input.name.c_str(), Describe(in).c_str(),
                     plan->method.name.c_str(), Describe(me).c_str());
            return false;
    }
}

}  // namespace vsgpu
