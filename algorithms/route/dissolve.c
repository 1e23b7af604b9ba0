/*
 * dissolve.c - vsg_dissolve: the CPU engine's dissolve (dissolve/) with
 * the pipeline's exact coverage union (pipeline/coverage.c) tried first on
 * every polygon group: on the device when the statement took the GPU, on
 * the host backend otherwise; GEOS unions what it does not settle
 * (VSGPU_COVERAGE_UNION=NO: GEOS unions everything). The group unions
 * read their members from the validity screen's decode of the layer where
 * it is kept on the backend (pipeline/screened.h).
 */
#include "core/engine_internal.h"
#include "dissolve/group_union.h"
#include "pipeline/coverage.h"
#include "pipeline/screen.h"

vsg_status vsg_dissolve(vsg_engine *e, const vsg_wkb_array *geoms, const int64_t *group_of,
                        int64_t n_groups, vsg_result *out)
{
    vsg_group_union_fn fast = e && e->opts.coverage_union ? vsg_pipeline_coverage_union : NULL;
    /* the group unions gather their members from the validity screen's
     * decode of the layer, kept on the backend until the statement ends */
    if (e && fast)
        vsg_pipeline_screen_keep(e, 1);
    vsg_status st = vsg_dissolve_with(e, geoms, group_of, n_groups, fast, out);
    if (e && fast)
        vsg_pipeline_screen_keep(e, 0);
    return st;
}
