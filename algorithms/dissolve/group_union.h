/*
 * group_union.h - how dissolve hands whole groups to another engine before
 * its GEOS stages: the GPU pipeline's coverage union
 * (pipeline/coverage.c) on the device or the host backend. The CPU engine
 * only knows this signature (docs/architecture.md: the CPU engine does not
 * include the pipeline); route/dissolve.c joins the two.
 */
#ifndef VSG_DISSOLVE_GROUP_UNION_H
#define VSG_DISSOLVE_GROUP_UNION_H

#include <stddef.h>
#include <stdint.h>

#include "vsgpu_engine.h"

/* Per group (arrays of n_groups, zeroed by the caller): ok[g] = 1 and
 * wkb[g] (malloc'd, MultiPolygon, taken by the caller) for each group the
 * engine settled. */
typedef struct {
    uint8_t *ok;
    unsigned char **wkb;
    size_t *size;
    int parts_of_groups;   /* the "groups" are pieces (chunks) of the
                              statement's groups: not counted as groups */
    const uint8_t *retried; /* NULL, or per group: offered again by a
                              later call if not settled here, so a failure
                              here is not counted (its rows neither)      */
    const char *stage;     /* the trace's stage name; NULL: group_union,
                              or chunk_union for parts of groups          */
    int coverage_only;     /* settle only what the coverage union proves
                              (no overlap union on the GPU)               */
    int gpu_only;          /* a GPU-only offer: where the statement runs
                              on the CPU engine (or the GPU failed in
                              AUTO) settle nothing, GEOS is the better
                              engine for it there                         */
    const int64_t *member_row; /* NULL, or per member: its row in the
                              statement's input where its WKB is that
                              row's as read (-1: a repair, a merged
                              part); the GPU gathers those from the
                              validity screen's decode of the layer      */
} vsg_group_union_out;

/* members: the WKB of the members of the groups offered (polygons, none
 * repaired), in input order, group_of[i] their group. Groups not settled
 * stay ok = 0: dissolve's GEOS stages union them. VSG_OK, or a status
 * that fails the statement (engine error set). */
typedef vsg_status (*vsg_group_union_fn)(vsg_engine *e, const vsg_wkb_array *members,
                                         const int64_t *group_of, int64_t n_groups,
                                         vsg_group_union_out *out);

/* vsg_dissolve with a group union tried first (NULL: none). */
vsg_status vsg_dissolve_with(vsg_engine *e, const vsg_wkb_array *geoms, const int64_t *group_of,
                             int64_t n_groups, vsg_group_union_fn fast, vsg_result *out);

#endif
