/*
 * launch_classify.cu - the chunked classify's steps on the device
 * (launch_classify.h): one grid-stride thread per item, each item bounded
 * by VSG_CHUNK_SEGS (elements/filter/classify.h, "the chunked classify").
 * Per-pair and per-item results are combined with atomicOr / atomicXor on
 * one word each: few items touch the same word (the segments that cross one
 * ray, the rings of one pair), so the atomics do not serialise.
 */
#include "filter/launch_classify.h"

#include "gpu_internal.h"

namespace {

const int kBlock = 256;

template <typename F> vsg_status launch(vsg_gpu *g, int64_t n, F f)
{
    VSG_FOR_EACH(g, n, kBlock, f);
    return VSG_OK;
}

} // namespace

extern "C" vsg_status vsg_launch_cls_ring_chunks(vsg_gpu *g, const vsg_col_view *v,
                                                 int64_t *cnt)
{
    vsg_col_view w = *v;
    return launch(g, w.n_rings,
                  [=] __device__(int64_t r) { cnt[r] = vsg_ring_chunk_count(&w, r); });
}

extern "C" vsg_status vsg_launch_cls_chunk_fill(vsg_gpu *g, const vsg_cls_side *s)
{
    vsg_col_view w = s->v;
    const int64_t *rc = s->ring_chunk;
    int64_t *geom = (int64_t *)s->chunk_geom;
    double *box = (double *)s->chunk_box;
    return launch(g, s->n_chunks,
                  [=] __device__(int64_t c) { vsg_chunk_fill(&w, rc, c, geom, box); });
}

extern "C" vsg_status vsg_launch_cls_ok(vsg_gpu *g, const vsg_cls_side *s)
{
    vsg_col_view w = s->v;
    uint8_t *ok = (uint8_t *)s->ok;
    vsg_status st = launch(g, w.n_geoms, [=] __device__(int64_t i) { vsg_cls_ok_geom(&w, i, ok); });
    if (st == VSG_OK)
        st = launch(g, w.n_parts, [=] __device__(int64_t i) { vsg_cls_ok_part(&w, i, ok); });
    if (st == VSG_OK)
        st = launch(g, w.n_rings, [=] __device__(int64_t i) { vsg_cls_ok_ring(&w, i, ok); });
    return st;
}

extern "C" vsg_status vsg_launch_cls_chunk_pairs(vsg_gpu *g, const vsg_cls_side *a,
                                                 const vsg_cls_side *b, const int64_t *cpa,
                                                 const int64_t *cpb, int64_t n_cp,
                                                 const int64_t *pa, const int64_t *pb,
                                                 int64_t n_pairs, uint32_t *bits)
{
    vsg_cls_side A = *a, B = *b;
    return launch(g, n_cp, [=] __device__(int64_t i) {
        vsg_cls_chunk_pair(&A.v, A.ring_chunk, A.chunk_geom, A.ok, cpa[i], &B.v, B.ring_chunk,
                           B.chunk_geom, B.ok, cpb[i], pa, pb, n_pairs, bits);
    });
}

extern "C" vsg_status vsg_launch_cls_pair_start(vsg_gpu *g, const vsg_cls_side *a,
                                                const vsg_cls_side *b, const int64_t *pa,
                                                const int64_t *pb, int64_t n_pairs,
                                                const uint32_t *bits, uint8_t *start,
                                                int64_t *n_items)
{
    vsg_cls_side A = *a, B = *b;
    return launch(g, n_pairs, [=] __device__(int64_t k) {
        start[k] = vsg_cls_pair_start(&A.v, A.ok, A.boxes, pa[k], &B.v, B.ok, B.boxes, pb[k],
                                      bits[k], n_items + k);
    });
}

extern "C" vsg_status vsg_launch_cls_item_start(vsg_gpu *g, const vsg_cls_side *a,
                                                const vsg_cls_side *b, const int64_t *pa,
                                                const int64_t *pb, int64_t n_pairs,
                                                const int64_t *item_off, int64_t n_items,
                                                uint32_t *bits, int64_t *n_sub)
{
    vsg_cls_side A = *a, B = *b;
    return launch(g, n_items, [=] __device__(int64_t t) {
        vsg_cls_item_start(&A.v, A.boxes, A.ring_chunk, &B.v, B.boxes, B.ring_chunk, pa, pb,
                           item_off, n_pairs, t, bits, n_sub);
    });
}

extern "C" vsg_status vsg_launch_cls_crossings(vsg_gpu *g, const vsg_cls_side *a,
                                               const vsg_cls_side *b, const int64_t *pa,
                                               const int64_t *pb, int64_t n_pairs,
                                               const int64_t *item_off, const int64_t *sub_off,
                                               int64_t n_items, int64_t n_sub, uint32_t *state)
{
    vsg_cls_side A = *a, B = *b;
    return launch(g, n_sub, [=] __device__(int64_t s) {
        vsg_cls_crossings(&A.v, A.ring_chunk, A.chunk_box, &B.v, B.ring_chunk, B.chunk_box, pa,
                          pb, item_off, n_pairs, sub_off, n_items, s, state);
    });
}

extern "C" vsg_status vsg_launch_cls_item_resolve(vsg_gpu *g, const vsg_cls_side *a,
                                                  const vsg_cls_side *b, const int64_t *pa,
                                                  const int64_t *pb, int64_t n_pairs,
                                                  const int64_t *item_off,
                                                  const int64_t *sub_off, int64_t n_items,
                                                  const uint32_t *state, uint32_t *bits)
{
    vsg_cls_side A = *a, B = *b;
    return launch(g, n_items, [=] __device__(int64_t t) {
        vsg_cls_item_resolve(&A.v, &B.v, pa, pb, item_off, n_pairs, sub_off, t, state, bits);
    });
}

extern "C" vsg_status vsg_launch_cls_pair_final(vsg_gpu *g, const uint8_t *start,
                                                const uint32_t *bits, int64_t n, uint8_t *cls)
{
    return launch(g, n, [=] __device__(int64_t k) { cls[k] = vsg_cls_pair_final(start[k], bits[k]); });
}
