/*
 * col_view.h - the columnar geometry layout that every stage reads, on the
 * host or on the device (the pointers say where; the layout is the same).
 *
 * fp64 structure of arrays with three offset levels, as GeoArrow does:
 *
 *   geometry g : parts  [geom_part[g],  geom_part[g+1])
 *   part p     : rings  [part_ring[p],  part_ring[p+1])
 *   ring r     : coords [ring_coord[r], ring_coord[r+1])
 *
 *   Point            1 part, 1 ring, 1 coordinate
 *   LineString       1 part, 1 ring (the path)
 *   Polygon          1 part, rings: shell first, then holes; rings are
 *                    stored closed (first == last), exactly as in the WKB
 *   Multi*           one part per member
 *   null / empty     0 parts, flag VSG_GF_NULL / VSG_GF_EMPTY (a Multi*
 *                    of empty members is not EMPTY: each empty member
 *                    keeps its part, with a 0-coordinate ring for a point
 *                    or line and no ring for a polygon, so that it round
 *                    trips; unclosed rings are stored as they came)
 *   unsupported      0 parts, flag VSG_GF_UNSUPPORTED (GeometryCollection,
 *                    curves): the CPU engine handles the row
 *   corrupt          0 parts, flag VSG_GF_CORRUPT (the WKB could not be
 *                    decoded; reported, never crashed on)
 *
 * z is NULL when no geometry of the set has Z (flag VSG_GF_Z per geometry).
 * Offsets are int64 so that no count of a large layer can overflow.
 */
#ifndef VSG_ELEMENTS_COL_VIEW_H
#define VSG_ELEMENTS_COL_VIEW_H

#include "elements/hd.h"

/* geometry types: the OGC/ISO WKB codes of the six simple types */
enum {
    VSG_GT_NONE = 0,
    VSG_GT_POINT = 1,
    VSG_GT_LINESTRING = 2,
    VSG_GT_POLYGON = 3,
    VSG_GT_MULTIPOINT = 4,
    VSG_GT_MULTILINESTRING = 5,
    VSG_GT_MULTIPOLYGON = 6
};

/* geometry flags (bits) */
enum {
    VSG_GF_NULL = 1,
    VSG_GF_EMPTY = 2,
    VSG_GF_Z = 4,
    VSG_GF_UNSUPPORTED = 8,
    VSG_GF_CORRUPT = 16,
    VSG_GF_NONFINITE = 32,    /* a NaN/Inf coordinate: the CPU engine
                                 decides (it drops and counts the row)   */
    VSG_GF_SIMPLE = 64        /* the validity screen proved the row's
                                 rings simple and apart (no two share a
                                 point): the overlay refine's pieces of
                                 it need no noding check where every node
                                 is exact (stages/overlay/refine.c)     */
};

typedef struct {
    int64_t n_geoms, n_parts, n_rings, n_coords;
    const uint8_t *type;          /* n_geoms                             */
    const uint8_t *flags;         /* n_geoms                             */
    const int64_t *geom_part;     /* n_geoms + 1                         */
    const int64_t *part_ring;     /* n_parts + 1                         */
    const int64_t *ring_coord;    /* n_rings + 1                         */
    const double *x, *y;          /* n_coords                            */
    const double *z;              /* n_coords or NULL                    */
} vsg_col_view;

/* The dimension of a geometry type: 0 points, 1 lines, 2 polygons, -1. */
VSG_HD int vsg_gt_dimension(int type)
{
    switch (type) {
    case VSG_GT_POINT: case VSG_GT_MULTIPOINT: return 0;
    case VSG_GT_LINESTRING: case VSG_GT_MULTILINESTRING: return 1;
    case VSG_GT_POLYGON: case VSG_GT_MULTIPOLYGON: return 2;
    default: return -1;
    }
}

#endif
