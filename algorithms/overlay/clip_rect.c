/*
 * clip_rect.c - GEOSClipByRect semantics for one batch; one result per
 * input whose clip is not empty, method_index -1.
 *
 *   read     (inputs whose envelope misses the rectangle are skipped)
 *   refine   envelope inside the rectangle -> the input as it is;
 *            envelope strictly outside -> nothing; else GEOSClipByRect;
 *            then the type rule with the rectangle's dimension (2)
 *   encode, assemble
 */
#include <math.h>

#include "overlay/batch.h"
#include "overlay/clip_rect.h"
#include "geometry/dimension.h"
#include "geometry/envelope.h"

typedef struct {
    vsg_batch *b;
    const double *rect;
} refine_ctx;

static void refine_task(void *vc, size_t i, int wid)
{
    refine_ctx *c = vc;
    vsg_batch *b = c->b;
    vsg_read_result *in = &b->in[i];
    if (in->outcome != VSG_READ_GEOM || vsg_failure_skip(&b->failure, (int64_t)i))
        return;
    if (!vsg_box_meets(in->box, c->rect))
        return;
    vsg_worker *w = &b->e->workers[wid];
    const double *rc = c->rect;
    GEOSGeometry *r;

    vsg_worker_clear_message(w);
    if (vsg_box_covers(rc, in->box)) {
        /* Inside: the clip is the input itself. Move it; the batch does
         * not need it again. */
        w->counts.contained_shortcuts++;
        r = in->geom;
        in->geom = NULL;
    } else {
        r = vsg_worker_clip_by_rect(w, (int64_t)i, in->geom, rc);
    }
    vsg_status st = r ? vsg_apply_type_rule(w, &b->e->opts, r, in->dim < 2 ? in->dim : 2, &r)
                      : VSG_ERR_GEOS;
    if (st == VSG_OK && r)
        st = vsg_out_push(w, &b->outs[i], -1, r);
    if (st == VSG_ERR_GEOS && b->e->opts.skip_failures) {
        w->counts.failures_skipped++;
        return;
    }
    if (st != VSG_OK)
        vsg_failure_record(&b->failure, (int64_t)i, st, (int64_t)i, -1,
                           "input feature #%lld: clip by rectangle: %s", (long long)i,
                           st == VSG_ERR_NOMEM ? "out of memory" : vsg_worker_take_message(w));
}

vsg_status vsg_clip_rect_cpu(vsg_engine *e, const double rect[4], const vsg_wkb_array *input,
                             vsg_result *out)
{
    vsg_result_clear(out);
    vsg_batch b;
    vsg_status st = vsg_batch_init(&b, e, input);
    if (st != VSG_OK)
        return st;

    b.extent = rect;   /* inputs outside the rectangle are not even read */
    st = vsg_batch_read(&b);
    if (st == VSG_OK) {
        refine_ctx c = {&b, rect};
        st = vsg_batch_stage(&b, "refine", refine_task, &c, vsg_batch_count_outputs);
    }
    return vsg_batch_finish(&b, st, out);
}
