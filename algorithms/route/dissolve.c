/*
 * dissolve.c - vsg_dissolve: the CPU engine's dissolve (dissolve/) with
 * the pipeline's exact coverage union (pipeline/coverage.c) tried first on
 * every polygon group: on the device when the statement took the GPU, on
 * the host backend otherwise; GEOS unions what it does not settle
 * (VSGPU_COVERAGE_UNION=NO: GEOS unions everything).
 */
#include "core/engine_internal.h"
#include "dissolve/group_union.h"
#include "pipeline/coverage.h"

vsg_status vsg_dissolve(vsg_engine *e, const vsg_wkb_array *geoms, const int64_t *group_of,
                        int64_t n_groups, vsg_result *out)
{
    vsg_group_union_fn fast = e && e->opts.coverage_union ? vsg_pipeline_coverage_union : NULL;
    return vsg_dissolve_with(e, geoms, group_of, n_groups, fast, out);
}
