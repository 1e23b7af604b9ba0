/*
 * classify.c - the classify stage (stages/stages.h): for each candidate
 * pair, whether the refine can be skipped (elements/filter/classify.h).
 *
 * Load-balanced: the work is cut into chunks of segments
 * (elements/filter/chunks.h), never one thread per pair, so a pair of a
 * 10^5-vertex country and a small province is spread over the device like
 * everything else. The steps are those of "the chunked classify" in
 * elements/filter/classify.h; each is a host loop or a launcher of
 * cuda/filter/launch_classify.cu over the same element functions. Four
 * scalar reads size the allocations that depend on the data (the two
 * chunk tables, the items, the sub-items); the chunk pairs come from the
 * candidates stage's grid join run on chunk boxes.
 */
#include "stages/stages.h"
#include "stages/step.h"

#include <string.h>

#include "elements/filter/classify.h"

#ifdef VSGPU_HAVE_CUDA
#include "filter/launch_classify.h"
#endif

/* Every step is a launch: the fault hook (core/fault.h) may fail it before
 * anything runs, on either backend, as a failed CUDA launch would. */
#define LAUNCH(x)                                              \
    do {                                                       \
        vsg_status launch_st_ = vsg_exec_launch((x), "classify"); \
        if (launch_st_ != VSG_OK)                              \
            return launch_st_;                                 \
    } while (0)

/* ---- one side's chunk table ------------------------------------------------ */

static void side_free(vsg_exec *x, vsg_cls_side *s)
{
    vsg_exec_free(x, (void *)s->ring_chunk);
    vsg_exec_free(x, (void *)s->chunk_geom);
    vsg_exec_free(x, (void *)s->chunk_box);
    vsg_exec_free(x, (void *)s->ok);
}

static vsg_status step_ring_chunks(vsg_exec *x, const vsg_col_view *v, int64_t *cnt)
{
    LAUNCH(x);
    if (vsg_step_on_gpu(x))
        GPU_OR(vsg_launch_cls_ring_chunks(vsg_exec_gpu(x), v, cnt));
    for (int64_t r = 0; r < v->n_rings; r++)
        cnt[r] = vsg_ring_chunk_count(v, r);
    vsg_exec_note_work(x, 1);
    return VSG_OK;
}

static vsg_status step_chunk_fill(vsg_exec *x, vsg_cls_side *s)
{
    LAUNCH(x);
    if (vsg_step_on_gpu(x))
        GPU_OR(vsg_launch_cls_chunk_fill(vsg_exec_gpu(x), s));
    int64_t most = 0;
    for (int64_t c = 0; c < s->n_chunks; c++) {
        int64_t w = vsg_chunk_fill(&s->v, s->ring_chunk, c, (int64_t *)s->chunk_geom,
                                   (double *)s->chunk_box);
        most = w > most ? w : most;
    }
    vsg_exec_note_work(x, most);
    return VSG_OK;
}

static vsg_status step_ok(vsg_exec *x, const vsg_cls_side *s)
{
    LAUNCH(x);
    if (vsg_step_on_gpu(x))
        GPU_OR(vsg_launch_cls_ok(vsg_exec_gpu(x), s));
    uint8_t *ok = (uint8_t *)s->ok;
    for (int64_t g = 0; g < s->v.n_geoms; g++)
        vsg_cls_ok_geom(&s->v, g, ok);
    for (int64_t p = 0; p < s->v.n_parts; p++)
        vsg_cls_ok_part(&s->v, p, ok);
    for (int64_t r = 0; r < s->v.n_rings; r++)
        vsg_cls_ok_ring(&s->v, r, ok);
    return VSG_OK;
}

