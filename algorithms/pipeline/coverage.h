/*
 * coverage.h - the GPU pipeline's group union for dissolve: the coverage
 * union stage (stages/union/coverage.c) on the statement's GPU backend
 * when it has one, else on the host backend (the CPU engine's fastest
 * exact path for coverages). A vsg_group_union_fn (dissolve/group_union.h).
 */
#ifndef VSG_PIPELINE_COVERAGE_H
#define VSG_PIPELINE_COVERAGE_H

#include "dissolve/group_union.h"

vsg_status vsg_pipeline_coverage_union(vsg_engine *e, const vsg_wkb_array *members,
                                       const int64_t *group_of, int64_t n_groups,
                                       vsg_group_union_out *out);

#endif
