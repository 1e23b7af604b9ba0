/*
 * clip.c - OGRLayer::Clip semantics for one batch: each input ∩ the union
 * of the method geometries that intersect it; one result per input whose
 * result is not empty, method_index -1.
 *
 *   read, candidates  as for intersection
 *   refine   collect the candidates that intersect the input; if one of
 *            them covers it the input is the result (no union, no
 *            overlay); else union them (none: no result; one: itself) and
 *            intersect; then the type rule with dim = min(input, union)
 *   encode, assemble
 *
 * Where the GPU pipeline refined the row and unioned its pieces
 * (VSGPU_GPU_REFINE=YES), its result is written as it is.
 */
#include <stdlib.h>

#include "core/fault.h"
#include "overlay/by_index.h"
#include "overlay/method_index.h"
#include "overlay/preclip.h"
#include "overlay/relate.h"
#include "geometry/dimension.h"

/* input ∩ (∪ hits) computed as ∪ (input ∩ hit_k): each piece is at most
 * the size of the input, so the union works on small pieces instead of on
 * the (often large) method geometries. *out NULL on failure: VSG_ERR_NOMEM,
 * or VSG_ERR_GEOS with *fail_j set to the method index whose overlay
 * failed (-1: the union). */
static vsg_status clip_by_hits(vsg_worker *w, int64_t row, const GEOSGeometry *g,
                               const vsg_method_index *idx, const int64_t *hits, size_t n,
                               GEOSGeometry **out, int64_t *fail_j)
{
    *out = NULL;
    GEOSGeometry **pieces = vsg_malloc(n * sizeof *pieces);
    if (!pieces)
        return VSG_ERR_NOMEM;   /* not a GEOS failure: never skipped */
    size_t k = 0;
    for (; k < n; k++) {
        const GEOSGeometry *m = vsg_method_geom(idx, w, (size_t)hits[k]);
        pieces[k] = m ? vsg_overlay_intersection(w, row, g, m) : NULL;
        if (!pieces[k]) {
            *fail_j = hits[k];
            break;
        }
    }
    GEOSGeometry *coll = NULL;
    if (k == n)
        coll = GEOSGeom_createCollection_r(w->ctx, GEOS_GEOMETRYCOLLECTION, pieces, (unsigned)n);
    if (!coll) {
        for (size_t q = 0; q < k; q++)
            GEOSGeom_destroy_r(w->ctx, pieces[q]);
        free(pieces);
        return VSG_ERR_GEOS;
    }
    free(pieces);   /* the collection owns the pieces */
    *fail_j = -1;
    *out = vsg_worker_unary_union(w, row, coll);
    GEOSGeom_destroy_r(w->ctx, coll);
    return *out ? VSG_OK : VSG_ERR_GEOS;
}

/* The clip of one input. *r NULL with VSG_OK: nothing (more) to output
 * (an unparsed covered input is pushed as its bytes here).
 * *pair_dim: the dimension rule's argument. *fail_j: the method index to
 * name on failure (-1 for the union). */
