/*
 * intersection.c - OGRLayer::Intersection semantics for one batch:
 * one result per (input i, method j) pair whose intersection is not
 * empty, ordered by i then j.
 *
 *   read     inputs to GEOS, bad-input policy applied
 *   candidates  method ids whose envelope meets input i (STR tree)
 *   refine   per pair: disjoint -> nothing; a cover -> the covered one
 *            (no overlay); otherwise GEOSIntersection; then the type rule
 *   encode   results to WKB
 *   assemble into the caller's vsg_result, in order
 */
#include <stdlib.h>

#include "core/fault.h"

#include "elements/filter/classify.h"
#include "overlay/by_index.h"
#include "overlay/method_index.h"
#include "overlay/preclip.h"
#include "overlay/relate.h"
#include "geometry/dimension.h"

/* The overlay of one pair, or NULL with the worker's GEOS message set. */
static GEOSGeometry *pair_result(vsg_worker *w, int wid, vsg_subject *s,
                                 const vsg_method_index *idx, size_t j, int hint, int *skip)
{
    *skip = 0;
    const GEOSGeometry *g, *m;
    switch (vsg_relate_hinted(w, wid, s, idx, j, hint, 1, 0)) {
    case VSG_REL_DISJOINT:
        *skip = 1;
        return NULL;
    case VSG_REL_INPUT_COVERED:
        w->counts.contained_shortcuts++;
        g = vsg_subject_geom(w, s);
        return g ? vsg_geom_overlay_copy(w->ctx, g) : NULL;
    case VSG_REL_METHOD_COVERED:
        w->counts.contained_shortcuts++;
        m = vsg_method_geom(idx, w, j);
        return m ? vsg_geom_overlay_copy(w->ctx, m) : NULL;
    case VSG_REL_OVERLAP:
        g = vsg_subject_geom(w, s);
        m = vsg_method_geom(idx, w, j);
        return g && m ? vsg_overlay_intersection(w, s->row, g, m) : NULL;
    default:
        return NULL;
    }
}

/* GEOS's overlay of pair (input s, method j) under the type rule, pushed
 * to out; VSG_OK also when the rule or SKIP_FAILURES leaves nothing. */
static vsg_status geos_pair(vsg_worker *w, int wid, vsg_subject *s, const vsg_refine_ctx *c,
                            size_t j, int hint, vsg_out_list *out)
{
    const vsg_engine_options *o = &c->b->e->opts;
    if (hint == VSG_CLS_A_IN_B) {
        /* the input itself, straight from its bytes where it is unparsed */
        int pushed;
        vsg_status st = vsg_refine_push_covered(c, s, (size_t)s->row, j, (int64_t)j, &pushed);
        if (st != VSG_OK || pushed) {
            w->counts.contained_shortcuts += pushed;
            return st;
        }
    }
    int skip;
    GEOSGeometry *r = pair_result(w, wid, s, c->idx, j, hint, &skip);
    if (skip)
        return VSG_OK;
    vsg_status st = VSG_ERR_GEOS;
    if (r) {
        int pair_dim = s->in->dim < c->idx->dims[j] ? s->in->dim : c->idx->dims[j];
        st = vsg_apply_type_rule(w, o, r, pair_dim, &r);
    }
    if (st == VSG_ERR_GEOS && o->skip_failures) {
        w->counts.failures_skipped++;
        return VSG_OK;
    }
    return st == VSG_OK && r ? vsg_out_push(w, out, (int64_t)j, r) : st;
}

void vsg_intersection_refine(void *vc, size_t i, int wid)
{
    vsg_refine_ctx *c = vc;
    vsg_worker *w;
    vsg_subject s;
    if (!vsg_refine_begin(c, i, wid, &w, &s))
        return;
    vsg_batch *b = c->b;

    for (size_t k = 0; k < c->cands[i].n; k++) {
        size_t j = (size_t)c->cands[i].ids[k];
        vsg_worker_clear_message(w);
        int64_t row = -1;
        int gpu = vsg_refine_gpu(c, i, k, &row);
        if (gpu == VSG_HINT_GPU_EMPTY)
            continue;
        if (gpu == VSG_HINT_GPU_TOUCH) {
            w->counts.lower_dim_dropped++;   /* GEOS: a point or line, dropped */
            continue;
        }
        vsg_status st = gpu == VSG_HINT_GPU_RESULT
                            ? vsg_out_push_columnar(&b->outs[i], (int64_t)j,
                                                    &c->hints->gpu_out, row)
                            : geos_pair(w, wid, &s, c, j, vsg_refine_hint(c, i, k), &b->outs[i]);
        if (st != VSG_OK) {
            vsg_failure_record(&b->failure, (int64_t)i, st, (int64_t)i, (int64_t)j,
                               "input feature #%lld x method feature #%lld: %s",
                               (long long)i, (long long)j,
                               st == VSG_ERR_NOMEM ? "out of memory"
                                                   : vsg_worker_take_message(w));
            break;
        }
    }
    vsg_subject_release(w, &s);
}