/* The chunk table of v (and the polygonal check of its rows). */
static vsg_status side_make(vsg_exec *x, const vsg_col_view *v, const double *boxes,
                            vsg_cls_side *s)
{
    vsg_status st;
    int64_t *cnt = NULL, *off = NULL;
    s->v = *v;
    s->boxes = boxes;
    TRY(vsg_exec_alloc(x, (size_t)v->n_rings * sizeof(int64_t), (void **)&cnt));
    TRY(vsg_exec_alloc(x, (size_t)(v->n_rings + 1) * sizeof(int64_t), (void **)&off));
    TRY(step_ring_chunks(x, v, cnt));
    TRY(vsg_exec_scan_i64(x, cnt, off, v->n_rings));
    s->ring_chunk = off;
    off = NULL;
    TRY(vsg_exec_read_i64(x, s->ring_chunk + v->n_rings, &s->n_chunks));
    TRY(vsg_exec_alloc(x, (size_t)s->n_chunks * sizeof(int64_t), (void **)&s->chunk_geom));
    TRY(vsg_exec_alloc(x, (size_t)s->n_chunks * 4 * sizeof(double), (void **)&s->chunk_box));
    TRY(vsg_exec_alloc(x, (size_t)v->n_geoms, (void **)&s->ok));
    TRY(step_chunk_fill(x, s));
    TRY(step_ok(x, s));
done:
    vsg_exec_free(x, cnt);
    vsg_exec_free(x, off);
    return st;
}

/* ---- the steps on pairs ---------------------------------------------------- */

static vsg_status step_chunk_pairs(vsg_exec *x, const vsg_cls_side *a, const vsg_cls_side *b,
                                   const vsg_pairs *cp, const vsg_pairs *pairs, uint32_t *bits)
{
    LAUNCH(x);
    if (vsg_step_on_gpu(x))
        GPU_OR(vsg_launch_cls_chunk_pairs(vsg_exec_gpu(x), a, b, cp->a, cp->b, cp->n, pairs->a,
                                          pairs->b, pairs->n, bits));
    int64_t most = 0;
    for (int64_t i = 0; i < cp->n; i++) {
        int64_t w = vsg_cls_chunk_pair(&a->v, a->ring_chunk, a->chunk_geom, a->ok, cp->a[i],
                                       &b->v, b->ring_chunk, b->chunk_geom, b->ok, cp->b[i],
                                       pairs->a, pairs->b, pairs->n, bits);
        most = w > most ? w : most;
    }
    vsg_exec_note_work(x, most);
    return VSG_OK;
}

static vsg_status step_pair_start(vsg_exec *x, const vsg_cls_side *a, const vsg_cls_side *b,
                                  const vsg_pairs *pairs, const uint32_t *bits, uint8_t *start,
                                  int64_t *n_items)
{
    LAUNCH(x);
    if (vsg_step_on_gpu(x))
        GPU_OR(vsg_launch_cls_pair_start(vsg_exec_gpu(x), a, b, pairs->a, pairs->b, pairs->n,
                                         bits, start, n_items));
    for (int64_t k = 0; k < pairs->n; k++)
        start[k] = vsg_cls_pair_start(&a->v, a->ok, a->boxes, pairs->a[k], &b->v, b->ok,
                                      b->boxes, pairs->b[k], bits[k], n_items + k);
    return VSG_OK;
}

static vsg_status step_item_start(vsg_exec *x, const vsg_cls_side *a, const vsg_cls_side *b,
                                  const vsg_pairs *pairs, const int64_t *item_off,
                                  int64_t n_items, uint32_t *bits, int64_t *n_sub)
{
    LAUNCH(x);
    if (vsg_step_on_gpu(x))
        GPU_OR(vsg_launch_cls_item_start(vsg_exec_gpu(x), a, b, pairs->a, pairs->b, pairs->n,
                                         item_off, n_items, bits, n_sub));
    for (int64_t t = 0; t < n_items; t++)
        vsg_cls_item_start(&a->v, a->boxes, a->ring_chunk, &b->v, b->boxes, b->ring_chunk,
                           pairs->a, pairs->b, item_off, pairs->n, t, bits, n_sub);
    return VSG_OK;
}

static vsg_status step_crossings(vsg_exec *x, const vsg_cls_side *a, const vsg_cls_side *b,
                                 const vsg_pairs *pairs, const int64_t *item_off,
                                 const int64_t *sub_off, int64_t n_items, int64_t n_sub,
                                 uint32_t *state)
{
    LAUNCH(x);
    if (vsg_step_on_gpu(x))
        GPU_OR(vsg_launch_cls_crossings(vsg_exec_gpu(x), a, b, pairs->a, pairs->b, pairs->n,
                                        item_off, sub_off, n_items, n_sub, state));
    int64_t most = 0;
    for (int64_t s = 0; s < n_sub; s++) {
        int64_t w = vsg_cls_crossings(&a->v, a->ring_chunk, a->chunk_box, &b->v, b->ring_chunk,
                                      b->chunk_box, pairs->a, pairs->b, item_off, pairs->n,
                                      sub_off, n_items, s, state);
        most = w > most ? w : most;
    }
    vsg_exec_note_work(x, most);
    return VSG_OK;
}

