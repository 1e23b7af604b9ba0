/*
 * filter_gpu.h - the candidate search of intersection and clip by a layer
 * on the GPU pipeline: bounds, the bulk spatial join and the containment
 * classes of every pair run on the backend; the CPU engine then refines
 * only the pairs the classes leave undecided.
 */
#ifndef VSG_GPU_FILTER_H
#define VSG_GPU_FILTER_H

#include "overlay/candidates.h"

/* A vsg_candidate_finder (overlay/candidates.h). Fills *lists (b->n candidate lists, ascending method ids, as
 * vsg_candidates_find does) and *hints. Returns VSG_OK with *used = 0 when
 * the GPU pipeline is not to be used for this batch (not enabled, broken,
 * or a failure handled by the AUTO rule): the caller then runs the CPU
 * candidate search. Under strict mode a failure is returned. */
vsg_status vsg_gpu_candidates(vsg_batch *b, const vsg_method_index *idx, vsg_id_list **lists,
                              vsg_pair_hints *hints, int *used);

/* The same, for intersection: with VSGPU_GPU_REFINE=YES (and the default
 * KEEP_LOWER_DIMENSION_GEOMETRIES=NO) the pairs the classes leave
 * undecided are also refined exactly on the backend
 * (stages/overlay/refine.c); hints then carry the results, and GEOS
 * refines only the pairs handed back (GPU_PAIRS_RERUN_ON_CPU). */
vsg_status vsg_gpu_candidates_refined(vsg_batch *b, const vsg_method_index *idx,
                                      vsg_id_list **lists, vsg_pair_hints *hints, int *used);

/* The same, for clip: the pieces (each input against the method polygons
 * that cross it or lie inside it) are refined exactly and unioned by
 * input on the backend (the coverage union); hints->row_gpu then says
 * which rows the GPU settled, and GEOS clips the others (rows covered by
 * a method polygon keep the CPU engine's shortcut). */
vsg_status vsg_gpu_candidates_clip(vsg_batch *b, const vsg_method_index *idx, vsg_id_list **lists,
                                   vsg_pair_hints *hints, int *used);

#endif
