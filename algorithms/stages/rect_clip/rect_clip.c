/*
 * rect_clip.c - vsg_stage_rect_clip (stages.h): the rectangle clip of a
 * columnar geometry set on either backend. The per-geometry work is
 * elements/rect_clip/clip.h; here are its three passes and the allocations
 * between them:
 *
 *   prepare   what each row needs, chain ends per polygon row
 *   scan      -> scratch for the chain ends       (one scalar read)
 *   count     output parts / rings / coordinates per row
 *   scans     -> the output columnar               (three scalar reads)
 *   fill      the output, at the scanned offsets
 *
 * The host backend loops over the rows; the GPU backend launches one
 * thread per row (cuda/rect_clip/launch_rect_clip.cu). Nothing is synchronised
 * between passes except the four scalar reads that size allocations.
 */
#include <math.h>
#include <string.h>

#include "stages/stages.h"
#include "elements/rect_clip/clip.h"
#include "exec/exec_internal.h"
#ifdef VSGPU_HAVE_CUDA
#include "rect_clip/launch_rect_clip.h"
#endif

/* One pass over every row, on x's backend. */
static vsg_status rc_run(vsg_exec *x, const rc_args *a, int pass)
{
    int64_t n = a->in.n_geoms;
    vsg_status launched = vsg_exec_launch(x, "rect_clip");
    if (launched != VSG_OK)
        return launched;
    if (vsg_exec_kind_of(x) == VSG_EXEC_GPU) {
#ifdef VSGPU_HAVE_CUDA
        vsg_status st = vsg_launch_rect_clip(vsg_exec_gpu(x), a, pass);
        if (st != VSG_OK)
            return vsg_exec_fail(x, st, "rect_clip: %s", vsg_gpu_last_error(vsg_exec_gpu(x)));
        return VSG_OK;
#else
        return vsg_exec_fail(x, VSG_ERR_NO_GPU, "this build has no CUDA engine");
#endif
    }
    for (int64_t g = 0; g < n; g++) {
        if (pass == VSG_RC_PASS_PREPARE)
            rc_prepare(a, g);
        else if (pass == VSG_RC_PASS_COUNT)
            rc_count(a, g);
        else
            rc_fill(a, g);
    }
    return VSG_OK;
}

/* Scratch of one call, freed together. */
typedef struct {
    void *p[16];
    int n;
} rc_scratch;

static vsg_status rc_alloc(vsg_exec *x, rc_scratch *s, size_t bytes, void **out)
{
    vsg_status st = vsg_exec_alloc(x, bytes, out);
    if (st == VSG_OK)
        s->p[s->n++] = *out;
    return st;
}

/* Scans counts (n) into offs (n + 1) and reads the total: the allocation
 * fence. */
static vsg_status rc_scan_total(vsg_exec *x, const int64_t *counts, int64_t *offs, int64_t n,
                                int64_t *total)
{
    vsg_status st = vsg_exec_scan_i64(x, counts, offs, n);
    return st == VSG_OK ? vsg_exec_read_i64(x, offs + n, total) : st;
}

