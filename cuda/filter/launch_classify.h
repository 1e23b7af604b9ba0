/*
 * launch_classify.h - C-callable launchers of the chunked classify's steps
 * (launch_classify.cu); the orchestrator is
 * algorithms/stages/filter/classify.c, the element logic
 * elements/filter/classify.h and elements/filter/chunks.h. Pointers are
 * device memory; every call is ordered on the stream and none waits for
 * it. One thread per item, each item bounded (VSG_CHUNK_SEGS).
 */
#ifndef VSGPU_LAUNCH_CLASSIFY_H
#define VSGPU_LAUNCH_CLASSIFY_H

#include "vsgpu_cuda.h"
#include "elements/filter/classify.h"

#ifdef __cplusplus
extern "C" {
#endif

/* cnt[r] = vsg_ring_chunk_count(v, r) for every ring. */
vsg_status vsg_launch_cls_ring_chunks(vsg_gpu *g, const vsg_col_view *v, int64_t *cnt);
/* vsg_chunk_fill for every chunk of s (its chunk_geom, chunk_box). */
vsg_status vsg_launch_cls_chunk_fill(vsg_gpu *g, const vsg_cls_side *s);
/* s->ok: the geometry, part and ring checks, in that order. */
vsg_status vsg_launch_cls_ok(vsg_gpu *g, const vsg_cls_side *s);
/* vsg_cls_chunk_pair for each of the n_cp chunk pairs (cpa[i], cpb[i]). */
vsg_status vsg_launch_cls_chunk_pairs(vsg_gpu *g, const vsg_cls_side *a, const vsg_cls_side *b,
                                      const int64_t *cpa, const int64_t *cpb, int64_t n_cp,
                                      const int64_t *pa, const int64_t *pb, int64_t n_pairs,
                                      uint32_t *bits);
/* start[k] = vsg_cls_pair_start(..), n_items[k] for every pair. */
vsg_status vsg_launch_cls_pair_start(vsg_gpu *g, const vsg_cls_side *a, const vsg_cls_side *b,
                                     const int64_t *pa, const int64_t *pb, int64_t n_pairs,
                                     const uint32_t *bits, uint8_t *start, int64_t *n_items);
/* vsg_cls_item_start for every item. */
vsg_status vsg_launch_cls_item_start(vsg_gpu *g, const vsg_cls_side *a, const vsg_cls_side *b,
                                     const int64_t *pa, const int64_t *pb, int64_t n_pairs,
                                     const int64_t *item_off, int64_t n_items, uint32_t *bits,
                                     int64_t *n_sub);
/* vsg_cls_crossings for every sub-item. */
vsg_status vsg_launch_cls_crossings(vsg_gpu *g, const vsg_cls_side *a, const vsg_cls_side *b,
                                    const int64_t *pa, const int64_t *pb, int64_t n_pairs,
                                    const int64_t *item_off, const int64_t *sub_off,
                                    int64_t n_items, int64_t n_sub, uint32_t *state);
/* vsg_cls_item_resolve for every item. */
vsg_status vsg_launch_cls_item_resolve(vsg_gpu *g, const vsg_cls_side *a,
                                       const vsg_cls_side *b, const int64_t *pa,
                                       const int64_t *pb, int64_t n_pairs,
                                       const int64_t *item_off, const int64_t *sub_off,
                                       int64_t n_items, const uint32_t *state, uint32_t *bits);
/* cls[k] = vsg_cls_pair_final(start[k], bits[k]). */
vsg_status vsg_launch_cls_pair_final(vsg_gpu *g, const uint8_t *start, const uint32_t *bits,
                                     int64_t n, uint8_t *cls);

#ifdef __cplusplus
}
#endif
#endif