static vsg_status step_resolve(vsg_exec *x, const vsg_cls_side *a, const vsg_cls_side *b,
                               const vsg_pairs *pairs, const int64_t *item_off,
                               const int64_t *sub_off, int64_t n_items, const uint32_t *state,
                               uint32_t *bits)
{
    LAUNCH(x);
    if (vsg_step_on_gpu(x))
        GPU_OR(vsg_launch_cls_item_resolve(vsg_exec_gpu(x), a, b, pairs->a, pairs->b, pairs->n,
                                           item_off, sub_off, n_items, state, bits));
    for (int64_t t = 0; t < n_items; t++)
        vsg_cls_item_resolve(&a->v, &b->v, pairs->a, pairs->b, item_off, pairs->n, sub_off, t,
                             state, bits);
    return VSG_OK;
}

static vsg_status step_final(vsg_exec *x, const uint8_t *start, const uint32_t *bits,
                             int64_t n, uint8_t *cls)
{
    LAUNCH(x);
    if (vsg_step_on_gpu(x))
        GPU_OR(vsg_launch_cls_pair_final(vsg_exec_gpu(x), start, bits, n, cls));
    for (int64_t k = 0; k < n; k++)
        cls[k] = vsg_cls_pair_final(start[k], bits[k]);
    return VSG_OK;
}

/* ---- the stage ---------------------------------------------------------------- */

typedef struct {
    vsg_cls_side a, b;
    vsg_pairs cp;                    /* chunk pairs whose boxes meet */
    uint32_t *bits, *state;
    uint8_t *start;
    int64_t *n_items, *item_off, *n_sub, *sub_off;
} cls_scratch;

static void scratch_free(vsg_exec *x, cls_scratch *s)
{
    side_free(x, &s->a);
    side_free(x, &s->b);
    vsg_exec_free(x, s->cp.a);
    vsg_exec_free(x, s->cp.b);
    vsg_exec_free(x, s->bits);
    vsg_exec_free(x, s->state);
    vsg_exec_free(x, s->start);
    vsg_exec_free(x, s->n_items);
    vsg_exec_free(x, s->item_off);
    vsg_exec_free(x, s->n_sub);
    vsg_exec_free(x, s->sub_off);
}