static vsg_status clip_one(vsg_worker *w, int wid, vsg_subject *s, const vsg_method_index *idx,
                           const vsg_refine_ctx *c, size_t i, GEOSGeometry **r, int *pair_dim,
                           int64_t *fail_j)
{
    const vsg_id_list *cand = &c->cands[i];
    *r = NULL;
    *fail_j = -1;
    int64_t *hits = vsg_malloc((cand->n ? cand->n : 1) * sizeof *hits);
    if (!hits)
        return VSG_ERR_NOMEM;
    size_t n_hits = 0;
    int hit_dim = -1;
    vsg_status st = VSG_OK;
    for (size_t k = 0; k < cand->n; k++) {
        size_t j = (size_t)cand->ids[k];
        vsg_relation rel = vsg_relate_hinted(w, wid, s, idx, j, vsg_refine_hint(c, i, k), 0, 1);
        if (rel == VSG_REL_ERROR) {
            *fail_j = (int64_t)j;
            st = VSG_ERR_GEOS;
            goto done;
        }
        if (rel == VSG_REL_INPUT_COVERED) {
            w->counts.contained_shortcuts++;
            *pair_dim = s->in->dim < idx->dims[j] ? s->in->dim : idx->dims[j];
            /* the input itself, straight from its bytes where it is
             * unparsed: pushed here, nothing left to type */
            int pushed;
            st = vsg_refine_push_covered(c, s, i, j, -1, &pushed);
            if (st != VSG_OK || pushed)
                goto done;
            const GEOSGeometry *g = vsg_subject_geom(w, s);
            *r = g ? vsg_geom_overlay_copy(w->ctx, g) : NULL;
            st = *r ? VSG_OK : VSG_ERR_GEOS;
            goto done;
        }
        if (rel == VSG_REL_OVERLAP) {
            hits[n_hits++] = (int64_t)j;
            if (idx->dims[j] > hit_dim)
                hit_dim = idx->dims[j];
        }
    }
    if (n_hits == 0)
        goto done;
    *pair_dim = s->in->dim < hit_dim ? s->in->dim : hit_dim;
    const GEOSGeometry *g = vsg_subject_geom(w, s);
    if (!g) {
        st = VSG_ERR_GEOS;
    } else if (n_hits == 1) {
        *fail_j = hits[0];
        const GEOSGeometry *m = vsg_method_geom(idx, w, (size_t)hits[0]);
        *r = m ? vsg_overlay_intersection(w, s->row, g, m) : NULL;
        st = *r ? VSG_OK : VSG_ERR_GEOS;
    } else {
        st = clip_by_hits(w, s->row, g, idx, hits, n_hits, r, fail_j);
    }
done:
    free(hits);
    return st;
}

/* The GPU pipeline's clip of row i (pipeline/filter.c): pushed as WKB,
 * typed as the type rule types GEOS's result. *done = 0 when GEOS is to
 * clip the row. */
static vsg_status gpu_row(vsg_worker *w, const vsg_refine_ctx *c, size_t i, int *done)
{
    const vsg_pair_hints *h = c->hints;
    *done = 0;
    if (!h || !h->row_gpu || h->row_gpu[i] == VSG_HINT_GPU_NONE)
        return VSG_OK;
    *done = 1;
    if (h->row_gpu[i] == VSG_HINT_GPU_TOUCH)
        w->counts.lower_dim_dropped++;   /* GEOS: a point or line, dropped */
    if (h->row_gpu[i] != VSG_HINT_GPU_RESULT)
        return VSG_OK;
    return vsg_out_push_columnar(&c->b->outs[i], -1, &h->row_out, (int64_t)i);
}

void vsg_clip_refine(void *vc, size_t i, int wid)
{
    vsg_refine_ctx *c = vc;
    vsg_worker *w;
    vsg_subject s;
    if (!vsg_refine_begin(c, i, wid, &w, &s))
        return;
    vsg_batch *b = c->b;
    int on_gpu = 0;
    vsg_status gst = gpu_row(w, c, i, &on_gpu);
    if (on_gpu) {
        vsg_subject_release(w, &s);
        if (gst != VSG_OK)
            vsg_failure_record(&b->failure, (int64_t)i, gst, (int64_t)i, -1,
                               "input feature #%lld: clip: out of memory", (long long)i);
        return;
    }
    GEOSGeometry *r = NULL;
    int pair_dim = -1;
    int64_t fail_j = -1;

    vsg_worker_clear_message(w);
    vsg_status st = clip_one(w, wid, &s, c->idx, c, i, &r, &pair_dim, &fail_j);
    vsg_subject_release(w, &s);
    if (st == VSG_OK && r)
        st = vsg_apply_type_rule(w, &b->e->opts, r, pair_dim, &r);
    if (st == VSG_OK && r)
        st = vsg_out_push(w, &b->outs[i], -1, r);
    if (st == VSG_ERR_GEOS && b->e->opts.skip_failures) {
        w->counts.failures_skipped++;
        return;
    }
    if (st != VSG_OK) {
        const char *why = st == VSG_ERR_NOMEM ? "out of memory" : vsg_worker_take_message(w);
        if (fail_j >= 0)
            vsg_failure_record(&b->failure, (int64_t)i, st, (int64_t)i, fail_j,
                               "input feature #%lld x method feature #%lld: %s",
                               (long long)i, (long long)fail_j, why);
        else
            vsg_failure_record(&b->failure, (int64_t)i, st, (int64_t)i, -1,
                               "input feature #%lld: clip: %s", (long long)i, why);
    }
}

