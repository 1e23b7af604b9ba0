/*
 * ogr_vsgpu_compat.h - every difference of GDAL's C++ driver API between
 * GDAL 3.6 and the newest that the driver meets, in one place. The rest of
 * driver/ is written once against these names and has no version #if.
 *
 * Tested builds: GDAL 3.6 (Debian 12), 3.10 (Debian 13), 3.13 (Debian sid);
 * the versions in between are covered by these guards only (docs/testing.md).
 *
 *   3.7  GDALDataset::FlushCache returns CPLErr (was void);
 *        OGRGeomFieldDefn::GetSpatialRef returns const, and from then on
 *        OGRGeometryFactory::createFromWkb takes a const SRS.
 *   3.8  ICreateLayer takes a const OGRSpatialReference*.
 *   3.9  ICreateLayer takes (name, const OGRGeomFieldDefn*, CSLConstList).
 *   3.11 gdal CLI algorithms can be declared by plugins (gdalalgorithm_cpp.h).
 *   3.12 OGRLayer::GetLayerDefn/GetName/GetGeomType/TestCapability and
 *        GDALDataset::GetLayerCount/GetLayer/TestCapability are const.
 *   3.13 GDALMajorObject::GetMetadata returns and SetMetadata takes
 *        CSLConstList.
 */
#ifndef OGR_VSGPU_COMPAT_H_INCLUDED
#define OGR_VSGPU_COMPAT_H_INCLUDED

#include "gdal_priv.h"
#include "gdal_version.h"
#include "ogrsf_frmts.h"

#define VSGPU_GDAL_AT_LEAST(major, minor)                                      \
    (GDAL_VERSION_NUM >= GDAL_COMPUTE_VERSION(major, minor, 0))

/* Accessors GDAL made const in 3.12. An override returning the non-const
 * pointer stays valid (a covariant, less qualified return type), so the
 * declarations differ only by this qualifier. */
#if VSGPU_GDAL_AT_LEAST(3, 12)
#define VSGPU_CONST_ACCESSOR const
#else
#define VSGPU_CONST_ACCESSOR
#endif

/* Metadata lists: char** until 3.12, CSLConstList from 3.13. */
#if VSGPU_GDAL_AT_LEAST(3, 13)
typedef CSLConstList VSGPUMetadataList;
#else
typedef char **VSGPUMetadataList;
#endif

/* GDALDataset::FlushCache's return type. */
#if VSGPU_GDAL_AT_LEAST(3, 7)
typedef CPLErr VSGPUFlushResult;
#else
typedef void VSGPUFlushResult;
#endif

/* GDALDataset::ICreateLayer: its parameter list, and a forwarder to another
 * dataset's CreateLayer with the same arguments. */
#if VSGPU_GDAL_AT_LEAST(3, 9)
#define VSGPU_ICREATELAYER_PARAMS                                              \
    const char *name, const OGRGeomFieldDefn *geom_field, CSLConstList options
#define VSGPU_ICREATELAYER_ARGS name, geom_field, options
#elif VSGPU_GDAL_AT_LEAST(3, 8)
#define VSGPU_ICREATELAYER_PARAMS                                              \
    const char *name, const OGRSpatialReference *srs,                          \
        OGRwkbGeometryType gtype, char **options
#define VSGPU_ICREATELAYER_ARGS name, srs, gtype, options
#else
#define VSGPU_ICREATELAYER_PARAMS                                              \
    const char *name, OGRSpatialReference *srs, OGRwkbGeometryType gtype,      \
        char **options
#define VSGPU_ICREATELAYER_ARGS name, srs, gtype, options
#endif

/* The SRS argument of createFromWkb: const from 3.7. Before, GDAL only
 * took a reference on it, so handing it the const SRS of a field
 * definition is what GDAL 3.7 itself does. */
#if VSGPU_GDAL_AT_LEAST(3, 7)
inline const OGRSpatialReference *VSGPUWkbSRS(const OGRSpatialReference *srs)
{
    return srs;
}
#else
inline OGRSpatialReference *VSGPUWkbSRS(const OGRSpatialReference *srs)
{
    return const_cast<OGRSpatialReference *>(srs);
}
#endif

/* Whether this GDAL lets a plugin declare `gdal` CLI algorithms. */
#if VSGPU_GDAL_AT_LEAST(3, 11)
#define VSGPU_HAVE_GDAL_ALGORITHMS 1
#else
#define VSGPU_HAVE_GDAL_ALGORITHMS 0
#endif

#endif /* OGR_VSGPU_COMPAT_H_INCLUDED */
