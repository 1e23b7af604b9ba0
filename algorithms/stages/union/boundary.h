/*
 * boundary.h - the second half of the coverage union stage, on a boundary
 * given by the caller: directed segments with the interior on their left,
 * keyed by group (stages/union/coverage.c). The overlay refine
 * (stages/overlay/refine.c) selects the pieces of an intersection's
 * boundary and hands them here, so that rings, shells and holes are
 * built, and proven, by one piece of code for both operations.
 *
 * R: n segments, its arrays x memory, filled as vsg_cov_r_fill does
 * (group, endpoints, box, node keys with sidx/eidx = identity; spos and
 * epos allocated). The keys are sorted in place. out gets n_groups
 * geometries: a MultiPolygon per group with group_ok[g] = 1; otherwise
 * why[g] has VSG_COV_BAD_* bits (VSG_COV_BAD_EMPTY alone: no ring at
 * all). why[] is not cleared: bits already set keep their groups out.
 */
#ifndef VSG_STAGES_UNION_BOUNDARY_H
#define VSG_STAGES_UNION_BOUNDARY_H

#include "stages/stages.h"
#include "stages/step.h"
#include "elements/union/coverage.h"

/* R's arrays for n segments, from s (freed with it); R->n = n. */
vsg_status vsg_union_boundary_alloc(vsg_exec *x, vsg_scratch *s, vsg_cov_r *R, int64_t n);

/* Groups the caller knows to be noded by construction, whose segments meet
 * only at shared endpoints, as the noding check would prove: rounded[g] 0
 * (backend memory, n_groups), and *any (one backend int64) 0 when no group
 * is rounded. The check then runs on the rounded groups only. */
typedef struct {
    const uint8_t *rounded;
    const int64_t *any;
} vsg_union_noded;

/* noded: NULL, or the groups noded by construction. */
vsg_status vsg_stage_union_boundary(vsg_exec *x, const vsg_cov_r *R, int64_t n_groups,
                                    const vsg_union_noded *noded, vsg_columnar *out,
                                    uint8_t *group_ok, uint32_t *why);

#endif
