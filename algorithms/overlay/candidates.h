/*
 * candidates.h - stage "candidates": for every input of a batch, the
 * method ids whose envelope meets the input's, ascending (STR tree query,
 * in parallel; the tree is read-only).
 */
#ifndef VSG_OVERLAY_CANDIDATES_H
#define VSG_OVERLAY_CANDIDATES_H

#include "overlay/batch.h"
#include "overlay/method_index.h"
#include "index/strtree.h"

/* On success *lists holds b->n lists (free with vsg_candidates_free). */
vsg_status vsg_candidates_find(vsg_batch *b, const vsg_method_index *idx,
                               vsg_id_list **lists);
void vsg_candidates_free(vsg_id_list *lists, size_t n);

#endif
