/*
 * refine_run.h - the overlay refine stage's first half: the context
 * over the pairs, the rings oriented and chunked (which the overlap
 * union's arrangement, stages/union/arrange.c, also takes, for one view
 * and no pair), and every piece of every pair's boundaries labelled
 * against the other polygon of its pair (elements/overlay/refine.h says
 * how and why it holds).
 *
 * Arrays live in s (freed together by the caller); the caller owns c's
 * inputs. A pair a check rejects gets its reason bits in why[pair].
 */
#ifndef VSG_STAGES_OVERLAY_REFINE_RUN_H
#define VSG_STAGES_OVERLAY_REFINE_RUN_H

#include "elements/overlay/refine_steps.h"
#include "stages/step.h"

/* c over the sorted pairs (pair_a[k] of a, pair_b[k] of b), why[] of
 * n_pairs on the backend; the sides' rings and chunks. same_sides: a and
 * b are one view, prepared once (for the sides alone: vsg_ref_pieces
 * takes two views).
 * VSG_ERR_INVALID_ARG: the keys would not fit (the caller does without
 * the stage). */
vsg_status vsg_ref_begin(vsg_exec *x, vsg_ref_ctx *c, vsg_scratch *s, const vsg_col_view *a,
                         const double *boxes_a, const vsg_col_view *b, const double *boxes_b,
                         const int64_t *pair_a, const int64_t *pair_b, int64_t n_pairs,
                         uint32_t *why, int same_sides);

/* A join's chunk pairs' arrays for n of them (filled by the caller's
 * rows step: vsg_ref_chunk_rows), then, from their row counts, the rows'
 * (n_rows read). */
vsg_status vsg_ref_rows_alloc_pairs(vsg_exec *x, vsg_scratch *s, vsg_ref_rows *r, int64_t n);
vsg_status vsg_ref_rows_alloc_rows(vsg_exec *x, vsg_scratch *s, vsg_ref_rows *r, int64_t n_join);

/* Instances, nodes, pieces and their labels (c->val[piece], VSG_REF_*),
 * checked at both ends. */
vsg_status vsg_ref_pieces(vsg_exec *x, vsg_ref_ctx *c, vsg_scratch *s);

#endif
