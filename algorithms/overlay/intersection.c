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

#include "overlay/by_index.h"
#include "overlay/method_index.h"
#include "overlay/preclip.h"
#include "overlay/relate.h"
#include "geometry/dimension.h"

/* The GPU refine's polygonal result as GEOS: a MultiPolygon of one part
 * becomes that Polygon, as GEOS's overlay gives it. */
static GEOSGeometry *gpu_result(vsg_worker *w, const unsigned char *wkb, size_t size)
{
    GEOSGeometry *g = GEOSGeomFromWKB_buf_r(w->ctx, wkb, size);
    if (g && GEOSGetNumGeometries_r(w->ctx, g) == 1) {
        GEOSGeometry *one = GEOSGeom_clone_r(w->ctx, GEOSGetGeometryN_r(w->ctx, g, 0));
        GEOSGeom_destroy_r(w->ctx, g);
        g = one;
    }
    return g;
}

/* The overlay of one pair, or NULL with the worker's GEOS message set. */
static GEOSGeometry *pair_result(vsg_worker *w, int wid, vsg_subject *s,
                                 const vsg_method_index *idx, size_t j, int hint, int *skip)
{
    *skip = 0;
    switch (vsg_relate_hinted(w, wid, s, idx, j, hint, 1, 0)) {
    case VSG_REL_DISJOINT:
        *skip = 1;
        return NULL;
    case VSG_REL_INPUT_COVERED:
        w->counts.contained_shortcuts++;
        return vsg_geom_overlay_copy(w->ctx, s->in->geom);
    case VSG_REL_METHOD_COVERED:
        w->counts.contained_shortcuts++;
        return vsg_geom_overlay_copy(w->ctx, idx->geoms[j]);
    case VSG_REL_OVERLAP:
        return vsg_overlay_intersection(w, s->row, s->in->geom, idx->geoms[j]);
    default:
        return NULL;
    }
}

void vsg_intersection_refine(void *vc, size_t i, int wid)
{
    vsg_refine_ctx *c = vc;
    vsg_worker *w;
    vsg_subject s;
    if (!vsg_refine_begin(c, i, wid, &w, &s))
        return;
    vsg_batch *b = c->b;
    const vsg_read_result *in = s.in;
    const vsg_engine_options *o = &b->e->opts;

    for (size_t k = 0; k < c->cands[i].n; k++) {
        size_t j = (size_t)c->cands[i].ids[k];
        int skip = 0;
        vsg_worker_clear_message(w);
        const unsigned char *wkb = NULL;
        size_t size = 0;
        int gpu = vsg_refine_gpu(c, i, k, &wkb, &size);
        if (gpu == VSG_HINT_GPU_EMPTY)
            continue;
        if (gpu == VSG_HINT_GPU_TOUCH) {
            w->counts.lower_dim_dropped++;   /* GEOS: a point or line, dropped */
            continue;
        }
        GEOSGeometry *r = gpu == VSG_HINT_GPU_RESULT
                              ? gpu_result(w, wkb, size)
                              : pair_result(w, wid, &s, c->idx, j, vsg_refine_hint(c, i, k), &skip);
        if (skip)
            continue;
        vsg_status st = VSG_OK;
        if (r) {
            int pair_dim = in->dim < c->idx->dims[j] ? in->dim : c->idx->dims[j];
            st = vsg_apply_type_rule(w, o, r, pair_dim, &r);
        } else {
            st = VSG_ERR_GEOS;
        }
        if (st == VSG_ERR_GEOS && o->skip_failures) {
            w->counts.failures_skipped++;
            continue;
        }
        if (st == VSG_OK && r)
            st = vsg_out_push(w, &b->outs[i], (int64_t)j, r);
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