static vsg_status run(vsg_exec *x, const vsg_col_view *a, const double *boxes_a,
                      const vsg_col_view *b, const double *boxes_b, const vsg_pairs *pairs,
                      uint8_t *cls, int keep, cls_scratch *s)
{
    vsg_status st;
    const int64_t n = pairs->n;
    int64_t n_items = 0, n_sub = 0;

    vsg_exec_stage_begin(x, "classify_chunks");
    st = side_make(x, a, boxes_a, &s->a);
    if (st == VSG_OK)
        st = side_make(x, b, boxes_b, &s->b);
    vsg_exec_stage_end(x, a->n_rings + b->n_rings, s->a.n_chunks + s->b.n_chunks);
    if (st != VSG_OK)
        return st;

    /* chunk pairs whose boxes meet: the candidates stage's join, on
     * chunks, in no order (each chunk pair finds its pair by a search and
     * only sets a bit of it), unless the join is handed on to the refine,
     * which takes it in the stage's order */
    st = (keep ? vsg_stage_candidates : vsg_stage_candidates_unsorted)(
        x, s->a.chunk_box, s->a.n_chunks, s->b.chunk_box, s->b.n_chunks, &s->cp);
    if (st != VSG_OK)
        return st;

    vsg_exec_stage_begin(x, "classify");
    TRY(vsg_exec_alloc(x, (size_t)n * sizeof(uint32_t), (void **)&s->bits));
    TRY(vsg_exec_memset(x, s->bits, 0, (size_t)n * sizeof(uint32_t)));
    TRY(step_chunk_pairs(x, &s->a, &s->b, &s->cp, pairs, s->bits));

    TRY(vsg_exec_alloc(x, (size_t)n, (void **)&s->start));
    TRY(vsg_exec_alloc(x, (size_t)n * sizeof(int64_t), (void **)&s->n_items));
    TRY(vsg_exec_alloc(x, (size_t)(n + 1) * sizeof(int64_t), (void **)&s->item_off));
    TRY(step_pair_start(x, &s->a, &s->b, pairs, s->bits, s->start, s->n_items));
    TRY(vsg_exec_scan_i64(x, s->n_items, s->item_off, n));
    TRY(vsg_exec_read_i64(x, s->item_off + n, &n_items));

    TRY(vsg_exec_alloc(x, (size_t)n_items * sizeof(int64_t), (void **)&s->n_sub));
    TRY(vsg_exec_alloc(x, (size_t)(n_items + 1) * sizeof(int64_t), (void **)&s->sub_off));
    TRY(step_item_start(x, &s->a, &s->b, pairs, s->item_off, n_items, s->bits, s->n_sub));
    TRY(vsg_exec_scan_i64(x, s->n_sub, s->sub_off, n_items));
    TRY(vsg_exec_read_i64(x, s->sub_off + n_items, &n_sub));

    TRY(vsg_exec_alloc(x, (size_t)n_items * sizeof(uint32_t), (void **)&s->state));
    TRY(vsg_exec_memset(x, s->state, 0, (size_t)n_items * sizeof(uint32_t)));
    TRY(step_crossings(x, &s->a, &s->b, pairs, s->item_off, s->sub_off, n_items, n_sub,
                       s->state));
    TRY(step_resolve(x, &s->a, &s->b, pairs, s->item_off, s->sub_off, n_items, s->state,
                     s->bits));
    TRY(step_final(x, s->start, s->bits, n, cls));
done:
    vsg_exec_stage_end(x, n, n_sub);
    return st;
}

void vsg_chunks_shared_free(vsg_exec *x, vsg_chunks_shared *sh)
{
    for (int k = 0; k < 2; k++) {
        vsg_exec_free(x, sh->ring_chunk[k]);
        vsg_exec_free(x, sh->chunk_geom[k]);
        vsg_exec_free(x, sh->chunk_box[k]);
    }
    vsg_exec_free(x, sh->cp.a);
    vsg_exec_free(x, sh->cp.b);
    memset(sh, 0, sizeof *sh);
}

/* Side s's chunk table moved into keep's side k (s no longer owns it). */
static void side_hand_on(vsg_cls_side *s, vsg_chunks_shared *keep, int k)
{
    keep->n_chunks[k] = s->n_chunks;
    keep->ring_chunk[k] = (int64_t *)s->ring_chunk;
    keep->chunk_geom[k] = (int64_t *)s->chunk_geom;
    keep->chunk_box[k] = (double *)s->chunk_box;
    s->ring_chunk = s->chunk_geom = NULL;
    s->chunk_box = NULL;
}

vsg_status vsg_stage_classify_keep(vsg_exec *x, const vsg_col_view *a, const double *boxes_a,
                                   const vsg_col_view *b, const double *boxes_b,
                                   const vsg_pairs *pairs, uint8_t *cls, vsg_chunks_shared *keep)
{
    if (pairs->n <= 0)
        return VSG_OK;
    cls_scratch s;
    memset(&s, 0, sizeof s);
    vsg_status st = run(x, a, boxes_a, b, boxes_b, pairs, cls, keep != NULL, &s);
    if (st == VSG_OK && keep) {
        side_hand_on(&s.a, keep, 0);
        side_hand_on(&s.b, keep, 1);
        keep->cp = s.cp;
        memset(&s.cp, 0, sizeof s.cp);
    }
    scratch_free(x, &s);
    return st;
}

vsg_status vsg_stage_classify(vsg_exec *x, const vsg_col_view *a, const double *boxes_a,
                              const vsg_col_view *b, const double *boxes_b,
                              const vsg_pairs *pairs, uint8_t *cls)
{
    return vsg_stage_classify_keep(x, a, boxes_a, b, boxes_b, pairs, cls, NULL);
}
