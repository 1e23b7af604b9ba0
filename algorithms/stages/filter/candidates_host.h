/*
 * candidates_host.h - the candidates stage's one-pass join for the CPU
 * engine's own host backend (candidates_host.c says why). Called by
 * vsg_stage_candidates(_unsorted) only; same contract: out->a, out->b
 * sorted by (a, b) (sorted = 0: by a only), each pair once, from x's
 * memory; cap: the grid's cell ceiling; want: vsg_grid_wanted's.
 */
#ifndef VSG_STAGES_CANDIDATES_HOST_H
#define VSG_STAGES_CANDIDATES_HOST_H

#include "stages/stages.h"
#include "elements/filter/grid.h"

vsg_status vsg_candidates_host_run(vsg_exec *x, const double *boxes_a, int64_t na,
                                   const double *boxes_b, int64_t nb, int64_t cap,
                                   int sorted, vsg_grid_want want, vsg_pairs *out);

#endif