static vsg_status rc_stage(vsg_exec *x, rc_args *a, rc_scratch *s, vsg_columnar *out)
{
    int64_t n = a->in.n_geoms;
    size_t nb = (size_t)n;
    void *p;
    vsg_status st;
#define RC_ALLOC(field, type, count)                                          \
    do {                                                                      \
        st = rc_alloc(x, s, (size_t)(count) * sizeof(type), &p);             \
        if (st != VSG_OK)                                                     \
            return st;                                                        \
        a->field = (type *)p;                                                 \
    } while (0)

    /* prepare, and scratch for the chain ends */
    int64_t *ep_off;
    RC_ALLOC(kind, uint8_t, nb);
    RC_ALLOC(ep_count, int64_t, nb);
    st = rc_alloc(x, s, (nb + 1) * sizeof(int64_t), &p);
    if (st != VSG_OK)
        return st;
    ep_off = (int64_t *)p;
    a->ep_off = ep_off;
    RC_ALLOC(ring_cls, int32_t, a->in.n_rings);
    if ((st = rc_run(x, a, VSG_RC_PASS_PREPARE)) != VSG_OK)
        return st;
    int64_t n_ends;
    if ((st = rc_scan_total(x, a->ep_count, ep_off, n, &n_ends)) != VSG_OK)
        return st;
    if (n_ends < 0 || (uint64_t)n_ends > SIZE_MAX / sizeof(rc_end))
        return vsg_exec_fail(x, VSG_ERR_NOMEM, "rect_clip: %lld chain ends", (long long)n_ends);
    RC_ALLOC(ends, rc_end, n_ends);
    RC_ALLOC(ord, int32_t, n_ends);
    RC_ALLOC(rank, int32_t, n_ends);
    RC_ALLOC(aux, int32_t, n_ends);

    /* count, and the output */
    RC_ALLOC(cnt_parts, int64_t, nb);
    RC_ALLOC(cnt_rings, int64_t, nb);
    RC_ALLOC(cnt_coords, int64_t, nb);
    if ((st = rc_run(x, a, VSG_RC_PASS_COUNT)) != VSG_OK)
        return st;
    int64_t *offs[3];
    const int64_t *cnts[3] = {a->cnt_parts, a->cnt_rings, a->cnt_coords};
    int64_t tot[3];
    for (int k = 0; k < 3; k++) {
        st = rc_alloc(x, s, (nb + 1) * sizeof(int64_t), &p);
        if (st != VSG_OK)
            return st;
        offs[k] = (int64_t *)p;
        if ((st = rc_scan_total(x, cnts[k], offs[k], n, &tot[k])) != VSG_OK)
            return st;
    }
    a->part_off = offs[0];
    a->ring_off = offs[1];
    a->coord_off = offs[2];
    if ((st = vsg_columnar_alloc(x, out, n, tot[0], tot[1], tot[2], 0)) != VSG_OK)
        return st;
    if ((st = vsg_exec_copy(x, out->geom_part, offs[0], (nb + 1) * sizeof(int64_t))) != VSG_OK)
        return st;

    /* fill */
    a->o_type = out->type;
    a->o_flags = out->flags;
    a->o_part_ring = out->part_ring;
    a->o_ring_coord = out->ring_coord;
    a->o_x = out->x;
    a->o_y = out->y;
    return rc_run(x, a, VSG_RC_PASS_FILL);
#undef RC_ALLOC
}

vsg_status vsg_stage_rect_clip(vsg_exec *x, const vsg_col_view *in, const double *boxes,
                               const double rect[4], vsg_columnar *out, uint8_t *row_cpu)
{
    if (!x || !in || !out || !rect || (in->n_geoms > 0 && (!boxes || !row_cpu)))
        return x ? vsg_exec_fail(x, VSG_ERR_INVALID_ARG, "rect_clip: NULL argument")
                 : VSG_ERR_INVALID_ARG;
    vsg_columnar_init(out);
    for (int k = 0; k < 4; k++)
        if (!isfinite(rect[k]))
            return vsg_exec_fail(x, VSG_ERR_INVALID_ARG, "rect_clip: non-finite rectangle");
    if (rect[0] > rect[2] || rect[1] > rect[3])
        return vsg_exec_fail(x, VSG_ERR_INVALID_ARG, "rect_clip: xmin > xmax or ymin > ymax");
    if (in->n_geoms < 0)
        return vsg_exec_fail(x, VSG_ERR_INVALID_ARG, "rect_clip: negative count");

    vsg_exec_stage_begin(x, "rect_clip");
    rc_args a;
    memset(&a, 0, sizeof a);
    a.in = *in;
    a.boxes = boxes;
    memcpy(a.rect, rect, sizeof a.rect);
    a.row_cpu = row_cpu;
    rc_scratch s;
    s.n = 0;
    vsg_status st = rc_stage(x, &a, &s, out);
    for (int k = s.n - 1; k >= 0; k--)
        vsg_exec_free(x, s.p[k]);
    if (st != VSG_OK)
        vsg_columnar_free(out);
    vsg_exec_stage_end(x, in->n_geoms, st == VSG_OK ? in->n_geoms : 0);
    return st;
}
