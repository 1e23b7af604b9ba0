/*
 * candidates.h - stage "candidates": for every input of a batch, the
 * method ids whose envelope meets the input's, ascending (STR tree query,
 * in parallel; the tree is read-only).
 */
#ifndef VSG_OVERLAY_CANDIDATES_H
#define VSG_OVERLAY_CANDIDATES_H

#include "columnar/columnar.h"
#include "overlay/batch.h"
#include "overlay/method_index.h"
#include "index/strtree.h"

/* The class of cands[i].ids[k] is flat[off[i] + k] (a VSG_CLS_* value of
 * elements/filter/classify.h), when a candidate search also classified the pairs
 * (the GPU pipeline's does). */
typedef struct {
    uint8_t *flat;
    int64_t *off;     /* n + 1 */
    /* the GPU refine's results (intersection, VSGPU_GPU_REFINE=YES), by
     * flat position, or NULL: gpu[q] says what it settled, gpu_row[q] is
     * its row of gpu_out (host memory, owned; rows are written as WKB by
     * the refine tasks, in parallel) */
    uint8_t *gpu;
    int64_t *gpu_row;
    vsg_columnar gpu_out;
    /* clip: what the GPU settled per input row (VSG_HINT_GPU_*), row i of
     * row_out holding a RESULT; NULL when GEOS clips every row */
    uint8_t *row_gpu;
    vsg_columnar row_out;
} vsg_pair_hints;

/* gpu[q] of vsg_pair_hints */
enum {
    VSG_HINT_GPU_NONE = 0,      /* GEOS decides                               */
    VSG_HINT_GPU_RESULT = 1,    /* gpu_out row gpu_row[q]: the polygonal
                                   intersection                               */
    VSG_HINT_GPU_TOUCH = 2,     /* no polygonal part; the boundaries meet (a
                                   lower-dimension result, dropped)           */
    VSG_HINT_GPU_EMPTY = 3      /* the polygons do not meet                   */
};

void vsg_pair_hints_free(vsg_pair_hints *h);

/* A candidate search: fills *lists (b->n lists, ascending method ids) and,
 * when it classifies pairs, *hints; *used = 0 (VSG_OK) when it did not run
 * for this batch (the STR tree search then runs). vsg_candidates_find is
 * the CPU engine's; the GPU pipeline's is vsg_gpu_candidates. */
typedef vsg_status (*vsg_candidate_finder)(vsg_batch *b, const vsg_method_index *idx,
                                           vsg_id_list **lists, vsg_pair_hints *hints,
                                           int *used);

/* On success *lists holds b->n lists (free with vsg_candidates_free). */
vsg_status vsg_candidates_find(vsg_batch *b, const vsg_method_index *idx,
                               vsg_id_list **lists);
void vsg_candidates_free(vsg_id_list *lists, size_t n);

#endif
